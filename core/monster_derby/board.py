"""The board: the laid track's geometry, an offset (hex) grid of columns along the race
and lanes across.

Lanes are rows; odd lanes are shifted half a space towards the finish, so every space
touches three spaces ahead (straight on, and diagonally to the lane on either side) and
three behind. Going straight advances a whole column; a diagonal step advances half a
column, which is how a monster zigzags to waste movement ("Control a Monster").

A space is written ``<column><lane>``: column 1 is the back of the starting board, lanes are
``a`` (top) onwards. ``finish`` is any space off the end of the last board.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterator

FINISH = "finish"
LANES = "abcdefghij"
_SPACE = re.compile(r"^(\d{1,3})([a-j])$")

Pos = tuple[int, int]  # (column from 0, lane from 0)


def name(pos: Pos) -> str:
    return f"{pos[0] + 1}{LANES[pos[1]]}"


@lru_cache(maxsize=4096)
def parse_space(text: str) -> Pos | None:
    """A space's position from its name, or None if it is not written like a space."""
    # cached: the rules read every monster's position from its name many times a decision
    # (a board has a few hundred spaces; a long audit asks over a million times)
    m = _SPACE.match(text)
    if not m:
        return None
    return int(m.group(1)) - 1, LANES.index(m.group(2))


def along(pos: Pos) -> int:
    """Distance along the race in half-columns (odd lanes sit half a space further on)."""
    return 2 * pos[0] + (pos[1] % 2)


def ahead(pos: Pos) -> list[Pos]:
    """The three adjacent spaces ahead: diagonally up, straight on, diagonally down."""
    c, lane = pos
    diag = c + (lane % 2)
    return [(diag, lane - 1), (c + 1, lane), (diag, lane + 1)]


def behind(pos: Pos) -> list[Pos]:
    """The three adjacent spaces behind."""
    c, lane = pos
    diag = c - 1 + (lane % 2)
    return [(diag, lane - 1), (c - 1, lane), (diag, lane + 1)]


def adjacent(pos: Pos) -> list[Pos]:
    return ahead(pos) + behind(pos)


def distance(a: Pos, b: Pos) -> int:
    """Spaces between two positions (hex distance)."""
    def cube(p: Pos) -> tuple[int, int]:
        return p[0] - (p[1] - (p[1] & 1)) // 2, p[1]
    (q1, r1), (q2, r2) = cube(a), cube(b)
    dq, dr = q1 - q2, r1 - r2
    return max(abs(dq), abs(dr), abs(dq + dr))


class Track:
    """The laid boards: terrain per space."""

    def __init__(self, rows: tuple[str, ...], terrain_names: dict[str, str]) -> None:
        self.rows = rows
        self.lanes = len(rows)
        self.columns = len(rows[0]) if rows else 0
        self.names = terrain_names

    def in_lanes(self, pos: Pos) -> bool:
        return 0 <= pos[1] < self.lanes

    def on_map(self, pos: Pos) -> bool:
        return self.in_lanes(pos) and 0 <= pos[0] < self.columns

    def off_end(self, pos: Pos) -> bool:
        """Past the last board (partial spaces count as off the map): the finish line."""
        return self.in_lanes(pos) and pos[0] >= self.columns

    def terrain(self, pos: Pos) -> str:
        if self.off_end(pos):
            return "path"
        return self.names[self.rows[pos[1]][pos[0]]]

    def spaces(self) -> Iterator[Pos]:
        for c in range(self.columns):
            for lane in range(self.lanes):
                yield c, lane
