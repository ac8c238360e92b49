"""Matches against the store: create, load, apply, undo and fork, one short open a command.

No method keeps the database open while it waits for a person, so another terminal can
query or replay the same store in the middle of a game.
"""

from __future__ import annotations

import contextlib
import secrets
import uuid
from typing import Any, Callable, Iterator, Mapping, Sequence

import msgspec

from arbiter.core import fairness, registry
from arbiter.core.errors import ArbiterError, BadContent, CommandIdReused, RuleViolation
from arbiter.core.match import ENGINE_VERSION, UNDO, Command, History, Match, listing_status
from arbiter.core.printable import ACTING_CONTENT, acting_text
from arbiter.events.base import Event, GameCreated, SeedRevealed, Undone
from arbiter.events.envelope import Envelope
from arbiter.events.store import (CommandRecord, Conflict, GameRow, Listing, NewEvent, Receipt, SnapshotRow,
                                  Store, open_store, snapshot_tag)
from arbiter.projections.fold import (SETUP, SNAPSHOT_FORMAT, DeeperFold, Folded, Frame, few_collections,
                                      decode_snapshot, decoded, effective, encode_snapshot, fold,
                                      renamed)


def all_views() -> list[tuple[str, str]]:
    views: list[tuple[str, str]] = []
    for game in registry.available():
        views.extend(game.projection.sql_views)
    return views


def cite(game_rules: Any, exc: RuleViolation) -> RuleViolation:
    """Fill a violation's rulebook section from the game's rule index."""
    rule = game_rules.get(exc.rule_id)
    if rule is not None:
        exc.section = rule.section
    return exc


def new_game_id(short: str) -> str:
    return f"{short}-{secrets.token_hex(3)}"


def unused_game_id(store: Store, short: str) -> str:
    """A new game id the store does not hold: an id has 24 random bits, so a store of a
    few thousand games (one long `simulate`) draws one it holds now and then, which the
    store would refuse as another writer's game."""
    while True:
        gid = new_game_id(short)
        if store.head(gid)[0] == 0:
            return gid


def encode_all(match: Match, events: Sequence[Event], actor: str | None) -> list[NewEvent]:
    return [NewEvent(type(e).__name__, type(e).VERSION, actor, match.encode(e)) for e in events]


def check_retry(match: Match, stored: tuple | None, command_id: str, seat: str | None,
                text: str) -> None:
    """A reused ``--command-id`` is a retry only when it names the same seat and command;
    anything else is refused, never silently dropped."""
    if stored is None:
        return
    _gid, stored_seat, stored_text, first, _last = stored
    if seat is not None and seat != stored_seat:
        raise CommandIdReused(
            f"command id {command_id} was used by {stored_seat} for {stored_text!r} (seq {first});"
            f" {seat} cannot reuse it. Give this command an id of its own.")
    said = " ".join(text.split())
    if said == stored_text:
        return
    before = Match(match.game, match.items[: first - 1], match.actors)
    try:  # the same command written another way ("Bid 2" for "bid 2") is the same command
        _s, command, _e = before.decide(stored_seat, said)
        same = before.stored_text(said, command) == stored_text
    except ArbiterError:
        same = False
    if not same:
        raise CommandIdReused(
            f"command id {command_id} was used for {stored_seat}: {stored_text!r} (seq {first}),"
            f" not {said!r}. A retry repeats the command exactly; give a new command an id of"
            " its own.")


def status_of(match: Match) -> Listing:
    return listing_status(match.game, match.state)


# -- snapshots ---------------------------------------------------------------------------
# A game's folded state is stored every SNAPSHOT_EVERY events, so that loading it folds at
# most that many events. Snapshots are a cache: one whose tag does not match the log, or
# written under other rules or another engine, is passed over, and deleting them all
# changes no answer (only the time it takes).

#: how many events a game goes past its newest snapshot before `do` writes another
SNAPSHOT_EVERY = 64
#: how many of the newest snapshots a load tries before folding the whole game
SNAPSHOT_TRIES = 3


def snapshot_version(game: Any) -> str:
    """What a snapshot must have been folded under to be used: the game, its rules, the
    engine and the snapshot layout."""
    return f"{game.id} rules {game.rules_version} engine {ENGINE_VERSION} format {SNAPSHOT_FORMAT}"


def snapshot_usable(game_id: str, row: SnapshotRow, version: str) -> bool:
    """A snapshot row whose tag holds, that follows the event the log has at its seq, and
    that was folded under ``version``."""
    seq, event_hash, log_hash, written_under, tag, body = row
    return (written_under == version and log_hash == event_hash
            and tag == snapshot_tag(game_id, seq, event_hash, written_under, body))


def snapshot_folds(store: Store, gid: str, game: Any,
                   upto: int | None) -> Iterator[tuple[Folded, str]]:
    """(the fold a snapshot holds, the hash of the event it follows) of the newest usable
    snapshots of ``gid`` at or before ``upto``, newest first (at most SNAPSHOT_TRIES)."""
    version = snapshot_version(game)
    created: GameCreated | None = None
    for row in store.snapshots(gid, upto=upto, limit=SNAPSHOT_TRIES):
        if not snapshot_usable(gid, row, version):
            continue
        if created is None:
            first = store.envelopes(gid, upto=1)[0]
            created = game.codec.decode(first.type, first.version, first.payload)  # type: ignore[assignment]
        try:
            folded = decode_snapshot(game.projection, created, row[5])  # type: ignore[arg-type]
        except (msgspec.DecodeError, ValueError):
            continue  # written by another build of this game's state: a cache miss
        if folded.seq == row[0]:
            yield folded, row[1]


#: Events read as one JSON text at most: a game of any length is read window after window
#: (a text is one value of the store's, and a value has a ceiling: 4 GB in DuckDB).
LOG_WINDOW = 500_000


def read_log(store: Store, gid: str, game: Any, upto: int | None = None, after: int = 0
             ) -> tuple[list[tuple[int, str, Event]], dict[int, str | None], dict[str, tuple[str | None, str]], str]:
    """(seq, command id, event) of ``gid``'s events after ``after`` (up to ``upto``), their
    actors, the texts of the commands that start among them and the last one's hash: what a
    fold reads, decoded straight from the store's JSON text of them (no envelopes, no column
    it does not use), :data:`LOG_WINDOW` events at a time; row by row when some must be
    upcast (or do not decode)."""
    items: list[tuple[int, str, Event]] = []
    actors: dict[int, str | None] = {}
    texts: dict[str, tuple[str | None, str]] = {}
    last_hash, start = "", after
    while True:
        end = after + LOG_WINDOW if upto is None else min(upto, after + LOG_WINDOW)
        log = store.log_text(gid, upto=end, after=after)
        if not log.count:
            break
        decoded = game.codec.decode_log(log)
        if decoded is None:
            return read_rows(store, gid, game, upto=upto, after=start)
        if items:
            items += decoded[0]
            actors.update(decoded[1])
            texts.update(decoded[2])
        else:
            items, actors, texts = decoded
        last_hash = log.last_hash
        if log.count < end - after or end == upto:
            break  # a game's seqs have no gaps: a short window is its end
        after = end
    return items, actors, texts, last_hash


def read_rows(store: Store, gid: str, game: Any, upto: int | None = None, after: int = 0
              ) -> tuple[list[tuple[int, str, Event]], dict[int, str | None], dict[str, tuple[str | None, str]], str]:
    """:func:`read_log` row by row: each payload decoded on its own, upcast where it must be."""
    rows, last_hash = store.log_rows(gid, upto=upto, after=after)
    if not rows:
        return [], {}, {}, ""
    seqs, cids, types, versions, payloads, seats, words = zip(*rows)  # by column: C loops
    items = list(zip(seqs, cids, map(game.codec.decode, types, versions, payloads)))
    texts = {c: (a, t) for c, a, t in zip(cids, seats, words) if t is not None}
    return items, dict(zip(seqs, seats)), texts, last_hash


def fold_stored(store: Store, gid: str, game: Any, upto: int | None = None) -> Match:
    """``gid`` read and folded from its first event (up to ``upto``): a load with no
    snapshot to start from."""
    with few_collections():
        items, actors, texts, last_hash = read_log(store, gid, game, upto=upto)
        match = Match(game, items, actors)
    match.texts = texts
    match.head_hash = last_hash
    return match


def texts_of(envs: Sequence[Envelope]) -> dict[str, tuple[str | None, str]]:
    """command id -> (seat, text) of the commands that start among ``envs``."""
    return {e.command_id: (e.actor, e.command_text) for e in envs if e.command_text is not None}


class Engine:
    """Store-backed games. Each call opens the store, does one thing, and closes it."""

    def __init__(self, path: str, lock_timeout: float | None = None) -> None:
        self.path = path
        self.lock_timeout = lock_timeout
        self._cache: dict[str, Match] = {}
        self._open: list[Store] = []  # the stores opened through this engine, still open

    @contextlib.contextmanager
    def open(self, read_only: bool = False) -> Iterator[Store]:
        """The store for one unit of work. A store this open creates gets its SQL views
        now: no command of a game runs view DDL (``refresh_views`` brings old ones up to
        date, as ``migrate`` and ``query`` do)."""
        with open_store(self.path, read_only=read_only, timeout=self.lock_timeout) as store:
            if store.created:
                store.install_views(all_views())
            self._open.append(store)
            try:
                yield store
            finally:
                self._open.remove(store)

    def refresh_views(self) -> None:
        """Re-create the store's views when the games' definitions changed (an upgrade)."""
        with self.open(read_only=True) as store:
            views = all_views()
            if store.views_current(views):
                return
        with self.open() as store:
            store.install_views(views)

    def _open_write(self) -> Any:
        return self.open(read_only=False)

    # -- creating -----------------------------------------------------------------------

    def new(self, kind: str, *, seats: Sequence[str] | None = None, seed: int | None = None,
            options: Mapping[str, Any] | None = None, dice: str = "seeded",
            content: dict[str, Any] | None = None, content_source: str = "embedded",
            game_id: str | None = None, forked_from: str | None = None,
            forked_at: int | None = None, entropy: Mapping[str, str] | None = None,
            commit: bool = True) -> tuple[str, Match, Receipt]:
        """A new stored game. Without ``seed`` the referee draws a secret one; ``entropy``
        (seat -> text) is mixed into it (see :mod:`core.fairness`)."""
        game = registry.get(kind)
        where = acting_text(content) if content is not None else None
        if where:  # a new game's content, whichever door it came through (an old game's stays)
            raise BadContent(f"content: {where}: {ACTING_CONTENT}")
        match = Match.new(game, seed=seed, seats=seats or game.default_seats(), options=options,
                          dice=dice, content=content, content_source=content_source,
                          forked_from=forked_from, forked_at=forked_at, entropy=entropy,
                          commit=commit)
        return self.store_new(match, game_id)

    def store_new(self, match: Match, game_id: str | None = None) -> tuple[str, Match, Receipt]:
        """Write a game that was just set up (its setup events only)."""
        game, kind = match.game, match.game.id
        created = match.created
        forked_from, forked_at, dice = created.forked_from, created.forked_at, created.dice
        with self._open_write() as store:
            gid = game_id or unused_game_id(store, game.short or kind[:2])
            row = GameRow(game_id=gid, kind=kind, seed=created.seed, seats=created.seats,
                          options=created.options, dice=dice, rules_version=game.rules_version,
                          engine_version=created.engine_version, forked_from=forked_from,
                          forked_at=forked_at)
            receipt = store.append(
                gid, 0, encode_all(match, [e for _, _, e in match.items], None),
                CommandRecord(f"{gid}/setup", None, SETUP), new_game=row,
                status=status_of(match),
            )
        match.game_id, match.head_hash = gid, receipt.hash
        # not cached: its setup events carry the id "setup", stored as f"{gid}/setup", and a
        # snapshot written from it would name the setup command wrongly
        self._cache.pop(gid, None)
        return gid, match, receipt

    # -- loading ------------------------------------------------------------------------

    def load_from(self, store: Store, game_id: str, fresh: bool = False,
                  upto: int | None = None) -> Match:
        """Fold a game from the store, reusing the cached fold when the log has not moved
        (``fresh``: trust the cache; the append checks the expected seq anyway). ``upto``:
        the game as it was after that seq (never cached)."""
        if game_id not in self._cache:
            game_id = store.resolve_game_id(game_id)
        cached = self._cache.get(game_id) if upto is None else None
        if cached is not None and fresh:
            return cached
        if cached is not None:
            last_seq, last_hash = store.head(game_id)
            if last_seq == cached.seq and cached.head_hash == last_hash:
                return cached
        game = registry.get(store.game(game_id).kind)
        match = self._from_snapshot(store, game_id, game, upto) or self._fold_whole(store, game_id, game, upto)
        match.game_id = game_id
        if upto is None:
            self._cache[game_id] = match
        return match

    def _from_snapshot(self, store: Store, gid: str, game: Any, upto: int | None) -> Match | None:
        """The game from its newest usable snapshot (at or before ``upto``) and the events
        after it; None when no snapshot serves (none yet, a tag that does not match the log,
        older rules, or an undo that reaches below what the snapshot kept)."""
        for folded, event_hash in snapshot_folds(store, gid, game, upto):
            tail, actors, texts, last_hash = read_log(store, gid, game, upto=upto, after=folded.seq)
            try:
                match = Match.resume(game, folded, tail, actors, texts,
                                     self._history(gid, game, folded.seq),
                                     self._command_reader(gid, game), self._between(gid, game))
            except DeeperFold:
                continue
            if match.folded is not None and match.folded.top is None and match.folded.cut:
                continue  # the next undo would reach below the snapshot: fold from further back
            match.head_hash = last_hash or event_hash
            return match
        return None

    def nearest_fold(self, game_id: str, seq: int) -> Folded | None:
        """The game's state from its newest usable snapshot at or before ``seq`` (None:
        none serves), read in a short open of the store: what a replay steps from."""
        with self.reading() as store:
            gid = store.resolve_game_id(game_id)
            game = registry.get(store.game(gid).kind)
            return next((f for f, _h in snapshot_folds(store, gid, game, seq)), None)

    def _fold_whole(self, store: Store, gid: str, game: Any, upto: int | None) -> Match:
        return fold_stored(store, gid, game, upto)

    def _history(self, gid: str, game: Any, base: int) -> Callable[[], History]:
        """How a resumed match reads the events before its snapshot, when it must."""

        def read() -> History:
            with self.reading() as store, few_collections():
                items, actors, texts, _h = read_log(store, gid, game, upto=base)
            return items, actors, texts

        return read

    def _command_reader(self, gid: str, game: Any) -> Callable[[int], Command | None]:
        """How a resumed match reads one command older than its snapshot (an undo's words)."""

        def read(first_seq: int) -> Command | None:
            with self.reading() as store:
                here = store.envelopes(gid, upto=first_seq, after=first_seq - 1)
                row = store.command(here[0].command_id) if here else None
                if row is None or row[3] != first_seq:
                    return None
                _g, seat, text, first, last = row
                envs = store.envelopes(gid, upto=last, after=first - 1)
            return here[0].command_id, seat, text, [ev for _s, _c, ev in decoded(game.codec, envs)]

        return read

    def _between(self, gid: str, game: Any) -> Callable[..., list[tuple[int, str | None, Event]]]:
        """How a resumed match reads some of the events before its snapshot (a log from a
        seq, the dice a seat has seen) without the whole history."""

        def read(after: int, upto: int, rolls_from: int | None = None) -> list[tuple[int, str | None, Event]]:
            with self.reading() as store:
                envs = store.envelopes(gid, upto=upto, after=after, rolls_from=rolls_from)
            return [(e.seq, e.actor, game.codec.decode(e.type, e.version, e.payload)) for e in envs]

        return read

    @contextlib.contextmanager
    def reading(self) -> Iterator[Store]:
        """The store this engine has open now (a command in progress, a server), or a
        read-only open of it."""
        if self._open:
            yield self._open[-1]
            return
        with self.open(read_only=True) as store:
            yield store

    def snapshot_due(self, match: Match, ahead: Folded) -> tuple[str, bytes] | None:
        """A snapshot of ``ahead`` to write with the append, when the game has gone
        SNAPSHOT_EVERY events past its newest one."""
        if ahead.seq - match.snapshot_seq < SNAPSHOT_EVERY:
            return None
        body = encode_snapshot(match.game.projection, ahead)
        return (snapshot_version(match.game), body) if body is not None else None

    def forget(self, game_id: str) -> None:
        """Drop a game's cached fold (one changed in memory by commands that were never
        written): the next load reads it from the store."""
        self._cache.pop(game_id, None)

    def load(self, game_id: str, upto: int | None = None) -> Match:
        with self.open(read_only=True) as store:
            return self.load_from(store, game_id, upto=upto)

    def resolve(self, game_id: str) -> str:
        with self.open(read_only=True) as store:
            return store.resolve_game_id(game_id)

    # -- acting -------------------------------------------------------------------------

    def do(self, game_id: str, text: str, seat: str | None = None,
           command_id: str | None = None, store: Store | None = None) -> tuple[Receipt, Match, list[Event]]:
        """Decide ``text`` against the latest state and append its events atomically."""
        if store is None:
            with self._open_write() as opened:
                return self.do(game_id, text, seat, command_id, opened)
        match = self.load_from(store, game_id, fresh=True)
        gid = match.game_id
        if match.folded is not None and match.folded.top is None and match.folded.cut:
            self._cache.pop(gid, None)  # undone below its snapshot's frames: fold further back
            match = self.load_from(store, gid)
        if command_id is not None:
            done = store.receipt_for(command_id)
            if done is not None:  # a retry of a command that was stored: change nothing
                if done.game_id != gid:
                    raise Conflict(f"command id {command_id} was already used in game {done.game_id}")
                match = self.load_from(store, gid)
                check_retry(match, store.command(command_id), command_id, seat, text)
                return done, match, [e for s, _c, e in match.items if done.first_seq <= s <= done.seq]
        cid = command_id or uuid.uuid4().hex
        for attempt in (1, 2):
            try:
                actor, command, events = match.decide(seat, text)
            except RuleViolation as exc:
                raise cite(match.game.rules, exc)
            stored = match.stored_text(text, command)
            # the listing's status and any snapshot are written in the append's transaction
            ahead = match.ahead(events, cid)
            status = listing_status(match.game, ahead.state)
            changed = status if status[0] != "playing" or command == UNDO else None
            snapshot = self.snapshot_due(match, ahead)
            try:
                receipt = store.append(
                    gid, match.seq, encode_all(match, events, actor), CommandRecord(cid, actor, stored),
                    status=changed, snapshot=snapshot)
                break
            except Conflict:
                if attempt == 2:
                    raise
                self._cache.pop(gid, None)  # someone else moved: decide again on their move
                match = self.load_from(store, gid)
        if receipt.first_seq == match.seq + 1:
            match.extend(events, actor, cid, stored)
            match.head_hash = receipt.hash
            if snapshot is not None:
                match.snapshot_seq = receipt.seq
        else:  # an idempotent retry: the events were stored by an earlier attempt
            self._cache.pop(gid, None)
            match = self.load_from(store, gid)
        return receipt, match, events

    def store_match(self, store: Store, match: Match, game_id: str | None = None) -> str:
        """Write a whole in-memory match (its every command) in one transaction."""
        gid = game_id or unused_game_id(store, match.game.short or match.game.id[:2])
        created = match.created
        row = GameRow(game_id=gid, kind=match.game.id, seed=created.seed, seats=created.seats,
                      options=created.options, dice=created.dice,
                      rules_version=match.game.rules_version, engine_version=created.engine_version,
                      forked_from=created.forked_from, forked_at=created.forked_at)
        groups = []
        current: str | None = None

        def real_id(cid: str) -> str:  # the ids commands are stored under in this game
            return f"{gid}/setup" if cid == SETUP else f"{gid}/{cid}"

        for seq, cid, ev in match.items:
            if cid != current:
                current = cid
                seat, text = match.texts.get(cid, (None, SETUP))
                groups.append(([], CommandRecord(real_id(cid), seat, text)))
            if isinstance(ev, Undone):  # it names the command it retracts by its stored id
                ev = msgspec.structs.replace(ev, command_id=real_id(ev.command_id))
            groups[-1][0].append(NewEvent(type(ev).__name__, type(ev).VERSION,
                                          match.actors.get(seq), match.encode(ev)))
        snapshot = None
        if match.folded is not None and match.seq >= SNAPSHOT_EVERY:
            body = encode_snapshot(match.game.projection, renamed(match.folded, real_id))
            snapshot = (snapshot_version(match.game), body) if body is not None else None
        store.append_batch(gid, 0, groups, new_game=row, status=status_of(match), snapshot=snapshot)
        return gid

    def replay_into(self, store: Store, game_id: str, commands: Sequence[tuple[str | None, str]]) -> Match:
        """Apply (seat, text) commands to a stored game, one transaction each."""
        match = self.load_from(store, game_id)
        for seat, text in commands:
            _r, match, _e = self.do(game_id, text, seat, store=store)
        return match

    def fork(self, game_id: str, at: int, new_id: str | None = None) -> tuple[str, Match]:
        """A new game that repeats the commands in effect at seq ``at`` of ``game_id`` (the
        position `show --at` draws), written in one transaction: a fork is whole or absent.

        Its position comes from the nearest usable snapshot at or before ``at`` and the
        events after it, and the commands' events are copied, not decided again (the same
        seed, rules and commands decide the same events). Without such a snapshot, or when
        the original was played under other rules, every command is decided again from
        the start, as an audit would."""
        with self.open(read_only=True) as store:
            gid = store.resolve_game_id(game_id)
            head = self.load_from(store, gid)
            there = self.load_from(store, gid, upto=at)
            commands = store.commands(gid)
            envs = store.envelopes(gid, upto=at)
        created: GameCreated = head.created
        # The fork replays the same dice. Once the original is over its seed is public and
        # the fork commits to it as a practice game; while the original is on, the fork's
        # end must not reveal the original's seed, so the fork makes no commitment.
        match = Match.new(registry.get(created.kind), seed=created.seed, seats=created.seats,
                          options=created.options, dice=created.dice, content=created.content,
                          content_source=created.content_source, forked_from=gid,
                          forked_at=at, commit=head.folded is not None and head.folded.revealed is not None)
        spans = {cid: (seat, text, last) for cid, seat, text, _first, last in commands}
        kept = [(s, cid, ev) for s, cid, ev in effective(list(decoded(match.codec, envs)))
                if spans[cid][1] not in (SETUP, UNDO) and spans[cid][2] <= at]
        copied = None
        if there.snapshot_seq:
            copied = copy_commands(match, there, envs, kept, spans)
        if copied is not None:
            match = copied
        else:
            applied: set[str] = set()
            for _s, cid, _ev in kept:
                if cid not in applied:
                    applied.add(cid)
                    match.apply(spans[cid][0], spans[cid][1])
        with self._open_write() as store:
            fid = self.store_match(store, match, game_id=new_id)
            return fid, self.load_from(store, fid)


def copy_commands(fork: Match, there: Match, envs: Sequence[Envelope],
                  kept: list[tuple[int, str, Event]],
                  spans: Mapping[str, tuple[str | None, str, int]]) -> Match | None:
    """``fork`` (a new game, set up) with the events of the original's commands ``kept``
    copied after its setup, and its position taken from ``there`` (the original at the
    fork's point, folded from a snapshot): no command is decided or folded again. None
    when copying could differ from deciding again: other rules, another setup, a reveal
    the fork cannot make, or an undo stack that names a command the fork leaves out."""
    game, src = fork.game, there.folded
    if src is None or fork.folded is None or there.created.rules_version != game.rules_version:
        return None
    setup_id = envs[0].command_id if envs else None
    setup = fold(game.projection, decoded(game.codec, [e for e in envs if e.command_id == setup_id]))
    if (setup.state, setup.draws) != (fork.state, fork.folded.draws):
        return None
    reveal = fairness.reveal(fork.created)
    actor_of = {e.seq: e.actor for e in envs}
    items, actors, texts = list(fork.items), dict(fork.actors), dict(fork.texts)
    ids: dict[str, str] = {}  # the original's command id -> the fork's (c + its first seq)
    seqs: dict[int, int] = {}  # the original's seq -> the fork's
    seq, revealed = fork.seq, None
    for s, cid, ev in kept:
        if isinstance(ev, SeedRevealed):  # the fork reveals its own sealing, not the original's
            if reveal is None:
                return None
            ev = revealed = reveal
        seq += 1
        if cid not in ids:
            ids[cid] = f"c{seq}"
            texts[ids[cid]] = (spans[cid][0], spans[cid][1])
        seqs[s] = seq
        items.append((seq, ids[cid], ev))
        actors[seq] = actor_of[s]
    frames: list[Frame] = []
    top = src.top
    while top is not None:
        if top.command_id not in ids:
            return None
        frames.append(top)
        top = top.below
    below: Frame | None = None
    for f in reversed(frames):
        below = Frame(ids[f.command_id], seqs[f.first_seq], seqs[f.last_seq], f.state_before,
                      f.draws_before, below, cut=f.cut)
    folded = Folded(created=fork.created, state=src.state, seq=seq, draws=src.draws, top=below,
                    command_id=items[-1][1], setup_id=fork.folded.setup_id, revealed=revealed,
                    cut=src.cut and below is None)
    whole = (items, actors, texts)
    return Match.resume(game, folded, [], {}, {}, lambda: whole)
