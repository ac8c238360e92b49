"""Rulings argued from the rulebook's own sentences (issue 12): each test quotes the
sentence that decides it and plays the position through the public Match interface."""

from __future__ import annotations

import pytest

from arbiter.core.errors import RuleViolation
from sp_helpers import battle, ch, follow, to_good_turn

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


# -- "A turn ends when the team has spent all of their dice or chooses not to take any more
# actions." (option turn_end; SP-TURN-END)

def spend_all_but_hold(m):
    """Scott grabs the amp and the Good Guys spend every other die on moves."""
    m.apply("good", "scott grab amp pay will")
    m.apply("good", "scott move d5 pay speed")
    m.apply("good", "scott move d4 pay speed")
    m.apply("good", "scott move e4 pay guts")
    m.apply("good", "scott move e5 pay guts")


def test_by_default_spending_the_last_die_ends_the_teams_actions():
    m = battle({"scott": "c4", "matthew": "k8"}, objects={"amp": "c5"},
               items=["knives-sais"])
    to_good_turn(m, "will speed speed guts guts")
    spend_all_but_hold(m)
    assert ch(m, "scott").holding == "amp"
    # throwing costs no dice, but the turn is over: only ending it (and equipping) is left
    assert rule(m, "good", "scott throw e") == "SP-TURN-END"
    assert {t.split()[0] for t in m.legal_texts("good")} <= {"end", "equip"}
    m.apply("good", "equip knives-sais scott")  # "The only thing you can do is equip items."
    m.apply("good", "end")
    assert m.state.team == "bad"


def test_with_turn_end_chosen_no_dice_actions_follow_the_last_die():
    m = battle({"scott": "c4", "matthew": "k8"}, objects={"amp": "c5"}, turn_end="chosen")
    to_good_turn(m, "will speed speed guts guts")
    spend_all_but_hold(m)
    m.apply("good", "scott throw e")
    assert ch(m, "scott").holding is None and ch(m, "scott").xp == 1


def test_the_chicks_still_finish_matthews_move_paid_with_the_last_die():
    m = battle({"scott": "a8", "matthew": "j1"}, objects=NONE, park=["a1", "a2", "a3", "a4", "k5", "k6", "k7"])
    m.apply("bad", "roll [speed will will will will]")
    for step in ("i1", "h1", "g1", "f1"):
        m.apply("bad", f"matthew move {step} pay will")
        follow(m)
    m.apply("bad", "matthew move e1 d1 c1 pay speed")  # the last die
    assert m.state.follow  # each Chick owes three spaces: part of Matthew's move
    follow(m)
    assert not m.state.follow
    assert rule(m, "bad", "matthew move b1 pay booster") in ("SP-TURN-END", "SP-BOOSTER-USE")
    assert m.legal_texts("bad") and all(t.startswith("end") for t in m.legal_texts("bad"))


# -- Whether a paused or reversed ability still earns XP (option cancelled_xp,
# SP-HOUSE-CANCELLED-XP): "You gain 1 XP each time you use a special ability ... power up a
# punch or kick"; Pause: "cancel its effect ... (They still spend dice to use it.)"

@pytest.mark.parametrize("cancelled_xp,xp", [(True, 1), (False, 0)])
def test_a_paused_special_ability_still_earns_xp_by_default(cancelled_xp, xp):
    m = battle({"scott": "g4", "matthew": "j4"}, objects=NONE, items=["pause-controller"],
               cancelled_xp=cancelled_xp)
    m.apply("bad", "roll [speed will magic magic guts]")
    m.apply("bad", "matthew fireballs scott pay magic magic")
    m.apply("good", "pause")
    assert ch(m, "scott").health == 60
    assert ch(m, "matthew").xp == xp


@pytest.mark.parametrize("cancelled_xp,xp", [(True, 1), (False, 0)])
def test_a_reversed_punch_still_earns_its_power_up_xp_by_default(cancelled_xp, xp):
    m = battle({"scott": "e4", "matthew": "f4"}, objects=NONE, items=["xp-boost", "brick"],
               cancelled_xp=cancelled_xp)
    to_good_turn(m, "speed speed guts guts guts")
    m.apply("good", "use xp-boost scott")
    m.apply("good", "end")
    m.apply("bad", "roll [will will guts guts guts]")
    m.apply("bad", "matthew punch scott power")
    m.apply("good", "reversal")
    assert ch(m, "matthew").health == 33 and ch(m, "scott").health == 60
    assert ch(m, "matthew").xp == xp
    assert ch(m, "scott").xp == 1  # SP-HOUSE-REVERSAL: Scott gains 1 XP


def test_a_plain_punch_paused_earns_nothing_either_way():
    m = battle({"scott": "e4", "matthew": "f4"}, objects=NONE, items=["pause-controller"])
    m.apply("bad", "roll [will will guts guts guts]")
    m.apply("bad", "matthew punch scott")
    m.apply("good", "pause")
    assert ch(m, "matthew").xp == 0


# -- command forms the rulebook forbids are refused as illegal, citing the rule

@pytest.mark.parametrize("text,rule_id", [
    ("scott punch matthew via d4", "SP-ABILITY-MOVE"),  # punch and kick do not move
    ("scott grab amp power", "SP-POWER-UP"),  # "power up a punch or kick"
    ("scott recover matthew", "SP-RECOVER"),  # you recover your own Health
    ("scott recover knock matthew@e", "SP-CHOICE"),
    ("roll knock matthew@e", "SP-CHOICE"),
    ("scott kick matthew chick1:scott", "SP-CHICK-TARGET"),
])
def test_forbidden_command_forms_cite_their_rule(text, rule_id):
    m = battle({"scott": "e4", "matthew": "f4"}, objects={"amp": "e5"})
    to_good_turn(m, "will will guts guts speed")
    assert rule(m, "good", text) == rule_id


# -- "If playing with three players, two players will team up, each playing two Good Guys";
# a knocked-out character is removed "from the board permanently" (SP-HOUSE-OUT-OF-FIGHT)

def test_a_player_whose_good_guys_are_all_knocked_out_takes_no_more_team_decisions():
    """With three players, once Bob's Good Guy is knocked out Ann alone answers the Bad Guys'
    abilities, rolls, and ends the Good Guys' turn; Bob is refused, citing the house reading,
    and is offered nothing. The team still wins or loses together."""
    from arbiter.core.match import Match
    from arbiter.core.scott_pilgrim import GAME
    from sp_helpers import content

    c = content({"scott": "g4", "ramona": "e4", "matthew": "f4"}, objects=NONE)
    c["health"]["good"]["normal"] = [1, 1, 1, 1]
    m = Match.new(GAME, seed=7, seats=["ann", "bob", "cy"], dice="manual", content=c,
                  options={"good_guys": "scott,ramona", "placement": "fixed"})
    assert (m.state.control["scott"], m.state.control["ramona"]) == ("ann", "bob")
    m.apply("cy", "roll [will will will guts guts]")
    m.apply("cy", "matthew punch ramona")
    assert m.to_act().seats == ("ann", "bob")  # both still play a Good Guy: either answers
    m.apply("bob", "allow")
    assert ch(m, "ramona").out and not ch(m, "scott").out
    m.apply("cy", "end")
    # the Good Guys' turn is Ann's alone: Bob can neither roll nor end it
    assert m.to_act().seats == ("ann",) and m.legal_texts("bob") == []
    assert rule(m, "bob", "roll [speed speed speed speed speed]") == "SP-HOUSE-OUT-OF-FIGHT"
    m.apply("ann", "roll [speed speed speed speed speed]")
    for text in ("end", "reroll speed", "scott move h4 pay speed"):
        assert rule(m, "bob", text) == "SP-HOUSE-OUT-OF-FIGHT"
    assert "end" in m.legal_texts("ann")
    m.apply("ann", "end")
    # the Bad Guys' ability on Scott: only Ann answers the window
    m.apply("cy", "roll [will will will guts guts]")
    m.apply("cy", "matthew punch scott")
    assert m.to_act().seats == ("ann",)
    assert rule(m, "bob", "allow") == "SP-HOUSE-OUT-OF-FIGHT"
    m.apply("ann", "allow")
    assert m.outcome() is not None and m.outcome().winners == ("cy",)


def test_the_bad_guys_bot_sees_past_a_window_answered_by_the_player_still_in_the_fight():
    """With the first Good Guys' player out of the fight, the Bad Guys' smart bot still looks
    past the Good Guys' window (answered by the teammate left) and punches the last Good Guy
    out instead of ending its turn."""
    import random

    from arbiter.core.bots import get_bot
    from arbiter.core.match import Match
    from arbiter.core.scott_pilgrim import GAME
    from sp_helpers import content

    c = content({"scott": "e4", "ramona": "g4", "matthew": "f4"}, objects=NONE)
    c["health"]["good"]["normal"] = [1, 1, 1, 1]
    m = Match.new(GAME, seed=7, seats=["ann", "bob", "cy"], dice="manual", content=c,
                  options={"good_guys": "scott,ramona", "placement": "fixed"})
    m.apply("cy", "roll [will will will guts guts]")
    m.apply("cy", "matthew punch scott")
    m.apply("ann", "allow")
    assert ch(m, "scott").out and m.to_act().seats == ("cy",)
    smart = get_bot(GAME, "smart")
    choice = GAME.command_text(smart(m.state, "cy", m.legal("cy"), random.Random(1)))
    assert choice.startswith("matthew punch ramona"), choice


# -- The rule index: a rulebook entry quotes the book; what we read into it is a house entry.

@pytest.mark.parametrize("book,house", [
    ("SP-CHICK-MOVE", "SP-HOUSE-CHICK-MOVE"),
    ("SP-KNOCKBACK-DIRECTION", "SP-HOUSE-KNOCKBACK-DIRECTION"),
    ("SP-ITEMS-TRANSFER", "SP-HOUSE-ITEMS-TRANSFER"),
    ("SP-KNOCKBACK-WALL", "SP-HOUSE-WALL-PILEUP"),
    ("SP-HELD-SHIELD", "SP-HOUSE-SHIELD-DROP"),
    ("SP-SUMMON", "SP-HOUSE-SUMMON"),
])
def test_a_rulebook_entry_names_the_house_reading_it_leaves_to_a_house_entry(book, house):
    rules = battle({"scott": "c4", "matthew": "k8"}, objects=NONE).game.rules
    assert rules.get(book).source == "rulebook" and rules.get(house).source == "house"
    assert house in rules.get(book).text
    assert "default" not in rules.get(book).text  # a referee's default is a reading


def test_the_chicks_finishing_matthews_move_first_is_cited_as_a_house_reading():
    """"Whenever Matthew moves, each Chick on the board moves the same number of spaces"
    ("Matthew Patel and the Demon Hipster Chicks") says nothing of when; that they follow
    before the Bad Guys do anything else is SP-HOUSE-CHICK-MOVE. Moving a different number
    of spaces is still the rulebook's SP-CHICK-MOVE."""
    m = battle({"matthew": "i4", "chick1": "i6", "chick2": "i2", "chick3": "j4"}, objects=NONE)
    m.apply("bad", "roll [will speed speed speed speed]")
    m.apply("bad", "matthew move h4 g4 pay will")
    assert rule(m, "bad", "end") == "SP-HOUSE-CHICK-MOVE"
    assert rule(m, "bad", "chick1 move h7") == "SP-CHICK-MOVE"
    assert m.game.rules.get("SP-HOUSE-CHICK-MOVE").section == "Matthew Patel and the Demon Hipster Chicks"


def test_a_powered_up_punch_paid_beyond_the_boosters_held_says_how_many_are_held():
    """"A Good Guy can spend a booster token in place of a die ... to punch" ("Booster
    Tokens"): one idle round gives one token, and two asked for is refused in words that
    count it right ("1 booster token")."""
    m = battle({"scott": "e4", "matthew": "f4"}, objects=NONE)
    to_good_turn(m, "guts guts guts guts guts")
    m.apply("good", "end")  # Scott did not act: a booster token
    to_good_turn(m, "guts guts guts guts guts")
    with pytest.raises(RuleViolation) as e:
        m.apply("good", "scott punch matthew power pay booster booster")
    assert e.value.rule_id == "SP-BOOSTER-USE"
    assert "scott has only 1 booster token (" in str(e.value)


def test_a_reroll_ability_rolls_all_five_of_the_teams_dice():
    """"Some abilities ... reroll your team's dice to determine their effects" ("Reroll
    Abilities"): SP-HOUSE-REROLL-ABILITY reads it as all five dice, spent ones included;
    the dice tracker then restores the unspent ones."""
    from arbiter.events.scott_pilgrim import AbilityRerolled
    m = battle({"scott": "e4", "matthew": "g4"}, objects=NONE, items=["xp-boost"])
    to_good_turn(m, "guts speed will will will")
    m.apply("good", "use xp-boost scott")
    m.apply("good", "scott move e5 pay will")  # one die spent before, two for the Bass Slam
    evs = m.apply("good", "scott bass-slam pay guts speed [will guts guts guts guts]")
    rolled = next(e for e in evs if isinstance(e, AbilityRerolled))
    assert len(rolled.faces) == 5 and rolled.counted == 1
    assert [d.face for d in m.state.dice if not d.spent] == ["will", "will"]
    assert m.game.rules.get("SP-HOUSE-REROLL-ABILITY").source == "house"


def test_equipping_an_item_waits_for_the_teams_roll():
    """"On your team's turn, you'll do two things: roll dice, then take actions" ("Playing a
    Round"), and "Use or equip an item" is one of the actions ("Phase Two: Take Actions"):
    an item is equipped after the roll, never before it (it stays open once the dice are
    spent, SP-TURN-OVER)."""
    m = battle({"scott": "e4", "matthew": "k8"}, objects=NONE, items=["toque"])
    m.apply("bad", "roll [guts guts guts guts guts]")
    m.apply("bad", "end")
    assert "equip toque scott" not in m.legal_texts("good")
    assert rule(m, "good", "equip toque scott") == "SP-ROLL-FIRST"
    m.apply("good", "roll [guts guts guts guts guts]")
    assert "equip toque scott" in m.legal_texts("good")
    m.apply("good", "equip toque scott")
    assert m.state.equipped["scott"] == ("item:toque",)


def test_two_booster_tokens_power_up_a_punch():
    """"A Good Guy can spend a booster token in place of a die ... to punch" and a punch is
    powered up "by spending two of the dice it lists rather than one" ("Booster Tokens",
    "Punch or Kick"): SP-HOUSE-BOOSTER-POWER-UP lets both be tokens; 2 damage and 1 XP."""
    m = battle({"scott": "e4", "matthew": "f4"}, objects=NONE)
    for _ in range(2):
        to_good_turn(m, "guts guts guts guts guts")
        m.apply("good", "end")  # Scott did not act: a booster token each round
    to_good_turn(m, "guts guts guts guts guts")
    m.apply("good", "scott punch matthew power pay booster booster")
    assert ch(m, "matthew").health == 35 - 2 and ch(m, "scott").xp == 1 and ch(m, "scott").boosters == 0
    assert m.game.rules.get("SP-HOUSE-BOOSTER-POWER-UP").source == "house"


def test_an_item_space_gives_nothing_once_the_deck_is_empty():
    """The rulebook never says what happens when the 33 item cards run out
    (SP-HOUSE-ITEM-DECK): the discards are not shuffled back, so the Evil Ex moving onto an
    item space draws nothing and has nothing to throw."""
    m = battle({"scott": "b4", "matthew": "g4"}, objects=NONE, items=["toque", "bottle"])
    assert m.state.hand == ("item:toque",) and m.state.deck == ("item:bottle",)
    m.apply("bad", "roll [speed speed speed speed speed]")
    m.apply("bad", "matthew move f4 throw w pay speed")  # draws the bottle and throws it
    follow(m)
    assert m.state.deck == () and m.state.discard == ("item:bottle",)
    m.apply("bad", "end")
    m.apply("good", "roll [guts guts guts guts guts]")
    m.apply("good", "end")
    m.apply("bad", "roll [speed speed speed speed speed]")
    m.apply("bad", "matthew move f5 pay speed")
    assert m.state.pending is None and m.state.discard == ("item:bottle",)
    assert m.game.rules.get("SP-HOUSE-ITEM-DECK").source == "house"
