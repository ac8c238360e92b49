"""Every worked example of the rulebook, built as a position and played through Match."""

from __future__ import annotations

import pytest

from arbiter.core.errors import RuleViolation
from sp_helpers import battle, ch, to_good_turn

NO_OBJECTS: dict = {}


def test_ko_punch_chain_knocks_the_chick_back_two():
    """Core Concepts: Damage and Knockback — Scott's K.O. Punch on Matthew."""
    m = battle({"scott": "e4", "matthew": "f4", "chick1": "h4"}, objects=NO_OBJECTS,
               boards={"scott": {"starter": ["shadow-kick", "judo-throw", "ko-punch"]}})
    to_good_turn(m, "will guts speed speed speed")
    m.apply("good", "scott ko-punch matthew pay will guts")
    assert ch(m, "matthew").health == 33  # 2 damage
    assert ch(m, "scott").xp == 1  # and 1 XP
    assert ch(m, "matthew").pos == "i4"  # three spaces away from Scott
    assert ch(m, "chick1").pos == "j4"  # the Chick in the path goes two spaces
    assert not ch(m, "chick1").poofed  # knockback alone does not poof her
    spent = [d for d in m.state.dice if d.spent]
    assert sorted(d.face for d in spent) == ["guts", "will"]


def test_ko_punch_extra_will_adds_two_damage():
    m = battle({"scott": "e4", "matthew": "f4"}, objects=NO_OBJECTS,
               boards={"scott": {"starter": ["ko-punch"]}})
    to_good_turn(m, "will will guts speed speed")
    m.apply("good", "scott ko-punch matthew extra 1 pay will guts will")
    assert ch(m, "matthew").health == 31
    with pytest.raises(RuleViolation) as e:
        m.apply("good", "scott ko-punch matthew extra 2")
    assert e.value.rule_id == "SP-EXTRA-DICE"


def test_judo_throw_into_the_wall():
    """Knocking Into the Wall — Judo Throw knocks Matthew 5 but the wall is 3 away."""
    m = battle({"scott": "g4", "matthew": "h4"}, objects=NO_OBJECTS)
    to_good_turn(m, "guts guts speed speed speed")
    events = m.apply("good", "scott judo-throw matthew pay guts guts")
    assert ch(m, "matthew").pos == "k4"  # stops on the space touching the wall
    assert ch(m, "matthew").health == 33  # 1 damage + 1 for the wall, only 1 for the wall
    walls = [e for e in events if type(e).__name__ == "KnockedBack" and e.wall]
    assert len(walls) == 1
    assert ch(m, "scott").xp == 1


def test_judo_throw_with_a_chick_in_the_path_poofs_her_in_the_wall():
    """The same with a Chick in Matthew's path: she hits the wall, takes 1 and poofs;
    Matthew ends in the space where she was."""
    m = battle({"scott": "g4", "matthew": "h4", "chick1": "j4"}, objects=NO_OBJECTS)
    to_good_turn(m, "guts guts speed speed speed")
    m.apply("good", "scott judo-throw matthew")
    assert ch(m, "chick1").poofed and ch(m, "chick1").pos is None
    assert ch(m, "matthew").pos == "k4"
    assert ch(m, "matthew").health == 33  # Judo 1 + the wall 1
    # at the end of the Bad Guys' next turn Matthew summons her within two spaces
    m.apply("good", "end")
    m.apply("bad", "roll [speed speed speed speed speed]")
    m.apply("bad", "end")
    c1 = ch(m, "chick1")
    assert not c1.poofed and c1.pos is not None
    from arbiter.core.scott_pilgrim.board import dist
    assert dist(c1.pos, ch(m, "matthew").pos) <= 2


def test_teammates_take_wall_damage_but_not_direct_damage():
    m = battle({"scott": "j4", "ramona": "k4", "matthew": "a8"}, roster="scott,ramona",
               objects=NO_OBJECTS)
    to_good_turn(m, "will will guts speed speed")
    with pytest.raises(RuleViolation) as e:
        m.apply("good", "scott punch ramona")
    assert e.value.rule_id == "SP-NO-TEAM-DAMAGE"


def test_ramona_powered_up_punch():
    """Punch or Kick — Ramona spends two Will dice: 2 damage and 1 XP."""
    m = battle({"ramona": "e4", "matthew": "f4"}, roster="ramona", objects=NO_OBJECTS)
    to_good_turn(m, "will will guts speed speed")
    m.apply("good", "ramona punch matthew power pay will will")
    assert ch(m, "matthew").health == 33
    assert ch(m, "ramona").xp == 1
    assert ch(m, "matthew").pos == "f4"  # a punch has no knockback


def test_mic_swing_poofs_two_chicks():
    """Ranged Abilities — Stephen's Mic Swing: each Chick within 3 takes 1 and poofs."""
    m = battle({"stephen": "e4", "chick1": "g6", "chick2": "h4", "matthew": "k8",
                "chick3": "k1"}, roster="stephen", objects={"table-1": "f4"})
    to_good_turn(m, "guts speed will will will")
    m.apply("good", "stephen mic-swing pay guts speed")
    assert ch(m, "chick1").poofed and ch(m, "chick2").poofed
    assert not ch(m, "chick3").poofed  # too far
    assert ch(m, "matthew").health == 35  # out of reach; damaging Chicks never hurts him
    assert ch(m, "stephen").xp == 1


def test_drum_stick_boomerang_three_spaces_diagonally():
    """Ranged Abilities — Kim's Drum Stick Boomerang with any two dice, range ignores blockers."""
    m = battle({"kim": "c2", "matthew": "f5", "chick1": "k8"}, roster="kim",
               objects={"table-1": "d3"})
    to_good_turn(m, "will speed guts guts guts")
    m.apply("good", "kim drum-stick-boomerang matthew pay will speed")
    assert ch(m, "matthew").health == 34
    assert ch(m, "kim").xp == 1
    with pytest.raises(RuleViolation) as e:
        m.apply("good", "kim drum-stick-boomerang chick1")
    assert e.value.rule_id == "SP-RANGE"


def test_good_guys_turn_with_the_reroll():
    """Phase One — Erica (Ramona, Kim) and Bob (Scott, Knives) roll, reroll the three Will,
    Scott moves 3 and punches, Knives Swift Kicks with Guts + Health as a wild Speed, one
    Guts is left, and Ramona and Kim gain a booster each."""
    m = battle({"scott": "d4", "knives": "h6", "ramona": "a4", "kim": "a6",
                "matthew": "h4", "chick1": "i7", "chick2": "k1", "chick3": "k2"},
               roster="ramona,kim,scott,knives", seats=("erica", "bob", "matt"),
               objects=NO_OBJECTS)
    m.apply("matt", "roll [speed speed speed speed speed]")
    m.apply("matt", "end")
    assert set(m.to_act().seats) == {"erica", "bob"}
    m.apply("bob", "roll [will will will guts speed]")
    m.apply("bob", "reroll will [health guts will]")
    faces = sorted(d.face for d in m.state.dice)
    assert faces == ["guts", "guts", "health", "speed", "will"]
    with pytest.raises(RuleViolation) as e:
        m.apply("erica", "reroll guts")
    assert e.value.rule_id == "SP-REROLL-ONCE"
    m.apply("bob", "scott move e4 f4 g4 pay speed")
    m.apply("bob", "scott punch matthew pay will")
    assert ch(m, "matthew").health == 34
    m.apply("bob", "knives swift-kick chick1 pay guts health")
    assert ch(m, "chick1").poofed
    left = [d.face for d in m.state.dice if not d.spent]
    assert left == ["guts"]
    with pytest.raises(RuleViolation) as e:
        m.apply("erica", "scott punch matthew")
    assert e.value.rule_id == "SP-YOUR-CHARACTERS"
    m.apply("erica", "end")
    assert ch(m, "ramona").boosters == 1 and ch(m, "kim").boosters == 1
    assert ch(m, "scott").boosters == 0 and ch(m, "knives").boosters == 0


def test_knives_grabs_and_throws_the_speaker():
    """Grab an Object / Throw — Knives grabs the adjacent speaker, throws it at Matthew
    three spaces away diagonally: 1 damage, 1 knockback, the speaker flips, 1 XP."""
    m = battle({"knives": "c4", "matthew": "f7"}, roster="knives",
               objects={"speaker-1": "c3"})
    to_good_turn(m, "will speed guts guts guts")
    m.apply("good", "knives grab speaker-1 pay will")
    assert ch(m, "knives").holding == "speaker-1"
    m.apply("good", "knives throw ne")
    assert ch(m, "matthew").health == 34
    assert ch(m, "matthew").pos == "g8"  # knocked back one space along the throw
    sp = m.state.objects["speaker-1"]
    assert sp.damaged and sp.pos == "f7"  # lands where Matthew was knocked out of
    assert ch(m, "knives").xp == 1
    assert ch(m, "knives").holding is None


def test_scott_throws_a_speaker_for_one_xp():
    """Gaining XP — Scott picks up and throws a speaker: 1 damage, 1 XP."""
    m = battle({"scott": "c4", "matthew": "c7"}, objects={"speaker-1": "b4"})
    to_good_turn(m, "will speed guts guts guts")
    m.apply("good", "scott grab speaker-1")
    m.apply("good", "scott throw n")
    assert ch(m, "matthew").health == 34 and ch(m, "scott").xp == 1
    assert ch(m, "matthew").pos == "c8"


def test_fireballs_with_the_chicks():
    """Matthew spends two Magic dice for Fireballs: 2 to Stephen, each Chick 1 to a Good
    Guy in her sight, Matthew gains 1 XP."""
    m = battle({"matthew": "h3", "stephen": "c3", "scott": "e6", "knives": "e1",
                "chick1": "h6", "chick2": "g1", "chick3": "k4"},
               roster="scott,stephen,knives", objects=NO_OBJECTS)
    m.apply("bad", "roll [speed will magic magic guts]")
    m.apply("bad", "matthew fireballs stephen chick1:scott chick2:knives pay magic magic")
    assert m.to_act().kind == "reaction"
    m.apply("good", "allow")
    assert ch(m, "stephen").health == 18  # 20 - 2
    assert ch(m, "scott").health == 19 and ch(m, "knives").health == 19
    assert ch(m, "matthew").xp == 1


def test_fireballs_needs_sight():
    m = battle({"matthew": "h3", "stephen": "c3", "chick1": "e3"}, roster="stephen",
               objects=NO_OBJECTS)
    m.apply("bad", "roll [speed will magic magic guts]")
    with pytest.raises(RuleViolation) as e:
        m.apply("bad", "matthew fireballs stephen")
    assert e.value.rule_id in ("SP-LINE-OF-SIGHT", "SP-TARGET-ENEMY")


def test_matthew_moves_and_the_chicks_follow():
    """Matthew moves two spaces left; each Chick also moves two, in various directions."""
    m = battle({"matthew": "i4", "chick1": "i6", "chick2": "i2", "chick3": "j4"},
               objects=NO_OBJECTS)
    m.apply("bad", "roll [will speed speed speed speed]")
    m.apply("bad", "matthew move h4 g4 pay will")
    assert ch(m, "matthew").pos == "g4"
    with pytest.raises(RuleViolation) as e:  # the Chicks' move comes first (a house reading)
        m.apply("bad", "end")
    assert e.value.rule_id == "SP-HOUSE-CHICK-MOVE"
    m.apply("bad", "chick1 move h7 g8")
    with pytest.raises(RuleViolation) as e:  # the same number of spaces, not fewer
        m.apply("bad", "chick2 move h1")
    assert e.value.rule_id == "SP-CHICK-MOVE"
    with pytest.raises(RuleViolation) as e:  # nor more
        m.apply("bad", "chick2 move h1 g1 f1")
    assert e.value.rule_id == "SP-CHICK-MOVE"
    m.apply("bad", "chick2 move h1 g1")
    m.apply("bad", "chick3 move j5 j4")  # any adjacent space each step: back and forth
    assert ch(m, "chick1").pos == "g8" and ch(m, "chick2").pos == "g1" and ch(m, "chick3").pos == "j4"
    assert m.state.follow == {}
    with pytest.raises(RuleViolation) as e:
        m.apply("bad", "chick2 move f1")
    assert e.value.rule_id == "SP-CHICK-MOVE"


def test_air_juggle_three_damage_and_three_more_per_extra_will():
    """Scott's board: "Air Juggle (cost: Speed + Will): Deal 3 damage to an adjacent Bad Guy,
    +3 damage per extra Will spent." With the team's five dice, at most three Will are left
    to spend as extras (SP-EXTRA-DICE); the ability earns 1 XP."""
    m = battle({"scott": "e4", "matthew": "f4"}, objects=NO_OBJECTS,
               boards={"scott": {"starter": ["air-juggle"]}})
    to_good_turn(m, "speed will will will will")
    with pytest.raises(RuleViolation) as e:
        m.apply("good", "scott air-juggle matthew extra 4")
    assert e.value.rule_id == "SP-EXTRA-DICE"
    m.apply("good", "scott air-juggle matthew extra 3")
    assert ch(m, "matthew").health == 35 - 3 - 3 * 3
    assert ch(m, "scott").xp == 1 and not [d for d in m.state.dice if not d.spent]
