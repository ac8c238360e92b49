"""'Moving': rules 1-6 and every example, as positions played through the public interface."""

import pytest

from arbiter.core.errors import RuleViolation
from arbiter.events import funkoverse_jaws as E

from arbiter.core.funkoverse_jaws import GAME
from fjhelp import acting, last

FAR = {"swimmer": "h1", "shark": "h8", "tiger-shark": "g8"}


def moves(m):
    return sorted(t.split()[1] for t in m.legal_texts(m.to_act().seats[0]) if t.startswith("move "))


def rejected(m, text):
    with pytest.raises(RuleViolation) as exc:
        m.apply(None, text)
    return exc.value.rule_id


def test_partially_obstructed_square_rules_1_and_2():
    """Ally A is in a square partially occupied by an obstruction (a wall on its edge): it
    cannot move through the obstruction; a square whose centre is filled cannot be entered."""
    m = acting({"quint": "c3", **FAR}, "quint", walls=[["c3", "c4"]], filled=["d3"])
    assert rejected(m, "move c4") == "FJ-MOVE-1"
    assert rejected(m, "move d3") == "FJ-MOVE-2"
    m.apply(None, "move b4")  # not diagonally past the wall's end: round by b3
    assert last(m, E.CharacterMoved).path == ("b3", "b4")


def test_through_ally_not_through_rival_rules_4_and_5():
    """Ally A can move through ally B, but not through rival Z."""
    corridor = ["a2", "b2", "c2", "d2", "a4", "b4", "c4", "d4"]  # a one-square lane on row 3
    lane = {"filled": corridor, "start": {"light": ["a1", "b1"], "dark": ["h8", "g8"]}}
    m = acting({"quint": "a3", "swimmer": "b3", "shark": "h8", "tiger-shark": "h1"}, "quint", **lane)
    m.apply(None, "move c3")
    assert last(m, E.CharacterMoved).path == ("b3", "c3")
    m2 = acting({"quint": "a3", "tiger-shark": "b3", "shark": "h8", "swimmer": "h1"}, "quint", **lane)
    assert rejected(m2, "move c3") == "FJ-MOVE-5"
    assert moves(m2) == []


def test_knocked_down_rival_can_be_passed():
    corridor = ["a2", "b2", "c2", "d2", "a4", "b4", "c4", "d4"]
    m = acting({"quint": "a3", "tiger-shark": "b3", "shark": "h8", "swimmer": "h1"}, "quint",
               filled=corridor, start={"light": ["a1", "b1"], "dark": ["h8", "g8"]}, down=("tiger-shark",))
    m.apply(None, "move c3")
    assert m.state.chars["quint"].square == "c3"


def test_obstructed_corner_rule_3():
    """Ally A cannot move diagonally through the obstructed corner."""
    # the post on corner (2,2) is shared by b2, c2, b3, c3: b2 -> c3 is diagonal through it;
    # the straight ways round are closed by a wall (b2|b3) and a standing rival (c2)
    m = acting({"quint": "b2", "shark": "c2", "tiger-shark": "h8", "swimmer": "h1"}, "quint",
               posts=[[2, 2]], walls=[["b2", "b3"]])
    assert rejected(m, "move c3") == "FJ-MOVE-3"
    assert "c3" not in moves(m)
    assert "c1" in moves(m) and "a1" in moves(m)


def test_straight_moves_rules_1_and_6():
    """Ally A can move 1 or 2 squares, not onto a character or an obstruction."""
    m = acting({"quint": "c3", "swimmer": "c4", "shark": "e3", "tiger-shark": "h8"}, "quint", filled=["b3"])
    ms = moves(m)
    assert "d3" in ms and "c2" in ms and "c1" in ms and "c5" in ms  # c5 through the ally
    assert rejected(m, "move c4") == "FJ-MOVE-6"
    assert rejected(m, "move e3") == "FJ-MOVE-6"
    assert rejected(m, "move b3") == "FJ-MOVE-2"
    assert rejected(m, "move c6") == "FJ-MOVE-RANGE"


def test_cannot_move_rules_1_and_5():
    """Ally A cannot move: blocked by rival Z, the rival Basic Character and an obstruction."""
    m = acting({"quint": "a1", "shark": "b1", "tiger-shark": "a2", "swimmer": "h8"}, "quint", filled=["b2"])
    assert moves(m) == []
    assert rejected(m, "move a3") == "FJ-MOVE-5"
    assert rejected(m, "move c3") == "FJ-MOVE-1"


def test_diagonal_moves_rules_3_and_6():
    m = acting({"quint": "d4", "swimmer": "e5", **{"shark": "h8", "tiger-shark": "h1"}}, "quint")
    ms = moves(m)
    assert {"c3", "c5", "e3"} <= set(ms) and "e5" not in ms
    assert "f6" in ms  # through the ally on e5


def test_moving_between_rivals_rule_3():
    """A cannot cross the obstructed corner but may pass between rivals Y and Z."""
    m = acting({"quint": "b2", "shark": "c2", "tiger-shark": "b3", "swimmer": "h8"}, "quint", posts=[[1, 1]])
    m.apply(None, "move c3")
    assert m.state.chars["quint"].square == "c3"
    assert last(m, E.CharacterMoved).path == ("c3",)  # one diagonal step between the rivals
    m2 = acting({"quint": "b2", "shark": "c2", "tiger-shark": "b3", "swimmer": "h8"}, "quint", posts=[[1, 1]])
    assert rejected(m2, "move b2 a1") == "FJ-MOVE-3"  # the diagonal itself, through the post
    m2.apply(None, "move a1")  # not through the obstructed corner: two squares, round by b1
    ev = last(m2, E.CharacterMoved)
    assert ev.path == ("b1", "a1") and "not diagonally b2 > a1: FJ-MOVE-3" in ev.route


def test_combining_straight_and_diagonal_moves_rule_1_and_4():
    """A moves through ally B; it cannot go through an obstruction and takes two moves around it."""
    wall = [["d3", "e3"], ["d4", "e4"], ["d2", "e2"]]
    m = acting({"quint": "c3", "swimmer": "d3", "shark": "h8", "tiger-shark": "h7"}, "quint", walls=wall)
    assert rejected(m, "move e3") == "FJ-MOVE-1"
    m.apply(None, "move d5")   # through the ally is allowed, around the wall's top
    m.apply(None, "end")
    assert m.state.chars["quint"].square == "d5"
    m2 = acting({"quint": "c3", "swimmer": "d3", "shark": "h8", "tiger-shark": "h7"}, "quint", walls=wall)
    m2.apply(None, "move d5")
    m2_path = last(m2, E.CharacterMoved).path
    assert m2_path[-1] == "d5"
    m2.apply(None, "move e4")  # the second basic move goes around the wall
    assert m2.state.chars["quint"].square == "e4"


def test_a_walls_end_obstructs_its_corner():
    """A wall that ends on a corner is an obstruction on that corner (rule 3)."""
    m = acting({"quint": "b2", **FAR}, "quint", walls=[["b3", "c3"]])
    # the wall b3|c3 runs from corner (2,2) to (2,3): b2 -> c3 crosses corner (2,2)
    m.apply(None, "move c3")
    assert last(m, E.CharacterMoved).path == ("c2", "c3")


def test_barrel_reduces_moves():
    m = acting({"quint": "c3", **FAR}, "quint", statuses={"quint": ["barrel-dark"]})
    assert rejected(m, "move c5") == "FJ-MOVE-RANGE"
    m.apply(None, "move c4")
    assert "barrel-dark" not in m.state.chars["quint"].statuses  # discarded after a move
    m.apply(None, "move c6")
    assert m.state.chars["quint"].square == "c6"


def test_a_named_path_is_checked_square_by_square():
    """'move b2 c3' names every square entered; each step obeys rules 1-6."""
    m = acting({"quint": "a1", "shark": "b1", "swimmer": "a2", "tiger-shark": "h8"}, "quint",
               posts=[[2, 2]], walls=[["b2", "c2"]])
    assert rejected(m, "move b1 c1") == "FJ-MOVE-5"      # through a standing rival
    assert rejected(m, "move b2 c3") == "FJ-MOVE-3"      # diagonal through the post's corner
    assert rejected(m, "move b2 c2") == "FJ-MOVE-1"      # through the wall
    assert rejected(m, "move a2 a3 a4") == "FJ-MOVE-RANGE"
    m2 = acting({"quint": "a1", "shark": "b1", "swimmer": "a2", "tiger-shark": "h8"}, "quint")
    m2.apply(None, "move a2 a3")                         # through the ally (rule 4)
    assert m2.state.chars["quint"].square == "a3"
    assert rejected(m2, "move a4 a4") == "FJ-MOVE-RANGE"


def test_a_one_square_diagonal_past_an_obstructed_corner_is_never_taken_silently():
    """'move c3' from b2 past a post: legal only round the corner, and the event says so;
    the diagonal itself ('move b2 c3', naming the start) is refused under rule 3."""
    m = acting({"quint": "b2", "shark": "h8", "tiger-shark": "g8", "swimmer": "h1"}, "quint", posts=[[2, 2]])
    assert rejected(m, "move b2 c3") == "FJ-MOVE-3"      # the start named first: one diagonal step
    m.apply(None, "move c3")
    ev = last(m, E.CharacterMoved)
    assert ev.start == "b2" and len(ev.path) == 2 and ev.path[-1] == "c3"
    assert "FJ-MOVE-3" in ev.route and "not diagonally b2 > c3" in ev.route
    assert "not diagonally b2 > c3" in GAME.projection.describe(ev) and "2 squares" in GAME.projection.describe(ev)


def test_a_direct_move_carries_no_route_note():
    m = acting({"quint": "b2", **FAR}, "quint")
    m.apply(None, "move c3")
    ev = last(m, E.CharacterMoved)
    assert ev.path == ("c3",) and ev.route == "" and ev.start == "b2"


def test_detour_round_a_standing_rival_is_named():
    m = acting({"quint": "a1", "shark": "a2", "tiger-shark": "h8", "swimmer": "h1"}, "quint",
               walls=[["a1", "b1"]], posts=[[1, 1]])  # only way north is through the Shark: none
    assert rejected(m, "move a3") == "FJ-MOVE-5"
    m2 = acting({"quint": "b1", "shark": "b2", "tiger-shark": "h8", "swimmer": "h1"}, "quint")
    m2.apply(None, "move b3")                             # round the Shark, never through it
    ev = last(m2, E.CharacterMoved)
    assert "b2" not in ev.path and ev.route == ""          # still 2 squares: the direct distance


def test_when_the_diagonal_is_the_only_way_it_is_refused_by_rule_3():
    """Both straight ways round the post are closed (a wall and a standing rival): FJ-MOVE-3."""
    m = acting({"quint": "b2", "shark": "c2", "tiger-shark": "h8", "swimmer": "h1"}, "quint",
               posts=[[2, 2]], walls=[["b2", "b3"]])
    assert rejected(m, "move c3") == "FJ-MOVE-3"
    assert rejected(m, "move b2 c3") == "FJ-MOVE-3"
