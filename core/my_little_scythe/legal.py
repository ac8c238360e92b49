"""What a seat may do now: every command that ``rules.decide`` would accept (the menu of
``arbiter play`` and the choices of the bots), in menu order."""

from __future__ import annotations

from typing import Any

from arbiter.core.dice import Rng
from arbiter.core.errors import RuleViolation
from arbiter.core.my_little_scythe import commands as cm
from arbiter.core.my_little_scythe import rules
from arbiter.core.my_little_scythe.board import BASE, CASTLE, Board, board_of
from arbiter.projections.my_little_scythe import MSState, stock


def legal_commands(state: MSState, seat: str) -> list[Any]:
    out = []
    rng = Rng(0, 0, {k: tuple(v) for k, v in state.content["dice"].items()})
    for c in candidates(state, seat):
        try:
            rules.decide(state, seat, c, rng)
        except RuleViolation:
            continue
        rng = Rng(0, 0, {k: tuple(v) for k, v in state.content["dice"].items()})
        out.append(c)
    return out


def paths(state: MSState, seat: str, start: str, reach: int) -> dict[str, tuple[str, ...]]:
    """One shortest legal path to each space within ``reach`` (not the castle; stopping on opponents)."""
    b: Board = board_of(state.content)
    p = state.players[seat]
    portal_entry = "portal-entry" in rules.move_effects(state, seat)
    found: dict[str, tuple[str, ...]] = {}
    frontier: list[tuple[str, tuple[str, ...]]] = [(start, ())]
    for _ in range(reach):
        nxt = []
        for here, path in frontier:
            for step in b.neighbours(here, p.camp, portal_entry):
                if step == CASTLE or step == start or step in found:
                    continue
                found[step] = path + (step,)
                if not rules.owner_of(state, step, seat):
                    nxt.append((step, path + (step,)))
        frontier = nxt
    return found


def menu_rank(s: MSState, seat: str, c: Any) -> tuple[int, int, int]:
    """Moves in the order a player looks for them (the menu shows the first few): deliveries,
    staying put, pie fights, carrying, stepping onto quests or resources, then the rest;
    both Seekers interleaved, shorter paths first."""
    end = c.path[-1] if isinstance(c, (cm.Go, cm.Carry)) else ""
    if isinstance(c, cm.Carry) and end == CASTLE:
        kind = 0
    elif isinstance(c, cm.Stay):
        kind = 1
    elif end and rules.owner_of(s, end, seat):
        kind = 2
    elif isinstance(c, cm.Carry):
        kind = 3
    elif end and any(s.board.get(end, {}).values()):
        kind = 4
    else:
        kind = 5
    return kind, len(getattr(c, "path", ())), c.seeker


def candidates(state: MSState, seat: str) -> list[Any]:  # noqa: C901 - one phase a branch
    s = state
    if s.fight is not None:
        p = s.players[seat]
        top = min(s.content["dial_max"], p.pies)
        # the menu shows the plain dials first, then with every spell, then with one spell
        out: list[Any] = [cm.Dial(n) for n in range(top + 1)]
        if p.spells:
            out += [cm.Dial(n, p.spells) for n in range(top + 1)]
        if len(p.spells) > 1:
            out += [cm.Dial(n, (x,)) for x in p.spells for n in range(top + 1)]
        return out
    if s.rejuv:
        return [cm.Rejuvenate("spell"), cm.Rejuvenate("pies")]
    if s.trophy_seat:
        if seat != s.trophy_seat:
            return []
        claims = [cm.ClaimTrophy(t, (), t in s.trophy_reveal) for t in s.trophy_choices]
        return claims + ([cm.ClaimTrophy("none")] if s.trophy_optional else [])
    if s.seek:
        kind, region = s.seek[0]
        return [cm.Place(x) for x in rules.placement_spaces(s, kind, region)]
    if s.look:
        return [cm.Keep(t) for t in s.look]
    if s.moving:
        p = s.players[seat]
        out = []
        if s.delivery is not None:
            kind = s.delivery.kind
            full, lowered = rules.delivery_need(s, seat, kind)
            needs = [(full, False)] + ([(lowered, True)] if lowered is not None and not p.personality_revealed else [])
            for i in s.moving:
                have = stock(s, p.seekers[i - 1], kind) if p.seekers[i - 1] != BASE else 0
                for need, reveal in needs:
                    rest = need - s.delivery.count
                    for n in sorted({have, min(have, rest)}):
                        for path in rules.castle_paths(s, seat, p.seekers[i - 1]) if n > 0 else []:
                            a = n if kind == "apple" else 0
                            out.append(cm.Carry(i, path, a, n - a, reveal))
            return out
        for i in s.moving:
            start = p.seekers[i - 1]
            out.append(cm.Stay(i))
            reach = 3 if "unladen-range" in rules.move_effects(s, seat) else 2
            for _dest, path in sorted(paths(s, seat, start, reach).items()):
                out.append(cm.Go(i, path))
            if start == BASE:
                continue
            apples, gems = stock(s, start, "apple"), stock(s, start, "gem")
            if not apples and not gems:
                continue
            loads = {(apples, gems), (apples, 0), (0, gems)} - {(0, 0)}
            creach = 2 if "carry-range" in rules.move_effects(s, seat) else 1
            for _dest, path in sorted(paths(s, seat, start, creach).items()):
                for a, g in sorted(loads):
                    out.append(cm.Carry(i, path, a, g))
            for path in rules.castle_paths(s, seat, start):
                for kind, n in (("apple", apples), ("gem", gems)):
                    full, lowered = rules.delivery_need(s, seat, kind)
                    revealed = s.players[seat].personality_revealed
                    for need, reveal in [(full, False)] + ([(lowered, not revealed)] if lowered is not None else []):
                        for k in sorted({n, min(n, need)} - {0}):
                            out.append(cm.Carry(i, path, k if kind == "apple" else 0,
                                                k if kind == "gem" else 0, reveal))
        return sorted(out, key=lambda c: menu_rank(s, seat, c))
    if s.quest_card:
        card = rules.quest_card(s, s.quest_card)
        p = s.players[seat]
        spaces = rules.seeker_spaces(p)
        targets = [x for x in board_of(s.content).ids if rules.owner_of(s, x, seat)]
        out = []
        for n, opt in enumerate(card["options"], start=1):
            ons = spaces if any(opt.get("gain", {}).get(k) for k in rules.KINDS) else [""]
            tos = targets if opt.get("give") else [""]
            for on in ons:
                for to in tos:
                    out.append(cm.QuestOption(n, "", on, to))
        out.append(cm.NoThanks())
        return out
    if s.quest_spaces:
        return [cm.Explore(x) for x in s.quest_spaces] + [cm.LeaveQuests()]
    out = []
    for a in rules.mat_actions(s, seat):
        if a["kind"] == "power-up":
            out += [cm.ChooseAction(a["id"], pile) for pile in ("move", "make")]
        else:
            out.append(cm.ChooseAction(a["id"]))
    return out
