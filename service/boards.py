"""The web table's boards: each game's view (as a seat sees it) drawn as SVG.

These read only the redacted view a seat is sent anyway, so a board can never show more than
the JSON beside it. Each game has one function; a game without one shows no board, only its
panels. Names are written as the rulebooks write them, never as internal identifiers.
"""

from __future__ import annotations

import html
from typing import Any, Callable

CELL = 44


def esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


def words(ident: Any) -> str:
    """``counter_strike`` / ``mic-stand`` -> ``counter strike`` / ``mic stand`` for people."""
    return str(ident).replace("_", " ").replace("-", " ")


def svg(width: int, height: int, body: list[str], label: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img"'
            f' aria-label="{esc(label)}" class="board">' + "".join(body) + "</svg>")


AXIS = 18


def with_axes(width: int, height: int, body: list[str], label: str, columns: list[str], rows: list[str]) -> str:
    """A grid board with its coordinates written along the top and the left edge, as the
    terminal's board has them: the squares a player types (``place scott b5``) can be read
    off the drawing. ``rows`` are the labels from the top row down."""
    marks = [f'<text x="{AXIS + i * CELL + CELL / 2}" y="{AXIS - 5}" text-anchor="middle" class="axis">{esc(c)}</text>'
             for i, c in enumerate(columns)]
    marks += [f'<text x="{AXIS / 2}" y="{AXIS + j * CELL + CELL / 2 + 4}" text-anchor="middle" class="axis">{esc(r)}'
              f'</text>' for j, r in enumerate(rows)]
    return svg(width + AXIS, height + AXIS, [*marks, f'<g transform="translate({AXIS},{AXIS})">', *body, "</g>"], label)


def cell(x: int, y: int, fill: str, title: str = "", text: str = "", cls: str = "") -> str:
    t = f"<title>{esc(title)}</title>" if title else ""
    label = (f'<text x="{x + CELL / 2}" y="{y + CELL / 2 + 4}" text-anchor="middle" class="lbl">{esc(text)}</text>'
             if text else "")
    return (f'<g class="{cls}"><rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}"'
            f' stroke="#555" stroke-width="1">{t}</rect>{label}</g>')


def token(x: float, y: float, colour: str, text: str, title: str, r: float = CELL * 0.36) -> str:
    return (f'<g class="piece"><circle cx="{x}" cy="{y}" r="{r}" fill="{colour}" stroke="#111"'
            f' stroke-width="1.5"><title>{esc(title)}</title></circle>'
            f'<text x="{x}" y="{y + 4}" text-anchor="middle" class="pc">{esc(text)}</text></g>')


def square_xy(name: str) -> tuple[int, int] | None:
    """``c4`` -> (column 2, row 3); None for anything else."""
    if not name or not name[0].isalpha() or not name[1:].isdigit():
        return None
    return ord(name[0].lower()) - ord("a"), int(name[1:]) - 1


# -- Monster Derby ---------------------------------------------------------------------------

TERRAIN = {".": ("#e9dfc4", "path"), "R": ("#a39e93", "rock"), "W": ("#8fc1e3", "water"),
           "D": ("#f2cf7a", "desert"), "B": ("#8cc084", "brush"), "X": ("#444", "impassable")}
COLOURS = {"red": "#d33", "yellow": "#ec3", "blue": "#37d", "green": "#3a4", "orange": "#f93",
           "purple": "#94c", "white": "#eee", "black": "#333", "pink": "#f9c", "brown": "#963"}


def monster_derby(view: dict[str, Any], seat: str) -> str:
    rows = view.get("rows") or []
    body = []
    for lane, row in enumerate(rows):
        for col, code in enumerate(row):
            fill, name = TERRAIN.get(code, ("#fff", code))
            body.append(cell(col * CELL, lane * CELL, fill, f"{col + 1}{'abcdefghij'[lane]}: {name}",
                             cls="space"))
    for m in (view.get("monsters") or {}).values():
        space = str(m.get("space") or "")
        if m.get("status") not in ("racing", None) or not space[:-1].isdigit():
            continue
        col, lane = int(space[:-1]) - 1, ord(space[-1]) - ord("a")
        colour = COLOURS.get(m.get("colour", ""), "#999")
        body.append(token(col * CELL + CELL / 2, lane * CELL + CELL / 2, colour, str(m.get("hp", "")),
                          f"{m.get('name', '')} ({m.get('colour', '')}), {m.get('hp')} hit points, on {space}"))
    columns = max((len(r) for r in rows), default=1)
    return with_axes(columns * CELL, max(len(rows), 1) * CELL, body, "the race track",
                     [str(c + 1) for c in range(columns)], ["abcdefghij"[lane] for lane in range(len(rows))])


# -- Funkoverse ------------------------------------------------------------------------------

SIDES = {"light": "#f4f1de", "dark": "#3d405b"}


def funkoverse_jaws(view: dict[str, Any], seat: str) -> str:
    b = view.get("board") or {}
    cols, rows = int(b.get("columns", 8)), int(b.get("rows", 8))
    filled = set(b.get("filled") or [])
    points = {sq: name for name, sq in (b.get("point_squares") or {}).items()}
    body = []
    for y in range(rows):
        for x in range(cols):
            name = f"{'abcdefghijklmnop'[x]}{y + 1}"
            fill = "#555" if name in filled else "#cfe8ef"
            body.append(cell(x * CELL, (rows - 1 - y) * CELL, fill, name + (" (obstructed)" if name in filled else ""),
                             points.get(name, ""), cls="space"))
    for a, bb in b.get("walls") or []:
        pa, pb = square_xy(a), square_xy(bb)
        if pa is None or pb is None:
            continue
        (x1, y1), (x2, y2) = pa, pb
        if x1 == x2:  # a wall between two squares of a column: a horizontal line
            yy = (rows - max(y1, y2)) * CELL
            body.append(f'<line x1="{x1 * CELL}" y1="{yy}" x2="{(x1 + 1) * CELL}" y2="{yy}" class="wall"/>')
        else:
            xx = max(x1, x2) * CELL
            yt = (rows - 1 - y1) * CELL
            body.append(f'<line x1="{xx}" y1="{yt}" x2="{xx}" y2="{yt + CELL}" class="wall"/>')
    for c in (view.get("chars") or {}).values():
        p = square_xy(str(c.get("square") or ""))
        if p is None or c.get("out"):
            continue
        side = c.get("side", "light")
        state = "standing" if c.get("standing", True) else "knocked down"
        body.append(token(p[0] * CELL + CELL / 2, (rows - 1 - p[1]) * CELL + CELL / 2,
                          "#e07a5f" if side == "dark" else "#81b29a", str(c.get("id", "?"))[:2].title(),
                          f"{c.get('name')} ({side}), {state}, on {c.get('square')}"))
    return with_axes(cols * CELL, rows * CELL, body, f"the map {b.get('name', '')}",
                     list("abcdefghijklmnop"[:cols]), [str(rows - j) for j in range(rows)])


# -- Scott Pilgrim ---------------------------------------------------------------------------


def scott_pilgrim(view: dict[str, Any], seat: str) -> str:
    venue = (view.get("content") or {}).get("venue") or {}
    cols, rows = int(venue.get("columns", 11)), int(venue.get("rows", 8))
    stage, items = set(venue.get("stage") or []), set(venue.get("item_spaces") or [])
    body = []
    for y in range(rows):
        for x in range(cols):
            name = f"{'abcdefghijklmnop'[x]}{y + 1}"
            fill = "#d8c3a5" if name in stage else "#f6e7cb" if name in items else "#eae7dc"
            what = " (stage riser)" if name in stage else " (item space)" if name in items else ""
            body.append(cell(x * CELL, (rows - 1 - y) * CELL, fill, name + what, cls="space"))
    for o in (view.get("objects") or {}).values():
        p = square_xy(str(o.get("pos") or ""))
        if p is None or o.get("gone") or o.get("held_by"):
            continue
        body.append(f'<rect x="{p[0] * CELL + 8}" y="{(rows - 1 - p[1]) * CELL + 8}" width="{CELL - 16}" height="{CELL - 16}"'
                    f' fill="{"#b08968" if o.get("damaged") else "#7f5539"}"><title>{esc(o.get("kind", "object"))}'
                    f'{" (damaged)" if o.get("damaged") else ""}</title></rect>')
        body.append(f'<text x="{p[0] * CELL + CELL / 2}" y="{(rows - 1 - p[1]) * CELL + CELL / 2 + 3}"'
                    f' text-anchor="middle" class="obj">{esc(o.get("kind", "object"))[:9]}</text>')
    for c in (view.get("chars") or {}).values():
        p = square_xy(str(c.get("pos") or ""))
        if p is None or c.get("out") or c.get("poofed"):
            continue
        good = c.get("team") == "good"
        cid = str(c.get("id", ""))
        # the terminal's marks: SC for Scott, MA for Matthew, c1 for Chick 1
        mark = f"c{cid[-1]}" if c.get("chick") else cid[:2].upper()
        name = ((view.get("content") or {}).get("characters") or {}).get(cid, {}).get("name", words(cid))
        body.append(token(p[0] * CELL + CELL / 2, (rows - 1 - p[1]) * CELL + CELL / 2, "#6ab0de" if good else "#e06c75",
                          mark, f"{name}: {c.get('health')} Health, on {c.get('pos')}"))
    return with_axes(cols * CELL, rows * CELL, body, f"the venue {venue.get('name', '')}",
                     list("abcdefghijklmnop"[:cols]), [str(rows - j) for j in range(rows)])


# -- My Little Scythe ------------------------------------------------------------------------

PLAYER_COLOURS = ["#e63946", "#457b9d", "#2a9d8f", "#e9c46a", "#8338ec", "#fb8500"]


def my_little_scythe(view: dict[str, Any], seat: str) -> str:
    import math

    content = view.get("content") or {}
    spaces = content.get("spaces") or []
    regions = {r.get("letter"): r for r in content.get("regions") or []}
    board = view.get("board") or {}
    size = 30
    body = []
    centres: dict[str, tuple[float, float]] = {}
    for sp in spaces:
        q, r = int(sp.get("q", 0)), int(sp.get("r", 0))
        x = size * math.sqrt(3) * (q + r / 2) + 7 * size
        y = size * 1.5 * r + 6 * size
        centres[sp["id"]] = (x, y)
        pts = " ".join(f"{x + size * math.cos(math.radians(60 * i - 30)):.1f},"
                       f"{y + size * math.sin(math.radians(60 * i - 30)):.1f}" for i in range(6))
        kind = sp.get("kind", "")
        fill = {"portal": "#c9b6e4", "castle": "#ffd6a5"}.get(kind, "#d8f3dc")
        region = regions.get(sp.get("region")) or {}
        here = board.get(sp["id"]) or {}
        stuff = ", ".join(f"{n} {k}{'s' if n != 1 else ''}" for k, n in here.items() if n)
        title = f"{sp['id']}: {region.get('name', words(kind))}" + (f" — {stuff}" if stuff else "")
        label = "".join(f"{n}{k[0]}" for k, n in here.items() if n)
        body.append(f'<g class="space"><polygon points="{pts}" fill="{fill}" stroke="#555"><title>{esc(title)}'
                    f'</title></polygon><text x="{x:.1f}" y="{y - 12:.1f}" text-anchor="middle" class="lbl">'
                    f'{esc(sp["id"])}</text><text x="{x:.1f}" y="{y + 3:.1f}" text-anchor="middle" class="lbl">'
                    f'{esc(label)}</text></g>')
    on: dict[str, list[tuple[str, str, str]]] = {}
    for i, (s, p) in enumerate((view.get("players") or {}).items()):
        for n, where in enumerate(p.get("seekers") or [], start=1):
            if where in centres:
                on.setdefault(where, []).append((PLAYER_COLOURS[i % 6], s[:1], f"{s}'s Seeker {n} on {where}"))
    for where, pieces in on.items():
        x, y = centres[where]
        for k, (colour, letter, title) in enumerate(pieces):
            # small and low in the hex, side by side: the space's name, which a player types,
            # stays in sight, and no Seeker hides another
            body.append(token(x + (k - (len(pieces) - 1) / 2) * 18, y + 15, colour, letter, title, r=8.5))
    return svg(int(14 * size), int(12 * size), body, "the map of Pomme")


# -- Villainous ------------------------------------------------------------------------------


def villainous(view: dict[str, Any], seat: str) -> str:
    """Each Villain's four locations (their action symbols, a covered one in brackets, the
    mover) and the cards played there, by name, looked up in the content the view names."""
    from arbiter.core.villainous.board import Table

    t = Table(view)
    order = view.get("order") or view.get("seats") or []
    width, row_h = 760, 168
    body = []
    for i, s in enumerate(order):
        y = i * row_h
        v = t.villain(s)
        body.append(f'<text x="6" y="{y + 16}" class="lbl">{esc(s)} — {esc(v["name"])}: '
                    f'{esc(view.get("credits", {}).get(s, 0))} Credits, Ambition '
                    f'{esc(view.get("ambition", {}).get(s, 0))}</text>')
        mover = view.get("mover", {}).get(s)
        for j, loc in enumerate(v["locations"][:5]):
            x = 6 + j * 188
            lid = loc["id"]
            here = mover == lid
            covered = t.covered(s, lid)
            acts = [f"({action_word(a)})" if k in covered else action_word(a) for k, a in enumerate(loc["actions"])]
            name = loc["name"] + (" (mover)" if here else "")
            body.append(f'<g class="location" data-location="{esc(lid)}"><rect x="{x}" y="{y + 24}" width="180"'
                        f' height="136" rx="6" fill="{"#ffe8a3" if here else "#eef"}" stroke="#557">'
                        f'<title>{esc(name)}: {esc(", ".join(acts))}</title></rect>'
                        f'<text x="{x + 6}" y="{y + 40}" class="lbl">{esc(name[:30])}</text>'
                        # two symbols a line: four never fit the box's width on one
                        f'<text x="{x + 6}" y="{y + 56}" class="card">{esc(", ".join(acts[:2]))}</text>'
                        f'<text x="{x + 6}" y="{y + 70}" class="card">{esc(", ".join(acts[2:]))}</text>')
            for k, c in enumerate(t.cards_at(s, lid)[:5]):
                hero = "Hero: " if t.ctype(c) in ("hero", "hero_vehicle") else ""
                body.append(f'<text x="{x + 8}" y="{y + 88 + k * 14}" class="card">{esc((hero + t.card(c)["name"])[:32])}</text>')
            body.append("</g>")
    return svg(width, max(len(order), 1) * row_h, body, "the villains' sectors")


#: a location's action symbols in the rulebook's words
ACTION_WORDS = {"ambition": "Ambition", "play": "Play", "move": "Move", "discard": "Discard",
                "activate": "Activate", "vanquish": "Vanquish", "fate": "Fate"}


def action_word(symbol: str) -> str:
    return symbol.replace("credits:", "Credits ") if symbol.startswith("credits:") else ACTION_WORDS.get(symbol, words(symbol))


BOARDS: dict[str, Callable[[dict[str, Any], str], str]] = {
    "monster-derby": monster_derby,
    "funkoverse-jaws": funkoverse_jaws,
    "scott-pilgrim": scott_pilgrim,
    "my-little-scythe": my_little_scythe,
    "villainous": villainous,
}


def board_svg(kind: str, view: dict[str, Any], seat: str) -> str:
    """The board of a game as ``seat`` sees it; "" for a game with no drawing."""
    draw = BOARDS.get(kind)
    if draw is None:
        return ""
    try:
        return draw(view, seat)
    except (KeyError, TypeError, ValueError, AttributeError):
        return ""  # a view shape this drawing does not know: the panels still show everything


# -- the side panels: what the seat holds, and what it knows of the others -------------------
#
# Each returns (yours, at the table) as (term, words) pairs, from the seat's own view only; a
# game without one gets the page's generic panels (every seat-keyed field of the view).

Panel = list[tuple[str, str]]


def points(p: Any) -> str:
    """An agenda colour's points by finishing place: ``[8, 8, 8]`` -> ``8``, ``[9, 7, 5]`` -> ``9/7/5``."""
    if isinstance(p, (list, tuple)):
        return str(p[0]) if p and len(set(p)) == 1 else "/".join(str(x) for x in p)
    return str(p)


def monster_derby_panels(view: dict[str, Any], seat: str) -> tuple[Panel, Panel]:
    mine: Panel = []
    table: Panel = []
    kept = view.get("kept") or {}
    if kept.get(seat) not in (None, "?"):
        pts = (view.get("kept_points") or {}).get(seat) or {}
        mine.append((f"your agenda {kept[seat]}", ", ".join(f"{c} {points(p)}" for c, p in pts.items())))
    else:
        dealt = (view.get("dealt") or {}).get(seat) or []
        for card, pts in zip(dealt, (view.get("dealt_points") or {}).get(seat) or []):
            mine.append((f"dealt {card}", ", ".join(f"{c} {points(p)}" for c, p in pts.items())))
    for s in view.get("seats") or []:
        if s == seat:
            continue
        if s in kept:
            table.append((f"{s} — agenda", "hidden" if kept[s] == "?" else str(kept[s])))
        elif (view.get("dealt") or {}).get(s):
            table.append((f"{s} — agenda", "choosing in secret"))
    for m in (view.get("monsters") or {}).values():
        where = f"on {m.get('space')}" if m.get("status") == "racing" else words(m.get("status", ""))
        table.append((str(m.get("name", "")), f"{m.get('colour')}, {m.get('hp')}/{m.get('max_hp')} HP, "
                      f"{m.get('attack')} dice, {', '.join(m.get('natives') or [])}, {where}"))
    return mine, table


def scott_pilgrim_panels(view: dict[str, Any], seat: str) -> tuple[Panel, Panel]:
    content = view.get("content") or {}
    item_names = {it["id"]: it["name"] for it in content.get("items") or []}
    names = {cid: c.get("name", cid) for cid, c in (content.get("characters") or {}).items()}

    def item(token: str) -> str:
        return "hidden" if token == "?" else item_names.get(token.split(":", 1)[-1], words(token))

    control = view.get("control") or {}
    mine: Panel = []
    table: Panel = []
    hand = view.get("hand") or []
    good = seat in (view.get("good_seats") or [])
    if hand and all(t == "?" for t in hand):
        (mine if good else table).append(("Good Guys' items", f"{len(hand)} hidden"))
    else:
        (mine if good else table).append(("Good Guys' items", ", ".join(item(t) for t in hand) or "none"))
    dice = view.get("dice") or []
    table.append(("dice", ", ".join(words(d) for d in dice) if dice else "not rolled"))
    for cid, c in (view.get("chars") or {}).items():
        where = "knocked out" if c.get("out") else f"on {c['pos']}" if c.get("pos") else "not yet placed"
        line = f"{c.get('health')} Health, {where}"
        if not c.get("chick"):
            line += f", XP {c.get('xp')}, level {c.get('level')}"
        if c.get("holding"):
            line += f", holding {words(c['holding'])}"
        equipped = (view.get("equipped") or {}).get(cid) or []
        if equipped:
            line += ", equipped " + ", ".join(item(t) for t in equipped)
        who = control.get(cid, "")
        (mine if who == seat else table).append((names.get(cid, words(cid)) + ("" if who == seat else f" ({who})"), line))
    return mine, table


def villainous_panels(view: dict[str, Any], seat: str) -> tuple[Panel, Panel]:
    from arbiter.core.villainous.board import Table

    t = Table(view)
    mine: Panel = []
    table: Panel = []
    for s in view.get("order") or view.get("seats") or []:
        hand = (view.get("hand") or {}).get(s) or []
        deck = (view.get("deck") or {}).get(s)
        fate = (view.get("fate_deck") or {}).get(s)
        n_deck = deck if isinstance(deck, int) else len(deck or [])
        n_fate = fate if isinstance(fate, int) else len(fate or [])
        if s == seat:
            cards = []
            for c in hand:
                if c != "?":
                    n, kind = t.cost_of(seat, c)
                    cards.append(f"{t.card(c)['name']} ({n} {'Ambition' if kind == 'ambition' else 'Credit' if n == 1 else 'Credits'})")
            mine.append(("your hand", ", ".join(cards) or "empty"))
            mine.append(("decks", f"villain deck {n_deck}, fate deck {n_fate}"))
            discard = (view.get("discard") or {}).get(s) or []
            mine.append(("discard", ", ".join(t.card(c)["name"] for c in discard if c != "?") or "none"))
        else:
            table.append((f"{s} — hand", f"{len(hand)} cards"))
            table.append((f"{s} — decks", f"villain deck {n_deck}, fate deck {n_fate}"))
    return mine, table


def _entry(view: dict[str, Any], table: str, key: str) -> dict[str, Any]:
    return next((x for x in (view.get("content") or {}).get(table) or [] if x.get("id") == key), {})


def my_little_scythe_panels(view: dict[str, Any], seat: str) -> tuple[Panel, Panel]:
    mine: Panel = []
    table: Panel = []
    top = (view.get("content") or {}).get("trophies_per_player", "")
    for s, p in (view.get("players") or {}).items():
        spells = p.get("spells") or []
        if "?" in spells:
            spell_words = f"{len(spells)} hidden"
        else:
            spell_words = ", ".join(f"{c} (value {_entry(view, 'spells', c).get('value', '?')})" for c in spells) or "none"
        if p.get("personality") == "?":
            pers = "hidden"
        else:
            card = _entry(view, "personalities", str(p.get("personality")))
            pers = f"{card.get('name', p.get('personality'))} ({card.get('trophy')} at {card.get('requirement')})" \
                   + (", revealed" if p.get("personality_revealed") else ", secret")
        seekers = ", ".join("base camp" if w == "base" else str(w) for w in p.get("seekers") or [])
        tiles = ", ".join(f"{k}: {_entry(view, 'power_ups', v).get('name', v)}" for k, v in (p.get("tiles") or {}).items())
        rows = [("pies and friendship", f"{p.get('pies')} pies, friendship {p.get('friendship')}"),
                ("Seekers", seekers or "none"),
                ("trophies", f"{len(p.get('trophies') or [])}/{top}: {', '.join(p.get('trophies') or []) or 'none'}"),
                ("spells", spell_words), ("personality", pers), ("power-ups", tiles or "none"),
                ("quests done", str(len(p.get("quests") or [])))]
        fight = view.get("fight") or {}
        if s in (fight.get("attacker"), fight.get("defender")):
            dial = (fight.get("pies") or {}).get(s)
            clipped = (fight.get("spells") or {}).get(s) or []
            said = "not set" if dial is None else "set, secret" if dial == -1 else \
                f"{dial} pies" + (f", with {', '.join(clipped)}" if clipped else "")
            rows.append((f"pie fight dial on {fight.get('space')}", said))
        if s == seat:
            mine.extend(rows)
        else:
            table.extend((f"{s} — {term}", said) for term, said in rows)
    return mine, table


def funkoverse_jaws_panels(view: dict[str, Any], seat: str) -> tuple[Panel, Panel]:
    mine: Panel = []
    table: Panel = []
    chars = view.get("chars") or {}
    for name, side in (view.get("sides") or {}).items():
        ours = seat in (side.get("seats") or [])
        cooldown = side.get("cooldown") or {}
        rows = [(f"{name} side ({', '.join(side.get('seats') or [])})",
                 f"{side.get('points', 0)} points; pool: {', '.join(side.get('pool') or []) or 'empty'}; "
                 f"cooldown: " + (", ".join(f"{k}: {', '.join(v) if isinstance(v, list) else v}"
                                           for k, v in sorted(cooldown.items())) or "empty"))]
        for c in chars.values():
            if c.get("side") != name:
                continue
            where = "out" if c.get("out") else f"on {c['square']}" if c.get("square") else "off the map"
            bits = [where, f"defense {c.get('defense')}", "standing" if c.get("standing", True) else "knocked down"]
            if c.get("exhausted"):
                bits.append("exhausted")
            bits += [words(x) for x in c.get("statuses") or []]
            if c.get("item"):
                bits.append(f"holding {words(c['item'])}")
            rows.append((str(c.get("name", c.get("id"))), ", ".join(bits)))
        (mine if ours else table).extend(rows)
    return mine, table


PANELS: dict[str, Callable[[dict[str, Any], str], tuple[Panel, Panel]]] = {
    "monster-derby": monster_derby_panels,
    "scott-pilgrim": scott_pilgrim_panels,
    "villainous": villainous_panels,
    "my-little-scythe": my_little_scythe_panels,
    "funkoverse-jaws": funkoverse_jaws_panels,
}


def side_panels(kind: str, view: dict[str, Any], seat: str) -> dict[str, list[list[str]]]:
    """``{"yours": [[term, words], ...], "table": [...]}``, or {} for the page's generic panels."""
    draw = PANELS.get(kind)
    if draw is None:
        return {}
    try:
        mine, table = draw(view, seat)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return {}
    return {"yours": [list(p) for p in mine], "table": [list(p) for p in table]}
