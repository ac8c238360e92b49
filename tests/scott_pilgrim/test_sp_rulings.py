"""Rulings argued from the rulebook's own sentences (issue 12): each test quotes the
sentence that decides it and plays the position through the public Match interface."""

from __future__ import annotations

import pytest

from arbiter.core.errors import RuleViolation
from sp_helpers import battle, ch, to_good_turn

NONE: dict = {}


def rule(m, seat, text):
    with pytest.raises(RuleViolation) as e:
        m.apply(seat, text)
    return e.value.rule_id


# -- "For each other die (Guts, Will, Health, Magic) you spend, you can move up to 2 spaces."

def test_a_wild_health_die_moves_a_good_guy_two_spaces_not_three():
    m = battle({"scott": "c4", "matthew": "k8"}, objects=NONE)
    to_good_turn(m, "health health speed guts guts")
    assert rule(m, "good", "scott move d4 e4 f4 pay health") == "SP-MOVE-SPACES"
    m.apply("good", "scott move d4 e4 pay health")
    assert ch(m, "scott").pos == "e4"
    # "For each Speed die you spend, you can move up to 3 spaces."
    m.apply("good", "scott move f5 g5 h5 pay speed")
    assert ch(m, "scott").pos == "h5"


def test_a_wild_magic_die_moves_matthew_two_spaces_not_three():
    m = battle({"scott": "a1", "matthew": "j4", "chick1": "k8", "chick2": "k7", "chick3": "k6"},
               objects=NONE)
    m.apply("bad", "roll [guts will magic magic will]")
    assert rule(m, "bad", "matthew move i4 h4 g4 pay magic") == "SP-MOVE-SPACES"
    m.apply("bad", "matthew move i4 h4 pay magic")
    assert ch(m, "matthew").pos == "h4"


def test_an_unpaid_move_of_three_spends_two_wild_dice_when_no_speed_is_left():
    m = battle({"scott": "c4", "matthew": "k8"}, objects=NONE)
    to_good_turn(m, "health health will will will")
    m.apply("good", "scott move d4 e4 f4")
    assert ch(m, "scott").pos == "f4"
    assert sum(d.spent for d in m.state.dice) == 2


# -- Pause: "When a Bad Guy uses an ability, you can cancel its effect, then discard this
# card. (They still spend dice to use it.)" -- and "Grab an object is a basic ability".

def test_pause_cancels_matthews_grab_of_an_object():
    m = battle({"scott": "a1", "matthew": "f4"}, objects={"amp": "g4"},
               items=["pause-controller"])
    m.apply("bad", "roll [will will guts guts guts]")
    m.apply("bad", "matthew grab amp")
    assert m.to_act().kind == "reaction" and m.to_act().seats == ("good",)
    assert ch(m, "matthew").holding is None
    m.apply("good", "pause")
    assert ch(m, "matthew").holding is None and m.state.objects["amp"].pos == "g4"
    assert sum(d.spent for d in m.state.dice) == 1  # they still spend dice to use it
    assert "item:pause-controller" in m.state.discard


def test_a_grab_the_good_guys_allow_goes_ahead():
    m = battle({"scott": "a1", "matthew": "f4"}, objects={"amp": "g4"},
               items=["pause-controller"])
    m.apply("bad", "roll [will will guts guts guts]")
    m.apply("bad", "matthew grab amp")
    m.apply("good", "allow")
    assert ch(m, "matthew").holding == "amp"
    assert "item:pause-controller" in m.state.hand


def test_a_good_guys_grab_opens_no_window():
    m = battle({"scott": "f4", "matthew": "k8"}, objects={"amp": "g4"})
    to_good_turn(m, "will will guts guts guts")
    m.apply("good", "scott grab amp")
    assert ch(m, "scott").holding == "amp" and m.state.pending is None


# -- SP-HOUSE-LEVEL: "Whenever your XP Meter reaches its fifth space, you level up: Return
# your XP star to the bottom star of the XP Meter." XP beyond the fifth space is lost.

def test_xp_beyond_the_fifth_space_is_lost_on_levelling_up():
    m = battle({"scott": "c4", "ramona": "c5", "knives": "c6", "matthew": "k8"},
               roster="scott,ramona,knives", objects=NONE,
               items=["rent-money", "comic-book", "high-score"])
    to_good_turn(m, "will will guts guts guts")
    m.apply("good", "use rent-money scott")
    m.apply("good", "use comic-book scott")
    assert ch(m, "scott").xp == 4 and ch(m, "scott").level == 0
    m.apply("good", "use high-score scott")  # 4 + 3 = 7: the fifth space is reached
    s = ch(m, "scott")
    assert s.level == 1 and s.combo
    assert s.xp == 0  # the star is back on the bottom; the two beyond five are lost
    rule_text = m.game.rules.get("SP-HOUSE-LEVEL").text
    assert "lost" in rule_text


def test_a_level_up_item_also_returns_the_star_to_the_bottom():
    m = battle({"scott": "c4", "ramona": "c5", "matthew": "k8"}, roster="scott,ramona",
               objects=NONE, items=["comic-book", "xp-boost"])
    to_good_turn(m, "will will guts guts guts")
    m.apply("good", "use comic-book scott")
    assert ch(m, "scott").xp == 2
    m.apply("good", "use xp-boost scott")
    assert ch(m, "scott").level == 1 and ch(m, "scott").xp == 0
