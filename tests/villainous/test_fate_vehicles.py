"""Fate, Heroes, Hero and Ally Vehicles, engagement, Deep Space control and hand limit
(rulebook: Fate, Fate Cards, Vehicles)."""

import pytest

from arbiter.core.errors import RuleViolation
from arbiter.events import villainous as ev
from arbiter.events.base import Shuffled
from villainous.helpers import ambition, at, credits, empty_hand, fold, give, new, put, rule_of


def stack_fate(m, seat, *top):
    """Put chosen cards on top of a Fate deck (a reshuffle that came out that way)."""
    rest = [c for c in m.state.fate_deck[seat] if c not in top]
    return fold(m, Shuffled(n=900, deck=f"fate:{seat}", order=tuple(top) + tuple(rest)))


def test_fate_example_reveal_two_play_a_hero_discard_the_other():
    m = new()
    m = stack_fate(m, "bob", "ssf-kanan-jarrus-1", "ssf-rebel-blaster-1")
    m.apply("ann", "move coruscant")  # Credits 2 | Fate | Play | Discard
    m.apply("ann", "fate bob")
    assert m.state.fate["cards"] == ["ssf-kanan-jarrus-1", "ssf-rebel-blaster-1"]
    assert m.to_act().seats == ("ann",)
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "end")
    assert rule_of(e) == "SV-FATE-PLAY"
    m.apply("ann", "fate-play kanan jarrus at garel city")
    s = m.state
    assert s.sector["bob"]["ssf-kanan-jarrus-1"] == {**s.sector["bob"]["ssf-kanan-jarrus-1"], "loc": "garel-city", "side": "upper"}
    assert s.fate_discard["bob"] == ["ssf-rebel-blaster-1"]
    assert s.fate is None
    # it covers the two top symbols of Garel City (Credits 3, Vanquish)
    m.apply("ann", "end")
    m.apply("bob", "move garel city")
    with pytest.raises(RuleViolation) as e:
        m.apply("bob", "collect")
    assert rule_of(e) == "SV-BLOCKED"


def test_a_hero_is_never_played_on_a_vehicle():
    m = new()
    m = put(m, "bob", "ss-inquisitor-tie-1", "deep-space")
    m = stack_fate(m, "bob", "ssf-kanan-jarrus-1", "ssf-hera-syndulla-1")
    m.apply("ann", "move coruscant")
    m.apply("ann", "fate bob")
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "fate-play kanan jarrus at ss-inquisitor-tie-1")
    assert rule_of(e) == "SV-FATE-HERO-PLACE"


def test_fate_item_with_no_hero_is_discarded_without_effect():
    m = new()
    m = stack_fate(m, "bob", "ssf-rebel-blaster-1", "ssf-rebel-blaster-2")
    m.apply("ann", "move coruscant")
    m.apply("ann", "fate bob")
    assert m.legal_texts("ann") == ["fate-play ssf-rebel-blaster-1", "fate-play ssf-rebel-blaster-2"]
    m.apply("ann", "fate-play ssf-rebel-blaster-1")
    assert set(m.state.fate_discard["bob"]) == {"ssf-rebel-blaster-1", "ssf-rebel-blaster-2"}


def test_fate_effect_and_hero_on_play_ability():
    m = new()
    m = credits(m, "bob", 3)
    m = stack_fate(m, "ann", "cbf-republic-raid-1", "cbf-ahsoka-tano-1")
    m.apply("ann", "move coruscant")
    m.apply("ann", "end")
    m.apply("bob", "move bilzen")  # Fate | Play | Move | Credits 1
    m.apply("bob", "fate ann")
    m = credits(m, "ann", 3)
    m.apply("bob", "fate-play republic raid")
    assert m.state.credits["ann"] == 1
    assert set(m.state.fate_discard["ann"]) == {"cbf-republic-raid-1", "cbf-ahsoka-tano-1"}


# SV-HOUSE-FATE-REVEAL: the last card is revealed first, then the discard is reshuffled for the rest.
def test_fate_deck_exhausted_is_reshuffled():
    m = new()
    deck = list(m.state.fate_deck["bob"])
    m = fold(m, *[ev.CardDiscarded(owner="bob", card=c, pile="fate", source="deck") for c in deck[:-1]])
    assert len(m.state.fate_deck["bob"]) == 1
    m.apply("ann", "move coruscant")
    events = m.apply("ann", "fate bob")
    assert any(isinstance(e, Shuffled) for e in events)
    assert len(m.state.fate["cards"]) == 2 and m.state.fate["cards"][0] == deck[-1]


def test_hero_vehicle_played_when_an_ally_vehicle_is_present_is_engaged_and_blocks_it():
    m = new()
    m = put(m, "bob", "ss-inquisitor-tie-1", "deep-space")
    m = stack_fate(m, "bob", "ssf-the-ghost-1", "ssf-chopper-1")
    m.apply("ann", "move coruscant")
    m.apply("ann", "fate bob")
    m.apply("ann", "fate-play the ghost")
    s = m.state.sector["bob"]
    assert s["ssf-the-ghost-1"]["engaged"] == "ss-inquisitor-tie-1"
    assert s["ss-inquisitor-tie-1"]["engaged"] == "ssf-the-ghost-1"
    m.apply("ann", "end")
    # bob may still move onto the engaged vehicle and use its ability, not its actions
    m.apply("bob", "move ss-inquisitor-tie-1")
    assert m.state.ambition["bob"] == 2  # 1 for the turn, 1 from the TIE's ability
    with pytest.raises(RuleViolation) as e:
        m.apply("bob", "fate ann")
    assert rule_of(e) == "SV-BLOCKED"
    # an engaged Hero Vehicle does not lower the hand limit
    m.apply("bob", "end")
    assert len(m.state.hand["bob"]) == 4


def test_hand_limit_with_two_unengaged_hero_vehicles_is_two():
    m = new()
    m = put(m, "bob", "ssf-the-ghost-1", "deep-space")
    m = put(m, "bob", "ssf-phantom-1", "deep-space")
    m = empty_hand(m, "bob")
    m.apply("ann", "move coruscant")
    m.apply("ann", "end")
    m.apply("bob", "move bilzen")
    m.apply("bob", "end")
    assert len(m.state.hand["bob"]) == 2


def test_hand_limit_with_one_unengaged_hero_vehicle_is_three():
    m = new()
    m = put(m, "ann", "cbf-republic-gunship-1", "deep-space")
    m = empty_hand(m, "ann")
    m.apply("ann", "move coruscant")
    m.apply("ann", "end")
    assert len(m.state.hand["ann"]) == 3


def test_vanquish_hero_vehicle_rules():
    m = new()
    m = put(m, "ann", "cb-xanadu-blood-1", "deep-space")      # actions: Credits 1 | Vanquish
    m = put(m, "ann", "cbf-republic-gunship-1", "deep-space")
    m.apply("ann", "move bora vio")                            # ... | Vanquish
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "vanquish republic gunship")
    assert rule_of(e) == "SV-VANQUISH-UNENGAGED"
    m.apply("ann", "maneuver xanadu blood engage republic gunship")  # Move symbol
    m.apply("ann", "vanquish republic gunship")
    assert "cbf-republic-gunship-1" in m.state.fate_discard["ann"]
    assert "cb-xanadu-blood-1" in m.state.discard["ann"]


def test_cannot_vanquish_hero_vehicle_engaged_with_the_vehicle_the_mover_is_on():
    m = new()
    m = put(m, "ann", "cb-xanadu-blood-1", "deep-space")
    m = put(m, "ann", "cbf-republic-gunship-1", "deep-space")
    m = fold(m, ev.Engaged(sector="ann", ally_vehicle="cb-xanadu-blood-1", hero_vehicle="cbf-republic-gunship-1"))
    m.apply("ann", "move bora vio")
    m.apply("ann", "end")
    m.apply("bob", "move bilzen")
    m.apply("bob", "end")
    m.apply("ann", "move xanadu blood")
    assert m.state.credits["ann"] == 1  # move-in ability: gain 1 Credit
    m = fold(m, ev.BonusActionGranted(seat="ann", symbol="vanquish"))
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "vanquish republic gunship")
    assert rule_of(e) == "SV-VANQUISH-MOVER"


def test_maneuver_disengage_frees_actions_but_lowers_hand_limit():
    m = new()
    m = put(m, "ann", "cb-xanadu-blood-1", "deep-space")
    m = put(m, "ann", "cbf-republic-gunship-1", "deep-space")
    m = fold(m, ev.Engaged(sector="ann", ally_vehicle="cb-xanadu-blood-1", hero_vehicle="cbf-republic-gunship-1"))
    m = empty_hand(m, "ann")
    m.apply("ann", "move black stall station")  # ... | Move
    m.apply("ann", "maneuver xanadu blood")
    assert m.state.sector["ann"]["cb-xanadu-blood-1"]["engaged"] is None
    m.apply("ann", "end")
    assert len(m.state.hand["ann"]) == 3


def test_ally_vehicle_played_in_deep_space_may_engage_and_fate_may_engage_instead():
    m = new(seed=4)
    m = give(m, "ann", "cb-xanadu-blood-1")
    m = credits(m, "ann", 3)
    m = put(m, "ann", "cbf-republic-gunship-1", "deep-space")
    m.apply("ann", "move bora vio")
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "play xanadu blood at coruscant")
    assert rule_of(e) == "SV-VEHICLE-DEEP-SPACE"
    m.apply("ann", "play xanadu blood")
    assert m.state.sector["ann"]["cb-xanadu-blood-1"]["loc"] == "deep-space"
    m.apply("ann", "end")
    # bob's Fate action engages ann's vehicles instead of revealing cards
    m.apply("bob", "move bilzen")
    before = len(m.state.fate_deck["ann"])
    m.apply("bob", "fate ann engage xanadu blood republic gunship")
    assert m.state.sector["ann"]["cb-xanadu-blood-1"]["engaged"] == "cbf-republic-gunship-1"
    assert len(m.state.fate_deck["ann"]) == before and m.state.fate is None


def test_no_ally_on_a_vehicle():
    m = new()
    m = put(m, "ann", "cb-xanadu-blood-1", "deep-space")
    m = give(m, "ann", "cb-hired-gun-1")
    m = credits(m, "ann", 2)
    m.apply("ann", "move coruscant")
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "play hired gun at xanadu blood")
    assert rule_of(e) == "SV-ALLY-NOT-ON-VEHICLE"


# -- Fate: "If none of the cards you revealed can be played or has any effect, you must still
# choose one and play it without applying its effect, then discard it." (SV-FATE-NO-EFFECT);
# that the one card that can be played with effect must then be chosen is SV-HOUSE-FATE-LIVE-CARD.


def test_an_unplayable_fate_card_cannot_be_chosen_while_the_other_can_be_played():
    m = new()
    m = stack_fate(m, "bob", "ssf-rebel-blaster-1", "ssf-kanan-jarrus-1")  # no Hero for the Item
    m.apply("ann", "move coruscant")
    m.apply("ann", "fate bob")
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "fate-play rebel blaster")
    assert rule_of(e) == "SV-HOUSE-FATE-LIVE-CARD" and "Kanan Jarrus" in str(e.value)
    legal = [type(c).__name__ + ":" + c.card for c in m.legal("ann")]
    assert all("rebel-blaster" not in c for c in legal) and any("kanan" in c for c in legal)
    m.apply("ann", "fate-play kanan jarrus at bilzen")
    assert "ssf-rebel-blaster-1" in m.state.fate_discard["bob"]


def test_a_fate_effect_that_would_do_nothing_cannot_be_chosen_over_a_hero():
    m = credits(new(villains="cad-bane,boba-fett"), "bob", 0)
    m = stack_fate(m, "bob", "bff-sabotage-1", "bff-han-solo-1")  # Sabotage: lose 2 Credits
    m.apply("ann", "move coruscant")
    m.apply("ann", "fate bob")
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "fate-play sabotage")
    assert rule_of(e) == "SV-HOUSE-FATE-LIVE-CARD"
    # with Credits to lose, Sabotage has an effect and may be chosen
    m = credits(m, "bob", 3)
    m.apply("ann", "fate-play sabotage")
    assert m.state.credits["bob"] == 1


def test_when_no_revealed_card_can_be_played_either_is_played_without_effect_and_discarded():
    m = credits(new(villains="cad-bane,boba-fett"), "bob", 0)
    m = stack_fate(m, "bob", "bff-sabotage-1", "bff-beskar-armor-1")  # no Credits; no Hero
    m.apply("ann", "move coruscant")
    m.apply("ann", "fate bob")
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "fate-play beskar armor at corellia")
    assert rule_of(e) == "SV-FATE-NO-EFFECT"
    events = m.apply("ann", "fate-play beskar armor")
    assert not [e for e in events if isinstance(e, ev.CardPlayed)]
    assert {"bff-sabotage-1", "bff-beskar-armor-1"} <= set(m.state.fate_discard["bob"])
    assert m.state.fate is None and m.state.credits["bob"] == 0
    assert not any(c.startswith("bff-") for c in m.state.sector["bob"])
