"""The Store protocol: everything the layers above need from storage, and nothing more.

Two stores implement it: the embedded DuckDB file (``events/store.py``, the default) and the
PostgreSQL server store (``events/postgres.py``, many concurrent writers). One conformance
suite (``tests/test_stores.py``) runs against both. Open either with
``arbiter.events.store.open_store(path_or_url)``.

The guarantees every store gives:

- the log is append-only, one row per event, keyed ``(game_id, seq)``;
- :meth:`Store.append` is optimistic: the caller states the seq it expects the log to end
  at; if another writer got there first, :class:`~arbiter.events.store.Conflict` is raised
  and nothing is written; one command's events commit in one transaction;
- each game's events are hash-chained, and every event of every game is also chained, in
  commit order, into the global ledger (gseq, ghash) with no gap and no duplicate, however
  many writers append at once;
- :meth:`Store.query` runs SQL in a read-only transaction over the same tables and views
  (``games``, ``events``, ``commands``, ``dice``, ``results`` and each game's views).

Views are given in DuckDB's SQL (as games declare them in ``projections/<game>.py``); a store
on another engine translates them (see ``events/postgres.py``).
"""

from __future__ import annotations

from typing import Any, Callable, ContextManager, Iterator, Protocol, Sequence, runtime_checkable

from arbiter.events.envelope import Envelope
from arbiter.events.store import CommandRecord, GameAppend, GameRow, Listing, LogRow, LogText, NewEvent, Outcomes, Receipt, SnapshotRow

# A group of events and the command that produced them, as appended together.
Group = tuple[Sequence[NewEvent], CommandRecord]


@runtime_checkable
class Store(Protocol):
    """One open store, for one short unit of work."""

    path: str  # the file or URL it was opened from (for messages)
    read_only: bool
    created: bool  # this open made it an arbiter store (its views are still to install)
    reads_rows_files: bool  # import_stream takes a game's rows as a RowsFile (DuckDB's)

    # -- views ---------------------------------------------------------------------------

    def install_views(self, views: Sequence[tuple[str, str]]) -> None:
        """(Re)create the SQL views (base views plus ``views``) when their text changed."""
        ...

    def views_current(self, views: Sequence[tuple[str, str]]) -> bool:
        """Whether the installed views are the base views plus ``views``, as given now."""
        ...

    def replaced_views(self, views: Sequence[tuple[str, str]]) -> list[str]:
        """Names of the views whose installed definition is not the one install_views
        installs (a view replaced by someone who could write the store, or missing)."""
        ...

    # -- games ---------------------------------------------------------------------------

    def game(self, game_id: str) -> GameRow:
        """A game's listing row; :class:`UnknownGame` if there is none."""
        ...

    def games(self) -> list[GameRow]:
        """Every game, oldest first."""
        ...

    def resolve_game_id(self, prefix: str) -> str:
        """A game id from a unique prefix of it."""
        ...

    def set_status(self, game_id: str, status: str, winner: str | None,
                   outcome: str | None = None) -> None:
        """The listing's (status, winner, outcome); ``outcome`` as ``outcome_json`` writes it."""
        ...

    # -- the log -------------------------------------------------------------------------

    def receipt_for(self, command_id: str) -> Receipt | None:
        """The receipt of a command already stored under ``command_id`` (None if new)."""
        ...

    def head(self, game_id: str) -> tuple[int, str]:
        """(last seq, its hash) as the store recorded them at its last append."""
        ...

    def last(self, game_id: str) -> tuple[int, str]:
        """(last seq, its hash) as the log itself ends."""
        ...

    def append(self, game_id: str, expected_seq: int, events: Sequence[NewEvent],
               command: CommandRecord, *, new_game: GameRow | None = None,
               status: Listing | None = None,
               snapshot: tuple[str, bytes] | None = None) -> Receipt:
        """One command's events after ``expected_seq``, in one transaction, with the
        listing's new (status, winner, outcome) and a (version, bytes) snapshot of the state after
        the last event when given (both in that same transaction)."""
        ...

    def append_batch(self, game_id: str, expected_seq: int, groups: Sequence[Group], *,
                     new_game: GameRow | None = None,
                     status: Listing | None = None,
                     snapshot: tuple[str, bytes] | None = None) -> Receipt:
        """Several commands' events after ``expected_seq``, in one transaction."""
        ...

    def append_games(self, appends: Sequence[GameAppend]) -> list[list[Receipt]]:
        """Several games' commands in one transaction (a server's group commit), each game
        after its own expected seq: all written, or nothing (a clash in any game is a
        :class:`Conflict` for the whole group). Each game's receipts, one a command."""
        ...

    def receipts_for(self, command_ids: Sequence[str]) -> dict[str, Receipt]:
        """The receipts of those of ``command_ids`` already stored, in one read."""
        ...

    def import_games(self, games: Sequence[tuple[GameRow, Sequence[Group]]],
                     expected: Sequence[Sequence[str]] | None = None,
                     check: Callable[["Store"], None] | None = None) -> list[Receipt]:
        """Whole new games in one transaction; each chain must come out as ``expected``, and
        ``check``, called on the store before the commit, may refuse them by raising."""
        ...

    def command(self, command_id: str) -> tuple[str, str | None, str, int, int] | None:
        """(game_id, seat, text, first_seq, last_seq) of a stored command, or None."""
        ...

    def global_head(self) -> tuple[int, str]:
        """(gseq, ghash) of the global ledger's end, as the store recorded it."""
        ...

    def migrate(self, outcome: Outcomes | None = None) -> tuple[int, int, list[tuple[str, int, str, str]]]:
        """Bring a store of an older schema (opened with ``allow_old``) up to date, in one
        transaction; ``outcome(store, game_id)`` says a finished game's listed outcome (the
        layers above fold it), for stores from before the listing had one."""
        ...

    def envelopes(self, game_id: str, upto: int | None = None, after: int = 0,
                  rolls_from: int | None = None) -> list[Envelope]:
        """A game's events in seq order (after ``after``, up to and including ``upto``;
        ``rolls_from``: only its DiceRolled events of that draw or later)."""
        ...

    def log_rows(self, game_id: str, upto: int | None = None, after: int = 0) -> tuple[list[LogRow], str]:
        """(seq, command id, type, version, payload, actor, command text) of a game's events
        in seq order: what a fold reads, without envelope objects; and the last one's hash."""
        ...

    def log_text(self, game_id: str, upto: int | None = None, after: int = 0) -> LogText:
        """What :meth:`log_rows` reads (and the events' lowest and highest version), as JSON
        text the store's SQL makes: what a fold reads when no event must be upcast."""
        ...

    def snapshots(self, game_id: str, upto: int | None = None,
                  limit: int | None = None) -> list[SnapshotRow]:
        """(seq, event hash, the log's hash at seq or None, version, tag, body) of a game's
        snapshots, newest first (at or before ``upto``; the newest ``limit``). A cache:
        the reader checks each against the log (``snapshot_tag``) before using it."""
        ...

    def replace_snapshots(self, game_id: str, snapshots: Sequence[tuple[int, str, bytes]]) -> int:
        """Drop every snapshot of ``game_id`` and write ``snapshots`` (seq, version, body)
        in their place, in one transaction; each is tagged with the hash the log holds at
        its seq (a seq the log does not hold is not written). Returns how many were written."""
        ...

    def commands(self, game_id: str) -> list[tuple[str, str | None, str, int, int]]:
        """(command_id, seat, text, first_seq, last_seq) in order."""
        ...

    def ledger(self) -> list[tuple[int, str, int, str, str]]:
        """(gseq, game_id, seq, event hash, ledger hash) in append order."""
        ...

    # -- SQL -----------------------------------------------------------------------------

    def query(self, sql: str, params: Sequence[Any] | None = None, *,
              sandbox: bool = False, json_columns: list[bool] | None = None) -> tuple[list[str], list[tuple]]:
        """(column names, rows) of ``sql`` run read-only; ``?`` marks a parameter.
        ``sandbox``: SQL a person typed, with no reach outside the store's tables.
        ``json_columns``, when given, is filled with whether each column is of a JSON type."""
        ...

    def close(self) -> None:
        ...

    # -- seat access ---------------------------------------------------------------------
    # The service's seat tokens (as SHA-256 hashes) and the bots kept with a game.

    def add_seat_access(self, game_id: str, rows: Sequence[tuple[str, str, str | None]]) -> None:
        """Record (seat, token hash, bot kind or None) for each seat of a game."""
        ...

    def seat_for_token(self, token_hash: str) -> tuple[str, str] | None:
        """(game id, seat) of a token hash, or None."""
        ...

    def seat_bots(self, game_id: str) -> dict[str, str]:
        """The bots sitting at a game: seat -> bot kind."""
        ...

    def replace_seat_token(self, game_id: str, seat: str, token_hash: str) -> bool:
        """A seat's token replaced (the old one stops working); False for no such seat."""
        ...

    # -- refused commands ----------------------------------------------------------------
    # Every command the referee refused (from do, play, try and the service): the game, the
    # seq it was refused at, the seat, the words, the rule and message, when. Created on
    # first use, like seat_access; a diagnostic record, not part of any game's hash chain.

    def add_refusal(self, game_id: str, seq: int, seat: str | None, text: str, rule_id: str | None,
                    message: str, exit_code: int, source: str) -> None:
        """Record one refused command (``exit_code`` 1: illegal, 2: bad input; ``source``: do, play, ...)."""
        ...

    # -- in batches ----------------------------------------------------------------------
    # Audits and imports of any size hold one batch at a time, never the whole store.

    def ledger_after(self, after: tuple[int, str, int], limit: int) -> list[tuple[int, str, int, str, str]]:
        """The next ``limit`` global ledger entries after the entry (gseq, game_id, seq)
        ``after``, ``(-2**63, '', 0)`` for the first (as :meth:`ledger`, ties by game and seq)."""
        ...

    def import_stream(self, batches: Iterator[Sequence[tuple[GameRow, Sequence[Group], Sequence[str] | None]]],
                      skipped: list[str] | None = None) -> list[Receipt]:
        """Whole new games, batch after batch, in one transaction: (listing, groups, the
        hashes the source recorded) per game; all or nothing, like :meth:`import_games`. A
        game already stored with the very same log is left as it is (named in ``skipped``)."""
        ...


class Opener(Protocol):
    """How a store is opened: ``open_store(path_or_url, read_only=..., timeout=...)``."""

    def __call__(self, path: str, *, read_only: bool = False, timeout: float | None = None,
                 allow_old: bool = False) -> ContextManager[Store]: ...


def is_url(path: str) -> bool:
    """A PostgreSQL URL rather than a DuckDB file path."""
    return path.startswith(("postgresql://", "postgres://"))
