"""Where the rulebook gives the player a choice, the player makes it: where a thing piled
against a wall ends (land), where a shielding object drops (drop), and the direction of an
unclear knockback (knock). Each has a default so bots and the menu stay short."""

from __future__ import annotations

import pytest

from arbiter.core.errors import ParseError, RuleViolation
from arbiter.core.match import Match
from arbiter.core.scott_pilgrim import GAME
from sp_helpers import battle, ch, content, to_good_turn


def rule(m, seat, text):
    with pytest.raises(RuleViolation) as e:
        m.apply(seat, text)
    return e.value.rule_id


def pile_up() -> Match:
    """Scott Judo Throws Matthew east; the amp behind him hits the wall first."""
    m = battle({"scott": "f4", "matthew": "g4"}, objects={"amp": "i4"})
    to_good_turn(m, "guts guts will speed speed")
    return m


def test_the_player_chooses_where_a_second_thing_against_the_wall_ends():
    m = pile_up()
    assert rule(m, "good", "scott judo-throw matthew land matthew@h1 pay guts guts") == "SP-KNOCKBACK-WALL"
    m.apply("good", "scott judo-throw matthew land matthew@k5 pay guts guts")
    assert m.state.objects["amp"].pos == "k4" and m.state.objects["amp"].damaged
    assert ch(m, "matthew").pos == "k5" and ch(m, "matthew").health == 33  # 1 + 1 from the wall


def test_without_a_land_choice_the_nearest_space_is_taken():
    m = pile_up()
    m.apply("good", "scott judo-throw matthew pay guts guts")
    assert ch(m, "matthew").pos == "k3"


def test_a_choice_nothing_needs_is_refused():
    m = pile_up()
    assert rule(m, "good", "scott judo-throw matthew land amp@k5 pay guts guts") == "SP-CHOICE"
    assert rule(m, "good", "scott punch matthew knock matthew@e") == "SP-CHOICE"
    assert rule(m, "good", "scott move e4 land matthew@k5") == "SP-CHOICE"
    with pytest.raises(ParseError):
        m.apply("good", "scott judo-throw matthew land matthew@zz")


def test_a_good_guy_hit_on_the_bad_guys_turn_chooses_where_his_shield_drops():
    m = battle({"scott": "c4", "matthew": "d4"}, objects={"table-1": "c3"})
    to_good_turn(m, "will will will speed speed")
    m.apply("good", "scott grab table-1")
    m.apply("good", "end")
    m.apply("bad", "roll [will will guts guts guts]")
    assert rule(m, "bad", "matthew punch scott drop table-1@b5") == "SP-HELD-SHIELD"  # not his pick
    m.apply("bad", "matthew punch scott")
    assert rule(m, "good", "allow drop table-1@h8") == "SP-HELD-SHIELD"
    m.apply("good", "allow drop table-1@b5")
    assert ch(m, "scott").health == 60 and ch(m, "scott").holding is None
    assert m.state.objects["table-1"].pos == "b5" and m.state.objects["table-1"].damaged


def test_the_acting_player_chooses_where_a_bad_guys_shield_drops():
    m = battle({"scott": "e4", "matthew": "f4"}, objects={"table-1": "g4"})
    m.apply("bad", "roll [will will guts guts guts]")
    m.apply("bad", "matthew grab table-1")
    m.apply("good", "allow")  # grabbing is a basic ability: the Good Guys may Pause it
    m.apply("bad", "end")
    m.apply("good", "roll [will will speed speed guts]")
    m.apply("good", "scott punch matthew drop table-1@g3")
    assert ch(m, "matthew").health == 35 and m.state.objects["table-1"].pos == "g3"


def ranged_knockback() -> Match:
    """A content file whose Drum Stick Boomerang knocks back 2 (a ranged knockback)."""
    c = content({"kim": "c4", "matthew": "e5"}, objects={})
    c["abilities"]["drum-stick-boomerang"]["knockback"] = 2
    m = Match.new(GAME, seed=3, seats=["good", "bad"], dice="manual", content=c,
                  options={"good_guys": "kim", "placement": "fixed"})
    to_good_turn(m, "guts guts will speed speed")
    return m


def test_an_unclear_knockback_direction_is_the_hitters_choice():
    m = ranged_knockback()  # Matthew is two east and one north of Kim: e or ne
    assert rule(m, "good", "kim drum-stick-boomerang matthew knock matthew@n pay guts guts") \
        == "SP-KNOCKBACK-DIRECTION"
    m.apply("good", "kim drum-stick-boomerang matthew knock matthew@e pay guts guts")
    assert ch(m, "matthew").pos == "g5"


def test_an_unclear_knockback_defaults_to_the_nearer_line():
    m = ranged_knockback()
    m.apply("good", "kim drum-stick-boomerang matthew pay guts guts")
    assert ch(m, "matthew").pos == "g7"


def test_choices_round_trip_through_the_command_text():
    m = pile_up()
    cmd = GAME.parse(m.state, "good", "scott judo-throw matthew land matthew@k5 pay guts guts")
    assert GAME.command_text(cmd) == "scott judo-throw matthew land matthew@k5 pay guts guts"
    cmd = GAME.parse(m.state, "good", "allow drop amp@b5")
    assert GAME.command_text(cmd) == "allow drop amp@b5"


def knockout_position() -> Match:
    """Scott (1 Health) holds Scott's Bass equipped; Matthew stands next to him."""
    c = content({"scott": "e4", "knives": "b6", "stephen": "b3", "matthew": "f4"}, objects={},
                items=["scotts-bass", "brick", "bottle", "lunchbox"])
    c["health"]["good"]["normal"] = [1, 1, 1, 1]
    m = Match.new(GAME, seed=3, seats=["good", "bad"], dice="manual", content=c,
                  options={"good_guys": "scott,knives,stephen", "placement": "fixed"})
    m.apply("bad", "roll [speed speed speed speed speed]")
    m.apply("bad", "end")
    m.apply("good", "roll [speed speed speed speed speed]")
    m.apply("good", "equip scotts-bass scott")
    m.apply("good", "end")
    m.apply("bad", "roll [will will guts guts guts]")
    m.apply("bad", "matthew punch scott")
    return m


def test_the_good_guys_choose_who_takes_a_knocked_out_good_guys_items():
    m = knockout_position()
    assert rule(m, "good", "allow items scott@matthew") == "SP-ITEMS-TRANSFER"
    m.apply("good", "allow items scott@stephen")
    assert ch(m, "scott").out
    assert m.state.equipped.get("stephen") == ("item:scotts-bass",)


def test_a_knocked_out_good_guys_items_go_to_the_first_teammate_by_default():
    m = knockout_position()
    m.apply("good", "allow")
    assert m.state.equipped.get("knives") == ("item:scotts-bass",)


def test_a_bad_guys_needless_or_not_his_choice_is_refused_before_the_window():
    m = battle({"scott": "e4", "matthew": "f4"}, objects={})
    m.apply("bad", "roll [will will guts guts guts]")
    assert rule(m, "bad", "matthew punch scott knock scott@w") == "SP-CHOICE"
    assert rule(m, "bad", "matthew punch scott items scott@scott") == "SP-ITEMS-TRANSFER"
    m.apply("bad", "matthew punch scott")
    m.apply("good", "allow")
    assert ch(m, "scott").health == 59
