"""Setup: boards, monsters, agendas (secret), the random starting player, options, content."""

from __future__ import annotations

import copy

import msgspec
import pytest

from arbiter.core.errors import BadContent, BadOption
from arbiter.core.match import Match
from arbiter.core.monster_derby import GAME
from arbiter.events.base import GameCreated
from arbiter.events.monster_derby import AgendaKept, AgendasDealt, MonsterPlaced, StartingPlayerChosen, TrackLaid


def new(seed=5, seats=("ann", "bob", "cy"), **options):
    return Match.new(GAME, seed=seed, seats=list(seats), options=options)


def test_setup_lays_four_boards_and_turns_up_8_of_25_monsters_at_full_hit_points():
    m = new()
    content = m.created.content
    assert len(content["monsters"]) == 25 and len(content["boards"]) == 8 and len(content["agendas"]) == 25
    assert all(b["source"] == "house" for b in content["boards"] + content["agendas"])
    track = [e for _, _, e in m.items if isinstance(e, TrackLaid)][0]
    assert len(track.layout) == 4 and len({s[:-1] for s in track.layout}) == 4
    assert m.state.columns == 2 + 4 * 5 and m.state.lanes == 5
    placed = [e for _, _, e in m.items if isinstance(e, MonsterPlaced)]
    assert len(placed) == 8 and len({p.monster for p in placed}) == 8
    assert [p.space for p in placed] == content["start_board"]["blocks"]
    assert len({p.colour for p in placed}) == 8
    for p in placed:
        assert m.state.monsters[p.monster].hp == m.state.monsters[p.monster].max_hp
    assert m.created.options["boards"] == 4


def test_fewer_or_more_boards_and_boards_chosen_on_purpose():
    assert new(boards=2).state.columns == 12
    assert new(boards=8).state.columns == 42
    m = new(boards=2, layout="3b,1a")
    content = m.created.content
    boards = {b["id"]: b for b in content["boards"]}
    assert m.state.layout == ("3b", "1a")
    assert m.state.rows[0] == content["start_board"]["rows"][0] + boards["3"]["sides"]["b"][0] + boards["1"]["sides"]["a"][0]
    with pytest.raises(BadOption):
        new(boards=2, layout="3b")
    with pytest.raises(BadOption):
        new(boards=2, layout="3b,3a")
    with pytest.raises(BadOption):
        new(boards=9)


def test_the_monster_deck_is_shuffled_differently_by_seed():
    deals = {tuple(m for m in new(seed=s).state.order) for s in range(6)}
    assert len(deals) > 1


def test_agendas_three_dealt_each_one_kept_secretly():
    m = new()
    hands = m.state.dealt
    assert all(len(h) == 3 for h in hands.values())
    assert len({c for h in hands.values() for c in h}) == 9
    assert m.to_act().kind == "simultaneous" and set(m.to_act().seats) == {"ann", "bob", "cy"}
    hidden = GAME.projection.hidden_from(m.state, "ann")
    assert hidden == set(hands["bob"]) | set(hands["cy"])
    ann_view = msgspec.json.encode(m.view("ann")).decode()
    assert all(tok not in ann_view for tok in hidden)
    assert all(c in ann_view for c in hands["ann"])
    with pytest.raises(Exception) as exc:
        m.apply("ann", f"keep {hands['bob'][0]}")
    assert getattr(exc.value, "rule_id", "") == "MD-AGENDA-KEEP"
    m.apply("bob", f"keep {hands['bob'][1]}")
    with pytest.raises(Exception) as exc:
        m.apply("bob", f"keep {hands['bob'][2]}")
    assert getattr(exc.value, "rule_id", "") in ("MD-AGENDA-KEEP", "ARB-TURN")
    log = m.log("ann")
    kept = [e for _, _, e in log if isinstance(e, AgendaKept)][0]
    assert kept.agenda == "?" and kept.discarded == ("?", "?") and kept.points == {}
    dealt = [e for _, _, e in log if isinstance(e, AgendasDealt) and e.seat == "bob"][0]
    assert dealt.cards == ("?", "?", "?")
    assert m.state.phase == "agendas"
    m.apply("ann", f"keep {hands['ann'][0]}")
    m.apply("cy", f"keep {hands['cy'][2]}")
    assert m.state.phase == "play" and m.state.round == 1
    assert m.state.kept_points["bob"]  # what the kept card pays, for scoring at the end
    assert m.view("ann").kept["bob"] == "?"


def test_the_starting_player_is_random_and_gets_the_first_turn():
    starters = set()
    for s in range(12):
        m = new(seed=s)
        chosen = [e for _, _, e in m.items if isinstance(e, StartingPlayerChosen)][0].seat
        for seat in m.seats:
            m.apply(seat, f"keep {m.state.dealt[seat][0]}")
        assert m.state.current == chosen and m.state.marker == "available"
        starters.add(chosen)
    assert len(starters) > 1


def test_wacky_die_faces_are_an_option():
    m = new()
    assert GAME.dice(m.created)["wacky"] == ("sword", "sword", "shield", "shield", "both", "blank")
    m = new(wacky_die="1-1-4-0")
    assert GAME.dice(m.created)["wacky"] == ("sword", "shield", "both", "both", "both", "both")
    assert GAME.dice(m.created)["attack"] == ("1", "1", "1", "0", "0", "0")
    assert GAME.dice(m.created)["move"] == tuple("123456")
    with pytest.raises(BadOption):
        new(wacky_die="3-3-1-1")


def test_player_count_is_2_to_8():
    with pytest.raises(BadOption):
        new(seats=("ann",))
    new(seats=tuple(f"p{i}" for i in range(8)))
    with pytest.raises(BadOption):
        new(seats=tuple(f"p{i}" for i in range(9)))


def test_bad_content_is_refused_with_a_clear_message():
    good = GAME.default_content()
    GAME.check_content(good)
    for breaker, words in [
        (lambda c: c.pop("boards"), "boards"),
        (lambda c: c["monsters"][0].update(ability="teleport"), "ability"),
        (lambda c: c["monsters"][0].update(wacky_defense="sulk"), "wacky defense"),
        (lambda c: c["boards"][0]["sides"]["a"].pop(), "lanes"),
        (lambda c: c["boards"][0]["sides"]["a"].__setitem__(0, "QQQQQ"), "unknown terrain"),
        (lambda c: c.__setitem__("monsters", c["monsters"][:5]), "8 monster"),
        (lambda c: c["agendas"][0].update(points={"mauve": 3}), "unknown colours"),
    ]:
        bad = copy.deepcopy(good)
        breaker(bad)
        with pytest.raises(BadContent) as exc:
            GAME.check_content(bad)
        assert words in str(exc.value)


def test_options_are_recorded_in_game_created():
    m = new()
    created = m.items[0][2]
    assert isinstance(created, GameCreated)
    assert set(created.options) == {"boards", "layout", "lanes", "wacky_die", "graves_block", "call_range", "tie_break", "curse_terrain", "curse_chooser"}
    rules = GAME.rules
    for opt in GAME.options:
        assert opt.rule in rules
        if opt.house:
            assert rules.get(opt.rule).source == "house"


def test_lane_width_is_an_option():
    m = new(lanes=4)
    assert m.state.lanes == 4 and all(len(r) == m.state.columns for r in m.state.rows)
    spaces = sorted(m.state.monsters[x].space for x in m.state.order)
    assert spaces == sorted(f"{c}{l}" for c in (1, 2) for l in "abcd")
    with pytest.raises(BadOption):
        new(lanes=3)
    with pytest.raises(BadContent):
        new(lanes=6)
    import random

    from arbiter.core.bots import autoplay
    autoplay(m, {}, random.Random(1), max_steps=3000)
    assert m.outcome() is not None


def test_more_bad_content():
    good = GAME.default_content()
    for breaker, words in [
        (lambda c: c["monsters"][0].update(natives=["lava"]), "natives"),
        (lambda c: c["monsters"][0].update(attack=-1), "attack"),
        (lambda c: c["agendas"][0].update(points={"red": [1, 2]}), "three numbers"),
        (lambda c: c["start_board"].update(blocks=["1a"]), "8 numbered"),
    ]:
        bad = copy.deepcopy(good)
        breaker(bad)
        with pytest.raises(BadContent) as exc:
            GAME.check_content(bad)
        assert words in str(exc.value)
