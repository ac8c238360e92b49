"""Quests: drawn after movement and fights, two options or No Thanks, payments, the reshuffle."""

import pytest

from arbiter.core.errors import RuleViolation
from arbiter.events import my_little_scythe as ev
from my_little_scythe.helpers import events_of, position, rule_of


def at_quest(card, **kw):
    kw.setdefault("seekers", {"ann": ("T3", "T5"), "bob": ("T2", "base")})
    res = kw.pop("resources", {})
    res = {**res, "T4": {**res.get("T4", {}), "quest": 1}}
    m = position(resources=res, quest_top=card, **kw)
    m.apply("ann", "move")
    m.apply("ann", "go 1 T4")
    m.apply("ann", "stay 2")
    assert m.legal_texts("ann") == ["explore T4", "leave quests"]  # "I can grab the token"
    m.apply("ann", "explore T4")
    return m


def test_quest_is_drawn_after_moving_and_the_token_taken():
    m = at_quest("quest-01")
    assert m.state.quest_card == "quest-01"
    assert "quest" not in m.state.board.get("T4", {})
    assert m.to_act().prompt.startswith("quest quest-01")


def test_help_with_apples_pays_another_player_onto_their_seekers_space():
    m = at_quest("quest-01", resources={"T4": {"apple": 1}, "T5": {"apple": 2}})
    assert "quest 1 to T2" in m.legal_texts("ann")
    assert rule_of(m, "ann", "quest 1 to T3") == "MS-QUEST-PAY-OTHER"
    m.apply("ann", "quest 1 from T5 to T2")
    s = m.state
    assert s.board["T2"] == {"apple": 2} and s.board["T4"] == {"apple": 1}
    assert s.players["ann"].friendship == 5 and s.players["ann"].quests == ("quest-01",)


def test_quest_option_that_cannot_be_paid_is_refused():
    m = at_quest("quest-01", resources={"T4": {"apple": 1}})
    assert rule_of(m, "ann", "quest 1 to T2") == "MS-QUEST-CANNOT-PAY"
    assert not any(t.startswith("quest 1") for t in m.legal_texts("ann"))


def test_quest_rewards_go_on_a_space_with_your_seeker_and_friendship_floors_at_zero():
    m = at_quest("quest-01", tracks={"ann": {"friendship": 0}})
    assert rule_of(m, "ann", "quest 2 on T2") == "MS-QUEST-PLACE-SEEKER"
    m.apply("ann", "quest 2 on T5")
    assert m.state.board["T5"] == {"apple": 2}
    assert m.state.players["ann"].friendship == 0


def test_no_thanks_sends_the_quest_to_the_bottom_unresolved():
    m = at_quest("quest-03")
    evs = m.apply("ann", "no thanks")
    assert events_of(evs, ev.QuestDeclined)
    assert m.state.quest_deck[-1] == "quest-03" and m.state.players["ann"].quests == ()


def test_both_seekers_on_quests_the_player_chooses_which_first():
    m = position(seekers={"ann": ("T3", "T5")}, resources={"T4": {"quest": 1}, "T2": {"quest": 1}})
    m.apply("ann", "move")
    m.apply("ann", "go 1 T4")
    m.apply("ann", "go 2 T2")
    assert sorted(m.legal_texts("ann")) == ["explore T2", "explore T4", "leave quests"]
    m.apply("ann", "explore T2")
    assert m.state.quest_card and m.state.quest_spaces == ("T4",)
    m.apply("ann", "no thanks")
    assert m.legal_texts("ann") == ["explore T4", "leave quests"]
    m.apply("ann", "explore T4")
    assert m.state.quest_card


def test_the_quest_token_may_be_left_on_the_map():
    m = position(seekers={"ann": ("T3", "T5")}, resources={"T4": {"quest": 1}})
    m.apply("ann", "move")
    m.apply("ann", "go 1 T4")
    m.apply("ann", "stay 2")
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "bake")
    assert e.value.rule_id == "MS-QUEST-NOT-NOW" and "leave quests" in str(e.value)
    evs = m.apply("ann", "leave quests")
    assert events_of(evs, ev.QuestsLeft) and m.state.board["T4"]["quest"] == 1
    assert m.state.quest_card is None and m.state.active == "bob"


def test_quest_draw_automatic_option_draws_a_single_quest_at_once():
    m = position(seekers={"ann": ("T3", "T5")}, resources={"T4": {"quest": 1}},
                 options={"quest_draw": "automatic"})
    m.apply("ann", "move")
    m.apply("ann", "go 1 T4")
    m.apply("ann", "stay 2")
    assert m.state.quest_card


def test_quests_come_after_the_pie_fight():
    m = position(seekers={"ann": ("T3", "base"), "bob": ("T4", "base")}, resources={"T4": {"quest": 1}})
    m.apply("ann", "move")
    m.apply("ann", "go 1 T4")
    m.apply("ann", "stay 2")
    assert not m.state.quest_card  # the fight first
    m.apply("ann", "dial 1")
    m.apply("bob", "dial 0")
    m.apply("bob", "rejuvenate pies")
    assert m.legal_texts("ann") == ["explore T4", "leave quests"]


def test_empty_quest_deck_is_rebuilt_from_the_two_quests_trophy_holders():
    cards = [f"quest-{i:02d}" for i in range(1, 13)]
    m = position(seekers={"ann": ("T3", "base"), "bob": ("S3", "base")}, resources={"T4": {"quest": 1}},
                 quests_done={"bob": tuple(cards[:2]), "ann": tuple(cards[2:4])}, trophies={"bob": ("quests-2",)})
    # empty the deck: draw and complete the rest as ann's cards (ann lacks the trophy)
    from arbiter.projections.fold import SETUP
    from arbiter.core.match import Match
    from arbiter.core.my_little_scythe import GAME
    rest = list(m.state.quest_deck)
    extra = []
    for q in rest:
        extra += [ev.QuestDrawn(seat="ann", card=q, space="T1"), ev.QuestResolved(seat="ann", card=q, option=2)]
    extra.append(ev.TurnStarted(seat="ann", turn=1))
    m = Match(GAME, list(m.items) + [(m.seq + i + 1, SETUP, e) for i, e in enumerate(extra)])
    assert not m.state.quest_deck
    m.apply("ann", "move")
    m.apply("ann", "go 1 T4")
    m.apply("ann", "stay 2")
    m.apply("ann", "explore T4")
    rebuilt = [e for _s, _c, e in m.items if isinstance(e, ev.QuestDeckRebuilt)][0]
    assert rebuilt.taken_from == ("bob",) and set(rebuilt.cards) == set(cards[:2])
    assert m.state.players["bob"].quests == ()
    assert m.state.quest_card in cards[:2]


def test_the_board_writes_a_quests_costs_in_the_plural_as_the_log_does():
    """A drawn quest's options read "pay 2 gems; gain 2 spells", counts as the log writes
    them ("2 gems", "1 pie"); friendship stays a track ("gain 1 friendship", "Quests")."""
    from arbiter.cli.render.my_little_scythe import render
    m = at_quest("quest-10")
    line = next(x for x in render(m.view("ann"), "ann").split("\n") if x.startswith("quest quest-10"))
    assert "1) pay 2 gems; gain 2 spells  2) gain 1 friendship  or No Thanks" in line
    m = at_quest("quest-07")
    line = next(x for x in render(m.view("ann"), "ann").split("\n") if x.startswith("quest quest-07"))
    assert "1) lose 2 pies; gain 2 friendship  2) gain 1 pie  or No Thanks" in line
