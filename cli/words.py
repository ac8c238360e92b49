"""Events and turns in a player's words, shared by every verb that prints them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arbiter.cli.common import console, escape
from arbiter.core.explain import describe, undone_move, whose_turn  # noqa: F401 - the words every verb prints

if TYPE_CHECKING:
    from arbiter.core.match import Match


def print_new(match: Match, after: int, seat: str | None) -> None:
    """The events after seq ``after``, as ``seat`` may see them (hot-seat screens are shared,
    so a command's echo shows no more than its own player may know)."""
    for _s, _a, ev in match.log(seat, after=after):
        console.print(f"  [dim]•[/] {escape(describe(match, ev, seat))}")


def print_events(match: Match, events: list[Any], viewer: str | None = None) -> None:
    for ev in events:
        console.print(f"  [dim]•[/] {escape(describe(match, ev, viewer))}")
