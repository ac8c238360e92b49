"""Moving whole logs between stores: a JSON-lines export that keeps ids and hashes, and an
import that proves the chain before it writes anything."""

from __future__ import annotations

from typing import Any

import msgspec

from arbiter.core import registry
from arbiter.core.errors import TranscriptError
from arbiter.events.envelope import GENESIS
from arbiter.events.store import ChainMismatch, CommandRecord, GameRow, NewEvent, Store

FORMAT = "arbiter-log-1"


class _Header(msgspec.Struct):
    format: str
    game: GameRow


class _Event(msgspec.Struct):
    seq: int
    type: str
    version: int
    actor: str | None
    payload: Any
    command_id: str
    prev_hash: str
    hash: str


class _Command(msgspec.Struct):
    command_id: str
    seat: str | None
    text: str
    first_seq: int
    last_seq: int


def export_jsonl(store: Store, game_id: str) -> str:
    """One header line, then every event with its hash, then every command."""
    enc = msgspec.json.Encoder()
    lines = [enc.encode({"format": FORMAT, "game": store.game(game_id)}).decode()]
    for e in store.envelopes(game_id):
        lines.append(enc.encode({"event": {
            "seq": e.seq, "type": e.type, "version": e.version, "actor": e.actor,
            "payload": msgspec.Raw(e.payload.encode()), "command_id": e.command_id,
            "prev_hash": e.prev_hash, "hash": e.hash}}).decode())
    for cid, seat, text, first, last in store.commands(game_id):
        lines.append(enc.encode({"command": {"command_id": cid, "seat": seat, "text": text,
                                             "first_seq": first, "last_seq": last}}).decode())
    return "\n".join(lines) + "\n"


class _EventLine(msgspec.Struct):
    seq: int
    type: str
    version: int
    actor: str | None
    payload: msgspec.Raw
    command_id: str
    prev_hash: str
    hash: str


class _Line(msgspec.Struct):
    format: str | None = None
    game: GameRow | None = None
    event: _EventLine | None = None
    command: _Command | None = None


_LINE = msgspec.json.Decoder(_Line)


def parse_jsonl(text: str) -> list[tuple[GameRow, list[tuple[_Event, str]], list[_Command]]]:
    """Games in an export (several may be concatenated); raises TranscriptError on damage."""
    games: list[tuple[GameRow, list[tuple[_Event, str]], list[_Command]]] = []
    for no, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = _LINE.decode(line)
            if item.format is not None:
                if item.format != FORMAT or item.game is None:
                    raise ValueError(f"unknown format {item.format!r}")
                games.append((item.game, [], []))
            elif item.event is not None:
                if not games:
                    raise ValueError("an event before any game header")
                e = item.event
                # the payload's exact text: the hash covers it byte for byte
                payload = bytes(e.payload).decode()
                games[-1][1].append((_Event(e.seq, e.type, e.version, e.actor, None, e.command_id,
                                            e.prev_hash, e.hash), payload))
            elif item.command is not None:
                if not games:
                    raise ValueError("a command before any game header")
                games[-1][2].append(item.command)
            else:
                raise ValueError("a line must hold 'format', 'event' or 'command'")
        except (ValueError, msgspec.ValidationError, msgspec.DecodeError) as exc:
            raise TranscriptError(f"line {no}: {exc}") from None
    if not games:
        raise TranscriptError("not an arbiter log export (no header line)")
    return games


def import_jsonl(store: Store, text: str) -> list[str]:
    """Write every game of an export in one transaction, refusing the whole file if any
    event's hash is not the one recorded (the store recomputes each chain as it writes)."""
    batch, hashes = [], []
    for row, events, commands in parse_jsonl(text):
        registry.get(row.kind)
        for i, (ev, _payload) in enumerate(events, start=1):
            if ev.seq != i or (i > 1 and ev.prev_hash != events[i - 2][0].hash) or (i == 1 and ev.prev_hash != GENESIS):
                raise TranscriptError(f"{row.game_id}: seq {ev.seq} fails its hash chain; the file was altered")
        by_seq = {ev.seq: (ev, payload) for ev, payload in events}
        groups = []
        for c in commands:
            evs = [by_seq[s] for s in range(c.first_seq, c.last_seq + 1) if s in by_seq]
            if not evs or len(evs) != c.last_seq - c.first_seq + 1:
                raise TranscriptError(f"{row.game_id}: command {c.command_id} names missing events")
            groups.append(([NewEvent(e.type, e.version, e.actor, p) for e, p in evs],
                           CommandRecord(c.command_id, c.seat, c.text)))
        if sum(len(g[0]) for g in groups) != len(events):
            raise TranscriptError(f"{row.game_id}: events and commands do not match up")
        batch.append((row, groups))
        hashes.append([ev.hash for ev, _p in events])
    try:
        store.import_games(batch, expected=hashes)
    except ChainMismatch as exc:
        raise TranscriptError(str(exc)) from None
    return [row.game_id for row, _ in batch]
