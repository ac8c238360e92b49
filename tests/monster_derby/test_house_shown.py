"""House content is shown as house where a player sees it (show, play): the boards, the
monsters the rulebook does not describe, the agenda cards."""

import random

from arbiter.cli.render.monster_derby import render
from arbiter.core.bots import autoplay
from arbiter.core.match import Match
from arbiter.core.monster_derby import GAME


def test_the_race_marks_house_boards_monsters_and_agendas():
    m = Match.new(GAME, seed=3, seats=["ann", "bob"])
    autoplay(m, {}, random.Random(1), 2)  # both agendas kept
    text = render(m.view("ann"), "ann")
    assert "boards (house)" in text.splitlines()[0]
    for mid in m.state.order:
        line = next(x for x in text.splitlines() if m.state.monsters[mid].name in x and "dice" in x)
        source = next(c["source"] for c in GAME.default_content()["monsters"] if c["id"] == mid)
        assert line.endswith("(house)" if source == "house" else "(house numbers)")
    assert ", house): " in next(x for x in text.splitlines() if x.startswith("your agenda"))


def test_rulebook_content_is_not_marked_house():
    content = GAME.default_content()
    for m in content["monsters"]:
        m["source"] = "rulebook"
    content["start_board"]["source"] = "rulebook"
    for a in content["agendas"]:
        a["source"] = "rulebook"
    m = Match.new(GAME, seed=3, seats=["ann", "bob"], content=content)
    autoplay(m, {}, random.Random(1), 2)
    lines = render(m.view("ann"), "ann").splitlines()
    assert not any("house" in line for line in lines if not line.startswith("house options: "))


def test_show_names_the_house_options_in_force():
    """House options are labelled house where a player sees them, as they are typed."""
    m = Match.new(GAME, seed=3, seats=["ann", "bob"], options={"tie_break": "best", "graves_block": True})
    last = render(m.view("ann"), "ann").splitlines()[-1]
    assert last.startswith("house options: ")
    assert "tie_break=best" in last and "graves_block=true" in last and "curse_terrain=free" in last
    assert "boards=" not in last  # the rulebook's own option is not house
