"""Vanquish, Strength, 0-strength rules, the Mandalorian and Grogu example (rulebook:
Vanquish, Strength, Strength Tokens, Gaining and Losing Strength)."""

import pytest

from arbiter.core.errors import RuleViolation
from villainous.helpers import at, credits, fold, give, new, put, rule_of, strength, token


def three_allies_vs_mace():
    m = new()
    m = put(m, "ann", "cbf-mace-windu-1", "coruscant")      # Hero, Strength 5
    m = put(m, "ann", "cb-aurra-sing-1", "coruscant")       # 3, +1 token = 4
    m = token(m, "ann", "cb-aurra-sing-1", 1)
    m = put(m, "ann", "cb-todo-360-1", "coruscant")         # 1
    m = put(m, "ann", "cb-hired-gun-1", "coruscant")        # 2 (the third Ally)
    m.apply("ann", "move bora vio")                         # Play | Move | Credits 3 | Vanquish
    return m


def test_vanquish_example_two_allies_4_plus_1_beat_strength_5_third_stays():
    m = three_allies_vs_mace()
    assert strength(m, "ann", "cbf-mace-windu-1") == 5
    assert strength(m, "ann", "cb-aurra-sing-1") == 4
    m.apply("ann", "vanquish mace windu with aurra sing todo 360")
    s = m.state
    assert "cbf-mace-windu-1" in s.fate_discard["ann"]
    assert {"cb-aurra-sing-1", "cb-todo-360-1"} <= set(s.discard["ann"])
    assert s.sector["ann"]["cb-hired-gun-1"]["loc"] == "coruscant"


def test_vanquish_with_exactly_equal_strength_succeeds_and_less_fails():
    m = three_allies_vs_mace()
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "vanquish mace windu with aurra sing")  # 4 < 5
    assert rule_of(e) == "SV-VANQUISH-STRENGTH"
    m.apply("ann", "vanquish mace windu with hired gun todo 360 aurra sing")  # 7 >= 5
    assert "cbf-mace-windu-1" in m.state.fate_discard["ann"]


def test_exactly_equal():
    m = new()
    m = put(m, "ann", "cbf-clone-trooper-1", "the-box")
    m = put(m, "ann", "cb-hired-gun-1", "the-box")
    m.apply("ann", "move bora vio")
    m.apply("ann", "vanquish clone trooper with hired gun")  # 2 vs 2
    assert "cbf-clone-trooper-1" in m.state.fate_discard["ann"]


def test_allies_must_be_at_the_heros_location():
    m = new()
    m = put(m, "ann", "cbf-clone-trooper-1", "the-box")
    m = put(m, "ann", "cb-aurra-sing-1", "coruscant")
    m.apply("ann", "move bora vio")
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "vanquish clone trooper with aurra sing")
    assert rule_of(e) == "SV-VANQUISH-SAME-LOCATION"


def test_zero_strength_ally_is_always_discarded():
    m = new()
    m = put(m, "ann", "cbf-obi-wan-kenobi-1", "the-box")   # Allies here get -1
    m = put(m, "ann", "cbf-clone-trooper-1", "the-box")     # 2
    m = put(m, "ann", "cb-todo-360-1", "the-box")           # 1 - 1 = 0
    m = put(m, "ann", "cb-aurra-sing-1", "the-box")         # 3 - 1 = 2
    assert strength(m, "ann", "cb-todo-360-1") == 0
    m.apply("ann", "move bora vio")
    m.apply("ann", "vanquish clone trooper with aurra sing todo 360")
    assert {"cb-todo-360-1", "cb-aurra-sing-1"} <= set(m.state.discard["ann"])


def test_zero_strength_hero_blocks_but_vanquishing_it_keeps_the_ally():
    m = new()
    m = put(m, "ann", "cbf-senate-guard-1", "coruscant")    # 2, two -1 tokens: 0
    m = token(m, "ann", "cbf-senate-guard-1", -2)
    m = put(m, "ann", "cb-hired-gun-1", "coruscant")
    assert strength(m, "ann", "cbf-senate-guard-1") == 0
    m.apply("ann", "move coruscant")
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "collect")  # still blocks
    assert rule_of(e) == "SV-BLOCKED"
    m.apply("ann", "end")
    m.apply("bob", "move bilzen")
    m.apply("bob", "end")
    m.apply("ann", "move bora vio")
    m.apply("ann", "vanquish senate guard with hired gun")
    assert "cbf-senate-guard-1" in m.state.fate_discard["ann"]
    assert m.state.sector["ann"]["cb-hired-gun-1"]["loc"] == "coruscant"


def test_zero_ally_against_zero_hero_is_discarded_house_rule():
    m = new()
    m = put(m, "ann", "cbf-senate-guard-1", "coruscant")
    m = token(m, "ann", "cbf-senate-guard-1", -2)
    m = put(m, "ann", "cb-todo-360-1", "coruscant")
    m = token(m, "ann", "cb-todo-360-1", -1)
    m.apply("ann", "move bora vio")
    m.apply("ann", "vanquish senate guard with todo 360")
    assert "cb-todo-360-1" in m.state.discard["ann"]


def test_strength_tokens_and_attached_items_and_modifiers():
    m = new()
    m = put(m, "ann", "cb-hired-gun-1", "coruscant")
    m = put(m, "ann", "cb-twin-blasters-1", "coruscant", on="cb-hired-gun-1")
    assert strength(m, "ann", "cb-hired-gun-1") == 4
    m = put(m, "ann", "cb-embo-1", "coruscant")  # other Allies here +1
    assert strength(m, "ann", "cb-hired-gun-1") == 5
    assert strength(m, "ann", "cb-embo-1") == 3
    m = token(m, "ann", "cb-embo-1", 1)
    assert strength(m, "ann", "cb-embo-1") == 4


def test_mandalorian_example_plus_2_with_grogu_lost_on_move_regained_on_return():
    m = new(3)
    m = put(m, "cy", "bff-the-mandalorian-1", "corellia")
    m = put(m, "cy", "bff-grogu-1", "corellia")
    assert strength(m, "cy", "bff-the-mandalorian-1") == 6
    # Boba's Han Solo bounty: its Hunt moves a Hero
    m = put(m, "cy", "bf-jabba-the-hutt-1", "jabbas-palace")
    m = put(m, "cy", "bf-bounty-han-solo-1", "jabbas-palace", on="bf-jabba-the-hutt-1")
    m = credits(m, "cy", 4)
    m.apply("ann", "move coruscant")
    m.apply("ann", "end")
    m.apply("bob", "move bilzen")
    m.apply("bob", "end")
    m.apply("cy", "hunt bounty han solo")  # no action needed, even before moving
    m.apply("cy", "choose grogu")
    m.apply("cy", "choose executor-bridge")
    assert strength(m, "cy", "bff-the-mandalorian-1") == 4
    m.apply("cy", "move corellia")
    m.apply("cy", "end")
    m.apply("ann", "move bora vio")
    m.apply("ann", "end")
    m.apply("bob", "move garel city")
    m.apply("bob", "end")
    m.apply("cy", "hunt bounty han solo")
    m.apply("cy", "choose grogu")
    m.apply("cy", "choose corellia")
    assert strength(m, "cy", "bff-the-mandalorian-1") == 6


def test_only_heroes_and_engaged_hero_vehicles_can_be_vanquished():
    m = new()
    m = put(m, "ann", "cb-hired-gun-1", "coruscant")
    m = put(m, "ann", "cb-embo-1", "coruscant")
    m.apply("ann", "move bora vio")
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "vanquish embo with hired gun")
    assert rule_of(e) == "SV-VANQUISH-TARGET"
