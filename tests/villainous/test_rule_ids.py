"""Rule by rule beyond refusals: for each rule id no other test named, the position where
players would argue, played through the public Match; each test names its rule id and quotes
the rulebook sentence (or the house reading) that decides it."""

import pytest

from arbiter.core.errors import RuleViolation
from arbiter.core.match import Match
from arbiter.core.villainous import GAME
from arbiter.events import villainous as ev
from villainous.helpers import content_with, credits, empty_hand, fold, give, new, put, rule_of
from villainous.test_fate_vehicles import stack_fate


def refused(m, seat, text):
    with pytest.raises(RuleViolation) as e:
        m.apply(seat, text)
    return rule_of(e)


def test_sv_not_in_hand_a_card_you_do_not_hold_is_neither_played_nor_discarded():
    """SV-NOT-IN-HAND: only cards in your hand are played or discarded from it."""
    m = empty_hand(credits(new(), "ann", 5), "ann")
    m = give(m, "ann", "cb-hired-gun-1")
    m.apply("ann", "move coruscant")  # Credits 2 | Fate | Play | Discard
    assert refused(m, "ann", "play aurra sing at coruscant") == "SV-NOT-IN-HAND"
    assert refused(m, "ann", "discard aurra sing") == "SV-NOT-IN-HAND"


def test_sv_place_an_ally_goes_to_a_location_of_your_own_sector():
    """SV-PLACE: Allies go to a location of your sector, named."""
    m = credits(give(new(), "ann", "cb-hired-gun-1"), "ann", 5)
    m.apply("ann", "move coruscant")
    assert refused(m, "ann", "play hired gun") == "SV-PLACE"
    assert refused(m, "ann", "play hired gun at garel city") == "SV-PLACE"
    m.apply("ann", "play hired gun at the box")
    assert m.state.sector["ann"]["cb-hired-gun-1"]["loc"] == "the-box"


def test_sv_fate_opponent_you_do_not_fate_yourself():
    """SV-FATE-OPPONENT: "choose an opponent" for a Fate action."""
    m = new()
    m.apply("ann", "move coruscant")
    assert refused(m, "ann", "fate ann") == "SV-FATE-OPPONENT"


def test_sv_fate_empty_no_card_to_reveal_in_deck_or_discard():
    """SV-HOUSE-FATE-EMPTY: a Fate action needs Fate cards to reveal."""
    m = new()
    for card in list(m.state.fate_deck["bob"]):
        m = put(m, "bob", card, "bilzen")
    assert not m.state.fate_deck["bob"] and not m.state.fate_discard["bob"]
    m.apply("ann", "move coruscant")
    assert refused(m, "ann", "fate bob") == "SV-HOUSE-FATE-EMPTY"


def test_sv_fate_engage_needs_both_vehicles_unengaged():
    """SV-FATE-ENGAGE: the Fate action may engage an opponent's Ally Vehicle with a Hero
    Vehicle -- both there and unengaged."""
    m = new()
    m = put(m, "bob", "ss-inquisitor-tie-1", "deep-space")
    m.apply("ann", "move coruscant")
    assert refused(m, "ann", "fate bob engage inquisitor tie the ghost") == "SV-FATE-ENGAGE"
    m = put(m, "bob", "ssf-the-ghost-1", "deep-space")
    m.apply("ann", "fate bob engage inquisitor tie the ghost")
    assert m.state.sector["bob"]["ss-inquisitor-tie-1"]["engaged"] == "ssf-the-ghost-1"


def test_sv_fate_item_an_attached_item_goes_on_a_hero_not_at_a_location():
    """SV-HOUSE-FATE-ITEM: a Fate Item to be attached goes under a Hero in the targeted sector."""
    m = new()
    m = put(m, "bob", "ssf-ezra-bridger-1", "bilzen")
    m = stack_fate(m, "bob", "ssf-rebel-blaster-1", "ssf-kanan-jarrus-1")
    m.apply("ann", "move coruscant")
    m.apply("ann", "fate bob")
    assert refused(m, "ann", "fate-play rebel blaster at bilzen") == "SV-HOUSE-FATE-ITEM"
    m.apply("ann", "fate-play rebel blaster on ezra bridger")
    assert m.state.sector["bob"]["ssf-rebel-blaster-1"]["on"] == "ssf-ezra-bridger-1"


def test_sv_fate_condition_goes_under_the_mover_not_at_a_location():
    """SV-FATE-CONDITION: a Fate Condition is placed under the targeted Villain's mover."""
    m = new()
    m = stack_fate(m, "bob", "ssf-spectre-network-1", "ssf-kanan-jarrus-1")
    m.apply("ann", "move coruscant")
    m.apply("ann", "fate bob")
    assert refused(m, "ann", "fate-play spectre network at bilzen") == "SV-FATE-CONDITION"
    m.apply("ann", "fate-play spectre network")
    assert "ssf-spectre-network-1" in m.state.sector["bob"]


def test_sv_maneuver_and_engage_one_a_vehicle_engages_one_other_only():
    """SV-MANEUVER / SV-ENGAGE-ONE: Maneuver disengages your Ally Vehicle or engages it
    against a Hero Vehicle; a Vehicle engages one single other."""
    m = new()
    m = put(m, "ann", "cb-xanadu-blood-1", "deep-space")
    m = put(m, "ann", "cbf-republic-gunship-1", "deep-space")
    m.apply("ann", "move black stall station")  # ... | Move
    assert refused(m, "ann", "maneuver xanadu blood") == "SV-MANEUVER"  # not engaged: engage what?
    assert refused(m, "ann", "maneuver republic gunship") == "SV-MANEUVER"  # not an Ally Vehicle
    m = fold(m, ev.Engaged(sector="ann", ally_vehicle="cb-xanadu-blood-1", hero_vehicle="cbf-republic-gunship-1"))
    assert refused(m, "ann", "maneuver xanadu blood engage republic gunship") == "SV-ENGAGE-ONE"


def test_sv_engage_an_ally_vehicle_engages_only_a_hero_vehicle_present():
    """SV-ENGAGE: an Ally Vehicle may be played engaged with a Hero Vehicle already there."""
    m = credits(give(new(seed=4), "ann", "cb-xanadu-blood-1"), "ann", 5)
    m.apply("ann", "move bora vio")
    assert refused(m, "ann", "play xanadu blood engage republic gunship") == "SV-ENGAGE"


def test_sv_vanquish_vehicle_allies_do_not_fight_a_hero_vehicle():
    """SV-VANQUISH-VEHICLE: a Hero Vehicle is vanquished through the engaged Ally Vehicle."""
    m = new()
    m = put(m, "ann", "cb-xanadu-blood-1", "deep-space")
    m = put(m, "ann", "cbf-republic-gunship-1", "deep-space")
    m = put(m, "ann", "cb-hired-gun-1", "bora-vio")
    m = fold(m, ev.Engaged(sector="ann", ally_vehicle="cb-xanadu-blood-1", hero_vehicle="cbf-republic-gunship-1"))
    m.apply("ann", "move bora vio")  # ... | Vanquish
    assert refused(m, "ann", "vanquish republic gunship with hired gun") == "SV-VANQUISH-VEHICLE"


def test_sv_choice_there_is_nothing_to_answer():
    """SV-HOUSE-CHOICE: a choice is answered only while a card's ability has one open."""
    m = new()
    m.apply("ann", "move coruscant")
    assert refused(m, "ann", "choose cb-hired-gun-1") == "SV-HOUSE-CHOICE"


def test_sv_condition_met_a_condition_whose_trigger_did_not_happen():
    """SV-CONDITION-MET: a Condition is played only when its condition is met: Double Cross
    answers a vanquish, not an Ally being played. (The house Cad Bane deck has one
    Condition; a content file gives him a second, answering an Ally, so a window opens.)"""
    c = content_with({"cb-ambush": {"type": "condition", "cost": 0, "abilities": [
        {"when": "condition", "trigger": "play_ally", "effects": [{"do": "gain", "credits": 1}]}]}})
    m = new(villains="seventh-sister,cad-bane", condition_windows="always", content=c)
    m = give(m, "bob", "cb-double-cross-1", "cb-ambush-1")
    m = credits(give(m, "ann", "ss-purge-trooper-1"), "ann", 5)
    m.apply("ann", "move bilzen")  # Fate | Play | Move | Credits 1
    m.apply("ann", "play purge trooper at bilzen")  # an Ally played: bob's window opens
    d = m.to_act()
    assert d.kind == "reaction" and d.seats == ("bob",)
    assert refused(m, "bob", "condition double cross") == "SV-CONDITION-MET"
    m.apply("bob", "condition ambush")
    assert "cb-double-cross-1" in m.state.hand["bob"] and "cb-ambush-1" not in m.state.hand["bob"]


def test_sv_first_player_starts_with_no_credits_the_second_with_one():
    """SV-FIRST-PLAYER: the 1st player starts with 0 Credits, the 2nd with 1."""
    m = Match.new(GAME, seed=1, seats=["ann", "bob", "cy"], options={"first_player": "bob"})
    assert m.to_act().seats == ("bob",)
    assert (m.state.credits["bob"], m.state.credits["cy"], m.state.credits["ann"]) == (0, 1, 2)


def test_sv_house_villains_dealt_in_seat_order():
    """SV-HOUSE-VILLAINS: Cad Bane, Seventh Sister, Boba Fett in seat order by default."""
    m = Match.new(GAME, seed=1, seats=["ann", "bob", "cy"])
    assert [m.state.villain[s] for s in ("ann", "bob", "cy")] == ["cad-bane", "seventh-sister", "boba-fett"]


def test_sv_house_cards_are_marked_house():
    """SV-HOUSE-CARDS: the decks shipped are house cards."""
    c = GAME.default_content()
    for v in c["villains"].values():
        assert all(card["source"] == "house" for card in v["villain_deck"] + v["fate_deck"])


def test_sv_house_deep_space_has_no_actions_of_its_own():
    """SV-HOUSE-DEEP-SPACE: Deep Space has no action symbols; the mover may stand on an Ally
    Vehicle there, not on Deep Space itself."""
    m = new()
    m = put(m, "ann", "cb-xanadu-blood-1", "deep-space")
    with pytest.raises(RuleViolation):
        m.apply("ann", "move deep space")
    m.apply("ann", "move xanadu blood")
    assert m.state.mover["ann"] == "cb-xanadu-blood-1"
