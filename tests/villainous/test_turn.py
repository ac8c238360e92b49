"""Setup, the turn's four steps, actions and blocked actions (rulebook: Setup, On Your Turn,
Actions Overview, Blocked Actions)."""

import pytest

from arbiter.core.errors import ParseError, RuleViolation
from villainous.helpers import at, credits, empty_hand, fold, give, new, put, rule_of


def test_setup_three_players_credits_hands_decks():
    m = new(3)
    s = m.state
    assert s.villain == {"ann": "cad-bane", "bob": "seventh-sister", "cy": "boba-fett"}
    assert s.credits == {"ann": 0, "bob": 1, "cy": 2}  # 1st none, 2nd one, 3rd two
    assert all(len(s.hand[p]) == 4 for p in s.seats)
    assert all(len(s.deck[p]) == 26 and len(s.fate_deck[p]) == 15 for p in s.seats)
    assert s.ambition == {"ann": 1, "bob": 0, "cy": 0}  # step 1 of ann's first turn
    assert s.mover == {"ann": None, "bob": None, "cy": None}  # on the portrait
    assert m.to_act().seats == ("ann",) and s.phase == "move"


def test_first_player_option_chooses_who_starts_and_the_credits_follow_turn_order():
    m = new(3, first_player="bob")
    s = m.state
    assert s.order == ["bob", "cy", "ann"]
    assert s.villain == {"ann": "cad-bane", "bob": "seventh-sister", "cy": "boba-fett"}
    assert s.credits == {"bob": 0, "cy": 1, "ann": 2}  # 1st none, 2nd one, 3rd two
    assert s.ambition == {"ann": 0, "bob": 1, "cy": 0}
    assert m.to_act().seats == ("bob",)
    m.apply("bob", "move bilzen")
    m.apply("bob", "end")
    assert m.to_act().seats == ("cy",)
    m.apply("cy", "move corellia")
    m.apply("cy", "end")
    assert m.to_act().seats == ("ann",) and m.state.round == 1
    m.apply("ann", "move coruscant")
    m.apply("ann", "end")
    assert m.to_act().seats == ("bob",) and m.state.round == 2
    from arbiter.core.errors import BadOption
    with pytest.raises(BadOption):
        new(2, first_player="zed")


def test_villains_option_and_bad_values():
    m = new(2, villains="boba-fett,cad-bane")
    assert m.state.villain == {"ann": "boba-fett", "bob": "cad-bane"}
    from arbiter.core.errors import BadOption
    with pytest.raises(BadOption):
        new(2, villains="boba-fett,boba-fett")
    with pytest.raises(BadOption):
        new(2, villains="darth-maul,cad-bane")


def test_must_move_first_and_to_a_different_location():
    m = new()
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "collect")
    assert rule_of(e) == "SV-MOVE-FIRST"
    m.apply("ann", "move coruscant")
    assert m.state.mover["ann"] == "coruscant"
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "move bora vio")
    assert rule_of(e) == "SV-MOVER-ONCE"
    m.apply("ann", "end")
    m.apply("bob", "move bilzen")
    m.apply("bob", "end")
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "move coruscant")
    assert rule_of(e) == "SV-MOVER-DIFFERENT"
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "move bilzen")  # another villain's location
    assert rule_of(e) == "SV-MOVER-PLACE"


def test_collect_credits_example_2_symbol_gives_2_and_once_per_turn():
    m = new()
    m.apply("ann", "move coruscant")  # Credits 2 | Fate | Play | Discard
    m.apply("ann", "collect")
    assert m.state.credits["ann"] == 2
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "collect")
    assert rule_of(e) == "SV-ACTION-ONCE"
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "activate cb-bounty-droid-1")
    assert rule_of(e) in ("SV-ACTIVATE", "SV-ACTION-VISIBLE")


def test_ambition_gained_at_start_of_each_turn():
    m = new()
    m.apply("ann", "move coruscant")
    m.apply("ann", "end")
    assert m.state.ambition["bob"] == 1
    m.apply("bob", "move bilzen")
    m.apply("bob", "end")
    assert m.state.ambition["ann"] == 2 and m.state.round == 2


def test_hero_covers_top_two_actions_until_vanquished_then_available_at_once():
    m = new()
    m = put(m, "ann", "cbf-clone-trooper-1", "coruscant")  # covers Credits 2 and Fate
    m = put(m, "ann", "cb-hired-gun-1", "coruscant")
    m = put(m, "ann", "cb-aurra-sing-1", "black-stall-station")
    m.apply("ann", "move coruscant")
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "collect")
    assert rule_of(e) == "SV-BLOCKED"
    assert "collect" not in m.legal_texts("ann")
    # vanquish is not at Coruscant; go elsewhere next turn. Here: play and discard still open
    m.apply("ann", "end")
    m.apply("bob", "move bilzen")
    m.apply("bob", "end")
    # move to Bora Vio (Play | Move | Credits 3 | Vanquish): vanquish the trooper from afar
    m.apply("ann", "move bora vio")
    m.apply("ann", "vanquish clone trooper with hired gun")
    assert "cbf-clone-trooper-1" in m.state.fate_discard["ann"]
    assert "cb-hired-gun-1" in m.state.discard["ann"]


def test_blocked_action_becomes_available_immediately_same_turn():
    m = new()
    m = put(m, "ann", "cbf-clone-trooper-1", "black-stall-station")  # covers Vanquish, Play
    m = give(m, "ann", "cb-bribe-1")
    m.apply("ann", "move black-stall-station")  # Vanquish | Play | Ambition | Move
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "vanquish clone trooper with hired gun")
    assert rule_of(e) in ("SV-VANQUISH-ALLIES", "SV-BLOCKED")
    m.apply("ann", "play bribe")  # Ambition action: move a Hero (ann has 1 Ambition)
    m.apply("ann", "choose coruscant")
    assert m.state.sector["ann"]["cbf-clone-trooper-1"]["loc"] == "coruscant"
    m = put(m, "ann", "cb-hired-gun-1", "coruscant")
    # Play (index 1) is visible again at Black Stall Station, this same turn
    m = credits(m, "ann", 3)
    m = give(m, "ann", "cb-embo-1")
    m.apply("ann", "play embo at bora-vio")
    assert m.state.sector["ann"]["cb-embo-1"]["loc"] == "bora-vio"


def test_play_credits_card_example_pay_3_at_location_of_choice():
    m = new()
    m = give(m, "ann", "cb-aurra-sing-1")
    m = credits(m, "ann", 3)
    m.apply("ann", "move coruscant")
    m.apply("ann", "play aurra sing at the box")
    assert m.state.credits["ann"] == 0
    assert m.state.sector["ann"]["cb-aurra-sing-1"]["loc"] == "the-box"
    assert m.state.ambition["ann"] == 2  # its on-play ability: gain 1 Ambition


def test_not_enough_credits_cannot_play():
    m = new()
    m = give(m, "ann", "cb-aurra-sing-1")
    m.apply("ann", "move coruscant")
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "play aurra sing at the box")
    assert rule_of(e) == "SV-COST"


def test_ambition_card_needs_the_ambition_action_not_play():
    m = new()
    m = give(m, "ann", "cb-bribe-1")
    m = put(m, "ann", "cbf-clone-trooper-1", "the-box")
    m.apply("ann", "move coruscant")  # Credits 2 | Fate | Play | Discard: no Ambition symbol
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "play bribe")
    assert rule_of(e) == "SV-ACTION-VISIBLE"


def test_ambition_cost_paid_by_returning_tokens():
    m = new()
    m = give(m, "ann", "cb-moralo-eval-1")  # Ambition cost 2
    m.apply("ann", "move black-stall-station")
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "play moralo eval at coruscant")
    assert rule_of(e) == "SV-COST"
    m = fold(m)
    from villainous.helpers import ambition
    m = ambition(m, "ann", 2)
    m.apply("ann", "play moralo eval at coruscant")
    assert m.state.ambition["ann"] == 0


def test_activate_ability_pays_its_cost_once_per_symbol():
    m = new(seed=2)
    m = put(m, "ann", "cb-tracking-fob-1", "the-box")
    m = put(m, "ann", "cbf-clone-trooper-1", "the-box")
    m = put(m, "ann", "cbf-clone-trooper-2", "bora-vio")
    m.apply("ann", "move coruscant")
    m.apply("ann", "end")
    m.apply("bob", "move bilzen")
    m.apply("bob", "end")
    m.apply("ann", "move the box")  # Activate is covered by the trooper there
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "activate tracking fob")
    assert rule_of(e) == "SV-BLOCKED"


def test_discard_then_draw_only_at_end_of_turn():
    m = new()
    hand = list(m.state.hand["ann"])
    m.apply("ann", "move coruscant")
    m.apply("ann", f"discard {hand[0]} {hand[1]}")
    assert len(m.state.hand["ann"]) == 2  # no drawing mid-turn
    assert set(hand[:2]) <= set(m.state.discard["ann"])
    m.apply("ann", "end")
    assert len(m.state.hand["ann"]) == 4


def test_begin_turn_short_handed_still_draws_only_at_end_and_more_than_limit_keeps_all():
    m = new()
    m = empty_hand(m, "ann")
    m.apply("ann", "move coruscant")
    assert m.state.hand["ann"] == []
    m.apply("ann", "end")
    assert len(m.state.hand["ann"]) == 4
    m = give(m, "bob", *m.state.deck["bob"][:3])  # bob holds 7
    m.apply("bob", "move bilzen")
    m.apply("bob", "end")
    assert len(m.state.hand["bob"]) == 7


def test_villain_deck_reshuffles_from_discard_when_exhausted():
    m = new()
    deck = list(m.state.deck["ann"])
    m = fold(m, *[__import__("arbiter.events.villainous", fromlist=["x"]).CardDiscarded(
        owner="ann", card=c, pile="villain", source="deck") for c in deck[:-1]])
    m = empty_hand(m, "ann")
    assert len(m.state.deck["ann"]) == 1
    m.apply("ann", "move coruscant")
    events = m.apply("ann", "end")
    assert any(type(e).__name__ == "Shuffled" for e in events)
    assert len(m.state.hand["ann"]) == 4


def test_parse_errors_name_the_problem():
    m = new()
    with pytest.raises(ParseError):
        m.apply("ann", "play darth jar jar at coruscant")
    with pytest.raises(ParseError):
        m.apply("ann", "move nowhere-land")
    with pytest.raises(ParseError):
        m.apply("ann", "frobnicate")
