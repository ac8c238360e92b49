"""Control a Monster: forward into the three spaces ahead, costs, blocking, flying, finishing."""

from __future__ import annotations

from arbiter.core.monster_derby import GAME
from arbiter.events.monster_derby import MonsterFinished, MonsterMoved

from .helpers import control, events_of, mon, rejected, scenario, seat

ROWS = [  # columns 3-11 (columns 1-2 are the starting board, all path)
    "R.B......",
    "X........",
    "W........",
    "BBB......",
    "W........",
]


def test_three_spaces_ahead_never_backwards_and_zigzag():
    m = scenario([("golem", "3c", None), ("giant", "1a", None)])
    s = control(m, "golem", 3)
    legal = {t for t in m.legal_texts(s) if t.startswith("move") and len(t.split()) == 2}
    assert legal == {"move 3b", "move 4c", "move 3d"}  # diagonally up, straight on, diagonally down
    rejected(m, "move 2c", "MD-MOVE-AHEAD")
    rejected(m, "move 5c", "MD-MOVE-AHEAD")
    rejected(m, "move 3a", "MD-MOVE-AHEAD")
    m.apply(s, "move 3b 4c 4d")  # zigzag: three points for one and a half columns
    assert mon(m, "golem").space == "4d"


def test_a_step_not_ahead_is_refused_naming_the_three_spaces_ahead():
    """"Each space of the monster's movement must be into one of the three adjacent spaces
    ahead of it ... you cannot go backwards" (Control a Monster): the refusal names them, or
    the finish line where the track ends."""
    m = scenario([("golem", "3c", None), ("giant", "1a", None)])
    control(m, "golem", 3)
    refused = rejected(m, "move 2c", "MD-MOVE-AHEAD")
    assert "(3b, 4c or 3d)" in str(refused) and "never go backwards" in str(refused)
    m2 = scenario([("golem", "11a", None), ("giant", "1e", None)])
    control(m2, "golem", 1)
    assert "(finish or 11b)" in str(rejected(m2, "move 10a", "MD-MOVE-AHEAD"))


def test_costs_path_native_non_native_and_spending_all_points():
    m = scenario([("giant", "2a", None), ("golem", "2e", None)], rows=ROWS)
    s = control(m, "giant", 3)
    m.apply(s, "move 3a")  # rock: the Giant's native terrain costs 1
    assert m.state.control.points == 2
    rejected(m, "end", "MD-MOVE-ALL")
    m.apply(s, "move 4a")  # path 1
    rejected(m, "move 5a", "MD-MOVE-POINTS")  # brush is not native: 2
    m.apply(s, "move 4b")  # path 1: all spent, the turn ends
    assert m.state.control is None and mon(m, "giant").space == "4b"


def test_a_monster_that_cannot_spend_its_points_stops():
    m = scenario([("giant", "2d", None), ("golem", "2e", None)], rows=ROWS)
    s = control(m, "giant", 1)
    # everything ahead is brush (2) or water (2): it cannot move, its turn ends with a recover
    assert m.state.control is None
    assert mon(m, "giant").space == "2d"
    del s


def test_impassable_and_monsters_block():
    m = scenario([("golem", "2b", None), ("giant", "3c", None), ("zombie", "1a", None)], rows=ROWS)
    s = control(m, "golem", 2)
    rejected(m, "move 3b", "MD-MOVE-IMPASSABLE")
    rejected(m, "move 3c", "MD-MOVE-BLOCKED")
    assert {t for t in m.legal_texts(s) if t.startswith("move")} == {"move 3a", "move 3a 4a"}


def test_graves_do_not_block_unless_the_option_says_so():
    for block in (False, True):
        m = scenario([("golem", "3c", None), ("giant", "4c", 1), ("zombie", "1a", None)],
                     options={"graves_block": block})
        s = control(m, "golem", 1)
        m.apply(s, "attack giant [1 1 0 0 blank]")
        assert m.state.graves == {"giant": "4c"}
        if block:
            rejected(m, "move 4c", "MD-MOVE-BLOCKED")
        else:
            m.apply(s, "move 4c")
            assert mon(m, "golem").space == "4c"


def test_flying_over_impassable_and_monsters_paying_the_landing_cost():
    m = scenario([("gargoyle", "2b", None), ("golem", "3a", None), ("giant", "3c", None)], rows=ROWS)
    s = control(m, "gargoyle", 2)
    flights = {t for t in m.legal_texts(s) if t.startswith("fly")}
    # over 3b (impassable for walkers, rulebook: only flown over) to land beyond
    assert "fly 4b" in flights
    # "An impassable space can only be entered by flying monsters with sufficient movement to
    # fly over it and enter the space after it" (Control a Monster): the refusal says which
    assert "it holds the Giant" in str(rejected(m, "fly 3c", "MD-FLY-LAND"))  # cannot land on a monster
    assert "impassable terrain" in str(rejected(m, "fly 3b", "MD-FLY-LAND"))
    events = m.apply(s, "fly 4b")
    moved = [e for e in events if isinstance(e, MonsterMoved)][0]
    assert moved.kind == "fly" and moved.cost == 2


def test_a_flyer_lands_where_it_spends_the_most_if_it_cannot_spend_all():
    m = scenario([("gargoyle", "10c", None), ("golem", "1a", None)],
                 rows=["........X", "........X", "........X", "........X", "........X"])
    s = control(m, "gargoyle", 4)
    # with 4 points nothing on the map spends them all: the best landings spend 1
    assert {t for t in m.legal_texts(s) if t.startswith("fly")} == {"fly finish", "fly 10b", "fly 10d"}
    m2 = scenario([("gargoyle", "8c", None), ("golem", "1a", None)],
                  rows=["......XXX", "......XXX", "......XX.", "......XXX", "......XXX"])
    s = control(m2, "gargoyle", 5)
    legal = {t for t in m2.legal_texts(s) if t.startswith("fly")}
    assert "fly 11c" in legal and "fly finish" in legal


def test_crossing_the_finish_line():
    m = scenario([("golem", "10c", None), ("giant", "1a", None), ("zombie", "1e", None)])
    s = control(m, "golem", 3)
    rejected(m, "move finish", "MD-MOVE-AHEAD")
    events = m.apply(s, "move 11c finish")
    assert [e.place for e in events if isinstance(e, MonsterFinished)] == [1]
    assert mon(m, "golem").status == "finished" and m.state.finishes == ("golem",)
    assert m.state.control is None


def test_brushwalker_walks_brush_for_nothing():
    m = scenario([("spider", "3d", None), ("golem", "1a", None)], rows=ROWS,
                 overrides={"spider": {"natives": ["rock"]}})
    s = control(m, "spider", 1)
    m.apply(s, "move 4d")  # brush: 0 points
    assert m.state.control.points == 1
    m.apply(s, "move 5d")  # brush again
    assert m.state.control.points == 1 and mon(m, "spider").space == "5d"
    rejected(m, "end", "MD-MOVE-ALL")


def test_a_brushwalker_with_no_points_left_has_spent_them_all_even_next_to_brush():
    """MD-HOUSE-FREE-STEP: "A monster must spend all of its movement points going forward"
    (Control a Monster) is met at 0 points: a free brush step (Brushwalker) is not movement
    owed. The house entry says so, and the rulebook's MD-MOVE-ALL holds no reading of ours."""
    assert GAME.rules.get("MD-HOUSE-FREE-STEP").source == "house"
    assert "Brushwalker" not in GAME.rules.get("MD-MOVE-ALL").text
    m = scenario([("spider", "3d", None), ("golem", "1a", None)], rows=ROWS,
                 overrides={"spider": {"natives": ["rock"]}})
    s = control(m, "spider", 1)
    m.apply(s, "move 4c")  # path: its last point; 4d ahead is brush, free for it
    assert m.state.control.points == 0
    assert "end" in m.legal_texts(s) and "move 4d" in m.legal_texts(s)
    m.apply(s, "end")
    assert m.state.control is None and mon(m, "spider").space == "4c"
    m2 = scenario([("spider", "3d", None), ("golem", "1a", None)], rows=ROWS,
                  overrides={"spider": {"natives": ["rock"]}})
    s = control(m2, "spider", 1)
    m2.apply(s, "move 4c 4d")  # the free step may still be taken
    assert mon(m2, "spider").space == "4d"


def test_the_hare_counts_its_movement_die_twice():
    m = scenario([("hare", "2c", None), ("golem", "1a", None)])
    control(m, "hare", 3)
    assert m.state.control.points == 6


def test_the_menu_lists_one_whole_move_per_destination_then_single_steps():
    m = scenario([("golem", "3c", None), ("giant", "1a", None)])
    s = control(m, "golem", 3)
    moves = [t for t in m.legal_texts(s) if t.startswith("move")]
    whole = [t for t in moves if len(t.split()) > 2]
    ends = [t.split()[-1] for t in whole]
    assert len(ends) == len(set(ends))  # one entry per destination, not every path
    assert whole[0] == "move 4c 5c 6c"  # furthest first, straight on preferred
    assert {"move 3b", "move 3d"} <= set(moves)  # single steps, to attack along the way
    assert len(moves) <= 12
    m.apply(s, "move 4c 5c 6c")
    assert mon(m, "golem").space == "6c" and m.state.control is None


def test_a_flyer_may_land_on_its_way_to_attack_then_fly_on():
    # Monster Actions: attack "on any space along its movement"; the Example's Gargoyle
    # "could land ... to attack it along the way"
    m = scenario([("gargoyle", "3c", None), ("giant", "6c", None), ("zombie", "1a", None)])
    s = control(m, "gargoyle", 5)
    flights = [t for t in m.legal_texts(s) if t.startswith("fly ")]
    assert "fly 5c" in flights  # right behind the Giant, 2 points: a stopover
    assert "fly 8c" in flights  # the whole flight
    events = m.apply(s, "fly 5c")
    assert events_of(events, MonsterMoved)[0].stop and m.state.control.points == 3
    assert [t for t in m.legal_texts(s)] == ["attack giant"]
    rejected(m, "end", "MD-HOUSE-FLY-STOPOVER")
    rejected(m, "recover", "MD-HOUSE-FLY-STOPOVER")
    rejected(m, "fly 8c", "MD-HOUSE-FLY-STOPOVER")
    m.apply(s, "attack giant [0 0 0 blank]")
    assert "fly 8c" in m.legal_texts(s)  # over the Giant, landing with the 3 points left
    m.apply(s, "fly 8c")
    assert mon(m, "gargoyle").space == "8c" and m.state.control is None


def test_a_flyer_stunned_where_it_landed_loses_the_rest_of_its_turn():
    m = scenario([("gargoyle", "3c", None), ("golem", "6c", None), ("zombie", "1a", None)])
    s = control(m, "gargoyle", 5)
    m.apply(s, "fly 5c")
    m.apply(s, "attack golem [0 0 0 shield]")
    assert mon(m, "gargoyle").space == "5c" and m.state.control is None and seat(m) != s


def test_no_stopover_without_a_monster_to_attack():
    m = scenario([("gargoyle", "3c", None), ("zombie", "1a", None)])
    s = control(m, "gargoyle", 3)
    assert "fly 4c" not in m.legal_texts(s)  # 1 point short, and nobody in front to attack there
    rejected(m, "fly 4c", "MD-FLY-SPEND")
