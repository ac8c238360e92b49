"""What a seat may do now: every command that ``rules.decide`` would accept (the menu of
``arbiter play`` and the choices of the bots), in menu order."""

from __future__ import annotations

from typing import Any

from arbiter.core.monster_derby import rules
from arbiter.core.monster_derby.board import FINISH, Pos, along, name, parse_space
from arbiter.core.monster_derby.commands import (
    Attack, Call, ControlMonster, Copy, Curse, End, Fly, Keep, Move, Recover, Roll, TakeMarker,
)
from arbiter.projections.monster_derby import MDState


def menu_order(space: str) -> tuple[int, int]:
    """Destinations furthest along first (the finish line before any space)."""
    if space == FINISH:
        return (-10_000, 0)
    p = parse_space(space)
    assert p is not None
    return (-(2 * p[0] + p[1] % 2), p[1])


def control_options(st: MDState) -> list[Any]:
    """The steps of the monster under control: a cursed monster's ways back while a curse
    waits; else its moves (each destination, then single steps to attack along the way),
    attacks, Call, Copy, and Recover and End once they are allowed."""
    c = st.control
    assert c is not None
    m = st.monsters[c.monster]
    if st.curse is not None:
        return [Curse(path) for path in rules.curse_destinations(st, st.monsters[st.curse.monster]).values()]
    out: list[Any] = []
    if rules.may_move_now(c, m):
        if rules.flies(m):
            if rules.may_take_off(c):
                landings, fin = rules.flight_options(st, m, c.points)
                if fin:
                    out.append(Fly(FINISH))
                out += [Fly(name(q)) for q in sorted(landings)]
                out += [Fly(name(q)) for q in sorted(rules.stopover_options(st, c, m)) if q not in landings]
        else:
            dests = rules.walk_destinations(st, m, c.points)
            out += [Move(path) for _d, path in sorted(dests.items(), key=lambda kv: menu_order(kv[0]))]
            for q, _cost in rules.walk_steps(st, m, c.points):
                step = (FINISH if rules.track(st).off_end(q) else name(q),)
                if Move(step) not in out:
                    out.append(Move(step))
    if rules.may_attack_now(c, m):
        out += [Attack(t.id) for t in rules.attack_targets(st, m)]
    if rules.may_call(c, m):
        # per monster, the empty space furthest ahead and the one furthest back next to the
        # caller; any other empty space next to it may be typed
        spaces: dict[str, list[Pos]] = {}
        for o, q in rules.call_options(st, m):
            spaces.setdefault(o.id, []).append(q)
        for oid, qs in spaces.items():
            qs.sort(key=lambda q: (-along(q), q[1]))
            out += [Call(oid, name(q)) for q in dict.fromkeys([qs[0], qs[-1]])]
    out += [Copy(o.id) for o in rules.copy_options(st, c, m)]
    if not c.recovered and not c.attacks and out and not c.stopover:
        out.append(Recover())
    if not rules.can_still_move(st, c, m) and not c.stopover:
        out.append(End())
    return out


def legal_commands(state: MDState, seat: str) -> list[Any]:
    if state.phase == "agendas":
        if seat in state.kept:
            return []
        return [Keep(a) for a in state.dealt.get(seat, ())]
    if state.phase != "play" or seat != state.current:
        return []
    if state.control is not None:
        return control_options(state)
    if not state.die:
        return [Roll()]
    out: list[Any] = [TakeMarker()] if state.marker == "available" else []
    out += [ControlMonster(m.id) for m in state.racing() if not m.turned]
    return out
