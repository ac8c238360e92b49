"""Moving Seekers, portals, Castle Everfree and deliveries."""

import pytest

from arbiter.core.errors import RuleViolation
from arbiter.events import my_little_scythe as ev
from my_little_scythe.helpers import events_of, position, rule_of


def test_unladen_seeker_moves_up_to_two_spaces():
    m = position(seekers={"ann": ("T3", "T5")})
    m.apply("ann", "move")
    assert rule_of(m, "ann", "go 1 T4 T2 M1") == "MS-MOVE-RANGE"
    assert rule_of(m, "ann", "go 1 T2") == "MS-MOVE-ADJACENT"
    m.apply("ann", "go 1 T4 T2")
    assert m.state.players["ann"].seekers[0] == "T2"


def test_seekers_leave_base_camp_onto_the_spaces_in_front():
    m = position()
    m.apply("ann", "move")
    assert rule_of(m, "ann", "go 1 M3") == "MS-MOVE-ADJACENT"
    m.apply("ann", "go 1 T3 P1")
    assert m.state.players["ann"].seekers[0] == "P1"


def test_portals_are_adjacent_to_each_other():
    m = position(seekers={"ann": ("P1", "base")})
    m.apply("ann", "move")
    m.apply("ann", "go 1 P4 F2")  # P1 -> P4 is one space
    assert m.state.players["ann"].seekers[0] == "F2"


def test_moving_seeker_stops_on_an_opponents_seeker():
    m = position(seekers={"ann": ("T3", "base"), "bob": ("T4", "base")})
    m.apply("ann", "move")
    assert rule_of(m, "ann", "go 1 T4 T2") == "MS-MOVE-STOP-OPPONENT"
    assert "go 1 T4 T2" not in m.legal_texts("ann")


def test_carrying_seeker_moves_one_space_and_takes_resources_along():
    """"I can move a Seeker up to 1 space while carrying any number of apples or gems"."""
    m = position(seekers={"ann": ("T3", "base")}, resources={"T3": {"apple": 2, "gem": 1}})
    m.apply("ann", "move")
    assert rule_of(m, "ann", "carry 1 T4 T2 2 apples") == "MS-MOVE-RANGE"
    assert rule_of(m, "ann", "carry 1 T4 3 apples") == "MS-CARRY-NOT-THERE"
    m.apply("ann", "carry 1 T4 2 apples")
    assert m.state.board["T4"] == {"apple": 2} and m.state.board["T3"] == {"gem": 1}


def test_abandoning_resources_to_move_two_spaces():
    """"carry your apples and move one space, or abandon them so you can move two"."""
    m = position(seekers={"ann": ("T3", "base")}, resources={"T3": {"apple": 2}})
    m.apply("ann", "move")
    m.apply("ann", "go 1 T4 T2")
    assert m.state.board == {"T3": {"apple": 2}}


def test_castle_everfree_is_entered_only_to_deliver():
    m = position(seekers={"ann": ("T1", "base")}, resources={"T1": {"apple": 1}})
    m.apply("ann", "move")
    assert rule_of(m, "ann", "go 1 castle") == "MS-CASTLE-DELIVERY-ONLY"
    assert rule_of(m, "ann", "carry 1 castle 1 apples") == "MS-DELIVERY-EXACT"


def test_delivery_of_four_apples_is_instant_teleports_home_and_earns_the_trophy():
    m = position(seekers={"ann": ("T1", "T5")}, resources={"T1": {"apple": 4}})
    supply = m.state.supply["apple"]
    m.apply("ann", "move")
    evs = m.apply("ann", "carry 1 castle 4 apples")
    # instant: delivered with the other Seeker still to move; resources leave the map
    assert events_of(evs, ev.DeliveryMade)[0].count == 4
    assert m.state.board.get("castle") is None and m.state.supply["apple"] == supply + 4
    assert m.state.players["ann"].seekers == ("base", "T5")
    assert m.to_act().prompt.startswith("rejuvenate")
    m.apply("ann", "rejuvenate spell")
    assert len(m.state.players["ann"].spells) == 2
    assert m.state.moving == (2,)
    m.apply("ann", "stay 2")
    assert "apple-delivery" in m.state.players["ann"].trophies


def test_delivery_split_between_two_seekers():
    """"if your Seekers coordinate their moves, they can split the delivery"."""
    m = position(seekers={"ann": ("T1", "P2")}, resources={"T1": {"gem": 2}, "P2": {"gem": 3}})
    m.apply("ann", "move")
    evs = m.apply("ann", "carry 1 castle 2 gems")
    assert events_of(evs, ev.DeliveryStarted) and not events_of(evs, ev.DeliveryMade)
    # the other Seeker must now finish the delivery
    assert m.legal_texts("ann") == ["carry 2 castle 2 gems", "carry 2 castle 3 gems"]
    assert rule_of(m, "ann", "stay 2") == "MS-DELIVERY-SPLIT"
    evs = m.apply("ann", "carry 2 castle 3 gems")
    made = events_of(evs, ev.DeliveryMade)[0]
    assert made.count == 4 and made.extras_left == {"P2": {"gem": 1}}
    assert m.state.board == {"P2": {"gem": 1}}  # the extra gem stayed on its space
    assert m.state.players["ann"].seekers == ("base", "base")
    m.apply("ann", "rejuvenate pies")
    assert "gem-delivery" in m.state.players["ann"].trophies


def test_five_gem_delivery_delivers_four_and_one_stays_behind():
    m = position(seekers={"ann": ("M1", "base")}, resources={"M1": {"gem": 5}})
    m.apply("ann", "move")
    evs = m.apply("ann", "carry 1 castle 5 gems")
    made = events_of(evs, ev.DeliveryMade)[0]
    assert made.count == 4 and made.extras_left == {"M1": {"gem": 1}}
    assert m.state.board == {"M1": {"gem": 1}}
    # the stored event decodes again (an audit re-reads every event)
    from arbiter.core.match import roundtrip
    from arbiter.core.my_little_scythe import GAME
    assert roundtrip(GAME.codec, made) == made


def test_five_gem_delivery_refused_under_the_exactly_four_reading():
    m = position(seekers={"ann": ("M1", "base")}, resources={"M1": {"gem": 5}},
                 options={"delivery_extras": "refuse"})
    m.apply("ann", "move")
    assert rule_of(m, "ann", "carry 1 castle 5 gems") == "MS-DELIVERY-EXACT"
    m.apply("ann", "carry 1 castle 4 gems")
    assert m.state.board == {"M1": {"gem": 1}}


def test_a_delivery_is_of_one_kind():
    m = position(seekers={"ann": ("M1", "base")}, resources={"M1": {"gem": 2, "apple": 2}})
    m.apply("ann", "move")
    assert rule_of(m, "ann", "carry 1 castle 2 apples 2 gems") == "MS-DELIVERY-ONE-KIND"


def test_delivery_through_a_portal():
    m = position(seekers={"ann": ("P4", "base")}, resources={"P4": {"apple": 4}})
    m.apply("ann", "move")
    m.apply("ann", "carry 1 castle 4 apples")
    assert m.state.players["ann"].seekers[0] == "base"


def test_second_delivery_of_the_same_kind_earns_no_second_trophy():
    m = position(seekers={"ann": ("T1", "base")}, resources={"T1": {"apple": 4}},
                 trophies={"ann": ("apple-delivery",)})
    m.apply("ann", "move")
    m.apply("ann", "carry 1 castle 4 apples")
    m.apply("ann", "rejuvenate pies")
    m.apply("ann", "stay 2")
    assert m.state.players["ann"].trophies == ("apple-delivery",)


def test_hardworking_personality_delivers_three_apples_and_is_revealed():
    m = position(seekers={"ann": ("T1", "base")}, resources={"T1": {"apple": 3}},
                 personality={"ann": "personality-hardworking"})
    m.apply("ann", "move")
    assert "carry 1 castle 3 apples reveal" in m.legal_texts("ann")
    with pytest.raises(RuleViolation) as e:  # the card is the player's to play: "can reveal"
        m.apply("ann", "carry 1 castle 3 apples")
    assert e.value.rule_id == "MS-DELIVERY-EXACT" and "reveal" in str(e.value)
    evs = m.apply("ann", "carry 1 castle 3 apples reveal")
    assert events_of(evs, ev.PersonalityRevealed)
    m.apply("ann", "rejuvenate pies")
    m.apply("ann", "stay 2")
    assert "apple-delivery" in m.state.players["ann"].trophies


def test_hardworking_personality_may_deliver_four_without_revealing():
    m = position(seekers={"ann": ("T1", "base")}, resources={"T1": {"apple": 4}},
                 personality={"ann": "personality-hardworking"})
    m.apply("ann", "move")
    legal = m.legal_texts("ann")
    assert "carry 1 castle 4 apples" in legal and "carry 1 castle 3 apples reveal" in legal
    evs = m.apply("ann", "carry 1 castle 4 apples")
    assert not events_of(evs, ev.PersonalityRevealed)
    assert events_of(evs, ev.DeliveryMade)[0].count == 4
    assert m.view("bob").players["ann"].personality == "?"


def test_a_card_that_lowers_no_delivery_cannot_be_revealed_for_one():
    m = position(seekers={"ann": ("T1", "base")}, resources={"T1": {"apple": 3}})
    m.apply("ann", "move")
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "carry 1 castle 3 apples reveal")
    assert e.value.rule_id == "MS-PERSONALITY"


def test_split_delivery_from_one_space_counts_what_the_first_seeker_took():
    """"they can split the delivery requirements and bring a total of 4 resources to Castle
    Everfree in a single turn": two Seekers on one space with 3 gems cannot make 4 between
    them, so the first carry is refused rather than leaving the second with nothing to bring."""
    m = position(seekers={"ann": ("P2", "P2")}, resources={"P2": {"gem": 3}})
    m.apply("ann", "move")
    assert rule_of(m, "ann", "carry 1 castle 2 gems") == "MS-DELIVERY-EXACT"
    assert not any(t.startswith("carry") and "castle" in t for t in m.legal_texts("ann"))
    m = position(seekers={"ann": ("P2", "P2")}, resources={"P2": {"gem": 4}})
    m.apply("ann", "move")
    m.apply("ann", "carry 1 castle 2 gems")
    m.apply("ann", "carry 2 castle 2 gems")
    assert m.state.board.get("P2") is None and m.state.players["ann"].seekers == ("base", "base")


def test_a_step_to_a_space_not_adjacent_cites_moving_my_seekers(tmp_path, monkeypatch):
    """"I can move a Seeker up to 2 spaces" ("Moving my Seekers"): an ordinary step that is not
    to an adjacent space is refused under the Move's own section, not "Portals"."""
    from typer.testing import CliRunner
    from arbiter.cli.app import app
    monkeypatch.setenv("ARBITER_DB", str(tmp_path / "ms.duckdb"))
    monkeypatch.setenv("ARBITER_HOME", str(tmp_path / "home"))
    run = CliRunner().invoke
    gid = run(app, ["new", "my-little-scythe", "--seed", "3", "-p", "ann,bob"]).output.split()[0]
    first = next(s for s in ("ann", "bob") if run(app, ["do", gid, "--as", s, "move"]).exit_code == 0)
    out = run(app, ["try", gid, "--as", first, "go 1 M3"])
    assert out.exit_code == 1
    assert '(MS-MOVE-ADJACENT, "Moving my Seekers")' in out.output
