"""Rule by rule, more positions where players would argue, played through the public Match
interface; each test quotes the rulebook sentence that decides it and checks the rule cited."""

from __future__ import annotations

from sp_helpers import battle, ch, to_good_turn
from test_sp_rulings import rule


def test_walls_are_permanent_and_no_one_moves_through_them():
    """"Characters cannot move through walls ... These walls are permanent and cannot be
    removed" (Core Concepts: The Rockit Venue)."""
    m = battle({"scott": "a4", "matthew": "f4"}, objects={})
    to_good_turn(m, "will will guts guts speed")
    assert rule(m, "good", "scott move a0 pay speed") == "SP-MOVE-WALL"
    assert ch(m, "scott").pos == "a4"
    m.apply("good", "scott move a3 a2 a1 pay speed")  # along the wall is fine
    assert ch(m, "scott").pos == "a1"


def test_a_character_uses_only_the_abilities_on_their_own_board():
    """"You can use a special ability by spending the combination of dice it lists on your
    player board" (Use a Special Ability): Ramona cannot use Scott's Shadow Kick, nor Matthew."""
    m = battle({"scott": "a4", "ramona": "e4", "matthew": "f4"}, roster="scott,ramona", objects={})
    to_good_turn(m, "will will guts guts speed")
    assert rule(m, "good", "ramona shadow-kick matthew") == "SP-ABILITY-NOT-YOURS"
    m2 = battle({"scott": "e4", "matthew": "f4"}, objects={})
    m2.apply("bad", "roll [will speed speed speed speed]")
    assert rule(m2, "bad", "matthew shadow-kick scott") == "SP-ABILITY-NOT-YOURS"


def test_grab_an_object_takes_objects_not_characters_for_a_will_die():
    """"You can spend a Will die (or booster) to grab an object in an adjacent space" (Grab an
    Object): not a teammate, and not for a Guts die."""
    m = battle({"scott": "a4", "ramona": "b5", "matthew": "f4"}, roster="scott,ramona", objects={"amp": "b4"})
    to_good_turn(m, "will will guts guts speed")
    assert rule(m, "good", "scott grab ramona") == "SP-GRAB-OBJECT"
    assert rule(m, "good", "scott grab amp pay guts") == "SP-DICE-COST"
    m.apply("good", "scott grab amp pay will")
    assert ch(m, "scott").holding == "amp"


def test_only_the_good_guys_use_items_and_only_those_they_hold():
    """"The Good Guys draw one item card per Good Guy in play, keeping them secret from the
    Bad Guys" (Setup): an item not in their hand cannot be used, and Matthew uses none."""
    m = battle({"scott": "a4", "matthew": "f4"}, objects={}, items=["sushi", "garlic-bread"])
    to_good_turn(m, "will will guts guts speed")
    held = {t.split(":", 1)[1] for t in m.state.hand}
    other = next(i for i in ("sushi", "garlic-bread") if i not in held)
    assert rule(m, "good", f"use {other} scott") == "SP-ITEM-HELD"
    m2 = battle({"scott": "e4", "matthew": "f4"}, objects={})
    m2.apply("bad", "roll [will speed speed speed speed]")
    assert rule(m2, "bad", "use garlic-bread matthew") == "SP-ITEM-GOOD"
