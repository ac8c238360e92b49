"""Map geometry, exactly as "Using the Map" and "Moving" describe it.

Coordinates are doubled so that everything is an integer: square (x, y) covers
[2x, 2x+2] x [2y, 2y+2] and its centre is (2x+1, 2y+1); grid lines are even. Obstructions
are closed boxes (a filled square, a wall along one edge, a post on one corner point), and
a sight line is a closed segment between two centres. Intersections are decided with
exact rational arithmetic (Liang-Barsky clipping over Fractions): no sampling.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Iterable

from arbiter.projections.funkoverse_jaws import Board

Sq = tuple[int, int]
Box = tuple[int, int, int, int]  # xmin, ymin, xmax, ymax (doubled coordinates)

COLS = "abcdefghijklmnopqrstuvwxyz"


def parse_square(name: str) -> Sq:
    """'c4' -> (2, 3)."""
    return COLS.index(name[0]), int(name[1:]) - 1


def square_name(sq: Sq) -> str:
    return f"{COLS[sq[0]]}{sq[1] + 1}"


def is_square_name(board: Board, name: str) -> bool:
    if len(name) < 2 or name[0] not in COLS or not name[1:].isdigit():
        return False
    x, y = parse_square(name)
    return 0 <= x < board.columns and 0 <= y < board.rows


def all_squares(board: Board) -> list[str]:
    return [square_name((x, y)) for y in range(board.rows) for x in range(board.columns)]


class Geometry:
    """The obstructions of one board, precomputed."""

    def __init__(self, board: Board) -> None:
        self.board = board
        #: (a, b) -> whether the line between their centres misses every filled square
        self.clear: dict[tuple[Sq, Sq], bool] = {}
        self.filled = {parse_square(s) for s in board.filled}
        self.wall_edges: set[frozenset[Sq]] = {frozenset((parse_square(a), parse_square(b))) for a, b in board.walls}
        boxes: list[Box] = []
        points: set[tuple[int, int]] = set()  # obstructed corner points (doubled)
        for x, y in sorted(self.filled):
            boxes.append((2 * x, 2 * y, 2 * x + 2, 2 * y + 2))
            points |= {(2 * x + i, 2 * y + j) for i in (0, 2) for j in (0, 2)}
        for a, b in board.walls:
            (ax, ay), (bx, by) = parse_square(a), parse_square(b)
            if ay == by:  # side by side: a vertical wall on x = max(ax, bx)
                gx = 2 * max(ax, bx)
                box = (gx, 2 * ay, gx, 2 * ay + 2)
            else:  # one above the other: a horizontal wall on y = max(ay, by)
                gy = 2 * max(ay, by)
                box = (2 * ax, gy, 2 * ax + 2, gy)
            boxes.append(box)
            points |= {(box[0], box[1]), (box[2], box[3])}
        self.post_points = {(2 * px, 2 * py) for px, py in board.posts}
        for px, py in board.posts:
            boxes.append((2 * px, 2 * py, 2 * px, 2 * py))
            points.add((2 * px, 2 * py))
        self.boxes = boxes
        self.corner_points = points

    # -- basic relations ----------------------------------------------------------------

    def on_board(self, sq: Sq) -> bool:
        return 0 <= sq[0] < self.board.columns and 0 <= sq[1] < self.board.rows

    def enterable(self, sq: Sq) -> bool:
        """Moving rule 2: a square whose centre an obstruction fills cannot be entered."""
        return self.on_board(sq) and sq not in self.filled

    def step_open(self, a: Sq, b: Sq) -> bool:
        """Moving rules 1-3 for one step from ``a`` to the neighbouring ``b``."""
        dx, dy = b[0] - a[0], b[1] - a[1]
        if max(abs(dx), abs(dy)) != 1 or not self.enterable(b):
            return False
        if dx == 0 or dy == 0:
            return frozenset((a, b)) not in self.wall_edges
        corner = (2 * max(a[0], b[0]), 2 * max(a[1], b[1]))
        return corner not in self.corner_points

    # -- sight (rule 1) -----------------------------------------------------------------

    def line_clear(self, a: Sq, b: Sq) -> bool:
        """Sight rule 1: no obstruction touches the centre-to-centre line."""
        return _line_clear(self, a, b)

    def squares_crossed(self, a: Sq, b: Sq) -> list[tuple[Sq, bool]]:
        """Squares other than the ends that the line touches, each with True when it
        passes through the square and False when it only touches a corner point."""
        return _crossed(a, b)


def _clip(p: tuple[int, int], q: tuple[int, int], box: Box) -> tuple[Fraction, Fraction] | None:
    """Liang-Barsky: the parameter interval [t0, t1] of segment p->q inside the closed box."""
    t0, t1 = Fraction(0), Fraction(1)
    dx, dy = q[0] - p[0], q[1] - p[1]
    for pk, qk in ((-dx, p[0] - box[0]), (dx, box[2] - p[0]), (-dy, p[1] - box[1]), (dy, box[3] - p[1])):
        if pk == 0:
            if qk < 0:
                return None
            continue
        t = Fraction(qk, pk)
        if pk < 0:
            if t > t1:
                return None
            t0 = max(t0, t)
        else:
            if t < t0:
                return None
            t1 = min(t1, t)
    return t0, t1


def centre(sq: Sq) -> tuple[int, int]:
    return 2 * sq[0] + 1, 2 * sq[1] + 1


def _line_clear(g: Geometry, a: Sq, b: Sq) -> bool:
    # kept on the geometry itself: a cache keyed by id() would answer for a board
    # that was garbage-collected and whose id a new one reuses
    hit = g.clear.get((a, b))
    if hit is None:
        p, q = centre(a), centre(b)
        hit = all(_clip(p, q, box) is None for box in g.boxes)
        g.clear[(a, b)] = hit
    return hit


@lru_cache(maxsize=65536)
def _crossed(a: Sq, b: Sq) -> list[tuple[Sq, bool]]:
    p, q = centre(a), centre(b)
    out = []
    for x in range(min(a[0], b[0]), max(a[0], b[0]) + 1):
        for y in range(min(a[1], b[1]), max(a[1], b[1]) + 1):
            if (x, y) in (a, b):
                continue
            t = _clip(p, q, (2 * x, 2 * y, 2 * x + 2, 2 * y + 2))
            if t is not None:
                out.append(((x, y), t[0] != t[1]))
    return out


_geo_cache: dict[int, Geometry] = {}


def geometry(board: Board) -> Geometry:
    key = hash((board.id, board.columns, board.rows, board.filled, board.walls, board.posts))
    g = _geo_cache.get(key)
    if g is None or g.board != board:
        g = Geometry(board)
        _geo_cache[key] = g
    return g


def can_see(g: Geometry, standing_rivals: Iterable[Sq], a: Sq, b: Sq) -> bool:
    """What a character on ``a`` can see ("What Your Character Can See", rules 1-4).

    Rule 1: an obstruction touching the line blocks it. Rule 2: a standing rival whose
    square the line passes through blocks the view past it, but only a rival the viewer can
    itself see. Rule 3: allies never block. Rule 4: squares the line only touches at the
    point where four corners meet do not block when rivals occupy them.
    """
    rivals = frozenset(standing_rivals)
    return _see(g, rivals, a, b, 0)


def _see(g: Geometry, rivals: frozenset[Sq], a: Sq, b: Sq, depth: int) -> bool:
    if a == b:
        return True
    if not g.line_clear(a, b):
        return False
    if depth > 12:
        return True
    for sq, through in g.squares_crossed(a, b):
        if through and sq in rivals and _see(g, rivals, a, sq, depth + 1):
            return False
    return True


def neighbours(sq: Sq) -> list[Sq]:
    return [(sq[0] + dx, sq[1] + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy]


def distance(a: Sq, b: Sq) -> int:
    """"Within a number of squares": count as for movement, ignoring what blocks (diagonals count 1)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))
