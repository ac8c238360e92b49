"""`why` on Scott Pilgrim lists its stage and choice rules only where they apply: placement
is over once the battle starts (SP-PLACE-SETUP); a knock, land or drop choice is checked
only when the command names one (SP-CHOICE); a throw only when the move asks for one."""

from __future__ import annotations

from arbiter.core.explain import explain
from arbiter.core.match import Match
from arbiter.projections.kernel import REFEREE
from sp_helpers import battle, to_good_turn


def listed(m: Match) -> set[str]:
    """The rules `why` lists for the last command of ``m``."""
    return {r.id for r in explain(m, m.seq, REFEREE).rules}


def test_placing_lists_the_setup_rule_and_a_roll_does_not():
    m = battle({"scott": "f4", "matthew": "g4"}, placement="choose")
    placer = m.to_act().seats[0]
    m.apply(placer, "place default")
    assert "SP-PLACE-SETUP" in listed(m)
    while m.state.phase == "place":
        m.apply(m.to_act().seats[0], "place default")
    m.apply(m.to_act().seats[0], "roll [speed speed speed speed speed]")
    assert "SP-PLACE-SETUP" not in listed(m) and "SP-ROLL-ONCE" in listed(m)


def test_a_choice_is_listed_only_when_the_command_names_one():
    m = battle({"scott": "f4", "matthew": "g4"}, objects={"amp": "i4"})
    to_good_turn(m, "guts guts will speed speed")
    plain = battle({"scott": "f4", "matthew": "g4"}, objects={"amp": "i4"})
    to_good_turn(plain, "guts guts will speed speed")
    m.apply("good", "scott judo-throw matthew land matthew@k5 pay guts guts")
    plain.apply("good", "scott judo-throw matthew pay guts guts")
    assert "SP-CHOICE" in listed(m)
    assert "SP-CHOICE" not in listed(plain)


def test_a_move_that_throws_nothing_does_not_list_the_throw_rule():
    m = battle({"scott": "f4", "matthew": "g4"})
    to_good_turn(m, "guts guts will speed speed")
    m.apply("good", "scott move e4 pay speed")
    assert "SP-MOVE-SPACES" in listed(m) and "SP-EX-THROW" not in listed(m)
