"""The card language of CARDS.md as real cards: start- and end-of-turn abilities, "whenever"
abilities of cards in play, cost and Credits modifiers, conditions and counting, Condition
triggers and Bounty Progress of every kind of happening.

Each test writes a house card (paraphrased, never a printed card's text) into the house
content in place of a house card of the same deck, then plays it through a Match with the
commands a player types, and checks what the rulebook says follows."""

import pytest

from arbiter.core.errors import RuleViolation
from arbiter.events import villainous as ev
from villainous.helpers import (ambition, at, content_with, credits, empty_hand, fold, give, new, put, rule_of,
                                strength)


def house(card_id: str, text: str, **fields):
    """A house card written over ``card_id`` (same deck, same copies)."""
    return {card_id: {"text": text, **fields}}


def cards(*defs):
    out = {}
    for d in defs:
        out.update(d)
    return content_with(out)


def gain(**kw):
    return {"do": "gain", **kw}


def end_round(m, *others):
    """ann ends her turn and every other seat moves and ends: ann's next turn begins."""
    m.apply("ann", "end")
    for seat, where in others:
        m.apply(seat, f"move {where}")
        m.apply(seat, "end")


# -- start and end of turn --------------------------------------------------------------


def test_at_the_start_of_your_turn_a_card_in_play_gains_you_a_credit():
    c = cards(house("cb-tracking-fob", "At the start of your turn, gain 1 Credit.",
                    abilities=[{"when": "turn_start", "effects": [gain(credits=1)]}]))
    m = new(content=c)
    m = put(m, "ann", "cb-tracking-fob-1", "coruscant")
    m.apply("ann", "move the box")
    m.apply("ann", "end")
    assert m.state.credits["ann"] == 0  # not at the end of her turn, nor on bob's
    m.apply("bob", "move bilzen")
    m.apply("bob", "end")
    assert m.state.active == "ann" and m.state.credits["ann"] == 1


def test_at_the_end_of_your_turn_discard_comes_before_the_draw():
    """On Your Turn, 4: draw at the end of the turn; an end-of-turn ability is applied first,
    so the hand is refilled after its discard."""
    c = cards(house("cb-tracking-fob", "At the end of your turn, discard a card.",
                    abilities=[{"when": "turn_end", "effects": [{"do": "discard", "n": 1}]}]))
    m = new(content=c)
    m = put(m, "ann", "cb-tracking-fob-1", "coruscant")
    m.apply("ann", "move the box")
    first = m.state.hand["ann"][0]
    m.apply("ann", "end")
    assert m.to_act().seats == ("ann",) and m.state.active == "ann"  # the choice, before the draw
    m.apply("ann", f"choose {first}")
    assert first in m.state.discard["ann"] and len(m.state.hand["ann"]) == 4
    assert m.state.active == "bob"


def test_a_fate_hero_that_takes_a_credit_at_the_start_of_the_villains_turn():
    c = cards(house("cbf-anakin-skywalker", "At the start of the Villain's turn, they lose 1 Credit.",
                    abilities=[{"when": "turn_start", "effects": [{"do": "lose", "credits": 1}]}]))
    m = new(content=c)
    m = put(m, "ann", "cbf-anakin-skywalker-1", "bora-vio")
    m = credits(m, "ann", 2)
    m.apply("ann", "move coruscant")
    end_round(m, ("bob", "bilzen"))
    assert m.state.credits["ann"] == 1


# -- "whenever ..." on cards in play ------------------------------------------------------


FOB_ALLY_HERE = house("cb-tracking-fob", "Whenever you play an Ally at this location, gain 1 Credit.",
                      abilities=[{"when": "whenever", "event": "play_ally", "where": "here",
                                  "effects": [gain(credits=1)]}])


@pytest.mark.parametrize("where,expected", [("coruscant", 2), ("the-box", 1)])
def test_whenever_you_play_an_ally_at_this_location(where, expected):
    m = new(content=cards(FOB_ALLY_HERE))
    m = put(m, "ann", "cb-tracking-fob-1", "coruscant")
    m = give(m, "ann", "cb-hired-gun-1")
    m.apply("ann", "move bora vio")
    m.apply("ann", "collect")  # 3 Credits
    m.apply("ann", f"play cb-hired-gun-1 at {where}")
    assert m.state.credits["ann"] == expected


def test_whenever_a_hero_is_played_in_your_sector_on_an_opponents_turn():
    c = cards(house("cb-tracking-fob", "Whenever a Hero is played in your Sector, gain 1 Ambition.",
                    abilities=[{"when": "whenever", "event": "play_hero", "effects": [gain(ambition=1)]}]))
    m = new(content=c, seed=3)
    m = put(m, "ann", "cb-tracking-fob-1", "coruscant")
    m.apply("ann", "move the box")
    m.apply("ann", "end")
    amb = m.state.ambition["ann"]
    m.apply("bob", "move bilzen")
    m.apply("bob", "fate ann")
    heroes = [x for x in m.state.fate["cards"] if x.startswith(("cbf-clone", "cbf-obi", "cbf-anakin", "cbf-ahsoka",
                                                                 "cbf-senate", "cbf-mace", "cbf-captain"))]
    assert heroes, "seed 3 reveals a Hero"
    m.apply("bob", f"fate-play {heroes[0]} at bora-vio")
    assert m.state.ambition["ann"] == amb + 1


def test_whenever_a_hero_is_vanquished_at_this_location_draw_a_card():
    c = cards(house("cb-tracking-fob", "Whenever a Hero is vanquished at this location, draw 1 card.",
                    abilities=[{"when": "whenever", "event": "vanquish", "where": "here",
                                "effects": [{"do": "draw", "n": 1}]}]))
    m = new(content=c)
    m = put(m, "ann", "cb-tracking-fob-1", "bora-vio")
    m = put(m, "ann", "cbf-clone-trooper-1", "bora-vio")
    m = put(m, "ann", "cb-hired-gun-1", "bora-vio")
    m.apply("ann", "move black stall station")
    m.apply("ann", "vanquish cbf-clone-trooper-1 with cb-hired-gun-1")
    assert len(m.state.hand["ann"]) == 5  # drawn by the card, not by the end of the turn


def test_whenever_a_hero_is_defeated_counts_a_defeat_by_card():
    """Defeat: "You may defeat a card either through the Vanquish action or by playing a
    specific card"."""
    c = cards(house("cb-tracking-fob", "Whenever a Hero is defeated in your Sector, gain 2 Credits.",
                    abilities=[{"when": "whenever", "event": "defeat", "effects": [gain(credits=2)]}]))
    m = new(content=c)
    m = put(m, "ann", "cb-tracking-fob-1", "the-box")
    m = put(m, "ann", "cbf-clone-trooper-1", "bora-vio")
    m = put(m, "ann", "cb-hired-gun-1", "bora-vio")
    m = give(m, "ann", "cb-ambush-1")
    m = credits(m, "ann", 2)
    m.apply("ann", "move coruscant")
    m.apply("ann", "play cb-ambush-1")  # defeats the only Hero it can
    assert "cbf-clone-trooper-1" in m.state.fate_discard["ann"]
    assert m.state.credits["ann"] == 2


def test_whenever_you_play_an_item_this_ally_gets_a_strength_token():
    c = cards(house("cb-hired-gun", "Whenever you play an Item, this Ally gets a +1 Strength token.",
                    abilities=[{"when": "whenever", "event": "play_item",
                                "effects": [{"do": "strength", "target": "self", "amount": 1}]}]))
    m = new(content=c)
    m = put(m, "ann", "cb-hired-gun-1", "bora-vio")
    m = give(m, "ann", "cb-twin-blasters-1")
    m = credits(m, "ann", 2)
    m.apply("ann", "move coruscant")
    m.apply("ann", "play cb-twin-blasters-1 on cb-hired-gun-1")
    assert strength(m, "ann", "cb-hired-gun-1") == 2 + 2 + 1


# -- cost and Credits modifiers -----------------------------------------------------------


def test_your_allies_cost_one_less():
    c = cards(house("cb-tracking-fob", "Your Allies cost 1 less.",
                    abilities=[{"passive": "cost", "type": "ally", "amount": -1}]))
    m = new(content=c)
    m = put(m, "ann", "cb-tracking-fob-1", "coruscant")
    m = give(m, "ann", "cb-hired-gun-1", "cb-ambush-1")
    m = credits(m, "ann", 1)
    m.apply("ann", "move coruscant")
    m.apply("ann", "play cb-hired-gun-1 at coruscant")  # printed 2
    played = [e for _, _, e in m.items if isinstance(e, ev.CardPlayed) and e.card == "cb-hired-gun-1"]
    assert played[-1].cost == 1 and m.state.credits["ann"] == 0


def test_a_cost_never_falls_below_zero():
    c = cards(house("cb-tracking-fob", "Your Allies cost 2 less.",
                    abilities=[{"passive": "cost", "type": "ally", "amount": -2}]))
    m = new(content=c)
    m = put(m, "ann", "cb-tracking-fob-1", "coruscant")
    m = give(m, "ann", "cb-todo-360-1")  # printed 1
    m.apply("ann", "move coruscant")
    m.apply("ann", "play cb-todo-360-1 at coruscant")
    assert m.state.credits["ann"] == 0 and "cb-todo-360-1" in m.state.sector["ann"]


def test_a_fate_card_that_makes_the_villains_effects_cost_more():
    c = cards(house("cbf-anakin-skywalker", "The Villain's Effects cost 1 more.",
                    abilities=[{"passive": "cost", "type": "effect", "amount": 1}]))
    m = new(content=c)
    m = put(m, "ann", "cbf-anakin-skywalker-1", "bora-vio")
    m = put(m, "ann", "cbf-clone-trooper-1", "the-box")
    m = put(m, "ann", "cb-hired-gun-1", "the-box")
    m = give(m, "ann", "cb-ambush-1")  # printed 2
    m = credits(m, "ann", 2)
    m.apply("ann", "move coruscant")
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "play cb-ambush-1")
    assert rule_of(e) == "SV-COST"
    m = credits(m, "ann", 3)
    m.apply("ann", "play cb-ambush-1")
    assert m.state.credits["ann"] == 0


def test_ambition_cards_cost_one_less():
    c = cards(house("cb-tracking-fob", "Your Ambition cards cost 1 less.",
                    abilities=[{"passive": "cost", "cost_kind": "ambition", "amount": -1}]))
    m = new(content=c)
    m = put(m, "ann", "cb-tracking-fob-1", "coruscant")
    m = put(m, "ann", "cbf-clone-trooper-1", "the-box")
    m = give(m, "ann", "cb-bribe-1")  # 1 Ambition: move a Hero
    m = ambition(m, "ann", 0)
    m.apply("ann", "move black stall station")
    m.apply("ann", "play cb-bribe-1")
    assert m.state.ambition["ann"] == 0 and m.state.pending  # where the Hero moves


def test_allies_cost_one_less_for_each_hero_at_this_location():
    c = cards(house("cb-tracking-fob", "Allies cost 1 less for each Hero at this location.",
                    abilities=[{"passive": "cost", "type": "ally", "amount": -1,
                                "for_each": {"count": "heroes", "where": "here"}}]))
    m = new(content=c)
    m = put(m, "ann", "cb-tracking-fob-1", "bora-vio")
    m = put(m, "ann", "cbf-clone-trooper-1", "bora-vio")
    m = put(m, "ann", "cbf-clone-trooper-2", "bora-vio")
    m = put(m, "ann", "cbf-mace-windu-1", "coruscant")  # elsewhere: does not count
    m = give(m, "ann", "cb-aurra-sing-1")  # printed 3
    m = credits(m, "ann", 1)
    m.apply("ann", "move black stall station")
    m.apply("ann", "play cb-aurra-sing-1 at the-box")
    assert m.state.credits["ann"] == 0


def test_collect_credits_takes_one_more():
    c = cards(house("cb-tracking-fob", "When you Collect Credits, take 1 more.",
                    abilities=[{"passive": "collect", "amount": 1}]))
    m = new(content=c)
    m = put(m, "ann", "cb-tracking-fob-1", "the-box")
    m.apply("ann", "move coruscant")
    m.apply("ann", "collect")
    assert m.state.credits["ann"] == 3


def test_a_fate_hero_makes_the_villain_collect_one_fewer():
    c = cards(house("cbf-anakin-skywalker", "The Villain collects 1 Credit fewer.",
                    abilities=[{"passive": "collect", "amount": -1}]))
    m = new(content=c)
    m = put(m, "ann", "cbf-anakin-skywalker-1", "bora-vio")
    m.apply("ann", "move coruscant")
    m.apply("ann", "collect")
    assert m.state.credits["ann"] == 1


# -- conditions and counting --------------------------------------------------------------


BONUS = house("cb-stolen-credits", "Gain 1 Credit. If you have 2 or more Allies in play, gain 2 more.",
              abilities=[{"when": "play", "effects": [gain(credits=1),
                                                       gain(credits=2, **{"if": {"count": "allies", "min": 2}})]}])


@pytest.mark.parametrize("allies,expected", [(1, 1), (2, 3)])
def test_if_you_have_two_allies_gain_more(allies, expected):
    m = new(content=cards(BONUS))
    for k in range(1, allies + 1):
        m = put(m, "ann", f"cb-hired-gun-{k}", "the-box")
    m = give(m, "ann", "cb-stolen-credits-1")
    m.apply("ann", "move black stall station")
    m.apply("ann", "play cb-stolen-credits-1")
    assert m.state.credits["ann"] == expected


@pytest.mark.parametrize("hero_at,expected", [("the-box", 2), ("coruscant", 1)])
def test_if_no_hero_is_where_your_mover_stands(hero_at, expected):
    c = cards(house("cb-stolen-credits", "Gain 1 Ambition if no Hero is at your mover's location.",
                    abilities=[{"when": "play", "effects": [
                        gain(ambition=1, **{"if": {"count": "heroes", "where": "mover", "max": 0}})]}]))
    m = new(content=c)
    m = put(m, "ann", "cbf-clone-trooper-1", hero_at)  # at Coruscant it covers Credits and Fate, not Play
    m = give(m, "ann", "cb-stolen-credits-1")
    m.apply("ann", "move coruscant")
    m.apply("ann", "play cb-stolen-credits-1")
    assert m.state.ambition["ann"] == expected


def test_gain_a_credit_for_each_hero_in_your_sector():
    c = cards(house("cb-stolen-credits", "Gain 1 Credit for each Hero in your Sector.",
                    abilities=[{"when": "play", "effects": [gain(credits=1, for_each={"count": "heroes"})]}]))
    m = new(content=c)
    for k, where in ((1, "the-box"), (2, "bora-vio"), (3, "bora-vio")):
        m = put(m, "ann", f"cbf-clone-trooper-{k}", where)
    m = give(m, "ann", "cb-stolen-credits-1")
    m.apply("ann", "move coruscant")
    m.apply("ann", "play cb-stolen-credits-1")
    assert m.state.credits["ann"] == 3


def test_strength_for_each_item_at_its_location():
    c = cards(house("cb-hired-gun", "This Ally gets +1 Strength for each Item at its location.",
                    abilities=[{"passive": "strength", "applies": "self", "amount": 1,
                                "for_each": {"count": "items", "where": "here"}}]))
    m = new(content=c)
    m = put(m, "ann", "cb-hired-gun-1", "the-box")
    assert strength(m, "ann", "cb-hired-gun-1") == 2
    m = put(m, "ann", "cb-tracking-fob-1", "the-box")
    m = put(m, "ann", "cb-tracking-fob-2", "coruscant")
    assert strength(m, "ann", "cb-hired-gun-1") == 3


def test_strength_while_you_have_three_allies():
    c = cards(house("cb-hired-gun", "While you have 3 or more Allies in play, this Ally gets +2 Strength.",
                    abilities=[{"passive": "strength", "applies": "self", "amount": 2,
                                "if": {"count": "allies", "min": 3}}]))
    m = new(content=c)
    m = put(m, "ann", "cb-hired-gun-1", "the-box")
    m = put(m, "ann", "cb-aurra-sing-1", "coruscant")
    assert strength(m, "ann", "cb-hired-gun-1") == 2
    m = put(m, "ann", "cb-embo-1", "coruscant")
    assert strength(m, "ann", "cb-hired-gun-1") == 4


# -- Condition triggers --------------------------------------------------------------------


def condition(trigger, text, effects, **extra):
    return house("ss-ruthless-pursuit", text,
                 abilities=[{"when": "condition", "trigger": trigger, "effects": effects, **extra}])


def test_condition_played_when_an_opponent_activates_an_ability():
    c = cards(condition("activate", "Play when an opponent activates an ability: gain 1 Credit.", [gain(credits=1)]))
    m = new(content=c)
    m = give(empty_hand(m, "bob"), "bob", "ss-ruthless-pursuit-1")
    m = put(m, "ann", "cb-bounty-droid-1", "bora-vio")
    m = put(m, "ann", "cbf-clone-trooper-1", "bora-vio")
    m = credits(m, "ann", 1)
    m.apply("ann", "move the box")
    m.apply("ann", "activate cb-bounty-droid-1")
    assert m.to_act().seats == ("bob",)
    m.apply("bob", "condition ss-ruthless-pursuit-1")
    assert m.state.credits["bob"] == 2 and m.state.credits["ann"] == 0


def test_condition_played_when_an_opponent_moves_a_card_makes_them_lose_a_credit():
    c = cards(condition("move_card", "Play when an opponent moves a card: they lose 1 Credit.",
                        [{"do": "lose", "credits": 1, "who": "opponent"}]))
    m = new(content=c)
    m = give(empty_hand(m, "bob"), "bob", "ss-ruthless-pursuit-1")
    m = put(m, "ann", "cb-hired-gun-1", "coruscant")
    m = credits(m, "ann", 2)
    m.apply("ann", "move black stall station")
    m.apply("ann", "move cb-hired-gun-1 to the box")
    m.apply("bob", "condition ss-ruthless-pursuit-1")
    assert m.state.credits["ann"] == 1


def test_a_condition_with_a_condition_of_its_own_is_playable_only_while_it_holds():
    c = cards(condition("play_ally", "Play when an opponent plays an Ally, if you have no Credits: gain 2 Credits.",
                        [gain(credits=2)], **{"if": {"count": "credits", "max": 0}}))
    m = new(content=c)
    m = give(empty_hand(m, "bob"), "bob", "ss-ruthless-pursuit-1")  # bob starts with 1 Credit
    m = give(m, "ann", "cb-hired-gun-1", "cb-hired-gun-2")
    m = credits(m, "ann", 4)
    m.apply("ann", "move coruscant")
    m.apply("ann", "play cb-hired-gun-1 at coruscant")
    assert m.to_act().seats == ("ann",)  # bob holds it, but its condition is not met
    m = credits(m, "bob", 0)
    m.apply("ann", "end")
    m.apply("bob", "move bilzen")
    m.apply("bob", "end")
    m.apply("ann", "move bora vio")
    m.apply("ann", "play cb-hired-gun-2 at bora vio")
    assert m.legal_texts("bob") == ["pass", "condition ss-ruthless-pursuit-1"]
    m.apply("bob", "condition ss-ruthless-pursuit-1")
    assert m.state.credits["bob"] == 2


def test_a_fate_condition_discarded_when_the_villain_plays_an_item():
    c = cards(house("cbf-wanted-by-the-senate", "The Villain may not play Ambition cards. Discard when the "
                    "Villain plays an Item.", until="play_item"))
    m = new(content=c)
    m = put(m, "ann", "cbf-wanted-by-the-senate-1", "mover")
    m = give(m, "ann", "cb-tracking-fob-1")
    m = credits(m, "ann", 1)
    m.apply("ann", "move coruscant")
    m.apply("ann", "play cb-tracking-fob-1 at coruscant")
    assert "cbf-wanted-by-the-senate-1" in m.state.fate_discard["ann"]


# -- Bounty Progress of any happening -----------------------------------------------------


def boba(progress, text="Progress: see the test.", hunt=None, **kw):
    c = cards(house("bf-bounty-debtor", text, progress=progress,
                    hunt=hunt or {"cost": 1, "effects": [gain(ambition=1)]}), *kw.get("more", ()))
    m = new(content=c, villains="boba-fett,cad-bane")
    m = put(m, "ann", "bf-guild-master-1", "corellia")
    m = put(m, "ann", "bf-bounty-debtor-1", "corellia", on="bf-guild-master-1")
    return m


def progress_of(m, bounty="bf-bounty-debtor-1"):
    return m.state.sector["ann"][bounty]["progress"] if bounty in m.state.sector["ann"] else "done"


def test_progress_play_an_item():
    m = boba([{"kind": "play_item"}, {"kind": "hunt"}], "Progress: play an Item; Hunt.")
    m = put(m, "ann", "bf-bossk-1", "corellia")
    m = give(m, "ann", "bf-ee-3-carbine-1")
    m = credits(m, "ann", 2)
    m.apply("ann", "move cloud city dining room")
    m.apply("ann", "play bf-ee-3-carbine-1 on bf-bossk-1")
    assert progress_of(m) == [0]


# SV-HOUSE-BOUNTY-PROGRESS: a Progress requirement narrowed by name counts only that Hero.
def test_progress_vanquish_a_named_hero_and_no_other():
    m = boba([{"kind": "vanquish", "named": "cbf-clone-trooper"}, {"kind": "hunt"}],
             "Progress: vanquish a Clone Trooper; Hunt.")
    m = put(m, "ann", "cbf-senate-guard-1", "executor-bridge")
    m = put(m, "ann", "cbf-clone-trooper-1", "executor-bridge")
    m = put(m, "ann", "bf-bossk-1", "executor-bridge")
    m = put(m, "ann", "bf-bossk-2", "executor-bridge")
    m.apply("ann", "move cloud city dining room")
    m.apply("ann", "vanquish cbf-senate-guard-1 with bf-bossk-1")
    assert progress_of(m) == []
    m.apply("ann", "end")
    m.apply("bob", "move coruscant")
    m.apply("bob", "end")
    m.apply("ann", "move jabbas palace")
    m.apply("ann", "end")
    m.apply("bob", "move the box")
    m.apply("bob", "end")
    m.apply("ann", "move cloud city dining room")
    m.apply("ann", "vanquish cbf-clone-trooper-1 with bf-bossk-2")
    assert progress_of(m) == [0]


def test_progress_defeat_a_hero_of_strength_three_or_more_by_card():
    m = boba([{"kind": "defeat", "min": 3}, {"kind": "hunt"}], "Progress: defeat a Hero of Strength 3+; Hunt.")
    m = put(m, "ann", "cbf-ahsoka-tano-1", "jabbas-palace")
    m = give(m, "ann", "bf-flamethrower-1")  # 2 Ambition: defeat a Hero of Strength 3 or less
    m = ambition(m, "ann", 2)
    m.apply("ann", "move executor bridge")
    m.apply("ann", "play bf-flamethrower-1")
    assert progress_of(m) == [0]


def test_progress_have_three_allies_in_play():
    m = boba([{"kind": "have", "count": "allies", "min": 3}, {"kind": "hunt"}],
             "Progress: have 3 Allies in play; Hunt.")
    m = put(m, "ann", "bf-bossk-1", "corellia")
    m = put(m, "ann", "bf-zuckuss-1", "corellia")
    m = give(m, "ann", "bf-4-lom-1")
    m = credits(m, "ann", 1)
    m.apply("ann", "move cloud city dining room")
    assert progress_of(m) == []
    m.apply("ann", "play bf-4-lom-1 at corellia")
    assert progress_of(m) == [0]


def test_progress_discard_cards_and_complete_another_bounty():
    m = boba([{"kind": "discard"}, {"kind": "hunt"}], "Progress: Discard; Hunt.",
             more=[house("bf-bounty-smuggler", "Progress: complete another Bounty.",
                         progress=[{"kind": "complete_bounty"}])])
    m = put(m, "ann", "bf-jabba-the-hutt-1", "corellia")
    m = put(m, "ann", "bf-bounty-smuggler-1", "corellia", on="bf-jabba-the-hutt-1")
    m = credits(m, "ann", 1)
    m.apply("ann", "move corellia")
    m.apply("ann", f"discard {m.state.hand['ann'][0]}")
    assert progress_of(m) == [0]
    m.apply("ann", "hunt bf-bounty-debtor-1")
    assert progress_of(m) == "done" and progress_of(m, "bf-bounty-smuggler-1") == "done"
    assert m.state.bounties["ann"] == ["bf-bounty-debtor-1", "bf-bounty-smuggler-1"]


def test_whenever_you_complete_a_bounty_draw_a_card():
    c_more = house("bf-jabba-the-hutt", "Up to 2 Bounties. Reward: gain 3 Credits. Whenever you complete a "
                   "Bounty, draw 1 card.",
                   abilities=[{"when": "reward", "effects": [gain(credits=3)]},
                              {"when": "whenever", "event": "complete_bounty", "effects": [{"do": "draw", "n": 1}]}])
    m = boba([{"kind": "hunt"}], "Progress: Hunt.", more=[c_more])
    m = put(m, "ann", "bf-jabba-the-hutt-1", "jabbas-palace")
    m = credits(m, "ann", 1)
    hand = len(m.state.hand["ann"])
    m.apply("ann", "hunt bf-bounty-debtor-1")
    assert len(m.state.hand["ann"]) == hand + 1
