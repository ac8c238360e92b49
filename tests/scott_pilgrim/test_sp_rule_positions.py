"""Rule by rule beyond the earlier passes: for each rule id no other test named, the position
where players would argue, played through the public Match; each test names its rule id and
quotes the rulebook sentence (or the house reading) that decides it."""

from __future__ import annotations

import pytest

from arbiter.core.errors import ArbiterError, RuleViolation
from arbiter.core.match import Match
from arbiter.core.scott_pilgrim import GAME
from sp_helpers import battle, ch, to_good_turn
from test_sp_rulings import rule

NONE: dict = {}


def idle_good_turns(m, n):
    """n rounds in which the Bad Guys pass and the Good Guys roll and end at once."""
    for _ in range(n):
        to_good_turn(m, "guts guts guts guts guts")
        m.apply("good", "end")


def test_sp_booster_max_four_tokens_and_no_fifth():
    """SP-BOOSTER-MAX: "Each Good Guy can have up to four booster tokens": a fifth idle turn
    gives none, and a booster item cannot be used at four."""
    m = battle({"scott": "a4", "matthew": "k8"}, objects=NONE, items=["energy-drink"])
    idle_good_turns(m, 5)
    assert ch(m, "scott").boosters == 4
    to_good_turn(m, "guts guts guts guts guts")
    assert rule(m, "good", "use energy-drink scott") == "SP-BOOSTER-MAX"


def test_sp_chick_actions_a_chick_has_no_special_abilities_even_when_she_fights():
    """SP-CHICK-ACTIONS: with chicks_fight (the default) a Chick punches with the Bad Guys'
    dice, but no ability is hers; with chicks_fight=false she does not even punch."""
    m = battle({"scott": "e4", "matthew": "k8", "chick1": "f4"}, objects=NONE)
    m.apply("bad", "roll [will will will guts guts]")
    assert rule(m, "bad", "chick1 hipster-swarm") == "SP-CHICK-ACTIONS"
    m.apply("bad", "chick1 punch scott")
    m.apply("good", "allow")
    assert ch(m, "scott").health < ch(m, "scott").start_health
    m2 = battle({"scott": "e4", "matthew": "k8", "chick1": "f4"}, objects=NONE, chicks_fight=False)
    m2.apply("bad", "roll [will will will guts guts]")
    assert rule(m2, "bad", "chick1 punch scott") == "SP-CHICK-ACTIONS"


def test_sp_dice_none_a_grab_needs_a_will_or_a_wild_die():
    """SP-DICE-NONE: only with unspent dice that can pay; Health is wild for a Good Guy."""
    m = battle({"scott": "f4", "matthew": "k8"}, objects={"amp": "g4"})
    to_good_turn(m, "speed speed speed guts health")
    assert rule(m, "good", "scott grab amp pay will") == "SP-DICE-NONE"
    m.apply("good", "scott grab amp")  # the Health die pays as a wild Will
    assert ch(m, "scott").holding == "amp"


def test_sp_item_equip_worn_items_are_equipped_food_is_used():
    """SP-ITEM-EQUIP: "Some items are equipped ... others are used and discarded"."""
    m = battle({"scott": "a4", "matthew": "k8"}, objects=NONE, items=["toque", "sushi"],
               roster="scott,ramona")
    to_good_turn(m, "guts guts guts guts guts")
    assert rule(m, "good", "use toque scott") == "SP-ITEM-EQUIP"
    assert rule(m, "good", "equip sushi scott") == "SP-ITEM-EQUIP"
    m.apply("good", "equip toque scott")
    assert m.state.equipped["scott"] == ("item:toque",)


def test_sp_item_throw_only_a_card_that_says_so_and_a_weapon_only_while_equipped():
    """SP-ITEM-THROW: a weapon is thrown only once equipped; food is never thrown."""
    m = battle({"knives": "e4", "matthew": "f4"}, roster="knives,scott", objects=NONE,
               items=["knives-sais", "sushi"])
    to_good_turn(m, "will will guts guts speed")
    assert rule(m, "good", "knives throw knives-sais e") == "SP-ITEM-THROW"
    assert rule(m, "good", "knives throw sushi e") == "SP-ITEM-THROW"
    m.apply("good", "equip knives-sais knives")
    m.apply("good", "knives throw knives-sais e")
    assert "item:knives-sais" in m.state.discard


def test_sp_knocked_out_a_poofed_chick_does_not_act():
    """SP-KNOCKED-OUT: a poofed Chick is off the board until summoned."""
    m = battle({"scott": "e4", "matthew": "k8", "chick1": "f4"}, objects=NONE)
    m.apply("bad", "roll [speed speed speed speed speed]")
    m.apply("bad", "end")
    m.apply("good", "roll [will guts guts guts guts]")
    m.apply("good", "scott punch chick1")
    assert ch(m, "chick1").pos is None
    m.apply("good", "end")
    assert ch(m, "chick1").pos is None  # summoned only at the end of the Bad Guys' turn
    m.apply("bad", "roll [will will will guts guts]")
    assert rule(m, "bad", "chick1 punch scott") == "SP-KNOCKED-OUT"


def test_sp_no_window_pause_answers_only_a_bad_guys_ability():
    """SP-NO-WINDOW: reactions are taken only in a window a Bad Guy's ability opened; the
    Bad Guys never answer in one."""
    m = battle({"scott": "e4", "matthew": "f4"}, objects=NONE, items=["pause-controller"])
    m.apply("bad", "roll [will will guts guts guts]")
    assert rule(m, "bad", "allow") == "SP-NO-WINDOW"
    m.apply("bad", "end")
    m.apply("good", "roll [will will guts guts speed]")
    assert rule(m, "good", "pause") == "SP-NO-WINDOW"


def test_sp_not_in_play_a_good_guy_left_out_of_the_roster_does_not_act():
    """SP-NOT-IN-PLAY: only characters in this battle act (Kim sits this one out)."""
    m = battle({"scott": "e4", "matthew": "k8"}, objects=NONE)
    to_good_turn(m, "speed speed guts guts guts")
    assert rule(m, "good", "kim move e5 pay speed") == "SP-NOT-IN-PLAY"
    assert rule(m, "good", "scott punch ramona") == "SP-NOT-IN-PLAY"  # nor is she a target
    assert rule(m, "good", "use sushi ramona") == "SP-NOT-IN-PLAY"


def test_sp_reversal_answers_an_ability_used_on_scott_only():
    """SP-REVERSAL: "use ... when a Bad Guy uses an ability on Scott": not on Ramona."""
    m = battle({"scott": "a1", "ramona": "e4", "matthew": "f4"}, roster="scott,ramona",
               objects=NONE, items=["xp-boost", "brick"])
    to_good_turn(m, "speed speed guts guts guts")
    m.apply("good", "use xp-boost scott")
    assert ch(m, "scott").combo
    m.apply("good", "end")
    m.apply("bad", "roll [will will guts guts guts]")
    m.apply("bad", "matthew punch ramona")
    assert rule(m, "good", "reversal") == "SP-REVERSAL"
    m.apply("good", "allow")
    assert ch(m, "scott").combo


def test_sp_setup_health_matthew_starts_at_35_whatever_the_difficulty():
    """SP-SETUP-HEALTH: "Matthew Patel starts with 35 Health"; the Good Guys by the table."""
    for diff in ("easy", "normal", "hard"):
        m = battle({"scott": "e4", "matthew": "k8"}, objects=NONE, difficulty=diff)
        assert ch(m, "matthew").health == 35


def test_sp_summon_only_matthew_summons_and_only_poofed_chicks():
    """SP-SUMMON: at the end of the Bad Guys' turn poofed Chicks return; the Good Guys
    summon nobody."""
    m = battle({"scott": "e4", "matthew": "k8"}, objects=NONE)
    m.apply("bad", "roll [speed speed speed speed speed]")
    with pytest.raises(RuleViolation) as e:
        m.apply("bad", "end summon chick1@j8")
    assert e.value.rule_id == "SP-SUMMON"
    m.apply("bad", "end")
    m.apply("good", "roll [guts guts guts guts guts]")
    with pytest.raises(RuleViolation) as e:
        m.apply("good", "end summon chick1@j8")
    assert e.value.rule_id == "SP-SUMMON"


def test_sp_team_turn_the_bad_guys_go_first_each_round():
    """SP-TEAM-TURN: "the Bad Guys take their turn first"."""
    m = battle({"scott": "e4", "matthew": "k8"}, objects=NONE)
    assert m.to_act().seats == ("bad",)
    with pytest.raises(RuleViolation) as e:
        m.apply("good", "roll")
    assert e.value.rule_id == "SP-TEAM-TURN"
    to_good_turn(m, "guts guts guts guts guts")
    m.apply("good", "end")
    assert m.to_act().seats == ("bad",) and m.state.round == 2


def test_sp_throw_costs_no_dice_and_needs_something_held():
    """SP-THROW: "Throwing an object does not cost any dice" -- but you must hold one."""
    m = battle({"scott": "f4", "matthew": "k4"}, objects={"amp": "g4"})
    to_good_turn(m, "will guts guts guts guts")
    assert rule(m, "good", "scott throw e") == "SP-THROW"
    m.apply("good", "scott grab amp")
    assert rule(m, "good", "scott throw e pay guts") == "SP-THROW"
    spent = sum(d.spent for d in m.state.dice)
    m.apply("good", "scott throw e")
    assert sum(d.spent for d in m.state.dice) == spent and ch(m, "scott").holding is None


def test_sp_turn_over_only_equipping_after_the_turn_ends():
    """SP-TURN-OVER: "At the end of the Good Guys' turn ... The only thing you can do is
    equip items. You can't do anything else, even using an item." Once the last die is
    spent the turn is over for actions (SP-TURN-END); an item is still equipped."""
    m = battle({"scott": "e4", "ramona": "e2", "matthew": "k8"}, objects=NONE,
               items=["toque", "sushi"], roster="scott,ramona")
    to_good_turn(m, "speed speed speed speed speed")
    for step in ("e5", "e6", "e5", "e6", "e5"):
        m.apply("good", f"scott move {step} pay speed")
    assert rule(m, "good", "use sushi ramona") == "SP-TURN-END"
    m.apply("good", "equip toque scott")
    assert m.state.equipped["scott"] == ("item:toque",)


def test_sp_place_order_the_good_guys_place_first():
    """SP-PLACE-ORDER: the Good Guys place their miniatures first, then the Bad Guys."""
    m = Match.new(GAME, seed=1, seats=["good", "bad"], options={"good_guys": "scott"})
    with pytest.raises(RuleViolation) as e:
        m.apply("bad", "place matthew j4")
    assert e.value.rule_id == "SP-PLACE-ORDER"
    m.apply("good", "place default")
    m.apply("bad", "place matthew j4")
    assert ch(m, "matthew").pos == "j4"


def test_sp_opt_good_guys_four_by_default():
    """SP-OPT-GOOD-GUYS: Scott, Ramona, Knives and Stephen when no roster is given."""
    m = Match.new(GAME, seed=1, seats=["good", "bad"])
    assert {c for c, v in m.state.chars.items() if v.team == "good"} == {"scott", "ramona", "knives", "stephen"}


def test_sp_opt_scott_board_the_examples_numbers_by_default():
    """SP-OPT-SCOTT-BOARD: Judo Throw 5 and K.O. Punch 3, as the rulebook's examples."""
    m = Match.new(GAME, seed=1, seats=["good", "bad"])
    o = m.created.options
    assert (o["judo_throw_knockback"], o["ko_punch_knockback"]) == (5, 3)
    with pytest.raises(ArbiterError):
        Match.new(GAME, seed=1, seats=["good", "bad"], options={"ko_punch_knockback": 10})


def test_sp_house_venue_the_rockit_is_11_by_8_with_item_spaces_on_f():
    """SP-HOUSE-VENUE: columns a-k, rows 1-8, item spaces f2-f7."""
    v = GAME.default_content()["venue"]
    assert sorted(v["item_spaces"]) == [f"f{i}" for i in range(2, 8)]
    m = battle({"scott": "k8", "matthew": "a1"}, objects=NONE)
    to_good_turn(m, "speed speed speed speed speed")
    assert rule(m, "good", "scott move k9 pay speed") in ("SP-MOVE-WALL", "SP-MOVE-SPACES")
    assert rule(m, "good", "scott move l8 pay speed") in ("SP-MOVE-WALL", "SP-MOVE-SPACES")


def test_sp_house_dice_faces():
    """SP-HOUSE-DICE: the three dice's face counts."""
    d = GAME.default_content()["dice"]
    assert sorted(d["red"]) == sorted(["magic", "magic", "speed", "will", "guts", "health"])
    assert sorted(d["blue"]) == sorted(["speed", "speed", "will", "will", "guts", "health"])
    assert sorted(d["yellow"]) == sorted(["speed", "will", "will", "guts", "guts", "health"])


def test_sp_house_boards_and_items_are_marked_house():
    """SP-HOUSE-BOARDS / SP-HOUSE-ITEMS: the authored boards and 29 items say so."""
    c = GAME.default_content()
    assert len(c["items"]) == 33
    assert sum(1 for i in c["items"] if i.get("source") == "house") == 29
    assert all(c["characters"][x].get("source") == "house" for x in ("ramona", "knives", "stephen", "kim", "matthew"))


def test_sp_house_seats_the_last_seat_plays_the_bad_guys():
    """SP-HOUSE-SEATS: the last seat plays the Bad Guys."""
    m = Match.new(GAME, seed=1, seats=["x", "y"])
    assert m.state.control["matthew"] == "y" and m.state.control["scott"] == "x"


def test_sp_reaction_window_always_opens_even_without_an_answer_in_hand():
    """SP-REACTION-WINDOW: by default the window opens whatever the Good Guys hold, so that
    it never betrays a hidden Pause card."""
    m = battle({"scott": "e4", "matthew": "f4"}, objects=NONE, items=["brick", "bottle"])
    m.apply("bad", "roll [will will guts guts guts]")
    m.apply("bad", "matthew punch scott")
    assert m.to_act().kind == "reaction" and ch(m, "scott").health == 60
    m.apply("good", "allow")
    assert ch(m, "scott").health == 59


def test_sp_house_knockback_chain_the_chick_right_behind_goes_all_three():
    """SP-HOUSE-KNOCKBACK-CHAIN: K.O. Punch knocks Matthew 3; the Chick right behind him is
    entered on his first step, so she goes the remaining three (this step included) and
    Matthew still goes his three, stopping behind her -- not two for her, as in the
    rulebook's example where she stood two spaces behind."""
    m = battle({"scott": "e4", "matthew": "f4", "chick1": "g4"}, objects=NONE,
               boards={"scott": {"starter": ["ko-punch"]}})
    to_good_turn(m, "will guts speed speed speed")
    m.apply("good", "scott ko-punch matthew pay will guts")
    assert (ch(m, "matthew").pos, ch(m, "chick1").pos) == ("i4", "j4")


def test_sp_house_wall_pileup_matthew_ends_in_the_poofed_chicks_space():
    """SP-HOUSE-WALL-PILEUP: the Chick against the wall takes 1 and poofs; Matthew, knocked
    into her, ends in her space (the rulebook's Judo Throw example)."""
    m = battle({"scott": "h4", "matthew": "i4", "chick1": "k4"}, objects=NONE)
    to_good_turn(m, "guts guts speed speed speed")
    m.apply("good", "scott judo-throw matthew")
    assert ch(m, "chick1").poofed and ch(m, "matthew").pos == "k4"


def test_sp_house_thrown_landing_an_object_thrown_at_the_wall_lands_by_it():
    """SP-HOUSE-THROWN-LANDING: thrown into the wall, the object takes its 1 damage and
    lands on the space by the wall."""
    m = battle({"scott": "c4", "matthew": "k8"}, objects={"speaker-1": "b4"})
    to_good_turn(m, "will speed guts guts guts")
    m.apply("good", "scott grab speaker-1")
    m.apply("good", "scott throw n")
    sp = m.state.objects["speaker-1"]
    assert sp.pos == "c8" and sp.damaged


def test_sp_house_shield_drop_a_knocked_out_holders_object_drops_where_they_stood():
    """SP-HOUSE-SHIELD-DROP: the shield with no empty adjacent space is destroyed; here the
    Good Guys name where it drops and it is damaged."""
    m = battle({"scott": "c4", "matthew": "d4"}, objects={"table-1": "c3"})
    to_good_turn(m, "will will will speed speed")
    m.apply("good", "scott grab table-1")
    m.apply("good", "end")
    m.apply("bad", "roll [will will guts guts guts]")
    m.apply("bad", "matthew punch scott")
    m.apply("good", "allow")  # no drop named: the referee takes the first empty space
    assert ch(m, "scott").holding is None and ch(m, "scott").health == 60
    assert m.state.objects["table-1"].pos is not None and m.state.objects["table-1"].damaged


def test_sp_house_item_effects_armor_takes_one_off_each_hit():
    """SP-HOUSE-ITEM-EFFECTS: armor reduces each hit by its value; a weapon adds to a punch."""
    m = battle({"scott": "e4", "matthew": "f4"}, objects=NONE, items=["hockey-pads"])
    to_good_turn(m, "will guts guts guts guts")
    m.apply("good", "equip hockey-pads scott")
    m.apply("good", "end")
    m.apply("bad", "roll [will will guts guts guts]")
    m.apply("bad", "matthew punch scott power")  # 2 damage, less the pads
    m.apply("good", "allow")
    pads = next(i for i in GAME.default_content()["items"] if i["id"] == "hockey-pads")
    assert ch(m, "scott").health == 60 - max(0, 2 - int(pads["armor"]))


def test_sp_house_bonuses_which_character_has_which_bonus_is_house_content(tmp_path):
    """SP-HOUSE-BONUSES: "Some characters have a Speed, Guts, or Will bonus" without saying
    which: the house boards give Stephen +1 Will (a Will die moves him 3, Scott 2), the rule
    index shows the ruling as house, and a content file may give Scott a bonus instead."""
    from typer.testing import CliRunner

    from arbiter.cli.app import app

    m = battle({"scott": "c4", "stephen": "c6", "matthew": "k8"}, roster="scott,stephen", objects=NONE)
    to_good_turn(m, "will will guts guts speed")
    m.apply("good", "stephen move d6 e6 f6 pay will")
    assert rule(m, "good", "scott move d4 e4 f4 pay will") == "SP-MOVE-SPACES"
    m2 = battle({"scott": "c4", "matthew": "k8"}, objects=NONE, boards={"scott": {"bonus": {"will": 1}}})
    to_good_turn(m2, "will will guts guts speed")
    m2.apply("good", "scott move d4 e4 f4 pay will")
    assert ch(m2, "scott").pos == "f4"
    out = CliRunner().invoke(app, ["rules", "scott-pilgrim", "bonus"], env={"ARBITER_HOME": str(tmp_path)})
    row = next(line for line in out.output.splitlines() if line.startswith("SP-HOUSE-BONUSES"))
    assert row.split("\t")[1] == "house", row  # a table into a pipe: tab-separated
