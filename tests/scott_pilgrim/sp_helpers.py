"""Building Scott Pilgrim positions for tests: crafted content (start spaces, objects,
boards, items) and physical dice, driven through the public Match interface."""

from __future__ import annotations

import copy
from typing import Any

from arbiter.core.match import Match
from arbiter.core.scott_pilgrim import GAME

PARK = ["a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "k1", "k2", "k8", "k7"]


def content(starts: dict[str, str] | None = None, objects: dict[str, str | None] | None = None,
            boards: dict[str, dict[str, Any]] | None = None, items: list[str] | None = None,
            park: list[str] | None = None) -> dict[str, Any]:
    """The default content with characters and objects moved where a test needs them.

    ``objects``: id -> space, or None to leave that object out of the venue. With
    ``objects`` given, objects not named are left out too. Characters not in ``starts``
    are parked on the spaces in ``park``."""
    c = copy.deepcopy(GAME.default_content())
    starts = starts or {}
    if objects is not None:
        c["venue"]["objects"] = [dict(o, at=objects[o["id"]]) for o in c["venue"]["objects"]
                                 if objects.get(o["id"])]
    taken = set(starts.values()) | {o["at"] for o in c["venue"]["objects"]}
    spots = [p for p in (park or PARK) if p not in taken]
    for cid, ch in c["characters"].items():
        if cid in starts:
            ch["start"] = starts[cid]
        else:
            ch["start"] = spots.pop(0)
    for cid, b in (boards or {}).items():
        c["characters"][cid].update(b)
    if items is not None:
        keep = {i["id"]: i for i in c["items"]}
        c["items"] = [keep[i] for i in items]
    return c


def battle(starts: dict[str, str] | None = None, *, roster: str = "scott",
           seats: tuple[str, ...] = ("good", "bad"), objects: dict[str, str | None] | None = None,
           boards: dict[str, dict[str, Any]] | None = None, items: list[str] | None = None,
           dice: str = "manual", seed: int = 7, park: list[str] | None = None,
           **options: Any) -> Match:
    opts = {"good_guys": roster, "placement": "fixed", **options}
    return Match.new(GAME, seed=seed, seats=list(seats), options=opts, dice=dice,
                     content=content(starts, objects, boards, items, park))


def to_good_turn(m: Match, faces: str) -> None:
    """The Bad Guys roll and pass; the Good Guys roll ``faces``."""
    bad = m.seats[-1]
    m.apply(bad, "roll [speed speed speed speed speed]")
    m.apply(bad, "end")
    m.apply(m.seats[0], f"roll [{faces}]")


def ch(m: Match, cid: str) -> Any:
    return m.state.chars[cid]


def follow(m: Match, seat: str = "bad") -> None:
    """Each Chick still owing Matthew's move takes the first legal path of that length."""
    while m.state.follow:
        chick = sorted(m.state.follow)[0]
        moves = [t for t in m.legal_texts(seat) if t.startswith(chick + " move")]
        if not moves:
            break
        m.apply(seat, moves[0])


#: a two-player transcript header with physical dice and the fixed placement
MANUAL_HEADER = """# arbiter transcript 1
game: scott-pilgrim
dice: manual
seed: 5
players: good, bad
option: placement=fixed
---
"""
