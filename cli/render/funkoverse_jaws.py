"""Text picture of a Funkoverse Jaws 100 match: the map with obstructions and walls,
characters standing (capitals) or knocked down (lower case), status cards, both cooldown
tracks and the ability-token pools."""

from __future__ import annotations

from typing import Any

from arbiter.cli.common import escape
from arbiter.core.funkoverse_jaws.board import parse_square, square_name
from arbiter.projections.funkoverse_jaws import FJState, captain, count

LETTER = {"quint": "Q", "shark": "S", "swimmer": "W", "tiger-shark": "T"}


def _cell(state: FJState, sq: str, occupant: dict[str, Any], markers: dict[str, str]) -> str:
    if sq in state.board.filled:
        return "###"
    c = occupant.get(sq)
    mark = markers.get(sq, "")
    if c is not None:
        letter = LETTER.get(c.id, c.id[0].upper())
        body = letter if c.standing else letter.lower()
        extra = "~" if c.emerged is False else ("^" if c.emerged else "")
        return ("*" if c.id == state.active and state.phase == "act" else " ") + body + (extra or mark[:1] or " ")
    if mark:
        return mark.center(3)
    if sq in state.board.start.get("light", ()):
        return " , "
    if sq in state.board.start.get("dark", ()):
        return " ; "
    return " . "


#: The columns the whole picture fits (a terminal's 80).
WIDTH = 80


def render(state: FJState, seat: str | None) -> str:
    b = state.board
    occupant = {c.square: c for c in state.chars.values() if c.square}
    markers: dict[str, str] = {}
    for letter, sq in state.point_markers.items():
        if sq:
            markers[sq] = letter
    for side, sq in b.flags.items():
        if state.mode == "flags":
            markers.setdefault(sq, "F" + side[0])
    for area, sqs in b.control_areas.items():
        if state.mode == "control":
            for sq in sqs:
                markers.setdefault(sq, f"{area}")
    for area, (side, sq) in state.control.items():
        markers[sq] = "C" + side[0]
    walls = {frozenset(w) for w in b.walls}
    posts = {tuple(p) for p in b.posts}
    filled = {parse_square(s) for s in b.filled}

    def corner(x: int, y: int) -> str:
        if (x, y) in posts:
            return "o"
        if any((x - i, y - j) in filled for i in (0, 1) for j in (0, 1)):
            return "#"
        return "+"

    lines = [f"{state.board.name} (house layout) — {state.mode.replace('-', ' ')}, round {state.round}"]
    for y in range(b.rows - 1, -1, -1):
        # the top edge of row y
        top = "   "
        for x in range(b.columns):
            above = (x, y + 1)
            edge = "---" if y == b.rows - 1 or frozenset((square_name((x, y)), square_name(above))) in walls else "   "
            top += corner(x, y + 1) + edge
        top += corner(b.columns, y + 1)
        lines.append(top)
        row = f"{y + 1:>2} |"
        for x in range(b.columns):
            sq = square_name((x, y))
            row += _cell(state, sq, occupant, markers)
            right = square_name((x + 1, y)) if x + 1 < b.columns else None
            row += "|" if right is None or frozenset((sq, right)) in walls else " "
        lines.append(row)
    lines.append("   " + "".join(corner(x, 0) + "---" for x in range(b.columns)) + corner(b.columns, 0))
    lines.append("     " + "   ".join(chr(97 + x) for x in range(b.columns)))
    board_lines = lines[1:]
    width = max(len(x) for x in board_lines) + 3
    info = [part for line in side_panel(state) for part in wrap(line, max(30, WIDTH - width))]
    out = [lines[0]]
    for i in range(max(len(board_lines), len(info))):
        left = board_lines[i] if i < len(board_lines) else ""
        right = info[i] if i < len(info) else ""
        out.append((left.ljust(width) + right).rstrip())
    out += key_lines(state)
    if state.phase == "over":
        out.append("game over: " + state.reason)
    else:
        who = state.active and state.chars[state.active].name
        out.append("now: setting up the table" if not state.turn_side else f"now: {state.turn_side} — {state.phase}" + (f" ({who}, {count(state.actions_left, 'action')} left)" if state.phase == "act" else "")
                   + (f"; waiting on {captain(state, state.turn_side)}" if state.turn_side else ""))
    return escape("\n".join(out))  # plain text for rich: a name may hold a [ of its own


def wrap(line: str, width: int) -> list[str]:
    """Break a panel line at '; ' or ' | ' (else at a space) so that the whole picture fits
    80 columns."""
    out: list[str] = []
    indent = " " * (len(line) - len(line.lstrip()) + 2)
    while len(line) > width:
        cut = max(line.rfind("; ", 0, width), line.rfind(" | ", 0, width))
        skip = 2  # the separator ("; ", or " |" with its space stripped below)
        if cut <= len(indent):
            cut, skip = line.rfind(" ", 0, width), 1
        if cut <= len(indent):
            break
        out.append(line[:cut + 1].rstrip())
        line = indent + line[cut + skip:].lstrip("| ")
    return out + [line]


def cooldown_label(state: FJState, key: str) -> str:
    """'token:might' -> 'might token', 'char:quint' -> 'Quint', 'point:A' -> 'point A'."""
    kind, _, rest = key.partition(":")
    if kind == "token":
        return f"{rest} token"
    if kind == "char":
        return state.chars[rest].name if rest in state.chars else rest
    if kind == "item":
        return "Harpoon Gun"
    if kind == "point":
        return f"point {rest}"
    return key


def status_label(card: str) -> str:
    if card == "hunted":
        return "Hunted"
    if card.startswith("barrel-"):
        return f"Barrel ({card.split('-', 1)[1]} gun)"
    return card


def side_panel(state: FJState) -> list[str]:
    """Beside the map: each side's points, pool, cooldown track and characters."""
    lines: list[str] = []
    for side_name in state.side_order:
        sd = state.sides[side_name]
        first = " — First Player" if state.first == side_name else ""
        pts = f"; {count(sd.points, 'point')}" if state.mode != "first-game" else ""
        lines.append(f"{side_name.upper()} ({', '.join(sd.seats)}){first}{pts}")
        lines.append("  pool: " + (", ".join(sorted(sd.pool)) or "empty") + (" (house: tokens from the dots)"
                                                                          if dots_are_house(state, side_name) else ""))
        track = {n: sorted(cooldown_label(state, k) for k, v in sd.cooldown.items() if v == n) for n in (1, 2, 3, 4)}
        lines.append("  cooldown: " + " | ".join(f"{n}: {', '.join(track[n]) or '-'}" for n in (1, 2, 3, 4)))
        for c in state.chars.values():
            if c.side != side_name:
                continue
            letter = LETTER.get(c.id, c.id[0].upper())
            if c.square:
                where = c.square + ("" if c.standing else " KNOCKED DOWN")
            else:
                where = "knocked out" if c.out else "off the map"
            who = f" ({c.seat})" if len(sd.seats) > 1 else ""
            bits = [f"  {letter} {c.name}{who}: {where}", f"def {c.defense}"]
            cards = [status_label(x) for x in c.statuses]
            if c.emerged is not None:
                cards.append("Emerged" if c.emerged else "Submerged")
            if cards:
                bits.append(", ".join(cards))
            if c.item:
                bits.append("Harpoon Gun")
            if c.exhausted:
                bits.append("exhausted")
            if c.id == state.active and state.phase == "act":
                bits.append("ACTING")
            lines.append("; ".join(bits))
        lines.append("")
    return lines


def dots_are_house(state: FJState, side: str) -> bool:
    """Which ability tokens a character's dots give is not printed in the rulebook."""
    chars = state.content.get("characters", {})
    return any("house" in str(chars.get(c.id, {}).get("dots_source", "")) for c in state.chars.values() if c.side == side)


def house_line(state: FJState) -> list[str]:
    """The house pieces in play, named so that a player knows what the rulebook does not give."""
    bits = []
    m = state.content.get("maps", {}).get(state.board.id, {})
    if "house" in str(m.get("source", "house")):
        bits.append(f"the {state.board.name} layout")
    if any(dots_are_house(state, s) for s in state.side_order):
        bits.append("the tokens the dots give")
    return ["house (rules.toml, HOUSE.md): " + ", ".join(bits)] if bits else []


def key_lines(state: FJState) -> list[str]:
    extra = (", 1-3 control areas, Cl/Cd control markers" if state.mode == "control" else "") \
        + (", Fl/Fd flags" if state.mode == "flags" else "")
    lines = ["key: Q Quint, W Swimmer, S Shark, T Tiger Shark (lower case: knocked down)",
             "     ~ submerged, ^ emerged, * acting; ### filled; | --- walls; o blocked corner",
             "     , light and ; dark starting areas; A-D point markers" + extra]
    return lines + house_line(state)


def compact(state: FJState, seat: str | None) -> str:
    """The board and both teams' panels, without the key and the house note below them."""
    lines = render(state, seat).split("\n")
    key = next((i for i, line in enumerate(lines) if line.startswith("key:")), None)
    if key is None:
        return "\n".join(lines)
    rest = [line for line in lines[key:] if not line.startswith((" ", "key:", "house ("))]
    return "\n".join(lines[:key] + rest)
