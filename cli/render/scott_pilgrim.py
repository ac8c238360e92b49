"""The Rockit as text: the venue grid, the dice pool, the characters and the items."""

from __future__ import annotations

import textwrap
from typing import Any

from rich.markup import escape

from arbiter.projections.scott_pilgrim import COLS, SPState, card_id

ABBR = {"scott": "SC", "ramona": "RA", "knives": "KN", "stephen": "ST", "kim": "KI",
        "matthew": "MP", "chick1": "c1", "chick2": "c2", "chick3": "c3"}
OBJ = {"table": "Tb", "chair": "Cr", "speaker": "Sp", "mic stand": "Mi", "kick drum": "Kd",
       "amp": "Am"}
WIDTH = 100


def _item_name(s: SPState, token: str) -> str:
    cid = card_id(token)
    for it in s.content["items"]:
        if it["id"] == cid:
            return f"{it['name']} ({cid})"
    return token


def render(state: Any, seat: str | None) -> str:
    s: SPState = state
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
    lines = []
    turn = "Bad Guys" if s.team == "bad" else "Good Guys"
    limit = int(s.options.get("max_rounds", 0) or 0)
    of = f" of {limit}" if limit else ""
    status = (f"Round {s.round}{of} - {turn}' turn"
              f" ({'roll your dice' if s.phase == 'roll' else 'act'})")
    note = ""
    if s.phase == "place":
        status = "Setup - place the characters behind the start lines (Good Guys first)"
    if s.winner:
        status = "Battle over"
        note = f"The {'Good' if s.winner == 'good' else 'Bad'} Guys win: {s.reason}"
    elif s.pending and s.pending.kind == "reaction":
        note = (f"REACTION WINDOW: {s.pending.command}\n"
                "  Good Guys: allow [drop OBJECT@SPACE] | pause | reversal")
    elif s.pending and s.pending.kind == "ex-throw":
        note = f"{s.pending.who} must throw {_item_name(s, s.pending.card)} from {s.pending.origin}"
    elif s.follow:
        note = "The Chicks follow Matthew first: " + ", ".join(
            f"{k} {v} space{'s' if v != 1 else ''}" for k, v in sorted(s.follow.items()))
    lines.append(f"The Rockit  {status}")
    if note:
        lines.extend(_wrap(note))
    lines.append("     " + " ".join(f" {COLS[x]} " for x in range(w)))
    lines.append("    +" + "---+" * w)
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
    lines.append("  walls on every edge; '.' stage riser; '*' item space; c1-c3 the Chicks")
    lines.append("  objects: Tb table, Cr chair, Sp speaker, Mi mic stand, Kd kick drum, Am amp;"
                 " lower case = damaged")
    if limit:
        lines.append(f"  house round limit {limit}: if Matthew stands then, the larger share of Health wins")
    free = " ".join(f"{d.id}:{d.face}" for d in s.dice if not d.spent) or "none"
    spent = " ".join(f"{d.id}:{d.face}" for d in s.dice if d.spent)
    dice = f"unspent {free}" + (f" | spent {spent}" if spent else "") if s.dice else "not rolled"
    lines.extend(_wrap(f"Dice: {dice}" + ("  [rerolled this turn]" if s.rerolled else "")))
    lines.append("Characters:")
    for c in s.chars.values():
        name = s.content["characters"][c.id]["name"]
        if c.out:
            where = "KNOCKED OUT"
        elif c.poofed:
            where = "poofed"
        else:
            where = c.pos or "-"
        extra = []
        if not c.chick:
            extra.append(f"Health {c.health}/{c.start_health}")
            extra.append(f"XP {c.xp}/{s.content['xp_to_level']} level {c.level}")
            if c.combo:
                extra.append("combo ready")
        if c.team == "good":
            extra.append(f"boosters {c.boosters}")
        if c.holding:
            extra.append(f"holding {c.holding}")
        if c.id in s.follow:
            extra.append(f"follows Matthew {s.follow[c.id]}")
        lines.extend(_wrap(f"  {ABBR.get(c.id, c.id):>2} {name:<22} {where:<11} "
                           f"{s.control.get(c.id, ''):<8} " + "; ".join(extra), " " * 40))
        eq = s.equipped.get(c.id, ())
        if eq:
            lines.extend(_wrap("equipped: " + ", ".join(_item_name(s, t) for t in eq), "       "))
    hand = [t for t in s.hand]
    if hand and all(t == "?" for t in hand):
        lines.append(f"Good Guys' items: {len(hand)} hidden")
    else:
        lines.extend(_wrap("Good Guys' items: " + (", ".join(_item_name(s, t) for t in hand) or "none")))
    lines.extend(_wrap(f"Item deck: {len(s.deck)} cards; discard: "
                       + (", ".join(_item_name(s, t) for t in s.discard[-4:]) or "none")))
    # plain text, escaped for rich (a literal [ would start markup); the title in bold
    out = [escape(line) for line in lines]
    out[0] = "[bold]The Rockit[/bold]" + out[0][len("The Rockit"):]
    return "\n".join(out)


def _wrap(text: str, indent: str = "  ") -> list[str]:
    """Lines of at most WIDTH characters (continuations indented)."""
    out: list[str] = []
    for part in text.split("\n"):
        out += textwrap.wrap(part, WIDTH, subsequent_indent=indent) or [""]
    return out
