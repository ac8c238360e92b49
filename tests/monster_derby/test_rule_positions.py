"""Rule by rule beyond refusals: for each rule id no other test names, the position where
players would argue, played through the public Match and checked against what the rulebook
(or, for a house rule, its stated reading) says. Each test names its rule id."""

from __future__ import annotations

import copy

import pytest

from arbiter.core.errors import ArbiterError, ManualDiceError
from arbiter.core.match import Match
from arbiter.core.monster_derby import GAME
from arbiter.events.monster_derby import (
    Attacked, ControlEnded, Damaged, GameEnded, MonsterControlled, MonsterMoved, Recovered, RoundEnded,
)

from .helpers import control, events_of, finish_turn, mon, rejected, scenario, seat


def new(seed=3, seats=("ann", "bob"), **options):
    return Match.new(GAME, seed=seed, seats=list(seats), options=options)


def att(events):
    return events_of(events, Attacked)


def test_md_setup_boards_a_short_game_uses_fewer_map_boards():
    """MD-SETUP-BOARDS: a starting board plus four map boards; fewer for a short game."""
    default, short = new(), new(boards=2)
    assert default.state.columns == 2 + 4 * 5 and short.state.columns == 2 + 2 * 5


def test_md_setup_monsters_eight_turned_up_on_the_starting_blocks_at_full_hit_points():
    """MD-SETUP-MONSTERS: 8 monsters, on the 8 starting blocks (the 2-column starting board)."""
    m = new(seed=5)
    placed = m.state.monsters
    assert len(placed) == 8 and len({x.space for x in placed.values()}) == 8
    assert all(x.hp == x.max_hp and int(x.space[:-1]) <= 2 for x in placed.values())


def test_md_setup_starter_is_a_roll_not_the_first_seat():
    """MD-SETUP-STARTER: the first round's starting player is determined at random."""
    assert len({new(seed=s, seats=("a", "b", "c")).state.starter for s in range(12)}) > 1


def test_md_round_end_waits_for_every_living_monster_but_not_for_the_dead():
    """MD-ROUND-END: a round ends when every *living* monster was controlled and the marker
    claimed; a monster that died this round is not waited for."""
    m = scenario([("giant", "3c", None), ("hare", "4c", 2), ("golem", "1a", None)])
    s = control(m, "giant", 1)
    m.apply(s, "attack hare [1 0 0 0 0 0 blank]")  # the Hare dies before it was controlled
    finish_turn(m)
    t = seat(m)
    m.apply(t, "roll 1")
    m.apply(t, "take-marker")
    u = seat(m)
    m.apply(u, "roll 1")
    events = m.apply(u, "control golem")
    events += m.apply(u, "move 2a")
    assert events_of(events, RoundEnded) and m.state.round == 2
    assert not mon(m, "giant").turned and not mon(m, "golem").turned


def test_md_attack_dice_path_is_nobodys_native_terrain_not_even_the_cyclops():
    """MD-ATTACK-DICE, read by house rule MD-HOUSE-PATH: one fewer if the defender is in its
    native terrain. The Cyclops is
    "native to all terrains", but the rulebook sets "an empty (tan) path space" apart from
    terrain ("path space or the monster's native terrain"): on path it gives no die away,
    in brush it does."""
    m = scenario([("giant", "3c", None), ("cyclops", "4c", None)])
    s = control(m, "giant", 1)
    assert att(m.apply(s, "attack cyclops [0 0 0 0 0 0 blank 0 0 0 0 blank]"))[0].dice == 6
    m = scenario([("giant", "3c", None), ("cyclops", "4c", None)],
                 rows=[".........", ".........", ".B.......", ".........", "........."])
    s = control(m, "giant", 1)
    with pytest.raises(ManualDiceError):
        m.apply(s, "attack cyclops [0 0 0 0 0 0 blank 0 0 0 0 blank]")
    assert att(m.apply(s, "attack cyclops [0 0 0 0 0 blank 0 0 0 0 blank]"))[0].dice == 5


def test_md_wacky_shield_alone_never_triggers_the_attackers_wacky_attack():
    """MD-WACKY: shield, the wacky defense only; the attacker's poison does not land."""
    m = scenario([("vampire", "3c", None), ("golem", "4c", None)])
    s = control(m, "vampire", 1)
    a = att(m.apply(s, "attack golem [0 0 0 shield]"))[0]
    assert a.wacky_attack == "" and "poison" not in mon(m, "golem").effects


@pytest.mark.parametrize("faces,damage", [("1 1 1 1 blank", 2), ("1 1 1 1 shield", 1)])
def test_md_damage_order_the_attackers_modifiers_come_before_the_defenders(faces, damage):
    """MD-DAMAGE-ORDER / MD-HOUSE-DEFENSE-ORDER: the Mummy halves (its special ability)
    before its wacky defense takes one off: 4 hits -> 2 -> 1 (the other way round: 3 -> 2)."""
    m = scenario([("cyclops", "3c", None), ("mummy", "4c", None)])
    s = control(m, "cyclops", 1)
    assert att(m.apply(s, f"attack mummy [{faces}]"))[0].damage == damage


def test_md_house_defense_order_damage_never_goes_below_zero():
    """MD-HOUSE-DEFENSE-ORDER: one hit halved (rounded up) is 1, minus 1 is 0, not -1."""
    m = scenario([("cyclops", "3c", None), ("mummy", "4c", None)])
    s = control(m, "cyclops", 1)
    a = att(m.apply(s, "attack mummy [0 0 0 0 shield]"))[0]
    assert a.damage == 0 and mon(m, "mummy").hp == mon(m, "mummy").max_hp


def test_md_recover_never_climbs_past_the_top_of_the_card():
    """MD-RECOVER: the clip moves up one, "not past the top": a monster at full hit points
    that does not attack recovers nothing."""
    m = scenario([("giant", "3a", None), ("golem", "3e", None)])
    s = control(m, "giant", 1)
    events = m.apply(s, "move 4a")
    assert mon(m, "giant").hp == 10
    assert all(r.hp <= 10 for r in events_of(events, Recovered))


def test_md_recover_a_monster_one_below_the_top_climbs_exactly_one():
    m = scenario([("giant", "3a", 9), ("golem", "3e", None)])
    s = control(m, "giant", 1)
    m.apply(s, "recover")
    assert mon(m, "giant").hp == 10
    rejected(m, "recover", "MD-ACTION-ONE")


def racers():
    x, y = {"red": 5, "green": 3}, {"yellow": 5, "blue": 3}
    return scenario([("golem", "11a", None), ("giant", "11c", None), ("zombie", "11e", None),
                     ("cyclops", "11b", None), ("troll", "3c", None)],
                    agendas=[x, y], keep={"ann": x, "bob": y})


def test_md_game_end_comes_with_the_third_crossing_not_at_the_end_of_the_round():
    """MD-GAME-END: "immediately" when the third monster crosses; the fourth, ready at the
    line in the same round, never gets to cross."""
    m = racers()
    for mid in ("golem", "giant", "zombie"):
        s = control(m, mid, 1)
        events = m.apply(s, "move finish")
    assert events_of(events, GameEnded) and m.state.finishes == ("golem", "giant", "zombie")
    assert mon(m, "cyclops").status == "racing" and m.legal("ann") == [] == m.legal("bob")


def test_md_scoring_counts_the_agenda_for_finishers_only():
    """MD-SCORING: each agenda scores the finishing monsters; the Cyclops (green) on ann's
    agenda did not finish, so it pays ann nothing."""
    m = racers()
    for mid in ("golem", "giant", "zombie"):
        s = control(m, mid, 1)
        m.apply(s, "move finish")
    assert m.outcome().scores == {"ann": 5.0, "bob": 8.0}


def test_md_megacarnage_the_game_ends_when_no_monster_is_left_racing():
    """MD-MEGACARNAGE: fewer than 3 can finish: the game ends when none is left racing, and
    only finishers score."""
    x, y = {"red": 5, "yellow": 3}, {"yellow": 5, "red": 3}
    m = scenario([("golem", "11a", None), ("giant", "3c", None), ("hare", "4c", 2)],
                 agendas=[x, y], keep={"ann": x, "bob": y})
    s = control(m, "golem", 1)
    m.apply(s, "move finish")  # red finishes
    s = control(m, "giant", 1)
    m.apply(s, "attack hare [1 0 0 0 0 0 blank]")  # the Hare (blue) dies
    assert m.outcome() is None  # the Giant (yellow) is still racing
    while m.outcome() is None:
        if m.state.control is not None:
            finish_turn(m)
            continue
        t = seat(m)
        m.apply(t, "roll 6")
        left = [c for c in m.legal_texts(t) if c.startswith("control")]
        m.apply(t, left[0] if left else "take-marker")
    assert m.outcome().scores["ann"] == 5 + 3 and m.outcome().scores["bob"] == 3 + 5


def test_md_ability_list_content_with_an_ability_off_the_list_is_refused():
    """MD-ABILITY-LIST: only the rulebook's abilities; a card naming another is bad content."""
    c = copy.deepcopy(GAME.default_content())
    c["monsters"][0]["ability"] = "teleport"
    with pytest.raises(ArbiterError) as e:
        Match.new(GAME, seed=1, seats=["ann", "bob"], content=c)
    assert "teleport" in str(e.value)


def test_md_house_layout_named_sides_are_laid_in_order():
    """MD-HOUSE-LAYOUT: name the sides on purpose; they are laid as named."""
    m = new(boards=2, layout="3b,1a")
    assert m.state.layout == ("3b", "1a")


def test_md_house_wacky_a_face_the_die_does_not_have_is_refused():
    """MD-HOUSE-WACKY: with a die of four blanks and two boths there is no sword to roll."""
    m = scenario([("giant", "3c", None), ("golem", "4c", None)], options={"wacky_die": "0-0-2-4"})
    s = control(m, "giant", 1)
    with pytest.raises(ManualDiceError):
        m.apply(s, "attack golem [0 0 0 0 0 0 sword]")
    assert att(m.apply(s, "attack golem [0 0 0 0 0 0 both]"))[0].wacky_defense == "stun"


def test_md_house_graves_block_as_an_option():
    """MD-HOUSE-GRAVES: by default a grave does not block; graves_block=true makes it."""
    for blocks in (False, True):
        m = scenario([("giant", "3c", None), ("hare", "4c", 2), ("golem", "1a", None)],
                     options={"graves_block": blocks})
        s = control(m, "giant", 2)
        m.apply(s, "attack hare [1 0 0 0 0 0 blank]")
        assert ("move 4c" in m.legal_texts(s)) is (not blocks)


def test_md_house_players_three_agendas_each_for_eight_players():
    """MD-HOUSE-PLAYERS: 2 to 8 players, 3 agendas each (24 of the 25 cards)."""
    m = new(seats=tuple(f"p{i}" for i in range(8)))
    dealt = [c for s in m.seats for c in m.state.dealt[s]]
    assert all(len(m.state.dealt[s]) == 3 for s in m.seats) and len(set(dealt)) == 24


def test_md_house_grid_three_spaces_ahead_of_an_odd_and_an_even_lane():
    """MD-HOUSE-GRID: every space has three spaces ahead, lanes offset by half a space."""
    for start in ("3c", "3b"):
        m = scenario([("giant", start, None), ("golem", "1a", None)])
        s = control(m, "giant", 1)
        ahead = {t for t in m.legal_texts(s) if t.startswith("move ")}
        assert len(ahead) == 3, ahead


def test_md_house_lanes_four_lanes_have_no_lane_e():
    """MD-HOUSE-LANES: option lanes uses fewer, at least 4."""
    m = scenario([("giant", "3d", None), ("golem", "1a", None)], options={"lanes": 4})
    s = control(m, "giant", 1)
    assert not any(t.endswith("e") for t in m.legal_texts(s) if t.startswith("move"))
    with pytest.raises(ArbiterError):
        new(lanes=3)


def test_md_house_content_is_marked_as_house():
    """MD-HOUSE-CONTENT: 25 monster cards, 8 double-sided boards, 25 agendas."""
    c = GAME.default_content()
    assert (len(c["monsters"]), len(c["boards"]), len(c["agendas"])) == (25, 8, 25)
    assert all(len(b["sides"]) == 2 for b in c["boards"])


def test_md_house_finish_costs_one_point_and_a_flyer_may_fly_off_with_points_to_spare():
    """MD-HOUSE-FINISH: stepping off the last board costs 1 point."""
    m = scenario([("giant", "10c", None), ("golem", "1a", None)])
    s = control(m, "giant", 1)
    assert "move finish" not in m.legal_texts(s)  # one point: to column 11, not beyond
    m2 = scenario([("gargoyle", "10c", None), ("golem", "1a", None)])
    s = control(m2, "gargoyle", 6)
    events = m2.apply(s, "fly finish")
    assert mon(m2, "gargoyle").status == "finished" and events_of(events, ControlEnded)


def test_md_house_fly_attack_never_in_the_air():
    """MD-HOUSE-FLY-ATTACK: a flyer attacks before take-off or after landing; flying over a
    monster gives no attack on it."""
    m = scenario([("gargoyle", "3c", None), ("giant", "4c", None), ("zombie", "1a", None)])
    s = control(m, "gargoyle", 6)
    m.apply(s, "attack giant [0 0 0 blank]")  # before take-off
    m.apply(s, "fly 9c")
    assert mon(m, "gargoyle").space == "9c" and m.state.control is None
    m = scenario([("gargoyle", "3c", None), ("giant", "5c", None), ("zombie", "1a", None)])
    s = control(m, "gargoyle", 6)
    assert "attack giant" not in m.legal_texts(s)
    events = m.apply(s, "fly 9c")  # over the Giant: no attack on the way
    assert not att(events) and events_of(events, ControlEnded)


def test_md_house_auto_end_the_turn_ends_by_itself_and_it_recovers():
    """MD-HOUSE-AUTO-END: nothing left to choose (points spent, nobody to attack): the turn
    ends by itself, recovering since it did not attack."""
    m = scenario([("giant", "3c", 7), ("golem", "1a", None)])
    s = control(m, "giant", 1)
    events = m.apply(s, "move 4c")
    assert events_of(events, ControlEnded) and events_of(events, Recovered)
    assert mon(m, "giant").hp == 8 and m.state.control is None


def test_md_house_poison_can_kill_when_next_controlled():
    """MD-HOUSE-POISON: the poisoned monster loses 1 hit point first when next controlled."""
    m = scenario([("vampire", "3c", None), ("golem", "4c", 1)])
    s = control(m, "vampire", 1)
    m.apply(s, "attack golem [0 0 0 sword]")
    finish_turn(m)
    t = seat(m)
    m.apply(t, "roll 1")
    events = m.apply(t, "control golem")
    assert [d.cause for d in events_of(events, Damaged)] == ["poison"]
    assert mon(m, "golem").status == "dead" and m.state.control is None
    # the control event does not claim that the monster the poison kills may act
    [taken] = events_of(events, MonsterControlled)
    assert (taken.points, taken.can_move, taken.can_attack) == (0, False, False)


def test_md_house_stun_as_wacky_attack_stops_the_counter_strike_and_wears_off():
    """MD-HOUSE-STUN: a defender stunned by the wacky attack cannot counter-strike; the stun
    wears off when the turn ends."""
    m = scenario([("medusa", "3c", None), ("yeti", "4c", None)])
    s = control(m, "medusa", 1)
    events = m.apply(s, "attack yeti [1 0 0 sword]")
    assert [a.kind for a in att(events)] == ["attack"]
    assert "stun" in mon(m, "yeti").effects
    finish_turn(m)
    assert "stun" not in mon(m, "yeti").effects


def test_md_house_dodge_against_the_both_face_cancels_the_wacky_attack():
    """MD-HOUSE-DODGE: against "both", the dodge comes first: no damage and no Rage."""
    m = scenario([("giant", "3c", None), ("hare", "4c", None)])
    s = control(m, "giant", 1)
    a = att(m.apply(s, "attack hare [1 1 1 1 1 0 both]"))[0]
    assert (a.damage, a.wacky_attack, a.wacky_defense) == (0, "", "dodge")
    assert "rage" not in mon(m, "giant").effects and mon(m, "hare").hp == 6


def test_md_house_counter_a_counter_strike_is_never_counter_struck():
    """MD-HOUSE-COUNTER: the Cyclops counter-strikes the Vampire, which does not answer."""
    m = scenario([("vampire", "3c", None), ("cyclops", "4c", None)])
    s = control(m, "vampire", 1)
    events = m.apply(s, "attack cyclops [0 0 0 blank 0 0 0 0 blank]")
    assert [(a.attacker, a.kind) for a in att(events)] == [("vampire", "attack"), ("cyclops", "counter")]


@pytest.mark.parametrize("hp, countered", [(6, False), (7, True)])
def test_md_house_counter_a_defender_left_in_the_red_does_not_counter_strike(hp, countered):
    """MD-HOUSE-COUNTER: "If it is conscious and unstunned after this attack" (Counter-Strike):
    the Hydra's wacky defense strikes back from 5 hit points, not from 4."""
    m = scenario([("giant", "3c", None), ("hydra", "4c", hp), ("golem", "1a", None)])
    s = control(m, "giant", 1)
    events = m.apply(s, "attack hydra [1 0 0 0 0 0 shield 0 0 0 blank]" if countered
                     else "attack hydra [1 0 0 0 0 0 shield]")
    assert mon(m, "hydra").hp == hp - 2  # 1 hit, +1 Damage
    assert [a.kind for a in att(events)] == (["attack", "counter"] if countered else ["attack"])


def test_md_house_red_mid_turn_a_monster_put_in_the_red_moves_on_but_walks_and_attacks_no_more():
    """MD-HOUSE-RED-MID-TURN: "If a monster's hit points go to 4 or less that monster may only
    take "recover" actions" (Damage): the Gargoyle, counter-struck to 3, walks its 3 points."""
    m = scenario([("gargoyle", "3c", 5), ("cyclops", "4c", None), ("zombie", "3d", None)])
    s = control(m, "gargoyle", 3)
    m.apply(s, "attack cyclops [0 0 0 blank 1 1 0 0 blank]")
    assert mon(m, "gargoyle").hp == 3
    legal = m.legal_texts(s)
    assert "move 3b 4b 5b" in legal and not any(t.startswith(("fly", "attack")) for t in legal)
    m.apply(s, "move 3b 4b 5b")
    assert mon(m, "gargoyle").space == "5b" and m.state.control is None


def test_md_house_again_the_second_attack_may_go_to_the_same_monster_and_no_third():
    """MD-HOUSE-AGAIN: one more attack, on any monster the attacker may target -- the same
    one included -- and no third."""
    m = scenario([("werewolf", "3c", None), ("golem", "4c", None), ("zombie", "3d", None)])
    s = control(m, "werewolf", 1)
    m.apply(s, "attack golem [0 0 0 blank]")
    assert {"attack zombie", "attack golem"} <= set(m.legal_texts(s))
    m.apply(s, "attack golem [0 0 0 blank]")
    rejected(m, "attack golem [0 0 0 blank]", "MD-ACTION-ONE")


def test_md_house_blast_each_defender_defends_for_itself():
    """MD-HOUSE-BLAST: one roll, and each adjacent monster's own defense applies (the
    Zombie halves, the Golem takes one off)."""
    m = scenario([("dragon", "3c", None), ("golem", "4c", None), ("zombie", "2c", None)])
    s = control(m, "dragon", 1)
    events = m.apply(s, "attack golem [1 1 1 1 blank]")
    hit = {a.defender: a.damage for a in att(events)}
    assert hit == {"golem": 3, "zombie": 2} and len(events_of(events, Attacked)) == 2


def test_md_house_charge_adds_the_die_not_doubled_and_not_to_counter_strikes():
    """MD-HOUSE-CHARGE: the Centaur with a 2 rolls 3 + 2 dice; its counter-strike would not."""
    m = scenario([("centaur", "3c", None), ("golem", "4c", None)])
    s = control(m, "centaur", 2)
    assert att(m.apply(s, "attack golem [0 0 0 0 0 blank]"))[0].dice == 3 + 2
