"""A bot that plays sensibly: it chases the trophies it can reach and avoids losing fights.

It only uses what its own seat may know: other players' pies and friendship (public), the
number of spells in their hands (not which), never another seat's dial or the deck order.
Each candidate command is tried with the real rules and the position after it is scored.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from arbiter.core.dice import Rng
from arbiter.core.errors import RuleViolation
from arbiter.core.my_little_scythe import commands as cm
from arbiter.core.my_little_scythe import rules
from arbiter.core.my_little_scythe.board import BASE, CASTLE, board_of
from arbiter.core.my_little_scythe.legal import candidates
from arbiter.projections.my_little_scythe import PROJECTION, MSState, stock

# fragile trophies first when several qualify: pies and spells get spent, deliveries lapse
TROPHY_PRIORITY = ("apple-delivery", "gem-delivery", "pies-8", "spells-3", "friendship-8",
                   "quests-2", "power-ups-2", "pie-fight")


def _rng(s: MSState) -> Rng:
    return Rng(0, 0, {k: tuple(v) for k, v in s.content["dice"].items()})


def after(s: MSState, seat: str, cmd: Any) -> MSState | None:
    try:
        evs = rules.decide(s, seat, cmd, _rng(s))
    except RuleViolation:
        return None
    for e in evs:
        s = PROJECTION.evolve(s, e)
    return s


def ring(s: MSState, space: str) -> int:
    b = board_of(s.content)
    if space == CASTLE:
        return 0
    if b.is_portal(space):
        return 1
    sp = b.spaces[space]
    q, r = sp["q"], sp["r"]
    return max(abs(q), abs(r), abs(q + r))


def strength(s: MSState, seat: str, own: bool) -> int:
    """The most a side could score in a pie fight (others' spells count as 3 each)."""
    p = s.players[seat]
    spells = sum(rules.spell_value(s, c) for c in p.spells) if own else 3 * len(p.spells)
    return min(s.content["dial_max"], p.pies) + spells


def value(s: MSState, seat: str) -> float:
    p = s.players[seat]
    v = 100.0 * len(p.trophies)
    have = set(p.trophies)
    v += (3 if "pies-8" not in have else 1) * min(p.pies, 8)
    v += (6 if "spells-3" not in have else 2) * min(len(p.spells), 3)
    v += friendship_value(s, seat, p.friendship)
    v += (12 if "quests-2" not in have else 2) * min(len(p.quests), 2)
    v += 12 * len(p.tiles)
    for kind in s.delivered:
        if f"{kind}-delivery" not in have:
            v += 90
    for space in rules.seeker_spaces(p):
        a, g = stock(s, space, "apple"), stock(s, space, "gem")
        d = ring(s, space)
        v += 1.5 * (a + g)
        for kind, n in (("apple", a), ("gem", g)):
            if f"{kind}-delivery" not in have:
                v += min(n, 4) * (4 - d) * 1.2
        if stock(s, space, "quest"):
            v += 8
    v -= 2 * sum(1 for w in p.seekers if w == BASE)
    return v


def friendship_value(s: MSState, seat: str, friendship: int) -> float:
    """Below 3 no trophy can be earned ("Low Friendship"), so each point short of 3 weighs
    heavily: a table where everyone sits at 0 can stall for hundreds of turns."""
    floor = s.content["trophy_min_friendship"]
    v = (3 if "friendship-8" not in s.players[seat].trophies else 1) * min(friendship, 8)
    if friendship < floor:
        v -= 25 + 20 * (floor - friendship)
    return v


def rollout(s: MSState, seat: str, depth: int = 4) -> float:
    """Play this seat's own follow-up choices greedily (no dice) and score the result."""
    for _ in range(depth):
        d = PROJECTION.to_act(s)
        if d.seats != (seat,) or d.kind == "simultaneous" or not (s.moving or s.look):
            break
        best, best_v = None, float("-inf")
        for cmd in candidates_of(s, seat):
            nxt = after(s, seat, cmd)
            if nxt is None:
                continue
            val = score_fight(nxt, seat) if fighting(nxt) else value(nxt, seat)
            if val > best_v:
                best, best_v = nxt, val
        if best is None:
            break
        s = best
    return score_fight(s, seat) if fighting(s) else value(s, seat)


def candidates_of(s: MSState, seat: str) -> list[Any]:
    return candidates(s, seat)


def fighting(s: MSState) -> bool:
    return s.fight is not None or bool(s.pending_fights)


def score_fight(s: MSState, seat: str) -> float:
    """Attack only when the attack should win (ties go to the attacker)."""
    base = value(s, seat)
    p = s.players[seat]
    friendship = p.friendship
    if s.fight is not None:
        f = s.fight
        others = [f.defender if f.attacker == seat else f.attacker]
    else:
        others = [rules.owner_of(s, x, seat) or seat for x in s.pending_fights]
        # the attacker loses 1 friendship as each pending fight starts ("Pie Fight")
        friendship = max(0, friendship - len(others))
        base += friendship_value(s, seat, friendship) - friendship_value(s, seat, p.friendship)
    trophy = ("pie-fight" not in p.trophies and len(p.trophies) < s.content["trophies_per_player"]
              and (friendship >= s.content["trophy_min_friendship"]
                   or not s.options.get("low_friendship_blocks_pie_fight", True)))
    for other in others:
        mine, theirs = strength(s, seat, True), strength(s, other, False)
        if mine >= theirs:
            base += 60 if trophy else 15
        else:
            base -= 40
    return base


def choose_dial(s: MSState, seat: str, legal: Sequence[Any]) -> Any:
    f = s.fight
    assert f is not None
    attacker = f.attacker == seat
    other = f.defender if attacker else f.attacker
    theirs = strength(s, other, False)
    need = theirs if attacker else theirs + 1
    options = []
    for cmd in legal:
        if not isinstance(cmd, cm.Dial):
            continue
        score = cmd.pies + sum(rules.spell_value(s, c) for c in cmd.spells)
        cost = cmd.pies + 2 * len(cmd.spells)
        options.append((score >= need, -cost if score >= need else -cost, score, cmd))
    winning = [o for o in options if o[0]]
    if winning:
        return max(winning, key=lambda o: (o[1], o[2]))[3]
    return min(options, key=lambda o: (o[3].pies + 2 * len(o[3].spells)))[3]


def smart_bot(state: Any, seat: str, legal: Sequence[Any], rng: random.Random) -> Any:
    s: MSState = state
    legal = list(legal)
    if s.fight is not None:
        return choose_dial(s, seat, legal)
    first = legal[0]
    if isinstance(first, cm.Rejuvenate):
        p = s.players[seat]
        want = "spell" if len(p.spells) < 3 and "spells-3" not in p.trophies else "pies"
        return next((c for c in legal if c.choice == want), first)
    if isinstance(first, cm.Explore):  # quests are worth drawing: "No Thanks" stays possible
        return first
    if isinstance(first, cm.ClaimTrophy):
        # a trophy is worth more than a secret card: "none" only when nothing else is offered
        return min(legal, key=lambda c: TROPHY_PRIORITY.index(c.trophy) if c.trophy in TROPHY_PRIORITY else 99)
    best, best_v = [], float("-inf")
    for cmd in legal:
        nxt = after(s, seat, cmd)
        if nxt is None:
            continue
        if isinstance(cmd, cm.ChooseAction):
            v = rollout(nxt, seat)
            if cmd.action.startswith("seek"):
                v += 4
            if cmd.action == "power-up":
                v += 10 if cmd.pile not in s.players[seat].tiles else 0
        elif fighting(nxt) and not nxt.moving:
            v = score_fight(nxt, seat)
        elif nxt.moving or nxt.look:
            v = rollout(nxt, seat)
        else:
            v = value(nxt, seat)
        if v > best_v + 1e-9:
            best, best_v = [cmd], v
        elif abs(v - best_v) <= 1e-9:
            best.append(cmd)
    return rng.choice(best) if best else rng.choice(legal)
