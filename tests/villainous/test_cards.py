"""Conditions, items, bounties and contacts, objectives, card precedence and the card
actions glossary (rulebook: Playing Cards, Villain Cards, Card Actions, Bounties, Contacts)."""

import pytest

from arbiter.core.errors import BadContent, RuleViolation
from arbiter.core.villainous import GAME
from arbiter.events import villainous as ev
from villainous.helpers import (ambition, at, content_with, credits, empty_hand, fold, give, new,
                                      put, rule_of, strength, token)


# -- Conditions played on an opponent's turn ---------------------------------------------


def test_condition_played_on_an_opponents_turn_in_a_reaction_window():
    m = empty_hand(new(), "bob")
    m = give(m, "bob", "ss-ruthless-pursuit-1")  # when an opponent plays an Ally: +1 Ambition
    m = give(m, "ann", "cb-hired-gun-1")
    m = credits(m, "ann", 2)
    m.apply("ann", "move coruscant")
    m.apply("ann", "play hired gun at coruscant")
    d = m.to_act()
    assert d.kind == "reaction" and d.seats == ("bob",)
    assert m.legal_texts("bob") == ["pass", "condition ss-ruthless-pursuit-1"]
    hand_before = len(m.state.hand["bob"])
    m.apply("bob", "condition ruthless pursuit")
    assert m.state.ambition["bob"] == 1
    assert "ss-ruthless-pursuit-1" in m.state.discard["bob"]
    assert len(m.state.hand["bob"]) == hand_before - 1  # no new card drawn
    assert m.to_act().seats == ("bob",)  # bob may play more, or pass
    m.apply("bob", "pass")
    assert m.to_act().kind == "turn" and m.to_act().seats == ("ann",)


def test_condition_cannot_be_played_on_your_own_turn_nor_unmet():
    m = new()
    m = give(m, "ann", "cb-double-cross-1")
    m.apply("ann", "move coruscant")
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "play double cross")
    assert rule_of(e) == "SV-CONDITION-TIMING"
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "condition double cross")
    assert rule_of(e) == "SV-CONDITION-TIMING"


# SV-HOUSE-CONDITION-WINDOW: every opponent with such a Condition in their deck is asked, held or not.
def test_condition_window_always_asks_every_opponent_and_pass_never_stalls():
    """Conditions (Villain cards), with condition_windows=always (the default): after a
    trigger every opponent whose deck has a Condition for it is asked, holding one or not,
    so asking reveals nothing; without one the only answer is a one-key pass."""
    m = new(3, condition_windows="always")
    m = empty_hand(m, "bob")
    m = empty_hand(m, "cy")
    m = give(m, "ann", "cb-hired-gun-1", "cb-bounty-droid-1")
    m = credits(m, "ann", 2)
    m.apply("ann", "move coruscant")  # Credits 2 | Fate | Play | Discard
    m.apply("ann", "collect")  # no Villain deck has a Condition on Collect: nobody is asked
    assert m.to_act().seats == ("ann",)
    m.apply("ann", "play hired gun at coruscant")  # Seventh Sister's deck answers an Ally
    assert m.to_act().seats == ("bob",) and m.to_act().kind == "reaction"
    assert m.legal_texts("bob") == ["pass"]  # no Condition in hand: one choice, "1" in the menu
    m.apply("bob", "p")
    assert m.to_act().seats == ("ann",)
    # a vanquish: Boba Fett (cy) has Rival Hunter in his deck, Seventh Sister has none for it
    m = put(m, "ann", "cbf-clone-trooper-1", "bora-vio")
    m = put(m, "ann", "cb-embo-1", "bora-vio")
    m.apply("ann", "end")
    for seat, where in (("bob", "bilzen"), ("cy", "corellia")):
        m.apply(seat, f"move {where}")
        m.apply(seat, "end")
    m.apply("ann", "move bora vio")  # Play | Move | Credits 3 | Vanquish
    m.apply("ann", "vanquish clone trooper with embo")
    assert m.to_act().seats == ("cy",) and m.legal_texts("cy") == ["pass"]
    m.apply("cy", "pass")
    assert m.to_act().seats == ("ann",)
    # with the Condition in hand the menu offers it too
    m = give(m, "cy", "bf-rival-hunter-1")
    m = put(m, "ann", "cbf-clone-trooper-2", "bora-vio")
    m = put(m, "ann", "cb-embo-2", "bora-vio")
    m = fold(m, ev.BonusActionGranted(seat="ann", symbol="vanquish"))
    m.apply("ann", "vanquish clone trooper with embo")
    assert m.legal_texts("cy") == ["pass", "condition bf-rival-hunter-1"]


def test_smart_bots_answer_windows_at_once():
    import random

    from arbiter.core.bots import autoplay
    m = new(3, seed=2, condition_windows="always")
    bots = {s: GAME.bots["smart"] for s in m.seats}
    autoplay(m, bots, random.Random(2), max_steps=3000)
    items = [type(e).__name__ for _s, _c, e in m.items]
    opened, passed = items.count("WindowOpened"), items.count("WindowPassed")
    assert m.outcome() is not None and opened and passed <= 2 * opened


def test_fate_condition_under_the_mover_forbids_and_is_discarded_when_met():
    m = new()
    m = put(m, "ann", "cbf-wanted-by-the-senate-1", "mover")
    m = give(m, "ann", "cb-bribe-1")
    m = put(m, "ann", "cbf-clone-trooper-1", "coruscant")
    m = put(m, "ann", "cb-hired-gun-1", "coruscant")
    m.apply("ann", "move black stall station")  # Vanquish | Play | Ambition | Move
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "play bribe")
    assert rule_of(e) == "SV-CARD-FORBIDS"
    m.apply("ann", "vanquish clone trooper with hired gun")
    assert "cbf-wanted-by-the-senate-1" in m.state.fate_discard["ann"]
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "play bribe")  # allowed again, but no Hero is left to move
    assert rule_of(e) == "SV-CANNOT-FOLLOW"


# -- "the card wins" and "the restriction wins" -----------------------------------------


def test_a_card_allowing_an_ally_on_a_vehicle_beats_the_rulebook():
    c = content_with({"cb-embo": {"abilities": [{"passive": "allow", "hook": "ally_on_vehicle"}]}})
    m = new(content=c)
    m = put(m, "ann", "cb-embo-1", "coruscant")
    m = put(m, "ann", "cb-xanadu-blood-1", "deep-space")
    m = give(m, "ann", "cb-hired-gun-1")
    m = credits(m, "ann", 2)
    m.apply("ann", "move coruscant")
    m.apply("ann", "play cb-hired-gun-1 at xanadu blood")
    assert m.state.sector["ann"]["cb-hired-gun-1"]["loc"] == "cb-xanadu-blood-1"


def test_when_two_cards_disagree_the_restriction_wins():
    c = content_with({"cb-embo": {"abilities": [{"passive": "allow", "hook": "play_ambition"}]}})
    m = new(content=c)
    m = put(m, "ann", "cb-embo-1", "coruscant")
    m = put(m, "ann", "cbf-wanted-by-the-senate-1", "mover")
    m = give(m, "ann", "cb-bribe-1")
    m.apply("ann", "move black stall station")
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "play bribe")
    assert rule_of(e) == "SV-RESTRICTION-WINS"


def test_a_card_you_cannot_follow_cannot_be_played_but_may_effects_can():
    m = new()
    m = give(m, "ann", "cb-ambush-1", "cb-todo-360-1")
    m = credits(m, "ann", 3)
    m.apply("ann", "move coruscant")
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "play ambush")  # no Hero at a location with an Ally
    assert rule_of(e) == "SV-CANNOT-FOLLOW"
    m.apply("ann", "play todo 360 at coruscant")  # "may" put a Target: no Hero, still fine
    assert "cb-todo-360-1" in m.state.sector["ann"]


def test_may_effect_offers_none():
    m = new()
    m = put(m, "ann", "cbf-clone-trooper-1", "coruscant")
    m = give(m, "ann", "cb-todo-360-1")
    m = credits(m, "ann", 1)
    m.apply("ann", "move bora vio")
    m.apply("ann", "play todo 360 at coruscant")
    assert m.state.pending[-1]["options"] == ["cbf-clone-trooper-1", "none"]
    m.apply("ann", "pass")
    assert m.state.sector["ann"]["cbf-clone-trooper-1"]["targets"] == 0


# -- Items -------------------------------------------------------------------------------


def test_item_attached_to_an_ally_moves_and_is_discarded_with_it():
    m = new()
    m = give(m, "ann", "cb-twin-blasters-1")
    m = credits(m, "ann", 2)
    m.apply("ann", "move bora vio")  # Play | Move | Credits 3 | Vanquish
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "play twin blasters at coruscant")
    assert rule_of(e) == "SV-ITEM-ATTACH"  # no Ally in play
    m = put(m, "ann", "cb-hired-gun-1", "coruscant")
    m.apply("ann", "play twin blasters on hired gun")
    assert strength(m, "ann", "cb-hired-gun-1") == 4
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "move twin blasters to the box")
    assert rule_of(e) == "SV-MOVE-ATTACHED"
    m.apply("ann", "move hired gun to the box")
    assert m.state.sector["ann"]["cb-twin-blasters-1"]["loc"] == "the-box"
    m = put(m, "ann", "cbf-mace-windu-1", "the-box")
    m = put(m, "ann", "cb-aurra-sing-1", "the-box")
    m.apply("ann", "vanquish mace windu with hired gun aurra sing")
    assert {"cb-hired-gun-1", "cb-twin-blasters-1"} <= set(m.state.discard["ann"])


def test_unattached_item_moves_on_its_own():
    m = new()
    m = put(m, "ann", "cb-tracking-fob-1", "coruscant")
    m.apply("ann", "move bora vio")
    m.apply("ann", "move tracking fob to the box")
    assert m.state.sector["ann"]["cb-tracking-fob-1"]["loc"] == "the-box"


# -- Objectives --------------------------------------------------------------------------


# SV-HOUSE-TARGETS: vanquishing a Hero in his sector collects its Targets.
def test_cad_bane_collects_targets_and_wins_at_five_at_once():
    m = new()
    m = fold(m, ev.TargetsCollected(seat="ann", hero="x", count=4))
    m = put(m, "ann", "cbf-clone-trooper-1", "the-box")
    m = put(m, "ann", "cb-bounty-droid-1", "the-box")
    m = put(m, "ann", "cb-hired-gun-1", "the-box")
    m.apply("ann", "move the box")
    with pytest.raises(RuleViolation):
        m.apply("ann", "activate bounty droid")  # Activate is covered at The Box
    m.apply("ann", "end")
    m.apply("bob", "move bilzen")
    m.apply("bob", "end")
    m = fold(m, ev.MoverMoved(seat="ann", to="bora-vio"), ev.BonusActionGranted(seat="ann", symbol="activate"))
    m = credits(m, "ann", 1)  # Activate (1 Credit)
    m.apply("ann", "activate bounty droid")
    assert m.state.sector["ann"]["cbf-clone-trooper-1"]["targets"] == 1
    m.apply("ann", "vanquish clone trooper with hired gun")
    assert m.state.targets["ann"] == 5
    assert m.outcome().winners == ("ann",)
    assert m.to_act().kind == "over"


# SV-HOUSE-REBELS: a Rebel vanquished in her sector leaves the game, not to the Fate discard.
def test_seventh_sister_removes_rebels_permanently_and_wins_at_three():
    m = new()
    m = fold(m, ev.RebelRemoved(seat="bob", hero="x"), ev.RebelRemoved(seat="bob", hero="y"))
    m = put(m, "bob", "ssf-sabine-wren-1", "bilzen")
    m = put(m, "bob", "ss-fifth-brother-1", "bilzen")
    m = token(m, "bob", "ss-fifth-brother-1", 1)
    m.apply("ann", "move coruscant")
    m.apply("ann", "end")
    m.apply("bob", "move garel city")  # Credits 3 | Vanquish | ...
    m.apply("bob", "vanquish sabine wren with fifth brother")
    assert "ssf-sabine-wren-1" in m.state.removed
    assert "ssf-sabine-wren-1" not in m.state.fate_discard["bob"]
    assert m.outcome().winners == ("bob",)


def test_non_rebel_hero_goes_to_the_fate_discard():
    m = new()
    m = put(m, "bob", "ssf-cal-kestis-1", "bilzen")
    m = put(m, "bob", "ss-fifth-brother-1", "bilzen")
    m = token(m, "bob", "ss-fifth-brother-1", 1)
    m.apply("ann", "move coruscant")
    m.apply("ann", "end")
    m.apply("bob", "move garel city")
    m.apply("bob", "vanquish cal kestis with fifth brother")
    assert "ssf-cal-kestis-1" in m.state.fate_discard["bob"] and m.state.rebels["bob"] == 0


# -- Bounties and Contacts ---------------------------------------------------------------


def boba_turn(n=3):
    m = new(n, villains="boba-fett,cad-bane,seventh-sister"[: None])
    return m


def test_bounty_needs_a_contact_and_respects_its_limit():
    m = new(2, villains="boba-fett,cad-bane")
    m = give(m, "ann", "bf-bounty-smuggler-1", "bf-bounty-debtor-1")
    m = credits(m, "ann", 5)
    m.apply("ann", "move corellia")  # Credits 2 | Play | Fate | Discard
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "play bounty smuggler")
    assert rule_of(e) == "SV-BOUNTY-CONTACT"
    m = put(m, "ann", "bf-guild-master-1", "corellia")  # limit 1
    m.apply("ann", "play bounty smuggler on guild master")
    assert m.state.sector["ann"]["bf-bounty-smuggler-1"]["on"] == "bf-guild-master-1"
    m = fold(m, ev.BonusActionGranted(seat="ann", symbol="play"))
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "play bounty debtor on guild master")
    assert rule_of(e) == "SV-CONTACT-LIMIT"


def test_common_requirement_advances_every_bounty_and_completion_pays_the_reward():
    m = new(2, villains="boba-fett,cad-bane")
    m = put(m, "ann", "bf-jabba-the-hutt-1", "corellia")  # limit 2, reward 3 Credits
    m = put(m, "ann", "bf-bounty-smuggler-1", "corellia", on="bf-jabba-the-hutt-1")  # hunt; vanquish
    m = put(m, "ann", "bf-bounty-rebel-spy-1", "corellia", on="bf-jabba-the-hutt-1")  # fate; vanquish
    m = put(m, "ann", "bff-rebel-trooper-1", "executor-bridge")
    m = put(m, "ann", "bf-bossk-1", "executor-bridge")
    m = credits(m, "ann", 1)
    m.apply("ann", "move cloud city dining room")  # Play | Credits 1 | Activate | Vanquish
    m.apply("ann", "vanquish rebel trooper with bossk")
    sec = m.state.sector["ann"]
    assert sec["bf-bounty-smuggler-1"]["progress"] == [1]
    assert sec["bf-bounty-rebel-spy-1"]["progress"] == [1]
    m.apply("ann", "hunt bounty smuggler")  # pay 1: gain 1 Ambition; marks "hunt"
    assert "bf-bounty-smuggler-1" in m.state.bounties["ann"]
    assert "bf-bounty-smuggler-1" not in m.state.sector["ann"]
    assert m.state.credits["ann"] == 3  # 1 - 1 + Jabba's reward 3
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "hunt bounty smuggler")
    assert rule_of(e) == "SV-HUNT"


def test_four_bounties_win():
    m = credits(new(2, villains="boba-fett,cad-bane"), "ann", 1)
    m = fold(m, *[ev.BountyCompleted(seat="ann", bounty=b, contact="") for b in
                  ("bf-bounty-jedi-1", "bf-bounty-han-solo-1", "bf-bounty-deserter-1")])
    m = put(m, "ann", "bf-guild-master-1", "corellia")
    m = put(m, "ann", "bf-bounty-debtor-1", "corellia", on="bf-guild-master-1")  # collect; hunt
    m.apply("ann", "hunt debtor")
    assert m.outcome() is None
    m.apply("ann", "move corellia")
    m.apply("ann", "collect")
    assert m.outcome().winners == ("ann",)


def test_hunts_have_no_per_turn_limit_unless_the_house_option_sets_one():
    """Bounties: "You may pay this cost at any time during your turn and on any turn,
    without having to use an action." The rulebook sets no number a turn; the house option
    hunts_per_turn (off by default) sets one for tests and simulations."""
    assert next(o for o in GAME.options if o.name == "hunts_per_turn").default == 0
    m = new(2, villains="boba-fett,cad-bane", hunts_per_turn=1)
    m = put(m, "ann", "bf-guild-master-1", "corellia")
    m = put(m, "ann", "bf-bounty-debtor-1", "corellia", on="bf-guild-master-1")
    m = credits(m, "ann", 2)
    m.apply("ann", "hunt debtor")
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "hunt debtor")
    assert rule_of(e) == "SV-HOUSE-HUNT-ONCE"
    # the default: as often as the cost can be paid
    m = new(2, villains="boba-fett,cad-bane")
    m = put(m, "ann", "bf-guild-master-1", "corellia")
    m = put(m, "ann", "bf-bounty-smuggler-1", "corellia", on="bf-guild-master-1")
    m = credits(m, "ann", 3)
    for _ in range(3):
        m.apply("ann", "hunt smuggler")  # Hunt (1): +1 Ambition
    assert m.state.credits["ann"] == 0 and m.state.ambition["ann"] == 4


def test_a_fate_condition_is_discarded_as_soon_as_its_condition_is_met():
    """Fate Conditions: discarded at once when met (here: when the Villain collects Credits)."""
    c = content_with({"cbf-wanted-by-the-senate": {"until": "collect"}})
    m = new(content=c)
    m = put(m, "ann", "cbf-wanted-by-the-senate-1", "mover")
    m.apply("ann", "move coruscant")
    assert "cbf-wanted-by-the-senate-1" in m.state.sector["ann"]
    m.apply("ann", "collect")
    assert "cbf-wanted-by-the-senate-1" not in m.state.sector["ann"]
    assert "cbf-wanted-by-the-senate-1" in m.state.fate_discard["ann"]


# -- The card actions glossary -----------------------------------------------------------


def glossary_content():
    return content_with({
        "cb-stolen-credits": {"abilities": [{"when": "play", "effects": [{"do": "reveal", "type": "ally", "then": "hand"}]}]},
        "cb-bribe": {"cost_kind": "credits", "cost": 0,
                     "abilities": [{"when": "play", "effects": [{"do": "find", "name": "cb-embo", "then": "place"}]}]},
        "cb-ambush": {"cost": 0, "abilities": [{"when": "play", "effects": [{"do": "look", "n": 2, "discard_one": True}]}]},
        "cb-hunters-instinct": {"cost_kind": "credits", "cost": 0,
                                "abilities": [{"when": "play", "effects": [{"do": "play", "from": "discard", "type": "ally", "free": True}]}]},
        "cb-tracking-fob": {"abilities": [{"when": "activate", "cost": 0, "effects": [{"do": "swap", "name": "cb-aurra-sing", "original": "hand"}]}]},
        "cb-double-cross": {"type": "effect", "abilities": [{"when": "play", "effects": [{"do": "remove", "target": "hero"}]}]},
    })


def test_reveal_until_an_ally_then_discard_the_rest_and_reshuffle():
    m = new(content=glossary_content())
    m = give(m, "ann", "cb-stolen-credits-1")
    m.apply("ann", "move coruscant")
    events = m.apply("ann", "play stolen credits")
    shown = [e for e in events if isinstance(e, ev.CardsRevealed)][0].cards
    assert m.state.hand["ann"][-1] == shown[-1] and shown[-1].split("-")[1] in ("todo", "bounty", "aurra", "embo", "hired", "moralo")
    assert any(type(e).__name__ == "Shuffled" for e in events)
    assert not m.state.discard["ann"] or all(c not in m.state.discard["ann"] for c in shown[:-1])


def test_find_a_named_card_and_place_it_without_its_on_play_ability():
    m = new(content=glossary_content())
    m = give(m, "ann", "cb-bribe-1")
    m.apply("ann", "move coruscant")
    m.apply("ann", "play bribe")
    m.apply("ann", "choose the box")
    embo = [c for c in m.state.sector["ann"] if c.startswith("cb-embo-")]
    assert len(embo) == 1 and m.state.sector["ann"][embo[0]]["loc"] == "the-box"


def test_look_is_secret_to_others():
    m = new(content=glossary_content())
    m = give(m, "ann", "cb-ambush-1")
    m.apply("ann", "move coruscant")
    top = list(m.state.deck["ann"][:2])
    m.apply("ann", "play ambush")
    assert m.state.pending[-1]["options"] == top + ["none"]
    bob_log = [e for _s, _a, e in m.log("bob") if isinstance(e, ev.CardsLooked)]
    assert bob_log[0].cards == ("?", "?")
    assert m.view("bob").pending[-1]["options"] == ["?", "?", "?"]
    m.apply("ann", f"choose {top[1]}")
    assert top[1] in m.state.discard["ann"]


def test_play_from_discard_for_free_and_swap():
    m = new(content=glossary_content())
    m = empty_hand(m, "bob")  # no Condition answers the Ally played
    m = fold(m, ev.CardDiscarded(owner="ann", card="cb-hired-gun-1", pile="villain", source="deck"))
    m = give(m, "ann", "cb-hunters-instinct-1")
    m.apply("ann", "move coruscant")
    m.apply("ann", "play hunters instinct")
    m.apply("ann", "choose the box")
    assert m.state.sector["ann"]["cb-hired-gun-1"]["loc"] == "the-box"
    assert m.state.credits["ann"] == 0
    m = put(m, "ann", "cb-tracking-fob-1", "bora-vio")
    m = fold(m, ev.BonusActionGranted(seat="ann", symbol="activate"))
    m.apply("ann", "activate tracking fob")
    aurra = [c for c in m.state.sector["ann"] if c.startswith("cb-aurra-sing-")]
    assert len(aurra) == 1 and m.state.sector["ann"][aurra[0]]["loc"] == "bora-vio"
    assert "cb-tracking-fob-1" in m.state.hand["ann"]


def test_remove_discards_from_the_sector_and_defeat_by_effect():
    m = new(content=glossary_content())
    m = put(m, "ann", "cbf-mace-windu-1", "coruscant")
    m = give(m, "ann", "cb-double-cross-1")
    m.apply("ann", "move coruscant")
    m.apply("ann", "play double cross")
    assert "cbf-mace-windu-1" in m.state.fate_discard["ann"]


def test_free_action_from_a_card():
    m = new(2, villains="seventh-sister,cad-bane")
    m = give(m, "ann", "ss-hunt-them-down-1")
    m = credits(m, "ann", 2)
    m = put(m, "ann", "ssf-cal-kestis-1", "bilzen")
    m = put(m, "ann", "ss-fifth-brother-1", "malachor")
    m = token(m, "ann", "ss-fifth-brother-1", 1)
    m.apply("ann", "move bilzen")  # Fate | Play | Move | Credits 1 (covered top two: Fate, Play!)
    m.apply("ann", "end")
    m.apply("bob", "move coruscant")
    m.apply("bob", "end")
    m.apply("ann", "move malachor")  # Activate | Fate | Ambition | Play
    m.apply("ann", "play hunt them down")
    m.apply("ann", "choose malachor")
    m.apply("ann", "vanquish cal kestis with fifth brother")  # the free Vanquish
    assert "ssf-cal-kestis-1" in m.state.fate_discard["ann"]


# -- Content files -----------------------------------------------------------------------


def test_check_content_names_the_bad_card_and_accepts_the_fixed_file():
    c = content_with({"cb-embo": {"abilities": [{"when": "play", "effects": [{"do": "blast"}]}]}})
    with pytest.raises(BadContent) as e:
        GAME.check_content(c)
    assert "cb-embo" in str(e.value) and "blast" in str(e.value)
    c = content_with({"cb-embo": {"copies": 3}})
    with pytest.raises(BadContent) as e:
        GAME.check_content(c)
    assert "31" in str(e.value) and "30" in str(e.value)
    c = content_with({"cbf-mace-windu": {"strength": "five"}})
    with pytest.raises(BadContent) as e:
        GAME.check_content(c)
    assert "cbf-mace-windu" in str(e.value)
    GAME.check_content(content_with({}))
    m = new(content=content_with({"cb-embo": {"strength": 7}}))
    m = put(m, "ann", "cb-embo-1", "coruscant")
    assert strength(m, "ann", "cb-embo-1") == 7


def test_every_house_card_is_labelled():
    c = GAME.default_content()
    for v in c["villains"].values():
        for deck in ("villain_deck", "fate_deck"):
            assert all(card["source"] == "house" for card in v[deck])
        assert sum(x["copies"] for x in v["villain_deck"]) == 30
        assert sum(x["copies"] for x in v["fate_deck"]) == 15
        assert len(v["locations"]) == 4 and all(len(l["actions"]) == 4 for l in v["locations"])


def test_a_condition_whose_effect_asks_a_choice_waits_on_the_reacting_seat():
    c = content_with({"ss-ruthless-pursuit": {"abilities": [{"when": "condition", "trigger": "play_ally",
                                                             "effects": [{"do": "strength", "target": "ally", "amount": 1}]}]}})
    m = new(content=c)
    m = put(m, "bob", "ss-purge-trooper-1", "bilzen")
    m = put(m, "bob", "ss-purge-trooper-2", "malachor")
    m = give(m, "bob", "ss-ruthless-pursuit-1")
    m = give(m, "ann", "cb-aurra-sing-1")
    m = credits(m, "ann", 3)
    m.apply("ann", "move coruscant")
    m.apply("ann", "play aurra sing at coruscant")
    m.apply("bob", "condition ruthless pursuit")
    d = m.to_act()
    assert d.kind == "reaction" and d.seats == ("bob",)
    m.apply("bob", "choose ss-purge-trooper-2")
    assert strength(m, "bob", "ss-purge-trooper-2") == 3
    m.apply("bob", "pass")
    assert m.to_act().seats == ("ann",) and m.to_act().kind == "turn"


def test_fate_card_without_any_effect_is_still_played_and_discarded():
    m = new()
    from villainous.test_fate_vehicles import stack_fate
    m = stack_fate(m, "ann", "cbf-jedi-intervention-1", "cbf-republic-raid-1")
    m.apply("ann", "move coruscant")
    m.apply("ann", "end")
    m.apply("bob", "move bilzen")
    m.apply("bob", "fate ann")
    m.apply("bob", "fate-play jedi intervention")  # ann has no Ally: no effect
    assert set(m.state.fate_discard["ann"]) == {"cbf-jedi-intervention-1", "cbf-republic-raid-1"}
    assert m.to_act().seats == ("bob",)


def test_reveal_from_the_hand_shows_the_card_to_everyone_and_it_stays_in_hand():
    """Reveal: cards in your hand are shown to the opponents, then go back to your hand."""
    m = new(villains="boba-fett,cad-bane")
    m = empty_hand(m, "ann")
    m = give(m, "ann", "bf-take-the-job-1")
    m.apply("ann", "move corellia")  # Credits 2 | Play | Fate | Discard
    with pytest.raises(RuleViolation) as e:  # no Bounty in hand: it cannot be followed
        m.apply("ann", "play take the job")
    assert rule_of(e) == "SV-CANNOT-FOLLOW"
    m = give(m, "ann", "bf-bounty-debtor-1", "bf-bounty-smuggler-1", "bf-bossk-1")
    assert m.view("bob").hand["ann"] == ["?"] * 4
    m.apply("ann", "play take the job")
    p = m.state.pending[-1]
    assert p["seat"] == "ann" and p["options"] == ["bf-bounty-debtor-1", "bf-bounty-smuggler-1"]
    assert m.view("bob").pending[-1]["options"] == ["?", "?"]  # bob does not learn the hand
    events = m.apply("ann", "choose smuggler")
    shown = [x for x in events if isinstance(x, ev.CardsRevealed)]
    assert shown and shown[0].cards == ("bf-bounty-smuggler-1",) and shown[0].source == "hand"
    assert "bf-bounty-smuggler-1" in m.state.hand["ann"]
    assert m.state.credits["ann"] == 3
    bob_hand_view = m.view("bob").hand["ann"]
    assert "bf-bounty-smuggler-1" in bob_hand_view and bob_hand_view.count("?") == 2
    assert "bf-bounty-debtor-1" not in str(m.log("bob"))


def test_find_a_card_type_lets_the_player_choose_which_when_several_fit():
    """Find: take the card from the first place holding one (sector, hand, discard, deck);
    which one, when several fit, is the player's choice."""
    c = content_with({"cb-bribe": {"cost_kind": "credits", "cost": 0, "abilities": [
        {"when": "play", "effects": [{"do": "find", "type": "ally", "then": "hand"}]}]}})
    m = new(content=c)
    m = empty_hand(m, "ann")
    m = give(m, "ann", "cb-embo-1", "cb-aurra-sing-1", "cb-aurra-sing-2")
    m = empty_hand(m, "ann")  # three Allies in the discard pile, two of them alike
    m = give(m, "ann", "cb-bribe-1")
    m.apply("ann", "move coruscant")
    m.apply("ann", "play bribe")
    p = m.state.pending[-1]
    assert p["seat"] == "ann" and {"cb-embo-1", "cb-aurra-sing-1"} <= set(p["options"])
    assert "cb-aurra-sing-2" not in p["options"]  # copies of one card are alike: offered once
    m.apply("ann", "choose aurra sing")
    assert m.state.hand["ann"] == ["cb-aurra-sing-1"]
    assert "cb-embo-1" in m.state.discard["ann"]


def test_a_strong_vanquish_marks_the_strong_requirement_first():
    """Bounties (Progress): Han Solo asks for a vanquish and a vanquish of Strength 4+; a
    Strength-4 Hero marks the demanding one, so a weaker Hero can still finish it."""
    m = new(2, villains="boba-fett,cad-bane")
    m = put(m, "ann", "bf-guild-master-1", "cloud-city-dining-room")
    m = put(m, "ann", "bf-bounty-han-solo-1", "cloud-city-dining-room", on="bf-guild-master-1")
    m = put(m, "ann", "bff-han-solo-1", "corellia")
    m = put(m, "ann", "bf-bossk-1", "corellia")
    m = put(m, "ann", "bf-zuckuss-1", "corellia")
    m = put(m, "ann", "bff-rebel-trooper-1", "corellia")
    m = put(m, "ann", "bf-dengar-1", "corellia")
    m.apply("ann", "move cloud city dining room")  # Play | Credits 1 | Activate | Vanquish
    m.apply("ann", "vanquish han solo with bossk zuckuss")  # 3 + 2 against 4
    assert m.state.sector["ann"]["bf-bounty-han-solo-1"]["progress"] == [1]
    m = fold(m, ev.BonusActionGranted(seat="ann", symbol="vanquish"))
    m.apply("ann", "vanquish rebel trooper with dengar")
    assert m.state.bounties["ann"] == ["bf-bounty-han-solo-1"]


def test_swap_lets_the_player_choose_the_card_when_several_fit():
    c = content_with({"cb-tracking-fob": {"abilities": [
        {"when": "activate", "cost": 0, "effects": [{"do": "swap", "type": "ally", "original": "hand"}]}]}})
    m = new(content=c)
    m = empty_hand(m, "ann")
    m = give(m, "ann", "cb-embo-1", "cb-aurra-sing-1")
    m = put(m, "ann", "cb-tracking-fob-1", "the-box")
    m.apply("ann", "move the box")  # Activate | Credits 1 | Play | Fate
    m.apply("ann", "activate tracking fob")
    assert m.state.pending[-1]["options"] == ["cb-embo-1", "cb-aurra-sing-1"]
    assert m.view("bob").pending[-1]["options"] == ["?", "?"]
    m.apply("ann", "choose embo")
    assert m.state.sector["ann"]["cb-embo-1"]["loc"] == "the-box"
    assert sorted(m.state.hand["ann"]) == ["cb-aurra-sing-1", "cb-tracking-fob-1"]


def test_find_in_the_deck_reshuffles_the_deck_only_not_the_discard_pile():
    """Find: "look for it in the discard pile. If it is not there either, look for it in the
    deck, then reshuffle the deck" - the discard pile stays a discard pile (unlike Reveal,
    which shuffles the discard pile and the deck together)."""
    m = new(content=glossary_content())
    m = give(m, "ann", "cb-bribe-1")
    for c in [c for c in m.state.deck["ann"] if not c.startswith("cb-embo-")][:3]:
        m = fold(m, ev.CardDiscarded(owner="ann", card=c, pile="villain", source="deck"))
    # no Embo in the sector, the hand or the discard pile: the Find goes to the deck
    assert not any(c.startswith("cb-embo-") for c in m.state.hand["ann"] + m.state.discard["ann"])
    discard = list(m.state.discard["ann"])
    deck = list(m.state.deck["ann"])
    m.apply("ann", "move coruscant")
    events = m.apply("ann", "play bribe") + m.apply("ann", "choose the box")
    found = next(c for c in m.state.sector["ann"] if c.startswith("cb-embo-"))
    assert found in deck
    assert m.state.discard["ann"][:len(discard)] == discard  # then Bribe itself, an Effect
    assert sorted(m.state.deck["ann"]) == sorted(c for c in deck if c != found)
    shuffles = [e for e in events if type(e).__name__ == "Shuffled"]
    assert shuffles and all(set(e.order) <= set(deck) for e in shuffles)


def test_a_swap_that_finds_its_card_in_the_deck_reshuffles_the_deck_only():
    """Swap: the other card is located as the card says (here, as a Find: hand, discard pile,
    deck) and a Find in the deck reshuffles "the deck", not the discard pile with it."""
    m = new(content=glossary_content())
    for c in [c for c in m.state.deck["ann"] if not c.startswith("cb-aurra-sing-")][:3]:
        m = fold(m, ev.CardDiscarded(owner="ann", card=c, pile="villain", source="deck"))
    assert not any(c.startswith("cb-aurra-sing-") for c in m.state.hand["ann"] + m.state.discard["ann"])
    m = put(m, "ann", "cb-tracking-fob-1", "bora-vio")
    discard, deck = list(m.state.discard["ann"]), list(m.state.deck["ann"])
    m.apply("ann", "move coruscant")
    m = fold(m, ev.BonusActionGranted(seat="ann", symbol="activate"))
    events = m.apply("ann", "activate tracking fob")
    aurra = next(c for c in m.state.sector["ann"] if c.startswith("cb-aurra-sing-"))
    assert aurra in deck and m.state.discard["ann"] == discard
    assert sorted(m.state.deck["ann"]) == sorted(c for c in deck if c != aurra)
    assert any(type(e).__name__ == "Shuffled" for e in events)
