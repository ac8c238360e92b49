"""Hidden information, the smart bot, SQL views, the renderer and content checks."""

import json
import random

import msgspec
import pytest

from arbiter.cli.render.my_little_scythe import render
from arbiter.core.bots import autoplay
from arbiter.core.engine import Engine
from arbiter.core.errors import BadContent
from arbiter.core.match import Match
from arbiter.core.my_little_scythe import GAME
from arbiter.events import my_little_scythe as ev
from my_little_scythe.helpers import position


def public(obj):
    d = msgspec.to_builtins(obj)
    return json.dumps({k: v for k, v in d.items() if k != "content"} if isinstance(d, dict) else d)


def test_hands_personalities_and_deck_orders_are_hidden_from_other_seats():
    m = Match.new(GAME, seed=4, seats=["ann", "bob", "cy"])
    ann = m.state.players["ann"]
    for seat in ("bob", "cy", None):
        view = public(m.view(seat))
        log = "".join(public(e) for *_, e in m.log(seat))
        for token in (ann.personality, *ann.spells):
            assert token not in view and token not in log
        assert m.view(seat).quest_deck == ("?",) * 12
    assert ann.spells[0] in public(m.view("ann"))
    assert GAME.projection.hidden_from(m.state, "bob") >= {ann.personality, *ann.spells}


def test_a_seat_never_sees_the_other_dial_before_the_reveal():
    m = position(seekers={"ann": ("T3", "base"), "bob": ("T4", "base")}, tracks={"ann": {"pies": 7}},
                 spells={"ann": ("spell-30",)})
    m.apply("ann", "move")
    m.apply("ann", "go 1 T4")
    m.apply("ann", "stay 2")
    m.apply("ann", "dial 6 with spell-30")
    for seat in ("bob", None):
        view = public(m.view(seat))
        assert "spell-30" not in view
        assert m.view(seat).fight.pies == {"ann": -1}
        dials = [e for *_, e in m.log(seat) if isinstance(e, ev.DialSet)]
        assert dials[0].pies == -1 and dials[0].spells == ()
        assert "rendered" and "6" not in render(m.view(seat), seat).split("PIE FIGHT")[1].split("\n")[0]
    m.apply("bob", "dial 2")
    shown = [e for *_, e in m.log("bob") if isinstance(e, ev.PieFightRevealed)][0]
    assert shown.pies == {"ann": 6, "bob": 2} and shown.spells["ann"] == ("spell-30",)


def test_smart_bot_beats_random_bots_and_finishes():
    wins = 0
    for seed in range(3):
        m = Match.new(GAME, seed=seed, seats=["ann", "bob"])
        steps = autoplay(m, {"ann": GAME.bots["smart"]}, random.Random(seed), max_steps=1500)
        assert m.outcome() is not None and steps < 600
        wins += m.outcome().winners == ("ann",)
    assert wins >= 2


def test_smart_bot_does_not_attack_a_stronger_defender():
    m = position(seekers={"ann": ("T3", "base"), "bob": ("T4", "base")},
                 tracks={"ann": {"pies": 0}, "bob": {"pies": 7}}, spells={"ann": ()})
    m.apply("ann", "move")
    legal = m.legal("ann")
    cmd = GAME.bots["smart"](m.state, "ann", legal, random.Random(1))
    assert GAME.command_text(cmd) != "go 1 T4"


@pytest.mark.parametrize("n", [2, 3, 6])
def test_random_games_finish_for_two_three_and_six_players(n):
    m = Match.new(GAME, seed=n, seats=[f"p{i}" for i in range(n)])
    steps = autoplay(m, {}, random.Random(n), max_steps=3000)
    assert m.outcome() is not None and steps < 800
    assert render(m.view(None), None).count("GAME OVER") == 1


def test_sql_views_list_trophies_and_pie_fights(tmp_path):
    from arbiter.core.bots import bot_step
    played = Match.new(GAME, seed=0, seats=["ann", "bob"])
    rng = random.Random(0)
    smart = {"ann": GAME.bots["smart"], "bob": GAME.bots["smart"]}
    commands = [bot_step(played, smart, rng) for _ in range(60)]
    engine = Engine(str(tmp_path / "ms.duckdb"))
    gid, match, _ = engine.new("my-little-scythe", seats=["ann", "bob"], seed=0)
    for seat, text in commands:
        _r, match, _e = engine.do(gid, text, seat)
    earned = [(e.seat, e.trophy) for *_, e in match.items if isinstance(e, ev.TrophyEarned)]
    fights = [e for *_, e in match.items if isinstance(e, ev.PieFightRevealed)]
    assert earned and fights
    with engine.open(read_only=True) as store:
        _cols, rows = store.query("SELECT seat, trophy, turn FROM ms_trophies WHERE game_id = ? ORDER BY seq", [gid])
        assert [(r[0], r[1]) for r in rows] == earned and all(r[2] >= 1 for r in rows)
        _cols, rows = store.query("SELECT attacker, defender, attacker_score, defender_score, winner"
                                  " FROM ms_pie_fights WHERE game_id = ?", [gid])
        assert len(rows) == len(fights)
        for r in rows:
            assert r[4] == (r[0] if r[2] >= r[3] else r[1])


def test_renderer_shows_map_mats_tracks_and_turn():
    m = Match.new(GAME, seed=2, seats=["ann", "bob"])
    text = render(m.view("ann"), "ann")
    for word in ("CASTLE", "P1*", "T3", "friendship 3", "pies 3/10", "trophies 0/4", "Move: move",
                 "Make: bake", "waiting on"):
        assert word in text
    bob = m.state.players["bob"]
    assert bob.spells[0] not in text and bob.personality not in text


def test_check_content_rejects_a_broken_content_file():
    content = GAME.default_content()
    GAME.check_content(content)
    broken = dict(content, trophies=content["trophies"][:7])
    with pytest.raises(BadContent):
        GAME.check_content(broken)
    with pytest.raises(BadContent):
        GAME.check_content({k: v for k, v in content.items() if k != "quests"})


def test_house_content_is_labelled():
    c = GAME.default_content()
    for table in ("spaces", "quests", "spells", "power_ups", "personalities", "mat", "trophies", "base_camps"):
        for entry in c[table]:
            assert entry.get("source"), (table, entry.get("id"))
    house = {o.name: o for o in GAME.options}
    for o in house.values():
        assert o.rule in GAME.rules and GAME.rules.get(o.rule).source == "house"


def test_a_dry_run_reveal_redacts_for_a_seat_whose_fight_is_not_revealed_yet():
    m = position(seekers={"ann": ("T3", "base"), "bob": ("T4", "base")}, tracks={"ann": {"pies": 6}})
    m.apply("ann", "move")
    m.apply("ann", "go 1 T4")
    m.apply("ann", "stay 2")
    m.apply("ann", "dial 5")
    _seat, _cmd, evs = m.decide("bob", "dial 2")  # what `try` computes
    reveal = [e for e in evs if isinstance(e, ev.PieFightRevealed)][0]
    shown = GAME.projection.redact(reveal, "bob", m.state)
    assert shown.pies == {"ann": -1, "bob": -1} and shown.winner == "?"


def test_renderer_fits_100_columns_for_six_players_mid_game():
    import random

    from arbiter.core.bots import autoplay
    m = Match.new(GAME, seed=4, seats=["ann", "bob", "cy", "dee", "eve", "fay"])
    autoplay(m, {}, random.Random(4), max_steps=150)
    for seat in (*m.seats, None):
        text = render(m.view(seat), seat)
        assert max(len(line.rstrip()) for line in text.splitlines()) <= 100, text


def test_a_dry_run_never_names_the_next_spell_quest_or_power_up_tiles():
    m = position(seekers={"ann": ("T3", "T5")}, resources={"T3": {"apple": 1, "gem": 2}, "T4": {"quest": 1}})
    draws = m.folded.draws

    def shown(text):
        _seat, _cmd, evs = m.decide("ann", text)
        return m.preview(evs, "ann", draws)

    spell = [e for e in shown("cast") if isinstance(e, ev.SpellDrawn)][0]
    assert spell.card == "?"
    looked = [e for e in shown("power-up move") if isinstance(e, ev.PowerUpLooked)][0]
    assert set(looked.tiles) == {"?"}
    m.apply("ann", "move")
    m.apply("ann", "go 2 T4")
    m.apply("ann", "stay 1")
    quest = [e for e in shown("explore T4") if isinstance(e, ev.QuestDrawn)][0]
    assert quest.card == "?"
    m.apply("ann", "explore T4")  # once it happens, ann reads her quest
    assert [e for _s, _a, e in m.log("ann") if isinstance(e, ev.QuestDrawn)][-1].card != "?"


def test_a_dry_run_power_up_hides_the_tiles_even_when_they_are_the_whole_pile():
    """Power Up: "select the top 3 tiles from either Power Up deck. Look at them" -- the piles
    lie face down, so a dry run shows no tile, not even when only 3 are left to look at."""
    seats = ("ann", "bob", "cy", "dee", "eve", "fay")
    pile = position(seats=seats).state.piles["make"]
    m = position(seats=seats, seekers={"ann": ("T3", "T5")}, resources={"T3": {"apple": 1, "gem": 1}},
                 tiles={s: {"make": t} for s, t in zip(seats[1:], pile)})
    assert len(m.state.piles["make"]) == 3
    _seat, _cmd, evs = m.decide("ann", "power-up make")
    looked = [e for e in m.preview(evs, "ann", m.folded.draws) if isinstance(e, ev.PowerUpLooked)][0]
    assert set(looked.tiles) == {"?"}
    m.apply("ann", "power-up make")  # once ann looks, she sees them
    look = m.view("ann").look
    assert len(look) == 3 and "?" not in look


def test_a_dry_run_seek_with_an_empty_supply_does_not_name_the_region():
    m = position(tracks={})
    s = m.state
    # empty the apple supply onto the map (as Seeks would): every apple token is out
    from arbiter.core.match import Match
    from arbiter.projections.fold import SETUP
    gained = ev.ResourcesGained(seat="ann", space="D3", gained={"apple": s.supply["apple"]}, reason="test position")
    m = Match(GAME, list(m.items) + [(m.seq + 1, SETUP, gained)])
    _seat, _cmd, evs = m.decide("ann", "seek-apples")
    assert any(isinstance(e, ev.TokenSkipped) for e in evs)  # the real Seek skips a token
    shown = m.preview(evs, "ann", m.folded.draws)
    # the dry run stops at the seek dice it has not rolled: no region it would name is shown
    assert not any(isinstance(e, ev.TokenSkipped) and e.region != "?" for e in shown)
    assert not any(type(e).__name__ == "DiceRolled" and "?" not in e.faces for e in shown)
    m.apply("ann", "seek-apples")  # once rolled, the log names the region
    assert all(e.region != "?" for _s, _a, e in m.log("ann") if isinstance(e, ev.TokenSkipped))


@pytest.mark.parametrize("seats,seed", [(2, 0), (2, 1), (6, 3)])
def test_smart_bots_with_rulebook_defaults_end_by_the_grand_finale(seats, seed):
    """"When a turn comes to an end and one or more players have earned their 4th trophy, the
    tournament enters its grand finale" ("Grand Finale"): with the rulebook's defaults (no
    house round limit) smart bots reach four trophies, well within simulate's step cap."""
    names = [f"bot{i + 1}" for i in range(seats)]
    m = Match.new(GAME, seed=seed, seats=names)
    assert m.created.options["round_limit"] == 0
    steps = autoplay(m, {s: GAME.bots["smart"] for s in names}, random.Random(seed), max_steps=5000)
    o = m.outcome()
    assert o is not None and steps < 1500
    assert o.reason.startswith("the grand finale is over")
    assert all(len(m.state.players[w].trophies) == 4 for w in o.winners)
