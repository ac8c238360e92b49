"""The "agenda" bot: it pushes the monsters its agenda pays for and attacks the others."""

from __future__ import annotations

import random
from typing import Any, Sequence

from arbiter.core.monster_derby.board import FINISH, along, parse_space


def _favoured(state: Any, seat: str) -> set[str]:
    points = state.kept_points.get(seat, {})
    return {m.id for m in state.monsters.values() if m.colour in points}


def _progress(space: str) -> int:
    if space == FINISH:
        return 10_000
    p = parse_space(space)
    return along(p) if p else 0


def agenda_bot(state: Any, seat: str, legal: Sequence[Any], rng: random.Random) -> Any:
    """Keep the agenda whose colours are strongest; roll; control a favoured monster to race
    it forward, or an unfavoured one to dawdle; attack unfavoured monsters."""
    names = {type(c).__name__ for c in legal}
    if "Keep" in names:
        hand = state.dealt.get(seat, ())
        pts = state.dealt_points.get(seat, ())
        strength = {m.colour: m.max_hp + 2 * m.attack for m in state.monsters.values()}

        def value(c: Any) -> float:
            i = hand.index(c.agenda) if c.agenda in hand else 0
            p = pts[i] if i < len(pts) else {}
            return sum(v[0] * strength.get(col, 0) for col, v in p.items())
        return max(legal, key=value)
    if "Roll" in names:
        return legal[0]
    fav = _favoured(state, seat)
    if "ControlMonster" in names or "TakeMarker" in names:
        controls = [c for c in legal if type(c).__name__ == "ControlMonster"]
        mine = [c for c in controls if c.monster in fav]
        theirs = [c for c in controls if c.monster not in fav]
        if mine and state.die >= 3:
            return max(mine, key=lambda c: _progress(state.monsters[c.monster].space))
        if theirs:
            return max(theirs, key=lambda c: _progress(state.monsters[c.monster].space))
        marker = [c for c in legal if type(c).__name__ == "TakeMarker"]
        if marker:
            return marker[0]
        return mine[0] if mine else legal[0]
    # a cursed monster's way back: as far back as it can go for a rival, the least for its own
    curses = [c for c in legal if type(c).__name__ == "Curse"]
    if curses:
        cursed = state.curse.monster if getattr(state, "curse", None) is not None else ""
        key = (lambda c: _progress(c.spaces[-1])) if cursed in fav else (lambda c: -_progress(c.spaces[-1]))
        return max(curses, key=key)
    # controlling a monster
    active = state.control.monster
    pushing = active in fav
    attacks = [c for c in legal if type(c).__name__ == "Attack" and c.monster not in fav]
    if attacks:
        return min(attacks, key=lambda c: state.monsters[c.monster].hp)
    moves = [c for c in legal if type(c).__name__ in ("Move", "Fly")]
    if moves:
        def dest(c: Any) -> str:
            return c.spaces[-1] if type(c).__name__ == "Move" else c.space
        key = (lambda c: _progress(dest(c))) if pushing else (lambda c: -_progress(dest(c)))
        return max(moves, key=key)
    calls = [c for c in legal if type(c).__name__ == "Call"]
    if calls and rng.random() < 0.3:
        return rng.choice(calls)
    ends = [c for c in legal if type(c).__name__ in ("End", "Recover")]
    return ends[0] if ends else rng.choice(list(legal))
