"""Text rendering of a Monster Derby race: the track, the monsters, whose turn it is."""

from __future__ import annotations

import re
from typing import Any

from arbiter.cli.common import escape
from arbiter.cli.render import house_options
from arbiter.core.monster_derby import GAME
from arbiter.core.monster_derby.board import LANES, parse_space
from arbiter.projections.monster_derby import label

GLYPH = {"path": ".", "rock": "^", "brush": "\"", "water": "~", "desert": ":", "impassable": "#"}


def house(source: str) -> str:
    """' (house)' for authored content, ' (house numbers)' for a rulebook monster whose card the
    rulebook only names, '' for the rulebook's own."""
    if source == "house":
        return " (house)"
    return " (house numbers)" if "house" in source else ""


def _code(mid: str, taken: dict[str, str]) -> str:
    """A two-letter code per monster, unique within the race."""
    for cand in (mid[:2], mid[0] + mid[-1], mid[:1] + mid[2:3]):
        if cand.upper() not in taken.values():
            return cand.upper()
    return mid[:1].upper() + str(len(taken))


def _pts(p: Any) -> str:
    """Agenda points: one number, or 1st/2nd/3rd place when they differ."""
    p = tuple(p)
    return str(p[0]) if len(set(p)) == 1 else "/".join(map(str, p))


def render(state: Any, seat: str | None) -> str:
    """The race as plain text, escaped for rich: a monster or agenda a content file names
    ``[bold red]`` is shown as written."""
    lines: list[str] = []
    codes: dict[str, str] = {}
    for mid in state.order:
        codes[mid] = _code(mid, codes)
    # End Monster Turn: "After the monster resolves its action and full movement, rotate it":
    # the monster under control is not shown turned until its turn is over
    now = state.control.monster if state.control is not None else ""
    where: dict[tuple[int, int], str] = {}
    for mid in state.order:
        m = state.monsters[mid]
        p = parse_space(m.space)
        if m.status == "racing" and p:
            where[p] = codes[mid] if not m.turned or mid == now else codes[mid].lower()
    for mid, sp in state.graves.items():
        p = parse_space(sp)
        if p and p not in where:
            where[p] = "+" + codes[mid][0]
    boards = getattr(state, "sources", {}).get("boards", "")
    lines.append(f"Monster Derby — round {state.round}, phase {state.phase}"
                 + (f"; boards{house(boards)}" if house(boards) else ""))
    if state.rows:
        # three characters a space; two on long tracks so that 8 boards fit in 100 columns
        w = 3 if state.columns * 3 <= 90 else 2
        header = "    " + "".join((f"{c + 1:<3}" if w == 3 else (f"{c + 1:<2}" if c % 2 == 0 else "  "))
                                 for c in range(state.columns)) + "| finish"
        lines.append(header)
        for lane, row in enumerate(state.rows):
            cells = []
            for c, ch in enumerate(row):
                t = GLYPH.get(state.terrain.get(ch, "path"), "?")
                occ = where.get((c, lane))
                cells.append((occ or (t * 2)).ljust(2) + (" " if w == 3 else ""))
            pad = " " if lane % 2 else ""
            lines.append(f" {LANES[lane]}  {pad}{''.join(cells)}|")
        lines.append("    terrain: . path  ^ rock  \" brush  ~ water  : desert  # impassable")
        lines.append("    monsters: UPPER = not yet turned, lower = turned this round, +X = grave")
    lines.append("")
    for mid in state.order:
        m = state.monsters[mid]
        hp = f"{m.hp}/{m.max_hp}" + (" RED" if 0 < m.hp <= 4 else "")
        where_s = {"finished": f"finished #{state.finishes.index(mid) + 1}" if mid in state.finishes else "finished",
                   "dead": f"dead (grave {state.graves.get(mid, '?')})"}.get(m.status, m.space)
        turned = " controlled now" if mid == now else (" turned" if m.turned and m.status == "racing" else "")
        eff = ("; clips: " + ", ".join(sorted(label(x) for x in m.effects))) if m.effects else ""
        lines.append(f"{codes[mid]} {m.name:<13} {m.colour:<7} {hp:<9} {m.attack} dice  {','.join(m.natives):<12}"
                     f" {where_s}{turned}{eff}{house(getattr(state, 'sources', {}).get(mid, ''))}")
        copied = f" (copying {label(m.copied)})" if getattr(m, "copied", "") else ""
        lines.append(f"   ability {label(m.ability)}{copied}; wacky attack"
                     f" {label(m.wacky_attack)}; wacky defense {label(m.wacky_defense)}")
    lines.append("")
    if state.phase == "agendas":
        waiting = [s for s in state.seats if s not in state.kept]
        lines.append(f"choosing agendas: waiting on {', '.join(waiting)}")
    elif state.phase == "play":
        marker = {"available": "available (not yet claimed)", "claimed": f"claimed by {state.marker_taker}",
                  "held": f"held by {state.starter}"}[state.marker]
        lines.append(f"starting player marker: {marker}")
        turn = f"{state.current}'s turn"
        if state.die:
            turn += f"; movement die {state.die}"
        if state.control is not None:
            c = state.control
            turn += (f"; controlling the {state.monsters[c.monster].name} ({c.points} points left"
                     + (", attacked" if c.attacks else "") + (", recovered" if c.recovered else "")
                     + (", landed on the way: attack now" if getattr(c, "stopover", False) else "") + ")")
        if getattr(state, "curse", None) is not None:
            cm = state.monsters[state.curse.monster]
            turn += f"\ncursed: walk the {cm.name} back 3 spaces from {cm.space} (curse SPACE ...)"
        lines.append(turn)
    elif state.phase == "over":
        lines.append(f"game over: {state.reason}")
        lines.append("finish order: " + ", ".join(state.finishes))
        lines.append("scores: " + ", ".join(f"{s} {v}" for s, v in state.scores.items())
                     + f"; winner(s): {', '.join(state.winners)}")
    if seat and seat in state.kept and state.kept[seat] != "?":
        pts = state.kept_points.get(seat, {})
        lines.append(f"your agenda ({state.kept[seat]}{', house' if house(getattr(state, 'agendas_source', '')) else ''}): " + ", ".join(f"{c} {_pts(p)}" for c, p in pts.items()))
    elif seat and state.phase == "agendas" and state.dealt.get(seat):
        for card, pts in zip(state.dealt[seat], state.dealt_points.get(seat, ())):
            lines.append(f"dealt {card}{' (house)' if house(getattr(state, 'agendas_source', '')) else ''}: " + ", ".join(f"{c} {_pts(p)}" for c, p in pts.items()))
    lines.append(house_options(GAME, state.options))
    return escape("\n".join(lines))


def compact(state: Any, seat: str | None) -> str:
    """The track and a line per monster (its abilities and the legends are in `board`)."""
    out = []
    for line in render(state, seat).split("\n"):
        if line.startswith(("   ability", "    terrain:", "    monsters:")) or not line.strip():
            continue
        out.append(line if line.startswith((" ", "|")) else re.sub(r"   +", "  ", line))
    return "\n".join(out)
