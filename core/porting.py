"""Moving whole logs between stores: a JSON-lines export that keeps ids and hashes, and an
import that proves everything verify proves before it commits anything: the chain, the
listing against the events, and every command decided again."""

from __future__ import annotations

from typing import Any

import msgspec

from arbiter.core import registry
from arbiter.core.errors import TranscriptError
from arbiter.events.envelope import GENESIS
from arbiter.events.store import ChainMismatch, CommandRecord, GameRow, NewEvent, Store

#: v2: the hashes of store schema v2 (they cover actor, command id and text).
FORMAT = "arbiter-log-2"


class ImportRefused(TranscriptError):
    """A file whose games do not hold up: a broken chain, a listing that contradicts its
    events, a command the rules decide otherwise. Nothing of the file was imported."""

    exit_code = 1


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
                if item.format == "arbiter-log-1":
                    raise ValueError("this export was written by an older arbiter (format"
                                     " arbiter-log-1, store schema v1 hashes): import it into a"
                                     " store of that arbiter, run `arbiter migrate` there with"
                                     " this one, and export it again")
                if item.format != FORMAT or item.game is None:
                    raise ValueError(f"unknown format {item.format!r}")
                check_header(item.game)
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


def check_header(row: GameRow) -> None:
    """A listing the store can hold at all (its columns' ranges); whether it is true is
    checked against the events before the import commits."""
    if not 0 <= row.seed < 2**63:
        raise ValueError(f"the seed must be a whole number from 0 to 2^63-1, not {row.seed}")
    if row.forked_at is not None and not 0 <= row.forked_at < 2**31:
        raise ValueError(f"forked_at must be a seq, not {row.forked_at}")
    if not row.game_id or len(row.game_id) > 100:
        raise ValueError("the game id must be 1 to 100 characters")


def import_jsonl(store: Store, text: str) -> list[str]:
    """Write every game of an export in one transaction, refusing the whole file if any
    event's hash is not the one recorded (the store recomputes each chain as it writes), or
    if verify, run on the written games before the commit, finds anything: a listing that
    contradicts its events, a command the rules refuse or decide otherwise."""
    from arbiter.core import audit

    def check(s: Store) -> None:
        for row, _groups in batch:
            report = audit.verify_game(s, row.game_id)
            # A game recorded under older rules is history, not a forgery: today's rules may
            # decide it otherwise (verify says so), and its chain and dice were checked.
            bad = [p for p in report.problems if p.kind != "rules-changed"]
            if bad:
                raise ImportRefused(f"{row.game_id}: seq {bad[0].seq}: {bad[0].message};"
                                    " nothing was imported")

    batch, hashes = [], []
    for row, events, commands in parse_jsonl(text):
        registry.get(row.kind)
        for i, (ev, _payload) in enumerate(events, start=1):
            if ev.seq != i or (i > 1 and ev.prev_hash != events[i - 2][0].hash) or (i == 1 and ev.prev_hash != GENESIS):
                raise ImportRefused(f"{row.game_id}: seq {i} fails its hash chain; the file was"
                                    " altered. Nothing was imported")
        by_seq = {ev.seq: (ev, payload) for ev, payload in events}
        groups = []
        for c in commands:
            evs = [by_seq[s] for s in range(c.first_seq, c.last_seq + 1) if s in by_seq]
            if not evs or len(evs) != c.last_seq - c.first_seq + 1:
                raise ImportRefused(f"{row.game_id}: seq {c.first_seq}: command {c.command_id} names"
                                    " missing events; nothing was imported")
            groups.append(([NewEvent(e.type, e.version, e.actor, p) for e, p in evs],
                           CommandRecord(c.command_id, c.seat, c.text)))
        if sum(len(g[0]) for g in groups) != len(events):
            raise ImportRefused(f"{row.game_id}: events and commands do not match up; nothing"
                                " was imported")
        batch.append((row, groups))
        hashes.append([ev.hash for ev, _p in events])
    try:
        store.import_games(batch, expected=hashes, check=check)
    except ChainMismatch as exc:
        raise ImportRefused(f"{exc}; nothing was imported") from None
    return [row.game_id for row, _ in batch]


# -- Parquet: the history for other tools (DuckDB, Spark, Trino) ------------------------------

#: (table, SQL over the store's tables and views that both stores run, with {where}).
PARQUET_TABLES: tuple[tuple[str, str], ...] = (
    ("events", "SELECT e.game_id, e.seq, e.type, e.version, e.actor, CAST(e.payload AS VARCHAR)"
               " AS payload, e.command_id, e.recorded_at, e.prev_hash, e.hash, g.kind AS game"
               " FROM events e JOIN games g ON g.game_id = e.game_id {where} ORDER BY e.game_id, e.seq"),
    ("commands", "SELECT c.command_id, c.game_id, c.seat, c.text, c.first_seq, c.last_seq,"
                 " c.recorded_at, g.kind AS game FROM commands c JOIN games g ON g.game_id = c.game_id"
                 " {where} ORDER BY c.game_id, c.first_seq"),
    ("games", "SELECT g.game_id, g.kind AS game, g.seed, CAST(g.seats AS VARCHAR) AS seats,"
              " CAST(g.options AS VARCHAR) AS options, g.dice, g.status, g.winner, g.rules_version,"
              " g.engine_version, g.created_at, g.forked_from, g.forked_at FROM games g {where}"
              " ORDER BY g.game_id"),
    ("dice", "SELECT d.game_id, d.seq, d.actor, d.n, d.die_index, d.die, d.face, d.manual,"
             " d.purpose, d.game FROM dice d {where} ORDER BY d.game_id, d.seq, d.die_index"),
)


def _duck_type(values: list[Any]) -> str:
    from datetime import datetime

    v = next((x for x in values if x is not None), None)
    if isinstance(v, bool):
        return "BOOLEAN"
    if isinstance(v, int):
        return "HUGEINT" if any(isinstance(x, int) and x >= 2**63 for x in values) else "BIGINT"
    if isinstance(v, float):
        return "DOUBLE"
    if isinstance(v, datetime):
        return "TIMESTAMP"
    return "VARCHAR"


def export_parquet(store: Store, out_dir: str, game_id: str | None = None) -> dict[str, int]:
    """Write the events, commands, games and dice tables as Parquet under ``out_dir``, each
    partitioned by game kind (``events/game=monster-derby/data_0.parquet``, hive style).
    Returns the rows written per table. Works the same from either store: the rows are read
    through the store and written by an in-memory DuckDB."""
    import os
    import tempfile

    import duckdb

    os.makedirs(out_dir, exist_ok=True)
    for name, _sql in PARQUET_TABLES:
        if os.path.exists(os.path.join(out_dir, name)):
            raise TranscriptError(f"{os.path.join(out_dir, name)} already exists; export into an"
                                  " empty directory")
    written: dict[str, int] = {}
    mem = duckdb.connect(":memory:")
    try:
        for name, sql in PARQUET_TABLES:
            alias = sql.split(" FROM ", 1)[1].split()[1]
            where = f"WHERE {alias}.game_id = ?" if game_id else ""
            cols, rows = store.query(sql.format(where=where), [game_id] if game_id else None)
            written[name] = len(rows)
            if not rows:
                continue
            types = [_duck_type([r[i] for r in rows]) for i in range(len(cols))]
            fd, tmp = tempfile.mkstemp(suffix=".jsonl")
            try:
                with os.fdopen(fd, "wb") as fh:
                    enc = msgspec.json.Encoder()
                    fh.write(enc.encode_lines([dict(zip(cols, r)) for r in rows]))
                spec = ", ".join(f"\"{c}\": '{t}'" for c, t in zip(cols, types))
                mem.execute(f"CREATE TABLE \"{name}\" AS SELECT * FROM read_json(?,"
                            f" format = 'newline_delimited', columns = {{{spec}}})", [tmp])
            finally:
                os.unlink(tmp)
            target = os.path.join(out_dir, name).replace("'", "''")
            mem.execute(f"COPY \"{name}\" TO '{target}' (FORMAT parquet, PARTITION_BY (game))")
    finally:
        mem.close()
    return written
