"""On Your Turn: the movement die, the Starting Player Marker, controlling monsters, rounds."""

from __future__ import annotations

from arbiter.events.monster_derby import ControlEnded, RoundBegan, RoundEnded

from .helpers import control, mon, rejected, scenario, seat


def two():
    return scenario([("giant", "3a", None), ("golem", "3e", None)])


def test_roll_first_then_take_the_marker_or_control():
    m = two()
    s = seat(m)
    assert m.legal_texts(s) == ["roll"]
    rejected(m, "control giant", "MD-ROLL-FIRST")
    rejected(m, "take-marker", "MD-ROLL-FIRST")
    m.apply(s, "roll 2")
    rejected(m, "roll 3", "MD-ROLL-FIRST")
    assert set(m.legal_texts(s)) == {"take-marker", "control giant", "control golem"}
    rejected(m, "move 4a", "MD-CONTROL-FIRST")


def test_the_marker_once_a_round_and_its_taker_starts_the_next_round():
    m = two()
    first = seat(m)
    m.apply(first, "roll 1")
    m.apply(first, "take-marker")
    second = seat(m)
    assert second != first
    m.apply(second, "roll 1")
    rejected(m, "take-marker", "MD-MARKER-CLAIMED")
    m.apply(second, "control giant")
    m.apply(second, "move 4a")  # one point, spent: the turn ends by itself (and it recovers)
    assert m.state.control is None and seat(m) == first
    rejected(m, "control giant", "MD-ROLL-FIRST", first)
    m.apply(first, "roll 1")
    rejected(m, "control giant", "MD-CONTROL-ONCE", first)
    events = m.apply(first, "control golem")
    events += m.apply(first, "move 4e")
    assert any(isinstance(e, RoundEnded) for e in events)
    begun = [e for e in events if isinstance(e, RoundBegan)][0]
    assert begun.round == 2 and begun.starter == first
    assert m.state.current == first and m.state.marker == "available"
    assert not mon(m, "giant").turned and not mon(m, "golem").turned


def test_a_round_does_not_end_until_the_marker_is_claimed():
    m = two()
    a = seat(m)
    control(m, "giant", 1)
    m.apply(a, "move 4a")
    b = seat(m)
    control(m, "golem", 1)
    events = m.apply(b, "move 4e")
    assert not any(isinstance(e, RoundEnded) for e in events)
    c = seat(m)
    m.apply(c, "roll 5")
    assert m.legal_texts(c) == ["take-marker"]  # every monster was controlled
    events = m.apply(c, "take-marker")
    assert any(isinstance(e, RoundEnded) for e in events)
    assert m.state.round == 2 and m.state.current == c


def test_a_monster_that_does_not_attack_must_recover():
    m = scenario([("giant", "3a", 8), ("golem", "3e", None)])
    s = control(m, "giant", 2)
    m.apply(s, "move 4a")
    events = m.apply(s, "move 5a")
    assert any(isinstance(e, ControlEnded) for e in events)
    assert mon(m, "giant").hp == 9
