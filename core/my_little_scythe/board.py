"""The map of Pomme: a radius-3 hex grid of 37 spaces, read from the content.

Adjacency: hexes sharing an edge; every portal is adjacent to every other portal
("Portals"); Castle Everfree touches the six inner hexes and every portal, but is entered
only to deliver ("Deliveries"); a Seeker at its base camp may step onto any of the three
spaces in front of its camp (house reading of "Base Camp").
"""

from __future__ import annotations

from typing import Any

CASTLE = "castle"
BASE = "base"
_DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


class Board:
    def __init__(self, content: dict[str, Any]) -> None:
        self.spaces = {s["id"]: s for s in content["spaces"]}
        self.ids = tuple(self.spaces)
        by_pos = {(s["q"], s["r"]): s["id"] for s in content["spaces"]}
        self.portals = tuple(i for i, s in self.spaces.items() if s["kind"] == "portal")
        self.region_of = {i: s.get("region") for i, s in self.spaces.items()}
        self.regions = tuple(r["id"] for r in content["regions"])
        self.in_region = {r: tuple(i for i in self.ids if self.region_of[i] == r) for r in self.regions}
        self.fronts = {c["id"]: tuple(c["front"]) for c in content["base_camps"]}
        adj: dict[str, set[str]] = {i: set() for i in self.ids}
        for (q, r), i in by_pos.items():
            for dq, dr in _DIRS:
                j = by_pos.get((q + dq, r + dr))
                if j is not None:
                    adj[i].add(j)
        for p in self.portals:
            adj[p].update(x for x in self.portals if x != p)
            adj[p].add(CASTLE)
            adj[CASTLE].add(p)
        self.adjacent = {i: tuple(sorted(v)) for i, v in adj.items()}
        self.lookup = {i.lower(): i for i in self.ids}

    def neighbours(self, where: str, camp: int, portal_entry: bool = False) -> tuple[str, ...]:
        """Spaces one step from ``where`` (a space, or BASE for the player's camp)."""
        if where == BASE:
            out = list(self.fronts[camp])
            if portal_entry:
                out += [p for p in self.portals if p not in out]
            return tuple(out)
        return self.adjacent[where]

    def is_portal(self, space: str) -> bool:
        return self.spaces[space]["kind"] == "portal"


_BOARDS: dict[int, tuple[dict[str, Any], Board]] = {}


def board_of(content: dict[str, Any]) -> Board:
    """The board for a content table (built once per content object)."""
    hit = _BOARDS.get(id(content))
    if hit is None or hit[0] is not content:
        hit = (content, Board(content))
        _BOARDS[id(content)] = hit
    return hit[1]
