"""Content checks, the renderer, the SQL views, the bots and the golden playthroughs."""

import copy
import json
import os
import random

import pytest

from arbiter.cli.render import renderer
from arbiter.core import transcript
from arbiter.core.bots import autoplay, random_bot
from arbiter.core.engine import Engine
from arbiter.core.errors import BadContent, ParseError
from arbiter.core.funkoverse_jaws import GAME
from arbiter.core.match import Match

from fjhelp import acting

HERE = os.path.dirname(__file__)


def test_check_content_rejects_broken_maps_and_dice():
    good = GAME.default_content()
    GAME.check_content(good)
    bad = copy.deepcopy(good)
    bad["maps"]["orca"]["filled"].append("z9")
    with pytest.raises(BadContent, match="not a square"):
        GAME.check_content(bad)
    bad = copy.deepcopy(good)
    bad["maps"]["orca"]["walls"].append(["a1", "c1"])
    with pytest.raises(BadContent, match="side-by-side"):
        GAME.check_content(bad)
    bad = copy.deepcopy(good)
    bad["dice"]["funkoverse"] = ["skull"]
    with pytest.raises(BadContent, match="funkoverse die"):
        GAME.check_content(bad)
    bad = copy.deepcopy(good)
    del bad["maps"]["orca"]["point_markers"]["D"]
    with pytest.raises(BadContent, match="point markers"):
        GAME.check_content(bad)


def test_house_content_is_labelled():
    c = GAME.default_content()
    assert all(m["source"] == "house" for m in c["maps"].values())
    assert c["characters"]["quint"]["dots_source"] == "house"
    assert all(ch["source"] == "rulebook" for ch in c["characters"].values())


def test_renderer_shows_map_walls_characters_cards_tracks_and_pools():
    m = acting({"quint": "c3", "shark": "c4", "swimmer": "a1", "tiger-shark": "h8"}, "quint",
               down=("tiger-shark",), walls=[["a1", "a2"]], filled=["e5"], posts=[[4, 4]],
               statuses={"shark": ["hunted"]}, dice="manual")
    m.apply(None, "can-crusher shark [circle circle circle star star star star]")  # a tie: nothing
    text = renderer("funkoverse-jaws")(m.state, "ann")
    assert "###" in text and "---" in text and " o" in text
    assert "Q" in text and "t" in text.split("key:")[0]  # Quint standing, Tiger Shark knocked down
    assert "KNOCKED DOWN" in text and "Hunted" in text and "Submerged" in text and "exhausted" not in text
    assert "cooldown: 1: -" in text and "3: cunning token" in text and "pool:" in text
    assert "[" not in text  # nothing rich could take for markup
    assert max(len(line) for line in text.splitlines()) <= 100  # readable at 100 columns


def test_sql_views_count_challenges_and_points(tmp_path):
    engine = Engine(str(tmp_path / "fj.duckdb"))
    smart = GAME.bots["smart"]
    gid, match, _ = engine.new("funkoverse-jaws", seats=["ann", "bob"], seed=3, options={"mode": "control"})
    rng = random.Random(2)
    steps = 0
    while match.outcome() is None and steps < 300:
        seat = match.to_act().seats[0]
        cmd = smart(match.state, seat, match.legal(seat), rng)
        _r, match, _e = engine.do(gid, match.game.command_text(cmd), seat)
        steps += 1
    with engine.open(read_only=True) as store:
        cols, rows = store.query("SELECT challenger_dice, defender_dice, challenger_successes, defender_successes,"
                                 " won, outcome FROM fj_challenges WHERE game_id = ?", [gid])
        assert rows, "no challenges recorded"
        for cd, dd, cs, ds, won, outcome in rows:
            assert cd >= 2 and dd >= 2 and won == (cs > ds)
            assert outcome in ("knocked-down", "knocked-out", "none")
        _c, pts = store.query("SELECT side, SUM(points) FROM fj_points WHERE game_id = ? GROUP BY side ORDER BY side", [gid])
    got = {side: int(total) for side, total in pts}
    assert got.get("light", 0) == match.state.sides["light"].points
    assert got.get("dark", 0) == match.state.sides["dark"].points


def test_smart_bot_beats_random_in_control():
    smart = GAME.bots["smart"]
    wins = 0
    for seed in range(6):
        m = Match.new(GAME, seed=seed, seats=["ann", "bob"], options={"mode": "control"})
        autoplay(m, {"ann": smart, "bob": random_bot}, random.Random(seed), max_steps=600)
        out = m.outcome()
        assert out is not None
        wins += out.winners == ("ann",)
    assert wins >= 5


def test_smart_bot_finishes_first_games_by_knock_out():
    smart = GAME.bots["smart"]
    for seed in range(3):
        m = Match.new(GAME, seed=seed, seats=["ann", "bob"])
        n = autoplay(m, {"ann": smart, "bob": smart}, random.Random(seed), max_steps=600)
        assert m.outcome() is not None and "first-game victory" in m.outcome().reason and n < 200


@pytest.mark.parametrize("name", ["first-game", "flags-three-players"])
def test_golden_playthroughs_replay_to_their_recorded_end(name):
    with open(os.path.join(HERE, "golden", f"{name}.arb")) as f:
        text = f.read()
    with open(os.path.join(HERE, "golden", f"{name}.json")) as f:
        want = json.load(f)
    result = transcript.check(text)
    assert result.ok, f"line {result.line}: {result.error}"
    m = result.match
    out = m.outcome()
    assert out is not None
    assert list(out.winners) == want["winners"] and out.scores == want["scores"] and out.reason == want["reason"]
    assert m.seq == want["events"] and m.state.round == want["round"]


def test_every_cited_rule_and_option_rule_is_in_the_index():
    import re

    index = GAME.rules
    root = os.path.join(HERE, "..", "..", "core", "funkoverse_jaws")
    cited = set()
    for name in os.listdir(root):
        if name.endswith(".py"):
            with open(os.path.join(root, name)) as f:
                cited |= set(re.findall(r'"(FJ-[A-Z0-9-]+)"', f.read()))
    cited |= {o.rule for o in GAME.options}
    missing = sorted(r for r in cited if r not in index)
    assert not missing, missing
    for o in GAME.options:
        rule = index.get(o.rule)
        assert rule is not None and (rule.source == "house") == o.house or o.name in ("harpoon-gun",)


def test_help_gives_an_example_for_every_command_form():
    from arbiter.core.funkoverse_jaws.commands import HELP, VERBS

    lines = [ln.strip() for ln in GAME.syntax]
    assert all(" e.g. " in ln for ln in lines) and all(len(ln) < 96 for ln in lines)
    covered = {w for form, _ in HELP for w in form.replace("|", " ").split() if w in VERBS}
    assert covered >= set(VERBS) - {"use"}
    for form, example in HELP:  # every example parses (the manual-dice one too)
        text = example.split("  ")[0].strip()
        m = acting({"quint": "b2", "shark": "c4", "swimmer": "a1", "tiger-shark": "h8"}, "quint", mode="control")
        GAME.parse(m.state, "ann", text.split("[")[0])


def test_the_menu_puts_challenges_first_and_end_before_the_moves():
    m = acting({"quint": "c3", "shark": "c4", "swimmer": "a1", "tiger-shark": "h8"}, "quint")
    legal = m.legal_texts("ann")
    assert legal[0].startswith(("challenge", "can-crusher", "compare-scars"))
    assert legal.index("end") < min(i for i, t in enumerate(legal) if t.startswith("move "))
    assert legal.index("end") < 30


def test_typos_get_a_hint():
    m = acting({"quint": "c3", "shark": "c4", "swimmer": "a1", "tiger-shark": "h8"}, "quint")
    with pytest.raises(ParseError) as exc:
        m.apply(None, "chalenge shark")
    assert "challenge" in exc.value.hint
    with pytest.raises(ParseError) as exc:
        m.apply(None, "move z9")
    assert "a1 to h8" in exc.value.hint


def test_renderer_fits_100_columns_with_four_players_and_every_card():
    m = acting({"quint": "c3", "shark": "c4", "swimmer": "a1", "tiger-shark": "h8"}, "quint",
               statuses={"shark": ["hunted", "barrel-light"]}, down=("swimmer",), mode="control",
               seats=("annabelle", "bobby", "carlotta", "dmitri"), options={"harpoon-gun": "both"})
    text = renderer("funkoverse-jaws")(m.state, "annabelle")
    assert max(len(line) for line in text.splitlines()) <= 100
    assert "Quint (annabelle)" in text and "Barrel" in text and "Harpoon Gun" in text and "KNOCKED DOWN" in text


def test_a_plain_swim_where_a_basic_move_goes_is_not_offered_but_still_legal():
    m = acting({"shark": "d5", "quint": "a1", "swimmer": "b1", "tiger-shark": "h8"}, "shark")
    legal = m.legal_texts("bob")
    assert "move d7" in legal and "swim d7" not in legal and "swim d7 emerge" in legal and "swim d8" in legal
    assert legal.index("end") < legal.index("move d7") < legal.index("swim d8") < legal.index("swim d7 emerge")
    m.apply(None, "swim d7")  # typed, it is still a legal (if wasteful) Swim
    assert m.state.chars["shark"].square == "d7"


@pytest.mark.parametrize("mode", ["first-game", "control", "flags"])
@pytest.mark.parametrize("seats", [["ann", "bob"], ["ann", "bob", "cy", "dee"]])
def test_smart_bots_with_the_rulebook_defaults_end_by_a_rulebook_ending(mode, seats):
    """No house limit by default: the first game ends on a knock-out ("play until one player
    has knocked out one of their rivals"), a scenario on the points target ("gain 6 points to
    win"), never on a round limit."""
    smart = GAME.bots["smart"]
    for seed in range(4):
        m = Match.new(GAME, seed=seed, seats=seats, options={"mode": mode})
        assert m.state.options["round-limit"] == 0
        n = autoplay(m, {s: smart for s in seats}, random.Random(seed), max_steps=1000)
        out = m.outcome()
        assert out is not None and n < 1000 and out.winners and "round limit" not in out.reason
        if mode == "first-game":
            assert "first-game victory" in out.reason
        else:
            winner = m.state.winner
            assert m.state.sides[winner].points >= 6
            assert m.state.sides[winner].points > m.state.sides["dark" if winner == "light" else "light"].points
