"""Readings the rulebook leaves open, each a named option with its default argued in
rules.toml, and a test for each reading."""

import pytest

from arbiter.core.errors import RuleViolation
from arbiter.core.villainous import GAME
from villainous.helpers import ambition, content_with, credits, empty_hand, give, new, put, rule_of


def option(name):
    return next(o for o in GAME.options if o.name == name)


def flamethrower_game(**options):
    """Boba Fett with a Bounty needing a vanquish and one needing a defeat, and a Hero that
    Flamethrower (a card) can defeat."""
    c = content_with({"bf-bounty-debtor": {"text": "Hunt (1): gain 1 Ambition. Progress: vanquish a Hero; Hunt.",
                                           "progress": [{"kind": "vanquish"}, {"kind": "hunt"}]},
                      "bf-bounty-smuggler": {"text": "Hunt (1): gain 1 Ambition. Progress: defeat a Hero; Hunt.",
                                             "progress": [{"kind": "defeat"}, {"kind": "hunt"}]}})
    m = new(content=c, villains="boba-fett,cad-bane", **options)
    m = put(m, "ann", "bf-jabba-the-hutt-1", "corellia")
    m = put(m, "ann", "bf-bounty-debtor-1", "corellia", on="bf-jabba-the-hutt-1")
    m = put(m, "ann", "bf-bounty-smuggler-1", "corellia", on="bf-jabba-the-hutt-1")
    m = put(m, "ann", "cbf-ahsoka-tano-1", "jabbas-palace")
    m = give(m, "ann", "bf-flamethrower-1")
    m = ambition(m, "ann", 2)
    m.apply("ann", "move executor bridge")
    m.apply("ann", "play bf-flamethrower-1")  # defeat a Hero of Strength 3 or less
    return m


def test_a_card_that_defeats_a_hero_discards_it_without_the_vanquish_action():
    """Defeat (SV-DEFEAT): "To 'defeat' a Hero ... means to remove it from your Sector and
    discard it onto the corresponding pile ... If a card's ability lets you defeat a Hero
    directly, you do not need to use the 'Vanquish' action." No Ally stands with the Hero."""
    m = flamethrower_game()
    assert "cbf-ahsoka-tano-1" not in m.state.sector["ann"]
    assert not [c for c, i in m.state.sector["ann"].items() if i.get("loc") == "jabbas-palace"]
    assert "cbf-ahsoka-tano-1" in m.state.fate_discard["bob"]  # the Fate pile the Hero came from


def test_a_defeat_by_card_counts_as_a_vanquish_by_default():
    """Defeat: "You may defeat a card either through the Vanquish action or by playing a
    specific card. If a card's ability lets you defeat a Hero directly, you do not need to
    use the Vanquish action." (SV-DEFEAT); that the card also vanquishes is the house reading
    SV-HOUSE-DEFEAT-IS-VANQUISH, an option marked house."""
    opt = option("card_defeat_is_vanquish")
    assert opt.default is True and opt.house and opt.rule == "SV-HOUSE-DEFEAT-IS-VANQUISH"
    assert GAME.rules.get(opt.rule).source == "house" and GAME.rules.get("SV-DEFEAT").source == "rulebook"
    m = flamethrower_game()
    assert m.state.sector["ann"]["bf-bounty-debtor-1"]["progress"] == [0]
    assert m.state.sector["ann"]["bf-bounty-smuggler-1"]["progress"] == [0]


def test_a_defeat_by_card_is_only_a_defeat_under_the_other_reading():
    m = flamethrower_game(card_defeat_is_vanquish=False)
    assert m.state.sector["ann"]["bf-bounty-debtor-1"]["progress"] == []
    assert m.state.sector["ann"]["bf-bounty-smuggler-1"]["progress"] == [0]


def test_a_fate_condition_until_a_vanquish_follows_the_reading():
    for reading, discarded in ((True, True), (False, False)):
        m = new(card_defeat_is_vanquish=reading)
        m = put(m, "ann", "cbf-wanted-by-the-senate-1", "mover")  # discarded when the Villain vanquishes
        m = put(m, "ann", "cbf-clone-trooper-1", "bora-vio")
        m = put(m, "ann", "cb-hired-gun-1", "bora-vio")
        m = give(m, "ann", "cb-ambush-1")
        m = credits(m, "ann", 2)
        m.apply("ann", "move coruscant")
        m.apply("ann", "play cb-ambush-1")
        assert ("cbf-wanted-by-the-senate-1" in m.state.fate_discard["ann"]) is discarded


def window_for_bob(**options):
    """Boba Fett (bob) with a Bounty in play is asked about a Condition on ann's turn."""
    m = new(villains="cad-bane,boba-fett", condition_windows="always", **options)
    m = put(m, "bob", "bf-guild-master-1", "corellia")
    m = put(m, "bob", "bf-bounty-debtor-1", "corellia", on="bf-guild-master-1")
    m = credits(m, "bob", 2)
    m = put(m, "ann", "cbf-clone-trooper-1", "bora-vio")
    m = put(m, "ann", "cb-hired-gun-1", "bora-vio")
    m.apply("ann", "move black stall station")
    m.apply("ann", "vanquish cbf-clone-trooper-1 with cb-hired-gun-1")
    assert m.to_act().seats == ("bob",) and m.to_act().kind == "reaction"  # Rival Hunter answers a vanquish
    return m


def test_hunts_are_paid_on_your_own_turns_by_default():
    """Bounties: "You may pay this cost at any time during your turn and on any turn, without
    having to use an action" (SV-HUNT); which turns that means is the house reading
    SV-HOUSE-HUNT-TURNS (option hunt_turns, marked house, default own)."""
    opt = option("hunt_turns")
    assert opt.default == "own" and opt.house and opt.rule == "SV-HOUSE-HUNT-TURNS"
    assert GAME.rules.get(opt.rule).source == "house" and GAME.rules.get("SV-HUNT").source == "rulebook"
    m = window_for_bob()
    assert not any(t.startswith("hunt") for t in m.legal_texts("bob"))
    with pytest.raises(RuleViolation) as e:
        m.apply("bob", "hunt bf-bounty-debtor-1")
    assert rule_of(e) == "SV-HOUSE-HUNT-TURNS"
    assert m.state.credits["bob"] == 2


def test_hunts_on_an_opponents_turn_under_the_other_reading():
    m = window_for_bob(hunt_turns="any")
    assert "hunt bf-bounty-debtor-1" in m.legal_texts("bob")
    m.apply("bob", "hunt bf-bounty-debtor-1")
    assert m.state.credits["bob"] == 1
    assert m.state.sector["bob"]["bf-bounty-debtor-1"]["progress"] == [1]  # "Progress: collect Credits; hunt"
    m.apply("bob", "pass")
    assert m.to_act().seats == ("ann",)


def test_a_hunt_by_a_seat_without_the_floor_is_refused_as_out_of_turn():
    m = new(villains="cad-bane,boba-fett", hunt_turns="any")
    m = put(m, "bob", "bf-guild-master-1", "corellia")
    m = put(m, "bob", "bf-bounty-debtor-1", "corellia", on="bf-guild-master-1")
    m = credits(m, "bob", 2)
    with pytest.raises(RuleViolation) as e:
        m.apply("bob", "hunt bf-bounty-debtor-1")
    assert rule_of(e) == "ARB-TURN"
