"""A bot that plays sensibly: works towards its Objective and plays Fate on the leader."""

from __future__ import annotations

import random
from typing import Any, Sequence

from core.villainous import commands as C
from core.villainous.table import Table
from projections.villainous import progress


def smart(state: Any, seat: str, legal: Sequence[Any], rng: random.Random) -> Any:
    t = Table(state)
    kind = t.villain(seat)["objective"]["kind"]

    def leader() -> str:
        others = [s for s in state.seats if s != seat]
        return max(others, key=lambda s: (progress(state, s) / t.villain(s)["objective"]["count"], -others.index(s)))

    def score(cmd: Any) -> float:
        if isinstance(cmd, C.Choose):
            if cmd.option == "none":
                return 0
            return 5 if cmd.option in t.d["sector"].get(seat, {}) else 3
        if isinstance(cmd, C.PlayCondition):
            return 10
        if isinstance(cmd, C.Pass):
            return 1
        if isinstance(cmd, C.FatePlay):
            opp = t.d["fate"]["target"]
            typ = t.ctype(cmd.card)
            base = int(t.card(cmd.card).get("strength") or 0)
            return {"hero": 10 + base, "hero_vehicle": 8, "condition": 7, "effect": 6, "item": 5}.get(typ, 1)
        if isinstance(cmd, C.Vanquish):
            info = t.in_sector(seat).get(cmd.target, {})
            bonus = 0
            if kind == "targets" and info.get("targets"):
                bonus = 30
            if kind == "rebels" and "rebel" in t.card(cmd.target).get("keywords", []):
                bonus = 30
            return 40 + bonus - len(cmd.allies)
        if isinstance(cmd, C.Activate):
            return 25
        if isinstance(cmd, C.Hunt):
            return 28
        if isinstance(cmd, C.Play):
            c = t.card(cmd.card)
            v = {"bounty": 35, "contact": 30, "ally": 22, "item": 18, "effect": 20, "ally_vehicle": 12}.get(c["type"], 10)
            if cmd.at:  # prefer a location with a Hero to fight
                v += 3 if t.cards_at(seat, cmd.at, ("hero",)) else 0
            return v
        if isinstance(cmd, C.Collect):
            return 26
        if isinstance(cmd, C.Fate):
            return 24 if cmd.opponent == leader() else 15
        if isinstance(cmd, C.MoveMover):
            avail = t.symbols_at(seat, cmd.to)
            hidden = t.covered(seat, cmd.to)
            vis = [s for i, s in enumerate(avail) if i not in hidden]
            v = len(vis) + sum(int(s.split(":")[1]) for s in vis if s.startswith("credits:"))
            if "vanquish" in vis and t.all_of(seat, ("hero",)):
                v += 3
            if "play" in vis and t.d["credits"][seat] >= 2:
                v += 2
            return v
        if isinstance(cmd, C.MoveCard):
            return 8 + (4 if t.cards_at(seat, cmd.to, ("hero",)) else 0)
        if isinstance(cmd, C.Maneuver):
            return 6 if cmd.engage else 2
        if isinstance(cmd, C.Discard):
            return 3 if len(cmd.cards) == 1 else 0
        if isinstance(cmd, C.EndTurn):
            return 4
        return 1

    best = max(score(c) for c in legal)
    top = [c for c in legal if score(c) == best]
    return top[rng.randrange(len(top))]
