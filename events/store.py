"""The DuckDB event store: append-only, hash-chained, optimistic, one transaction a command.

The store deals in encoded events (type, version, actor, JSON payload); it knows nothing of
any game's rules. Everything above it reads the log through :class:`Store`.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

import msgspec

from arbiter.events.envelope import (GENESIS, Envelope, _digest, chain_hash, chain_hash_v1, ledger_hasher,
                                     ledger_hash, ledger_hash_v1)
from arbiter.events.errors import (ChainMismatch, Conflict, OldStore, QueryRefused,  # noqa: F401 - re-exported
                                    StorageFailed, StoreDamaged, StoreError, StoreLocked, UnknownGame)

if TYPE_CHECKING:  # DuckDB is imported where a store is opened: a worker process never opens one
    import duckdb

#: v2: the event hash covers version, actor, command id and command text; the ledger hash
#: covers gseq. A v1 store is rehashed by ``arbiter migrate`` after its v1 chains check.
#: v3: the ``snapshots`` table (a cache of folded states; ``migrate`` adds it empty).
#: v4: the listing's ``outcome`` (how a finished game ended; ``migrate`` folds each finished
#: game to fill it in) and an index on ``events_log.command_id`` (retries look commands up).
SCHEMA_VERSION = 4

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR);
CREATE TABLE IF NOT EXISTS games (
    game_id VARCHAR PRIMARY KEY, kind VARCHAR NOT NULL, seed UBIGINT, seats JSON,
    options JSON, dice VARCHAR, status VARCHAR, winner VARCHAR, rules_version VARCHAR,
    engine_version VARCHAR, created_at TIMESTAMP, forked_from VARCHAR, forked_at INTEGER,
    outcome JSON  -- {"reason": ..., "scores": {seat: n}} once the game is over (see outcome_json)
);
CREATE TABLE IF NOT EXISTS events_log (
    game_id VARCHAR NOT NULL, seq INTEGER NOT NULL, type VARCHAR NOT NULL,
    version INTEGER NOT NULL, actor VARCHAR, payload JSON NOT NULL, command_id VARCHAR NOT NULL,
    recorded_at TIMESTAMP NOT NULL, prev_hash VARCHAR NOT NULL, hash VARCHAR NOT NULL,
    gseq BIGINT NOT NULL, ghash VARCHAR NOT NULL,
    command_text VARCHAR,  -- the command as the player wrote it, on its first event only
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS heads (key VARCHAR PRIMARY KEY, seq BIGINT NOT NULL, hash VARCHAR NOT NULL);
""" + """
CREATE INDEX IF NOT EXISTS events_log_command ON events_log (command_id);
""" + """
CREATE TABLE IF NOT EXISTS snapshots (
    game_id VARCHAR NOT NULL, seq INTEGER NOT NULL, event_hash VARCHAR NOT NULL,
    version VARCHAR NOT NULL, tag VARCHAR NOT NULL, body BLOB NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""
#: A game's folded state after event ``seq`` (whose hash is ``event_hash``), written by the
#: layers above (``version``: the rules and engine it was folded under). Not part of any
#: chain: a cache, checked against the log on every read and never trusted by an audit.
SNAPSHOTS = SCHEMA[SCHEMA.index("CREATE TABLE IF NOT EXISTS snapshots"):]
#: What a v3 store lacks: the listing's outcome and the command index.
V4 = ("ALTER TABLE games ADD COLUMN IF NOT EXISTS outcome JSON;"
      " CREATE INDEX IF NOT EXISTS events_log_command ON events_log (command_id);")

# Views every store has. Per-game views come from the layers above (see install_views).
BASE_VIEWS: tuple[tuple[str, str], ...] = (
    (
        "commands",
        "SELECT command_id, game_id, arg_min(actor, seq) AS seat, arg_min(command_text, seq) AS text,"
        " min(seq) AS first_seq, max(seq) AS last_seq, min(recorded_at) AS recorded_at"
        " FROM events_log GROUP BY game_id, command_id",
    ),
    (
        "events",
        "SELECT game_id, seq, type, version, actor, payload, command_id, recorded_at,"
        " prev_hash, hash FROM events_log",
    ),
    (
        "dice",
        "SELECT e.game_id, e.seq, e.actor, CAST(e.payload->>'$.n' AS INTEGER) AS n,"
        " i AS die_index, CAST(e.payload->'$.dice' AS VARCHAR[])[i] AS die,"
        " CAST(e.payload->'$.faces' AS VARCHAR[])[i] AS face,"
        " COALESCE(CAST(e.payload->>'$.manual' AS BOOLEAN), false) AS manual,"
        " e.payload->>'$.purpose' AS purpose, g.kind"
        " FROM events_log e JOIN games g USING (game_id),"
        " range(1, CAST(json_array_length(e.payload->'$.dice') AS BIGINT) + 1) AS r(i)"
        " WHERE e.type = 'DiceRolled'",
    ),
    (
        "results",
        "SELECT g.game_id, g.kind, g.status, g.winner, g.seats, COALESCE(e.events, 0) AS events,"
        " e.started_at, CASE WHEN g.status = 'over' THEN e.last_at END AS ended_at,"
        " g.outcome->>'$.reason' AS end_reason, g.outcome->'$.scores' AS scores"
        " FROM games g LEFT JOIN (SELECT game_id, count(*) AS events, min(recorded_at) AS started_at,"
        " max(recorded_at) AS last_at FROM events_log GROUP BY game_id) e USING (game_id)",
    ),
)


#: What `query` refuses in its sandbox, said once for both stores.
#: `query` runs one statement: a script's later statements would run unseen, their results
#: dropped (DuckDB gives back the last one's; the server refuses a second in one call)
ONE_STATEMENT = "query runs one SQL statement at a time; run each on its own"
SANDBOX = ("query reads only the store: files, other databases and extensions are out of its"
           " reach (read_csv, COPY ... TO, ATTACH, INSTALL/LOAD and the like). To take the"
           " history elsewhere use `arbiter export --format parquet -o DIR`; the store's owner"
           " may pass `arbiter query --unsafe-files` to lift this")


def old_store_message(path: str, version: int) -> str:
    if version >= 2:
        return (f"{path} has store schema v{version}, older than this arbiter's v{SCHEMA_VERSION}"
                " (which keeps snapshots of each game's state, so long games load quickly)."
                f" Run `arbiter --db {path} migrate` to add the snapshots table (no event or hash"
                " changes); nothing is read or written until then.")
    return (f"{path} has store schema v{version}, older than this arbiter's v{SCHEMA_VERSION}"
            " (whose hashes also cover each event's actor, command id and command text)."
            f" Run `arbiter --db {path} migrate` to check its chains and rehash it; nothing is"
            " read or written until then.")


def snapshot_tag(game_id: str, seq: int, event_hash: str, version: str, body: bytes) -> str:
    """What a snapshot row is checked against when read: its game, place, the event it
    follows, the version it was folded under and its bytes."""
    return _digest("arbiter-snapshot-v1", game_id, str(seq), event_hash, version,
                   hashlib.sha256(body).hexdigest())


#: (seq, event hash it follows, the log's hash at that seq or None, version, tag, body)
SnapshotRow = tuple[int, str, "str | None", str, str, bytes]
#: (seq, command id, type, version, payload, actor, command text): what a fold reads of an event
LogRow = tuple[int, str, str, int, str, "str | None", "str | None"]


class LogText(msgspec.Struct, frozen=True):
    """What a fold reads of a game's events, made into JSON text by the store's own SQL: a
    few values to fetch for all the events instead of one for each column of each row (that
    row fetch was a fifth of a replay), and one decode each (``Codec.decode_log``)."""

    count: int  # how many events
    lowest: int | None  # their lowest and highest payload version (None: no event)
    highest: int | None
    last_hash: str  # the last one's hash ("" when none)
    items: str  # [[seq, command id, payload], ...] in seq order
    actors: str  # {"seq": actor, ...}
    texts: str  # {command id: [actor, text], ...} of the commands that start among them


def log_text_sql(game_id: str, after: int, upto: int | None, mark: str, last_hash: str) -> tuple[str, list[Any]]:
    """Both stores' read of a :class:`LogText` (``mark``: the dialect's parameter marker,
    ``last_hash``: its expression of the hash of the highest seq)."""
    clause, params = seq_range(game_id, after, upto, mark)
    cid, payload = "CAST(to_json(command_id) AS VARCHAR)", "CAST(payload AS VARCHAR)"
    actor = "coalesce(CAST(to_json(actor) AS VARCHAR), 'null')"
    text = "CAST(to_json(command_text) AS VARCHAR)"
    return ("SELECT count(*), min(version), max(version), " + last_hash + ","
            f" concat('[', string_agg(concat('[', seq, ',', {cid}, ',', {payload}, ']'), ',' ORDER BY seq), ']'),"
            f" concat('{{', string_agg(concat('\"', seq, '\":', {actor}), ','), '}}'),"
            f" concat('{{', string_agg(concat({cid}, ':[', {actor}, ',', {text}, ']'), ',')"
            " FILTER (WHERE command_text IS NOT NULL), '}')"
            f" FROM events_log WHERE game_id = {mark}" + clause), params


def snapshots_sql(game_id: str, upto: int | None, limit: int | None, mark: str) -> tuple[str, list[Any]]:
    """Both stores' read of a game's snapshots, newest first, beside the log's hash at each
    seq (``mark``: the store's parameter marker)."""
    sql = ("SELECT s.seq, s.event_hash, e.hash, s.version, s.tag, s.body FROM snapshots s"
           " LEFT JOIN events_log e ON e.game_id = s.game_id AND e.seq = s.seq"
           f" WHERE s.game_id = {mark}")
    params: list[Any] = [game_id]
    if upto is not None:
        sql += f" AND s.seq <= {mark}"
        params.append(upto)
    sql += " ORDER BY s.seq DESC"
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    return sql, params


def newer_store_message(path: str, version: int) -> str:
    return (f"{path} was written by a newer arbiter (store schema v{version}; this"
            f" arbiter reads up to v{SCHEMA_VERSION}). Upgrade arbiter to open it.")


def is_disk_error(text: str) -> bool:
    """A write the file system refused, told apart from a clash with another writer."""
    low = text.lower()
    return any(w in low for w in ("no space left", "disk full", "file too large", "quota",
                                  "could not write", "failed to write", "could not truncate",
                                  "could not fsync", "could not extend"))


class NewEvent(msgspec.Struct, frozen=True):
    """An encoded event ready to append."""

    type: str
    version: int
    actor: str | None
    payload: str


class CommandRecord(msgspec.Struct, frozen=True):
    command_id: str
    seat: str | None
    text: str


class GameAppend(msgspec.Struct, frozen=True):
    """One game's share of a group commit (:meth:`Store.append_games`): its commands' events
    after ``expected_seq``, with the listing's new status and a snapshot of the state after
    the last event when given."""

    game_id: str
    expected_seq: int
    groups: Sequence[tuple[Sequence[NewEvent], CommandRecord]]
    status: "Listing | None" = None
    snapshot: tuple[str, bytes] | None = None


def outcome_json(reason: str, scores: dict[str, float]) -> str:
    """The listing's ``outcome`` of a finished game: its end reason and, when the game keeps
    scores, each seat's (whole numbers written as such); no ``scores`` key when it keeps none."""
    body: dict[str, Any] = {"reason": reason}
    if scores:
        body["scores"] = {s: int(v) if float(v).is_integer() else v for s, v in sorted(scores.items())}
    return msgspec.json.encode(body).decode()


#: What the listing says of a game's progress, written with the append that changes it:
#: (status, winner, outcome JSON or None while it is played).
Listing = tuple[str, "str | None", "str | None"]


class GameRow(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    kind: str
    seed: int
    seats: tuple[str, ...]
    options: dict[str, Any]
    dice: str
    status: str = "playing"
    winner: str | None = None
    rules_version: str = ""
    engine_version: str = ""
    created_at: str = ""
    forked_from: str | None = None
    forked_at: int | None = None
    outcome: str | None = None  # see outcome_json


@dataclass
class Receipt:
    """What a player keeps after a command: the last event's game, seq and hash."""

    game_id: str
    seq: int
    hash: str
    first_seq: int

    def __str__(self) -> str:
        return f"{self.game_id}:{self.seq}:{self.hash[:16]}"


def default_lock_timeout() -> float:
    try:
        return float(os.environ.get("ARBITER_LOCK_TIMEOUT", "5"))
    except ValueError:
        return 5.0


def _now() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


def _is_lock_error(exc: Exception) -> bool:
    text = str(exc)
    return "lock" in text.lower() and ("Conflicting" in text or "Could not set lock" in text)


class Store:
    """One DuckDB file holding every game. Open it with :func:`open_store`."""

    #: an import's games may come as files of rows (:class:`RowsFile`) its workers wrote
    reads_rows_files = True

    def __init__(self, con: duckdb.DuckDBPyConnection, path: str, read_only: bool) -> None:
        self.con = con
        self.path = path
        self.read_only = read_only
        self.allow_old = False
        self.schema_version = SCHEMA_VERSION
        self.created = False  # this open made the file an arbiter store
        self._heads: dict[str, tuple[int, str]] = {}

    # -- schema -------------------------------------------------------------------------

    def _ensure_schema(self) -> None:
        """One ``meta`` lookup on an arbiter store; the catalog is read only when there is
        no ``meta`` table (a new file, or one that is not an arbiter store)."""
        import duckdb

        try:
            row = self.con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        except duckdb.CatalogException:
            row = self._create_schema()
            if row is None:
                return
        self.schema_version = check_schema_version(row, self.path, self.allow_old)

    def _create_schema(self) -> tuple | None:
        tables = self.con.execute("SELECT count(*) FROM information_schema.tables").fetchone()[0]
        if tables:
            raise StoreDamaged(
                f"{self.path} is a DuckDB file but not an arbiter store (it has other tables)"
            )
        if self.read_only:
            return None
        self.con.execute("BEGIN")
        self.con.execute(SCHEMA)
        self.con.execute(
            "INSERT INTO meta VALUES ('schema_version', ?), ('views_hash', '')",
            [str(SCHEMA_VERSION)],
        )
        self.con.execute(f"INSERT INTO heads VALUES ('*', 0, '{GENESIS}')")
        self.con.execute("COMMIT")
        self.created = True
        return (str(SCHEMA_VERSION),)

    def views_current(self, views: Sequence[tuple[str, str]]) -> bool:
        """Whether the installed views are these (base views plus ``views``)."""
        row = self.con.execute("SELECT value FROM meta WHERE key = 'views_hash'").fetchone()
        return bool(row) and row[0] == _digest("views", repr(tuple(BASE_VIEWS) + tuple(views)))

    def install_views(self, views: Sequence[tuple[str, str]]) -> None:
        """(Re)create the SQL views when their definitions changed; no DDL otherwise."""
        import duckdb

        if self.read_only:
            return
        allv = tuple(BASE_VIEWS) + tuple(views)
        digest = _digest("views", repr(allv))
        row = self.con.execute("SELECT value FROM meta WHERE key = 'views_hash'").fetchone()
        if row and row[0] == digest:
            return
        self.con.execute("BEGIN")
        try:
            for name, sql in allv:
                self.con.execute(f'CREATE OR REPLACE VIEW "{name}" AS {sql}')
            self.con.execute("UPDATE meta SET value = ? WHERE key = 'views_hash'", [digest])
            self.con.execute("COMMIT")
        except duckdb.Error:
            self.con.execute("ROLLBACK")
            raise

    def replaced_views(self, views: Sequence[tuple[str, str]]) -> list[str]:
        """The views whose installed definition is not the one :meth:`install_views` installs
        (replaced by someone who could write the file, or missing), by name. DuckDB keeps a
        view as it re-rendered it, so the expected ones are rendered by a scratch in-memory
        database with the same schema."""
        allv = tuple(BASE_VIEWS) + tuple(views)
        scratch = scratch_connection()
        try:
            scratch.execute(SCHEMA)
            for name, sql in allv:
                scratch.execute(f'CREATE VIEW "{name}" AS {sql}')
            want = dict(scratch.execute(
                "SELECT view_name, sql FROM duckdb_views() WHERE NOT internal").fetchall())
        finally:
            scratch.close()
        have = dict(self.con.execute(
            "SELECT view_name, sql FROM duckdb_views() WHERE NOT internal AND database_name = current_database()"
            " AND schema_name = 'main'").fetchall())
        # a view never installed (a store that no arbiter with it has written to yet) hides
        # nothing; one that is there with another definition, or gone after this arbiter
        # installed it, may lie
        row = self.con.execute("SELECT value FROM meta WHERE key = 'views_hash'").fetchone()
        current = bool(row) and row[0] == _digest("views", repr(allv))
        return [name for name, _sql in allv
                if (name in have and have[name] != want.get(name)) or (name not in have and current)]

    # -- games --------------------------------------------------------------------------

    def add_game(self, row: GameRow) -> None:
        """Insert a game's listing row (inside the transaction that appends its first events)."""
        self._insert("games", [_game_tuple(row)])

    def set_status(self, game_id: str, status: str, winner: str | None,
                   outcome: str | None = None) -> None:
        self._update_status(game_id, status, winner, outcome)

    def _update_status(self, game_id: str, status: str, winner: str | None,
                       outcome: str | None = None) -> None:
        self.con.execute("UPDATE games SET status = ?, winner = ?, outcome = ? WHERE game_id = ?",
                         [status, winner, outcome, game_id])

    def game(self, game_id: str) -> GameRow:
        row = self.con.execute(
            "SELECT game_id, kind, seed, seats, options, dice, status, winner, rules_version,"
            " engine_version, CAST(created_at AS VARCHAR), forked_from, forked_at,"
            " CAST(outcome AS VARCHAR) FROM games WHERE game_id = ?",
            [game_id],
        ).fetchone()
        if row is None:
            raise UnknownGame(f"no game {game_id!r} in {self.path} (try: arbiter query \"select * from games\")")
        return _game_row(row)

    def games(self) -> list[GameRow]:
        rows = self.con.execute(
            "SELECT game_id, kind, seed, seats, options, dice, status, winner, rules_version,"
            " engine_version, CAST(created_at AS VARCHAR), forked_from, forked_at,"
            " CAST(outcome AS VARCHAR) FROM games ORDER BY created_at, game_id"
        ).fetchall()
        return [_game_row(r) for r in rows]

    def resolve_game_id(self, prefix: str) -> str:
        """A game id from a unique prefix of it, as git does for commits; a prefix typed in
        capitals finds the lower-case ids arbiter makes when no id holds it as typed."""
        if not prefix.strip():  # an empty prefix would match every game
            raise UnknownGame("no game id given: name one (`arbiter games` lists them)")
        exact = self.con.execute("SELECT game_id FROM games WHERE game_id = ?", [prefix]).fetchone()
        if exact:
            return exact[0]
        rows = self.con.execute(
            "SELECT game_id FROM games WHERE starts_with(game_id, ?) LIMIT 4", [prefix]
        ).fetchall()
        if not rows and prefix != prefix.lower():
            return self.resolve_game_id(prefix.lower())
        if len(rows) == 1:
            return rows[0][0]
        if not rows:
            raise UnknownGame(f"no game {prefix!r} in {self.path}")
        raise UnknownGame(f"{prefix!r} matches several games: {', '.join(r[0] for r in rows[:3])}"
                          + (", ..." if len(rows) > 3 else "") + "; give more of the id")

    # -- events -------------------------------------------------------------------------

    def receipt_for(self, command_id: str) -> Receipt | None:
        """The receipt of a command already stored under ``command_id`` (None if new)."""
        row = self.con.execute(
            "SELECT game_id, min(seq), max(seq), arg_max(hash, seq) FROM events_log"
            " WHERE command_id = ? GROUP BY game_id", [command_id]
        ).fetchone()
        return Receipt(row[0], row[2], row[3], row[1]) if row else None

    def receipts_for(self, command_ids: Sequence[str]) -> dict[str, Receipt]:
        """:meth:`receipt_for` of several command ids in one read: those already stored."""
        if not command_ids:
            return {}
        marks = ", ".join("?" * len(command_ids))
        rows = self.con.execute(
            "SELECT command_id, game_id, min(seq), max(seq), arg_max(hash, seq) FROM events_log"
            f" WHERE command_id IN ({marks}) GROUP BY command_id, game_id", list(command_ids)).fetchall()
        return {r[0]: Receipt(r[1], r[3], r[4], r[2]) for r in rows}

    def command(self, command_id: str) -> tuple[str, str | None, str, int, int] | None:
        """(game_id, seat, text, first_seq, last_seq) of a stored command, or None."""
        row = self.con.execute(
            "SELECT game_id, arg_min(actor, seq), arg_min(command_text, seq), min(seq), max(seq)"
            " FROM events_log WHERE command_id = ? GROUP BY game_id LIMIT 1", [command_id]).fetchone()
        return tuple(row) if row else None  # type: ignore[return-value]

    def global_head(self) -> tuple[int, str]:
        """(gseq, ghash) of the global ledger's end, as the store recorded it."""
        return self.head("*")

    def _heads_for(self, game_id: str, refresh: bool = False) -> dict[str, tuple[int, str]]:
        """The recorded heads of a game and of the global chain, cached for this connection."""
        if refresh or game_id not in self._heads or "*" not in self._heads:
            for key, seq, h in self.con.execute(
                "SELECT key, seq, hash FROM heads WHERE key IN (?, '*')", [game_id]
            ).fetchall():
                self._heads[key] = (seq, h)
        return self._heads

    def head(self, game_id: str) -> tuple[int, str]:
        """(last seq, its hash) as the store recorded them when it last appended."""
        row = self.con.execute("SELECT seq, hash FROM heads WHERE key = ?", [game_id]).fetchone()
        return (row[0], row[1]) if row else (0, GENESIS)

    def last(self, game_id: str) -> tuple[int, str]:
        """(last seq, its hash) of a game; (0, GENESIS) before its first event."""
        row = self.con.execute(
            "SELECT seq, hash FROM events_log WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
            [game_id],
        ).fetchone()
        return (row[0], row[1]) if row else (0, GENESIS)

    def append(
        self,
        game_id: str,
        expected_seq: int,
        events: Sequence[NewEvent],
        command: CommandRecord,
        *,
        new_game: GameRow | None = None,
        status: Listing | None = None,
        snapshot: tuple[str, bytes] | None = None,
    ) -> Receipt:
        """Append one command's events at ``expected_seq`` + 1 onward, in one transaction,
        with the listing's new ``status`` and a ``snapshot`` (version, bytes) of the state
        after the last event, when given.

        Raises :class:`Conflict` if the game's log no longer ends at ``expected_seq``. A
        ``command_id`` seen before returns the earlier receipt and writes nothing.
        """
        return self.append_batch(game_id, expected_seq, [(events, command)],
                                 new_game=new_game, status=status, snapshot=snapshot)

    def append_batch(
        self,
        game_id: str,
        expected_seq: int,
        groups: Sequence[tuple[Sequence[NewEvent], CommandRecord]],
        *,
        new_game: GameRow | None = None,
        status: Listing | None = None,
        snapshot: tuple[str, bytes] | None = None,
    ) -> Receipt:
        """Append several commands' events in one transaction (imports, simulations)."""
        if not groups or any(not evs for evs, _ in groups):
            raise ValueError("a command must produce at least one event")
        con = self.con
        with self._transaction(f"game {game_id}: another writer appended first"):
            heads = self._heads_for(game_id)
            if heads.get(game_id, (0, GENESIS))[0] != expected_seq:
                heads = self._heads_for(game_id, refresh=True)
            last_seq, prev = heads.get(game_id, (0, GENESIS))
            if last_seq != expected_seq and self.last(game_id)[0] != last_seq:
                raise StoreDamaged(
                    f"the log of {game_id} ends at seq {self.last(game_id)[0]} but the store"
                    f" recorded seq {last_seq} as its last: events were removed or added behind"
                    f" arbiter's back. Run `arbiter verify {game_id}`."
                )
            if last_seq != expected_seq:
                raise Conflict(
                    f"game {game_id} moved on: expected the log to end at seq {expected_seq},"
                    f" it ends at {last_seq}. Nothing was written; look again and retry."
                )
            start_gseq, gprev = heads.get("*", (0, GENESIS))
            rows: list[tuple] = []
            seq, prev, gseq, gprev = _chain(rows, game_id, (expected_seq, prev), (start_gseq, gprev),
                                            groups, _now())
            if new_game is not None:
                self.add_game(new_game)
            self._insert("events_log", rows)
            if game_id not in heads:
                con.execute("INSERT INTO heads VALUES (?, 0, '')", [game_id])
            # The heads were read earlier (this connection holds the file); the UPDATE checks
            # that neither moved meanwhile, which costs far less than reading them again.
            moved = con.execute(
                "UPDATE heads SET seq = CASE key WHEN '*' THEN ? ELSE ? END,"
                " hash = CASE key WHEN '*' THEN ? ELSE ? END"
                " WHERE (key = '*' AND seq = ?) OR (key = ? AND seq = ?)",
                [gseq, seq, gprev, prev, start_gseq, game_id, expected_seq],
            ).fetchone()[0]
            if moved != 2:
                raise Conflict("another writer appended to the store during this command;"
                               " nothing was written. Try again.")
            if status is not None:  # in this transaction, not a second one after it
                self._update_status(game_id, *status)
            if snapshot is not None:
                self._put_snapshot(game_id, seq, prev, snapshot)
        self._heads[game_id] = (seq, prev)
        self._heads["*"] = (gseq, gprev)
        return Receipt(game_id, seq, prev, expected_seq + 1)

    def _put_snapshot(self, game_id: str, seq: int, event_hash: str, snapshot: tuple[str, bytes]) -> None:
        version, body = snapshot
        self.con.execute("INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?, ?, ?, ?)",
                         [game_id, seq, event_hash, version,
                          snapshot_tag(game_id, seq, event_hash, version, body), body])

    def append_games(self, appends: Sequence[GameAppend]) -> list[list[Receipt]]:
        """Several games' commands in one transaction (a server's group commit): one commit
        for them all, or nothing written. Each game's log must end at its ``expected_seq``
        (else :class:`Conflict`, for the whole group). Returns each game's receipts, one per
        command, in the order given."""
        check_appends(appends)
        if not appends:
            return []
        con = self.con
        ids = [a.game_id for a in appends]
        with self._transaction("another writer appended first"):
            heads = self._heads
            if "*" not in heads or any(heads.get(a.game_id, (0, GENESIS))[0] != a.expected_seq
                                       for a in appends):
                self._heads = heads = {}
                marks = ", ".join("?" * len(ids))
                for key, seq, h in con.execute(f"SELECT key, seq, hash FROM heads WHERE key IN ({marks}, '*')",
                                               ids).fetchall():
                    heads[key] = (seq, h)
            for a in appends:
                last_seq = heads.get(a.game_id, (0, GENESIS))[0]
                if last_seq != a.expected_seq:
                    raise head_error(a.game_id, a.expected_seq, last_seq, self.last(a.game_id)[0])
            start = heads.get("*", (0, GENESIS))
            rows: list[tuple] = []
            receipts, moves = chain_appends(rows, appends, heads, start, _now())
            self._insert("events_log", rows)
            new = [(gid, 0, "") for gid in ids if gid not in heads]
            self._insert("heads", new)
            # one statement moves every head, and only from where it was read: a writer that
            # moved one meanwhile leaves the count short (as append_batch's UPDATE does)
            values = ", ".join(["(?, ?, ?, ?)"] * len(moves))
            moved = con.execute(
                "UPDATE heads SET seq = v.seq, hash = v.hash FROM (VALUES " + values + ") AS v(k, old, seq, hash)"
                " WHERE heads.key = v.k AND heads.seq = v.old", [x for m in moves for x in m]).fetchone()[0]
            if moved != len(moves):
                raise Conflict("another writer appended to the store during this group;"
                               " nothing was written. Try again.")
            for a, mine in zip(appends, receipts):
                if a.status is not None:
                    self._update_status(a.game_id, *a.status)
                if a.snapshot is not None:
                    self._put_snapshot(a.game_id, mine[-1].seq, mine[-1].hash, a.snapshot)
        for key, _old, seq, h in moves:
            self._heads[key] = (seq, h)
        return receipts


    @contextlib.contextmanager
    def _transaction(self, clash: str) -> Iterator[None]:
        """One transaction: committed whole, or rolled back whole with the head cache
        dropped; DuckDB's constraint and commit conflicts become one :class:`Conflict`."""
        import duckdb

        self.con.execute("BEGIN TRANSACTION")
        try:
            yield
            self.con.execute("COMMIT")
        except BaseException as exc:
            self._heads = {}
            with contextlib.suppress(duckdb.Error):
                self.con.execute("ROLLBACK")
            if isinstance(exc, duckdb.Error) and is_disk_error(str(exc)):
                raise StorageFailed(f"could not write to {self.path}: {str(exc).splitlines()[0]}."
                                    " Nothing was written; free some space and retry.") from exc
            if isinstance(exc, OSError) and exc.errno is not None:
                raise StorageFailed(f"could not write to {self.path}: {exc.strerror}. Nothing"
                                    " was written; free some space and retry.") from exc
            if isinstance(exc, (duckdb.ConstraintException, duckdb.TransactionException)):
                raise Conflict(f"{clash} ({exc}). Nothing was written.") from exc
            raise

    def import_games(
        self, games: Sequence[tuple[GameRow, Sequence[tuple[Sequence[NewEvent], CommandRecord]]]],
        expected: Sequence[Sequence[str]] | None = None,
        check: Callable[[Any], None] | None = None,
    ) -> list[Receipt]:
        """Write whole new games in one transaction (bulk import): all or nothing.

        ``expected`` gives each game's event hashes as the source recorded them; a game whose
        chain comes out differently is refused before anything is committed."""
        con = self.con
        ids = [row.game_id for row, _ in games]
        with self._transaction("import clashes with what is stored"):
            clash = con.execute("SELECT game_id FROM games WHERE list_contains(?, game_id) LIMIT 1",
                                [ids]).fetchone()
            if clash:
                raise Conflict(f"game {clash[0]} is already in this store; nothing was imported")
            gseq, gprev = self.head("*")
            now = _now()
            grows, rows, hrows, receipts = [], [], [], []
            for gi, (row, groups) in enumerate(games):
                grows.append(_game_tuple(row))
                seq, prev, gseq, gprev = _chain(rows, row.game_id, (0, GENESIS), (gseq, gprev),
                                                groups, now, expected[gi] if expected else None)
                hrows.append((row.game_id, seq, prev))
                receipts.append(Receipt(row.game_id, seq, prev, 1))
            self._insert("games", grows)
            self._insert("events_log", rows)
            self._insert("heads", hrows)
            con.execute("UPDATE heads SET seq = ?, hash = ? WHERE key = '*'", [gseq, gprev])
            self._heads = {}
            if check is not None:  # sees the written games; raising rolls them all back
                check(self)
        self._heads = {}
        return receipts

    def _insert(self, table: str, rows: list[tuple]) -> None:
        if not rows:
            return
        if len(rows) > 200:
            return self._insert_bulk(table, rows)
        width = len(rows[0])
        marks = "(" + ", ".join("?" * width) + ")"
        if len(rows) == 1:
            self.con.execute(f"INSERT INTO {table} VALUES {marks}", list(rows[0]))
            return
        for i in range(0, len(rows), 500):
            chunk = rows[i : i + 500]
            self.con.execute(
                f"INSERT INTO {table} VALUES " + ", ".join([marks] * len(chunk)),
                [v for r in chunk for v in r],
            )

    def _insert_bulk(self, table: str, rows: list[tuple]) -> None:
        """Many rows at once: written as JSON lines to a temporary file DuckDB reads whole
        (an order of magnitude faster than bound parameters; handing DuckDB Arrow columns
        instead took more CPU and 100 MiB more memory)."""
        cols = self.con.execute(
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = ?"
            " ORDER BY ordinal_position", [table]).fetchall()
        row_type = msgspec.defstruct(f"{table}_row", [(c, Any) for c, _t in cols])
        fd, tmp = tempfile.mkstemp(suffix=".jsonl")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(msgspec.json.Encoder().encode_lines([row_type(*r) for r in rows]))
            spec = ", ".join(f"{c}: '{'VARCHAR' if t == 'JSON' else t}'" for c, t in cols)
            self.con.execute(
                f"INSERT INTO {table} SELECT * FROM read_json(?, format = 'newline_delimited',"
                f" columns = {{{spec}}})", [tmp])
        finally:
            os.unlink(tmp)

    def _insert_rows_files(self, paths: list[str], ledger: list[tuple[str, int, int, str]],
                           now: datetime) -> None:
        """Games' rows from their :class:`RowsFile` (removed once read), each with its
        ledger entry: every entry must find its row."""
        fd, tmp = tempfile.mkstemp(suffix=".jsonl")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(msgspec.json.Encoder().encode_lines([_LedgerRow(*r) for r in ledger]))
            written = self.con.execute(
                "INSERT INTO events_log SELECT r.game_id, r.seq, r.type, r.version, r.actor, r.payload,"
                " r.command_id, ?, r.prev_hash, r.hash, l.gseq, l.ghash, r.command_text"
                f" FROM read_json(?, format = 'newline_delimited', columns = {_ROWS_COLUMNS}) r"
                f" JOIN read_json(?, format = 'newline_delimited', columns = {_LEDGER_COLUMNS}) l"
                " ON l.game_id = r.game_id AND l.seq = r.seq", [now, paths, tmp]).fetchone()
        finally:
            os.unlink(tmp)
            for path in paths:
                with contextlib.suppress(OSError):
                    os.unlink(path)
        # with the primary key, one row an entry: the audited events, each once
        if written is None or written[0] != len(ledger):
            raise ChainMismatch("the rows written for the import are not the events audited")

    def envelopes(self, game_id: str, upto: int | None = None, after: int = 0,
                  rolls_from: int | None = None) -> list[Envelope]:
        """A game's stored events in seq order (after ``after``, up to and including ``upto``)."""
        sql = (
            "SELECT game_id, seq, type, version, actor, CAST(payload AS VARCHAR), command_id,"
            " CAST(recorded_at AS VARCHAR), prev_hash, hash, command_text FROM events_log"
            " WHERE game_id = ?"
        )
        clause, params = seq_range(game_id, after, upto)
        sql += clause
        if rolls_from is not None:  # the dice rolled at draw ``rolls_from`` or later
            sql += " AND type = 'DiceRolled' AND CAST(payload->>'$.n' AS INTEGER) >= ?"
            params.append(rolls_from)
        rows = self.con.execute(sql + " ORDER BY seq", params).fetchall()
        return [
            Envelope(game_id=r[0], seq=r[1], type=r[2], version=r[3], actor=r[4], payload=r[5],
                     command_id=r[6], recorded_at=r[7], prev_hash=r[8], hash=r[9],
                     command_text=r[10])
            for r in rows
        ]

    def log_rows(self, game_id: str, upto: int | None = None, after: int = 0) -> tuple[list[LogRow], str]:
        """What a fold reads of a game's events, in seq order (after ``after``, up to and
        including ``upto``): no envelope objects and no column it does not use; and the last
        one's hash (read alone: the hash column of every row cost a tenth of a replay)."""
        sql = ("SELECT seq, command_id, type, version, CAST(payload AS VARCHAR), actor, command_text"
               " FROM events_log WHERE game_id = ?")
        clause, params = seq_range(game_id, after, upto)
        sql += clause
        # DuckDB keeps a table's insertion order, and a game's events go in by seq: the rows
        # come back in order without a sort (checked, and sorted when they do not)
        rows = self.con.execute(sql, params).fetchall()
        if not rows:
            return rows, ""
        if [r[0] for r in rows] != list(range(rows[0][0], rows[0][0] + len(rows))):
            rows.sort()
        last = self.con.execute("SELECT hash FROM events_log WHERE game_id = ? AND seq = ?",
                                [game_id, rows[-1][0]]).fetchone()
        return rows, last[0]

    def log_text(self, game_id: str, upto: int | None = None, after: int = 0) -> LogText:
        """What :meth:`log_rows` reads, as JSON text made in one query."""
        sql, params = log_text_sql(game_id, after, upto, "?", "arg_max(hash, seq)")
        n, lo, hi, last, items, actors, texts = self.con.execute(sql, params).fetchone()
        return LogText(n, lo, hi, last or "", items, actors, texts)

    def snapshots(self, game_id: str, upto: int | None = None,
                  limit: int | None = None) -> list[SnapshotRow]:
        """A game's snapshots, newest first (at or before ``upto``; the newest ``limit``),
        each beside the hash the log holds at its seq. Nothing is checked here."""
        sql, params = snapshots_sql(game_id, upto, limit, "?")
        return [(r[0], r[1], r[2], r[3], r[4], bytes(r[5])) for r in self.con.execute(sql, params).fetchall()]

    def replace_snapshots(self, game_id: str, snapshots: Sequence[tuple[int, str, bytes]]) -> int:
        """Drop a game's snapshots and write these (seq, version, body), tagged with the
        log's hash at each seq, in one transaction (a cache rebuilt: no event changes)."""
        with self._transaction("another writer changed the snapshots meanwhile"):
            self.con.execute("DELETE FROM snapshots WHERE game_id = ?", [game_id])
            hashes = dict(self.con.execute(
                "SELECT seq, hash FROM events_log WHERE game_id = ? AND seq IN (SELECT unnest(?))",
                [game_id, [seq for seq, _v, _b in snapshots]]).fetchall()) if snapshots else {}
            rows = [[game_id, seq, hashes[seq], version, snapshot_tag(game_id, seq, hashes[seq], version, body), body]
                    for seq, version, body in snapshots if seq in hashes]
            if rows:
                self.con.executemany("INSERT INTO snapshots VALUES (?, ?, ?, ?, ?, ?)", rows)
        return len(rows)

    def commands(self, game_id: str) -> list[tuple[str, str | None, str, int, int]]:
        """(command_id, seat, text, first_seq, last_seq) in order."""
        return self.con.execute(
            "SELECT command_id, arg_min(actor, seq), arg_min(command_text, seq), min(seq), max(seq)"
            " FROM events_log WHERE game_id = ? GROUP BY command_id ORDER BY min(seq)",
            [game_id],
        ).fetchall()

    def ledger(self) -> list[tuple[int, str, int, str, str]]:
        """(gseq, game_id, seq, event hash, global chain hash) in append order."""
        return self.con.execute(
            "SELECT gseq, game_id, seq, hash, ghash FROM events_log ORDER BY gseq"
        ).fetchall()

    def query(self, sql: str, params: Sequence[Any] | None = None, *,
              sandbox: bool = False, json_columns: list[bool] | None = None) -> tuple[list[str], list[tuple]]:
        """(column names, rows) of ``sql``. ``sandbox``: SQL a person typed, run with every
        file, database and extension outside the store out of reach (for this process's
        connections to the file from then on, so only `query` asks for it). ``json_columns``,
        when given, is filled with whether each column is of SQL type JSON (its values come
        back as their text, as every other text does)."""
        import duckdb

        if sandbox:
            self.con.execute("SET enable_external_access = false")
            self.con.execute("SET lock_configuration = true")
            try:
                if len(self.con.extract_statements(sql)) > 1:
                    raise QueryRefused(ONE_STATEMENT)
            except duckdb.Error:
                pass  # not SQL it can split: running it says what is wrong
            try:
                cur = self.con.execute(sql, params or [])
                if cur.description is None:
                    return [], []
                if json_columns is not None:
                    json_columns[:] = [str(d[1]) == "JSON" for d in cur.description]
                return [d[0] for d in cur.description], cur.fetchall()
            except duckdb.PermissionException as exc:
                raise QueryRefused(f"{SANDBOX} ({str(exc).splitlines()[0]})") from exc
            except duckdb.IOException as exc:
                raise StoreDamaged(f"{self.path} is damaged: {str(exc).splitlines()[0]}") from exc
            except duckdb.Error as exc:
                if "configuration has been locked" in str(exc):
                    raise QueryRefused(f"{SANDBOX} (settings cannot be changed)") from exc
                raise QueryRefused(f"SQL: {str(exc).splitlines()[0]}") from exc
        cur = self.con.execute(sql, params or [])
        if cur.description is None:
            return [], []
        if json_columns is not None:
            json_columns[:] = [str(d[1]) == "JSON" for d in cur.description]
        cols = [d[0] for d in cur.description]
        return cols, cur.fetchall()

    # -- migration ------------------------------------------------------------------------

    def migrate(self, outcome: Outcomes | None = None) -> tuple[int, int, list[tuple[str, int, str, str]]]:
        """Bring a store of an older schema to this one, in one transaction: a v1 store is
        rehashed (see :func:`rehash_v1`); a v2 one gains the snapshots table; a v3 one the
        listing's outcome (``outcome(store, game_id)`` folds a finished game to say it, see
        :func:`backfill_outcomes`) and the command index. Returns (games, events rehashed,
        [(game_id, seq, old hash, new hash)])."""
        if self.schema_version == SCHEMA_VERSION:
            return 0, 0, []
        updates: list[tuple] = []
        heads: dict[str, tuple[int, str]] = {}
        mapping: list[tuple[str, int, str, str]] = []
        if self.schema_version < 2:
            rows = self.con.execute(
                "SELECT game_id, seq, type, version, actor, CAST(payload AS VARCHAR), command_id,"
                " command_text, prev_hash, hash, gseq, ghash FROM events_log ORDER BY gseq").fetchall()
            updates, heads, ghead, mapping = rehash_v1(self.path, rows, self.head("*"), dict(
                self.con.execute("SELECT key, hash FROM heads WHERE key <> '*'").fetchall()))
        with self._transaction("another writer changed the store during the migration"):
            if self.schema_version < 2:
                self.con.execute("CREATE TEMP TABLE rehash (game_id VARCHAR, seq INTEGER,"
                                 " prev_hash VARCHAR, hash VARCHAR, ghash VARCHAR)")
                self._insert("rehash", [(g, q, p, h, gh) for p, h, gh, g, q in updates])
                self.con.execute("UPDATE events_log e SET prev_hash = r.prev_hash, hash = r.hash,"
                                 " ghash = r.ghash FROM rehash r WHERE e.game_id = r.game_id AND e.seq = r.seq")
                self.con.execute("DROP TABLE rehash")
                for gid, (seq, h) in heads.items():
                    self.con.execute("UPDATE heads SET hash = ? WHERE key = ? AND seq = ?", [h, gid, seq])
                self.con.execute("UPDATE heads SET hash = ? WHERE key = '*'", [ghead[1]])
            if self.schema_version < 3:
                self.con.execute(SNAPSHOTS)
                self.con.execute("DELETE FROM snapshots")  # a v1 store's would follow the old hashes
            if self.schema_version < 4:
                self.con.execute(V4)
                self._heads = {}
                backfill_outcomes(self, outcome)
            self.con.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'",
                             [str(SCHEMA_VERSION)])
        self._heads = {}
        self.schema_version = SCHEMA_VERSION
        return len(heads), len(updates), mapping

    # -- seats at a served table ----------------------------------------------------------
    # Who may act as which seat through the service: token hashes (never the tokens) and
    # the bots sitting at a game. Created on first use, so stores that never served a game
    # have no such table; it is access control, not part of any game's record or hash.

    def _ensure_seat_access(self) -> None:
        self.con.execute(
            "CREATE TABLE IF NOT EXISTS seat_access (game_id VARCHAR NOT NULL, seat VARCHAR NOT NULL,"
            " token_hash VARCHAR NOT NULL UNIQUE, bot VARCHAR, PRIMARY KEY (game_id, seat))")

    def _has_seat_access(self) -> bool:
        return bool(self.con.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_name = 'seat_access'").fetchone()[0])

    def add_seat_access(self, game_id: str, rows: Sequence[tuple[str, str, str | None]]) -> None:
        """Record (seat, token hash, bot kind or None) for each seat of a served game."""
        self._ensure_seat_access()
        with self._transaction("seat tokens"):
            self.con.executemany("INSERT INTO seat_access VALUES (?, ?, ?, ?)",
                                 [(game_id, seat, h, bot) for seat, h, bot in rows])

    def seat_for_token(self, token_hash: str) -> tuple[str, str] | None:
        """(game id, seat) of a token hash, or None."""
        if not self._has_seat_access():
            return None
        row = self.con.execute("SELECT game_id, seat FROM seat_access WHERE token_hash = ?",
                               [token_hash]).fetchone()
        return (row[0], row[1]) if row else None

    def seat_bots(self, game_id: str) -> dict[str, str]:
        """The bots sitting at a served game: seat -> bot kind."""
        if not self._has_seat_access():
            return {}
        return dict(self.con.execute(
            "SELECT seat, bot FROM seat_access WHERE game_id = ? AND bot IS NOT NULL", [game_id]).fetchall())

    def replace_seat_token(self, game_id: str, seat: str, token_hash: str) -> bool:
        """A seat's token replaced (the old one stops working); False for no such seat."""
        if not self._has_seat_access():
            return False
        with self._transaction("seat tokens"):
            found = self.con.execute("UPDATE seat_access SET token_hash = ? WHERE game_id = ? AND seat = ?"
                                     " RETURNING seat", [token_hash, game_id, seat]).fetchall()
        return bool(found)

    def close(self) -> None:
        self.con.close()

    # -- refused commands ----------------------------------------------------------------
    # Every command the referee refused (from do, play, try and the service): the game, the
    # seq it was refused at, the seat, the words, the rule and message, when. Created on
    # first use, like seat_access; a diagnostic record, not part of any game's hash chain.

    def _ensure_refusals(self) -> None:
        self.con.execute(
            "CREATE TABLE IF NOT EXISTS refusals (game_id VARCHAR NOT NULL, seq BIGINT NOT NULL,"
            " seat VARCHAR, text VARCHAR NOT NULL, rule_id VARCHAR, message VARCHAR NOT NULL,"
            " exit_code INTEGER NOT NULL, source VARCHAR NOT NULL, refused_at TIMESTAMPTZ NOT NULL)")

    def add_refusal(self, game_id: str, seq: int, seat: str | None, text: str, rule_id: str | None,
                    message: str, exit_code: int, source: str) -> None:
        """Record one refused command (``exit_code`` 1: illegal, 2: bad input; ``source``: do, play, ...)."""
        self._ensure_refusals()
        self.con.execute("INSERT INTO refusals VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         [game_id, seq, seat, text, rule_id, message, exit_code, source, _now()])

    # -- reading and writing in batches (audits and imports of any size) ------------------

    def ledger_after(self, after: tuple[int, str, int], limit: int) -> list[tuple[int, str, int, str, str]]:
        """The next ``limit`` entries of the global ledger after the entry ``after`` (gseq,
        game_id, seq; ``(-2**63, '', 0)`` for the first): (gseq, game_id, seq, event hash, ledger
        hash) in append order, ties (a forged gseq) by game and seq. Read batch after
        batch, the ledger is never held whole; rows lie in gseq order, so each read skips
        what came before it."""
        gseq, game_id, seq = after
        return self.con.execute(
            "SELECT gseq, game_id, seq, hash, ghash FROM events_log WHERE gseq >= ? AND"
            " (gseq > ? OR game_id > ? OR (game_id = ? AND seq > ?))"
            " ORDER BY gseq, game_id, seq LIMIT ?", [gseq, gseq, game_id, game_id, seq, limit]).fetchall()

    def import_stream(self, batches: Iterator[Sequence[tuple[GameRow, Sequence[tuple[Sequence[NewEvent], CommandRecord]], Sequence[str] | None]]],
                      skipped: list[str] | None = None) -> list[Receipt]:
        """Whole new games, batch after batch, in one transaction: all or nothing. Each
        batch is (listing, groups, the hashes the source recorded) per game, chained after
        the global ledger as it is written; a game already stored with the very same log is
        left as it is (named in ``skipped``), one stored with another log, or hashes that
        come out otherwise, refuse the lot, and so does any error ``batches`` raises."""
        con = self.con
        receipts: list[Receipt] = []
        # DuckDB keeps every block the open transaction writes in its buffer cache (its
        # default limit is most of the machine's memory), so an import would hold the whole
        # file's rows; capped, it evicts them and spills what it must to its temp directory
        con.execute(f"SET memory_limit = '{IMPORT_MEMORY}'")
        # one thread: a batch is a few MiB, and DuckDB's helper threads only contend with
        # the import's own workers for the cores (more CPU, and more time, for the same rows)
        con.execute("SET threads = 1")
        try:
            with self._transaction("import clashes with what is stored"):
                gseq, gprev = self.head("*")
                now = _now()
                for batch in batches:
                    ids = [row.game_id for row, _g, _e in batch]
                    stored = con.execute("SELECT h.key, h.seq, h.hash FROM games g JOIN heads h ON h.key = g.game_id"
                                         " WHERE list_contains(?, g.game_id)", [ids]).fetchall()
                    batch = games_to_import(batch, {r[0]: (r[1], r[2]) for r in stored}, skipped)
                    if not batch:
                        continue
                    ledger: list[tuple[str, int, int, str]] = []
                    rows, hrows, gseq, gprev = chain_games(batch, (gseq, gprev), now, receipts, ledger)
                    self._insert("games", [_game_tuple(row) for row, _g, _e in batch])
                    self._insert("events_log", rows)
                    if ledger:
                        self._insert_rows_files([g.path for _r, g, _e in batch if isinstance(g, RowsFile)],
                                                ledger, now)
                    self._insert("heads", hrows)
                con.execute("UPDATE heads SET seq = ?, hash = ? WHERE key = '*'", [gseq, gprev])
        finally:
            con.execute("RESET memory_limit")  # the store sets neither anywhere else
            con.execute("RESET threads")
        self._heads = {}
        return receipts


def head_error(game_id: str, expected_seq: int, last_seq: int, log_ends: int) -> Exception:
    """The error for a game whose recorded head (``last_seq``) is not where its writer
    expected it: damage when the log itself ends elsewhere, else another writer's move."""
    if log_ends != last_seq:
        return StoreDamaged(
            f"the log of {game_id} ends at seq {log_ends} but the store recorded seq {last_seq}"
            " as its last: events were removed or added behind arbiter's back. Run"
            f" `arbiter verify {game_id}`.")
    return Conflict(f"game {game_id} moved on: expected the log to end at seq {expected_seq},"
                    f" it ends at {last_seq}. Nothing was written; look again and retry.")


def check_appends(appends: Sequence[GameAppend]) -> None:
    ids = [a.game_id for a in appends]
    if len(set(ids)) != len(ids):
        raise ValueError("a game appears twice in one group commit")
    if any(not a.groups or any(not evs for evs, _ in a.groups) for a in appends):
        raise ValueError("a command must produce at least one event")


def chain_appends(rows: list[tuple], appends: Sequence[GameAppend], heads: dict[str, tuple[int, str]],
                  ghead: tuple[int, str], now: datetime
                  ) -> tuple[list[list[Receipt]], list[tuple[str, int, int, str]]]:
    """Add a group commit's rows to ``rows``, each game's after its head and all of them after
    the ledger's ``ghead``, in the order given; returns each game's receipts (one a command)
    and how the heads move: (key, seq read, new seq, new hash), the ledger's (``*``) last."""
    gseq, gprev = ghead
    receipts, moves = [], []
    for a in appends:
        seq, prev = a.expected_seq, heads.get(a.game_id, (0, GENESIS))[1]
        mine = []
        for group in a.groups:
            first = seq + 1
            seq, prev, gseq, gprev = _chain(rows, a.game_id, (seq, prev), (gseq, gprev), [group], now)
            mine.append(Receipt(a.game_id, seq, prev, first))
        receipts.append(mine)
        moves.append((a.game_id, a.expected_seq, seq, prev))
    moves.append(("*", ghead[0], gseq, gprev))
    return receipts, moves


def _chain(rows: list[tuple], game_id: str, head: tuple[int, str], ghead: tuple[int, str],
           groups: Sequence[tuple[Sequence[NewEvent], CommandRecord]], now: datetime,
           expected: Sequence[str] | None = None) -> tuple[int, str, int, str]:
    """Add ``groups``' rows to ``rows``, chaining them after the game's and the store's
    heads; returns the new (seq, hash, gseq, ghash). ``expected`` hashes, when given, must
    come out the same."""
    (seq, prev), (gseq, gprev) = head, ghead
    for events, command in groups:
        for i, ev in enumerate(events):
            seq += 1
            text = command.text if i == 0 else None
            h = chain_hash(prev, game_id, seq, ev.type, ev.payload, version=ev.version,
                           actor=ev.actor, command_id=command.command_id, command_text=text)
            if expected is not None and (seq > len(expected) or expected[seq - 1] != h):
                raise ChainMismatch(f"{game_id}: seq {seq} fails its hash chain; the file was altered")
            gseq += 1
            gh = ledger_hash(gprev, game_id, seq, h, gseq=gseq)
            rows.append((game_id, seq, ev.type, ev.version, ev.actor, ev.payload,
                         command.command_id, now, prev, h, gseq, gh, text))
            prev, gprev = h, gh
    return seq, prev, gseq, gprev


#: How ``migrate`` learns a finished game's outcome: (store, game_id) -> outcome JSON, or None
#: when the game cannot say (a kind this arbiter does not have). The layers above fold.
Outcomes = Callable[[Any, str], "str | None"]


def backfill_outcomes(store: Any, outcome: Outcomes | None) -> int:
    """Write the outcome of every finished game that has none (inside the migration's
    transaction); returns how many were written."""
    if outcome is None:
        return 0
    written = 0
    for row in store.games():
        if row.status != "over" or row.outcome is not None:
            continue
        text = outcome(store, row.game_id)
        if text is not None:
            store.set_status(row.game_id, row.status, row.winner, text)
            written += 1
    return written


def _chain_verified(rows: list[tuple], game_id: str, head: tuple[int, str], ghead: tuple[int, str],
                    groups: Sequence[tuple[Sequence[NewEvent], CommandRecord]], now: datetime,
                    expected: Sequence[str]) -> tuple[int, str, int, str]:
    """:func:`_chain` for hashes already verified (:class:`VerifiedHashes`): only the global
    ledger is chained here."""
    (seq, prev), (gseq, gprev) = head, ghead
    ledger = ledger_hasher(game_id)
    add, known = rows.append, len(expected)
    for events, command in groups:
        cid, text = command.command_id, command.text
        for ev in events:
            if seq >= known:
                raise ChainMismatch(f"{game_id}: seq {seq + 1} has no hash; the file was altered")
            h = expected[seq]
            seq += 1
            gseq += 1
            gh = ledger(gprev, seq, h, gseq)
            add((game_id, seq, ev.type, ev.version, ev.actor, ev.payload, cid, now, prev, h, gseq, gh, text))
            prev, gprev, text = h, gh, None  # the text is on the command's first event only
    if seq != len(expected):
        raise ChainMismatch(f"{game_id}: seq {seq + 1} has no event; the file was altered")
    return seq, prev, gseq, gprev



def seq_range(game_id: str, after: int, upto: int | None, mark: str = "?") -> tuple[str, list[Any]]:
    """The ``AND seq ...`` clause (with ``mark`` as the dialect's placeholder) and parameters
    for a game's events after ``after``, up to and including ``upto``; the game id is the
    first parameter, for the query's ``WHERE game_id = ?``."""
    clause, params = "", [game_id]
    if after:
        clause += f" AND seq > {mark}"
        params.append(after)
    if upto is not None:
        clause += f" AND seq <= {mark}"
        params.append(upto)
    return clause, params

def check_schema_version(row: tuple | None, path: str, allow_old: bool = False) -> int:
    """The store's schema version, or a sentence saying why it cannot be read."""
    version = int(row[0]) if row and str(row[0]).isdigit() else -1
    if version > SCHEMA_VERSION:
        raise StoreDamaged(newer_store_message(path, version))
    if version < 1:
        raise StoreDamaged(f"{path} has no readable schema version: it is damaged")
    if version < SCHEMA_VERSION and not allow_old:
        raise OldStore(old_store_message(path, version))
    return version


def rehash_v1(path: str, rows: Sequence[tuple], ghead: tuple[int, str], heads: dict[str, str]
              ) -> tuple[list[tuple], dict[str, tuple[int, str]], tuple[int, str], list[tuple[str, int, str, str]]]:
    """Check a v1 store's chains (each game's and the global one, against the recorded
    heads) with the v1 formula, then compute every hash anew with today's. A store whose v1
    chains do not hold is refused: migrating must never bless an edit.

    ``rows``: (game_id, seq, type, version, actor, payload, command_id, command_text,
    prev_hash, hash, gseq, ghash) in gseq order. Returns the updates (prev_hash, hash,
    ghash, game_id, seq), the new game heads, the new global head and (game_id, seq, old
    hash, new hash) for every event."""
    old_prev: dict[str, tuple[int, str]] = {}
    new_prev: dict[str, str] = {}
    gprev_old = gprev_new = GENESIS
    updates, mapping = [], []
    for i, (gid, seq, type_, version, actor, payload, cid, text, prev, h, gseq, gh) in enumerate(rows, 1):
        last_seq, last_old = old_prev.get(gid, (0, GENESIS))
        where = f"{gid} seq {seq}"
        if (seq != last_seq + 1 or prev != last_old or chain_hash_v1(prev, gid, seq, type_, payload) != h
                or gseq != i or ledger_hash_v1(gprev_old, gid, seq, h) != gh):
            raise StoreDamaged(f"cannot migrate {path}: {where} fails its v1 hash chain, so the"
                               " store was altered; nothing was changed. Restore it from a backup"
                               " (or import its games from exports you trust).")
        old_prev[gid] = (seq, h)
        gprev_old = gh
        nprev = new_prev.get(gid, GENESIS)
        nh = chain_hash(nprev, gid, seq, type_, payload, version=version, actor=actor,
                        command_id=cid, command_text=text)
        gprev_new = ledger_hash(gprev_new, gid, seq, nh, gseq=gseq)
        updates.append((nprev, nh, gprev_new, gid, seq))
        mapping.append((gid, seq, h, nh))
        new_prev[gid] = nh
    if ghead != (len(rows), gprev_old) or any(heads.get(g) != h for g, (_s, h) in old_prev.items()):
        raise StoreDamaged(f"cannot migrate {path}: the recorded heads do not match the log's"
                           " end (events were removed); nothing was changed.")
    return updates, {g: (s, new_prev[g]) for g, (s, _h) in old_prev.items()}, (len(rows), gprev_new), mapping


def _game_tuple(row: GameRow) -> tuple:
    return (row.game_id, row.kind, row.seed, msgspec.json.encode(row.seats).decode(),
            msgspec.json.encode(row.options).decode(), row.dice, row.status, row.winner,
            row.rules_version, row.engine_version, _now(), row.forked_from, row.forked_at, row.outcome)


def _game_row(r: tuple) -> GameRow:
    return GameRow(
        game_id=r[0], kind=r[1], seed=int(r[2]) if r[2] is not None else 0,
        seats=tuple(msgspec.json.decode(r[3])) if r[3] else (),
        options=msgspec.json.decode(r[4]) if r[4] else {}, dice=r[5] or "seeded",
        status=r[6] or "", winner=r[7], rules_version=r[8] or "", engine_version=r[9] or "",
        created_at=r[10] or "", forked_from=r[11], forked_at=r[12], outcome=r[13],
    )


def scratch_connection() -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB (a Parquet export's, a view check's), its progress bar off as
    every store connection's (see :func:`_connect`)."""
    import duckdb

    con = duckdb.connect(":memory:")
    con.execute("SET enable_progress_bar = false")
    return con


def _connect(path: str, read_only: bool, timeout: float) -> duckdb.DuckDBPyConnection:
    import duckdb

    deadline = time.monotonic() + timeout
    delay = 0.02
    while True:
        try:
            con = duckdb.connect(path, read_only=read_only)
            # DuckDB draws a progress bar on stdout for a query past two seconds when arbiter
            # runs as `python -c` or `python -m`, into a pipe too, mixed with the data a verb
            # prints. A per-connection setting (connect's config refuses it as global).
            con.execute("SET enable_progress_bar = false")
            return con
        except duckdb.Error as exc:
            if _is_lock_error(exc):
                if time.monotonic() >= deadline:
                    raise StoreLocked(
                        f"{path} is in use by another arbiter process (DuckDB allows one writer"
                        " per file). Wait for it to finish, or close the other program, and try"
                        " again; ARBITER_LOCK_TIMEOUT sets how long to wait."
                    ) from exc
                time.sleep(delay)
                delay = min(delay * 2, 0.25)
                continue
            if read_only and "does not exist" in str(exc):
                raise UnknownGame(f"no store at {path}: nothing has been played there yet") from exc
            if is_disk_error(str(exc)):
                raise StorageFailed(f"cannot open {path}: {str(exc).splitlines()[0]}") from exc
            raise StoreDamaged(f"cannot open {path}: {str(exc).splitlines()[0]}") from exc


def _damage() -> tuple[type[Exception], ...]:
    """DuckDB's errors that mean the file itself is bad, not the SQL or a clash."""
    import duckdb

    return (duckdb.IOException, duckdb.InternalException, duckdb.SerializationException,
            duckdb.FatalException)


_HEADER = 3 * 4096  # DuckDB's file header and its two database headers


def check_file_size(con: duckdb.DuckDBPyConnection, path: str) -> None:
    """A file shorter than the blocks its own header names was cut off (a copy that stopped
    halfway, a full disk): refuse it before any query returns a part of it as the whole."""
    if os.path.exists(path + ".wal"):
        return  # blocks the log will add are not in the file yet
    # used blocks only: DuckDB may drop free blocks from the end of the file
    size, blocks = con.execute(
        "SELECT block_size, used_blocks FROM pragma_database_size()").fetchone()
    want = _HEADER + int(size) * int(blocks)
    have = os.path.getsize(path)
    if have < want:
        raise StoreDamaged(f"{path} is damaged: the file holds {have} bytes, but its header needs"
                           f" at least {want}; it was cut off. Restore it from a backup.")


@contextlib.contextmanager
def open_store(
    path: str, *, read_only: bool = False, timeout: float | None = None, allow_old: bool = False
) -> Iterator[Store]:
    """Open the store for one short unit of work, then release the file for others.
    A ``postgresql://`` URL opens the PostgreSQL store (events/postgres.py) instead.
    ``allow_old``: open a store of an older schema (only to migrate it)."""
    if path.startswith(("postgresql://", "postgres://")):
        from arbiter.events.postgres import open_postgres

        with open_postgres(path, read_only=read_only, timeout=timeout, allow_old=allow_old) as pg:
            yield pg  # type: ignore[misc]
        return
    if read_only and not os.path.exists(path):
        raise UnknownGame(f"no store at {path}: nothing has been played there yet")
    import duckdb

    damage = _damage()  # named now: the generator may be closed as the interpreter exits
    if not read_only:
        parent = os.path.dirname(os.path.abspath(path))
        os.makedirs(parent, exist_ok=True)
        refuse_read_only(path, parent)
    con = _connect(path, read_only, default_lock_timeout() if timeout is None else timeout)
    store = Store(con, path, read_only)
    store.allow_old = allow_old
    try:
        try:
            store._ensure_schema()
            check_file_size(con, path)
        except duckdb.Error as exc:
            raise StoreDamaged(f"{path} is damaged: {str(exc).splitlines()[0]}") from exc
        try:
            yield store
        except damage as exc:
            if is_disk_error(str(exc)):
                raise StorageFailed(f"could not write to {path}: {str(exc).splitlines()[0]}") from exc
            raise StoreDamaged(f"{path} is damaged: {str(exc).splitlines()[0]}."
                               " Restore it from a backup.") from exc
    finally:
        with contextlib.suppress(duckdb.Error):
            con.close()


def refuse_read_only(path: str, parent: str) -> None:
    """A store this user may read but not write is refused in words before it is opened for
    writing: DuckDB says only "Permission denied" of a read-only file, and of a file in a
    read-only folder (where it cannot make its journal, ``.wal``) it fails the commit, which
    read as another writer's conflict. Reading verbs still open it."""
    reads = ("it can be read (games, show, log, query, verify, export) but not written; make it"
             " writable, or copy its games to a store you can write"
             f" (arbiter copy --from {path} --to NEW.duckdb)")
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise StorageFailed(f"{path} is read-only to this user (mode {os.stat(path).st_mode & 0o777:04o}): {reads}")
    if not os.access(parent, os.W_OK):
        if not os.path.exists(path):
            raise StorageFailed(f"cannot make a store in {parent}: this user cannot write that folder")
        raise StorageFailed(f"{path} is in a folder this user cannot write ({parent}), where DuckDB"
                            f" keeps the store's journal ({os.path.basename(path)}.wal): {reads}")


def games_to_import(batch: Sequence[tuple[GameRow, Any, Sequence[str] | None]],
                    stored: dict[str, tuple[int, str]], skipped: list[str] | None) -> list:
    """The games of an import's batch to write. A game already stored (``stored``: its
    last seq and hash) with the very same log, which its last hash proves, is left as it is
    and named in ``skipped``: importing a file again is not an error, and neither is a file
    that holds a game twice, whether or not both copies fall in one batch. One stored (or
    earlier in the batch) with another log refuses the import."""
    out = []
    held = dict(stored)
    for item in batch:
        gid, hashes = item[0].game_id, item[2]
        if gid not in held:
            out.append(item)
            held[gid] = (len(hashes), hashes[-1]) if hashes else (-1, "")
        elif hashes and held[gid] == (len(hashes), hashes[-1]):
            if skipped is not None:
                skipped.append(gid)
        else:
            raise Conflict(f"game {gid} is already in this store with another log; nothing was imported")
    return out


#: DuckDB's memory during an import (see :meth:`Store.import_stream`): a million events
#: import within it, their primary-key index included
IMPORT_MEMORY = "128MB"


#: read_json's columns for a :class:`RowsFile` (its envelopes' ``recorded_at`` is not read: the
#: store stamps the time it writes them), and for its ledger entries.
_ROWS_COLUMNS = ("{game_id: 'VARCHAR', seq: 'INTEGER', type: 'VARCHAR', version: 'INTEGER',"
                 " actor: 'VARCHAR', payload: 'VARCHAR', command_id: 'VARCHAR', prev_hash: 'VARCHAR',"
                 " hash: 'VARCHAR', command_text: 'VARCHAR'}")
_LEDGER_COLUMNS = "{game_id: 'VARCHAR', seq: 'INTEGER', gseq: 'BIGINT', ghash: 'VARCHAR'}"


class _LedgerRow(msgspec.Struct, array_like=False):
    game_id: str
    seq: int
    gseq: int
    ghash: str


class RowsFile(msgspec.Struct, frozen=True):
    """A whole game's event rows, as JSON lines of :class:`Envelope`, that the process
    which audited the game wrote (:func:`write_rows_file`) from the very events it audited:
    the DuckDB store reads the file itself (:meth:`Store.import_stream`), so that the
    rows' text goes through the importing process's hands not at all. ``events``: how many."""

    path: str
    events: int


def write_rows_file(path: str, envelopes: Sequence[Envelope]) -> RowsFile:
    """Write a game's events, the envelopes its audit checked, to a new file at ``path``."""
    with open(path, "xb") as fh:
        fh.write(msgspec.json.Encoder().encode_lines(envelopes))
    return RowsFile(path, len(envelopes))


def _chain_ledger(ledger: list[tuple[str, int, int, str]], game_id: str, ghead: tuple[int, str],
                  hashes: Sequence[str]) -> tuple[int, str, int, str]:
    """A whole game's entries in the global ledger, after ``ghead``, over its event
    ``hashes``; returns its last (seq, hash) and the ledger's new (gseq, ghash)."""
    gseq, gprev = ghead
    hasher, add = ledger_hasher(game_id), ledger.append
    for seq, h in enumerate(hashes, 1):
        gseq += 1
        gprev = hasher(gprev, seq, h, gseq)
        add((game_id, seq, gseq, gprev))
    return len(hashes), hashes[-1], gseq, gprev


class VerifiedHashes(list):
    """A game's event hashes that its importer has already recomputed, one by one, from the
    very events it hands the store (an import's audit does, before anything is written):
    the store takes them as they are and chains only the global ledger over them, rather
    than hash every event a second time."""


def chain_games(batch: Sequence[tuple[GameRow, Sequence[tuple[Sequence[NewEvent], CommandRecord]] | RowsFile, Sequence[str] | None]],
                ghead: tuple[int, str], now: datetime, receipts: list[Receipt],
                ledger: list[tuple[str, int, int, str]] | None = None
                ) -> tuple[list[tuple], list[tuple[str, int, str]], int, str]:
    """Whole new games' rows, chained after the global ledger's ``ghead``: (event rows,
    (game, seq, hash) heads, the new gseq and ghash); each game's receipt is added to
    ``receipts``. A game's hashes are recomputed and must come out as ``expected``, unless
    they are :class:`VerifiedHashes`. A game whose rows are a :class:`RowsFile` adds only
    its ledger entries, (game, seq, gseq, ghash), to ``ledger``."""
    rows: list[tuple] = []
    heads = []
    gseq, gprev = ghead
    for row, groups, expected in batch:
        if isinstance(groups, RowsFile):
            if ledger is None or not isinstance(expected, VerifiedHashes) or not expected \
                    or groups.events != len(expected):
                raise ChainMismatch(f"{row.game_id}: its rows are not the events audited")
            seq, prev, gseq, gprev = _chain_ledger(ledger, row.game_id, (gseq, gprev), expected)
        else:
            chain = _chain_verified if isinstance(expected, VerifiedHashes) else _chain
            seq, prev, gseq, gprev = chain(rows, row.game_id, (0, GENESIS), (gseq, gprev),
                                           groups, now, expected)
        heads.append((row.game_id, seq, prev))
        receipts.append(Receipt(row.game_id, seq, prev, 1))
    return rows, heads, gseq, gprev
