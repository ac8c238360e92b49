"""A sensible bot: challenges when the odds favour it, takes point markers, heads for rivals."""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any, Sequence

from core.funkoverse_jaws.geometry import distance, parse_square

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
    if cmd.verb == "farewell-and-adieu":
        target = next(t for t in state.chars.values() if t.side != c.side and "hunted" in t.statuses)
    else:
        target = state.chars[cmd.args[0]]
    if cmd.verb == "challenge":
        dice = 2
    else:
        dice = content["characters"][c.id]["abilities"][cmd.verb]["dice"]
        if cmd.verb == "can-crusher":
            dice += sum(1 for s in target.statuses if s == "hunted" or s == f"barrel-{c.side}")
    return dice, target.defense


def smart_bot(state: Any, seat: str, legal: Sequence[Any], rng: random.Random) -> Any:
    by_verb: dict[str, list[Any]] = {}
    for cmd in legal:
        by_verb.setdefault(cmd.verb, []).append(cmd)
    phase = state.phase
    if phase == "veteran":
        hunts = by_verb.get("hunt", [])
        for cmd in hunts:
            if cmd.args[0] == "shark":
                return cmd
        return hunts[0] if hunts else legal[-1]
    if phase == "flags":
        return by_verb.get("return", by_verb.get("done", legal))[0]
    if phase == "jaws":
        return by_verb.get("leave", legal)[0]
    if phase in ("place", "choose"):
        if phase == "choose":  # prefer a standing character on the map, then anyone
            ranked = sorted(legal, key=lambda c: (state.chars[c.args[0]].square is None,
                                                   not state.chars[c.args[0]].standing))
            return ranked[0]
        return rng.choice(list(legal))
    if phase != "act":
        return rng.choice(list(legal))
    if "interact" in by_verb:
        points = [c for c in by_verb["interact"] if len(c.args) == 1]
        if points:
            return points[0]
        flips = [c for c in by_verb["interact"] if c.args[0] == "flip"
                 and state.control[c.args[1]][0] != state.chars[state.active].side]
        marks = [c for c in by_verb["interact"] if c.args[0] == "mark"]
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
    if "assist" in by_verb:
        return by_verb["assist"][0]
    if "emerge" in by_verb and any(c.verb == "jaws" for c in legal) is False:
        c = state.chars[state.active]
        near = [t for t in state.chars.values() if t.side != c.side and t.square
                and distance(parse_square(t.square), parse_square(c.square)) <= 1]
        if near:
            return by_verb["emerge"][0]
    moves = by_verb.get("move", []) + by_verb.get("swim", [])
    if moves:
        c = state.chars[state.active]
        goals = [parse_square(sq) for sq in state.point_markers.values() if sq]
        goals += [parse_square(t.square) for t in state.chars.values() if t.side != c.side and t.square]
        here = parse_square(c.square)
        now = min((distance(here, g) for g in goals), default=0)
        scored = sorted(moves, key=lambda m: (min((distance(parse_square(m.args[0]), g) for g in goals), default=0),
                                              m.verb != "move", len(m.args), m.args))
        top = scored[0]
        if min((distance(parse_square(top.args[0]), g) for g in goals), default=0) < now:
            return top
    return by_verb["end"][0]
