"""The rulebook rule by rule, at the positions where players would argue; each test quotes
the sentence that decides it (``shared/rulebooks/villainous.txt``)."""

from __future__ import annotations

import pytest

from arbiter.core.errors import ParseError, RuleViolation
from villainous.helpers import at, content_with, credits, empty_hand, ev, fold, give, new, put, rule_of, strength


def placed(m, sector, card, loc, on=None, side="lower"):
    return fold(m, ev.CardPlayed(seat=sector, sector=sector, card=card, loc=loc, side=side, on=on,
                                 how="placed", source="test"))


def test_vanquish_reaches_a_hero_at_any_location_not_only_where_the_mover_stands():
    """Actions Overview: "if you perform a "Vanquish" action at one location, you may vanquish
    a Hero at any location in your Sector where an Ally is also present"."""
    m = new(2)
    m = put(m, "ann", "cbf-clone-trooper-1", "coruscant")
    m = put(m, "ann", "cb-embo-1", "coruscant")
    m = at(m, "ann", "black-stall-station")  # Vanquish is here, the Hero at Coruscant
    m.apply("ann", "vanquish cbf-clone-trooper-1 with cb-embo-1")
    assert "cbf-clone-trooper-1" not in m.state.sector["ann"]


def test_a_hero_in_the_upper_part_is_not_moved_with_a_move_action():
    """Move / Maneuver: "Only cards in the lower part of your Sector are concerned"."""
    m = new(2)
    m = put(m, "ann", "cbf-clone-trooper-1", "coruscant")
    m = at(m, "ann", "black-stall-station")
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "move cbf-clone-trooper-1 to the-box")
    assert rule_of(e) == "SV-MOVE-CARD"


def test_a_zero_cost_card_still_takes_a_play_action():
    """Play a Credits Card: "Even if a card costs 0, you must still perform a "Play a Credits
    Card" action to play it" - one card per symbol."""
    m = empty_hand(new(2), "ann")
    m = give(m, "ann", "cb-stolen-credits-1", "cb-stolen-credits-2")
    m = at(m, "ann", "coruscant")  # one Play symbol
    m.apply("ann", "play cb-stolen-credits-1")
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "play cb-stolen-credits-2")
    assert rule_of(e) == "SV-ACTION-ONCE"


def boba_with_a_bounty(bounty="bf-bounty-debtor-1"):
    m = new(2, villains="boba-fett,cad-bane")
    m = put(m, "ann", "bf-guild-master-1", "corellia")
    return placed(m, "ann", bounty, "corellia", on="bf-guild-master-1")


def test_a_bounty_is_never_moved_on_its_own_but_goes_with_its_contact():
    """Bounties: "A Bounty card cannot be moved to be attached to another Contact"
    (SV-BOUNTY-STAYS); that it goes with its Contact is SV-HOUSE-BOUNTY-WITH-CONTACT."""
    m = at(boba_with_a_bounty(), "ann", "executor-bridge")
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "move bf-bounty-debtor-1 to jabbas-palace")
    assert rule_of(e) == "SV-HOUSE-BOUNTY-WITH-CONTACT" and "Contact" in str(e.value)
    m.apply("ann", "move bf-guild-master-1 to jabbas-palace")
    assert m.state.sector["ann"]["bf-bounty-debtor-1"]["loc"] == "jabbas-palace"
    assert m.state.sector["ann"]["bf-bounty-debtor-1"]["on"] == "bf-guild-master-1"


def test_an_ally_vehicle_is_not_moved_with_a_move_action():
    """Vehicles: "You may play them only in the Deep Space of your Sector"; Move concerns the
    locations, a Vehicle is maneuvered ("The "Maneuver" action concerns Vehicles")."""
    m = placed(new(2), "ann", "cb-xanadu-blood-1", "deep-space")
    m = at(m, "ann", "black-stall-station")
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "move cb-xanadu-blood-1 to coruscant")
    assert rule_of(e) == "SV-MOVE-CARD" and "an Ally Vehicle" in str(e.value)


def test_a_hunt_may_be_paid_before_the_mover_moves():
    """Bounties: "You may pay this cost at any time during your turn ... without having to
    use an action" - also before step 2, Move Your Mover."""
    m = credits(boba_with_a_bounty("bf-bounty-han-solo-1"), "ann", 5)
    assert m.state.phase == "move"
    events = m.apply("ann", "hunt bf-bounty-han-solo-1")
    assert any(isinstance(e, ev.HuntPaid) for e in events)


def test_the_mover_may_still_move_onto_an_engaged_ally_vehicle_whose_actions_are_blocked():
    """Hero Vehicles and Engagement: "The actions of the Ally Vehicle are now blocked. Unless
    stated otherwise, you may still move your mover onto an engaged Vehicle to use its
    ability"."""
    m = placed(new(2), "ann", "cb-xanadu-blood-1", "deep-space")
    m = placed(m, "ann", "cbf-republic-gunship-1", "deep-space", side="upper")
    m = fold(m, ev.Engaged(sector="ann", ally_vehicle="cb-xanadu-blood-1", hero_vehicle="cbf-republic-gunship-1"))
    before = m.state.credits["ann"]
    m.apply("ann", "move cb-xanadu-blood-1")
    assert m.state.credits["ann"] == before + 1  # its ability: gain 1 Credit
    assert m.legal_texts("ann") == ["end"]  # every action there is covered

    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "collect")
    assert rule_of(e) == "SV-BLOCKED" and "Republic Gunship (a Hero Vehicle engaged with it)" in str(e.value)


def test_a_covered_action_says_what_covers_it_and_is_available_again_once_it_is_gone():
    """Blocked Actions: "You may no longer perform the actions covered by Fate cards until
    those cards have been moved, vanquished or discarded. As soon as an action becomes
    visible again, it immediately becomes available: you may therefore perform it if your
    mover is at that location and it is still your turn to play." """
    m = put(new(2), "ann", "cbf-clone-trooper-1", "bora-vio")  # Play | Move | Credits 3 | Vanquish
    m = put(m, "ann", "cb-hired-gun-1", "bora-vio")
    m = credits(give(m, "ann", "cb-bounty-droid-1"), "ann", 5)
    m.apply("ann", "move bora vio")
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "play bounty droid at coruscant")
    assert rule_of(e) == "SV-BLOCKED"
    assert "the Play symbol at Bora Vio is covered by Clone Trooper (a Fate card) until it is moved" in str(e.value)
    m.apply("ann", "vanquish clone trooper with hired gun")
    m.apply("ann", "play bounty droid at coruscant")  # uncovered this very turn
    assert m.state.sector["ann"]["cb-bounty-droid-1"]["loc"] == "coruscant"


def test_a_location_covered_by_two_heroes_names_both():
    """Heroes: "A covered action is no longer available to the opponent until all the Heroes
    at that location have been vanquished or moved." """
    m = put(new(2), "ann", "cbf-clone-trooper-1", "bora-vio")
    m = put(m, "ann", "cbf-clone-trooper-2", "bora-vio")
    m = put(m, "ann", "cb-hired-gun-1", "the-box")
    m.apply("ann", "move bora vio")
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "move hired gun to coruscant")
    assert rule_of(e) == "SV-BLOCKED"
    assert "covered by Clone Trooper and Clone Trooper (Fate cards) until they are all moved" in str(e.value)

def test_items_attached_to_one_ally_are_unlimited():
    """Items: "The number of Items that can be attached to an Ally is unlimited"."""
    m = empty_hand(new(2), "ann")
    m = put(m, "ann", "cb-embo-1", "coruscant")
    m = credits(give(m, "ann", "cb-twin-blasters-1", "cb-twin-blasters-2"), "ann", 9)
    m = at(m, "ann", "coruscant")
    m.apply("ann", "play cb-twin-blasters-1 on cb-embo-1")
    m = at(m, "ann", "black-stall-station")
    m.apply("ann", "play cb-twin-blasters-2 on cb-embo-1")
    assert strength(m, "ann", "cb-embo-1") == 3 + 2 + 2


def ally_played_with_two_conditions_in_hand():
    m = new(2, condition_windows="always")
    m = empty_hand(empty_hand(m, "ann"), "bob")
    m = give(m, "bob", "ss-ruthless-pursuit-1", "ss-ruthless-pursuit-2")
    m = credits(give(m, "ann", "cb-hired-gun-1"), "ann", 5)
    m = at(m, "ann", "coruscant")
    m.apply("ann", "play cb-hired-gun-1 at coruscant")
    return m


def test_several_conditions_may_answer_the_same_moment():
    """Conditions: "The number of Condition cards playable at the same moment is
    unlimited"."""
    m = ally_played_with_two_conditions_in_hand()
    m.apply("bob", "condition ss-ruthless-pursuit-1")
    m.apply("bob", "condition ss-ruthless-pursuit-2")
    assert m.state.ambition["bob"] == 2 and list(m.state.hand["bob"]) == []


def test_a_condition_played_is_not_replaced_until_the_end_of_your_own_turn():
    """Conditions: "Important: You do not draw a new card! You must therefore wait until the
    end of your own turn to refill your hand to 4 cards"."""
    m = ally_played_with_two_conditions_in_hand()
    m.apply("bob", "condition ss-ruthless-pursuit-1")
    m.apply("bob", "pass")
    assert list(m.state.hand["bob"]) == ["ss-ruthless-pursuit-2"]
    m.apply("ann", "end")  # ann draws; bob's turn begins with one card still
    assert m.state.active == "bob" and len(m.state.hand["bob"]) == 1


def test_the_first_move_leaves_the_portrait_and_never_returns_to_it():
    """Setup: "Place your mover on the portrait"; On Your Turn: "Move your mover to another
    location in your Sector" - the portrait is not a location."""
    m = new(2)
    assert m.state.mover["ann"] is None  # on the portrait
    with pytest.raises(ParseError) as e:
        m.apply("ann", "move portrait")
    assert "coruscant, black-stall-station, the-box, bora-vio" in str(e.value)
    m.apply("ann", "move coruscant")
    assert m.state.mover["ann"] == "coruscant"


def test_simulate_with_the_rulebook_defaults_ends_every_game_by_an_objective(tmp_path):
    """End of the Game: "As soon as a player has achieved their Objective, the game stops
    immediately and that player wins" - simulate, with no house limit set, ends each game
    so, well within its step cap."""
    from typer.testing import CliRunner

    from arbiter.cli.app import app
    db = str(tmp_path / "s.duckdb")
    run = CliRunner()
    out = run.invoke(app, ["--db", db, "simulate", "villainous", "--games", "3", "--bot", "smart", "--seats", "3"])
    assert out.exit_code == 0 and "unfinished 0" in out.output, out.output
    rows = run.invoke(app, ["--db", db, "query", "-f", "csv",
                            "select type, payload->>'$.reason' as reason from events"
                            " where type in ('GameWon', 'GameDrawn')"]).output.strip().splitlines()[1:]
    assert len(rows) == 3 and all(r.startswith("GameWon") and "achieved the Objective" in r for r in rows)


def test_the_move_example_an_ally_goes_from_one_location_to_any_other():
    """Move / Maneuver, "Example: Move an Ally from one location to any other location": to
    another of the four locations, not where it stands, not into Deep Space (the play area for
    Vehicles), one card a Move symbol."""
    m = new(2)
    m = put(m, "ann", "cb-hired-gun-1", "coruscant")
    m = put(m, "ann", "cb-aurra-sing-1", "coruscant")
    m = at(m, "ann", "bora-vio")  # Play | Move | Credits 3 | Vanquish
    for text, words in (("move hired gun to coruscant", "already at Coruscant"),
                        ("move hired gun to deep space", "Deep Space is the play area for Vehicles")):
        before = m.seq
        with pytest.raises(RuleViolation) as e:
            m.apply("ann", text)
        assert rule_of(e) == "SV-MOVE-CARD" and words in str(e.value) and m.seq == before
    m.apply("ann", "move hired gun to the box")
    assert m.state.sector["ann"]["cb-hired-gun-1"]["loc"] == "the-box"
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "move aurra sing to the box")
    assert rule_of(e) == "SV-ACTION-ONCE"


def test_a_completed_bounty_frees_its_place_on_the_contact():
    """Contacts: "Each Contact states the maximum number of Bounties that may be attached to
    it. Once a Bounty is completed, you may attach another one to the same Contact, as long as
    that limit is respected." Bounties: "Do not discard the Bounty card; keep it near your
    portrait instead." Guild Master holds 1; Debtor's Progress is: collect Credits; hunt."""
    m = credits(give(boba_with_a_bounty("bf-bounty-debtor-1"), "ann", "bf-bounty-smuggler-1"), "ann", 2)
    m.apply("ann", "move corellia")  # Credits 2 | Play | Fate | Discard
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "play bf-bounty-smuggler-1 on bf-guild-master-1")
    assert rule_of(e) == "SV-CONTACT-LIMIT"
    m.apply("ann", "collect")
    m.apply("ann", "hunt bf-bounty-debtor-1")
    assert m.state.bounties["ann"] == ["bf-bounty-debtor-1"]
    assert "bf-bounty-debtor-1" not in m.state.sector["ann"]
    m.apply("ann", "play bf-bounty-smuggler-1 on bf-guild-master-1")
    assert m.state.sector["ann"]["bf-bounty-smuggler-1"]["on"] == "bf-guild-master-1"


def test_a_card_may_not_discard_the_hero_vehicle_engaged_with_the_vehicle_the_mover_is_on():
    """Discarding and Vanquishing Vehicles: "If your mover is on an Ally Vehicle, you may not
    discard that Vehicle, nor vanquish or discard the Hero Vehicle engaged against it." A Hunt
    (paid without an action) that defeats a Vehicle may take the unengaged Razor Crest, not
    the Millennium Falcon engaged with Slave I, where the mover stands."""
    c = content_with({"bf-bounty-jedi": {"hunt": {"cost": 3, "effects": [{"do": "defeat", "target": "vehicle"}]}}})
    m = new(2, villains="boba-fett,cad-bane", content=c)
    m = put(m, "ann", "bf-guild-master-1", "corellia")
    m = placed(m, "ann", "bf-bounty-jedi-1", "corellia", on="bf-guild-master-1")
    m = placed(m, "ann", "bf-slave-i-1", "deep-space")
    for hv in ("bff-millennium-falcon-1", "bff-razor-crest-1"):
        m = put(m, "ann", hv, "deep-space")
    m = fold(m, ev.Engaged(sector="ann", ally_vehicle="bf-slave-i-1", hero_vehicle="bff-millennium-falcon-1"))
    m = credits(m, "ann", 5)
    m.apply("ann", "move slave i")
    m.apply("ann", "hunt bounty jedi")
    sector = m.state.sector["ann"]
    assert "bff-razor-crest-1" not in sector and sector["bff-millennium-falcon-1"]["engaged"] == "bf-slave-i-1"
    assert "bf-slave-i-1" in sector
