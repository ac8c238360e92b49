"""The Rockit as text, at most 80 columns wide: the venue grid with the dice and the legend
beside it, then the characters and the items."""

from __future__ import annotations

import re
import textwrap
from typing import Any

from rich.markup import escape

from arbiter.cli.render import house_options
from arbiter.core.scott_pilgrim import GAME
from arbiter.projections.scott_pilgrim import COLS, SPState, card_id

ABBR = {"scott": "SC", "ramona": "RA", "knives": "KN", "stephen": "ST", "kim": "KI",
        "matthew": "MP", "chick1": "c1", "chick2": "c2", "chick3": "c3"}
OBJ = {"table": "Tb", "chair": "Cr", "speaker": "Sp", "mic stand": "Mi", "kick drum": "Kd",
       "amp": "Am"}
WIDTH = 80
PANEL = 28  # the column beside the grid: dice and legend
LEGEND = ("walls on every edge", ". stage riser  * item space", "c1-c3 the Chicks",
          "Tb table  Cr chair  Am amp", "Sp speaker  Mi mic stand", "Kd kick drum",
          "lower case: damaged")


def _item_name(s: SPState, token: str) -> str:
    cid = card_id(token)
    for it in s.content["items"]:
        if it["id"] == cid:
            house = ", house" if it.get("source") == "house" else ""
            return f"{it['name']} ({cid}{house})"
    return token


def _status(s: SPState) -> tuple[str, str]:
    """The heading and the note under it (what the table waits on)."""
    turn = "Bad Guys" if s.team == "bad" else "Good Guys"
    limit = int(s.options.get("max_rounds", 0) or 0)
    of = f" of {limit}" if limit else ""
    status = (f"Round {s.round}{of}, the {turn}' turn"
              f" ({'roll your dice' if s.phase == 'roll' else 'act'})")
    note = ""
    if s.phase == "place":
        status = "Setup: place the characters behind the start lines (Good Guys first)"
    if s.winner:
        status = "Battle over"
        note = f"The {'Good' if s.winner == 'good' else 'Bad'} Guys win: {s.reason}"
    elif s.pending and s.pending.kind == "reaction":
        note = (f"The Bad Guys declare: {s.pending.command}\n"
                "  Good Guys answer: allow [drop OBJECT@SPACE] | pause | reversal")
    elif s.pending and s.pending.kind == "ex-throw":
        note = f"{s.pending.who} must throw {_item_name(s, s.pending.card)} from {s.pending.origin}"
    elif s.follow:
        note = "The Chicks follow Matthew first: " + ", ".join(
            f"{k} {v} space{'s' if v != 1 else ''}" for k, v in sorted(s.follow.items()))
    return status, note


def _grid(s: SPState) -> list[str]:
    w, h = int(s.content["venue"]["columns"]), int(s.content["venue"]["rows"])
    items = set(s.content["venue"]["item_spaces"])
    stage = set(s.content["venue"].get("stage", []))
    cells: dict[str, str] = {}
    for c in s.chars.values():
        if c.pos:
            cells[c.pos] = ABBR.get(c.id, c.id[:2])
    for o in s.objects.values():
        if o.pos and not o.gone:
            tag = OBJ.get(o.kind, o.kind[:2].title())
            cells[o.pos] = tag.lower() if o.damaged else tag
    lines = ["    " + "".join(f"  {COLS[x]} " for x in range(w)), "    +" + "---+" * w]
    for y in range(h - 1, -1, -1):
        row = []
        for x in range(w):
            pos = f"{COLS[x]}{y + 1}"
            if pos in cells:
                row.append(f"{cells[pos]:>2} ")
            elif pos in items:
                row.append(" * ")
            elif pos in stage:
                row.append(" . ")
            else:
                row.append("   ")
        lines.append(f" {y + 1:>2} |" + "|".join(row) + "|")
    lines.append("    +" + "---+" * w)
    return lines


def _panel(s: SPState) -> list[str]:
    out: list[str] = []
    if s.dice:
        free = " ".join(d.face for d in s.dice if not d.spent) or "none"
        spent = " ".join(d.face for d in s.dice if d.spent) or "none"
        out += textwrap.wrap(f"Dice to spend: {free}", PANEL, subsequent_indent="  ")
        out += textwrap.wrap(f"Spent: {spent}", PANEL, subsequent_indent="  ")
        if s.rerolled:
            out.append("(rerolled this turn)")
    else:
        out.append("Dice: not rolled")
    out.append("")
    return out + list(LEGEND)


def render(state: Any, seat: str | None) -> str:
    s: SPState = state
    status, note = _status(s)
    lines = [f"The Rockit  {status}"]
    if note:
        lines.extend(_wrap(note))
    grid = _grid(s)
    gw = max(len(g) for g in grid)
    panel = _panel(s)
    if gw + 2 + PANEL <= WIDTH:  # the dice and legend beside the grid
        for i in range(max(len(grid), len(panel))):
            left = grid[i] if i < len(grid) else ""
            right = panel[i] if i < len(panel) else ""
            lines.append((left.ljust(gw) + "  " + right).rstrip())
    else:  # a wide venue (other content): the panel goes below
        lines += grid + [p for p in panel if p]
    limit = int(s.options.get("max_rounds", 0) or 0)
    if limit:
        lines.extend(_wrap(f"House round limit {limit}: if Matthew still stands then, the"
                           " larger share of starting Health wins."))
    names = {cid: ("Chick " + cid[-1] if d.get("chick") else d["name"])
             for cid, d in s.content["characters"].items()}
    name_w = max(len(names[c]) for c in s.chars)
    seat_w = max(len(x) for x in s.seats)
    lines.append("Characters:")
    for c in s.chars.values():
        if c.out:
            where = "out"
        elif c.poofed:
            where = "poofed"
        else:
            where = c.pos or "-"
        extra = []
        if not c.chick:
            extra.append(f"Health {c.health}/{c.start_health}")
            extra.append(f"XP {c.xp}/{s.content['xp_to_level']}")
            extra.append(f"level {c.level}")
            if c.combo:
                extra.append("combo ready")
        if c.team == "good":
            extra.append(f"boosters {c.boosters}")
        if c.holding:
            extra.append(f"holding the {s.objects[c.holding].kind} ({c.holding})")
        if c.id in s.follow:
            n = s.follow[c.id]
            extra.append(f"to follow Matthew {n} space{'s' if n != 1 else ''}")
        head = (f"  {ABBR.get(c.id, c.id[:2]):>2} {names[c.id]:<{name_w}} {where:<6}"
                f" {s.control.get(c.id, ''):<{seat_w}} ")
        lines.extend(_wrap(head + ", ".join(extra), " " * len(head)))
        eq = s.equipped.get(c.id, ())
        if eq:
            lines.extend(_pack("     equipped: ", [_item_name(s, t) for t in eq]))
    hand = list(s.hand)
    if hand and all(t == "?" for t in hand):
        lines.append(f"Good Guys' items: {len(hand)} hidden")
    else:
        lines.extend(_pack("Good Guys' items: ", [_item_name(s, t) for t in hand]))
    lines.extend(_pack(f"Item deck: {len(s.deck)} cards; discard: ",
                       [_item_name(s, t) for t in s.discard[-3:]]))
    house = [names[c] for c in s.chars if s.content["characters"][c].get("source") == "house"
             and not s.content["characters"][c].get("chick")]
    lines.extend(_wrap("House content (not printed in the rulebook): the venue's layout,"
                       + (f" the boards of {', '.join(house)}," if house else "")
                       + " the items marked house."))
    lines.extend(_wrap(house_options(GAME, s.options)))
    # plain text, escaped for rich (a literal [ would start markup); the title in bold
    out = [escape(line) for line in lines]
    out[0] = "[bold]The Rockit[/bold]" + out[0][len("The Rockit"):]
    return "\n".join(out)


def _pack(head: str, entries: list[str], indent: str = "  ") -> list[str]:
    """``head`` and the entries, comma-separated, never breaking an entry across lines."""
    lines = [head.rstrip() + " " if entries else head + "none"]
    for i, entry in enumerate(entries):
        piece = entry + ("," if i < len(entries) - 1 else "")
        if len(lines[-1]) + len(piece) > WIDTH and lines[-1].strip():
            lines.append(indent)
        lines[-1] += piece + " "
    return [line.rstrip() for line in lines]


def _wrap(text: str, indent: str = "  ") -> list[str]:
    """Lines of at most WIDTH characters (continuations indented)."""
    out: list[str] = []
    for part in text.split("\n"):
        out += textwrap.wrap(part, WIDTH, subsequent_indent=indent,
                             drop_whitespace=True) or [""]
    return out


def compact(state: Any, seat: str | None) -> str:
    """The venue and the characters, without the item deck and the house-content note."""
    lines = render(state, seat).split("\n")
    cut = next((i for i, line in enumerate(lines) if line.startswith("Item deck:")), len(lines))
    start = next((i for i, line in enumerate(lines) if line.startswith("Characters:")), cut)
    # the characters' columns closed up, each on one line where it fits
    people = [re.sub(r"   +", "  ", line.strip()) if not line.lstrip().startswith("equipped") else line
              for line in lines[start + 1:cut]]
    return "\n".join(lines[:start] + [p for p in people if p])
