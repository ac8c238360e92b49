"""'What Your Character Can See' and 'Adjacency': every example, built as a position.

Sight is checked twice: on the rule function itself (any set of standing rivals) and,
where the four characters of this game can form the picture, through a public command
(Can Crusher is range 3: accepted only when Quint sees the target)."""

import pytest

from arbiter.core.errors import RuleViolation
from arbiter.core.funkoverse_jaws.board import Geometry, can_see, parse_square
from arbiter.projections.funkoverse_jaws import Board

from fjhelp import acting


def geo(filled=(), walls=(), posts=()):
    return Geometry(Board(id="t", name="t", columns=8, rows=8, filled=tuple(filled),
                          walls=tuple(tuple(w) for w in walls), posts=tuple(tuple(p) for p in posts),
                          start={}, point_squares={}, control_areas={}, flags={}))


def sees(g, a, b, rivals=()):
    return can_see(g, [parse_square(r) for r in rivals], parse_square(a), parse_square(b))


def crusher(m, target):
    return m.apply(None, f"can-crusher {target}")


# Example 1: "Ally A and rival Z cannot see each other (rule 1)."
def test_example_1_obstruction_blocks_both_ways():
    g = geo(filled=["c2"])
    assert not sees(g, "b2", "d2") and not sees(g, "d2", "b2")
    m = acting({"quint": "b2", "shark": "d2", "swimmer": "a8", "tiger-shark": "h8"}, "quint", filled=["c2"])
    with pytest.raises(RuleViolation) as exc:
        crusher(m, "shark")
    assert exc.value.rule_id == "FJ-SIGHT"


# Example 2: "Ally A can see rival Z but not rival Y (rule 1)."
def test_example_2_sees_one_rival_not_the_other():
    walls = [["c1", "c2"]]
    g = geo(walls=walls)
    assert sees(g, "b2", "d3") and not sees(g, "b2", "d1")
    m = acting({"quint": "b2", "shark": "d3", "tiger-shark": "d1", "swimmer": "a8"}, "quint", walls=walls)
    with pytest.raises(RuleViolation) as exc:
        crusher(m, "tiger-shark")
    assert exc.value.rule_id == "FJ-SIGHT"
    crusher(m, "shark")  # seen and within 3: the challenge is made


# Example 3: "Ally A cannot see ally B because the rival Basic Character is blocking its view (rule 2)."
def test_example_3_standing_rival_blocks_the_view_past_it():
    g = geo()
    assert not sees(g, "a1", "a3", rivals=["a2"])
    m = acting({"quint": "a1", "tiger-shark": "a2", "shark": "a3", "swimmer": "h1"}, "quint")
    with pytest.raises(RuleViolation) as exc:
        crusher(m, "shark")
    assert exc.value.rule_id == "FJ-SIGHT"


# Example 4: "Ally A can see ally B because rivals Y and Z do not block the sight line that
# passes through where corners meet (rule 4)."
def test_example_4_four_corner_rule():
    g = geo()
    assert sees(g, "a1", "b2", rivals=["a2", "b1"])
    assert sees(g, "a1", "c3", rivals=["a2", "b1"])  # b2 itself is crossed, a2/b1 only touched
    assert not sees(g, "a1", "c3", rivals=["b2"])
    # the rivals are adjacent to A and still do not block the diagonal square beyond
    m = acting({"quint": "a1", "swimmer": "h8", "shark": "a2", "tiger-shark": "b1"}, "quint", down=())
    legal = m.legal_texts("ann")
    assert "move b2" in legal  # between the rivals: the corner is not obstructed


# Example 5: "Rival Z is knocked down, so ally A can see ally B. Ally A cannot see the rival
# Basic Character because rival Y is blocking its view (rule 2)."
def test_example_5_knocked_down_rivals_do_not_block():
    g = geo()
    assert sees(g, "a1", "a3", rivals=[])          # Z (a2) knocked down: not a blocker
    assert not sees(g, "a1", "c3", rivals=["b2"])  # Y (b2) standing blocks the view of c3
    m = acting({"quint": "a1", "tiger-shark": "a2", "shark": "a3", "swimmer": "h1"}, "quint", down=("tiger-shark",))
    crusher(m, "shark")  # the knocked-down Tiger Shark does not hide the Shark
    m2 = acting({"quint": "a1", "shark": "b2", "tiger-shark": "c3", "swimmer": "h1"}, "quint")
    with pytest.raises(RuleViolation) as exc:
        crusher(m2, "tiger-shark")
    assert exc.value.rule_id == "FJ-SIGHT"


# Example 6: "Ally A can see rival Z through the square occupied by ally B (rule 3)."
def test_example_6_allies_never_block():
    m = acting({"quint": "a1", "swimmer": "a2", "shark": "a3", "tiger-shark": "h8"}, "quint")
    crusher(m, "shark")


# Example 7: "Ally A can see the rival Basic Character. Rival Z would normally block its view
# of that square, but ... ally A cannot see rival Z (rules 1 and 2)."
def test_example_7_an_unseen_rival_does_not_block():
    posts = [[1, 1]]  # the corner point shared by a1, b1, a2, b2
    g = geo(posts=posts)
    assert not sees(g, "a1", "b2")                    # Z hidden by the obstructed corner
    assert sees(g, "a1", "b3", rivals=["b2"])         # so Z does not block the Basic Character
    assert not sees(geo(), "a1", "b3", rivals=["b2"])  # without the post, Z would block
    m = acting({"quint": "a1", "shark": "b2", "tiger-shark": "b3", "swimmer": "h8"}, "quint", posts=posts)
    with pytest.raises(RuleViolation) as exc:
        crusher(m, "shark")
    assert exc.value.rule_id == "FJ-SIGHT"
    crusher(m, "tiger-shark")


def test_adjacency_example_walls_and_corners_break_adjacency():
    """Adjacency Example: A is adjacent to Z, not to Y (wall) nor the Basic Character (corner)."""
    m = acting({"swimmer": "b2", "shark": "b3", "tiger-shark": "c1", "quint": "h8"}, "swimmer",
               walls=[["b2", "a2"]], posts=[[2, 1]], emerged=True)
    legal = m.legal_texts("ann")
    assert "challenge shark" in legal and "challenge tiger-shark" not in legal
    with pytest.raises(RuleViolation) as exc:
        m.apply(None, "challenge tiger-shark")
    assert exc.value.rule_id == "FJ-ADJACENT"
    m2 = acting({"swimmer": "b2", "shark": "h8", "tiger-shark": "c2", "quint": "h1"}, "swimmer",
                walls=[["b2", "c2"]])
    with pytest.raises(RuleViolation) as exc:
        m2.apply(None, "challenge tiger-shark")
    assert exc.value.rule_id == "FJ-ADJACENT"


def test_sight_is_exact_for_lines_grazing_a_corner():
    """A line that passes exactly through an obstructed corner point is blocked; one that
    misses it by any margin is not (no sampling)."""
    g = geo(posts=[[2, 1]])  # corner between b1, c1, b2, c2
    assert not sees(g, "a1", "d2")  # doubled (1,1)->(7,3) passes through the post at (4,2)
    assert not sees(g, "a1", "g3")  # (1,1)->(13,5) too, far beyond it
    assert sees(g, "a1", "h3")      # (1,1)->(15,5) misses it by 1/7 of a half-square
    assert sees(g, "a1", "e3")


def test_ranged_challenge_example():
    """A Ranged Challenge: Z seen within 3 can be challenged; Y in range behind an obstruction cannot."""
    m = acting({"quint": "b2", "shark": "e4", "tiger-shark": "b5", "swimmer": "h8"}, "quint",
               filled=["b4"])
    with pytest.raises(RuleViolation) as exc:
        crusher(m, "tiger-shark")
    assert exc.value.rule_id == "FJ-SIGHT"
    crusher(m, "shark")
    m2 = acting({"quint": "a1", "shark": "e1", "tiger-shark": "h8", "swimmer": "h1"}, "quint")
    with pytest.raises(RuleViolation) as exc:
        crusher(m2, "shark")
    assert exc.value.rule_id == "FJ-RANGE"


def test_example_4_ally_seen_through_the_four_corner_point_can_be_assisted():
    """Example 4 with an ally as B: Quint (A, a1) sees the knocked-down Swimmer (B, b2) past
    rivals on a2 and b1 (rule 4), so B is adjacent and `assist swimmer` is legal."""
    m = acting({"quint": "a1", "swimmer": "b2", "shark": "a2", "tiger-shark": "b1"}, "quint",
               down=("swimmer",))
    assert "assist swimmer" in m.legal_texts("ann")
    m.apply(None, "assist swimmer")
    assert m.state.chars["swimmer"].standing
    # a post on that corner point would hide B (rule 1): no longer adjacent
    m2 = acting({"quint": "a1", "swimmer": "b2", "shark": "a2", "tiger-shark": "b1"}, "quint",
                down=("swimmer",), posts=[[1, 1]])
    with pytest.raises(RuleViolation) as exc:
        m2.apply(None, "assist swimmer")
    assert exc.value.rule_id == "FJ-ADJACENT"
