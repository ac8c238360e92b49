"""Build Funkoverse positions for tests: custom map content plus folded setup events."""

from __future__ import annotations

import copy
from typing import Any

from arbiter.core.funkoverse_jaws import GAME
from arbiter.core.match import Match
from arbiter.events import funkoverse_jaws as E

EMPTY_MAP = {
    "name": "Test map", "source": "house", "columns": 8, "rows": 8,
    "filled": [], "walls": [], "posts": [],
    "start": {"light": ["f2", "g2", "g3"], "dark": ["b7", "c7", "b6"]},
    "point_markers": {"A": "a8", "B": "b8", "C": "c8", "D": "d8"},
    "control_areas": {"1": ["e1", "f1"], "2": ["e4", "f4"], "3": ["e7"]},
    "flags": {"light": "d1", "dark": "e8"},
}


def content_with(**board: Any) -> dict[str, Any]:
    content = copy.deepcopy(GAME.default_content())
    content["maps"]["orca"] = {**copy.deepcopy(EMPTY_MAP), **board}
    return content


def position(where: dict[str, str], *, turn: str = "light", first: str | None = None,
             mode: str = "first-game", down: tuple[str, ...] = (), statuses: dict[str, list[str]] | None = None,
             emerged: bool = False, options: dict[str, Any] | None = None, dice: str = "seeded",
             seats: tuple[str, ...] = ("ann", "bob"), seed: int = 7, points: dict[str, int] | None = None,
             tokens_on_track: dict[str, dict[str, int]] | None = None, **board: Any) -> Match:
    """A match on a test map (``board`` overrides the empty 8x8 map) with characters on
    ``where`` squares; characters not named are knocked out (on the cooldown track)."""
    opts = {"mode": mode, "map": "orca", **(options or {})}
    m = Match.new(GAME, seed=seed, seats=list(seats), options=opts, content=content_with(**board), dice=dice)
    items = list(m.items)
    evs: list[Any] = [E.FirstPlayerChosen(side=first or turn)]
    for cid, sq in where.items():
        evs.append(E.CharacterPlaced(char=cid, square=sq, why="setup"))
    for cid in m.state.chars:
        if cid not in where:
            evs.append(E.KnockedOut(char=cid, by=None))
    for cid in down:
        evs.append(E.KnockedDown(char=cid))
    for cid, cards in (statuses or {}).items():
        for card in cards:
            evs.append(E.StatusGiven(card=card, char=cid, by="quint"))
    for side, n in (points or {}).items():
        evs.append(E.PointsGained(side=side, points=n, why="test position"))
    for side, toks in (tokens_on_track or {}).items():
        for tok, slot in toks.items():
            evs.append(E.TokenSpent(side=side, token=tok, slot=slot, ability="test", char="test"))
    if emerged:
        evs.append(E.SharkSurfaced(char="shark", emerged=True))
    evs.append(E.PhaseChanged(phase="choose", side=turn))
    for ev in evs:
        items.append((len(items) + 1, "setup", ev))
    return Match(GAME, items)


def acting(where: dict[str, str], char: str, **kw: Any) -> Match:
    """A position where ``char`` has been chosen and has both actions."""
    side = "light" if char in ("quint", "swimmer") else "dark"
    m = position(where, turn=side, **kw)
    m.apply(None, f"choose {char}")
    return m


def events_of(m: Match, kind: type) -> list[Any]:
    return [e for *_x, e in m.items if isinstance(e, kind)]


def last(m: Match, kind: type) -> Any:
    found = events_of(m, kind)
    return found[-1] if found else None


def finish_round(m: Match) -> None:
    """Play out the round: every remaining turn is ended at once, no hunting, no returning."""
    rounds = len(events_of(m, E.RoundEnded))
    while len(events_of(m, E.RoundEnded)) == rounds and m.outcome() is None:
        seat = m.to_act().seats[0]
        legal = m.legal_texts(seat)
        pick = next((t for t in legal if t in ("end", "no-hunt", "done", "leave")), legal[0])
        m.apply(seat, pick)


def settle(m: Match) -> None:
    """Place every character waiting to go back to its starting area."""
    while m.outcome() is None and m.state.phase == "place":
        seat = m.to_act().seats[0]
        m.apply(seat, m.legal_texts(seat)[0])
