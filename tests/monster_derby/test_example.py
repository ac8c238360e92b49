"""The rulebook's Example: the player has rolled a 3 (Gargoyle, Cyclops, Griffin, Golem)."""

from __future__ import annotations

from arbiter.events.monster_derby import Attacked, ControlEnded, MonsterDied, Recovered

from .helpers import EXAMPLE_ROWS, control, mon, rejected, scenario, seat


def example(golem_hp: int | None = None):
    return scenario([("gargoyle", "3c", None), ("cyclops", "4c", 7), ("griffin", "9c", 6),
                     ("golem", "5c", golem_hp)], rows=EXAMPLE_ROWS)


def destinations(m, monster: str, die: int) -> set[str]:
    """Every space the walking monster can end on, trying all legal step sequences."""
    out: set[str] = set()

    def walk(match, path):
        state = match.state
        c = state.control
        if c is None or c.monster != monster:
            out.add(mon(match, monster).space)
            return
        steps = [t for t in match.legal_texts(seat(match)) if t.startswith("move ")]
        if not steps:
            out.add(mon(match, monster).space)
            return
        for t in steps:
            fork = type(match)(match.game, list(match.items))
            fork.apply(seat(fork), t)
            walk(fork, path + [t])

    m2 = type(m)(m.game, list(m.items))
    control(m2, monster, die)
    walk(m2, [])
    return out


def test_the_gargoyle_must_fly_and_may_land_diagonally_behind_the_golem():
    m = example()
    control(m, "gargoyle", 3)
    flights = {t for t in m.legal_texts(seat(m)) if t.startswith("fly ")}
    assert "fly 4d" in flights  # 4d is diagonally behind the Golem on 5c
    assert not any(t.startswith("move ") for t in m.legal_texts(seat(m)))
    # walking 3c -> 3d (brush, 2 points) -> 4d (1 point) would also spend 3, but he must fly
    rejected(m, "move 3d 4d", "MD-FLY-MUST")
    rejected(m, "end", "MD-FLY-MUST")
    m.apply(seat(m), "fly 4d")
    assert mon(m, "gargoyle").space == "4d"
    assert "attack golem" in m.legal_texts(seat(m))


def test_the_gargoyle_attacking_the_golem_may_be_stunned_and_lose_the_rest_of_his_turn():
    m = example()
    s = control(m, "gargoyle", 3)
    m.apply(s, "fly 4d")
    events = m.apply(s, "attack golem [0 0 0 shield]")
    att = [e for e in events if isinstance(e, Attacked)][0]
    assert att.wacky_defense == "stun"
    ended = [e for e in events if isinstance(e, ControlEnded)]
    assert ended and "stunned" in ended[0].reason
    assert m.state.control is None and seat(m) != s


def test_the_gargoyle_at_maximum_does_not_recover_past_the_top():
    m = example()
    s = control(m, "gargoyle", 3)
    events = m.apply(s, "fly 4d")
    if m.state.control is not None:
        events = m.apply(s, "end")
    assert mon(m, "gargoyle").hp == mon(m, "gargoyle").max_hp == 9
    assert [e.hp for e in events if isinstance(e, Recovered)] == [9]


def test_the_cyclops_has_three_spots_and_is_blocked_after_the_brush():
    m = example()
    assert destinations(m, "cyclops", 3) == {"4b", "6c", "6d"}
    control(m, "cyclops", 3)
    rejected(m, "move 5c", "MD-MOVE-BLOCKED")  # the Golem stands straight ahead
    m.apply(seat(m), "move 4b")  # brush costs him 1: he is native to all terrains
    c = m.state.control
    assert c.points == 2
    legal = m.legal_texts(seat(m))
    assert not any(t.startswith("move") for t in legal)  # blocked: he does not fly
    assert "attack golem" in legal  # the Golem is in front of him after he moves, too
    assert "end" in legal


def test_the_cyclops_may_attack_the_golem_before_moving_and_be_stunned():
    m = example()
    s = control(m, "cyclops", 3)
    assert "attack golem" in m.legal_texts(s)
    events = m.apply(s, "attack golem [0 0 0 0 shield]")
    assert any(isinstance(e, ControlEnded) and "stunned" in e.reason for e in events)
    assert mon(m, "cyclops").space == "4c"


def test_the_cyclops_killing_the_golem_can_move_further():
    m = example(golem_hp=1)
    s = control(m, "cyclops", 3)
    events = m.apply(s, "attack golem [1 1 0 0 blank]")
    assert any(isinstance(e, MonsterDied) for e in events)
    assert m.state.graves == {"golem": "5c"}
    m.apply(s, "move 5c 6c 7c")  # through the grave, further than the brush spot
    assert mon(m, "cyclops").space == "7c"


def test_the_cyclops_not_attacking_recovers_up_to_8():
    m = example()
    s = control(m, "cyclops", 3)
    m.apply(s, "move 4b")
    m.apply(s, "end")
    assert mon(m, "cyclops").hp == 8
    m2 = example()
    s = control(m2, "cyclops", 3)
    m2.apply(s, "recover")
    assert mon(m2, "cyclops").hp == 8
    rejected(m2, "recover", "MD-ACTION-ONE")


def test_the_griffin_may_fly_off_or_zigzag_and_squander_a_point_in_non_native_terrain():
    m = example()
    s = control(m, "griffin", 3)
    legal = m.legal_texts(s)
    assert {t for t in legal if t.startswith("fly")} == {"fly finish", "fly 10b", "fly 11c"}
    assert not any(t.startswith("attack") for t in legal)  # everybody else is behind her
    rejected(m, "fly 10c", "MD-FLY-SPEND")
    m.apply(s, "fly 10b")  # one space flown over, then water: 2 to land
    assert mon(m, "griffin").space == "10b"
    assert mon(m, "griffin").hp == 7  # she recovered up to 7
    assert m.state.control is None


def test_the_griffin_can_fly_off_the_board():
    m = example()
    s = control(m, "griffin", 3)
    m.apply(s, "fly finish")
    assert m.state.finishes == ("griffin",)


def test_the_golem_may_zigzag_or_go_straight_and_attack_the_griffin_from_where_he_lands():
    m = example()
    spots = destinations(m, "golem", 3)
    assert {"8c", "6d"} <= spots and len(spots) == 7  # green spots 1-7
    s = control(m, "golem", 3)
    m.apply(s, "move 6c 7c 8c")
    assert "attack griffin" in m.legal_texts(s)
    m2 = example()
    s = control(m2, "golem", 3)
    m2.apply(s, "move 5d 6c 6d")  # zigzag: three points, only a column and a half
    assert mon(m2, "golem").space == "6d"
