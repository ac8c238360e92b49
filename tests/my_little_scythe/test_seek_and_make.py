"""Seek (dice, placement, gifts, portals, exhausted supplies) and Make (pies, spells, power-ups)."""

import msgspec
import pytest

from arbiter.core.errors import ParseError, RuleViolation
from arbiter.events import my_little_scythe as ev
from arbiter.events.base import DiceRolled
from my_little_scythe.helpers import events_of, position, rule_of


def test_seek_rolls_four_dice_whose_faces_are_regions():
    m = position()
    evs = m.apply("ann", "seek-apples")
    roll = events_of(evs, DiceRolled)[0]
    assert roll.dice == ("apple", "apple", "gem", "quest")
    assert set(roll.faces) <= {"tundra", "mountains", "swamp", "forest", "redrock", "desert"}


def test_worked_example_gem_found_in_red_rock_goes_where_i_choose_there():
    """"I locate a gem in the red rock area, and I get to choose the specific spot"."""
    m = position(dice="manual")
    m.apply("ann", "seek-gems [redrock redrock tundra desert]")
    assert m.state.seek[0] == ("apple", "redrock")
    assert set(m.legal_texts("ann")) == {f"place R{i}" for i in range(1, 6)}
    assert rule_of(m, "ann", "place T1") == "MS-SEEK-REGION"
    assert rule_of(m, "ann", "place P5") == "MS-SEEK-PORTAL"
    m.apply("ann", "place R2")
    m.apply("ann", "place R5")  # the gem, anywhere in the red rock
    assert m.state.board["R5"] == {"gem": 1}


def test_gifts_onto_an_opponents_seeker_gain_friendship_but_not_onto_your_own():
    m = position(dice="manual", seekers={"ann": ("T3", "base"), "bob": ("T4", "base")})
    m.apply("ann", "seek-apples [tundra tundra tundra desert]")
    m.apply("ann", "place T4")
    assert m.state.players["ann"].friendship == 4
    m.apply("ann", "place T3")
    assert m.state.players["ann"].friendship == 4
    evs = m.apply("ann", "place T4")
    assert events_of(evs, ev.TokenPlaced)[0].gift_to == "bob"
    assert m.state.players["ann"].friendship == 5


def test_quest_tokens_avoid_seekers_and_other_quest_tokens():
    m = position(dice="manual", seekers={"ann": ("T3", "base"), "bob": ("T4", "base")},
                 resources={"T5": {"quest": 1}})
    m.apply("ann", "seek-apples [desert desert desert tundra]")
    for _ in range(3):
        m.apply("ann", "place D1")
    assert rule_of(m, "ann", "place T3") == "MS-SEEK-QUEST-SPACE"
    assert rule_of(m, "ann", "place T5") == "MS-SEEK-QUEST-SPACE"
    assert set(m.legal_texts("ann")) == {"place T1", "place T2"}


def test_quest_token_skipped_when_no_space_fits():
    m = position(dice="manual", resources={f"T{i}": {"quest": 1} for i in range(1, 6)})
    evs = m.apply("ann", "seek-apples [desert desert desert tundra]")
    for _ in range(3):
        evs = m.apply("ann", "place D1")
    assert events_of(evs, ev.TokenSkipped)
    assert m.to_act().seats == ("bob",)


def test_exhausted_supply_places_no_more_tokens():
    m = position(dice="manual", resources={"D3": {"apple": 24}})
    evs = m.apply("ann", "seek-apples [tundra tundra tundra tundra]")
    skipped = events_of(evs, ev.TokenSkipped)
    assert [e.kind for e in skipped] == ["apple", "apple"]
    assert m.state.seek == (("gem", "tundra"), ("quest", "tundra"))


def test_the_log_and_the_prompt_name_regions_as_the_rulebook_does():
    """"tundra (white), mountains (grey), swamp (blue), forest (green), red rock (red), or
    desert (yellow)" ("Seek"): a log line and a prompt say "red rock" and "an apple"."""
    from arbiter.core.explain import describe

    m = position(dice="manual")
    m.apply("ann", "seek-apples [redrock tundra desert swamp]")
    assert m.to_act().prompt == "place the apple token found in the red rock"
    evs = m.apply("ann", "place R2")
    line = describe(m, events_of(evs, ev.TokenPlaced)[0], "bob")
    assert line == "ann places an apple token on R2 in the red rock"


def test_the_last_apple_goes_to_the_first_apple_dies_region():
    """MS-H-SEEK-ORDER (house: the rulebook gives no order): with one apple left in the supply
    ("Exhausted resources"), the tokens come up in the order of the dice, so the first apple
    die's region (red rock) gets it and the second's (tundra) is skipped."""
    m = position(dice="manual", resources={"D3": {"apple": 23}})
    assert m.state.supply["apple"] == 1
    m.apply("ann", "seek-apples [redrock tundra desert swamp]")
    assert m.state.seek[0] == ("apple", "redrock")
    evs = m.apply("ann", "place R2")
    assert [(e.kind, e.region) for e in events_of(evs, ev.TokenSkipped)] == [("apple", "tundra")]
    assert m.state.board["R2"] == {"apple": 1} and m.state.seek[0] == ("gem", "desert")


def test_bake_pies_pays_two_apples_and_caps_at_ten():
    m = position(seekers={"ann": ("T3", "T4")}, resources={"T3": {"apple": 1}, "T4": {"apple": 1}},
                 tracks={"ann": {"pies": 9}})
    m.apply("ann", "bake")
    assert m.state.players["ann"].pies == 10 and not m.state.board


def test_bake_without_two_apples_is_refused():
    m = position(seekers={"ann": ("T3", "base")}, resources={"T3": {"apple": 1}})
    assert rule_of(m, "ann", "bake") == "MS-PAY-NOT-ENOUGH"
    assert "bake" not in m.legal_texts("ann")


def test_pay_from_a_chosen_seeker_space_first():
    m = position(seekers={"ann": ("T3", "T4")}, resources={"T3": {"gem": 2}, "T4": {"gem": 2}})
    m.apply("ann", "cast from T4")
    assert m.state.board == {"T3": {"gem": 2}}
    assert rule_of(position(seekers={"ann": ("T3", "T4")}, resources={"T3": {"gem": 2}}), "ann",
                   "cast from T5") == "MS-PAY-FROM-SEEKER"


def test_spellcasting_draws_a_secret_spell():
    m = position(seekers={"ann": ("T3", "base")}, resources={"T3": {"gem": 2}})
    top = m.state.spell_deck[0]
    m.apply("ann", "cast")
    assert top in m.state.players["ann"].spells
    public = {k: v for k, v in msgspec.to_builtins(m.view("bob")).items() if k != "content"}
    assert top not in repr(public) and m.view("bob").players["ann"].spells == ("?", "?")
    shown = [e for _s, _a, e in m.log("bob") if isinstance(e, ev.SpellDrawn) and e.seat == "ann"]
    assert all(e.card == "?" for e in shown)


def test_power_up_looks_at_three_keeps_one_and_returns_the_rest_to_the_bottom():
    m = position(seekers={"ann": ("T3", "base")}, resources={"T3": {"apple": 1, "gem": 1}})
    pile = m.state.piles["move"]
    m.apply("ann", "power-up move")
    assert m.state.look == pile[:3]
    assert m.view("bob").look == ("?", "?", "?")
    assert rule_of(m, "ann", f"keep {pile[4]}") == "MS-POWERUP-KEEP"
    m.apply("ann", f"keep {pile[1]}")
    assert m.state.players["ann"].tiles == {"move": pile[1]}
    assert m.state.piles["move"] == pile[3:] + (pile[0], pile[2])


def test_one_tile_a_section_and_seek_cannot_be_powered_up():
    m = position(seekers={"ann": ("T3", "base")}, resources={"T3": {"apple": 2, "gem": 2}},
                 tiles={"ann": {"move": "pu-move-01"}})
    assert rule_of(m, "ann", "power-up move") == "MS-POWERUP-ONE-PER-SECTION"
    assert "power-up move" not in m.legal_texts("ann") and "power-up make" in m.legal_texts("ann")
    assert rule_of(m, "ann", "power-up seek") == "MS-POWERUP-SECTION"


def test_powering_up_seek_is_refused_by_the_rule_not_as_bad_input():
    """"Please note that Seek cannot be powered up." A command the rulebook forbids is a
    refusal citing its rule (exit 1), not a parse error (exit 2)."""
    m = position(seekers={"ann": ("T3", "base")}, resources={"T3": {"apple": 1, "gem": 1}})
    with pytest.raises(RuleViolation) as e:
        m.decide("ann", "power-up seek")
    assert e.value.rule_id == "MS-POWERUP-SECTION" and "Seek cannot be powered up" in str(e.value)
    with pytest.raises(ParseError):
        m.decide("ann", "power-up sideways")  # names no section at all: bad input


def test_make_tile_moves_the_token_onto_its_action_and_power_up_move_stays_open():
    """"To earn the 2 Power Ups trophy, you must have one Move Power Up tile and one Make Power
    Up tile" and "your action token should be replaced with the Power Up action from your new
    tile" ("Craft"): the token sits on the tile's action, and Power Up still serves Move."""
    m = position(seekers={"ann": ("T3", "base"), "bob": ("S3", "base")},
                 resources={"T3": {"apple": 4, "gem": 2}})
    m.apply("ann", "power-up make")
    tile = m.state.look[0]
    m.apply("ann", f"keep {tile}")
    action = next(t for t in m.state.content["power_ups"] if t["id"] == tile)["action"]["id"]
    assert m.state.players["ann"].last_action == action
    m.apply("bob", "seek-apples")
    while m.state.seek:
        m.apply("bob", m.legal_texts("bob")[0])
    assert rule_of(m, "ann", action) == "MS-SAME-ACTION"
    assert rule_of(m, "ann", "power-up make") == "MS-POWERUP-ONE-PER-SECTION"
    assert "power-up move" in m.legal_texts("ann")
    m.apply("ann", "power-up move")
    m.apply("ann", m.legal_texts("ann")[0])
    assert set(m.state.players["ann"].tiles) == {"move", "make"}
    assert "power-ups-2" in m.state.players["ann"].trophies


def test_friendly_parade_tile_gains_friendship_after_moving():
    m = position(tiles={"ann": {"move": "pu-move-07"}})
    m.apply("ann", "move")
    m.apply("ann", "stay 1")
    m.apply("ann", "stay 2")
    assert m.state.players["ann"].friendship == 4


def test_supply_catapult_carries_two_spaces_and_swift_hooves_three():
    m = position(seekers={"ann": ("T3", "T5")}, resources={"T3": {"apple": 2}},
                 tiles={"ann": {"move": "pu-move-01"}})
    m.apply("ann", "move")
    m.apply("ann", "carry 1 T4 T2 2 apples")
    assert m.state.board == {"T2": {"apple": 2}}
    m = position(seekers={"ann": ("T3", "base")}, tiles={"ann": {"move": "pu-move-05"}})
    m.apply("ann", "move")
    m.apply("ann", "go 1 T4 T2 M1")
    assert m.state.players["ann"].seekers[0] == "M1"


def test_portal_express_enters_the_map_on_any_portal():
    m = position(tiles={"ann": {"move": "pu-move-03"}})
    m.apply("ann", "move")
    m.apply("ann", "go 1 P4")
    assert m.state.players["ann"].seekers[0] == "P4"


def test_supply_catapult_delivers_from_two_spaces_away_but_not_through_an_opponent():
    m = position(seekers={"ann": ("T2", "base")}, resources={"T2": {"gem": 4}},
                 tiles={"ann": {"move": "pu-move-01"}})
    m.apply("ann", "move")
    assert "carry 1 T1 castle 4 gems" in m.legal_texts("ann")
    m.apply("ann", "carry 1 T1 castle 4 gems")
    assert "gem-delivery" in [e.kind + "-delivery" for _s, _c, e in m.items if isinstance(e, ev.DeliveryMade)]
    plain = position(seekers={"ann": ("T2", "base")}, resources={"T2": {"gem": 4}})
    plain.apply("ann", "move")
    with pytest.raises(RuleViolation) as e:
        plain.decide("ann", "carry 1 T1 castle 4 gems")
    assert e.value.rule_id == "MS-MOVE-ADJACENT"
    blocked = position(seekers={"ann": ("T2", "base"), "bob": ("T1", "base")}, resources={"T2": {"gem": 4}},
                       tiles={"ann": {"move": "pu-move-01"}})
    blocked.apply("ann", "move")
    with pytest.raises(RuleViolation) as e:
        blocked.decide("ann", "carry 1 T1 castle 4 gems")
    assert e.value.rule_id == "MS-MOVE-ADJACENT"
