"""Refused commands, recorded: "which commands were refused?" is one query on `refusals`.

The command line (do, play, try) and the service record a refusal through this one function,
so every refusal has the same columns wherever it came from."""

from __future__ import annotations

from typing import Any

from arbiter.core.errors import ArbiterError


def record_refusal(engine: Any, game_id: str, seq: int, seat: str | None, text: str,
                   exc: ArbiterError, source: str) -> bool:
    """Store one refusal (the game, the seq it was refused at, the seat, the words, the rule
    and message); False when the store cannot take it now (locked, read-only), which never
    hides the refusal itself from the player."""
    from arbiter.events.store import StoreError

    try:
        with engine.open() as store:
            store.add_refusal(game_id, seq, seat, text, getattr(exc, "rule_id", None), str(exc),
                              exc.exit_code, source)
        return True
    except (StoreError, OSError):
        return False
