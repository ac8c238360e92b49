"""The envelope: one stored row of the log, around one event's payload."""

from __future__ import annotations

import hashlib
import struct
from typing import Callable

import msgspec

GENESIS = "0" * 64
_len = struct.Struct(">Q").pack  # each part is prefixed by its length, 8 bytes big-endian
_NONE = b"\xff" * 8  # a missing part (no actor, no text): a length no part can have

# Domain tags: an event hash can never be taken for a ledger hash, nor a v2 hash for a v1 one.
EVENT_TAG = "arbiter-event-v2"
LEDGER_TAG = "arbiter-ledger-v2"
_LEDGER_HEAD = _len(len(LEDGER_TAG)) + LEDGER_TAG.encode()
_sha256 = hashlib.sha256


class Envelope(msgspec.Struct, frozen=True, kw_only=True):
    """One row of the ``events`` table. ``payload`` is the event's exact JSON text;
    ``command_text`` is the command as stored, on a command's first event only."""

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
    command_text: str | None = None


def _digest(*parts: str | None) -> str:
    """SHA-256 over length-prefixed parts (None has its own marker), hex."""
    out: list[bytes] = []
    add = out.append  # every event is hashed once or twice a verify or an import: kept lean
    for part in parts:
        if part is None:
            add(_NONE)
        else:
            b = part.encode()
            add(_len(len(b)))
            add(b)
    return _sha256(b"".join(out)).hexdigest()


def chain_hash(prev_hash: str, game_id: str, seq: int, type_: str, payload: str, *,
               version: int = 1, actor: str | None = None, command_id: str = "",
               command_text: str | None = None) -> str:
    """The per-game hash chain: every stored column of an event but its ``recorded_at``
    (the time a store wrote it, which an import into another store changes) and its
    place in the global ledger (which :func:`ledger_hash` chains)::

        H("arbiter-event-v2", prev_hash, game_id, seq, type, version, actor, command_id,
          command_text, payload)
    """
    return _digest(EVENT_TAG, prev_hash, game_id, str(seq), type_, str(version), actor,
                   command_id, command_text, payload)


def chain_hasher(game_id: str) -> "Callable[[str, int, str, int, str | None, str, str | None, str], str]":
    """:func:`chain_hash` for one game's events, ``(prev_hash, seq, type, version, actor,
    command_id, command_text, payload)``: the tag and the game id are made bytes once, and a
    type, version or actor once each, not once an event (an audit hashes every event)."""
    gid = game_id.encode()
    head = _len(len(EVENT_TAG)) + EVENT_TAG.encode()
    sha, pack, join = _sha256, _len, b"".join
    parts: dict[str | None, bytes] = {None: _NONE}  # type, version or actor -> its bytes

    def part(text: str) -> bytes:
        b = text.encode()
        made = parts[text] = pack(len(b)) + b
        return made

    def event(prev: str, seq: int, type_: str, version: int, actor: str | None, command_id: str,
              command_text: str | None, payload: str) -> str:
        p, s, c, b = prev.encode(), str(seq).encode(), command_id.encode(), payload.encode()
        v = str(version)
        t = parts.get(type_) or part(type_)
        v = parts.get(v) or part(v)
        a = parts[actor] if actor in parts else part(actor)  # type: ignore[arg-type]
        if command_text is None:
            x = _NONE
        else:
            x = command_text.encode()
            x = pack(len(x)) + x
        return sha(join((head, pack(len(p)), p, pack(len(gid)), gid, pack(len(s)), s, t, v, a,
                         pack(len(c)), c, x, pack(len(b)), b))).hexdigest()

    return event


def ledger_hash(prev: str, game_id: str, seq: int, event_hash: str, *, gseq: int) -> str:
    """The global chain across all games: H("arbiter-ledger-v2", prev, gseq, game_id, seq,
    event hash)."""
    # _digest's bytes, spelled out: the one hash a store's audit computes for every event
    g, gid, s, p, h = str(gseq).encode(), game_id.encode(), str(seq).encode(), prev.encode(), event_hash.encode()
    return _sha256(b"".join((_LEDGER_HEAD, _len(len(p)), p, _len(len(g)), g, _len(len(gid)), gid,
                             _len(len(s)), s, _len(len(h)), h))).hexdigest()


def ledger_hasher(game_id: str) -> "Callable[[str, int, str, int], str]":
    """:func:`ledger_hash` for one game's events, ``(prev, seq, event_hash, gseq)``: the
    game's part of the bytes is made once, not once an event."""
    gid = game_id.encode()
    mid = _len(len(gid)) + gid
    sha, pack, join = _sha256, _len, b"".join
    hexlen = pack(64)  # a hash's length: every prev and event hash a store holds

    def ledger(prev: str, seq: int, event_hash: str, gseq: int) -> str:
        g, s, p, h = b"%d" % gseq, b"%d" % seq, prev.encode(), event_hash.encode()
        return sha(join((_LEDGER_HEAD, hexlen if len(p) == 64 else pack(len(p)), p, pack(len(g)), g,
                         mid, pack(len(s)), s, hexlen if len(h) == 64 else pack(len(h)), h))).hexdigest()

    return ledger


# -- store schema v1 (before arbiter covered actor, command and version): kept to migrate --


def chain_hash_v1(prev_hash: str, game_id: str, seq: int, type_: str, payload: str) -> str:
    """H(prev_hash, game_id, seq, type, payload), the chain of store schema v1."""
    return _digest(prev_hash, game_id, str(seq), type_, payload)


def ledger_hash_v1(prev: str, game_id: str, seq: int, event_hash: str) -> str:
    return chain_hash_v1(prev, game_id, seq, "ledger", event_hash)
