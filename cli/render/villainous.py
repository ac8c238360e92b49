"""Text rendering of a Villainous table: each Villain's sector, and the viewer's hand."""

from __future__ import annotations

from typing import Any

from arbiter.cli.common import escape as e
from arbiter.cli.render import fit
from arbiter.core.villainous.board import DEEP_SPACE, MOVER, Table
from arbiter.projections.villainous import HAPPENINGS, progress, words


def _sym(s: str) -> str:
    return {"ambition": "Ambition", "play": "Play", "move": "Move", "discard": "Discard",
            "activate": "Activate", "vanquish": "Vanquish", "fate": "Fate"}.get(s, s.replace("credits:", "Credits "))


def render(state: Any, seat: str | None) -> str:
    """:func:`board`, its prose wrapped to the terminal's 80 columns."""
    return fit(board(state, seat))


def board(state: Any, seat: str | None) -> str:
    """The table as rich markup, every line whole (output into a pipe is never wrapped):
    every name, card text and prompt escaped (``e``), for a content file or an imported
    game may name things ``[bold red]``."""
    t = Table(state)
    lines: list[str] = []
    d = t.d
    who = ("game over" if state.winners else f"round {state.round}, {state.active}'s turn ({state.phase})"
           if state.active else "setting up the table")
    lines.append(f"[bold]Star Wars Villainous: Scum and Villainy[/bold] — {e(who)}")
    if state.winners:
        lines.append(f"[bold green]Winner: {e(', '.join(state.winners))}[/bold green] — {e(state.reason)}")
    for s in d["order"]:
        v = t.villain(s)
        obj = v["objective"]
        deck = d["deck"][s]
        fdeck = d["fate_deck"][s]
        n_deck = deck if isinstance(deck, int) else len(deck)
        n_fate = fdeck if isinstance(fdeck, int) else len(fdeck)
        hand = d["hand"][s]
        mark = "  [yellow]<- to play[/yellow]" if s == state.active and not state.winners else ""
        lines.append("")
        lines.append(f"[bold]{e(s)}: {e(v['name'])}[/bold]{mark}  Objective: {e(obj['text'])} "
                     f"[bold]({progress(state, s)}/{e(obj['count'])})[/bold]")
        lines.append(f"  Credits {d['credits'][s]}  Ambition {d['ambition'][s]}  hand {len(hand)} "
                     f"(limit {t.hand_limit(s)})  villain deck {n_deck}, discard {len(d['discard'][s])}  "
                     f"fate deck {n_fate}, discard {len(d['fate_discard'][s])}")
        mover = d["mover"][s]
        for loc in v["locations"] + [{"id": a, "name": f"{t.card(a)['name']} <{a}> (Ally Vehicle)",
                                       "actions": t.card(a).get("actions", [])} for a in t.ally_vehicles(s)]:
            lid = loc["id"]
            hidden = t.covered(s, lid)
            syms = []
            for i, sym in enumerate(loc["actions"]):
                label = e(_sym(sym))
                if i in hidden:
                    label = f"[dim]({label})[/dim]"
                elif s == state.active and mover == lid and i in d["used"]:
                    label = f"{label}*"
                syms.append(label)
            here = " [MOVER]" if mover == lid else ""
            lines.append(f"  {e(loc['name'] + here)}: {' | '.join(syms)}")
            for c in t.cards_at(s, lid):
                lines.append("    " + _card_line(t, s, c))
        ds = t.cards_at(s, DEEP_SPACE)
        if ds:
            lines.append("  Deep Space:")
            for c in ds:
                lines.append("    " + _card_line(t, s, c))
        for c in t.cards_at(s, MOVER):
            lines.append(e(f"  under the mover: {t.card(c)['name']} <{c}> (Condition)"))
        if d["bounties"][s]:
            lines.append(e(f"  completed Bounties: {', '.join(d['bounties'][s])}"))
    if state.fate:
        f = state.fate
        lines.append("")
        lines.append(e(f"Fate: {f['by']} revealed from {f['target']}'s Fate deck: ")
                     + ", ".join(f"{e(t.card(c)['name'])} <{e(c)}>{_house(t, c)}" for c in f["cards"]))
    if state.pending and not state.winners:  # nothing is awaited once the game is over
        p = state.pending[-1]
        lines.append(e(f"Waiting on {p['seat']}: {p['prompt']} — {', '.join(p['options'])}"))
    if state.window and not state.winners:
        w = state.window
        lines.append(e(f"Condition window ({w['by']} {HAPPENINGS.get(w['trigger'], words(w['trigger']))}): "
                       f"{', '.join(w['queue'])} may play a Condition or pass"))
    if seat in d["hand"]:
        lines.append("")
        lines.append(f"[bold]Your hand ({e(seat)}):[/bold]")
        for c in d["hand"][seat]:
            if c == "?":
                continue
            cd = t.card(c)
            n, kind = t.cost_of(seat, c)
            cost = f"{n} {'Ambition' if kind == 'ambition' else ('Credit' if n == 1 else 'Credits')}"
            st = f", Strength {cd['strength']}" if "strength" in cd else ""
            lines.append(f"  {e(cd['name'])} <{e(c)}>{_house(t, c)}"
                         + e(f" — {cd['type'].replace('_', ' ')}, {cost}{st}: {cd.get('text', '')}"))
    return "\n".join(lines)


def _house(t: Table, c: str) -> str:
    """House cards are labelled where a player sees them (the real card lists are not public)."""
    return " [dim](house)[/dim]" if t.card(c).get("source") == "house" else ""


def _card_line(t: Table, s: str, c: str) -> str:
    cd = t.card(c)
    info = t.in_sector(s)[c]
    part = "upper" if info["side"] == "upper" else "lower"
    bits = [f"{cd['name']} <{c}> ({cd['type'].replace('_', ' ')}, {part}"]
    if cd["type"] in ("ally", "hero"):
        bits.append(f", Strength {t.strength(s, c)}")
    if info["tokens"]:
        # Strength Tokens: "+1 / -1 Strength token"
        bits.append(f", {info['tokens']:+d} Strength token" + ("" if abs(info["tokens"]) == 1 else "s"))
    if info["targets"]:
        bits.append(f", {info['targets']} Target" + ("" if info["targets"] == 1 else "s"))
    if info.get("on"):
        bits.append(f", on {t.card(info['on'])['name']} <{info['on']}>")
    if info.get("engaged"):
        bits.append(f", engaged with {t.card(info['engaged'])['name']} <{info['engaged']}>")
    if cd["type"] == "bounty":
        bits.append(f", progress {len(info['progress'])}/{len(cd.get('progress', []))}")
    return e("".join(bits) + ")") + _house(t, c)


def compact(state: Any, seat: str | None) -> str:
    """The table for a short terminal: a line per Villain, the sector of the one to play
    (card names, no card text), what is awaited, and the viewer's hand by name and cost."""
    t = Table(state)
    d = t.d
    who = ("game over" if state.winners else f"round {state.round}, {state.active}'s turn ({state.phase})"
           if state.active else "setting up the table")
    lines = [f"[bold]Villainous[/bold] — {e(who)}"]
    if state.winners:
        lines.append(f"[bold green]Winner: {e(', '.join(state.winners))}[/bold green] — {e(state.reason)}")
    for s in d["order"]:
        v = t.villain(s)
        mark = " [yellow]<-[/yellow]" if s == state.active and not state.winners else ""
        lines.append(e(f"{s}: {v['name']} ({progress(state, s)}/{v['objective']['count']})") + mark
                     + f"  Credits {d['credits'][s]}  Ambition {d['ambition'][s]}  hand {len(d['hand'][s])}")
    focus = seat if seat in d["order"] else state.active
    if focus in d["order"]:
        v = t.villain(focus)
        mover = d["mover"][focus]
        for loc in v["locations"]:
            lid = loc["id"]
            hidden = t.covered(focus, lid)
            syms = ",".join(f"({_sym(x)})" if i in hidden else _sym(x) for i, x in enumerate(loc["actions"]))
            cards = ", ".join(t.card(c)["name"] for c in t.cards_at(focus, lid))
            lines.append(e(f"  {loc['name']}{'*' if mover == lid else ''}: {syms}" + (f" — {cards}" if cards else "")))
    if state.pending and not state.winners:  # nothing is awaited once the game is over
        p = state.pending[-1]
        lines.append(e(f"Waiting on {p['seat']}: {p['prompt']}"))
    if state.window and not state.winners:
        lines.append(e(f"Condition window: {', '.join(state.window['queue'])} may play a Condition or pass"))
    if seat in d["hand"]:
        cards = []
        for c in d["hand"][seat]:
            if c != "?":
                n, kind = t.cost_of(seat, c)
                cards.append(f"{t.card(c)['name']} <{c}> ({n}{'A' if kind == 'ambition' else 'C'})")
        lines.append(e("Your hand: " + (", ".join(cards) or "empty")))
    return "\n".join(lines)
