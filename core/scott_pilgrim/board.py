"""The Rockit venue's geometry: spaces, the eight directions, walls and lines of sight.

Spaces are written ``c4``: a column letter (a = the stage side, on the left) and a row
number (1 at the bottom). Every space is adjacent to the eight around it.
"""

from __future__ import annotations

from typing import Any

from arbiter.projections.scott_pilgrim import COLS, SPState

DIRS: dict[str, tuple[int, int]] = {
    "n": (0, 1), "ne": (1, 1), "e": (1, 0), "se": (1, -1),
    "s": (0, -1), "sw": (-1, -1), "w": (-1, 0), "nw": (-1, 1),
}
DIR_NAMES = {v: k for k, v in DIRS.items()}


def size(s: SPState | dict[str, Any]) -> tuple[int, int]:
    venue = (s.content if isinstance(s, SPState) else s)["venue"]
    return int(venue["columns"]), int(venue["rows"])


def xy(pos: str) -> tuple[int, int]:
    return COLS.index(pos[0]), int(pos[1:]) - 1


def name(x: int, y: int) -> str:
    return f"{COLS[x]}{y + 1}"


def is_space(s: SPState, pos: str) -> bool:
    if len(pos) < 2 or pos[0] not in COLS or not pos[1:].isdigit():
        return False
    w, h = size(s)
    x, y = xy(pos)
    return 0 <= x < w and 0 <= y < h


def step(s: SPState, pos: str, d: tuple[int, int]) -> str | None:
    """The next space from ``pos`` in direction ``d``, or None where a wall is."""
    w, h = size(s)
    x, y = xy(pos)
    nx, ny = x + d[0], y + d[1]
    if 0 <= nx < w and 0 <= ny < h:
        return name(nx, ny)
    return None


def dist(a: str, b: str) -> int:
    (ax, ay), (bx, by) = xy(a), xy(b)
    return max(abs(ax - bx), abs(ay - by))


def adjacent(a: str, b: str) -> bool:
    return a != b and dist(a, b) == 1


def direction(a: str, b: str) -> tuple[int, int]:
    """The straight-line direction away from ``a`` through ``b`` (the nearest of eight)."""
    (ax, ay), (bx, by) = xy(a), xy(b)
    dx, dy = bx - ax, by - ay
    sx = (dx > 0) - (dx < 0)
    sy = (dy > 0) - (dy < 0)
    # a line closer to straight than to diagonal counts as straight
    if abs(dx) > 2 * abs(dy):
        sy = 0
    elif abs(dy) > 2 * abs(dx):
        sx = 0
    return sx, sy


def directions_away(a: str, b: str) -> list[str]:
    """The directions a knockback from ``a`` through ``b`` may take: one along a row,
    column or diagonal; otherwise the straight and the diagonal one on either side."""
    (ax, ay), (bx, by) = xy(a), xy(b)
    dx, dy = bx - ax, by - ay
    sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
    if dx == 0 or dy == 0 or abs(dx) == abs(dy):
        return [DIR_NAMES[(sx, sy)]]
    straight = (sx, 0) if abs(dx) > abs(dy) else (0, sy)
    return sorted({DIR_NAMES[straight], DIR_NAMES[(sx, sy)]})


def occupants(s: SPState) -> dict[str, str]:
    """Space -> the character or object standing on it."""
    out: dict[str, str] = {}
    for c in s.chars.values():
        if c.pos:
            out[c.pos] = c.id
    for o in s.objects.values():
        if o.pos and not o.gone:
            out[o.pos] = o.id
    return out


def where(s: SPState, thing: str) -> str | None:
    if thing in s.chars:
        return s.chars[thing].pos
    o = s.objects.get(thing)
    return o.pos if o and not o.gone else None


def neighbours(s: SPState, pos: str) -> list[str]:
    out = []
    for d in DIRS.values():
        n = step(s, pos, d)
        if n:
            out.append(n)
    return sorted(out)


def ray(s: SPState, pos: str, d: tuple[int, int], ignore: str = "") -> tuple[str | None, str]:
    """Trace a line of sight: (the first thing hit or None for the wall, last empty space)."""
    occ = occupants(s)
    cur = pos
    while True:
        nxt = step(s, cur, d)
        if nxt is None:
            return None, cur
        if nxt in occ and occ[nxt] != ignore:
            return occ[nxt], cur
        cur = nxt


def in_sight(s: SPState, pos: str, ignore: str = "") -> dict[str, str]:
    """Thing -> direction name, for the first thing along each of the eight lines."""
    out: dict[str, str] = {}
    for dn, d in DIRS.items():
        hit, _ = ray(s, pos, d, ignore)
        if hit and hit not in out:
            out[hit] = dn
    return out
