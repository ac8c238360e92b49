"""Rule by rule, the positions where players would argue, played through the public Match
interface; each test quotes the rulebook sentence that decides it."""

from __future__ import annotations

import pytest

from arbiter.core.errors import ManualDiceError
from arbiter.events.monster_derby import Attacked, MonsterDied

from .helpers import control, events_of, mon, rejected, scenario, seat


def test_one_monster_a_turn_and_not_the_marker_as_well():
    """"Then either take the Starting Player Marker (if it is still unclaimed this turn) or
    control a monster" (On Your Turn): one of the two, once."""
    m = scenario([("giant", "3c", None), ("golem", "3a", None)])
    s = control(m, "giant", 2)
    refused = rejected(m, "control golem", "MD-CONTROL-ONE")
    assert f"{s} already controls the Giant this turn" in str(refused)  # the card's name, as elsewhere
    rejected(m, "take-marker", "MD-CONTROL-ONE")
    rejected(m, "roll 4", "MD-ROLL-FIRST")


def test_a_walker_cannot_fly():
    """""Flies" means it can fly" (Monster Card Anatomy): a monster without it walks."""
    m = scenario([("giant", "3c", None), ("golem", "3a", None)])
    control(m, "giant", 2)
    rejected(m, "fly 5c", "MD-FLY-ONLY")


def test_path_is_no_monsters_terrain_so_an_attacker_on_it_rolls_every_die():
    """"A monster in non-native terrain rolls one fewer attack dice. (If the Giant is standing
    in the Brush, Water or Desert while he is attacking he only rolls 5 dice.)" (Terrain
    Effects): the tan path is not among them, so the Giant on path rolls all 6."""
    m = scenario([("giant", "3c", None), ("hare", "4c", None)])
    s = control(m, "giant", 1)
    with pytest.raises(ManualDiceError) as exc:
        m.apply(s, "attack hare [1 1 1 1 1 blank]")  # five faces are one die short
    assert "6 attack dice" in str(exc.value)
    hit = events_of(m.apply(s, "attack hare [1 0 0 0 0 0 blank]"), Attacked)[0]
    assert hit.dice == 6


def test_a_monster_killed_by_a_counter_strike_ends_its_turn_and_its_grave_is_no_target():
    """"If a monster's hit points go to zero, it dies. Remove it from the board, leaving its
    stand as a grave marker" (Damage); "Counter-Strike: ... it gets a free attack on the
    monster that attacked it, if adjacent" (Ability Summary)."""
    m = scenario([("hare", "3c", 5), ("cyclops", "4c", None), ("giant", "4b", None)], seats=("ann", "bob", "cy"))
    s = control(m, "hare", 1)
    # the Cyclops, native to all terrains, stands on path (nobody's terrain): the Hare rolls
    # its 2 dice; the counter-strike 4, with the Cyclops's +1 wacky attack: 5 damage
    events = m.apply(s, "attack cyclops [0 0 blank 1 1 1 1 sword]")
    assert events_of(events, MonsterDied)[0].monster == "hare"
    assert seat(m) != s and mon(m, "hare").status == "dead"
    err = rejected(m, "move 4d", "MD-DEATH-GRAVE", who=s)
    assert "died" in str(err)
    nxt = seat(m)
    m.apply(nxt, "roll 1")
    rejected(m, "control hare", "MD-CONTROL-RACING", who=nxt)
    m.apply(nxt, "control giant")
    rejected(m, "attack hare", "MD-ATTACK-FRONT", who=nxt)


def test_a_finished_monster_is_not_controlled_again():
    """"Select a monster that has not been controlled yet this round" (Control a Monster);
    a monster across the finish line has left the track ("exiting the last map")."""
    m = scenario([("giant", "11c", None), ("golem", "3a", None), ("hare", "3e", None)], seats=("ann", "bob", "cy"))
    s = control(m, "giant", 1)
    m.apply(s, "move finish")
    assert mon(m, "giant").status == "finished"
    rejected(m, "move 4c", "MD-MOVE-FINISHED", who=s)
    nxt = seat(m)
    m.apply(nxt, "roll 1")
    rejected(m, "control giant", "MD-CONTROL-RACING", who=nxt)


def test_a_curse_of_more_than_3_spaces_is_refused_with_its_rule():
    """"Move the cursed monster backwards 3 spaces using otherwise normal movement rules"
    (Ability Summary): four spaces is a form the rulebook forbids, refused citing it."""
    m = scenario([("djinni", "3c", None), ("golem", "4c", None)])
    s = control(m, "djinni", 1)
    m.apply(s, "attack golem [0 0 0 sword]")
    rejected(m, "curse 3b 2b 1b 1a", "MD-CURSE-PATH")
    m.apply(s, "curse 3b 2b 1b")
    assert mon(m, "golem").space == "1b"
