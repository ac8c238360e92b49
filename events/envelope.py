"""The envelope: one stored row of the log, around one event's payload."""

from __future__ import annotations

import hashlib
import struct

import msgspec

GENESIS = "0" * 64
_len = struct.Struct(">Q").pack  # each part is prefixed by its length, 8 bytes big-endian


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
    a, b, c, d, e = (prev_hash.encode(), game_id.encode(), str(seq).encode(), type_.encode(),
                     payload.encode())
    return hashlib.sha256(b"".join((_len(len(a)), a, _len(len(b)), b, _len(len(c)), c,
                                    _len(len(d)), d, _len(len(e)), e))).hexdigest()


def ledger_hash(prev: str, game_id: str, seq: int, event_hash: str) -> str:
    """The global chain across all games: H(prev, game_id, seq, event hash)."""
    return chain_hash(prev, game_id, seq, "ledger", event_hash)
