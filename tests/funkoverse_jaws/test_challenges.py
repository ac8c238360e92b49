"""Challenges: the die, successes, ties to the defender, knocked down, knocked out, and the
rulebook's worked examples (played with physical dice so the faces are the example's)."""

import pytest

from arbiter.core.errors import RuleViolation
from arbiter.events import funkoverse_jaws as E
from arbiter.events.base import DiceRolled

from fjhelp import acting, events_of, finish_round, last, position


def test_the_die_has_six_faces_three_star_two_circle_one_crit():
    from arbiter.core.funkoverse_jaws import GAME
    faces = GAME.default_content()["dice"]["funkoverse"]
    assert sorted(faces) == ["circle", "circle", "crit", "star", "star", "star"]


def test_a_basic_challenge_example():
    """A Basic Challenge: 2 dice against defense 2; 3 successes to 2 knocks rival Z down."""
    m = acting({"swimmer": "c3", "tiger-shark": "c4", "quint": "a1", "shark": "h8"}, "swimmer", dice="manual")
    m.apply(None, "challenge tiger-shark [crit circle circle circle]")
    res = last(m, E.ChallengeResolved)
    assert (res.challenger_successes, res.defender_successes, res.won, res.result) == (3, 2, True, "knocked-down")
    assert len(res.challenger_faces) == 2 and len(res.defender_faces) == 2
    assert m.state.chars["tiger-shark"].standing is False
    assert m.state.chars["tiger-shark"].square == "c4"  # tipped over where it stood


def test_ties_go_to_the_defender_and_a_lost_challenge_does_nothing():
    m = acting({"swimmer": "c3", "tiger-shark": "c4", "quint": "a1", "shark": "h8"}, "swimmer", dice="manual")
    m.apply(None, "challenge tiger-shark [star star circle circle]")
    res = last(m, E.ChallengeResolved)
    assert (res.challenger_successes, res.defender_successes, res.won, res.result) == (2, 2, False, "none")
    m.apply(None, "challenge tiger-shark [circle circle star crit]")
    res = last(m, E.ChallengeResolved)
    assert (res.challenger_successes, res.defender_successes, res.won) == (0, 3, False)
    assert m.state.chars["tiger-shark"].standing is True
    assert m.state.chars["swimmer"].exhausted  # two actions done: the turn is over


def test_the_critical_face_counts_three_for_whoever_rolled_it():
    m = acting({"swimmer": "c3", "tiger-shark": "c4", "quint": "a1", "shark": "h8"}, "swimmer", dice="manual")
    m.apply(None, "challenge tiger-shark [crit star crit circle]")
    res = last(m, E.ChallengeResolved)
    assert (res.challenger_successes, res.defender_successes) == (4, 4)


def test_knocking_out_a_target_example():
    """Knocking Out a Target: a challenge 3 knocks Z down (2 to 1); ally B then knocks it out,
    and it goes to the 1 of its side's cooldown track."""
    m = acting({"quint": "a1", "tiger-shark": "c3", "swimmer": "d4", "shark": "h8"}, "quint", dice="manual",
               mode="control", statuses={"tiger-shark": ["hunted"]})
    m.apply(None, "can-crusher tiger-shark [star star circle circle star]")  # 3 dice: Hunted is Quint's card
    assert last(m, E.ChallengeDeclared).dice == 3
    res = last(m, E.ChallengeResolved)
    assert (res.challenger_successes, res.defender_successes, res.result) == (2, 1, "knocked-down")
    m.apply(None, "end")
    m.apply(None, "no-hunt")
    m.apply("bob", "choose shark")
    m.apply("bob", "end")
    m.apply("ann", "choose swimmer")
    m.apply("ann", "challenge tiger-shark [star star circle star]")
    assert last(m, E.ChallengeResolved).result == "knocked-out"
    t = m.state.chars["tiger-shark"]
    assert t.square is None and t.out
    assert m.state.sides["dark"].cooldown["char:tiger-shark"] == 1
    assert m.state.sides["light"].points == 1  # scenario: 1 point for a knock-out


def test_first_game_is_won_by_knocking_a_rival_down_then_out():
    m = acting({"swimmer": "c3", "tiger-shark": "c4", "quint": "a1", "shark": "h8"}, "swimmer", dice="manual")
    m.apply(None, "challenge tiger-shark [star star circle star]")
    assert m.outcome() is None
    m.apply(None, "challenge tiger-shark [star star circle star]")
    out = m.outcome()
    assert out is not None and out.winners == ("ann",)
    assert m.to_act().kind == "over"


def test_no_challenging_allies_or_far_rivals():
    m = acting({"swimmer": "c3", "quint": "c4", "tiger-shark": "e5", "shark": "h8"}, "swimmer")
    with pytest.raises(RuleViolation) as exc:
        m.apply(None, "challenge quint")
    assert exc.value.rule_id == "FJ-CHALLENGE-ALLY"
    with pytest.raises(RuleViolation) as exc:
        m.apply(None, "challenge tiger-shark")
    assert exc.value.rule_id == "FJ-ADJACENT"


def test_multiple_challenges_resolve_one_at_a_time_with_separate_rolls():
    m = acting({"swimmer": "c3", "tiger-shark": "c4", "quint": "a1", "shark": "h8"}, "swimmer")
    m.apply(None, "challenge tiger-shark")
    m2_rolls = [e for *_x, e in m.items if isinstance(e, DiceRolled) and e.purpose]
    m.state.chars["swimmer"]
    assert [r.purpose for r in m2_rolls[-2:]] == ["swimmer challenges (basic-challenge)", "tiger-shark defends"]
    decl = events_of(m, E.ChallengeDeclared)
    assert len(decl) == 1 and decl[0].dice == 2 and decl[0].defense == 2


def test_seeded_challenges_are_recorded_as_dice_rolls():
    m = acting({"swimmer": "c3", "tiger-shark": "c4", "quint": "a1", "shark": "h8"}, "swimmer", seed=99)
    m.apply(None, "challenge tiger-shark")
    rolls = [e for *_x, e in m.items if isinstance(e, DiceRolled) and "funkoverse" in e.dice]
    assert [len(r.faces) for r in rolls] == [2, 2]
    res = last(m, E.ChallengeResolved)
    assert res.challenger_faces == rolls[0].faces and res.defender_faces == rolls[1].faces


def test_physical_dice_are_asked_for_both_sides_of_a_challenge_at_once():
    from arbiter.core.errors import ManualDiceError

    m = acting({"quint": "c3", "shark": "c4", "swimmer": "a1", "tiger-shark": "h8"}, "quint", dice="manual")
    with pytest.raises(ManualDiceError) as exc:
        m.apply(None, "can-crusher shark [star star]")
    assert "2 dice for Quint and 4 for The Shark's defense" in str(exc.value)
    assert "star star circle circle circle circle" in exc.value.hint
    m.apply(None, "can-crusher shark [star star circle circle circle circle]")
