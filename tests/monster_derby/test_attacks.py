"""Monster Actions and Damage: targets, attack dice, the wacky die, modifiers, red zone, death."""

from __future__ import annotations

import pytest

from arbiter.core.errors import ManualDiceError
from arbiter.events.monster_derby import Attacked, ControlEnded, EffectGained, MonsterDied, Recovered

from .helpers import control, events_of, mon, rejected, scenario, seat

# column 3 lane c is brush, column 4 lane c rock (the Golem's native terrain)
TERRAIN = [".........", ".........", "BR.......", ".........", "........."]


def att(events):
    return events_of(events, Attacked)


def test_attack_a_monster_in_front_not_behind():
    m = scenario([("giant", "3c", None), ("golem", "4c", None), ("zombie", "2c", None), ("hare", "5c", None)])
    s = control(m, "giant", 1)
    assert {t for t in m.legal_texts(s) if t.startswith("attack")} == {"attack golem"}
    rejected(m, "attack zombie", "MD-ATTACK-FRONT")  # behind
    rejected(m, "attack hare", "MD-ATTACK-FRONT")  # not adjacent
    rejected(m, "attack giant", "MD-ATTACK-FRONT")


def test_attack_dice_one_fewer_for_a_native_defender_and_for_a_non_native_attacker():
    m = scenario([("giant", "3c", None), ("golem", "4c", None)], rows=TERRAIN)
    s = control(m, "giant", 1)
    with pytest.raises(ManualDiceError):
        m.apply(s, "attack golem [1 1 1 1 1 1 blank]")  # 6 is too many
    events = m.apply(s, "attack golem [1 1 0 0 blank]")
    assert att(events)[0].dice == 4  # 6, -1 golem in rock, -1 giant standing in brush
    m2 = scenario([("giant", "3b", None), ("golem", "4c", None)], rows=TERRAIN)
    s = control(m2, "giant", 1)
    assert att(m2.apply(s, "attack golem [1 1 0 0 0 blank]"))[0].dice == 5  # giant on path


def test_hits_count_the_ones_and_slide_the_clip():
    m = scenario([("cyclops", "3c", None), ("zombie", "4c", None)])
    s = control(m, "cyclops", 1)
    events = m.apply(s, "attack zombie [1 0 1 0 blank]")
    a = att(events)[0]
    assert (a.dice, a.hits) == (4, 2)
    assert a.damage == 1  # the Zombie's half damage: 2 -> 1
    assert mon(m, "zombie").hp == 8


def test_damage_modified_by_the_attacker_first_then_the_defender():
    m = scenario([("giant", "3c", None), ("zombie", "4c", None)])
    s = control(m, "giant", 1)
    events = m.apply(s, "attack zombie [1 1 1 0 0 0 blank]")
    # 3 hits, +1 (Giant) = 4, then half (Zombie) = 2; the other order would give 3
    assert att(events)[0].damage == 2


def test_minus_one_and_plus_one_damage():
    m = scenario([("cyclops", "3c", None), ("golem", "4c", None)])
    s = control(m, "cyclops", 1)
    assert att(m.apply(s, "attack golem [1 1 1 0 blank]"))[0].damage == 2  # Golem: -1
    m = scenario([("giant", "3c", None), ("hare", "4c", None)])
    s = control(m, "giant", 1)
    a = att(m.apply(s, "attack hare [1 1 0 0 0 0 blank]"))
    assert a[0].damage == 3  # Giant: +1


def test_half_damage_rounds_up():
    m = scenario([("cyclops", "3c", None), ("zombie", "4c", None)])
    s = control(m, "cyclops", 1)
    assert att(m.apply(s, "attack zombie [1 1 1 0 blank]"))[0].damage == 2  # 3 / 2 rounded up


def test_the_wacky_die_both_resolves_the_wacky_attack_first():
    m = scenario([("cyclops", "3c", None), ("gargoyle", "4c", None)])
    s = control(m, "cyclops", 1)
    a = att(m.apply(s, "attack gargoyle [1 1 0 0 both]"))[0]
    assert (a.wacky_attack, a.wacky_defense) == ("plus_one", "minus_one")
    assert a.damage == 2  # 2 hits +1 (wacky attack) -1 (wacky defense)


def test_sword_only_and_shield_only():
    m = scenario([("cyclops", "3c", None), ("gargoyle", "4c", None)])
    s = control(m, "cyclops", 1)
    a = att(m.apply(s, "attack gargoyle [1 1 0 0 sword]"))[0]
    assert (a.wacky_attack, a.wacky_defense, a.damage) == ("plus_one", "", 3)
    m = scenario([("cyclops", "3c", None), ("gargoyle", "4c", None)])
    s = control(m, "cyclops", 1)
    a = att(m.apply(s, "attack gargoyle [1 1 0 0 shield]"))[0]
    assert (a.wacky_attack, a.wacky_defense, a.damage) == ("", "minus_one", 1)


def test_dodge_is_resolved_before_the_wacky_attack():
    m = scenario([("vampire", "3c", None), ("griffin", "4c", None)])
    s = control(m, "vampire", 1)
    events = m.apply(s, "attack griffin [1 1 1 both]")
    a = att(events)[0]
    assert (a.wacky_attack, a.wacky_defense, a.damage) == ("", "dodge", 0)
    assert not events_of(events, EffectGained)  # the poison never landed
    assert mon(m, "griffin").hp == 7


def test_one_action_attack_or_recover():
    m = scenario([("giant", "3c", None), ("golem", "4c", None)])
    s = control(m, "giant", 1)
    m.apply(s, "attack golem [0 0 0 0 0 0 blank]")
    rejected(m, "recover", "MD-ACTION-ONE")
    rejected(m, "attack golem [0 0 0 0 0 0 blank]", "MD-ACTION-ONE")
    m = scenario([("giant", "3c", None), ("golem", "4c", None)])
    s = control(m, "giant", 1)
    m.apply(s, "recover")
    rejected(m, "attack golem [0 0 0 0 0 0 blank]", "MD-ACTION-ONE")


def test_attack_at_any_point_of_the_move():
    m = scenario([("giant", "3c", None), ("golem", "5c", None), ("zombie", "6d", None)])
    s = control(m, "giant", 3)
    m.apply(s, "move 4c")
    m.apply(s, "attack golem [0 0 0 0 0 0 blank]")  # during the move
    m.apply(s, "move 4d 5d")
    assert m.state.control is None and mon(m, "giant").space == "5d"


def test_below_5_it_must_recover_and_cannot_attack_but_moves_if_no_longer_red():
    """"If the monster's hit points are below 5, the monster must take the "Recover" action
    this round instead of attacking" (Control a Monster): at 5 after recovering, the refusal
    says it was below 5 when controlled, not that it is below 5 now."""
    m = scenario([("giant", "3c", 4), ("golem", "4c", None)])
    s = control(m, "giant", 2)
    assert mon(m, "giant").hp == 5  # recovered at once, out of the red
    assert not any(t.startswith("attack") for t in m.legal_texts(s))
    refused = rejected(m, "attack golem [0 0 0 0 0 0 blank]", "MD-RED-RECOVER")
    assert "was below 5 hit points when it was controlled" in str(refused)
    assert "instead of attacking" in str(refused)
    m.apply(s, "move 3d 4d")
    assert mon(m, "giant").space == "4d"


def test_still_red_after_recovering_it_is_unconscious():
    m = scenario([("hare", "3c", 3), ("golem", "1a", None)])
    s = control(m, "hare", 6)
    assert mon(m, "hare").hp == 4 and mon(m, "hare").space == "3c"
    assert m.state.control is None and seat(m) != s
    assert mon(m, "hare").turned
    # "If, even after recovering, a monster is still in the red zone, it is unconscious and
    # doesn't get to move" (Damage): a move now cites that rule, not whose turn it is
    err = rejected(m, "move 4c", "MD-RED-NO-MOVE", who=s)
    assert "unconscious" in str(err)


def test_a_red_defender_loses_its_special_ability():
    m = scenario([("cyclops", "3c", None), ("golem", "4c", 4)])
    s = control(m, "cyclops", 1)
    assert att(m.apply(s, "attack golem [1 1 1 0 blank]"))[0].damage == 3  # no -1 while red


def test_death_leaves_a_grave():
    m = scenario([("giant", "3c", None), ("hare", "4c", 2), ("golem", "1a", None)])
    s = control(m, "giant", 1)
    events = m.apply(s, "attack hare [1 0 0 0 0 0 blank]")
    assert events_of(events, MonsterDied)[0].space == "4c"
    assert mon(m, "hare").status == "dead" and m.state.graves == {"hare": "4c"}
    assert "control hare" not in m.legal_texts(s)


def test_a_blocked_monster_may_still_attack_and_a_turn_without_attack_recovers():
    m = scenario([("giant", "3c", 8), ("golem", "4c", None), ("zombie", "3b", None), ("hare", "3d", None)])
    s = control(m, "giant", 3)
    legal = m.legal_texts(s)
    assert not any(t.startswith("move") for t in legal)
    assert "attack golem" in legal and "end" in legal
    events = m.apply(s, "end")
    assert events_of(events, Recovered)[0].hp == 9
    assert events_of(events, ControlEnded)


def test_a_monster_put_in_the_red_during_its_turn_may_only_recover():
    # Damage: "If a monster's hit points go to 4 or less that monster may only take recover actions"
    m = scenario([("werewolf", "3c", 5), ("cyclops", "4c", None), ("zombie", "3d", None)])
    s = control(m, "werewolf", 1)
    m.apply(s, "attack cyclops [0 0 0 blank 1 1 0 0 blank]")  # the Cyclops counter-strikes: 2 damage
    assert m.state.monsters["werewolf"].hp == 3
    assert not any(t.startswith("attack") for t in m.legal_texts(s))  # no Attack Again now
    assert "down to 3 hit points" in str(rejected(m, "attack zombie", "MD-RED-RECOVER"))
