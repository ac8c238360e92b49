"""A sensible bot: challenges when the odds favour it, takes point markers, heads for rivals."""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any, Sequence

import msgspec

from arbiter.core.funkoverse_jaws import commands as C
from arbiter.core.funkoverse_jaws import rules as R
from arbiter.core.funkoverse_jaws.board import distance, parse_square

CHALLENGE_VERBS = ("challenge", "jaws", "can-crusher", "compare-scars", "farewell-and-adieu")


@lru_cache(maxsize=256)
def _dist(n: int, values: tuple[tuple[int, int], ...]) -> dict[int, float]:
    """Distribution of the total successes of n dice, from (successes, weight) per face."""
    total = sum(w for _, w in values)
    out = {0: 1.0}
    for _ in range(n):
        nxt: dict[int, float] = {}
        for k, p in out.items():
            for v, w in values:
                nxt[k + v] = nxt.get(k + v, 0.0) + p * w / total
        out = nxt
    return out


def win_chance(content: dict[str, Any], dice: int, defense: int) -> float:
    """The chance that ``dice`` challenger dice beat ``defense`` defender dice (ties lose)."""
    faces = list(content["dice"]["funkoverse"])
    ch = tuple(sorted({f: (content["successes"]["challenger"].get(f, 0), faces.count(f)) for f in faces}.values()))
    df = tuple(sorted({f: (content["successes"]["defender"].get(f, 0), faces.count(f)) for f in faces}.values()))
    a, d = _dist(dice, ch), _dist(defense, df)
    return sum(pa * pd for ka, pa in a.items() for kd, pd in d.items() if ka > kd)


def _dice_of(state: Any, cmd: Any) -> tuple[int, int]:
    content = state.content
    c = state.chars[state.active]
    if isinstance(cmd, C.FarewellAndAdieu):
        target = next(t for t in state.chars.values() if t.side != c.side and "hunted" in t.statuses)
    else:
        target = state.chars[cmd.target]
    if isinstance(cmd, C.Challenge):
        dice = 2
    else:
        dice = content["characters"][c.id]["abilities"][cmd.verb]["dice"]
        if isinstance(cmd, C.CanCrusher):
            dice += sum(1 for s in target.statuses if s == "hunted" or s == f"barrel-{c.side}")
    return dice, target.defense


def smart_bot(state: Any, seat: str, legal: Sequence[Any], rng: random.Random) -> Any:
    by_verb: dict[str, list[Any]] = {}
    for cmd in legal:
        by_verb.setdefault(cmd.verb, []).append(cmd)
    phase = state.phase
    if phase == "veteran":
        if any("hunted" in c.statuses for c in state.chars.values()):
            return by_verb["no-hunt"][0]  # keep the Hunted card where it is
        q = state.chars["quint"]
        hunts = [c for c in by_verb.get("hunt", []) if state.chars[c.rival].square]
        if q.square and hunts:
            here = parse_square(q.square)
            return min(hunts, key=lambda c: (distance(here, parse_square(state.chars[c.rival].square)), c.rival))
        return by_verb["no-hunt"][0]
    if phase == "flags":
        return by_verb.get("return", by_verb.get("done", legal))[0]
    if phase == "jaws":
        return by_verb.get("leave", legal)[0]
    if phase in ("place", "choose"):
        if phase == "choose":  # prefer a standing character on the map, then anyone
            ranked = sorted(legal, key=lambda c: (state.chars[c.char].square is None,
                                                   not state.chars[c.char].standing))
            return ranked[0]
        return rng.choice(list(legal))
    if phase != "act":
        return rng.choice(list(legal))
    if "interact" in by_verb:
        points = [c for c in by_verb["interact"] if isinstance(c, C.InteractPoint)]
        if points:
            return points[0]
        flips = [c for c in by_verb["interact"] if isinstance(c, C.InteractFlip)
                 and state.control[c.area][0] != state.chars[state.active].side]
        marks = [c for c in by_verb["interact"] if isinstance(c, C.InteractMark)]
        if flips or marks:
            return (flips or marks)[0]
    if "rally" in by_verb:
        return by_verb["rally"][0]
    best, best_p = None, 0.0
    for verb in CHALLENGE_VERBS:
        for cmd in by_verb.get(verb, []):
            dice, defense = _dice_of(state, cmd)
            p = win_chance(state.content, dice, defense)
            if verb != "challenge":
                p -= 0.05  # abilities cost a token: prefer basic challenges at equal odds
            if p > best_p:
                best, best_p = cmd, p
    if best is not None and best_p >= 0.45:
        return best
    fallback = best if best is not None and best_p >= 0.2 else None
    if "assist" in by_verb:
        return by_verb["assist"][0]
    if "emerge" in by_verb and any(c.verb == "jaws" for c in legal) is False:
        c = state.chars[state.active]
        near = [t for t in state.chars.values() if t.side != c.side and t.square
                and distance(parse_square(t.square), parse_square(c.square)) <= 1]
        if near:
            return by_verb["emerge"][0]
    moves = by_verb.get("move", []) + by_verb.get("swim", [])
    c = state.chars[state.active]
    if moves and c.square:
        goals = [parse_square(sq) for sq in state.point_markers.values() if sq]
        goals += [parse_square(t.square) for t in state.chars.values() if t.side != c.side and t.square]
        if state.mode == "flags":  # head for the rival flag too
            goals += [parse_square(sq) for side, sq in state.board.flags.items() if side != c.side]

        def score(sq: str) -> tuple[int, int]:
            p = parse_square(sq)
            return (0 if _threatens(state, c, sq) else 1, min((distance(p, g) for g in goals), default=0))

        now = score(c.square)
        scored = sorted(moves, key=lambda m: (score(m.squares[-1]), m.verb != "move", len(C.command_text(m).split()) - 1,
                                              C.command_text(m).split()[1:]))
        top = scored[0]
        if score(top.squares[-1]) < now and now[0] == 1:
            return top
    if fallback is not None:
        return fallback
    return by_verb["end"][0]


def _threatens(state: Any, c: Any, sq: str) -> bool:
    """Whether a rival (or a point marker) would be adjacent to ``c`` standing on ``sq``."""
    moved = msgspec.structs.replace(c, square=sq)
    s2 = msgspec.structs.replace(state, chars={**state.chars, c.id: moved})
    here = parse_square(sq)
    for t in state.chars.values():
        if t.side != c.side and t.square and R.adjacent(s2, c.side, here, parse_square(t.square)):
            return True
    marks = [m for m in state.point_markers.values() if m]
    if state.mode == "flags":
        marks += [sq for side, sq in state.board.flags.items() if side != c.side]
    for m in marks:
        if parse_square(m) == here or R.adjacent(s2, c.side, here, parse_square(m)):
            return True
    return False
