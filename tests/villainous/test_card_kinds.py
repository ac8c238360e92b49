"""Every card kind the rulebook describes, each with a house card of that kind played through
the public interface (rulebook: Villain Cards, Fate Cards, Vehicles, Bounties, Contacts).
fixtures/villainous/CARDS.md documents how each kind is written."""

import pytest

from arbiter.core.errors import RuleViolation
from arbiter.core.villainous.board import Table
from arbiter.events.base import Shuffled
from arbiter.events.villainous import BonusActionGranted
from villainous.helpers import ambition, at, credits, empty_hand, fold, give, new, put, rule_of, strength

# kind -> a house card of that kind (the deck it is in, checked below)
KINDS = {
    "ally": "cb-hired-gun", "item (attached)": "cb-twin-blasters", "item (on its own)": "cb-tracking-fob",
    "effect": "cb-stolen-credits", "condition": "ss-ruthless-pursuit", "ally vehicle": "cb-xanadu-blood",
    "contact": "bf-jabba-the-hutt", "bounty": "bf-bounty-debtor", "ambition card": "cb-moralo-eval",
    "fate hero": "cbf-clone-trooper", "fate item": "cbf-clone-armor", "fate effect": "cbf-republic-raid",
    "fate condition": "cbf-wanted-by-the-senate", "hero vehicle": "cbf-republic-gunship",
}


def top_of_fate(m, seat, *cards):
    rest = [c for c in m.state.fate_deck[seat] if c not in cards]
    return fold(m, Shuffled(n=900, deck=f"fate:{seat}", order=tuple(cards) + tuple(rest)))


def test_the_house_decks_hold_a_card_of_every_kind():
    cards = Table(new().state).cards
    for kind, cid in KINDS.items():
        c = cards[cid]
        assert c["source"] == "house"
        want = kind.replace("fate ", "").split(" (")[0].replace(" ", "_")
        want = {"ambition_card": "ally"}.get(want, want)
        assert c["type"] == want, kind
        assert c["_deck"] == ("fate" if kind.startswith("fate") or kind == "hero vehicle" else "villain")


def test_ally_is_played_at_a_location_for_its_cost():
    m = at(credits(give(new(), "ann", "cb-hired-gun-1"), "ann", 3), "ann", "coruscant")
    m.apply("ann", "play cb-hired-gun-1 at bora vio")
    info = m.state.sector["ann"]["cb-hired-gun-1"]
    assert (info["loc"], info["side"], m.state.credits["ann"]) == ("bora-vio", "lower", 1)


def test_attached_item_goes_under_an_ally_and_adds_strength():
    m = put(new(), "ann", "cb-hired-gun-1", "coruscant")
    m = at(credits(give(m, "ann", "cb-twin-blasters-1"), "ann", 2), "ann", "coruscant")
    m.apply("ann", "play twin blasters on hired gun")
    assert m.state.sector["ann"]["cb-twin-blasters-1"]["on"] == "cb-hired-gun-1"
    assert strength(m, "ann", "cb-hired-gun-1") == 4


def test_item_on_its_own_stands_at_a_location_and_is_activated():
    m = put(new(), "ann", "cbf-clone-trooper-1", "the-box")
    m = at(credits(give(m, "ann", "cb-tracking-fob-1"), "ann", 1), "ann", "bora-vio")
    m.apply("ann", "play tracking fob at the box")
    m.apply("ann", "end")
    m.apply("bob", "move bilzen")
    m.apply("bob", "end")
    m.apply("ann", "move the box")  # Activate | Credits 1 | Play | Fate  (a Hero covers the top two)
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "activate tracking fob")
    assert rule_of(e) == "SV-BLOCKED"
    m = fold(m, BonusActionGranted(seat="ann", symbol="activate"))
    m.apply("ann", "activate tracking fob")
    assert m.state.sector["ann"]["cbf-clone-trooper-1"]["targets"] == 1


def test_effect_applies_once_and_is_discarded():
    m = at(give(new(), "ann", "cb-stolen-credits-1"), "ann", "coruscant")
    m.apply("ann", "play stolen credits")
    assert m.state.credits["ann"] == 3 and "cb-stolen-credits-1" in m.state.discard["ann"]


def test_condition_is_played_on_an_opponents_turn_only():
    m = give(empty_hand(new(), "bob"), "bob", "ss-ruthless-pursuit-1")
    m = at(credits(give(m, "ann", "cb-hired-gun-1"), "ann", 2), "ann", "coruscant")
    m.apply("ann", "play hired gun at coruscant")
    m.apply("bob", "condition ruthless pursuit")
    assert m.state.ambition["bob"] == 1 and "ss-ruthless-pursuit-1" in m.state.discard["bob"]


def test_ally_vehicle_is_a_new_location_with_actions_and_a_move_in_ability():
    m = at(credits(give(new(), "ann", "cb-xanadu-blood-1"), "ann", 3), "ann", "coruscant")
    m.apply("ann", "play xanadu blood")
    assert m.state.sector["ann"]["cb-xanadu-blood-1"]["loc"] == "deep-space"
    m.apply("ann", "end")
    m.apply("bob", "move bilzen")
    m.apply("bob", "end")
    before = m.state.credits["ann"]
    m.apply("ann", "move xanadu blood")  # gain 1 Credit on moving in, then Credits 1 | Vanquish
    m.apply("ann", "collect")
    assert m.state.credits["ann"] == before + 2


def test_contact_and_bounty_hunt_progress_and_reward():
    m = put(new(villains="boba-fett,cad-bane"), "ann", "bf-jabba-the-hutt-1", "corellia")
    m = at(credits(give(m, "ann", "bf-bounty-debtor-1"), "ann", 1), "ann", "corellia")
    amb = m.state.ambition["ann"]
    m.apply("ann", "play debtor on jabba the hutt")  # costs 0
    m.apply("ann", "hunt debtor")  # Hunt (1): +1 Ambition; Progress: hunt
    assert m.state.ambition["ann"] == amb + 1
    m.apply("ann", "collect")  # Progress: collect -> complete; Jabba's Reward: +3 Credits
    assert m.state.bounties["ann"] == ["bf-bounty-debtor-1"]
    assert m.state.credits["ann"] == 0 + 2 + 3


def test_ambition_card_and_ambition_ability():
    m = at(ambition(give(empty_hand(new(), "bob"), "ann", "cb-moralo-eval-1"), "ann", 3), "ann", "coruscant")
    with pytest.raises(RuleViolation) as e:  # Coruscant has a Play symbol but no Ambition one
        m.apply("ann", "play moralo eval at coruscant")
    assert rule_of(e) == "SV-ACTION-VISIBLE"
    m = put(m, "ann", "cbf-senate-guard-1", "bora-vio")
    m.apply("ann", "end")
    m.apply("bob", "move bilzen")
    m.apply("bob", "end")
    m.apply("ann", "move black stall station")  # Vanquish | Play | Ambition | Move
    m.apply("ann", "play moralo eval at coruscant")  # 2 Ambition, with the Ambition action
    assert m.state.ambition["ann"] == 2 and m.state.credits["ann"] == 0
    m = fold(m, BonusActionGranted(seat="ann", symbol="ambition"))
    m.apply("ann", "activate-ambition moralo eval")  # Ambition (1): a Target on any Hero
    assert m.state.sector["ann"]["cbf-senate-guard-1"]["targets"] == 1
    assert m.state.ambition["ann"] == 1


@pytest.mark.parametrize("card,how,check", [
    ("cbf-clone-trooper-1", "fate-play clone trooper at bora vio",
     lambda m: Table(m.state).covered("ann", "bora-vio") == [0, 1]),
    ("cbf-republic-raid-1", "fate-play republic raid", lambda m: m.state.credits["ann"] == 0),
    ("cbf-wanted-by-the-senate-1", "fate-play wanted by the senate",
     lambda m: m.state.sector["ann"]["cbf-wanted-by-the-senate-1"]["loc"] == "mover"
     and Table(m.state).forbidden("ann", "play_ambition")),
    ("cbf-republic-gunship-1", "fate-play republic gunship",
     lambda m: m.state.sector["ann"]["cbf-republic-gunship-1"]["loc"] == "deep-space"
     and Table(m.state).hand_limit("ann") == 3),
])
def test_fate_cards_hero_effect_condition_and_hero_vehicle(card, how, check):
    m = credits(new(), "ann", 2)
    m.apply("ann", "move coruscant")
    m.apply("ann", "end")
    m = top_of_fate(m, "ann", card, "cbf-senate-guard-1")
    m.apply("bob", "move bilzen")  # Fate | Play | Move | Credits 1
    m.apply("bob", "fate ann")
    m.apply("bob", how)
    assert check(m) and "cbf-senate-guard-1" in m.state.fate_discard["ann"]


def test_fate_item_attaches_to_a_hero():
    m = put(new(), "ann", "cbf-clone-trooper-1", "coruscant")
    m.apply("ann", "move coruscant")
    m.apply("ann", "end")
    m = top_of_fate(m, "ann", "cbf-clone-armor-1", "cbf-senate-guard-1")
    m.apply("bob", "move bilzen")
    m.apply("bob", "fate ann")
    m.apply("bob", "fate-play clone armor on clone trooper")
    assert strength(m, "ann", "cbf-clone-trooper-1") == 3
