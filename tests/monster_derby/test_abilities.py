"""Ability Summary, and the effects the rulebook names in passing (house definitions)."""

from __future__ import annotations

import pytest

from arbiter.core.errors import ManualDiceError
from arbiter.events.monster_derby import Attacked, Damaged, EffectGained, MonsterMoved

from .helpers import control, events_of, finish_turn, mon, rejected, scenario, seat


def att(events):
    return events_of(events, Attacked)


def test_360_attack_reaches_behind():
    m = scenario([("medusa", "3c", None), ("zombie", "2c", None)])
    s = control(m, "medusa", 1)
    assert "attack zombie" in m.legal_texts(s)
    m.apply(s, "attack zombie [0 0 0 blank]")


def test_attack_again_allows_a_second_attack_on_any_target():
    m = scenario([("werewolf", "3c", None), ("golem", "4c", None), ("zombie", "3d", None)])
    s = control(m, "werewolf", 1)
    m.apply(s, "attack golem [0 0 0 blank]")
    assert "attack zombie" in m.legal_texts(s)
    m.apply(s, "attack zombie [0 0 0 blank]")
    rejected(m, "attack zombie [0 0 0 blank]", "MD-ACTION-ONE")


def test_attack_again_as_a_wacky_attack():
    m = scenario([("griffin", "3c", None), ("golem", "4c", None)])
    s = control(m, "griffin", 1)
    events = m.apply(s, "attack golem [0 0 0 sword]")
    assert att(events)[0].wacky_attack == "attack_again"
    m.apply(s, "attack golem [0 0 0 blank]")  # "The monster may attack again"
    rejected(m, "attack golem [0 0 0 blank]", "MD-ACTION-ONE")  # once again, not more


def test_attack_dice_equal_hit_points():
    m = scenario([("troll", "3c", 7), ("golem", "4c", None)])
    s = control(m, "troll", 1)
    assert att(m.apply(s, "attack golem [0 0 0 0 0 0 0 blank]"))[0].dice == 7


def test_blast_hits_every_adjacent_monster_including_behind():
    m = scenario([("dragon", "3c", None), ("golem", "4c", None), ("zombie", "2c", None),
                  ("hare", "3b", None), ("giant", "6c", None)])
    s = control(m, "dragon", 1)
    events = m.apply(s, "attack golem [1 1 1 0 blank]")
    hit = {a.defender: (a.kind, a.damage) for a in att(events)}
    assert hit == {"golem": ("attack", 2), "zombie": ("blast", 2), "hare": ("blast", 3)}
    assert len(events_of(events, type(events[0]))) == 1  # one roll for all of them


def test_brushwalker_and_flies_and_2x_move_are_abilities_lost_in_the_red():
    m = scenario([("hare", "3c", 4), ("golem", "1a", None)])
    control(m, "hare", 3)
    assert mon(m, "hare").hp == 5 and m.state.control.points == 6  # recovered, out of the red


def test_call_places_a_monster_up_to_3_spaces_away_next_to_the_siren():
    m = scenario([("siren", "3c", None), ("giant", "6c", None), ("golem", "7c", None), ("zombie", "4c", None)])
    s = control(m, "siren", 1)
    rejected(m, "call golem 3d", "MD-ABILITY-CALL")  # 4 spaces away
    rejected(m, "call giant 4c", "MD-ABILITY-CALL")  # not empty
    rejected(m, "call giant 5c", "MD-ABILITY-CALL")  # not next to the Siren
    events = m.apply(s, "call giant 2c")  # even behind her
    assert events_of(events, MonsterMoved)[0].kind == "call"
    assert mon(m, "giant").space == "2c"
    rejected(m, "call zombie 3d", "MD-HOUSE-CALL-ONCE")  # once a turn (house: the text sets no number)
    m2 = scenario([("golem", "3c", None), ("giant", "4c", None)])
    s = control(m2, "golem", 1)
    rejected(m2, "call giant 3d", "MD-ABILITY-CALL")


def test_charge_adds_the_movement_die_to_the_attack_dice():
    m = scenario([("centaur", "3c", None), ("golem", "4c", None)])
    s = control(m, "centaur", 4)
    assert att(m.apply(s, "attack golem [0 0 0 0 0 0 0 blank]"))[0].dice == 7


def test_counter_strike_answers_an_adjacent_attacker():
    m = scenario([("giant", "3c", None), ("vampire", "4c", None)])
    s = control(m, "giant", 1)
    events = m.apply(s, "attack vampire [1 0 0 0 0 0 blank 1 1 1 blank]")
    kinds = [(a.attacker, a.kind) for a in att(events)]
    assert kinds == [("giant", "attack"), ("vampire", "counter")]
    assert mon(m, "giant").hp == 10 - 3


def test_no_counter_strike_when_red_or_stunned():
    m = scenario([("giant", "3c", None), ("vampire", "4c", 6)])
    s = control(m, "giant", 1)
    events = m.apply(s, "attack vampire [1 1 0 0 0 0 blank]")  # 2+1 damage: down to 3, red
    assert [a.kind for a in att(events)] == ["attack"]
    m = scenario([("medusa", "3c", None), ("vampire", "4c", None)])
    s = control(m, "medusa", 1)
    events = m.apply(s, "attack vampire [1 0 0 sword]")  # Medusa's wacky attack stuns
    assert [a.kind for a in att(events)] == ["attack"]
    assert any(e.effect == "stun" and e.monster == "vampire" for e in events_of(events, EffectGained))


def test_counter_strike_as_a_wacky_defense():
    m = scenario([("golem", "3c", None), ("minotaur", "4c", None)])
    s = control(m, "golem", 1)
    events = m.apply(s, "attack minotaur [0 0 0 0 shield 0 0 0 0 blank]")
    assert [a.kind for a in att(events)] == ["attack", "counter"]


def test_the_curse_moves_the_monster_back_3_spaces_the_player_choosing_the_way():
    m = scenario([("djinni", "3c", None), ("golem", "4c", None)])
    s = control(m, "djinni", 1)
    events = m.apply(s, "attack golem [0 0 0 sword]")
    assert not events_of(events, MonsterMoved) and m.state.curse.monster == "golem"
    legal = m.legal_texts(s)
    assert legal and all(t.startswith("curse ") and len(t.split()) == 4 for t in legal)
    ends = {t.split()[-1] for t in legal}
    assert len(ends) == len(legal) and "1b" in ends and "1d" in ends
    rejected(m, "end", "MD-CURSE-PATH")
    rejected(m, "curse 3b 2b", "MD-CURSE-PATH")  # 3 spaces when it can
    rejected(m, "curse 5c", "MD-CURSE-PATH")  # never forwards
    events = m.apply(s, "curse 3d 2d 1d")
    moved = events_of(events, MonsterMoved)[0]
    assert moved.kind == "curse" and (moved.frm, moved.to) == ("4c", "1d")
    assert mon(m, "golem").space == "1d" and m.state.curse is None


def test_the_curse_by_its_last_space_and_then_the_counter_strike():
    # the Djinni curses the Werewolf (counter-strike as wacky defense on "both"); after the
    # way back the Werewolf is no longer adjacent, so no counter-strike
    m = scenario([("djinni", "3c", None), ("werewolf", "4c", None)])
    s = control(m, "djinni", 1)
    m.apply(s, "attack werewolf [0 0 0 both]")
    events = m.apply(s, "curse 1b")
    assert mon(m, "werewolf").space == "1b"
    assert [a.kind for a in att(events)] == []


def test_a_curse_with_one_way_back_is_walked_at_once():
    rows = ["XXXXXXXXX", "XXXX.XXXX", ".........", "XXXXXXXXX", "XXXXXXXXX"]  # columns 3-11
    m = scenario([("djinni", "7b", None), ("golem", "8c", None)], rows=rows)
    s = control(m, "djinni", 1)
    events = m.apply(s, "attack golem [0 0 0 sword]")
    moved = [e for e in events_of(events, MonsterMoved) if e.kind == "curse"]
    assert moved and moved[0].to == "5c" and m.state.curse is None


WATER = ["WWWWWWWWW", "WWWWWWWWW", ".........", "WWWWWWWWW", "WWWWWWWWW"]  # columns 3-11


def test_the_curse_goes_back_3_spaces_whatever_the_terrain_by_default():
    """"Move the cursed monster backwards 3 spaces using otherwise normal movement rules"
    (Ability Summary): 3 spaces, through water the Golem would pay 2 for (MD-HOUSE-CURSE-TERRAIN)."""
    m = scenario([("djinni", "7c", None), ("golem", "8c", None)], rows=WATER)
    s = control(m, "djinni", 1)
    m.apply(s, "attack golem [0 0 0 sword]")
    assert all(len(t.split()) == 4 for t in m.legal_texts(s))
    m.apply(s, "curse 7b 6b 5b")
    assert mon(m, "golem").space == "5b"


def test_the_curse_paying_terrain_costs_as_an_option():
    """curse_terrain=costs: 3 movement points at the Golem's walking costs; water costs it 2,
    so it goes back one space and stops, unable to pay the next."""
    m = scenario([("djinni", "7c", None), ("golem", "8c", None)], rows=WATER,
                 options={"curse_terrain": "costs"})
    s = control(m, "djinni", 1)
    m.apply(s, "attack golem [0 0 0 sword]")
    assert sorted(m.legal_texts(s)) == ["curse 7b", "curse 7d"]
    rejected(m, "curse 7b 6b 5b", "MD-CURSE-PATH")
    m.apply(s, "curse 7d")
    assert mon(m, "golem").space == "7d" and m.state.curse is None
    # on path it still goes back 3 spaces (3 points), never more
    m2 = scenario([("djinni", "3c", None), ("golem", "4c", None)], options={"curse_terrain": "costs"})
    s = control(m2, "djinni", 1)
    m2.apply(s, "attack golem [0 0 0 sword]")
    assert {len(t.split()) for t in m2.legal_texts(s)} == {4}


def test_the_curser_chooses_the_way_back_by_default():
    """"The player controlling the monster makes all movement decisions" (Control a Monster):
    the player controlling the cursing monster picks the way (MD-HOUSE-CURSE-CHOOSER)."""
    m = scenario([("djinni", "3c", None), ("golem", "4c", None)], seats=("ann", "bob", "cy"))
    s = control(m, "djinni", 1)
    m.apply(s, "attack golem [0 0 0 sword]")
    assert m.to_act().seats == (s,) and len(m.legal_texts(s)) > 1


def test_the_curse_straight_back_with_no_choice_as_an_option():
    """curse_chooser=straight: nobody chooses; straight back where it can (3c holds the
    Djinni, so first the diagonal towards lane a, then straight on back)."""
    m = scenario([("djinni", "3c", None), ("golem", "4c", None)], options={"curse_chooser": "straight"})
    s = control(m, "djinni", 1)
    events = m.apply(s, "attack golem [0 0 0 sword]")
    moved = [e for e in events_of(events, MonsterMoved) if e.kind == "curse"]
    assert moved and (moved[0].frm, moved[0].to) == ("4c", "1b")
    assert m.state.curse is None


def test_rage_adds_one_now_and_on_later_attacks():
    pen = [".........", "XX.......", "..X......", "XX.......", "........."]  # Giant and Hare stay put
    m = scenario([("giant", "3c", None), ("hare", "4c", None), ("golem", "1a", None)], rows=pen)
    s = control(m, "giant", 1)
    a = att(m.apply(s, "attack hare [1 0 0 0 0 0 sword]"))[0]
    assert a.wacky_attack == "rage" and a.damage == 3  # 1 hit +1 Giant +1 rage
    assert "rage" in mon(m, "giant").effects
    to_next_round(m)  # the clip stays to the end of the next round (MD-HOUSE-RAGE)
    s = control(m, "giant", 1)
    a = att(m.apply(s, "attack hare [1 0 0 0 0 0 blank]"))[0]
    assert a.damage == 3  # 1 hit +1 Giant +1 rage, no wacky face this time
    to_next_round(m)
    assert "rage" not in mon(m, "giant").effects
    s = control(m, "giant", 1)
    assert att(m.apply(s, "attack hare [1 0 0 0 0 0 blank]"))[0].damage == 2


def to_next_round(m):
    """Play out the round: each turn controls the first monster not yet turned, or takes the
    marker when none is left; every monster walks its first legal steps."""
    start = m.state.round
    while m.state.round == start and m.outcome() is None:
        if m.state.control is not None:
            finish_turn(m)
            continue
        s = seat(m)
        m.apply(s, "roll 1")
        left = [t for t in m.legal_texts(s) if t.startswith("control")]
        m.apply(s, left[0] if left else "take-marker")


def test_poison_costs_a_hit_point_when_the_monster_is_next_controlled():
    m = scenario([("vampire", "3c", None), ("golem", "4c", None)])
    s = control(m, "vampire", 1)
    m.apply(s, "attack golem [0 0 0 sword]")
    assert "poison" in mon(m, "golem").effects
    finish_turn(m)
    s2 = seat(m)
    m.apply(s2, "roll 1")
    events = m.apply(s2, "control golem")
    assert [(d.amount, d.cause) for d in events_of(events, Damaged)] == [(1, "poison")]
    assert "poison" not in mon(m, "golem").effects


def test_webs_halve_the_next_movement():
    m = scenario([("siren", "3c", None), ("golem", "4c", None)])
    s = control(m, "siren", 1)
    m.apply(s, "attack golem [0 0 0 sword]")
    finish_turn(m)
    s2 = seat(m)
    m.apply(s2, "roll 5")
    m.apply(s2, "control golem")
    assert m.state.control.points == 2  # halved, rounded down (MD-HOUSE-WEBS)
    assert "webs" not in mon(m, "golem").effects  # the clip is spent


def test_stun_as_wacky_defense_ends_the_attackers_turn():
    m = scenario([("giant", "3c", None), ("golem", "4c", None)])
    s = control(m, "giant", 3)
    m.apply(s, "attack golem [0 0 0 0 0 0 shield]")
    assert m.state.control is None and mon(m, "giant").space == "3c" and seat(m) != s


def test_stun_mid_move_loses_the_rest_of_the_movement():
    m = scenario([("giant", "3c", None), ("golem", "5c", None)])
    s = control(m, "giant", 3)
    m.apply(s, "move 4c")
    m.apply(s, "attack golem [0 0 0 0 0 0 shield]")
    assert m.state.control is None and mon(m, "giant").space == "4c"


def test_a_step_after_a_stun_cites_the_stun_not_the_turn():
    """"might get stunned by the Golem's wacky defense ability and lose the rest of his turn"
    (Example): the refusal of a later step names that rule, not whose turn it is."""
    m = scenario([("giant", "3c", None), ("golem", "5c", None)], seats=("ann", "bob", "cy"))
    s = control(m, "giant", 3)
    m.apply(s, "move 4c")
    m.apply(s, "attack golem [0 0 0 0 0 0 shield]")
    assert seat(m) != s
    for text in ("move 5b", "end", "recover", "attack golem"):
        err = rejected(m, text, "MD-STUNNED", who=s)
        assert "stunned" in str(err)
    m.apply(seat(m), "roll 2")
    rejected(m, "move 5b", "MD-STUNNED", who=s)
    m.apply(seat(m), "take-marker")  # the other player chooses anew: now it is just not s's turn
    rejected(m, "move 5b", "ARB-TURN", who=s)


def test_the_doppelganger_copies_an_adjacent_monsters_special_ability():
    m = scenario([("doppelganger", "3c", None), ("hare", "4c", None), ("griffin", "6a", None)])
    s = control(m, "doppelganger", 2)
    legal = m.legal_texts(s)
    assert "copy hare" in legal and "copy griffin" not in legal  # the Griffin is not adjacent
    rejected(m, "copy griffin", "MD-HOUSE-COPY")
    events = m.apply(s, "copy hare")  # 2x move: the die counts again
    assert m.state.control.points == 4
    assert "copies the hare's ability (2x move): +2 movement points" in m.game.projection.describe(events[0])
    rejected(m, "copy hare", "MD-HOUSE-COPY")
    finish_turn(m)
    assert mon(m, "doppelganger").copied == ""  # only for its own turn


def test_the_doppelganger_copying_flight_must_fly():
    m = scenario([("doppelganger", "3c", None), ("gargoyle", "3b", None), ("giant", "5c", None)])
    s = control(m, "doppelganger", 3)
    m.apply(s, "copy gargoyle")
    assert any(t.startswith("fly ") for t in m.legal_texts(s))
    rejected(m, "move 4c", "MD-FLY-MUST")
    m.apply(s, "fly 6c")
    assert mon(m, "doppelganger").space == "6c"


def test_the_doppelganger_in_the_red_copies_nothing():
    m = scenario([("doppelganger", "3c", 5), ("hare", "4c", None)])
    s = control(m, "doppelganger", 1)
    assert "copy hare" in m.legal_texts(s)
    m2 = scenario([("doppelganger", "3c", 3), ("hare", "4c", None)])
    s2 = control(m2, "doppelganger", 1)
    assert m2.state.control is None or "copy hare" not in m2.legal_texts(s2)


def test_a_cursed_monster_walked_back_next_to_its_curser_still_counter_strikes():
    m = scenario([("djinni", "3c", None), ("werewolf", "4c", None)])
    s = control(m, "djinni", 1)
    m.apply(s, "attack werewolf [0 0 0 both]")  # curse, and the werewolf's wacky counter-strike
    with pytest.raises(ManualDiceError) as exc:
        m.apply(s, "curse 3b 3a 2b")  # ends next to the Djinni: the counter-strike rolls now
    assert "3 attack dice and the wacky die for the werewolf's counter-strike on the djinni" in str(exc.value)
    events = m.apply(s, "curse 3b 3a 2b [1 1 0 blank]")
    assert [(a.kind, a.attacker, a.damage) for a in att(events)] == [("counter", "werewolf", 2)]


def test_a_blast_that_curses_goes_on_to_its_other_defenders():
    m = scenario([("dragon", "3c", None), ("golem", "4c", None), ("zombie", "3b", 7)],
                 overrides={"dragon": {"wacky_attack": "curse"}})
    s = control(m, "dragon", 1)
    events = m.apply(s, "attack golem [0 0 0 0 sword]")
    assert [a.defender for a in att(events)] == ["golem"] and m.state.curse.monster == "golem"
    events = m.apply(s, "curse 1d")
    assert [a.defender for a in att(events)] == ["zombie"]  # the blast goes on, same roll
    assert m.state.curse is not None and m.state.curse.monster == "zombie"
    way = m.legal_texts(s)[0]
    m.apply(s, way)
    assert m.state.curse is None and mon(m, "zombie").space == way.split()[-1]


def test_the_agenda_bot_curses_a_rival_as_far_back_as_it_can():
    import random

    from arbiter.core.monster_derby.bots import agenda_bot
    from arbiter.core.monster_derby.board import along, parse_space

    m = scenario([("djinni", "3c", None), ("golem", "4c", None)])
    s = control(m, "djinni", 1)
    m.apply(s, "attack golem [0 0 0 sword]")
    choice = agenda_bot(m.state, s, m.legal(s), random.Random(0))
    ends = [c.spaces[-1] for c in m.legal(s)]
    furthest_back = min(along(parse_space(e)) for e in ends)
    mine = m.state.monsters["golem"].colour in m.state.kept_points.get(s, {})
    want = max if mine else min
    assert along(parse_space(choice.spaces[-1])) == want(along(parse_space(e)) for e in ends)
    assert furthest_back <= along(parse_space(choice.spaces[-1]))


def test_the_call_menu_offers_the_space_furthest_ahead_and_furthest_back_per_monster():
    m = scenario([("siren", "3c", None), ("giant", "6c", None), ("zombie", "5a", None)])
    s = control(m, "siren", 1)
    calls = [t for t in m.legal_texts(s) if t.startswith("call ")]
    assert calls == ["call giant 4c", "call giant 2c", "call zombie 4c", "call zombie 2c"]
    m.apply(s, "call giant 3b")  # any other empty space next to her may be typed
    assert mon(m, "giant").space == "3b"
