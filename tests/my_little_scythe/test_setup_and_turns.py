"""Setting up, the map of Pomme, and the one-action turn."""

import pytest

from arbiter.core.errors import BadOption, ParseError, RuleViolation
from arbiter.core.match import Match
from arbiter.core.my_little_scythe import GAME
from arbiter.core.my_little_scythe.board import board_of
from arbiter.events import my_little_scythe as ev
from my_little_scythe.helpers import position

C = GAME.default_content()


def test_map_of_pomme_is_37_hexes_six_regions_six_portals_and_the_castle():
    b = board_of(C)
    assert len(b.ids) == 37
    assert sorted(len(v) for v in b.in_region.values()) == [5] * 6
    assert len(b.portals) == 6
    assert b.spaces["castle"]["q"] == 0 and b.spaces["castle"]["r"] == 0
    for p in b.portals:  # portals count as adjacent to each other
        assert set(b.portals) - {p} <= set(b.adjacent[p])
    fronts = [s for f in b.fronts.values() for s in f]
    assert len(fronts) == 18 and len(set(fronts)) == 18  # six camps, three spaces in front of each
    assert "castle" not in fronts and not set(fronts) & set(b.portals)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_setup_for_two_to_six_players(n):
    seats = [f"p{i}" for i in range(n)]
    m = Match.new(GAME, seed=7, seats=seats)
    s = m.state
    camps = C["camps_by_players"][str(n)]
    b = board_of(C)
    for seat, camp in zip(seats, camps):
        p = s.players[seat]
        assert p.camp == camp and p.seekers == ("base", "base")
        assert p.friendship == 3 and p.pies == 3 and len(p.spells) == 1
        assert p.personality.startswith("personality-") and not p.personality_revealed
        for space in b.fronts[camp]:  # the setup tile fills the spaces in front of active camps
            assert s.board.get(space)
    for camp in set(b.fronts) - set(camps):  # inactive camps get nothing
        for space in b.fronts[camp]:
            assert not s.board.get(space)
    assert sum(len(x) for x in s.board.values()) == 3 * n
    assert len(s.quest_deck) == 12 and len(s.spell_deck) == 30 - n
    assert len(s.piles["move"]) == 8 and len(s.piles["make"]) == 8
    assert len({p.personality for p in s.players.values()}) == n
    assert m.to_act().seats == (s.order[0],)


@pytest.mark.parametrize("n", [1, 7])
def test_player_count_outside_two_to_six_is_refused(n):
    with pytest.raises(BadOption):
        Match.new(GAME, seed=1, seats=[f"p{i}" for i in range(n)])


def test_first_player_is_random():
    firsts = {Match.new(GAME, seed=s, seats=["ann", "bob", "cy"]).state.order[0] for s in range(12)}
    assert len(firsts) > 1


def test_worked_example_bake_then_any_other_action_next_turn():
    """"On my first turn, I'll give away 2 apples and gain 2 pies by using one of the Make
    actions. And on my next turn, I can choose any action" (but not the exact same one)."""
    m = position(seekers={"ann": ("T3", "base"), "bob": ("S3", "base")}, resources={"T3": {"apple": 4, "gem": 1}})
    m.apply("ann", "bake")
    assert m.state.players["ann"].pies == 5 and m.state.board["T3"] == {"apple": 2, "gem": 1}
    m.apply("bob", "seek-gems")
    while m.state.seek:
        m.apply("bob", m.legal_texts("bob")[0])
    assert m.to_act().seats == ("ann",)
    legal = m.legal_texts("ann")
    assert "bake" not in legal
    assert {"move", "seek-apples", "seek-gems"} <= set(legal)
    with pytest.raises(RuleViolation) as e:
        m.decide("ann", "bake")
    assert e.value.rule_id == "MS-SAME-ACTION"
    m.apply("ann", "power-up move")  # same section, different action
    assert m.state.look


def test_choosing_the_action_used_last_turn_is_refused():
    m = position(last_action={"ann": "move"})
    with pytest.raises(RuleViolation) as e:
        m.decide("ann", "move")
    assert e.value.rule_id == "MS-SAME-ACTION"
    assert "move" not in m.legal_texts("ann")


def test_returning_to_base_camp_removes_the_action_token():
    """A delivery sends the Seekers home: rejuvenate, and the action token leaves the mat."""
    m = position(seekers={"ann": ("T1", "base")}, resources={"T1": {"apple": 4}})
    m.apply("ann", "move")
    m.apply("ann", "carry 1 castle 4 apples")
    m.apply("ann", "rejuvenate pies")
    assert m.state.players["ann"].last_action is None
    m.apply("ann", "stay 2")
    m.apply("bob", "seek-apples")
    while m.state.seek:
        m.apply("bob", m.legal_texts("bob")[0])
    assert "move" in m.legal_texts("ann")  # Move again: the token was removed


def test_make_and_craft_name_the_same_section():
    m = position(seekers={"ann": ("T3", "base")}, resources={"T3": {"apple": 2}},
                 options={"section_name": "craft"})
    assert GAME.parse(m.state, "ann", "craft bake") == GAME.parse(m.state, "ann", "make bake")
    m.apply("ann", "craft bake")
    assert m.state.players["ann"].pies == 5


def test_malformed_commands_are_parse_errors():
    m = position()
    for text in ("fly 1 T3", "go 3 T3", "go 1 Z9", "dial x", "keep pu-move-99", "trophy best",
                 "power-up sideways", "quest x", "carry 1 T3 2 pears", "carry 1 T3 two apples", "trophy",
                 "trophy none reveal", "leave"):
        # (a third quest option, a dial of -1, a trophy named twice are forms the rulebook
        # forbids: refused with their rule, test_rule_positions.py)
        with pytest.raises(ParseError) as e:
            m.decide("ann", text)
        assert e.value.hint, text  # a typo always gets a hint


def test_only_one_action_a_turn():
    m = position(seekers={"ann": ("T3", "base")}, resources={"T3": {"apple": 4}})
    m.apply("ann", "move")
    with pytest.raises(RuleViolation) as e:
        m.decide("ann", "bake")
    assert e.value.rule_id == "MS-MOVE-NOT-NOW"
    assert all(t.startswith(("go", "carry", "stay")) for t in m.legal_texts("ann"))


def test_regions_are_contiguous_and_base_camps_are_not_spaces():
    b = board_of(C)
    for region, spaces in b.in_region.items():
        seen, todo = {spaces[0]}, [spaces[0]]
        while todo:
            for y in b.adjacent[todo.pop()]:
                if y in spaces and y not in seen:
                    seen.add(y)
                    todo.append(y)
        assert seen == set(spaces), region
    assert "base" not in b.ids
    m = position(seekers={"ann": ("T3", "base")})
    m.apply("ann", "move")
    with pytest.raises(ParseError):
        m.decide("ann", "go 1 base")
