"""Text renderer for My Little Scythe: the hex map of Pomme, each player's mat and tracks."""

from __future__ import annotations

import textwrap
from typing import Any

from arbiter.cli.common import escape
from arbiter.core.my_little_scythe import rules
from arbiter.core.my_little_scythe.board import BASE, CASTLE, board_of
from arbiter.projections.my_little_scythe import PROJECTION, MSState

CELL = 11


def house(entry: dict[str, Any] | None) -> str:
    """' (house)' for authored content, ' (rulebook name, house effect)' for a mix, '' for the
    rulebook's own: a player sees which cards and numbers the rulebook does not give."""
    src = str((entry or {}).get("source", ""))
    return f" ({src})" if "house" in src else ""


def _entry(state: MSState, table: str, key: str) -> dict[str, Any]:
    return next((x for x in state.content[table] if x["id"] == key), {})


def letters(state: MSState) -> dict[str, str]:
    """A lower-case letter per player for the map (a, b, c, ... in seat order)."""
    return {seat: "abcdef"[i] for i, seat in enumerate(state.seats)}


def _cell_lines(state: MSState, space: str, marks: dict[str, list[str]]) -> tuple[str, str]:
    b = board_of(state.content)
    kind = b.spaces[space]["kind"]
    name = "CASTLE" if space == CASTLE else (space + "*" if kind == "portal" else space)
    top = f"{name} {' '.join(marks.get(space, []))}"
    here = state.board.get(space, {})
    res = "".join(f"{n}{k[0]}" for k, n in here.items() if k != "quest" and n)
    if here.get("quest"):
        res += "Q" * here["quest"]
    if kind == "portal" and not res:
        res = "portal"
    return top[:CELL - 1].ljust(CELL), ("." + res if res else ".")[:CELL - 1].ljust(CELL)


def render_map(state: MSState, one_line: bool = False) -> str:
    """The hex map, two lines a space (name and Seekers; what lies there), or one
    (``R5d1:2aQ``) for a short terminal."""
    b = board_of(state.content)
    marks: dict[str, list[str]] = {}
    initials = letters(state)
    for s, p in state.players.items():
        for i, w in enumerate(p.seekers, start=1):
            if w != BASE:
                marks.setdefault(w, []).append(f"{initials[s]}{i}")
    by_pos = {(sp["q"], sp["r"]): sp["id"] for sp in state.content["spaces"]}
    radius = max(max(abs(q), abs(r), abs(q + r)) for q, r in by_pos)
    lines = []
    for r in range(-radius, radius + 1):
        row = [by_pos[(q, r)] for q in range(-radius, radius + 1) if (q, r) in by_pos]
        indent = " " * ((2 * radius + 1 - len(row)) * CELL // 2)
        cells = [_cell_lines(state, sp, marks) for sp in row]
        if one_line:
            joined = ["".join(top.split()) + ":" + low.strip()[1:] for top, low in cells]
            lines.append(indent + "".join(j[:CELL - 1].ljust(CELL) for j in joined))
            continue
        lines.append(indent + "".join(c[0] for c in cells))
        lines.append(indent + "".join(c[1] for c in cells))
    mapped = "house map; " if any(sp.get("source") == "house" for sp in state.content["spaces"]) else ""
    lines.append(mapped + "regions: " + ", ".join(f"{r['letter']}={r['name']}" for r in state.content["regions"]))
    lines.append("P*=portal (portals are adjacent to each other); CASTLE=Castle Everfree (deliveries only)")
    lines.append("resources: Na apples, Ng gems, Q quest token; Seekers a1 a2 (letters by each player);"
                 " *=last action")
    return "\n".join(lines)


def render_player(state: MSState, seat: str, viewer: str | None) -> str:
    """A player's mat in at most four lines of 100 columns."""
    p = state.players[seat]
    section = state.options.get("section_name", "make").capitalize()
    fronts = board_of(state.content).fronts[p.camp]
    seekers = ", ".join("base camp" if w == BASE else w for w in p.seekers)
    if "?" in p.spells:  # the view has already hidden another seat's hand
        spells = f"{len(p.spells)} hidden"
    else:
        spells = ", ".join(f"{c}({rules.spell_value(state, c)}{', house' if house(_entry(state, 'spells', c)) else ''})"
                           for c in p.spells) or "none"
    if p.personality == "?":
        pers = "secret"
    else:
        card = rules.personality(state, p.personality) or {}
        pers = f"{card.get('name', p.personality)}{house(card)} ({card.get('trophy')} at {card.get('requirement')})"
        pers += ", revealed" if p.personality_revealed else ", secret"
    tiles = ", ".join(f"{k}: {_entry(state, 'power_ups', v)['name']}{house(_entry(state, 'power_ups', v))}"
                      for k, v in p.tiles.items()) or "none"
    groups: dict[str, list[str]] = {}
    for a in rules.mat_actions(state, seat):
        sec = section if a["section"] == "make" else a["section"].capitalize()
        groups.setdefault(sec, []).append(a["id"] + ("*" if p.last_action == a["id"] else ""))
    mat = "  ".join(f"{sec}: {', '.join(ids)}" for sec, ids in groups.items())
    top = state.content["trophies_per_player"]
    floor = state.content["trophy_min_friendship"]
    # "If your friendship is below 3, you won't be able to earn any trophies" (Low Friendship)
    low = f" (friendship below {floor}: none can be earned)" if p.friendship < floor and len(p.trophies) < top else ""
    lines = [
        f"== {seat} ({letters(state)[seat]}1 {letters(state)[seat]}2; camp {p.camp} by {' '.join(fronts)})"
        f"  Seekers: {seekers}  friendship {p.friendship}  pies {p.pies}/{pie_top(state)}",
        f"   trophies {len(p.trophies)}/{top}: {', '.join(p.trophies) or 'none'}{low}   spells: {spells}",
        f"   personality: {pers}   power-ups: {tiles}   quests done: {len(p.quests)}",
        f"   mat{' (house)' if any(a.get('source') == 'house' for a in state.content['mat']) else ''}: {mat}",
    ]
    return "\n".join(textwrap.fill(x, 100, subsequent_indent="     ") for x in lines)


def pie_top(state: MSState) -> int:
    """The top of the Pie Track ("which can go up to 10", Craft), from the content."""
    return int(state.content["tracks"]["pies"]["max"])


def render(state: MSState, seat: str | None) -> str:
    """The table as plain text, escaped for rich (a name may hold a [ of its own)."""
    return escape(_text(state, seat))


def _text(state: MSState, seat: str | None) -> str:
    out = [f"My Little Scythe - turn {state.turn}" + (" - GRAND FINALE" if state.finale else "")]
    out.append(render_map(state))
    out.append(f"supply: {state.supply.get('apple', 0)} apples, {state.supply.get('gem', 0)} gems,"
               f" {state.supply.get('quest', 0)} quest tokens; decks: {len(state.quest_deck)} quests,"
               f" {len(state.spell_deck)} spells, power-ups move {len(state.piles.get('move', ()))}"
               f" / make {len(state.piles.get('make', ()))}")
    for s in state.order:
        out.append(render_player(state, s, seat))
    if state.fight is not None:
        f = state.fight
        dialed = ", ".join(x for x in (f.attacker, f.defender) if x in f.pies) or "nobody"
        out.append(f"PIE FIGHT on {f.space}: {f.attacker} attacks {f.defender}; dials set: {dialed}")
        mine = f.pies.get(seat, -1) if seat else -1
        if mine >= 0:  # the seat's own dial, which its view keeps (the other's reads -1)
            clipped = f.spells.get(seat) or ()
            out.append(f"your dial: {mine} pie{'' if mine == 1 else 's'}" + (f", with {', '.join(clipped)}" if clipped else ""))
    if state.delivery is not None:
        d = state.delivery
        out.append(f"delivery under way: {d.count}/{d.need} {d.kind}s at Castle Everfree")
    if state.look and "?" not in state.look:
        out.append("power-ups to choose from: " + ", ".join(
            f"{t} ({_entry(state, 'power_ups', t)['name']}{house(_entry(state, 'power_ups', t))})" for t in state.look))
    if state.quest_card:
        q = rules.quest_card(state, state.quest_card)
        out.append(f"quest {q['id']} {q['name']}{house(q)}: 1) {_opt(q['options'][0])}  2) {_opt(q['options'][1])}  or No Thanks")
    if state.trophy_seat:
        reveal = set(state.trophy_reveal)
        shown = [t + (" (reveal your card)" if t in reveal else "") for t in state.trophy_choices]
        out.append(f"trophy to choose ({state.trophy_seat}): " + (", ".join(shown) or "a secret choice")
                   + (", or none" if state.trophy_optional else ""))
    if state.ended:
        out.append(f"GAME OVER: {', '.join(state.winners)} rule Pomme ({state.end_reason})")
    else:
        d = PROJECTION.to_act(state)
        out.append(f"waiting on {', '.join(d.seats)}: {d.prompt}" if d.seats else "setting up the table")
    return "\n".join(out)


def _opt(o: dict[str, Any]) -> str:
    parts = []
    for key, word in (("pay", "pay"), ("give", "pay another player"), ("lose", "lose"), ("gain", "gain")):
        if o.get(key):
            parts.append(word + " " + ", ".join(_amount(n, k) for k, n in o[key].items()))
    return "; ".join(parts)


def _amount(n: int, kind: str) -> str:
    """A count as the log and the rulebook write it: "2 gems", "1 spell", "1 pie", "2 pies";
    friendship is a track, never plural ("I gain 1 friendship for each resource")."""
    if kind == "friendship":
        return f"{n} friendship"
    one = kind.removesuffix("s") if kind == "pies" else kind
    return f"{n} {one}" if n == 1 else f"{n} {one}s"


def compact(state: MSState, seat: str | None) -> str:
    """The map without its legend, a line per player, and what is awaited."""
    out = [f"My Little Scythe - turn {state.turn}" + (" - GRAND FINALE" if state.finale else "")]
    out += render_map(state, one_line=True).split("\n")[:-3]  # the legend's three lines: `board` has them
    for s in state.order:
        p = state.players[s]
        seekers = ",".join("camp" if w == BASE else w for w in p.seekers)
        mine = ""
        if s == seat:
            mine = f"  spells {', '.join(p.spells) or 'none'}" + ("" if p.personality == "?" else f"  {p.personality}")
        out.append(f"{s} ({letters(state)[s]}): {seekers}  friendship {p.friendship}  pies {p.pies}/{pie_top(state)}"
                   f"  trophies {len(p.trophies)}{mine}")
    full = _text(state, seat).split("\n")
    start = next(i for i, line in enumerate(full) if line.startswith("supply:"))
    out += [line for line in full[start + 1:] if not line.startswith(("==", "   "))]
    return escape("\n".join(out))
