"""A bot that plays sensibly for either team: it tries each legal command on a copy of
the state and keeps the one that hurts the other team most (and closes in on them)."""

from __future__ import annotations

import random
from typing import Any, Sequence

from arbiter.core.dice import Rng
from arbiter.core.errors import ParseError, RuleViolation
from arbiter.core.scott_pilgrim import board as B
from arbiter.core.scott_pilgrim.commands import Allow
from arbiter.core.scott_pilgrim.rules import decide
from arbiter.projections.scott_pilgrim import SPProjection, SPState, seats_in_fight

PROJ = SPProjection()


def evaluate(s: SPState, team: str) -> float:
    """How good ``s`` looks for ``team`` (higher is better)."""
    if s.winner:
        return 10_000.0 if s.winner == team else -10_000.0
    good = [c for c in s.chars.values() if c.team == "good" and not c.out]
    ex = next(c for c in s.chars.values() if c.evil_ex)
    chicks_on = [c for c in s.chars.values() if c.chick and c.pos]
    good_hp = sum(c.health for c in good) + 8 * len(good)
    score_good = -3.0 * ex.health + 1.0 * good_hp - 1.5 * len(chicks_on)
    # closing in: Good Guys toward Matthew, the Bad Guys toward the nearest Good Guy
    if ex.pos:
        for c in good:
            if c.pos:
                score_good -= 0.4 * max(0, B.dist(c.pos, ex.pos) - 1)
    score_good += 0.3 * sum(c.xp + 5 * c.level + 2 * c.combo + 0.5 * c.boosters for c in good)
    score_good += 0.5 * len(s.hand) + 1.0 * sum(len(v) for v in s.equipped.values())
    score_bad = 1.5 * ex.health - 3.0 * sum(c.health for c in good) - 25.0 * len(good) \
        + 1.0 * len(chicks_on)
    for c in [ex] + chicks_on:
        if c.pos and any(g.pos for g in good):
            d = min(B.dist(c.pos, g.pos) for g in good if g.pos)
            score_bad -= (0.6 if c.evil_ex else 0.2) * max(0, d - 1)
    score_bad += 0.3 * (ex.xp + 5 * ex.level + 2 * ex.combo)
    return score_good if team == "good" else score_bad


def smart(state: SPState, seat: str, legal: Sequence[Any], rng: random.Random) -> Any:
    if len(legal) == 1:
        return legal[0]
    team = "bad" if seat == state.bad_seat else "good"
    base = evaluate(state, team)
    dice = {k: tuple(v) for k, v in state.content["dice"].items()}
    best, best_score = None, base + 0.05
    for cmd in legal:
        if cmd.verb in ("end", "reroll", "roll"):
            continue
        try:
            events = decide(state, seat, cmd, Rng(rng.randrange(2**32), 0, dice))
        except (RuleViolation, ParseError):
            continue
        s = state
        for ev in events:
            s = PROJ.evolve(s, ev)
        if s.pending is not None and s.pending.kind == "reaction" and team == "bad":
            # look past the Good Guys' window, as if they let it happen (answered by a player
            # still in the fight: one whose Good Guys are all out takes no decisions)
            try:
                more = decide(s, seats_in_fight(s)[0], Allow(),
                                   Rng(rng.randrange(2**32), 0, dice))
            except (RuleViolation, ParseError):
                more = []
            for ev in more:
                s = PROJ.evolve(s, ev)
        score = evaluate(s, team) + rng.random() * 0.01
        if cmd.verb == "allow":
            score -= 0.02
        if score > best_score:
            best, best_score = cmd, score
    if best is not None:
        return best
    for cmd in legal:
        if cmd.verb in ("roll", "allow"):
            return cmd
    ends = [c for c in legal if c.verb == "end"]
    return ends[0] if ends else legal[0]
