"""Refused commands, recorded: "which commands were refused?" is one query on `refusals`.

The command line (do, play, try) and the service record a refusal through this one function,
so every refusal has the same columns wherever it came from."""

from __future__ import annotations

from typing import Any

from arbiter.core.errors import ArbiterError
from arbiter.events.errors import StoreError


#: How much of a refused command's words, and of the message that refused it, is kept: a
#: refusal is a diagnostic, and a line of any length (a paste gone wrong, a file fed to
#: `play`) was stored whole, megabytes of it.
KEPT = 500


def kept(text: str) -> str:
    """``text``, or its first :data:`KEPT` characters and how long it was."""
    return text if len(text) <= KEPT else f"{text[:KEPT]}… ({len(text):,} characters)"


def record_refusal(engine: Any, game_id: str, seq: int, seat: str | None, text: str,
                   exc: ArbiterError, exit_code: int, source: str) -> bool:
    """Store one refusal (the game, the seq it was refused at, the seat, the words, the rule
    and message, and the exit code its edge gives it: 1 illegal, 2 bad input); False when the
    store cannot take it now (locked, read-only), which never hides the refusal itself from
    the player."""
    try:
        with engine.open() as store:
            store.add_refusal(game_id, seq, kept(seat) if seat else seat, kept(text),
                              getattr(exc, "rule_id", None), kept(str(exc)), exit_code, source)
        return True
    except (StoreError, OSError):
        return False
