"""Physical dice (--dice manual): the referee says exactly which dice a command rolls, in order."""

from __future__ import annotations

import pytest

from arbiter.core.errors import ManualDiceError
from arbiter.events.monster_derby import Attacked

from .helpers import control, events_of, scenario


def giant_next_to_cyclops():
    m = scenario([("giant", "3c", None), ("cyclops", "4c", None), ("yeti", "3b", None)])
    return m, control(m, "giant", 1)


def test_an_attack_without_faces_names_its_dice_and_the_possible_counter_strike():
    m, s = giant_next_to_cyclops()
    with pytest.raises(ManualDiceError) as exc:
        m.apply(s, "attack cyclops")
    text = str(exc.value)
    assert "attack cyclops rolls 6 attack dice and the wacky die" in text
    assert "attack cyclops [1 0 1 0 1 0 sword]" in text
    assert "the cyclops is still conscious and unstunned it counter-strikes: add 4 attack dice and the wacky die" in text


def test_a_counter_strike_asks_for_more_faces_naming_both_rolls_in_order():
    m, s = giant_next_to_cyclops()
    before = m.seq
    with pytest.raises(ManualDiceError) as exc:
        m.apply(s, "attack cyclops [0 0 0 0 0 0 blank]")
    text = str(exc.value)
    assert ("6 attack dice and the wacky die for the giant's attack on the cyclops; then 4 attack dice and"
            " the wacky die for the cyclops's counter-strike on the giant: 12 faces in this order") in text
    assert "attack cyclops [0 0 0 0 0 0 blank 0 1 0 1 sword]" in text
    assert m.seq == before
    events = m.apply(s, "attack cyclops [0 0 0 0 0 0 blank 1 1 0 0 blank]")
    kinds = [e.kind for e in events_of(events, Attacked)]
    assert kinds == ["attack", "counter"]
    assert m.state.monsters["giant"].hp == 8


def test_a_face_of_the_wrong_die_says_which_order_is_expected():
    m, s = giant_next_to_cyclops()
    with pytest.raises(ManualDiceError) as exc:
        m.apply(s, "attack cyclops [1 0 1 1 1 sword 1]")
    assert "'sword' is not a face of the attack die" in str(exc.value)
    assert "in this order" in str(exc.value)


def test_rolling_the_movement_die_by_hand_says_how():
    m = scenario([("giant", "3c", None), ("cyclops", "4c", None)])
    s = m.to_act().seats[0]
    with pytest.raises(ManualDiceError) as exc:
        m.apply(s, "roll")
    assert "roll 4" in str(exc.value)
    m.apply(s, "roll 4")
    assert m.state.die == 4


def test_faces_for_a_counter_strike_that_did_not_happen_are_explained():
    m, s = giant_next_to_cyclops()
    with pytest.raises(ManualDiceError) as exc:
        m.apply(s, "attack cyclops [1 1 1 1 1 1 blank 1 1 0 0 blank]")  # the Cyclops ends in the red
    text = str(exc.value)
    assert "rolled 6 attack dice and the wacky die for the giant's attack on the cyclops: 7 faces, but 12 were given" in text
    assert "attack cyclops [1 1 1 1 1 1 blank]" in text


def test_a_word_or_two_faces_after_roll_are_answered_with_the_move_dies_faces(tmp_path):
    """`roll x` with physical dice names the move die's faces, as `roll 9` does (it was told
    that roll takes no arguments); the turn line names the seat once."""
    from .test_cli import run

    gid = run(tmp_path, "new", "monster-derby", "-p", "ann,bob", "--seed", "2", "--dice", "manual").stdout.strip()
    for seat in ("ann", "bob"):
        shown = run(tmp_path, "show", gid, "--as", seat, "--format", "json").stdout
        agenda = shown.split('"agenda-')[1].split('"')[0]
        assert run(tmp_path, "do", gid, f"keep agenda-{agenda}", "--as", seat).returncode == 0
    turn = run(tmp_path, "show", gid).stdout
    assert "to act: roll the movement die" in turn and ": bob:" not in turn and ": ann:" not in turn
    for text in ("roll x", "roll 9"):
        out = run(tmp_path, "do", gid, text)
        assert out.returncode == 2, out.stderr
        assert "is not a face of the move die (faces: 1, 2, 3, 4, 5, 6)" in out.stderr
        assert "takes 0 arguments" not in out.stderr
    assert run(tmp_path, "do", gid, "roll 4").returncode == 0
    assert "to act: take the marker or control a monster (rolled 4)" in run(tmp_path, "show", gid).stdout
