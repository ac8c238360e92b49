"""Every command a seat may give now: candidates, each checked by deciding it."""

from __future__ import annotations

from typing import Any

from arbiter.core.dice import Rng
from arbiter.core.errors import RuleViolation
from arbiter.core.villainous import commands as C
from arbiter.core.villainous.effects import places_for
from arbiter.core.villainous.rules import decide
from arbiter.core.villainous.board import DEEP_SPACE, Table
from arbiter.projections.villainous import VState


def candidates(state: VState, seat: str) -> list[Any]:
    t = Table(state)
    d = t.d
    if d["winners"]:
        return []
    if d["pending"]:
        p = d["pending"][-1]
        return [C.Choose(o) for o in p["options"]] if p["seat"] == seat else []
    if d["fate"] is not None:
        if seat != d["fate"]["by"]:
            return []
        opp = d["fate"]["target"]
        out: list[Any] = []
        for c in d["fate"]["cards"]:
            typ = t.ctype(c)
            if typ == "hero":
                out += [C.FatePlay(c, at=l) for l in t.location_ids(opp)]
            elif typ == "item":
                if t.card(c).get("attach"):
                    heroes = t.all_of(opp, ("hero",))
                    out += [C.FatePlay(c, on=h) for h in heroes] or [C.FatePlay(c)]
                else:
                    out += [C.FatePlay(c, at=l) for l in t.location_ids(opp)]
            elif typ == "hero_vehicle":
                out += [C.FatePlay(c)] + [C.FatePlay(c, engage=a) for a in t.ally_vehicles(opp)]
            else:
                out.append(C.FatePlay(c))
        return out
    if d["window"]:
        if d["window"]["queue"][0] != seat:
            return []
        out = [C.Pass()] + [C.PlayCondition(c) for c in t.conditions_for(seat, d["window"]["trigger"])]
        return out + (hunts(t, seat) if d["options"].get("hunt_turns", "own") == "any" else [])
    if seat != d["active"]:
        return []
    if d["phase"] == "move":
        return [C.MoveMover(p) for p in t.mover_places(seat) if p != d["mover"][seat]] + hunts(t, seat)
    out: list[Any] = []
    kinds = {s for _, s in t.available(seat)}
    if any(k.startswith("credits:") for k in kinds):
        out.append(C.Collect())
    if "play" in kinds or "ambition" in kinds:
        for c in dict.fromkeys(d["hand"][seat]):
            for p in places_for(t, seat, c):
                if p.startswith("on:"):
                    out.append(C.Play(c, on=p[3:]))
                elif p == DEEP_SPACE:
                    out.append(C.Play(c))
                    out += [C.Play(c, engage=h) for h in t.hero_vehicles(seat)]
                elif p == "":
                    out.append(C.Play(c))
                else:
                    out.append(C.Play(c, at=p))
    mine = t.in_sector(seat)
    if "activate" in kinds or "ambition" in kinds:
        for c in mine:
            for a in t.card(c).get("abilities", []):
                if a.get("when") == "activate":
                    out.append(C.Activate(c))
                if a.get("when") == "ambition":
                    out.append(C.Activate(c, True))
    if "move" in kinds:
        for c, i in mine.items():
            if i["side"] == "lower" and not i.get("on") and t.ctype(c) in ("ally", "item", "contact"):
                out += [C.MoveCard(c, l) for l in t.location_ids(seat) if l != i["loc"]]
        for a in t.ally_vehicles(seat):
            out.append(C.Maneuver(a))
            out += [C.Maneuver(a, h) for h in t.hero_vehicles(seat)]
    if "discard" in kinds and d["hand"][seat]:
        out += [C.Discard((c,)) for c in d["hand"][seat]]
        if len(d["hand"][seat]) > 1:
            out.append(C.Discard(tuple(d["hand"][seat])))
    if "vanquish" in kinds:
        for h in t.all_of(seat, ("hero",)):
            loc = mine[h]["loc"]
            allies = sorted(t.cards_at(seat, loc, ("ally",)), key=lambda a: -t.strength(seat, a))
            need = t.strength(seat, h)
            pick, tot = [], 0
            for a in allies:
                if tot >= need and pick:
                    break
                pick.append(a)
                tot += t.strength(seat, a)
            if pick:
                out.append(C.Vanquish(h, tuple(pick)))
            out += [C.Vanquish(h, (a,)) for a in allies if t.strength(seat, a) >= need and [a] != pick]
        out += [C.Vanquish(h) for h in t.hero_vehicles(seat) if mine[h]["engaged"]]
    if "fate" in kinds:
        for o in d["order"]:
            if o != seat:
                out.append(C.Fate(o))
                for a in t.ally_vehicles(o):
                    for h in t.hero_vehicles(o):
                        out.append(C.Fate(o, a, h))
    out += hunts(t, seat) + [C.EndTurn()]
    # the menu's order: the decisive actions first, moving cards late, ending the turn last
    # (so that "1" never ends a turn, and a long list trims the least useful entries)
    rank = {C.Collect: 0, C.Vanquish: 1, C.Fate: 2, C.Play: 3, C.Activate: 4, C.Hunt: 5,
            C.Maneuver: 6, C.Discard: 7, C.MoveCard: 8, C.EndTurn: 9}
    return sorted(out, key=lambda c: rank.get(type(c), 5))


def hunts(t: Table, seat: str) -> list[Any]:
    limit = int(t.d["options"].get("hunts_per_turn", 0))
    return [C.Hunt(b) for b in t.all_of(seat, ("bounty",)) if not limit or t.d["hunted"].count(b) < limit]


def legal_commands(state: VState, seat: str) -> list[Any]:
    out = []
    for cmd in candidates(state, seat):
        try:
            decide(state, seat, cmd, Rng(0, 0, {}))
        except RuleViolation:
            continue
        out.append(cmd)
    return out
