"""The rulebook's remaining worked examples and statements, one test each."""

import pytest

from arbiter.core.errors import RuleViolation
from arbiter.core.match import Match
from arbiter.core.villainous import GAME
from arbiter.events import villainous as ev
from villainous.helpers import (ambition, content_with, credits, fold, give, new, put, rule_of,
                                      strength, token)


def test_cad_banes_sector_example_four_locations_plus_deep_space():
    c = GAME.default_content()["villains"]["cad-bane"]
    assert [l["name"] for l in c["locations"]] == ["Coruscant", "Black Stall Station", "The Box", "Bora Vio"]
    assert c["objective"]["count"] == 5
    ss = GAME.default_content()["villains"]["seventh-sister"]
    assert [l["name"] for l in ss["locations"]] == ["Inquisitorius Fortress", "Bilzen", "Garel City", "Malachor"]
    bf = GAME.default_content()["villains"]["boba-fett"]
    assert [l["name"] for l in bf["locations"]] == ["Corellia", "Executor Bridge", "Cloud City Dining Room", "Jabba's Palace"]


def test_sectors_option_records_the_three_sector_correction():
    m = new()
    assert m.created.options["sectors"] == 3
    assert GAME.rules.get("SV-HOUSE-SECTORS").source == "house"


def test_ambition_ability_example_pay_1_ambition_with_the_ambition_action():
    m = new()
    m = put(m, "ann", "cb-moralo-eval-1", "coruscant")
    m = put(m, "ann", "cbf-clone-trooper-1", "the-box")
    m.apply("ann", "move black stall station")  # Vanquish | Play | Ambition | Move
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "activate moralo eval")  # not a Credits-activated ability
    assert rule_of(e) == "SV-ACTIVATE"
    m.apply("ann", "activate-ambition moralo eval")
    assert m.state.ambition["ann"] == 0
    assert m.state.sector["ann"]["cbf-clone-trooper-1"]["targets"] == 1
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "activate-ambition moralo eval")  # one Ambition symbol, used
    assert rule_of(e) == "SV-ACTION-ONCE"


def test_activated_ability_example_pay_1_credit():
    m = new(2, villains="boba-fett,cad-bane")
    m = put(m, "ann", "bf-ig-88-1", "corellia")
    m = credits(m, "ann", 1)
    m.apply("ann", "move cloud city dining room")  # Play | Credits 1 | Activate | Vanquish
    m.apply("ann", "activate ig-88")
    assert m.state.credits["ann"] == 0
    assert strength(m, "ann", "bf-ig-88-1") == 4


def test_activation_without_the_credits_is_refused():
    m = new(2, villains="boba-fett,cad-bane")
    m = put(m, "ann", "bf-ig-88-1", "corellia")
    m.apply("ann", "move cloud city dining room")
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "activate ig-88")
    assert rule_of(e) == "SV-COST"


# SV-HEROES-SHARE-LOCATION / SV-HOUSE-COVER: the top two symbols stay covered while any Hero is there.
def test_several_heroes_at_one_location_keep_covering_until_all_are_gone():
    m = new()
    m = put(m, "ann", "cbf-clone-trooper-1", "coruscant")
    m = put(m, "ann", "cbf-clone-trooper-2", "coruscant")
    m = put(m, "ann", "cb-hired-gun-1", "coruscant")
    m = put(m, "ann", "cb-hired-gun-2", "coruscant")
    m.apply("ann", "move bora vio")
    m.apply("ann", "vanquish cbf-clone-trooper-1 with cb-hired-gun-1")
    m.apply("ann", "end")
    m.apply("bob", "move bilzen")
    m.apply("bob", "end")
    m.apply("ann", "move coruscant")
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "collect")  # the other Hero takes its place
    assert rule_of(e) == "SV-BLOCKED"


def test_defeat_lets_the_player_choose_among_heroes():
    m = new()
    m = give(m, "ann", "cb-ambush-1")
    m = credits(m, "ann", 2)
    m = put(m, "ann", "cbf-clone-trooper-1", "coruscant")
    m = put(m, "ann", "cbf-ahsoka-tano-1", "coruscant")
    m = put(m, "ann", "cbf-anakin-skywalker-1", "coruscant")  # 4: too strong
    m = put(m, "ann", "cb-hired-gun-1", "coruscant")
    m.apply("ann", "move bora vio")
    m.apply("ann", "play ambush")
    assert m.state.pending[-1]["options"] == ["cbf-clone-trooper-1", "cbf-ahsoka-tano-1"]
    m.apply("ann", "choose ahsoka")
    assert "cbf-ahsoka-tano-1" in m.state.fate_discard["ann"]
    assert "cb-ambush-1" in m.state.discard["ann"]


def test_moving_a_card_does_not_trigger_its_play_ability():
    m = new()
    m = put(m, "ann", "cb-aurra-sing-1", "coruscant")
    m.apply("ann", "move bora vio")
    m.apply("ann", "move aurra sing to the box")
    assert m.state.ambition["ann"] == 1


def test_a_card_that_lets_you_play_fate_against_yourself():
    c = content_with({"cb-stolen-credits": {"abilities": [{"when": "play", "effects": [
        {"do": "fate_self"}, {"do": "gain", "credits": 5}]}]}})
    m = new(content=c)
    m = give(m, "ann", "cb-stolen-credits-1")
    m.apply("ann", "move coruscant")
    m.apply("ann", "play stolen credits")
    f = m.state.fate
    assert f["by"] == "ann" and f["target"] == "ann" and len(f["cards"]) == 2
    texts = m.legal_texts("ann")
    assert texts and all(t.startswith("fate-play") for t in texts)
    m.apply("ann", texts[0])
    assert m.state.fate is None


def test_pay_inside_an_ability_makes_it_unplayable_without_the_tokens():
    c = content_with({"cb-stolen-credits": {"abilities": [{"when": "play", "effects": [
        {"do": "pay", "ambition": 3}, {"do": "gain", "credits": 5}]}]}})
    m = new(content=c)
    m = give(m, "ann", "cb-stolen-credits-1")
    m.apply("ann", "move coruscant")
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "play stolen credits")
    assert rule_of(e) == "SV-CANNOT-FOLLOW"
    m = ambition(m, "ann", 3)
    m.apply("ann", "play stolen credits")
    assert m.state.credits["ann"] == 5 and m.state.ambition["ann"] == 0


def test_effect_card_is_discarded_after_use_and_fate_effect_without_effect_still_discarded():
    m = new()
    m = give(m, "ann", "cb-stolen-credits-1")
    m.apply("ann", "move coruscant")
    m.apply("ann", "play stolen credits")
    assert m.state.credits["ann"] == 3 and "cb-stolen-credits-1" in m.state.discard["ann"]


def test_undo_takes_back_a_discard_but_not_the_end_that_drew_cards():
    """A seat may take back its own discard (the card was its own to show); the end of its
    turn drew cards nobody had seen, so it stands (ARB-UNDO-HIDDEN)."""
    m = new()
    m.apply("ann", "move coruscant")
    hand = list(m.state.hand["ann"])
    m.apply("ann", f"discard {hand[0]}")
    m.apply("ann", "undo")
    assert list(m.state.hand["ann"]) == hand
    m.apply("ann", f"discard {hand[0]}")
    m.apply("ann", "end")
    drawn = list(m.state.hand["ann"])
    with pytest.raises(RuleViolation, match="showed ann something") as refused:
        m.apply("ann", "undo")
    assert refused.value.rule_id == "ARB-UNDO-HIDDEN"
    assert list(m.state.hand["ann"]) == drawn


def test_a_game_of_an_older_engine_keeps_the_undo_it_was_played_under():
    """Before engine 0.2.0 an undo could take back a draw, and the cards came again: such a
    game's log still re-decides as it was played."""
    import msgspec

    m = new()
    first, rest = m.items[0], m.items[1:]
    older = Match(GAME, [(first[0], first[1], msgspec.structs.replace(first[2], engine_version="0.1.0")), *rest])
    older.apply("ann", "move coruscant")
    hand = list(older.state.hand["ann"])
    older.apply("ann", f"discard {hand[0]}")
    older.apply("ann", "end")
    drawn = list(older.state.hand["ann"])
    older.apply("ann", "undo")
    assert older.state.hand["ann"] == hand[1:]
    older.apply("ann", "end")
    assert older.state.hand["ann"] == drawn


def test_every_rule_id_the_code_cites_is_in_the_rule_index():
    import re
    from pathlib import Path
    src = "".join(p.read_text() for p in (Path(__file__).parents[2] / "core" / "villainous").glob("*.py"))
    cited = set(re.findall(r'"(SV-[A-Z0-9-]+)"', src))
    assert cited and all(r in GAME.rules for r in cited), cited - set(GAME.rules.rules)
    for o in GAME.options:
        assert o.rule in GAME.rules and GAME.rules.get(o.rule).source == ("house" if o.house else "rulebook")


def test_hero_vehicle_with_two_free_ally_vehicles_must_name_one():
    from villainous.test_fate_vehicles import stack_fate
    m = new()
    m = put(m, "bob", "ss-inquisitor-tie-1", "deep-space")
    m = put(m, "bob", "ss-inquisitor-tie-2", "deep-space")
    m = stack_fate(m, "bob", "ssf-the-ghost-1", "ssf-chopper-1")
    m.apply("ann", "move coruscant")
    m.apply("ann", "fate bob")
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "fate-play the ghost")
    assert rule_of(e) == "SV-HERO-VEHICLE-ENGAGE"
    m.apply("ann", "fate-play the ghost engage ss-inquisitor-tie-2")
    assert m.state.sector["bob"]["ss-inquisitor-tie-2"]["engaged"] == "ssf-the-ghost-1"
    assert m.state.sector["bob"]["ss-inquisitor-tie-1"]["engaged"] is None
