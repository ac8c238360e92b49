"""The PostgreSQL event store: the DuckDB store's tables, chains and guarantees on a server
that many processes write at once (psycopg 3). Open it with
``open_store("postgresql://user@host/db")`` or ``--db postgresql://...``.

How concurrent appends stay correct (READ COMMITTED, one transaction a command):

1. ``SELECT ... FROM heads WHERE game_id = $1 FOR UPDATE`` locks the game's head row, so
   writers of one game queue; the second sees the first's new head once it commits and, its
   expected seq being stale, gets :class:`Conflict` (exactly one wins). A new game's head
   row is inserted ``ON CONFLICT DO NOTHING``: of two creators of one id, one wins.
2. The per-game chain is computed from that head.
3. ``SELECT ... FROM ledger_head FOR UPDATE`` then locks the one row holding the global
   chain's end; gseq and ghash are assigned under it and it is held to COMMIT, so the
   global chain runs in commit order with no gap and no duplicate. The lock order (game
   head, then ledger head) is the same for every writer: no deadlock.

Every table is keyed by ``game_id`` first and no key points across games, so the schema
can be distributed by game (Citus): ``games``, ``events_log`` and ``heads`` sharded on
``game_id``, colocated; ``meta`` and ``ledger_head`` reference tables. README.md says more.
"""

from __future__ import annotations

import contextlib
import re
from decimal import Decimal
from typing import Any, Callable, Iterator, Sequence

import msgspec

from arbiter.events.envelope import GENESIS, Envelope, _digest
from arbiter.events.errors import StoreUnavailable
from arbiter.events.store import (ONE_STATEMENT, SANDBOX, SCHEMA_VERSION, ChainMismatch, CommandRecord, Conflict,
                                  GameAppend, GameRow, Listing, LogRow, LogText, NewEvent, Outcomes, QueryRefused, Receipt,
                                  StorageFailed, SnapshotRow, StoreDamaged, StoreError, StoreLocked, UnknownGame,
                                  _chain, _game_row, _game_tuple, _now, backfill_outcomes,
                                  chain_appends, check_appends, check_schema_version, head_error,
                                  default_lock_timeout, log_text_sql, rehash_v1, seq_range, snapshot_tag,
                                  snapshots_sql)

try:  # psycopg is an optional dependency: only the PostgreSQL store needs it
    import psycopg
    import psycopg.conninfo
    from psycopg import errors as pg_errors
    from psycopg.types.string import TextLoader
except ImportError:  # pragma: no cover - exercised only where psycopg is absent
    psycopg = None  # type: ignore[assignment]

# The DuckDB schema (events/store.py), column for column, in PostgreSQL's types. ``payload``
# is ``json`` (not ``jsonb``): json keeps the exact text, which the hash covers byte for byte.
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key text PRIMARY KEY, value text);
CREATE TABLE IF NOT EXISTS games (
    game_id text PRIMARY KEY, kind text NOT NULL, seed numeric(20, 0), seats json,
    options json, dice text, status text, winner text, rules_version text,
    engine_version text, created_at timestamp, forked_from text, forked_at integer,
    outcome json
);
CREATE TABLE IF NOT EXISTS events_log (
    game_id text NOT NULL, seq integer NOT NULL, type text NOT NULL,
    version integer NOT NULL, actor text, payload json NOT NULL, command_id text NOT NULL,
    recorded_at timestamp NOT NULL, prev_hash text NOT NULL, hash text NOT NULL,
    gseq bigint NOT NULL, ghash text NOT NULL,
    command_text text,
    PRIMARY KEY (game_id, seq)
);
CREATE INDEX IF NOT EXISTS events_log_command ON events_log (command_id);
CREATE INDEX IF NOT EXISTS events_log_gseq ON events_log (gseq);
CREATE TABLE IF NOT EXISTS heads (game_id text PRIMARY KEY, seq bigint NOT NULL, hash text NOT NULL);
CREATE TABLE IF NOT EXISTS ledger_head (
    id smallint PRIMARY KEY CHECK (id = 1), gseq bigint NOT NULL, ghash text NOT NULL
);
""" + """
CREATE TABLE IF NOT EXISTS snapshots (
    game_id text NOT NULL, seq integer NOT NULL, event_hash text NOT NULL,
    version text NOT NULL, tag text NOT NULL, body bytea NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""
SNAPSHOTS = SCHEMA[SCHEMA.index("CREATE TABLE IF NOT EXISTS snapshots"):]
#: What a v3 store lacks: the listing's outcome (the command index is there from v1 on; made
#: here too, should a store have lost it).
V4 = ("ALTER TABLE games ADD COLUMN IF NOT EXISTS outcome json;"
      " CREATE INDEX IF NOT EXISTS events_log_command ON events_log (command_id)")

# The base views, as DuckDB's (events/store.py BASE_VIEWS) in PostgreSQL's SQL.
BASE_VIEWS: tuple[tuple[str, str], ...] = (
    (
        "commands",
        "SELECT command_id, game_id, (array_agg(actor ORDER BY seq))[1] AS seat,"
        " (array_agg(command_text ORDER BY seq))[1] AS text,"
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
        "SELECT e.game_id, e.seq, e.actor, CAST(e.payload->>'n' AS INTEGER) AS n,"
        " d.i AS die_index, d.die, d.face,"
        " COALESCE(CAST(e.payload->>'manual' AS BOOLEAN), false) AS manual,"
        " e.payload->>'purpose' AS purpose, g.kind"
        " FROM events_log e JOIN games g USING (game_id)"
        " CROSS JOIN LATERAL ROWS FROM (json_array_elements_text(e.payload->'dice'),"
        " json_array_elements_text(e.payload->'faces')) WITH ORDINALITY AS d(die, face, i)"
        " WHERE e.type = 'DiceRolled'",
    ),
    (
        "results",
        "SELECT g.game_id, g.kind, g.status, g.winner, g.seats, COALESCE(e.events, 0) AS events,"
        " e.started_at, CASE WHEN g.status = 'over' THEN e.last_at END AS ended_at,"
        " g.outcome->>'reason' AS end_reason, g.outcome->'scores' AS scores"
        " FROM games g LEFT JOIN (SELECT game_id, count(*) AS events, min(recorded_at) AS started_at,"
        " max(recorded_at) AS last_at FROM events_log GROUP BY game_id) e USING (game_id)",
    ),
)

#: The server's own functions that reach its files, revoked from PUBLIC by default; a login
#: granted any of them steps down for `query` (see PostgresStore._drop_file_privileges).
FILE_FUNCTIONS = ("pg_read_file", "pg_read_binary_file", "pg_ls_dir", "pg_stat_file", "pg_ls_logdir",
                  "pg_ls_waldir", "pg_ls_tmpdir", "pg_ls_archive_statusdir", "lo_import", "lo_export",
                  "pg_file_write", "pg_logdir_ls")

_SCHEMA_LOCK = 0x61726269  # an advisory lock key: one process creates the schema or views


QueryError = QueryRefused  # SQL that the server refused (bad SQL, a write, a file)


# -- DuckDB view SQL to PostgreSQL ------------------------------------------------------------

_PATH = re.compile(r"(->>?)\s*'\$\.([A-Za-z_][A-Za-z0-9_.]*)'")
_UNNEST_JSON = re.compile(
    r"unnest\(\s*from_json\(\s*(.+?)\s*,\s*'\[\"VARCHAR\"\]'\s*\)\s*\)", re.IGNORECASE)


def view_sql(duckdb_sql: str) -> str:
    """A game's view, written in DuckDB's SQL, in PostgreSQL's.

    DuckDB addresses JSON by path (``payload->>'$.seat'``); PostgreSQL by key
    (``payload->>'seat'``) or by path array (``payload#>>'{a,b}'``). DuckDB's
    ``unnest(from_json(x, '["VARCHAR"]'))`` is ``json_array_elements_text(x)``. Casts,
    ``json_array_length``, CASE and COALESCE are the same in both.
    """

    def path(m: re.Match[str]) -> str:
        op, keys = m.group(1), m.group(2).split(".")
        if len(keys) == 1:
            return f"{op}'{keys[0]}'"
        return f"{'#>>' if op == '->>' else '#>'}'{{{','.join(keys)}}}'"

    sql = _PATH.sub(path, duckdb_sql)
    sql = _UNNEST_JSON.sub(lambda m: f"json_array_elements_text({m.group(1)})", sql)
    return sql


def _placeholders(sql: str) -> str:
    """``?`` parameters (DuckDB's style, the protocol's) as psycopg's ``%s``, outside quotes."""
    out, quote = [], ""
    for ch in sql:
        if quote:
            if ch == quote:
                quote = ""
            out.append("%%" if ch == "%" else ch)
        elif ch in "'\"":
            quote = ch
            out.append(ch)
        elif ch == "?":
            out.append("%s")
        elif ch == "%":
            out.append("%%")
        else:
            out.append(ch)
    return "".join(out)


def _plain(value: Any) -> Any:
    """PostgreSQL's numeric as DuckDB hands it back: an int when whole, else a float."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() and value.as_tuple().exponent >= 0 else float(value)
    return value


class PostgresStore:
    """Every game in one PostgreSQL database. Open it with :func:`open_postgres`."""

    reads_rows_files = False  # an import hands it each game's groups (see the DuckDB store's)

    def __init__(self, con: "psycopg.Connection[Any]", url: str, read_only: bool) -> None:
        self.con = con
        self.path = url
        self.read_only = read_only
        self.allow_old = False
        self.schema_version = SCHEMA_VERSION
        self.created = False  # this open made the database an arbiter store

    # -- schema -------------------------------------------------------------------------

    def _ensure_schema(self) -> None:
        """One ``meta`` lookup on an arbiter store; the catalog is read only when there is
        no ``meta`` table (a new database, or one that is not an arbiter store)."""
        con = self.con
        try:
            row = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        except pg_errors.UndefinedTable:
            row = self._create_schema()
        self.schema_version = check_schema_version(row, _safe(self.path), self.allow_old)

    def _create_schema(self) -> tuple | None:
        con = self.con
        others = con.execute(
            "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()").fetchone()[0]
        if others:
            raise StoreDamaged(f"{_safe(self.path)} is a PostgreSQL database but not an"
                               " arbiter store (it has other tables)")
        if self.read_only:
            raise UnknownGame(f"no arbiter store in {_safe(self.path)}: nothing has been"
                              " played there yet")
        with self._tx("another process created the store at the same time"):
            con.execute("SELECT pg_advisory_xact_lock(%s)", [_SCHEMA_LOCK])
            if not con.execute("SELECT to_regclass('meta') IS NOT NULL").fetchone()[0]:
                con.execute(SCHEMA)
                con.execute("INSERT INTO meta VALUES ('schema_version', %s), ('views_hash', '')",
                            [str(SCHEMA_VERSION)])
                con.execute("INSERT INTO ledger_head VALUES (1, 0, %s)", [GENESIS])
                self.created = True
        return con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()

    def views_current(self, views: Sequence[tuple[str, str]]) -> bool:
        """Whether the installed views are these (base views plus ``views``)."""
        allv = tuple(BASE_VIEWS) + tuple((name, view_sql(sql)) for name, sql in views)
        row = self.con.execute("SELECT value FROM meta WHERE key = 'views_hash'").fetchone()
        return bool(row) and row[0] == _digest("views", repr(allv))

    def install_views(self, views: Sequence[tuple[str, str]]) -> None:
        """(Re)create the SQL views when their definitions changed; no DDL otherwise. Games
        give their views in DuckDB's SQL; :func:`view_sql` turns each into PostgreSQL's."""
        if self.read_only:
            return
        allv = tuple(BASE_VIEWS) + tuple((name, view_sql(sql)) for name, sql in views)
        digest = _digest("views", repr(allv))
        row = self.con.execute("SELECT value FROM meta WHERE key = 'views_hash'").fetchone()
        if row and row[0] == digest:
            return
        with self._tx("views"):
            self.con.execute("SELECT pg_advisory_xact_lock(%s)", [_SCHEMA_LOCK])
            row = self.con.execute("SELECT value FROM meta WHERE key = 'views_hash'").fetchone()
            if row and row[0] == digest:
                return
            old = self.con.execute("SELECT value FROM meta WHERE key = 'views'").fetchone()
            names = (msgspec.json.decode(old[0]) if old else []) + [n for n, _ in allv]
            for name in names:  # a view's columns may change: drop, then create afresh
                self.con.execute(f'DROP VIEW IF EXISTS "{name}" CASCADE')
            for name, sql in allv:
                self.con.execute(f'CREATE VIEW "{name}" AS {sql}')
            self.con.execute(
                "INSERT INTO meta VALUES ('views', %s) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [msgspec.json.encode([n for n, _ in allv]).decode()])
            self.con.execute("UPDATE meta SET value = %s WHERE key = 'views_hash'", [digest])

    def replaced_views(self, views: Sequence[tuple[str, str]]) -> list[str]:
        """The views whose installed definition is not the one :meth:`install_views` installs
        (replaced, or missing), by name. The server keeps a view as it re-rendered it
        (``pg_get_viewdef``), so the expected ones are rendered as temporary views in a
        transaction that is rolled back: nothing is written."""
        allv = tuple(BASE_VIEWS) + tuple((name, view_sql(sql)) for name, sql in views)
        have = dict(self.con.execute(
            "SELECT viewname, definition FROM pg_views WHERE schemaname = current_schema()").fetchall())
        want: dict[str, str] = {}
        with self.con.transaction(force_rollback=True):
            self.con.execute("SET TRANSACTION READ WRITE")
            for name, sql in allv:
                self.con.execute(f'CREATE TEMP VIEW "{name}" AS {sql}')
            want = dict(self.con.execute(
                "SELECT viewname, definition FROM pg_views WHERE schemaname = pg_my_temp_schema()::regnamespace::text"
            ).fetchall())
        # a view never installed (a store that no arbiter with it has written to yet) hides
        # nothing; one that is there with another definition, or gone after this arbiter
        # installed it, may lie
        row = self.con.execute("SELECT value FROM meta WHERE key = 'views_hash'").fetchone()
        current = bool(row) and row[0] == _digest("views", repr(allv))
        return [name for name, _sql in allv
                if (name in have and have[name] != want.get(name)) or (name not in have and current)]

    # -- games --------------------------------------------------------------------------

    def add_game(self, row: GameRow) -> None:
        self.con.execute("INSERT INTO games VALUES (" + ", ".join(["%s"] * 14) + ")",
                         list(_game_tuple(row)))

    def set_status(self, game_id: str, status: str, winner: str | None,
                   outcome: str | None = None) -> None:
        self._update_status(game_id, status, winner, outcome)

    def _update_status(self, game_id: str, status: str, winner: str | None,
                       outcome: str | None = None) -> None:
        self.con.execute("UPDATE games SET status = %s, winner = %s, outcome = %s WHERE game_id = %s",
                         [status, winner, outcome, game_id])

    _GAME_COLS = ("game_id, kind, seed, seats::text, options::text, dice, status, winner,"
                  " rules_version, engine_version, created_at::text, forked_from, forked_at,"
                  " outcome::text")

    def game(self, game_id: str) -> GameRow:
        row = self.con.execute(f"SELECT {self._GAME_COLS} FROM games WHERE game_id = %s",
                               [game_id]).fetchone()
        if row is None:
            raise UnknownGame(f"no game {game_id!r} in {_safe(self.path)} (try: arbiter query"
                              " \"select * from games\")")
        return _game_row(row)

    def games(self) -> list[GameRow]:
        rows = self.con.execute(
            f"SELECT {self._GAME_COLS} FROM games ORDER BY created_at, game_id").fetchall()
        return [_game_row(r) for r in rows]

    def resolve_game_id(self, prefix: str) -> str:
        if not prefix.strip():  # an empty prefix would match every game
            raise UnknownGame("no game id given: name one (`arbiter games` lists them)")
        exact = self.con.execute("SELECT game_id FROM games WHERE game_id = %s", [prefix]).fetchone()
        if exact:
            return exact[0]
        rows = self.con.execute("SELECT game_id FROM games WHERE starts_with(game_id, %s) LIMIT 4",
                                [prefix]).fetchall()
        if not rows and prefix != prefix.lower():  # typed in capitals: arbiter's ids are lower case
            return self.resolve_game_id(prefix.lower())
        if len(rows) == 1:
            return rows[0][0]
        if not rows:
            raise UnknownGame(f"no game {prefix!r} in {_safe(self.path)}")
        raise UnknownGame(f"{prefix!r} matches several games: {', '.join(r[0] for r in rows[:3])}"
                          + (", ..." if len(rows) > 3 else "") + "; give more of the id")

    # -- events -------------------------------------------------------------------------

    def receipt_for(self, command_id: str) -> Receipt | None:
        row = self.con.execute(
            "SELECT game_id, min(seq), max(seq), (array_agg(hash ORDER BY seq DESC))[1]"
            " FROM events_log WHERE command_id = %s GROUP BY game_id", [command_id]).fetchone()
        return Receipt(row[0], row[2], row[3], row[1]) if row else None

    def receipts_for(self, command_ids: Sequence[str]) -> dict[str, Receipt]:
        """:meth:`receipt_for` of several command ids in one read: those already stored."""
        if not command_ids:
            return {}
        rows = self.con.execute(
            "SELECT command_id, game_id, min(seq), max(seq), (array_agg(hash ORDER BY seq DESC))[1]"
            " FROM events_log WHERE command_id = ANY(%s) GROUP BY command_id, game_id",
            [list(command_ids)]).fetchall()
        return {r[0]: Receipt(r[1], r[3], r[4], r[2]) for r in rows}

    def command(self, command_id: str) -> tuple[str, str | None, str, int, int] | None:
        row = self.con.execute(
            "SELECT game_id, (array_agg(actor ORDER BY seq))[1], (array_agg(command_text ORDER BY"
            " seq))[1], min(seq), max(seq) FROM events_log WHERE command_id = %s GROUP BY game_id"
            " LIMIT 1", [command_id]).fetchone()
        return tuple(row) if row else None  # type: ignore[return-value]

    def global_head(self) -> tuple[int, str]:
        row = self.con.execute("SELECT gseq, ghash FROM ledger_head WHERE id = 1").fetchone()
        return (int(row[0]), row[1]) if row else (0, GENESIS)

    def head(self, game_id: str) -> tuple[int, str]:
        row = self.con.execute("SELECT seq, hash FROM heads WHERE game_id = %s", [game_id]).fetchone()
        return (int(row[0]), row[1]) if row else (0, GENESIS)

    def last(self, game_id: str) -> tuple[int, str]:
        row = self.con.execute(
            "SELECT seq, hash FROM events_log WHERE game_id = %s ORDER BY seq DESC LIMIT 1",
            [game_id]).fetchone()
        return (row[0], row[1]) if row else (0, GENESIS)

    def append(self, game_id: str, expected_seq: int, events: Sequence[NewEvent],
               command: CommandRecord, *, new_game: GameRow | None = None,
               status: Listing | None = None,
               snapshot: tuple[str, bytes] | None = None) -> Receipt:
        return self.append_batch(game_id, expected_seq, [(events, command)],
                                 new_game=new_game, status=status, snapshot=snapshot)

    def append_batch(self, game_id: str, expected_seq: int,
                     groups: Sequence[tuple[Sequence[NewEvent], CommandRecord]], *,
                     new_game: GameRow | None = None,
                     status: Listing | None = None,
                     snapshot: tuple[str, bytes] | None = None) -> Receipt:
        """Append several commands' events at ``expected_seq`` + 1 onward, in one transaction."""
        if not groups or any(not evs for evs, _ in groups):
            raise ValueError("a command must produce at least one event")
        con = self.con
        with self._tx(f"game {game_id}: another writer appended first"):
            row = con.execute("SELECT seq, hash FROM heads WHERE game_id = %s FOR UPDATE",
                              [game_id]).fetchone()
            if row is None:
                created = con.execute(
                    "INSERT INTO heads VALUES (%s, 0, %s) ON CONFLICT DO NOTHING RETURNING seq",
                    [game_id, GENESIS]).fetchone()
                if created is None:  # another writer created this game meanwhile
                    raise Conflict(f"game {game_id} was created by another writer first."
                                   " Nothing was written.")
                last_seq, prev = 0, GENESIS
            else:
                last_seq, prev = int(row[0]), row[1]
            if last_seq != expected_seq and self.last(game_id)[0] != last_seq:
                raise StoreDamaged(
                    f"the log of {game_id} ends at seq {self.last(game_id)[0]} but the store"
                    f" recorded seq {last_seq} as its last: events were removed or added behind"
                    f" arbiter's back. Run `arbiter verify {game_id}`.")
            if last_seq != expected_seq:
                raise Conflict(
                    f"game {game_id} moved on: expected the log to end at seq {expected_seq},"
                    f" it ends at {last_seq}. Nothing was written; look again and retry.")
            if new_game is not None:
                self.add_game(new_game)
            # The global chain's end: held from here to COMMIT, so gseq follows commit order.
            gseq0, gprev0 = con.execute(
                "SELECT gseq, ghash FROM ledger_head WHERE id = 1 FOR UPDATE").fetchone()
            rows: list[tuple] = []
            seq, prev, gseq, gprev = _chain(rows, game_id, (expected_seq, prev),
                                            (int(gseq0), gprev0), groups, _now())
            self._insert_events(rows)
            con.execute("UPDATE heads SET seq = %s, hash = %s WHERE game_id = %s",
                        [seq, prev, game_id])
            con.execute("UPDATE ledger_head SET gseq = %s, ghash = %s WHERE id = 1", [gseq, gprev])
            if status is not None:  # in this transaction, not a second one after it
                self._update_status(game_id, *status)
            if snapshot is not None:
                self._put_snapshot(game_id, seq, prev, snapshot)
        return Receipt(game_id, seq, prev, expected_seq + 1)

    def _put_snapshot(self, game_id: str, seq: int, event_hash: str, snapshot: tuple[str, bytes]) -> None:
        version, body = snapshot
        self.con.execute("INSERT INTO snapshots VALUES (%s, %s, %s, %s, %s, %s)"
                         " ON CONFLICT (game_id, seq) DO UPDATE SET event_hash = excluded.event_hash,"
                         " version = excluded.version, tag = excluded.tag, body = excluded.body",
                         [game_id, seq, event_hash, version,
                          snapshot_tag(game_id, seq, event_hash, version, body), body])

    def append_games(self, appends: Sequence[GameAppend]) -> list[list[Receipt]]:
        """Several games' commands in one transaction (a server's group commit): one commit
        for them all, or nothing written; see the DuckDB store's."""
        check_appends(appends)
        if not appends:
            return []
        con = self.con
        ids = sorted(a.game_id for a in appends)  # locked in one order: two groups never deadlock
        with self._tx("another writer appended first"):
            heads = {r[0]: (int(r[1]), r[2]) for r in con.execute(
                "SELECT game_id, seq, hash FROM heads WHERE game_id = ANY(%s) ORDER BY game_id FOR UPDATE",
                [ids]).fetchall()}
            for a in appends:
                if a.game_id not in heads:
                    if con.execute("INSERT INTO heads VALUES (%s, 0, %s) ON CONFLICT DO NOTHING RETURNING seq",
                                   [a.game_id, GENESIS]).fetchone() is None:
                        raise Conflict(f"game {a.game_id} was created by another writer first."
                                       " Nothing was written.")
                    heads[a.game_id] = (0, GENESIS)
                last_seq = heads[a.game_id][0]
                if last_seq != a.expected_seq:
                    raise head_error(a.game_id, a.expected_seq, last_seq, self.last(a.game_id)[0])
            gseq0, gprev0 = con.execute(
                "SELECT gseq, ghash FROM ledger_head WHERE id = 1 FOR UPDATE").fetchone()
            rows: list[tuple] = []
            receipts, moves = chain_appends(rows, appends, heads, (int(gseq0), gprev0), _now())
            self._insert_events(rows)
            *games, (_k, _o, gseq, gprev) = moves
            with con.cursor() as cur:
                cur.executemany("UPDATE heads SET seq = %s, hash = %s WHERE game_id = %s",
                                [(seq, h, gid) for gid, _old, seq, h in games])
            con.execute("UPDATE ledger_head SET gseq = %s, ghash = %s WHERE id = 1", [gseq, gprev])
            for a, mine in zip(appends, receipts):
                if a.status is not None:
                    self._update_status(a.game_id, *a.status)
                if a.snapshot is not None:
                    self._put_snapshot(a.game_id, mine[-1].seq, mine[-1].hash, a.snapshot)
        return receipts

    def import_games(
        self, games: Sequence[tuple[GameRow, Sequence[tuple[Sequence[NewEvent], CommandRecord]]]],
        expected: Sequence[Sequence[str]] | None = None,
        check: Callable[[Any], None] | None = None,
    ) -> list[Receipt]:
        """Write whole new games in one transaction (bulk import): all or nothing; a game
        whose chain comes out other than ``expected`` is refused before anything commits."""
        con = self.con
        ids = [row.game_id for row, _ in games]
        with self._tx("import clashes with what is stored"):
            clash = con.execute("SELECT game_id FROM games WHERE game_id = ANY(%s) LIMIT 1",
                                [ids]).fetchone()
            if clash:
                raise Conflict(f"game {clash[0]} is already in this store; nothing was imported")
            with con.cursor() as cur:
                with cur.copy("COPY heads FROM STDIN") as cp:
                    for gid in ids:
                        cp.write_row((gid, 0, GENESIS))
                with cur.copy("COPY games FROM STDIN") as cp:
                    for row, _ in games:
                        cp.write_row(_game_tuple(row))
            gseq, gprev = con.execute(
                "SELECT gseq, ghash FROM ledger_head WHERE id = 1 FOR UPDATE").fetchone()
            gseq = int(gseq)
            now = _now()
            rows: list[tuple] = []
            heads, receipts = [], []
            for gi, (row, groups) in enumerate(games):
                seq, prev, gseq, gprev = _chain(rows, row.game_id, (0, GENESIS), (gseq, gprev),
                                                groups, now, expected[gi] if expected else None)
                heads.append((seq, prev, row.game_id))
                receipts.append(Receipt(row.game_id, seq, prev, 1))
            self._insert_events(rows)
            with con.cursor() as cur:
                cur.executemany("UPDATE heads SET seq = %s, hash = %s WHERE game_id = %s", heads)
            con.execute("UPDATE ledger_head SET gseq = %s, ghash = %s WHERE id = 1", [gseq, gprev])
            if check is not None:  # sees the written games; raising rolls them all back
                check(self)
        return receipts

    def _insert_events(self, rows: list[tuple]) -> None:
        with self.con.cursor() as cur:
            if len(rows) > 20:
                with cur.copy("COPY events_log FROM STDIN") as cp:
                    for r in rows:
                        cp.write_row(r)
            else:
                cur.executemany("INSERT INTO events_log VALUES"
                                " (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)", rows)

    @contextlib.contextmanager
    def _tx(self, clash: str) -> Iterator[None]:
        """One transaction, committed whole or rolled back whole; the server's unique,
        serialization and deadlock errors become one :class:`Conflict`."""
        try:
            with self.con.transaction():
                yield
        except (pg_errors.UniqueViolation, pg_errors.SerializationFailure,
                pg_errors.DeadlockDetected) as exc:
            raise Conflict(f"{clash} ({str(exc).splitlines()[0]}). Nothing was written.") from exc
        except pg_errors.LockNotAvailable as exc:
            raise StoreLocked(f"{_safe(self.path)}: another writer held the game too long; nothing"
                              " was written. Try again (ARBITER_LOCK_TIMEOUT sets the wait).") from exc
        except pg_errors.ReadOnlySqlTransaction as exc:
            raise StoreError(f"{_safe(self.path)} was opened read-only") from exc
        except (pg_errors.DiskFull, pg_errors.IoError, pg_errors.OutOfMemory,
                pg_errors.ProgramLimitExceeded) as exc:
            raise StorageFailed(f"could not write to {_safe(self.path)}: {str(exc).splitlines()[0]}."
                                " Nothing was written.") from exc
        except psycopg.OperationalError as exc:
            raise StoreUnavailable(f"{_safe(self.path)}: {str(exc).splitlines()[0]}") from exc

    def envelopes(self, game_id: str, upto: int | None = None, after: int = 0,
                  rolls_from: int | None = None) -> list[Envelope]:
        sql = ("SELECT game_id, seq, type, version, actor, payload::text, command_id,"
               " recorded_at::text, prev_hash, hash, command_text FROM events_log"
               " WHERE game_id = %s")
        clause, params = seq_range(game_id, after, upto, "%s")
        sql += clause
        if rolls_from is not None:  # the dice rolled at draw ``rolls_from`` or later
            sql += " AND type = 'DiceRolled' AND CAST(payload->>'n' AS INTEGER) >= %s"
            params.append(rolls_from)
        rows = self.con.execute(sql + " ORDER BY seq", params).fetchall()
        return [Envelope(game_id=r[0], seq=r[1], type=r[2], version=r[3], actor=r[4], payload=r[5],
                         command_id=r[6], recorded_at=r[7], prev_hash=r[8], hash=r[9],
                         command_text=r[10])
                for r in rows]

    def log_rows(self, game_id: str, upto: int | None = None, after: int = 0) -> tuple[list[LogRow], str]:
        """What a fold reads of a game's events, in seq order (after ``after``, up to and
        including ``upto``): no envelope objects and no column it does not use; and the last
        one's hash."""
        sql = ("SELECT seq, command_id, type, version, payload::text, actor, command_text"
               " FROM events_log WHERE game_id = %s")
        clause, params = seq_range(game_id, after, upto, "%s")
        sql += clause
        rows = self.con.execute(sql + " ORDER BY seq", params).fetchall()
        if not rows:
            return rows, ""
        last = self.con.execute("SELECT hash FROM events_log WHERE game_id = %s AND seq = %s",
                                [game_id, rows[-1][0]]).fetchone()
        return rows, last[0]

    def log_text(self, game_id: str, upto: int | None = None, after: int = 0) -> LogText:
        """What :meth:`log_rows` reads, as JSON text made in one query."""
        sql, params = log_text_sql(game_id, after, upto, "%s", "(array_agg(hash ORDER BY seq DESC))[1]")
        n, lo, hi, last, items, actors, texts = self.con.execute(sql, params).fetchone()
        return LogText(n, lo, hi, last or "", items, actors, texts)

    def snapshots(self, game_id: str, upto: int | None = None,
                  limit: int | None = None) -> list[SnapshotRow]:
        """A game's snapshots, newest first, beside the log's hash at each seq (unchecked)."""
        sql, params = snapshots_sql(game_id, upto, limit, "%s")
        return [(r[0], r[1], r[2], r[3], r[4], bytes(r[5]))
                for r in self.con.execute(sql, params).fetchall()]

    def replace_snapshots(self, game_id: str, snapshots: Sequence[tuple[int, str, bytes]]) -> int:
        """Drop a game's snapshots and write these (seq, version, body), tagged with the
        log's hash at each seq, in one transaction (a cache rebuilt: no event changes)."""
        with self._tx("another writer changed the snapshots meanwhile"):
            self.con.execute("DELETE FROM snapshots WHERE game_id = %s", [game_id])
            hashes = dict(self.con.execute(
                "SELECT seq, hash FROM events_log WHERE game_id = %s AND seq = ANY(%s)",
                [game_id, [seq for seq, _v, _b in snapshots]]).fetchall()) if snapshots else {}
            rows = [[game_id, seq, hashes[seq], version, snapshot_tag(game_id, seq, hashes[seq], version, body), body]
                    for seq, version, body in snapshots if seq in hashes]
            if rows:
                with self.con.cursor() as cur:
                    cur.executemany("INSERT INTO snapshots VALUES (%s, %s, %s, %s, %s, %s)", rows)
        return len(rows)

    def commands(self, game_id: str) -> list[tuple[str, str | None, str, int, int]]:
        return [tuple(r) for r in self.con.execute(
            "SELECT command_id, (array_agg(actor ORDER BY seq))[1],"
            " (array_agg(command_text ORDER BY seq))[1], min(seq), max(seq)"
            " FROM events_log WHERE game_id = %s GROUP BY command_id ORDER BY min(seq)",
            [game_id]).fetchall()]

    def ledger(self) -> list[tuple[int, str, int, str, str]]:
        return [tuple(r) for r in self.con.execute(
            "SELECT gseq, game_id, seq, hash, ghash FROM events_log ORDER BY gseq").fetchall()]

    def query(self, sql: str, params: Sequence[Any] | None = None, *,
              sandbox: bool = False, json_columns: list[bool] | None = None) -> tuple[list[str], list[tuple]]:
        """``sql`` in a read-only transaction on the server; ``?`` marks a parameter.

        ``sandbox`` (SQL a person typed): one statement only, run as a role that can read
        the tables but no server file (``pg_read_all_data`` when the login is a superuser
        or may read or write server files), and never the functions that reach outside the
        store or change the session (see :func:`sandbox_refusal`)."""
        if sandbox:
            why = sandbox_refusal(sql)
            if why:
                raise QueryRefused(f"{SANDBOX} ({why})")
        try:
            with self.con.transaction(), self.con.cursor() as cur:
                cur.execute("SET TRANSACTION READ ONLY")
                if sandbox:
                    self._drop_file_privileges(cur)
                if params or sandbox:  # the extended protocol: exactly one statement (a
                    # prepared one: without parameters psycopg would send a simple query,
                    # whose later statements could RESET the sandbox's role)
                    cur.execute(_placeholders(sql), list(params or []), prepare=sandbox or None)
                else:
                    cur.execute(sql)
                if cur.description is None:
                    return [], []
                if json_columns is not None:  # json and jsonb, by their type oids
                    json_columns[:] = [d.type_code in (114, 3802) for d in cur.description]
                cols = [d.name for d in cur.description]
                return cols, [tuple(_plain(v) for v in r) for r in cur.fetchall()]
        except psycopg.OperationalError as exc:
            raise StoreUnavailable(f"{_safe(self.path)}: {str(exc).splitlines()[0]}") from exc
        except pg_errors.InsufficientPrivilege as exc:
            raise QueryRefused(f"{SANDBOX} ({str(exc).splitlines()[0]})") from exc
        except psycopg.Error as exc:
            if sandbox and "multiple commands" in str(exc):  # the extended protocol's refusal
                raise QueryRefused(ONE_STATEMENT) from exc
            raise QueryRefused(f"SQL: {str(exc).splitlines()[0]}") from exc

    def _drop_file_privileges(self, cur: Any) -> None:
        """For this transaction, act as a role that reads every table and no server file."""
        # a login may also hold EXECUTE on a file function granted to it directly (not
        # through pg_read_server_files): any SQL function calling it would then reach the
        # server's files whatever the blocklist sees, so such a login steps down as well
        risky = cur.execute(
            "SELECT rolsuper OR pg_has_role(current_user, 'pg_read_server_files', 'MEMBER')"
            " OR pg_has_role(current_user, 'pg_write_server_files', 'MEMBER')"
            " OR pg_has_role(current_user, 'pg_execute_server_program', 'MEMBER')"
            " OR EXISTS (SELECT 1 FROM pg_proc p WHERE p.pronamespace = 'pg_catalog'::regnamespace"
            " AND p.proname = ANY (%s) AND has_function_privilege(current_user, p.oid, 'EXECUTE'))"
            " FROM pg_roles WHERE rolname = current_user", [list(FILE_FUNCTIONS)]).fetchone()
        if not (risky and risky[0]):
            return
        try:
            cur.execute("SET LOCAL ROLE pg_read_all_data")
        except psycopg.Error as exc:
            raise QueryRefused(
                f"{SANDBOX}: {_safe(self.path)} is reached as a role that may read or write server"
                " files, and it cannot step down to pg_read_all_data (PostgreSQL 14 or later)."
                " Connect `query` as a role without those rights.") from exc

    # -- migration ------------------------------------------------------------------------

    def migrate(self, outcome: Outcomes | None = None) -> tuple[int, int, list[tuple[str, int, str, str]]]:
        """Bring a store of an older schema to this one, in one transaction (see
        events/store.py :meth:`Store.migrate`)."""
        if self.schema_version == SCHEMA_VERSION:
            return 0, 0, []
        con = self.con
        updates: list[tuple] = []
        new_heads: dict[str, tuple[int, str]] = {}
        mapping: list[tuple[str, int, str, str]] = []
        with self._tx("another writer changed the store during the migration"):
            if self.schema_version < 2:
                ghead = con.execute("SELECT gseq, ghash FROM ledger_head WHERE id = 1 FOR UPDATE").fetchone()
                heads = dict(con.execute("SELECT game_id, hash FROM heads FOR UPDATE").fetchall())
                rows = con.execute(
                    "SELECT game_id, seq, type, version, actor, payload::text, command_id, command_text,"
                    " prev_hash, hash, gseq, ghash FROM events_log ORDER BY gseq").fetchall()
                updates, new_heads, gnew, mapping = rehash_v1(_safe(self.path), rows,
                                                             (int(ghead[0]), ghead[1]), heads)
                with con.cursor() as cur:
                    cur.executemany("UPDATE events_log SET prev_hash = %s, hash = %s, ghash = %s"
                                    " WHERE game_id = %s AND seq = %s", updates)
                    cur.executemany("UPDATE heads SET hash = %s WHERE game_id = %s",
                                    [(h, g) for g, (_s, h) in new_heads.items()])
                con.execute("UPDATE ledger_head SET ghash = %s WHERE id = 1", [gnew[1]])
            if self.schema_version < 3:
                con.execute(SNAPSHOTS)
                con.execute("DELETE FROM snapshots")  # a v1 store's would follow the old hashes
            if self.schema_version < 4:
                con.execute(V4)
                backfill_outcomes(self, outcome)
            con.execute("UPDATE meta SET value = %s WHERE key = 'schema_version'", [str(SCHEMA_VERSION)])
        self.schema_version = SCHEMA_VERSION
        return len(new_heads), len(updates), mapping

    def close(self) -> None:
        self.con.close()

    # -- seat access (the service's tokens, the bots kept with a game) --------------------
    # Made on first use, as in the DuckDB store; tokens are stored only as hashes.

    def _ensure_seat_access(self) -> None:
        self.con.execute(
            "CREATE TABLE IF NOT EXISTS seat_access (game_id TEXT NOT NULL, seat TEXT NOT NULL,"
            " token_hash TEXT NOT NULL UNIQUE, bot TEXT, PRIMARY KEY (game_id, seat))")

    def _has_seat_access(self) -> bool:
        return bool(self.con.execute("SELECT to_regclass('seat_access') IS NOT NULL").fetchone()[0])

    def add_seat_access(self, game_id: str, rows: Sequence[tuple[str, str, str | None]]) -> None:
        """Record (seat, token hash, bot kind or None) for each seat of a served game."""
        with self._tx("seat tokens"):
            self.con.execute("SELECT pg_advisory_xact_lock(%s)", [_SCHEMA_LOCK])
            self._ensure_seat_access()
            with self.con.cursor() as cur:
                cur.executemany("INSERT INTO seat_access VALUES (%s, %s, %s, %s)",
                                [(game_id, seat, h, bot) for seat, h, bot in rows])

    def seat_for_token(self, token_hash: str) -> tuple[str, str] | None:
        """(game id, seat) of a token hash, or None."""
        if not self._has_seat_access():
            return None
        row = self.con.execute("SELECT game_id, seat FROM seat_access WHERE token_hash = %s",
                               [token_hash]).fetchone()
        return (row[0], row[1]) if row else None

    def seat_bots(self, game_id: str) -> dict[str, str]:
        """The bots sitting at a served game: seat -> bot kind."""
        if not self._has_seat_access():
            return {}
        return dict(self.con.execute(
            "SELECT seat, bot FROM seat_access WHERE game_id = %s AND bot IS NOT NULL", [game_id]).fetchall())

    def replace_seat_token(self, game_id: str, seat: str, token_hash: str) -> bool:
        """A seat's token replaced (the old one stops working); False for no such seat."""
        if not self._has_seat_access():
            return False
        with self._tx("seat tokens"):
            found = self.con.execute("UPDATE seat_access SET token_hash = %s WHERE game_id = %s AND seat = %s"
                                     " RETURNING seat", [token_hash, game_id, seat]).fetchall()
        return bool(found)

    # -- refused commands ----------------------------------------------------------------
    # Every command the referee refused (from do, play, try and the service): the game, the
    # seq it was refused at, the seat, the words, the rule and message, when. Created on
    # first use, like seat_access; a diagnostic record, not part of any game's hash chain.

    def add_refusal(self, game_id: str, seq: int, seat: str | None, text: str, rule_id: str | None,
                    message: str, exit_code: int, source: str) -> None:
        """Record one refused command (``exit_code`` 1: illegal, 2: bad input; ``source``: do, play, ...)."""
        self.con.execute(
            "CREATE TABLE IF NOT EXISTS refusals (game_id TEXT NOT NULL, seq BIGINT NOT NULL,"
            " seat TEXT, text TEXT NOT NULL, rule_id TEXT, message TEXT NOT NULL,"
            " exit_code INTEGER NOT NULL, source TEXT NOT NULL, refused_at TIMESTAMPTZ NOT NULL)")
        self.con.execute("INSERT INTO refusals VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                         [game_id, seq, seat, text, rule_id, message, exit_code, source, _now()])

    # -- reading and writing in batches (audits and imports of any size) ------------------

    def ledger_after(self, after: tuple[int, str, int], limit: int) -> list[tuple[int, str, int, str, str]]:
        """The next ``limit`` entries of the global ledger after the entry ``after``, in
        append order (see the DuckDB store's; through the gseq index)."""
        gseq, game_id, seq = after
        return [tuple(r) for r in self.con.execute(
            "SELECT gseq, game_id, seq, hash, ghash FROM events_log WHERE gseq >= %s AND"
            " (gseq, game_id, seq) > (%s, %s, %s) ORDER BY gseq, game_id, seq LIMIT %s",
            [gseq, gseq, game_id, seq, limit]).fetchall()]

    def import_stream(self, batches: Iterator[Sequence[tuple[GameRow, Sequence[tuple[Sequence[NewEvent], CommandRecord]], Sequence[str] | None]]],
                      skipped: list[str] | None = None) -> list[Receipt]:
        """Whole new games, batch after batch, in one transaction (see the DuckDB store's)."""
        from arbiter.events.store import chain_games, games_to_import

        con = self.con
        receipts: list[Receipt] = []
        with self._tx("import clashes with what is stored"):
            gseq, gprev = con.execute(
                "SELECT gseq, ghash FROM ledger_head WHERE id = 1 FOR UPDATE").fetchone()
            gseq = int(gseq)
            now = _now()
            for batch in batches:
                ids = [row.game_id for row, _g, _e in batch]
                stored = con.execute("SELECT h.game_id, h.seq, h.hash FROM games g JOIN heads h USING (game_id)"
                                     " WHERE g.game_id = ANY(%s)", [ids]).fetchall()
                batch = games_to_import(batch, {r[0]: (int(r[1]), r[2]) for r in stored}, skipped)
                if not batch:
                    continue
                rows, heads, gseq, gprev = chain_games(batch, (gseq, gprev), now, receipts)
                with con.cursor() as cur:
                    with cur.copy("COPY games FROM STDIN") as cp:
                        for row, _g, _e in batch:
                            cp.write_row(_game_tuple(row))
                    with cur.copy("COPY heads FROM STDIN") as cp:
                        for h in heads:
                            cp.write_row(h)
                self._insert_events(rows)
            con.execute("UPDATE ledger_head SET gseq = %s, ghash = %s WHERE id = 1", [gseq, gprev])
        return receipts


# Functions that reach past the tables: server files, large objects, other servers, the
# session's settings and role, running SQL text given as a string, signalling backends.
_REACH = re.compile(
    r"\b(pg_read_file|pg_read_binary_file|pg_ls_\w+|pg_stat_file|pg_file_\w+|lo_\w+|"
    r"dblink\w*|set_config|query_to_xml\w*|cursor_to_xml\w*|table_to_xml\w*|"
    r"schema_to_xml\w*|database_to_xml\w*|pg_terminate_backend|pg_cancel_backend|"
    r"pg_reload_conf|pg_rotate_logfile|pg_logdir_ls|pg_sleep\w*|pg_advisory\w*|"
    r"pg_try_advisory\w*)\s*\(", re.IGNORECASE)


def sandbox_refusal(sql: str) -> str:
    """Why ``sql`` may not run in `query`'s sandbox ('' when it may). The role and the
    read-only transaction are the wall; this names what reaches past them plainly."""
    plain = sql.replace('"', "")  # "pg_read_file"(...) is pg_read_file(...)
    if re.search(r"\bU&", plain, re.IGNORECASE):
        return "escaped identifiers (U&) are not taken"
    head = plain.lstrip().split(None, 1)[0].lower() if plain.strip() else ""
    if head in ("copy", "set", "reset", "do", "call", "load", "listen", "notify", "discard",
                "begin", "commit", "rollback", "savepoint", "prepare", "execute", "lock"):
        return f"{head.upper()} is not a query"
    m = _REACH.search(plain)
    if m:
        name = m.group(1)
        if name.lower().startswith(("pg_sleep", "pg_advisory", "pg_try_advisory")):
            return f"{name}() holds the server (a wait, a lock), which reading the store never needs"
        return f"{name}() reaches outside the store"
    return ""


def _safe(url: str) -> str:
    """A URL fit to print: without its password."""
    return re.sub(r"(://[^:/@]*):[^@]*@", r"\1:***@", url)


def _connect(url: str, read_only: bool, timeout: float) -> "psycopg.Connection[Any]":
    if psycopg is None:
        raise StoreError("the PostgreSQL store needs psycopg: pip install 'arbiter-referee[postgres]'")
    try:  # the URL's own options (a search_path, say) are kept; ours come after them
        given = psycopg.conninfo.conninfo_to_dict(url).get("options") or ""
    except psycopg.ProgrammingError as exc:  # a URL psycopg cannot parse
        raise StoreDamaged(f"{_safe(url)} is not a PostgreSQL URL: {exc}") from exc
    options = f"{given} -c lock_timeout={max(1, int(timeout * 1000))}".strip()
    if read_only:
        options += " -c default_transaction_read_only=on"
    try:
        con = psycopg.connect(url, autocommit=True, connect_timeout=max(2, int(timeout)),
                              options=options, application_name="arbiter")
    except psycopg.OperationalError as exc:
        raise StoreUnavailable(f"cannot reach the PostgreSQL store {_safe(url)}:"
                               f" {'; '.join(line.strip() for line in str(exc).splitlines() if line.strip())}") from exc
    # JSON columns come back as their text, as DuckDB returns them (the hash covers the text).
    con.adapters.register_loader("json", TextLoader)
    con.adapters.register_loader("jsonb", TextLoader)
    return con


@contextlib.contextmanager
def open_postgres(url: str, *, read_only: bool = False, timeout: float | None = None,
                  allow_old: bool = False) -> Iterator[PostgresStore]:
    """Open the PostgreSQL store at ``url`` for one unit of work."""
    con = _connect(url, read_only, default_lock_timeout() if timeout is None else timeout)
    store = PostgresStore(con, url, read_only)
    store.allow_old = allow_old
    try:
        try:
            store._ensure_schema()
        except psycopg.OperationalError as exc:
            raise StoreUnavailable(f"{_safe(url)}: {str(exc).splitlines()[0]}") from exc
        yield store
    finally:
        con.close()
