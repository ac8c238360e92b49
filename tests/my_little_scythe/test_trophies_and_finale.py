"""Trophies (one a turn, mandatory, low friendship, personalities), the grand finale, ties."""

import pytest

from arbiter.core.errors import RuleViolation
from arbiter.events import my_little_scythe as ev
from my_little_scythe.helpers import ALL, events_of, pass_turn, position, rule_of


def test_qualifying_for_one_trophy_places_it_at_once():
    m = position(tracks={"ann": {"pies": 8}})
    pass_turn(m, "ann")
    assert m.state.players["ann"].trophies == ("pies-8",)
    assert m.to_act().seats == ("bob",)


def test_two_trophies_qualified_choose_one_and_the_other_waits():
    m = position(tracks={"ann": {"pies": 8}}, spells={"ann": ("spell-01", "spell-02", "spell-03")})
    pass_turn(m, "ann")
    assert set(m.legal_texts("ann")) == {"trophy spells-3", "trophy pies-8"}
    assert rule_of(m, "ann", "trophy friendship-8") == "MS-TROPHY-NOT-QUALIFIED"
    m.apply("ann", "trophy spells-3")
    assert m.state.players["ann"].trophies == ("spells-3",)
    assert m.to_act().seats == ("bob",)  # one trophy a turn: pies-8 waits
    with pytest.raises(RuleViolation):
        m.decide("ann", "trophy pies-8")
    pass_turn(m, "bob")
    pass_turn(m, "ann")
    assert m.state.players["ann"].trophies == ("spells-3", "pies-8")


def test_deferred_trophy_is_lost_if_no_longer_qualified():
    m = position(tracks={"ann": {"pies": 8}}, spells={"ann": ("spell-01", "spell-02", "spell-03")},
                 seekers={"bob": ("T4", "base"), "ann": ("T3", "base")})
    pass_turn(m, "ann")
    m.apply("ann", "trophy spells-3")
    m.apply("bob", "move")
    m.apply("bob", "go 1 T3")  # bob attacks; ann throws 7 pies
    m.apply("bob", "stay 2")
    m.apply("ann", "dial 7")
    m.apply("bob", "dial 0")
    m.apply("bob", "rejuvenate pies")
    pass_turn(m, "ann")
    assert "pies-8" not in m.state.players["ann"].trophies


def test_trophy_claimed_at_friendship_two_is_refused():
    m = position(tracks={"ann": {"pies": 8, "friendship": 2}})
    assert rule_of(m, "ann", "trophy pies-8") == "MS-TROPHY-LOW-FRIENDSHIP"
    pass_turn(m, "ann")
    assert m.state.players["ann"].trophies == ()
    # friendship restored: trophies again
    m2 = position(tracks={"ann": {"pies": 8, "friendship": 3}})
    pass_turn(m2, "ann")
    assert m2.state.players["ann"].trophies == ("pies-8",)


def test_friendship_eight_trophy_kept_after_friendship_drops():
    m = position(tracks={"ann": {"friendship": 8}}, seekers={"ann": ("T3", "base"), "bob": ("M3", "base")})
    pass_turn(m, "ann")
    assert m.state.players["ann"].trophies == ("friendship-8",)
    pass_turn(m, "bob")
    m.apply("ann", "seek-apples")
    assert "friendship-8" in m.state.players["ann"].trophies


def test_power_ups_trophy_needs_a_move_and_a_make_tile():
    m = position(tiles={"ann": {"move": "pu-move-01"}})
    pass_turn(m, "ann")
    assert m.state.players["ann"].trophies == ()
    m = position(tiles={"ann": {"move": "pu-move-01", "make": "pu-make-01"}})
    pass_turn(m, "ann")
    assert m.state.players["ann"].trophies == ("power-ups-2",)


def test_quests_trophy_after_two_quests():
    m = position(quests_done={"ann": ("quest-01", "quest-02")})
    pass_turn(m, "ann")
    assert m.state.players["ann"].trophies == ("quests-2",)


def test_personality_card_lowers_a_requirement_and_is_revealed():
    m = position(tracks={"ann": {"pies": 7}}, personality={"ann": "personality-sweet"})
    assert m.view("bob").players["ann"].personality == "?"
    pass_turn(m, "ann")
    # the player "can reveal" the card: a choice, not done for her
    assert m.legal_texts("ann") == ["trophy pies-8 reveal", "trophy none"]
    assert m.view("bob").trophy_choices == ()
    bob_log = [e for _s, _c, e in m.log("bob")]
    assert all(e.choices == () for e in events_of(bob_log, ev.TrophyChoiceOffered))
    m.apply("ann", "trophy pies-8 reveal")
    evs = [e for _s, _c, e in m.items]
    assert events_of(evs, ev.PersonalityRevealed)
    earned = events_of(evs, ev.TrophyEarned)[-1]
    assert earned.trophy == "pies-8" and earned.personality == "personality-sweet"
    assert m.view("bob").players["ann"].personality == "personality-sweet"


def test_grand_finale_final_turns_earn_any_number_of_trophies_then_crown():
    m = position(("ann", "bob", "cy"), trophies={"ann": ALL[:3]}, tracks={"ann": {"pies": 8},
                 "bob": {"pies": 8}}, spells={"bob": ("spell-01", "spell-02", "spell-03")})
    pass_turn(m, "ann")  # ann earns her 4th trophy: at the end of the turn, the grand finale
    assert len(m.state.players["ann"].trophies) == 4
    assert m.state.finale and m.state.finale_left == ("cy",) and m.state.active == "bob"
    pass_turn(m, "bob")  # a final turn: both trophies at once
    assert set(m.state.players["bob"].trophies) == {"pies-8", "spells-3"}
    pass_turn(m, "cy")
    assert m.outcome() is not None and m.outcome().winners == ("ann",)
    assert m.to_act().kind == "over"


def test_second_trophy_in_one_turn_before_and_during_the_grand_finale():
    before = position(tracks={"bob": {"pies": 8}}, spells={"bob": ("spell-01", "spell-02", "spell-03")},
                      first="bob")
    pass_turn(before, "bob")
    assert before.to_act().prompt.startswith("choose the trophy")
    during = position(trophies={"ann": ALL[:4]}, tracks={"bob": {"pies": 8}},
                      spells={"bob": ("spell-01", "spell-02", "spell-03")}, first="ann")
    pass_turn(during, "ann")
    assert during.state.finale
    pass_turn(during, "bob")
    assert set(during.state.players["bob"].trophies) == {"pies-8", "spells-3"}


def test_tie_on_four_trophies_goes_to_more_friendship():
    m = position(trophies={"ann": ALL[:3], "bob": ALL[:3]},
                 tracks={"ann": {"pies": 8, "friendship": 4}, "bob": {"pies": 8, "friendship": 6}})
    pass_turn(m, "ann")
    assert m.state.finale
    pass_turn(m, "bob")
    o = m.outcome()
    assert o is not None and o.winners == ("bob",) and "friendship" in o.reason


def test_round_limit_ends_a_stalled_game():
    m = position(options={"round_limit": 1})
    pass_turn(m, "ann")
    pass_turn(m, "bob")
    assert m.outcome() is not None and "round limit" in m.outcome().reason


def test_pie_fight_victory_does_not_count_against_the_one_trophy_a_turn():
    m = position(seekers={"ann": ("T3", "base"), "bob": ("T4", "base")},
                 tracks={"ann": {"pies": 10, "friendship": 6}})
    m.apply("ann", "move")
    m.apply("ann", "go 1 T4")
    m.apply("ann", "stay 2")
    m.apply("ann", "dial 1")
    m.apply("bob", "dial 0")
    m.apply("bob", "rejuvenate pies")
    assert m.state.players["ann"].trophies == ("pie-fight", "pies-8")


def test_spells_still_usable_after_the_three_spells_trophy():
    m = position(spells={"ann": ("spell-01", "spell-02", "spell-03")},
                 seekers={"ann": ("T3", "base"), "bob": ("T4", "base")}, tracks={"ann": {"friendship": 6}})
    pass_turn(m, "ann")
    assert m.state.players["ann"].trophies == ("spells-3",)
    m.apply("bob", "seek-gems")
    while m.state.seek:
        m.apply("bob", m.legal_texts("bob")[0])
    m.apply("ann", "seek-apples")
    while m.state.seek:
        m.apply("ann", m.legal_texts("ann")[0])
    m.apply("bob", "move")
    m.apply("bob", "go 1 T3")
    m.apply("bob", "stay 2")
    m.apply("ann", "dial 0 with spell-01 spell-02 spell-03")
    m.apply("bob", "dial 0")
    assert m.state.players["ann"].spells == () and "spells-3" in m.state.players["ann"].trophies


def test_four_trophies_at_most():
    m = position(trophies={"ann": ALL[:4]}, tracks={"ann": {"pies": 8}}, first="bob")
    pass_turn(m, "bob")
    assert m.state.finale and len(m.state.players["ann"].trophies) == 4


def test_personality_card_may_be_kept_secret_and_the_trophy_passed():
    m = position(tracks={"ann": {"pies": 7}}, personality={"ann": "personality-sweet"})
    pass_turn(m, "ann")
    m.apply("ann", "trophy none")
    assert m.state.players["ann"].trophies == () and m.to_act().seats == ("bob",)
    assert m.view("bob").players["ann"].personality == "?"
    bob_log = [e for _s, _c, e in m.log("bob")]
    assert [e.trophies for e in events_of(bob_log, ev.TrophyDeclined)] == [()]
    assert all(e.choices == () for e in events_of(bob_log, ev.TrophyChoiceOffered))


def test_passing_is_refused_when_a_trophy_is_met_without_the_card():
    m = position(tracks={"ann": {"pies": 8}}, spells={"ann": ("spell-01", "spell-02")},
                 personality={"ann": "personality-studious"})
    pass_turn(m, "ann")
    assert sorted(m.legal_texts("ann")) == ["trophy pies-8", "trophy spells-3 reveal"]
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "trophy none")
    assert e.value.rule_id == "MS-TROPHY-MANDATORY"
    m.apply("ann", "trophy spells-3 reveal")
    assert m.state.players["ann"].trophies == ("spells-3",)


def test_grand_finale_final_turn_takes_the_card_trophy_too_or_passes_it():
    m = position(trophies={"ann": ALL[:4]}, tracks={"bob": {"pies": 8}},
                 spells={"bob": ("spell-01", "spell-02")}, personality={"bob": "personality-studious"},
                 first="ann")
    pass_turn(m, "ann")
    pass_turn(m, "bob")
    assert m.state.players["bob"].trophies == ("pies-8",)  # earned at once; the card trophy is bob's call
    assert m.legal_texts("bob") == ["trophy spells-3 reveal", "trophy none"]
    m.apply("bob", "trophy spells-3 reveal")
    assert set(m.state.players["bob"].trophies) == {"pies-8", "spells-3"}
    assert m.outcome() is not None


def test_final_turn_with_more_trophies_than_room_names_several_at_once():
    m = position(trophies={"ann": ALL[:4], "bob": ("quests-2", "power-ups-2")},
                 tracks={"bob": {"pies": 8, "friendship": 8}},
                 spells={"bob": ("spell-01", "spell-02", "spell-03")}, first="ann")
    pass_turn(m, "ann")
    pass_turn(m, "bob")  # a final turn: three trophies met, room for two
    assert sorted(m.legal_texts("bob")) == ["trophy friendship-8", "trophy pies-8", "trophy spells-3"]
    with pytest.raises(RuleViolation) as e:
        m.decide("bob", "trophy pies-8 spells-3 friendship-8")
    assert e.value.rule_id == "MS-TROPHY-FOUR"
    m.apply("bob", "trophy pies-8 spells-3")  # no one-a-turn limit on a final turn
    assert m.state.players["bob"].trophies[-2:] == ("pies-8", "spells-3")
    assert m.outcome() is not None


def test_naming_two_trophies_before_the_finale_cites_one_a_turn():
    m = position(tracks={"ann": {"pies": 8}}, spells={"ann": ("spell-01", "spell-02", "spell-03")})
    pass_turn(m, "ann")
    with pytest.raises(RuleViolation) as e:
        m.decide("ann", "trophy pies-8 spells-3")
    assert e.value.rule_id == "MS-TROPHY-ONE-A-TURN"
