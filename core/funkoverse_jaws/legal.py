"""What a seat may do now: every command that ``rules.decide`` would accept (the menu of
``arbiter play`` and the choices of the bots), in menu order."""

from __future__ import annotations

import msgspec

from arbiter.core.funkoverse_jaws import commands as C
from arbiter.core.funkoverse_jaws import rules as R
from arbiter.core.funkoverse_jaws.board import parse_square, square_name
from arbiter.projections.funkoverse_jaws import FJState


def legal_commands(state: FJState, seat: str) -> list[C.Command]:
    if seat not in R.PROJECTION.to_act(state).seats:
        return []
    p = state.phase
    out: list[C.Command] = []
    if p == "place":
        side = state.chars[state.pending_place[0]].side
        sqs = R.placement_squares(state, side)
        return [C.Place(c, sq) for c in state.pending_place if state.chars[c].side == side for sq in sqs]
    if p == "choose":
        return [C.Choose(c.id) for c in state.chars.values() if c.side == state.turn_side and not c.exhausted]
    if p == "jaws":
        return [C.Put(sq) for sq in R.jaws_squares(state)] + [C.Leave()]
    if p == "veteran":
        return [C.Hunt(c) for c in R.veteran_targets(state)] + [C.NoHunt()]
    if p == "flags":
        return [C.Return(c) for c in R.flag_eligible(state, state.turn_side)] + [C.Done()]
    if p != "act":
        return []
    content = state.content
    c = state.chars[state.active or ""]
    out.append(C.End())
    left = state.actions_left
    here = parse_square(c.square) if c.square else None
    if here is None or left < 1:
        return out
    pool = state.sides[c.side].pool
    rivals = [t for t in state.chars.values() if t.side != c.side and t.square is not None]
    hp = R.harpoon_available(state, c)

    def with_harpoon(kind: type, first: str) -> list[C.Command]:
        return [kind(first)] + ([kind(first, True)] if hp else [])

    def next_to(t_square: str | None) -> bool:
        assert here is not None
        return R.adjacent(state, c.side, here, parse_square(t_square or ""))

    abil = content["characters"][c.id].get("abilities", {})
    if not c.standing:
        if left >= 2:
            out.append(C.Rally())
        if "compare-scars" in abil and abil["compare-scars"]["type"] in pool:
            for t in rivals:
                if next_to(t.square):
                    out += with_harpoon(C.CompareScars, t.id)
        return out
    by_move = R.reachable(state, c, R.move_allowance(c, 2))
    for sq in sorted(by_move):
        out.append(C.Move((square_name(sq),)))
    if c.emerged is not False:
        for t in rivals:
            if next_to(t.square):
                out += with_harpoon(C.Challenge, t.id)
        for a in state.chars.values():
            if a.side == c.side and a.id != c.id and a.square and not a.standing and next_to(a.square):
                out.append(C.Assist(a.id))
        if state.mode != "first-game":
            for letter, sq in sorted(state.point_markers.items()):
                if sq and (parse_square(sq) == here or next_to(sq)):
                    out.append(C.InteractPoint(letter))
            if state.mode == "control":
                for area, sqs in state.board.control_areas.items():
                    if c.square in sqs and area not in state.control:
                        out += [C.InteractMark(sq) for sq in sqs]
                for area, (_side, sq) in state.control.items():
                    if parse_square(sq) == here or next_to(sq):
                        out.append(C.InteractFlip(area))
    else:
        out.append(C.Emerge())
    for aid, spec in abil.items():
        if spec["type"] not in pool:
            continue
        if aid == "swim":
            for sq in sorted(R.reachable(state, c, R.move_allowance(c, spec["move"]))):
                if sq not in by_move:  # a plain Swim to where a basic move goes only spends a token
                    out.append(C.Swim((square_name(sq),)))
                out.append(C.Swim((square_name(sq),), True))
        elif aid == "blood-in-the-water":
            resurface = not c.emerged or state.options.get("placing-is-moving", False)
            for sq in R.blood_squares(state, c, spec):
                out += [C.BloodInTheWater(sq)] + ([C.BloodInTheWater(sq, True)] if resurface else [])
        elif aid == "jaws" and c.emerged:
            for t in rivals:
                if next_to(t.square):
                    out += with_harpoon(C.Jaws, t.id)
        elif aid == "can-crusher":
            for t in rivals:
                tp = parse_square(t.square or "")
                if R.within(here, tp, spec["range"]) and R.sees(state, c.side, here, tp):
                    out += with_harpoon(C.CanCrusher, t.id)
        elif aid == "compare-scars":
            for t in rivals:
                if next_to(t.square):
                    out += with_harpoon(C.CompareScars, t.id)
        elif aid == "farewell-and-adieu":
            h = R.hunted_rival(state, c.side)
            if h is None or h.square is None:
                continue
            tp = parse_square(h.square)
            if not R.sees(state, c.side, here, tp):
                continue
            dests = [here] + sorted(R.reachable(state, c, R.move_allowance(c, spec["move"]), toward=tp))
            for d in dests:
                there = msgspec.structs.replace(c, square=square_name(d))
                s2 = msgspec.structs.replace(state, chars={**state.chars, c.id: there})
                if R.adjacent(s2, c.side, d, tp):
                    out += with_harpoon(C.FarewellAndAdieu, square_name(d))
    return sorted(out, key=menu_order)


MENU: dict[type, int] = {
    C.Challenge: 0, C.Jaws: 0, C.CanCrusher: 0, C.CompareScars: 0, C.FarewellAndAdieu: 0,
    C.Assist: 1, C.InteractPoint: 1, C.InteractMark: 1, C.InteractFlip: 1, C.Emerge: 1, C.Rally: 1,
    C.End: 2, C.Move: 3, C.Swim: 4, C.BloodInTheWater: 5,
}


def menu_order(cmd: C.Command) -> tuple[int, int]:
    """`arbiter play` numbers the first 30: challenges and other targeted actions, then end,
    then moves, Swims beyond a basic move, Blood in the Water; variants that emerge last."""
    return MENU.get(type(cmd), 9), int(bool(getattr(cmd, "emerge", False)))
