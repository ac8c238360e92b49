"""Events and turns in a player's words, shared by every verb that prints them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arbiter.cli.common import console, escape
from arbiter.events.base import Undone
from arbiter.projections.kernel import REFEREE, describe_kernel

if TYPE_CHECKING:
    from arbiter.core.match import Match


def describe(match: Match, ev: Any, viewer: str | None = None) -> str:
    """One event in words; an undo names the move it took back (the move's words only when
    ``viewer`` may know them)."""
    if isinstance(ev, Undone):
        return f"undid {undone_move(match, ev.first_seq, viewer)}"
    return describe_kernel(ev) or match.game.projection.describe(ev)


def undone_move(match: Match, first_seq: int, viewer: str | None) -> str:
    """"bob's move `bid 2`" for the command whose first event is ``first_seq``."""
    if not 1 <= first_seq <= len(match.items):
        return f"the move at seq {first_seq}"
    cid = match.items[first_seq - 1][1]
    seat, text = match.texts.get(cid, (match.actors.get(first_seq), ""))
    if not text:
        return f"the move at seq {first_seq}"
    whose = f"{seat}'s move" if seat else "the move"
    if viewer not in (REFEREE, seat) and is_secret(match, cid, first_seq, seat, text, viewer):
        return f"{whose} (a secret choice)"
    return f"{whose} `{text}`"


def is_secret(match: Match, cid: str, first_seq: int, seat: str | None, text: str, viewer: str | None) -> bool:
    """Whether ``viewer`` may not read the words of a command: the game says so, or (when it
    leaves it to the kernel) some of the command's events are redacted for ``viewer``."""
    said = match.game.command_is_secret(match.state, seat or "", text)
    if said is not None:
        return said
    events = [ev for _s, c, ev in match.items[first_seq - 1:] if c == cid]
    return any(match.game.projection.redact(ev, viewer, match.state) != ev for ev in events)


def print_new(match: Match, after: int, seat: str | None) -> None:
    """The events after seq ``after``, as ``seat`` may see them (hot-seat screens are shared,
    so a command's echo shows no more than its own player may know)."""
    for _s, _a, ev in match.log(seat, after=after):
        console.print(f"  [dim]•[/] {escape(describe(match, ev, seat))}")


def whose_turn(match: Match) -> str:
    out = match.outcome()
    if out is not None:
        winners = ", ".join(out.winners) or "nobody"
        return f"game over — winner: {winners}" + (f" ({out.reason})" if out.reason else "")
    who = match.to_act()
    secret = "chooses in secret" if len(who.seats) == 1 else "choose in secret"
    what = {"turn": "to act", "reaction": "may react", "simultaneous": secret}.get(who.kind, who.kind)
    return f"{', '.join(who.seats)} {what}" + (f": {who.prompt}" if who.prompt else "")


def print_events(match: Match, events: list[Any], viewer: str | None = None) -> None:
    for ev in events:
        console.print(f"  [dim]•[/] {escape(describe(match, ev, viewer))}")
