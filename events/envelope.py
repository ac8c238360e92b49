"""The envelope: one stored row of the log, around one event's payload."""

from __future__ import annotations

import hashlib

import msgspec

GENESIS = "0" * 64


class Envelope(msgspec.Struct, frozen=True, kw_only=True):
    """One row of the ``events`` table. ``payload`` is the event's exact JSON text."""

    game_id: str
    seq: int
    type: str
    version: int
    actor: str | None
    payload: str
    command_id: str
    recorded_at: str
    prev_hash: str
    hash: str


def chain_hash(prev_hash: str, game_id: str, seq: int, type_: str, payload: str) -> str:
    """H(prev_hash, game_id, seq, type, payload): the per-game hash chain (SHA-256, hex)."""
    parts = [p.encode() for p in (prev_hash, game_id, str(seq), type_, payload)]
    return hashlib.sha256(b"".join(len(p).to_bytes(8, "big") + p for p in parts)).hexdigest()


def ledger_hash(prev: str, game_id: str, seq: int, event_hash: str) -> str:
    """The global chain across all games: H(prev, game_id, seq, event hash)."""
    return chain_hash(prev, game_id, seq, "ledger", event_hash)
