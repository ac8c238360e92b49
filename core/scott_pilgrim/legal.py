"""What a seat may do now: the candidate commands, each tried against the rules."""

from __future__ import annotations

from typing import Any

from arbiter.core.dice import Rng
from arbiter.core.errors import ParseError, RuleViolation
from arbiter.core.scott_pilgrim import board as B
from arbiter.core.scott_pilgrim import rules as R
from arbiter.core.scott_pilgrim.commands import (
    Ability, Allow, Cmd, End, Equip, Grab, Kick, Move, Pause, Place, Punch, Recover, Reroll,
    Reversal, Roll, Throw, ThrowItem, Use,
)
from arbiter.projections.scott_pilgrim import SPState


def legal_commands(state: SPState, seat: str) -> list[Cmd]:
    """Every candidate command that the rules accept now."""
    return [c for c in candidates(state, seat) if decides(state, seat, c)]


def decides(state: SPState, seat: str, cmd: Cmd) -> bool:
    """Whether the rules accept ``cmd`` now (dice drawn from a fixed seed: only legality
    matters here)."""
    try:
        dice = {k: tuple(v) for k, v in state.content["dice"].items()}
        R.decide(state, seat, cmd, Rng(0, 0, dice))
        return True
    except (RuleViolation, ParseError):
        return False

def candidates(s: SPState, seat: str) -> list[Cmd]:
    if s.winner:
        return []
    if s.pending is not None and s.pending.kind == "reaction":
        if seat not in s.good_seats:
            return []
        return [Allow(), Pause(), Reversal()]
    if s.phase == "place":
        return place_candidates(s, seat)
    if R.team_of_seat(s, seat) != s.team:
        return []
    if s.pending is not None and s.pending.kind == "ex-throw":
        return [ThrowItem(who=s.pending.who, direction=d) for d in B.DIRS]
    if s.phase == "roll":
        return [Roll()]
    owed = R.chicks_to_follow(s) if s.team == "bad" else []
    if owed:  # the Chicks finish Matthew's move first: offer the first one's paths
        return move_candidates(s, owed[0], [])
    out: list[Cmd] = [End()]
    free = [d for d in s.dice if not d.spent]
    if not s.rerolled:
        out += [Reroll(face=f) for f in sorted({d.face for d in free})]
    occ = B.occupants(s)
    for cid, c in s.chars.items():
        if s.control.get(cid) != seat or c.pos is None:
            continue
        out += move_candidates(s, cid, free)
        adj = [t for pos, t in occ.items() if B.adjacent(c.pos, pos)]
        for t in sorted(adj):
            if t in s.objects or R.enemies(s, cid, t):
                for strike in (Punch, Kick):
                    out.append(strike(who=cid, target=t))
                    out.append(strike(who=cid, target=t, power=True))
                    if c.boosters:
                        out.append(strike(who=cid, target=t, pay=("booster",)))
            if t in s.objects:
                out.append(Grab(who=cid, target=t))
        out.append(Recover(who=cid))
        if c.holding:
            out += [Throw(who=cid, direction=d) for d in B.DIRS]
        if c.team == "good":
            throwable = [t for t in s.hand if R.item_def(s, t)["kind"] == "throwable"][:1]
            throwable += [t for t in s.equipped.get(cid, ()) if "throw_damage" in R.item_def(s, t)][:1]
            for tok in throwable:
                out += [Throw(who=cid, card=tok[5:], direction=d) for d in B.DIRS]
        if c.chick:
            continue
        abil = R.unlocked(s, cid) + (R.combos(s, cid) if c.combo else [])
        for aid in abil:
            out += ability_candidates(s, cid, aid)
    if s.team == "good":
        for tok in sorted(set(s.hand)):
            it = R.item_def(s, tok)
            for g in R.good_order(s):
                if s.control.get(g) != seat or s.chars[g].out:
                    continue
                form = Equip if it["kind"] in ("weapon", "armor", "speed") else Use
                if it["kind"] in ("pause", "throwable"):
                    continue
                out.append(form(card=tok[5:], who=g))
    return sorted(out, key=lambda c: menu_rank(s, c))

def place_candidates(s: SPState, seat: str) -> list[Cmd]:
    out: list[Cmd] = [Place()]
    mine = sorted((c for c, v in s.chars.items()
                   if s.control.get(c) == seat and v.pos is None and not v.out),
                  key=lambda c: (s.chars[c].chick, c))
    w, h = B.size(s)
    for who in mine[:1]:
        for x in range(w):
            for y in range(h):
                at = B.name(x, y)
                if R.placement_problem(s, who, at) is None:
                    out.append(Place(who=who, target=at))
    return out

def move_candidates(s: SPState, cid: str, free: list[Any]) -> list[Cmd]:
    c = s.chars[cid]
    assert c.pos
    out = []
    if c.chick:
        left = s.follow.get(cid, 0)
        if left <= 0:
            return out
        for d in B.DIRS.values():
            first = B.step(s, c.pos, d)
            if first is None:
                continue
            # straight on as far as the walls allow, then back and forth
            path = [first]
            while len(path) < left:
                nxt = B.step(s, path[-1], d)
                if nxt is None:
                    break
                path.append(nxt)
            while len(path) < left:
                path.append(path[-2] if len(path) >= 2 else c.pos)
            out.append(Move(who=cid, path=tuple(path)))
            bounce = tuple(first if i % 2 == 0 else c.pos for i in range(left))
            if bounce != tuple(path):
                out.append(Move(who=cid, path=bounce))
        return out
    pays: dict[int, tuple[str, ...]] = {}
    wild = R.wild_faces(s, cid)
    for f in sorted({d.face for d in free}, key=lambda f: (f in wild, f)):
        fake = R.DiceSpent(who=cid, purpose="move", dice=("x",), faces=(f,))
        n = R.move_allowance(s, cid, fake)
        pays.setdefault(n, (f,))
    if c.boosters:
        pays.setdefault(2, ("booster",))
    if not pays:
        return out
    top = max(pays)
    stops = worth_stopping(s, cid)
    foes = [v.pos for f, v in s.chars.items() if v.pos and R.enemies(s, cid, f)]
    for d in B.DIRS.values():
        path: list[str] = []
        cur = c.pos
        for i in range(top):
            nxt = B.step(s, cur, d)
            if nxt is None:
                break
            path.append(nxt)
            cur = nxt
            last = i == top - 1 or B.step(s, cur, d) is None
            if (last or nxt in stops) and (nxt in stops or closes_in(c.pos, nxt, foes)):
                pay = pays[min(n for n in pays if n >= len(path))]
                out.append(Move(who=cid, path=tuple(path), pay=pay))
    return out


def closes_in(start: str, end: str, foes: list[str]) -> bool:
    """Whether a move ending on ``end`` brings its mover nearer to an opponent. The menu
    offers a straight move only when it does, or when it stops next to something to strike,
    grab or push; moving away may still be typed. A menu that offers every line lets random
    play wander the venue for thousands of commands without a blow (a battle of one Good Guy
    against Matthew went past 5000 commands), where the rulebook's battle ends in a
    knock-out."""
    if not foes:
        return True
    return min(B.dist(end, p) for p in foes) < min(B.dist(start, p) for p in foes)


def worth_stopping(s: SPState, cid: str) -> set[str]:
    """The spaces where a move may stop short in the menu: next to an opponent or an object
    (to strike, grab or push); any other stop (an item space among them) can be typed, and a
    straight line ending anywhere else is offered at its full length only, and only when it
    closes in on an opponent (``closes_in``). A menu of every stop along eight lines is
    mostly moves, and a battle picked from it drags on."""
    targets = [pos for pos, t in B.occupants(s).items() if t in s.objects or R.enemies(s, cid, t)]
    return {q for pos in targets for q in B.neighbours(s, pos)}


def ability_candidates(s: SPState, cid: str, aid: str) -> list[Cmd]:
    a = R.ability(s, aid)
    kind = a["target"]
    c = s.chars[cid]
    assert c.pos
    out = []
    foes = [f for f, v in s.chars.items() if v.pos and v.team != c.team]
    if kind == "adjacent":
        ts = [f for f in foes if B.adjacent(c.pos, s.chars[f].pos or "")]
    elif kind == "range":
        ts = [f for f in foes if B.dist(c.pos, s.chars[f].pos or "") <= int(a.get("range", 1))]
    elif kind == "sight":
        seen = B.in_sight(s, c.pos, ignore=cid)
        ts = [t for t in sorted(seen) if t in foes]
    elif kind == "reaction":
        return []
    else:
        ts = [""]
    for t in sorted(ts):
        out.append(Ability(who=cid, ability=aid, target=t))
        if a.get("extra"):
            out.append(Ability(who=cid, ability=aid, target=t, extra=1))
    if a.get("move") and kind == "adjacent":
        # move first, then hit: toward each opponent within reach
        for f in foes:
            fp = s.chars[f].pos or ""
            if 1 < B.dist(c.pos, fp) <= int(a["move"]) + 1:
                d = B.direction(c.pos, fp)
                path, cur = [], c.pos
                for _ in range(int(a["move"])):
                    nxt = B.step(s, cur, d)
                    if nxt is None or nxt in B.occupants(s):
                        break
                    path.append(nxt)
                    cur = nxt
                    if B.adjacent(cur, fp):
                        break
                if path and B.adjacent(cur, fp):
                    out.append(Ability(who=cid, ability=aid, target=f, path=tuple(path)))
    return out


MENU = {"punch": 2, "kick": 2, "throw": 3, "equip": 4, "use": 4, "recover": 5, "move": 6,
        "grab": 7, "reroll": 9, "end": 10}
#: a punch or kick at an object (a chair, a speaker): after the moves and grabs
AT_OBJECT = 8


def menu_rank(s: SPState, c: Any) -> tuple[int, int]:
    """The order of the numbered menu (a short terminal shows only its first entries):
    abilities, attacks on the other team, throws, items, recovering, moves (those ending
    nearest an opponent first), grabbing objects, hitting objects, rerolls, and ending the
    turn last (a stray Enter never ends it)."""
    rank = MENU.get(c.verb, 1)
    if c.verb in ("punch", "kick") and c.target not in s.chars:
        return AT_OBJECT, 0
    if c.verb == "move" and c.path:
        who = s.chars[c.who]
        foes = [v.pos for v in s.chars.values() if v.pos and not v.out and v.team != who.team]
        return rank, min((B.dist(c.path[-1], f) for f in foes), default=0)
    return rank, 0
