"""The Rockit as text: the venue grid, the dice pool, the characters and the items."""

from __future__ import annotations

from typing import Any

from projections.scott_pilgrim import COLS, SPState, card_id

ABBR = {"scott": "SC", "ramona": "RA", "knives": "KN", "stephen": "ST", "kim": "KI",
        "matthew": "MP", "chick1": "c1", "chick2": "c2", "chick3": "c3"}
OBJ = {"table": "Tb", "chair": "Ch", "speaker": "Sp", "mic stand": "Mi", "kick drum": "Kd",
       "amp": "Am"}


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
    status = f"Round {s.round} - {turn}' turn ({'roll your dice' if s.phase == 'roll' else 'act'})"
    if s.winner:
        status = f"Battle over: the {'Good' if s.winner == 'good' else 'Bad'} Guys win ({s.reason})"
    elif s.pending and s.pending.kind == "reaction":
        status += f" - REACTION WINDOW: {s.pending.command} (allow / pause / reversal)"
    elif s.pending and s.pending.kind == "ex-throw":
        status += f" - {s.pending.who} must throw {_item_name(s, s.pending.card)} from {s.pending.origin}"
    lines.append(f"[bold]The Rockit[/bold]  {status}")
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
    lines.append("  walls on every edge; '.' stage riser; '*' item space; lower-case object = damaged")
    dice = "  ".join(f"{d.id}:{d.face}{'(spent)' if d.spent else ''}" for d in s.dice) or "not rolled"
    lines.append(f"Dice: {dice}{'  [rerolled]' if s.rerolled else ''}")
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
            extra.append(f"XP {c.xp}/5 level {c.level}")
            if c.combo:
                extra.append("combo ready")
        if c.team == "good":
            extra.append(f"boosters {c.boosters}")
        if c.holding:
            extra.append(f"holding {s.objects[c.holding].kind}")
        eq = s.equipped.get(c.id, ())
        if eq:
            extra.append("equipped: " + ", ".join(_item_name(s, t) for t in eq))
        if c.id in s.follow:
            extra.append(f"may follow {s.follow[c.id]}")
        lines.append(f"  {ABBR.get(c.id, c.id):>2} {name:<22} {where:<11} " + "; ".join(extra)
                     + f"  ({s.control.get(c.id, '')})")
    hand = [t for t in s.hand]
    if hand and all(t == "?" for t in hand):
        lines.append(f"Good Guys' items: {len(hand)} hidden")
    else:
        lines.append("Good Guys' items: " + (", ".join(_item_name(s, t) for t in hand) or "none"))
    lines.append(f"Item deck: {len(s.deck)} cards; discard: "
                 + (", ".join(_item_name(s, t) for t in s.discard[-4:]) or "none"))
    return "\n".join(lines)
