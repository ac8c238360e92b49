"""Build Monster Derby positions by folding events, then play them through the public Match."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from arbiter.core.errors import RuleViolation
from arbiter.core.match import Match
from arbiter.core.monster_derby import GAME
from arbiter.events.monster_derby import Damaged, EffectGained, MonsterPlaced, TrackLaid

BLANK = ["........."] * 5

# The rulebook's Example (a roll of 3): columns 1-2 are the starting board, 3-11 a test board.
#   Gargoyle 3c, Cyclops 4c, Golem 5c, Griffin 9c; 4b is brush; 5a, 5b impassable ...
EXAMPLE_ROWS = [
    "..X.X..XX",
    ".BX....WX",
    ".........",
    "B......XX",
    "..XX...XX",
]


def content_with(rows: list[str], monsters: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    content = copy.deepcopy(GAME.default_content())
    content["boards"] = [{"id": "1", "sides": {"a": rows, "b": rows}, "source": "house"}]
    if monsters:
        known = {m["id"] for m in content["monsters"]}
        content["monsters"] += [m for m in monsters if m["id"] not in known]
    return content


def scenario(placed: list[tuple[str, str, int | None]], rows: list[str] | None = None,
             seats: tuple[str, ...] = ("ann", "bob"), overrides: dict[str, dict[str, Any]] | None = None,
             options: dict[str, Any] | None = None, extra_monsters: list[dict[str, Any]] | None = None,
             agendas: list[dict[str, int]] | None = None, keep: dict[str, dict[str, int]] | None = None,
             effects: dict[str, list[str]] | None = None) -> Match:
    """A manual-dice game on one test board with only the monsters ``placed`` = (id, space, hp)."""
    content = content_with(rows or BLANK, extra_monsters)
    if agendas:
        content["agendas"] = [{"id": f"agenda-{i + 1:02d}", "points": agendas[i % len(agendas)], "source": "house"}
                              for i in range(25)]
    seed = 11
    while keep:  # a seed that deals each player an agenda paying what ``keep`` asks
        trial = Match.new(GAME, seed=seed, seats=list(seats), content=content, dice="manual",
                          options={"boards": 1, "layout": "1a", **(options or {})})
        if all(_norm(want) in trial.state.dealt_points[s] for s, want in keep.items()):
            break
        seed += 1
    base = Match.new(GAME, seed=seed, seats=list(seats),
                     options={"boards": 1, "layout": "1a", **(options or {})}, content=content,
                     dice="manual")
    cards = {m["id"]: m for m in content["monsters"]}
    events = []
    for _seq, _cid, ev in base.items:
        if isinstance(ev, MonsterPlaced):
            continue
        events.append(ev)
        if isinstance(ev, TrackLaid):
            for i, (mid, space, hp) in enumerate(placed):
                c = {**cards[mid], **(overrides or {}).get(mid, {})}
                events.append(MonsterPlaced(
                    monster=mid, name=c["name"], colour=content["colours"][i], space=space, hp=c["hp"],
                    attack=c["attack"], natives=tuple(c["natives"]), ability=c["ability"],
                    wacky_attack=c["wacky_attack"], wacky_defense=c["wacky_defense"]))
                if hp is not None and hp < c["hp"]:
                    events.append(Damaged(monster=mid, amount=c["hp"] - hp, hp=hp, cause="setup"))
                for eff in (effects or {}).get(mid, []):
                    events.append(EffectGained(monster=mid, effect=eff, until_round=0))
    m = Match(GAME, [(i + 1, "setup", ev) for i, ev in enumerate(events)])
    for s in seats:
        card = m.state.dealt[s][0]
        if keep and s in keep:
            card = m.state.dealt[s][list(m.state.dealt_points[s]).index(_norm(keep[s]))]
        m.apply(s, f"keep {card}")
    return m


def _norm(points: dict[str, Any]) -> dict[str, tuple[int, ...]]:
    return {c: (tuple(v) if isinstance(v, (list, tuple)) else (v, v, v)) for c, v in points.items()}


def seat(m: Match) -> str:
    return m.to_act().seats[0]


def control(m: Match, monster: str, die: int) -> str:
    """Roll ``die`` (physical dice) and take control of ``monster``; returns the seat."""
    s = seat(m)
    m.apply(s, f"roll {die}")
    m.apply(s, f"control {monster}")
    return s


def rejected(m: Match, text: str, rule: str, who: str | None = None) -> RuleViolation:
    before = m.seq
    with pytest.raises(RuleViolation) as exc:
        m.apply(who or seat(m), text)
    assert exc.value.rule_id == rule, (exc.value.rule_id, str(exc.value))
    assert m.seq == before
    return exc.value


def mon(m: Match, mid: str):
    return m.state.monsters[mid]


def events_of(events, cls):
    return [e for e in events if isinstance(e, cls)]


def finish_turn(m: Match) -> None:
    """Play out the controlled monster's turn: its first legal steps, then end."""
    while m.state.control is not None:
        legal = m.legal_texts(seat(m))
        step = next((t for t in legal if t.startswith(("move", "fly"))), None)
        m.apply(seat(m), step or "end")
