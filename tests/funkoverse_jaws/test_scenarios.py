"""The Full Experience: point markers, Control, Flags, scoring at round end, 6 points, ties."""

import pytest

from arbiter.core.errors import RuleViolation
from arbiter.core.funkoverse_jaws import GAME
from arbiter.core.match import Match
from arbiter.events import funkoverse_jaws as E

from fjhelp import acting, events_of, finish_round, last, position, settle

PM = {"A": "a3", "B": "b8", "C": "c8", "D": "d8"}


def rid(m, text, seat=None):
    with pytest.raises(RuleViolation) as exc:
        m.apply(seat, text)
    return exc.value.rule_id


def test_scenarios_default_to_south_beach_with_four_point_markers():
    m = Match.new(GAME, seed=2, seats=["ann", "bob"], options={"mode": "control"})
    assert m.state.board.name == "South Beach"
    assert sorted(m.state.point_markers) == ["A", "B", "C", "D"]
    for mid in ("orca", "south-beach"):
        assert len(GAME.default_content()["maps"][mid]["point_markers"]) == 4


def test_point_marker_interact_scores_and_cools_on_the_4():
    m = acting({"quint": "a1", "swimmer": "b1", "shark": "h8", "tiger-shark": "g8"}, "quint", mode="control",
               point_markers=PM)
    assert rid(m, "interact A") == "FJ-POINT-MARKER"  # two squares away
    m.apply(None, "move a2")
    m.apply(None, "interact A")
    assert m.state.sides["light"].points == 1
    assert m.state.point_markers["A"] is None
    assert m.state.sides["light"].cooldown["point:A"] == 4
    m.apply(None, "no-hunt")
    for _ in range(3):
        finish_round(m)
        assert m.state.point_markers["A"] is None
    finish_round(m)
    assert m.state.point_markers["A"] == "a3"  # back on its setup square


def test_point_markers_need_sight():
    m = acting({"quint": "a2", "swimmer": "b1", "shark": "h8", "tiger-shark": "g8"}, "quint", mode="control",
               point_markers=PM, walls=[["a2", "a3"]])
    assert rid(m, "interact A") == "FJ-POINT-MARKER"


def test_control_markers_place_flip_and_score_most():
    m = acting({"quint": "e1", "swimmer": "h1", "shark": "f2", "tiger-shark": "g8"}, "quint", mode="control")
    assert rid(m, "interact mark e4") == "FJ-CONTROL"  # not that character's area
    m.apply(None, "interact mark f1")
    assert m.state.control["1"] == ("light", "f1")
    assert rid(m, "interact mark e1") == "FJ-CONTROL"  # the area already has one
    m.apply(None, "end")
    m.apply(None, "no-hunt")
    m.apply("bob", "choose shark")
    m.apply("bob", "emerge")
    m.apply("bob", "interact flip 1")
    assert m.state.control["1"] == ("dark", "f1")
    finish_round(m)
    gained = [e for e in events_of(m, E.PointsGained) if e.why == "most control markers"]
    assert [(g.side, g.points) for g in gained] == [("dark", 1)]
    # with two characters a side, "any marker showing your colour" is ignored
    assert not [e for e in events_of(m, E.PointsGained) if "colour" in e.why]


def test_scenario_win_at_6_points_checked_at_round_end():
    m = position({"quint": "a2", "swimmer": "h1", "shark": "h8", "tiger-shark": "g8"}, mode="control",
                 points={"light": 5}, point_markers=PM)
    m.apply("ann", "choose quint")
    m.apply("ann", "interact A")
    assert m.state.sides["light"].points == 6 and m.outcome() is None  # only at the end of the round
    m.apply("ann", "end")
    m.apply("ann", "no-hunt")
    finish_round(m)
    out = m.outcome()
    assert out is not None and out.winners == ("ann",) and out.scores["ann"] == 6


def test_a_tie_plays_on():
    m = position({"quint": "a2", "swimmer": "h1", "shark": "h8", "tiger-shark": "g8"}, mode="control",
                 points={"light": 6, "dark": 6}, options={"round-limit": 0})
    finish_round(m)
    assert m.outcome() is None
    settle(m)
    m.apply(m.to_act().seats[0], m.legal_texts(m.to_act().seats[0])[0])
    assert m.outcome() is None


def test_flags_return_for_two_points():
    m = position({"swimmer": "e7", "quint": "a1", "shark": "h8", "tiger-shark": "h1"}, mode="flags")
    # e8 is the dark flag: the Swimmer stands adjacent to it at the end of the round
    finish_round_until_flags(m)
    assert m.state.phase == "flags" and m.to_act().seats == ("ann",)
    assert "return swimmer" in m.legal_texts("ann") and "return quint" not in m.legal_texts("ann")
    assert rid(m, "return quint", "ann") == "FJ-FLAGS"
    m.apply("ann", "return swimmer")
    assert m.state.sides["light"].points == 2
    assert m.state.phase == "place"
    m.apply("ann", "place swimmer f2")
    assert m.state.chars["swimmer"].square == "f2"


def finish_round_until_flags(m):
    while m.state.phase not in ("flags",) and m.outcome() is None:
        seat = m.to_act().seats[0]
        legal = m.legal_texts(seat)
        m.apply(seat, next((t for t in legal if t in ("end", "no-hunt")), legal[0]))


def test_knocked_down_characters_do_not_return_from_the_flag():
    m = position({"swimmer": "e7", "quint": "a1", "shark": "h8", "tiger-shark": "h1"}, mode="flags",
                 down=("swimmer",))
    finish_round(m)
    assert not events_of(m, E.FlagReturned)


def test_level_control_markers_score_nothing():
    m = acting({"quint": "e1", "swimmer": "h1", "shark": "e4", "tiger-shark": "g8"}, "quint", mode="control")
    m.apply(None, "interact mark e1")
    m.apply(None, "end")
    m.apply(None, "no-hunt")
    m.apply("bob", "choose shark")
    m.apply("bob", "emerge")
    m.apply("bob", "interact mark f4")
    finish_round(m)
    assert not [e for e in events_of(m, E.PointsGained) if "control" in e.why]
