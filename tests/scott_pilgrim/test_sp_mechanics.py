"""Every mechanic of the battle, played through the public Match interface."""

from __future__ import annotations

import copy
import json

import msgspec
import pytest

from arbiter.core.errors import BadContent, BadOption, ParseError, RuleViolation
from arbiter.core.match import Match
from arbiter.core.scott_pilgrim import GAME
from sp_helpers import battle, ch, follow, to_good_turn

NONE: dict = {}


def rule(m, seat, text):
    with pytest.raises(RuleViolation) as e:
        m.apply(seat, text)
    return e.value.rule_id


# -- setup ------------------------------------------------------------------------------

@pytest.mark.parametrize("diff,n,hp", [("easy", 1, 80), ("normal", 2, 30), ("hard", 3, 14),
                                       ("normal", 4, 15), ("easy", 4, 20)])
def test_starting_health_table(diff, n, hp):
    roster = ",".join(["scott", "ramona", "knives", "kim"][:n])
    m = Match.new(GAME, seed=1, seats=["a", "b"], options={"good_guys": roster, "difficulty": diff})
    goods = [c for c in m.state.chars.values() if c.team == "good"]
    assert len(goods) == n and all(c.health == hp for c in goods)
    assert m.state.chars["matthew"].health == 35
    assert len(m.state.hand) == n  # one item per Good Guy
    assert len(m.state.deck) == 33 - n


def test_three_players_split_the_good_guys_and_bad_guys_go_first():
    m = Match.new(GAME, seed=1, seats=["a", "b", "c"])
    assert [m.state.control[c] for c in ("scott", "ramona", "knives", "stephen")] == ["a", "a", "b", "b"]
    assert all(m.state.control[c] == "c" for c in ("matthew", "chick1", "chick2", "chick3"))
    # setup: the Good Guys place first, behind the stage-side start line
    assert m.to_act().seats == ("a", "b")
    assert rule(m, "c", "place matthew j4") == "SP-PLACE-ORDER"  # the Good Guys place first
    assert rule(m, "a", "place scott e4") == "SP-PLACE-START-LINE"
    assert rule(m, "a", "place knives a1") == "SP-YOUR-CHARACTERS"  # b plays Knives
    assert rule(m, "a", "roll") == "SP-PLACE-SETUP"
    m.apply("a", "place scott b5")
    assert rule(m, "a", "place scott b6") == "SP-PLACE-ONCE"  # each character is placed once
    assert rule(m, "a", "place ramona b5") == "SP-PLACE-EMPTY"
    m.apply("a", "place default")
    assert m.to_act().seats == ("b",)
    m.apply("b", "place knives a1")
    m.apply("b", "place stephen a8")
    # then Matthew behind the seating side's line, his Chicks within two spaces of him
    assert m.to_act().seats == ("c",)
    assert rule(m, "c", "place chick1 j5") == "SP-PLACE-CHICKS"
    m.apply("c", "place matthew j2")
    assert rule(m, "c", "place chick1 j5") == "SP-PLACE-CHICKS"
    assert rule(m, "c", "place chick1 i2") == "SP-PLACE-START-LINE"
    m.apply("c", "place chick1 k4")
    m.apply("c", "place default")
    s = m.state
    assert all(v.pos for v in s.chars.values())
    from arbiter.core.scott_pilgrim.board import dist
    assert all(dist(s.chars[c].pos, "j2") <= 2 and s.chars[c].pos[0] in "jk" for c in ("chick2", "chick3"))
    assert s.chars["ramona"].pos[0] in "ab"
    assert m.to_act().seats == ("c",) and s.round == 1 and s.team == "bad"
    assert rule(m, "c", "matthew move i4") == "SP-ROLL-FIRST"
    assert rule(m, "c", "place chick1 k3") == "SP-PLACE-SETUP"


def test_bad_options_and_content_are_refused():
    with pytest.raises(BadOption):
        Match.new(GAME, seed=1, seats=["a", "b"], options={"good_guys": "scott,wallace"})
    with pytest.raises(BadOption):
        Match.new(GAME, seed=1, seats=["a", "b"], options={"good_guys": "scott,ramona,kim,knives,stephen"})
    with pytest.raises(BadOption):
        Match.new(GAME, seed=1, seats=["a", "b"], options={"difficulty": "nightmare"})
    bad = copy.deepcopy(GAME.default_content())
    bad["dice"]["red"][0] = "vegan"
    with pytest.raises(BadContent, match="unknown faces"):
        Match.new(GAME, seed=1, seats=["a", "b"], content=bad)
    bad = copy.deepcopy(GAME.default_content())
    bad["characters"]["scott"]["start"] = "z9"
    with pytest.raises(BadContent, match="not a space"):
        Match.new(GAME, seed=1, seats=["a", "b"], content=bad)


def test_content_is_labelled():
    c = GAME.default_content()
    assert len(c["items"]) == 33
    assert sum(1 for i in c["items"] if i["source"] == "rulebook") == 4
    assert sum(1 for i in c["items"] if i["source"] == "house") == 29
    assert len(c["venue"]["objects"]) == 10
    assert all("source" in a for a in c["abilities"].values())
    assert c["characters"]["scott"]["source"] == "rulebook"
    opts = {o.name: o for o in GAME.options}
    assert opts["judo_throw_knockback"].default == 5 and opts["ko_punch_knockback"].default == 3
    for o in GAME.options:
        assert o.rule in GAME.rules


# -- dice -------------------------------------------------------------------------------

def test_roll_once_and_reroll_once():
    m = battle({"scott": "c4", "matthew": "j4"}, objects=NONE)
    m.apply("bad", "roll [speed speed magic magic will]")
    assert rule(m, "bad", "roll [speed speed magic magic will]") == "SP-ROLL-ONCE"
    assert rule(m, "bad", "reroll guts [speed]") == "SP-REROLL-FACE"
    m.apply("bad", "reroll speed [will guts]")
    assert [d.face for d in m.state.dice] == ["will", "guts", "magic", "magic", "will"]
    assert rule(m, "bad", "reroll magic [will will]") == "SP-REROLL-ONCE"


def test_health_dice_are_wild_for_good_guys_only():
    m = battle({"scott": "e4", "matthew": "f4"}, objects=NONE)
    m.apply("bad", "roll [health health health health health]")
    assert rule(m, "bad", "matthew punch scott pay health") == "SP-DICE-COST"
    m.apply("bad", "end")
    m.apply("good", "roll [health guts guts guts guts]")
    m.apply("good", "scott punch matthew pay health")
    assert ch(m, "matthew").health == 34


def test_magic_is_wild_or_two_health_for_matthew():
    m = battle({"scott": "e4", "matthew": "f4"}, objects=NONE)
    m.apply("bad", "roll [guts guts magic magic magic]")
    m.apply("bad", "matthew punch scott pay magic")
    m.apply("good", "allow")
    assert ch(m, "scott").health == 59
    assert rule(m, "bad", "matthew recover") == "SP-RECOVER-CAP"


# -- moving and pushing -----------------------------------------------------------------

def test_move_costs_and_bonuses():
    m = battle({"scott": "c4", "ramona": "c6", "matthew": "k8"}, roster="scott,ramona", objects=NONE)
    to_good_turn(m, "speed will guts guts speed")
    assert rule(m, "good", "scott move d4 e4 f4 g4 pay speed") == "SP-MOVE-SPACES"
    m.apply("good", "ramona move d6 e6 f6 g6 pay speed")  # Ramona's Speed bonus: 4
    m.apply("good", "scott move d4 e4 pay will")
    assert rule(m, "good", "scott move g4") == "SP-MOVE-ADJACENT"
    assert ch(m, "ramona").pos == "g6"


def test_pushing_one_space_and_no_squishing():
    m = battle({"scott": "j4", "matthew": "k4", "chick1": "j6"}, objects={"amp": "j5"})
    to_good_turn(m, "speed speed guts guts will")
    assert rule(m, "good", "scott move k4 pay speed") == "SP-PUSH-SQUISH"  # Matthew is by the wall
    assert ch(m, "matthew").pos == "k4" and ch(m, "matthew").health == 35
    m.apply("good", "scott move j5 pay speed")  # pushes the amp, which pushes the Chick
    assert m.state.objects["amp"].pos == "j6" and ch(m, "chick1").pos == "j7"
    assert ch(m, "scott").pos == "j5"
    assert not m.state.objects["amp"].damaged and not ch(m, "chick1").poofed


def test_no_squishing_an_object_into_the_wall_either():
    """SP-HOUSE-SQUISH-OBJECT: "You cannot move into a space with another character if it would
    push them into a wall" names characters; an object by the wall has nowhere to go either,
    so the house reading refuses that move too (and cites itself, not the rulebook's rule)."""
    m = battle({"scott": "j4", "matthew": "a8"}, objects={"amp": "k4"})
    to_good_turn(m, "speed speed guts guts will")
    assert rule(m, "good", "scott move k4 pay speed") == "SP-HOUSE-SQUISH-OBJECT"
    assert m.state.objects["amp"].pos == "k4" and ch(m, "scott").pos == "j4"


# -- punching, objects ------------------------------------------------------------------

def test_punching_while_holding_an_object_is_awkward():
    m = battle({"scott": "c4", "matthew": "c6"}, objects={"amp": "c5"})
    to_good_turn(m, "will will will speed speed")
    m.apply("good", "scott grab amp")
    m.apply("good", "scott move c5 pay speed")
    assert rule(m, "good", "scott punch matthew") == "SP-HELD-AWKWARD"
    assert rule(m, "good", "scott judo-throw matthew") == "SP-HELD-AWKWARD"
    m.apply("good", "scott move c4 pay speed")  # moving while holding is fine


def test_held_objects_shield_their_holder():
    m = battle({"scott": "c4", "matthew": "d4"}, objects={"table-1": "c3"})
    to_good_turn(m, "will will will speed speed")
    m.apply("good", "scott grab table-1")
    m.apply("good", "end")
    m.apply("bad", "roll [will will guts guts guts]")
    m.apply("bad", "matthew punch scott")
    m.apply("good", "allow")
    assert ch(m, "scott").health == 60 and ch(m, "scott").holding is None
    t = m.state.objects["table-1"]
    assert t.damaged and t.pos is not None


def test_objects_flip_then_leave_and_the_mic_stand_leaves_at_once():
    m = battle({"scott": "c4", "matthew": "k8"}, objects={"table-1": "c5", "mic-stand": "d4"})
    to_good_turn(m, "will will speed speed speed")
    m.apply("good", "scott punch table-1")
    assert m.state.objects["table-1"].damaged and m.state.objects["table-1"].pos == "c5"
    m.apply("good", "scott punch table-1")
    assert m.state.objects["table-1"].gone
    m.apply("good", "scott kick mic-stand")
    assert m.state.objects["mic-stand"].gone


def test_boosters_pay_basic_abilities_only():
    m = battle({"scott": "c4", "ramona": "a8", "matthew": "k8"}, roster="scott,ramona", objects=NONE)
    to_good_turn(m, "will speed guts guts guts")
    m.apply("good", "scott move d4 pay speed")
    m.apply("good", "end")  # Ramona did not act: a booster
    assert ch(m, "ramona").boosters == 1 and ch(m, "scott").boosters == 0
    for _ in range(5):
        m.apply("bad", "roll [speed speed speed speed speed]")
        m.apply("bad", "end")
        m.apply("good", "roll [guts guts guts guts guts]")
        m.apply("good", "end")
    assert ch(m, "ramona").boosters == 4  # at most four
    m.apply("bad", "roll [speed speed speed speed speed]")
    m.apply("bad", "end")
    m.apply("good", "roll [guts guts guts guts guts]")
    m.apply("good", "ramona move a7 b6 pay booster")
    assert ch(m, "ramona").boosters == 3
    assert rule(m, "good", "ramona too-much-drama-kick matthew pay booster booster") in (
        "SP-BOOSTER-USE", "SP-ADJACENT")


def test_recover_health_up_to_the_start():
    m = battle({"scott": "e4", "matthew": "f4"}, objects=NONE)
    assert rule(m, "bad", "end") == "SP-ROLL-FIRST"
    m.apply("bad", "roll [will will guts guts guts]")
    m.apply("bad", "matthew punch scott power")
    m.apply("good", "allow")
    assert ch(m, "scott").health == 58
    m.apply("bad", "end")
    m.apply("good", "roll [health health guts guts guts]")
    assert rule(m, "good", "scott recover pay guts") == "SP-RECOVER"
    m.apply("good", "scott recover")
    assert rule(m, "good", "scott recover") == "SP-RECOVER-CAP"
    assert ch(m, "scott").health == 60


# -- items ------------------------------------------------------------------------------

def test_good_guys_draw_items_moving_onto_item_spaces_once_per_turn():
    m = battle({"scott": "e4", "matthew": "k8"}, objects=NONE)
    to_good_turn(m, "speed speed guts guts guts")
    hand = len(m.state.hand)
    m.apply("good", "scott move f4 f5 pay speed")  # two item spaces, one draw
    assert len(m.state.hand) == hand + 1
    m.apply("good", "scott move e5 f6 pay speed")
    assert len(m.state.hand) == hand + 1


def test_an_evil_ex_draws_and_throws_an_item_for_one_damage():
    m = battle({"matthew": "g4", "scott": "c4"}, objects=NONE)
    m.apply("bad", "roll [speed speed guts guts guts]")
    deck = len(m.state.deck)
    m.apply("bad", "matthew move f4 pay speed")
    assert m.state.pending.kind == "ex-throw"
    card = m.state.pending.card
    assert rule(m, "bad", "matthew move e4") == "SP-HOUSE-EX-THROW-AFTER"
    m.apply("bad", "matthew throw-item w")
    assert ch(m, "scott").health == 59  # 1 damage whatever the card says
    assert card in m.state.discard and len(m.state.deck) == deck - 1
    follow(m)  # the Chicks follow Matthew's one space
    m.apply("bad", "matthew move f5 pay speed")  # once per turn
    assert m.state.pending is None


def test_chicks_cannot_grab_items():
    m = battle({"matthew": "j4", "chick1": "g4", "scott": "a8"}, objects=NONE)
    m.apply("bad", "roll [speed speed guts guts guts]")
    m.apply("bad", "matthew move i4 pay speed")
    deck = len(m.state.deck)
    m.apply("bad", "chick1 move f4")
    assert len(m.state.deck) == deck and m.state.pending is None


def test_pause_cancels_a_bad_guys_ability_and_is_hidden_until_used():
    m = battle({"scott": "e4", "matthew": "f4"}, objects=NONE, items=["pause-controller", "brick"])
    tok = "item:pause-controller"
    assert tok in m.state.hand
    assert tok not in json.dumps(msgspec.to_builtins(m.view("bad")))
    assert tok in GAME.projection.hidden_from(m.state, "bad")
    m.apply("bad", "roll [will will guts guts guts]")
    m.apply("bad", "matthew punch scott power")
    assert m.to_act().kind == "reaction" and m.to_act().seats == ("good",)
    assert rule(m, "bad", "matthew punch scott") == "ARB-TURN"
    m.apply("good", "pause")
    assert ch(m, "scott").health == 60  # cancelled
    assert sum(d.spent for d in m.state.dice) == 2  # the dice are still spent
    assert tok in m.state.discard
    assert ch(m, "matthew").xp == 1  # a powered-up punch was still used (cancelled_xp)


def test_pause_without_the_card_is_refused():
    m = battle({"scott": "e4", "matthew": "f4"}, objects=NONE, items=["brick", "bottle"])
    m.apply("bad", "roll [will will guts guts guts]")
    m.apply("bad", "matthew punch scott")
    assert rule(m, "good", "pause") == "SP-PAUSE"
    m.apply("good", "allow")
    assert ch(m, "scott").health == 59


def test_reversal_turns_matthews_punch_back_on_him():
    m = battle({"scott": "e4", "matthew": "f4"}, objects=NONE, items=["xp-boost", "brick"])
    to_good_turn(m, "speed speed guts guts guts")
    m.apply("good", "use xp-boost scott")
    assert ch(m, "scott").combo and ch(m, "scott").level == 1
    m.apply("good", "end")
    m.apply("bad", "roll [will will guts guts guts]")
    m.apply("bad", "matthew punch scott power")
    m.apply("good", "reversal")
    assert ch(m, "scott").health == 60
    assert ch(m, "matthew").health == 33
    assert not ch(m, "scott").combo


def test_equipped_weapons_add_damage_and_can_be_thrown():
    m = battle({"knives": "e4", "matthew": "f4"}, roster="knives", objects=NONE,
               items=["knives-sais"])
    to_good_turn(m, "will will guts guts speed")
    m.apply("good", "equip knives-sais knives")
    m.apply("good", "knives punch matthew")
    assert ch(m, "matthew").health == 33  # 1 + the Sais' +1
    m.apply("good", "knives throw knives-sais e")
    assert ch(m, "matthew").health == 31
    assert "item:knives-sais" in m.state.discard


def test_equipped_items_pass_to_a_teammate_on_knockout():
    m = battle({"scott": "e4", "ramona": "a8", "matthew": "f4"}, roster="scott,ramona",
               objects=NONE, items=["skates", "brick"], difficulty="hard")
    to_good_turn(m, "will will guts guts speed")
    m.apply("good", "equip skates scott")
    m.apply("good", "end")
    while not ch(m, "scott").out:
        m.apply("bad", "roll [will will magic magic magic]")
        for text in ("matthew punch scott power pay will will",
                     "matthew punch scott power pay magic magic", "matthew punch scott pay magic"):
            if ch(m, "scott").out:
                break
            m.apply("bad", text)
            m.apply("good", "allow")
        m.apply("bad", "end")
        if m.outcome() is None:
            m.apply("good", "roll [guts guts guts guts guts]")
            m.apply("good", "end")
    assert ch(m, "scott").pos is None
    assert m.state.equipped["ramona"] == ("item:skates",)
    assert m.outcome() is None  # Ramona still stands


def test_all_good_guys_knocked_out_the_bad_guys_win():
    m = battle({"scott": "e4", "matthew": "f4"}, objects=NONE, difficulty="hard")
    while m.outcome() is None:
        m.apply("bad", "roll [will will magic magic magic]")
        for text in ("matthew punch scott power pay will will",
                     "matthew punch scott power pay magic magic", "matthew punch scott pay magic"):
            if m.outcome() is not None:
                break
            m.apply("bad", text)
            m.apply("good", "allow")
        if m.outcome() is None:
            m.apply("bad", "end")
            m.apply("good", "roll [guts guts guts guts guts]")
            m.apply("good", "end")
    assert m.outcome().winners == ("bad",)


# -- XP, levels, combos, reroll abilities ----------------------------------------------

def test_level_up_unlocks_the_next_ability_and_bass_slam_rerolls():
    m = battle({"scott": "e4", "matthew": "g4", "chick1": "e6"}, objects=NONE, items=["xp-boost", "brick"])
    to_good_turn(m, "guts speed will speed speed")
    assert rule(m, "good", "scott bass-slam") == "SP-ABILITY-LOCKED"
    m.apply("good", "use xp-boost scott")
    before = [(d.id, d.face) for d in m.state.dice if d.id not in ("b1", "b2")]
    m.apply("good", "scott bass-slam pay guts speed [will will health guts speed]")
    assert ch(m, "matthew").health == 35 - (2 + 3)  # +1 per Will, Health counting as Will
    assert ch(m, "chick1").poofed
    after = [(d.id, d.face) for d in m.state.dice if not d.spent]
    assert after == [x for x in before if x[0] not in ("y1", "b2")] or len(after) == 3
    assert all(d.face in ("will", "speed") for d in m.state.dice if not d.spent)  # tracker restored
    assert ch(m, "scott").xp == 1


def test_five_xp_levels_up():
    m = battle({"ramona": "e4", "matthew": "f4"}, roster="ramona", objects=NONE)
    for _ in range(3):
        m.apply("bad", "roll [speed speed speed speed speed]")
        m.apply("bad", "end")
        m.apply("good", "roll [will will speed speed guts]")
        m.apply("good", "ramona punch matthew power pay will will")
        m.apply("good", "ramona kick matthew power pay speed speed")
        m.apply("good", "end")
    r = ch(m, "ramona")
    assert r.level == 1 and r.combo and r.xp == 1


def test_combo_head_butt_spends_the_combo_cube():
    m = battle({"scott": "e4", "matthew": "g4"}, objects=NONE, items=["xp-boost", "brick"])
    to_good_turn(m, "guts speed will speed speed")
    assert rule(m, "good", "scott head-butt matthew via f4") == "SP-COMBO-EMPTY"
    m.apply("good", "use xp-boost scott")
    m.apply("good", "scott head-butt matthew via f4")
    assert ch(m, "matthew").health == 33 and ch(m, "matthew").pos == "i4"
    assert not ch(m, "scott").combo
    assert all(not d.spent for d in m.state.dice)


# -- winning, hidden information, text ---------------------------------------------------

def test_matthew_knocked_out_the_good_guys_win():
    m = battle({"scott": "e4", "matthew": "f4"}, objects=NONE)
    m.state.chars  # noqa: B018
    to_good_turn(m, "will will will will will")
    hp = 35
    while m.outcome() is None:
        m.apply("good", "scott punch matthew power")
        hp -= 2
        if m.outcome() is None and len([d for d in m.state.dice if not d.spent]) < 2:
            m.apply("good", "end")
            m.apply("bad", "roll [speed speed speed speed speed]")
            m.apply("bad", "end")
            m.apply("good", "roll [will will will will will]")
    assert m.outcome().winners == ("good",)
    assert ch(m, "matthew").out


def test_bad_guys_log_never_shows_an_unequipped_item():
    m = Match.new(GAME, seed=3, seats=["good", "bad"])
    secret = GAME.projection.hidden_from(m.state, "bad")
    assert set(m.state.hand) <= secret
    log = json.dumps([msgspec.to_builtins(e) for *_, e in m.log("bad")])
    for tok in m.state.hand:
        assert tok not in log
    assert all(t not in json.dumps(msgspec.to_builtins(m.view("good")).get("deck")) for t in m.state.deck)


def test_parse_errors_and_round_trip():
    m = Match.new(GAME, seed=3, seats=["good", "bad"])
    for bad in ("scott fly", "wallace punch matthew", "scott punch matthew pay beer", "reroll", "end now"):
        with pytest.raises(ParseError):
            m.decide("good", bad)
    for text in ("scott judo-throw matthew via c4 d4 extra 1 pay guts guts", "end summon chick1@i4",
                 "matthew fireballs scott chick1:ramona", "knives throw knives-sais ne",
                 "use garlic-bread scott", "reroll will", "matthew throw-item sw"):
        c = GAME.parse(m.state, "good", text)
        assert GAME.command_text(c) == text


def test_too_much_drama_kick_rerolls_and_counts_speed():
    """Reroll Abilities — Ramona's Too Much Drama Kick counts Speed (and Health) rolled;
    the dice tracker puts the unspent dice back as they were."""
    m = battle({"ramona": "e4", "matthew": "f4"}, roster="ramona", objects=NONE)
    to_good_turn(m, "speed guts will will guts")
    m.apply("good", "ramona too-much-drama-kick matthew pay speed guts [speed health speed guts will]")
    assert ch(m, "matthew").health == 35 - (1 + 3)
    assert ch(m, "matthew").pos == "g4"  # 1 knockback
    assert [d.face for d in m.state.dice if not d.spent] == ["will", "will", "guts"]


def test_when_able_window_opens_only_if_the_good_guys_can_answer():
    m = battle({"scott": "e4", "matthew": "f4"}, objects=NONE, items=["brick", "bottle"],
               reaction_window="when-able")
    m.apply("bad", "roll [will will guts guts guts]")
    m.apply("bad", "matthew punch scott")
    assert m.state.pending is None and ch(m, "scott").health == 59
    m = battle({"scott": "e4", "matthew": "f4"}, objects=NONE, items=["pause-controller"],
               reaction_window="when-able")
    m.apply("bad", "roll [will will guts guts guts]")
    m.apply("bad", "matthew punch scott")
    assert m.to_act().kind == "reaction"


def test_reversal_is_refused_while_scott_holds_an_object():
    m = battle({"scott": "e4", "matthew": "f4"}, objects={"amp": "e5"}, items=["xp-boost"])
    to_good_turn(m, "will will guts guts guts")
    m.apply("good", "use xp-boost scott")
    m.apply("good", "scott grab amp")
    m.apply("good", "end")
    m.apply("bad", "roll [will will guts guts guts]")
    m.apply("bad", "matthew punch scott")
    assert rule(m, "good", "reversal") == "SP-HELD-AWKWARD"
    assert "reversal" not in m.legal_texts("good")
    m.apply("good", "allow")
    assert ch(m, "scott").health == 60  # the amp shields him
    assert m.state.objects["amp"].damaged


def test_teammates_knocked_into_the_wall_take_damage():
    """Even though you cannot damage a teammate directly, a wall still hurts them."""
    m = battle({"scott": "i4", "matthew": "h4", "chick1": "j4"}, objects=NONE)
    m.apply("bad", "roll [speed speed guts guts guts]")
    m.apply("bad", "matthew levitation-kick scott pay guts guts")
    m.apply("good", "allow")
    # Scott is knocked 2 east into the Chick: she goes 2 but the wall stops her at k4
    # (1 damage: she poofs); Scott piles up against the wall too (1 damage) and, once
    # she has poofed, ends in her space
    assert ch(m, "chick1").poofed
    assert ch(m, "scott").health == 60 - 2 - 1 and ch(m, "scott").pos == "k4"


def test_a_chick_knocked_into_the_wall_by_her_own_team_poofs():
    m = battle({"scott": "h4", "matthew": "g4", "chick1": "j4"}, objects=NONE)
    m.apply("bad", "roll [speed speed guts guts guts]")
    m.apply("bad", "matthew levitation-kick scott pay guts guts")
    m.apply("good", "allow")
    # Scott 2 east: i4, then j4 holds the Chick: she is knocked 1 to k4 (no wall yet)
    assert ch(m, "scott").pos == "j4" and ch(m, "chick1").pos == "k4"
    m = battle({"scott": "i4", "matthew": "h4", "chick1": "k4"}, objects=NONE)
    m.apply("bad", "roll [speed speed guts guts guts]")
    m.apply("bad", "matthew levitation-kick scott pay guts guts")
    m.apply("good", "allow")
    assert ch(m, "chick1").poofed  # the wall's damage poofs her
    assert ch(m, "scott").pos == "k4"  # he ends where she was
    assert ch(m, "scott").health == 60 - 2 - 1


def test_an_unpaid_move_spends_speed_first_then_others_then_boosters():
    m = battle({"scott": "c4", "matthew": "k8"}, objects=NONE)
    to_good_turn(m, "will will guts guts speed")
    m.apply("good", "scott move d4 e4 f4")
    assert [d.face for d in m.state.dice if d.spent] == ["speed"]
    m.apply("good", "scott move e5 e6 e7 e8")
    assert sorted(d.face for d in m.state.dice if d.spent) == ["guts", "speed", "will"] or \
        sorted(d.face for d in m.state.dice if d.spent) == ["speed", "will", "will"]
    assert rule(m, "good", "scott move d8 c8 b8 a8 a7") == "SP-MOVE-SPACES"


def test_a_users_content_file_is_checked():
    c = copy.deepcopy(GAME.default_content())
    c["abilities"]["judo-throw"]["knockback"] = "option:nonsense"
    with pytest.raises(BadContent, match="option:NAME"):
        Match.new(GAME, seed=1, seats=["a", "b"], content=c)
    c = copy.deepcopy(GAME.default_content())
    c["items"][7].pop("heal")
    with pytest.raises(BadContent, match="needs 'heal'"):
        Match.new(GAME, seed=1, seats=["a", "b"], content=c)
    c = copy.deepcopy(GAME.default_content())
    c["items"] = c["items"][:10]  # a smaller deck of one's own is fine
    m = Match.new(GAME, seed=1, seats=["a", "b"], content=c)
    assert len(m.state.deck) == 6


def test_round_limit_goes_to_the_larger_share_of_health():
    """House SP-ROUND-LIMIT: at the limit the team keeping more of its starting Health wins."""
    m = battle({"scott": "e4", "matthew": "f4"}, objects=NONE, max_rounds=1)
    to_good_turn(m, "will will speed speed guts")
    m.apply("good", "scott punch matthew power")  # Matthew 33/35 (94%), Scott 60/60
    m.apply("good", "end")
    assert m.state.winner == "good" and "round limit 1" in m.state.reason
    m = battle({"scott": "e4", "matthew": "f4"}, objects=NONE, max_rounds=1)
    m.apply("bad", "roll [will will speed speed guts]")
    m.apply("bad", "matthew punch scott")
    m.apply("good", "allow")  # Scott 59/60 (98%), Matthew 35/35
    m.apply("bad", "end")
    m.apply("good", "roll [speed speed speed speed speed]")
    m.apply("good", "end")
    assert m.state.winner == "bad" and "larger share" in m.state.reason
    m = battle({"scott": "e4", "matthew": "f4"}, objects=NONE, max_rounds=1)
    to_good_turn(m, "speed speed speed speed speed")
    m.apply("good", "end")  # both untouched: a tie goes to the Bad Guys
    assert m.state.winner == "bad" and "tie" in m.state.reason


def test_the_evil_ex_may_throw_at_once_mid_move():
    """Grab and Throw Item: he throws when he moves onto the item space (throw DIR), or,
    by default, once his move is done, from that space."""
    m = battle({"matthew": "g4", "scott": "c4"}, objects=NONE)
    m.apply("bad", "roll [speed speed guts guts guts]")
    assert rule(m, "bad", "matthew move h4 throw w pay speed") == "SP-EX-THROW"
    m.apply("bad", "matthew move f4 e4 throw w pay speed")
    assert m.state.pending is None and ch(m, "scott").health == 59
    assert ch(m, "matthew").pos == "e4" and m.state.ex_threw
    kinds = [type(e).__name__ for *_, e in m.log("referee")][-12:]
    assert kinds.index("Thrown") < len(kinds) - 1 - kinds[::-1].index("Moved")
