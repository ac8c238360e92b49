"""Commands as text, bots, SQL views, the renderer and log lines."""

from __future__ import annotations

import random

import pytest

from arbiter.cli.render.monster_derby import render
from arbiter.core.bots import autoplay
from arbiter.core.engine import Engine
from arbiter.core.errors import ParseError
from arbiter.core.match import Match
from arbiter.core.monster_derby import GAME
from arbiter.events.monster_derby import Attacked, MonsterFinished

from .helpers import control, scenario


def played(seed: int, bots=None, seats=("ann", "bob", "cy")) -> tuple[Match, int]:
    m = Match.new(GAME, seed=seed, seats=list(seats))
    n = autoplay(m, bots or {}, random.Random(seed), max_steps=3000)
    return m, n


@pytest.mark.parametrize("text", [
    "", "dance", "control", "control nessie", "attack", "attack nessie", "move", "move 99z",
    "move 0a", "fly", "fly 3c 4c", "call giant", "call giant zz", "keep", "keep golem",
    "roll 3 4", "recover now", "end turn", "take marker please", "take",
])
def test_malformed_commands_are_parse_errors_with_a_hint(text):
    m = scenario([("giant", "3c", None), ("golem", "4c", None)])
    with pytest.raises(ParseError) as exc:
        GAME.parse(m.state, "ann", text)
    assert exc.value.hint or "empty" in str(exc.value)


@pytest.mark.parametrize("text", ["keep", "keep golem", "keep agenda-01 agenda-02"])
def test_a_mistyped_keep_names_no_agenda_card(text):
    """Agendas are kept secretly: the hint for a malformed keep shows its form without naming
    a card, which might be another player's."""
    import re

    m = Match.new(GAME, seed=1, seats=["ann", "bob"])
    with pytest.raises(ParseError) as exc:
        GAME.parse(m.state, "ann", text)
    said = str(exc.value)
    assert "keep AGENDA" in said and not re.search(r"agenda-\d", said.replace(text, "")), said


def test_every_legal_command_round_trips_through_its_text():
    m, _ = played(3)
    for _ in range(2):
        for seed in range(3):
            mm = Match.new(GAME, seed=seed, seats=["ann", "bob"])
            rng = random.Random(seed)
            for _ in range(150):
                if mm.outcome():
                    break
                seat = mm.to_act().seats[0]
                for c in mm.legal(seat):
                    assert GAME.parse(mm.state, seat, GAME.command_text(c)) == c
                autoplay(mm, {}, rng, max_steps=1)


def test_random_play_finishes_in_a_few_hundred_commands():
    counts = [played(seed)[1] for seed in range(10)]
    for seed, n in enumerate(counts):
        assert n < 1000, (seed, n)
    assert sum(counts) / len(counts) < 600


def test_same_seed_same_commands_same_events():
    a, _ = played(9)
    b, _ = played(9)
    assert [GAME.codec.encode(e) for _, _, e in a.items] == [GAME.codec.encode(e) for _, _, e in b.items]


def test_the_agenda_bot_finishes_games_and_beats_random_players_more_often_than_not():
    wins = 0
    for seed in range(12):
        m, n = played(seed, {"ann": GAME.bots["agenda"]})
        assert m.outcome() is not None and n < 1500
        wins += "ann" in m.outcome().winners
    assert wins >= 5  # a third would be chance


def test_the_agenda_bot_pushes_its_own_monsters_and_attacks_the_others():
    m = scenario([("giant", "3c", None), ("golem", "4c", None), ("zombie", "3a", None)],
                 agendas=[{"red": 8}], keep={"ann": {"red": 8}, "bob": {"red": 8}})
    seat = m.to_act().seats[0]
    bot = GAME.bots["agenda"]
    m.apply(seat, "roll 3")
    # a good roll goes to its own (red) monster, the Giant
    assert GAME.command_text(bot(m.state, seat, m.legal(seat), random.Random(1))) == "control giant"
    m.apply(seat, "control giant")
    choice = GAME.command_text(bot(m.state, seat, m.legal(seat), random.Random(1)))
    assert choice == "attack golem"  # it attacks a monster its agenda does not pay for
    m.apply(seat, "attack golem [0 0 0 0 0 0 blank]")
    choice = GAME.command_text(bot(m.state, seat, m.legal(seat), random.Random(1)))
    assert choice.startswith(("move 3b", "move 3d"))  # forward; straight on is blocked by the Golem
    m2 = scenario([("giant", "3c", None), ("golem", "5c", None), ("zombie", "3a", None)],
                  agendas=[{"red": 8}], keep={"ann": {"red": 8}, "bob": {"red": 8}})
    seat = m2.to_act().seats[0]
    m2.apply(seat, "roll 1")
    # a poor roll goes to a monster it does not back, which it then dawdles with
    assert GAME.command_text(bot(m2.state, seat, m2.legal(seat), random.Random(1))) in ("control golem", "control zombie")


def test_sql_views_md_attacks_and_md_finishes(tmp_path):
    m, _ = played(4)
    engine = Engine(str(tmp_path / "md.duckdb"))
    with engine.open() as store:
        gid = engine.store_match(store, m)
        cols, rows = store.query("SELECT attacker, defender, dice, hits, damage FROM md_attacks WHERE game_id = ?", [gid])
        assert cols == ["attacker", "defender", "dice", "hits", "damage"]
        attacks = [e for _, _, e in m.items if isinstance(e, Attacked)]
        assert len(rows) == len(attacks)
        if attacks:
            assert rows[0] == (attacks[0].attacker, attacks[0].defender, attacks[0].dice, attacks[0].hits, attacks[0].damage)
        cols, rows = store.query('SELECT monster, "order", seq FROM md_finishes WHERE game_id = ? ORDER BY "order"', [gid])
        fin = [e for _, _, e in m.items if isinstance(e, MonsterFinished)]
        assert [r[0] for r in rows] == [e.monster for e in fin]
        assert [r[1] for r in rows] == list(range(1, len(fin) + 1))


def test_render_shows_track_monsters_turn_and_marker():
    m = scenario([("giant", "3c", 6), ("golem", "4c", None)])
    s = control(m, "giant", 2)
    text = render(m.view(s), s)
    assert "Giant" in text and "6/10" in text and "GI" in text
    assert f"{s}'s turn" in text and "movement die 2" in text and "marker" in text
    m.apply(s, "attack golem [0 0 0 0 0 0 blank]")
    m2 = scenario([("giant", "3c", None), ("hare", "4c", 1), ("golem", "1a", None)])
    s = control(m2, "giant", 1)
    m2.apply(s, "attack hare [1 0 0 0 0 0 blank]")
    assert "dead (grave 4c)" in render(m2.state, None)
    done, _ = played(2)
    assert "game over" in render(done.state, None)


def test_the_monster_under_control_is_shown_controlled_and_turned_only_after_its_turn():
    """End Monster Turn: "After the monster resolves its action and full movement, rotate it 90
    degrees to show that it took its turn for this round" - not when it is taken under control."""
    m = scenario([("giant", "3c", None), ("golem", "1a", None)])
    s = control(m, "giant", 2)
    text = render(m.state, None)
    giant = next(line for line in text.splitlines() if line.startswith("GI Giant"))
    assert "controlled now" in giant and "turned" not in giant
    assert " GI " in next(line for line in text.splitlines() if line.startswith(" c "))  # upright on the board
    m.apply(s, "move 4c 5c")
    text = render(m.state, None)
    giant = next(line for line in text.splitlines() if line.startswith("GI Giant"))
    assert " turned" in giant and "controlled" not in giant
    assert " gi " in next(line for line in text.splitlines() if line.startswith(" c "))


def test_describe_gives_readable_lines():
    m, _ = played(5)
    lines = [GAME.projection.describe(e) for _, _, e in m.items]
    assert any("rolls" in x for x in lines) and any("crosses the finish line" in x for x in lines)
    assert not any(x.startswith("MonsterMoved") for x in lines)


def test_why_lists_the_rules_an_accepted_command_passed():
    from arbiter.core.errors import stop_trace, trace_rules

    from .helpers import control, scenario

    m = scenario([("golem", "3c", None), ("giant", "1a", None)])
    s = control(m, "golem", 1)
    trail, token = trace_rules()
    try:
        m.decide(s, "move 4c")
    finally:
        stop_trace(token)
    assert {"MD-MOVE-AHEAD", "MD-MOVE-BLOCKED", "MD-MOVE-POINTS"} <= set(trail)
    assert all(r in GAME.rules for r in trail)
