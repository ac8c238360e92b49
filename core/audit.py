"""Audits: prove that a stored game is exactly what the rules and the seed produced.

``verify_game`` checks, in order: the per-game hash chain (edits, insertions, deletions; the
hash covers every stored column of an event but ``recorded_at``) and the game's recorded
head; that every payload decodes and is stored in its canonical encoding, byte for byte;
the ``games`` listing against the log (kind, seats, options, dice, seed, versions, fork
origin, status, winner); that the events group into whole commands, each event carrying
its command's seat; every seeded roll and shuffle against the seed; and then re-decides
every stored command from the start, comparing the events byte for byte (it re-decides
first: when every command gives its stored events again, type, version and bytes, each
payload decodes and is canonical, the rolls are the seed's and the log folds as the
decisions did, so only the commands and the listing are checked, against that fold, and
no payload is read; any difference runs the checks in the order above, which name the
first problem); and, once all
that holds, every stored snapshot against the fold at its seq (``core/snapshots.py``).
``verify_store`` checks the global chain across games against the recorded global head (a
whole game deleted, even the newest) and that no event belongs to an unlisted game;
``check_receipt`` proves that a receipt a player kept is still in the log.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Sequence

import msgspec

from arbiter.core import registry
from arbiter.core.dice import recompute
from arbiter.core.errors import ArbiterError
from arbiter.core.match import UNDO, Match, listing_status
from arbiter.events.base import DiceRolled, Event, GameCreated, Shuffled
from arbiter.events.envelope import GENESIS, Envelope, chain_hash, chain_hasher, ledger_hasher
from arbiter.events.store import GameRow, Listing, Store
from arbiter.projections.fold import FOLD_GC, SETUP, few_collections, step  # noqa: F401 - few_collections re-exported


@dataclass
class Problem:
    seq: int
    # chain | decode | listing | commands | dice | decision | rules-changed | ledger | receipt
    kind: str
    message: str


@dataclass
class Report:
    game_id: str
    events: int = 0
    commands: int = 0
    rolls: int = 0
    problems: list[Problem] = field(default_factory=list)
    #: (seq, sentence) for each snapshot loads pass over (a failed tag, a changed log): a
    #: cache's fault, not the ledger's; one loads would use that lies is a problem instead
    warnings: list[tuple[int, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def first(self) -> Problem | None:
        return min(self.problems, key=lambda p: p.seq) if self.problems else None

    def add(self, seq: int, kind: str, message: str) -> None:
        self.problems.append(Problem(seq, kind, message))


def event_hash(env: Envelope) -> str:
    """The hash an envelope's stored columns give (see events/envelope.py)."""
    return chain_hash(env.prev_hash, env.game_id, env.seq, env.type, env.payload,
                      version=env.version, actor=env.actor, command_id=env.command_id,
                      command_text=env.command_text)


def check_chain(game_id: str, envs: list[Envelope], report: Report) -> bool:
    """Seqs run 1, 2, 3 ... and each hash covers its predecessor and its own columns."""
    prev = GENESIS
    hasher = chain_hasher(game_id)
    for expected_seq, env in enumerate(envs, start=1):
        if env.seq != expected_seq:
            report.add(expected_seq, "chain", f"seq {expected_seq} is missing (the log jumps to {env.seq})")
            return False
        if env.prev_hash != prev:
            report.add(env.seq, "chain", f"seq {env.seq} does not follow seq {env.seq - 1} (an event before it was changed, removed or inserted)")
            return False
        if env.game_id != game_id or hasher(env.prev_hash, env.seq, env.type, env.version, env.actor,
                                            env.command_id, env.command_text, env.payload) != env.hash:
            report.add(env.seq, "chain", f"seq {env.seq} ({env.type}) was edited after it was recorded")
            return False
        prev = env.hash
    return True


#: (listing field, what GameCreated says it must be)
def _listing_fields(row: GameRow, created: GameCreated) -> Iterable[tuple[str, Any, Any]]:
    yield "kind", row.kind, created.kind
    yield "seats", tuple(row.seats), tuple(created.seats)
    yield "options", row.options, created.options
    yield "dice", row.dice, created.dice
    yield "seed", row.seed, created.seed
    yield "rules_version", row.rules_version, created.rules_version
    yield "engine_version", row.engine_version, created.engine_version
    yield "forked_from", row.forked_from, created.forked_from
    yield "forked_at", row.forked_at, created.forked_at


def check_listing(row: GameRow, created: GameCreated, status: Listing,
                  report: Report) -> None:
    """The ``games`` row says what the log says: a listing cannot lie."""
    for name, listed, logged in _listing_fields(row, created):
        if listed != logged:
            report.add(1, "listing", f"the listing's {name} is {listed!r}, but the game's"
                       f" GameCreated (seq 1) says {logged!r}")
    last = report.events
    if (row.status, row.winner) != status[:2]:
        report.add(last, "listing", f"the listing says status {row.status!r}, winner"
                   f" {row.winner!r}; the log ends with status {status[0]!r}, winner {status[1]!r}")
    elif _decoded(row.outcome) != _decoded(status[2]):
        report.add(last, "listing", f"the listing says the game's outcome is {row.outcome};"
                   f" the log ends with {status[2]}")


def _decoded(outcome: str | None) -> Any:
    """An outcome as JSON values (PostgreSQL and DuckDB may space its text differently)."""
    try:
        return msgspec.json.decode(outcome) if outcome is not None else None
    except msgspec.DecodeError:
        return outcome


def status_of(game: Any, state: Any) -> Listing:
    """What the listing's status, winner and outcome must say for a game in ``state``."""
    return listing_status(game, state)


def check_commands(envs: list[Envelope], report: Report) -> list[tuple[str, str | None, str, int, int]]:
    """The events group into whole commands: one run of seqs per command id, the text on
    its first event only, every event carrying the command's seat; the setup first and
    only first. Returns (command_id, seat, text, first_seq, last_seq) in order."""
    commands: list[tuple[str, str | None, str, int, int]] = []
    seen: set[str] = set()
    for env in envs:
        if commands and commands[-1][0] == env.command_id:
            cid, seat, text, first, _last = commands[-1]
            if env.command_text is not None:
                report.add(env.seq, "commands", f"seq {env.seq} carries a command text, but it is"
                           f" not the first event of command {cid}")
            if env.actor != seat:
                report.add(env.seq, "commands", f"seq {env.seq} names {env.actor!r} as its actor;"
                           f" its command (seq {first}) was {seat!r}'s")
            commands[-1] = (cid, seat, text, first, env.seq)
            continue
        if env.command_id in seen:
            report.add(env.seq, "commands", f"seq {env.seq} belongs to command {env.command_id},"
                       " whose events came earlier: one command's events are never split")
        seen.add(env.command_id)
        if env.command_text is None:
            report.add(env.seq, "commands", f"events from seq {env.seq} belong to no recorded"
                       " command (no command text)")
        text = env.command_text or ""
        if (text == SETUP) != (env.seq == 1):
            report.add(env.seq, "commands", "the game's first command must be its setup" if env.seq == 1
                       else f"seq {env.seq} claims to be the game's setup, which was seq 1")
        if env.seq == 1 and env.actor is not None:
            report.add(1, "commands", f"the setup names an actor ({env.actor!r}); nobody sets a game up")
        commands.append((env.command_id, env.actor, text, env.seq, env.seq))
    return commands


def verify_game(store: Store, game_id: str, *, redecide: bool = True) -> Report:
    envs = store.envelopes(game_id)
    if not envs:
        report = Report(game_id)
        report.add(1, "chain", "the game has no events")
        return report
    report = verify_log(game_id, envs, store.head(game_id), store.game(game_id), redecide=redecide)
    if report.ok:  # snapshots are checked against a log that holds, never trusted
        from arbiter.core.snapshots import check_snapshots

        problems, report.warnings = check_snapshots(store, game_id, envs)
        for seq, text in problems:  # a cache that lies: answers rest on it until it is rebuilt
            report.add(seq, "snapshots", text)
    return report


def verify_log(game_id: str, envs: list[Envelope], head: tuple[int, str], row: GameRow, *,
               redecide: bool = True) -> Report:
    """:func:`verify_game` on a log in hand: its events, the head and the listing a store
    recorded for it (or an import is about to record)."""
    report = Report(game_id)
    report.events = len(envs)
    chain_ok = check_chain(game_id, envs, report)
    head_seq, head_hash = head
    if chain_ok and (head_seq, head_hash) != (envs[-1].seq, envs[-1].hash):
        report.add(min(head_seq, envs[-1].seq) + 1, "chain",
                   f"the log ends at seq {envs[-1].seq}, but the store recorded seq {head_seq} as"
                   " its last (events at the end were removed or added)")
    try:
        game = registry.get(row.kind)
    except ArbiterError as exc:
        report.add(1, "listing", f"the listing's kind: {exc}")
        return report
    try:  # every game's codec knows the kernel's GameCreated: is this game what it is listed as?
        first_ev = game.codec.decode(envs[0].type, envs[0].version, envs[0].payload)
    except Exception:  # noqa: BLE001 - reported below, as any undecodable event is
        first_ev = None
    if isinstance(first_ev, GameCreated) and first_ev.kind != row.kind:
        report.add(1, "listing", f"the listing's kind is {row.kind!r}, but the game's"
                   f" GameCreated (seq 1) says {first_ev.kind!r}")
        return report
    if redecide and chain_ok and not report.problems and isinstance(first_ev, GameCreated) \
            and _decided_exactly(game, first_ev, envs, row, report):
        return report
    items: list[tuple[int, str, Event]] = []
    for env in envs:
        try:
            ev = game.codec.decode(env.type, env.version, env.payload)
        except Exception as exc:  # noqa: BLE001 - a damaged payload is a finding, not a crash
            report.add(env.seq, "decode", f"seq {env.seq} does not decode as {env.type}: {exc}")
            return report
        if type(ev).__name__ != env.type:
            report.add(env.seq, "decode", f"seq {env.seq} is stored as {env.type} but its payload"
                       f" is a {type(ev).__name__}")
            return report
        if env.version == type(ev).VERSION and game.codec.encode(ev) != env.payload:
            report.add(env.seq, "decode", f"seq {env.seq} ({env.type}) is not stored in its"
                       " canonical encoding (the bytes differ from what the event encodes to)")
        items.append((env.seq, env.command_id, ev))
    created = items[0][2]
    if not isinstance(created, GameCreated):
        report.add(1, "decode", "the first event is not GameCreated")
        return report
    commands = check_commands(envs, report)
    report.commands = len(commands)
    if redecide and chain_ok and not report.problems:
        # first, decide every command again from the start: when each one gives the stored
        # events, byte for byte, their draws are the seed's and their fold is the log's (the
        # decided events' own, already made), so the listing is checked against it and the
        # log is not folded a second time; anything else is found and named by the audit below
        decided = _decided_again(game, created, envs, commands, row.rules_version)
        if decided is not None:
            report.rolls = sum(1 for _s, _c, ev in items if isinstance(ev, (DiceRolled, Shuffled)))
            check_listing(row, created, status_of(game, decided.state), report)
            return report
    dice = game.dice(created)
    folded = None
    ends = {c[4] for c in commands}
    at_end: dict[int, Any] = {}  # the fold after each command: re-deciding takes it, not evolves again
    for seq, cid, ev in items:
        if isinstance(ev, (DiceRolled, Shuffled)):
            report.rolls += 1
            expected_n = folded.draws if folded is not None else 0
            if ev.n != expected_n:
                report.add(seq, "dice", f"seq {seq}: draw number {ev.n}, but the history says {expected_n}")
            elif isinstance(ev, DiceRolled) and ev.manual and created.dice != "manual":
                report.add(seq, "dice", f"seq {seq}: manual dice in a seeded game")
            elif not recompute(created.seed, ev, dice):
                what = f"faces {' '.join(ev.faces)}" if isinstance(ev, DiceRolled) else f"the {ev.deck} order"
                report.add(seq, "dice", f"seq {seq}: {what} are not what seed {created.seed} gives for draw {ev.n}")
        try:
            folded = step(game.projection, folded, seq, cid, ev)
        except Exception as exc:  # noqa: BLE001 - a forged event the rules cannot fold
            report.add(seq, "decode", f"seq {seq} ({type(ev).__name__}) cannot be folded: {exc}")
            return report
        if seq in ends:
            at_end[seq] = folded
    assert folded is not None
    check_listing(row, created, status_of(game, folded.state), report)
    if redecide and chain_ok and not report.problems:
        redecide_all(game, created, envs, commands, row.rules_version, report, at_end)
    return report


def _decided_exactly(game: Any, created: GameCreated, envs: list[Envelope], row: GameRow,
                     report: Report) -> bool:
    """Whether the game, decided again from its setup, gives every stored event exactly:
    its type, version and bytes; then the commands, dice and listing are checked against
    that fold and added to ``report``. Most logs hold, and for them this reads no stored
    payload: an event decided again that encodes to the stored bytes decodes from them, is
    in its canonical encoding and folds as the decision did. A log that does not is read
    event by event (False), where what is wrong is named."""
    found = Report(report.game_id)
    commands = check_commands(envs, found)
    if found.problems:
        return False
    try:
        match = redecide_all(game, created, envs, commands, row.rules_version, found, exact=True)
    except Exception:  # noqa: BLE001 - the audit that follows meets it again, and says so
        return False
    if not found.ok or match is None:
        return False
    report.commands = len(commands)
    report.rolls = sum(1 for env in envs if env.type in _DRAWS)
    check_listing(row, created, status_of(game, match.folded.state), report)
    return True


#: The events that record a draw from the seed.
_DRAWS = frozenset({DiceRolled.__name__, Shuffled.__name__})


def _decided_again(game: Any, created: GameCreated, envs: list[Envelope], commands: list[tuple],
                   rules_version: str) -> Any:
    """The fold of the game decided again from its setup, when every command gives its
    stored events byte for byte (None otherwise, or when deciding fails in any way)."""
    found = Report("")
    try:
        match = redecide_all(game, created, envs, commands, rules_version, found)
    except Exception:  # noqa: BLE001 - the audit that follows meets it again, and says so
        return None
    return match.folded if found.ok and match is not None else None


def redecide_all(game: Any, created: GameCreated, envs: list[Envelope], commands: list[tuple],
                 rules_version: str, report: Report, at_end: dict[int, Any] | None = None, *,
                 exact: bool = False) -> Match | None:
    """Decide every stored command again under today's rules and compare the events with
    the stored payloads, byte for byte (``exact``: their types and versions too); returns
    the match decided (None when the game can no longer be set up). ``at_end``: the fold
    of the stored log after each command (by its last seq); once a command's events are
    the stored ones, the game goes on from that fold rather than evolve them again."""
    if exact:
        stored: dict[int, Any] = {env.seq: (env.type, env.version, env.payload) for env in envs}
        encode: Callable[[Event], Any] = lambda ev: (type(ev).__name__, type(ev).VERSION, match.encode(ev))  # noqa: E731
    else:
        stored = {env.seq: env.payload for env in envs}
        encode = lambda ev: match.encode(ev)  # noqa: E731
    try:
        match = Match.recreate(game, created)
    except ArbiterError as exc:
        report.add(1, "decision", f"the game can no longer be set up: {exc}")
        return None
    differs = "decision" if rules_version == game.rules_version else "rules-changed"
    why = ("" if differs == "decision" else
           f" (recorded under rules v{rules_version}, today's rules are v{game.rules_version})")
    setup_last = commands[0][4]
    if [encode(ev) for _s, _c, ev in match.items] != [stored[s] for s in range(1, setup_last + 1)]:
        report.add(1, differs, f"seq 1: setup differs from what the rules produce{why}")
        return match
    for cid, seat, text, first, last in commands[1:]:
        try:
            _s, command, events = match.decide(seat, text)
        except ArbiterError as exc:
            report.add(first, differs, f"seq {first}: '{seat}: {text}' is refused today: {exc}{why}")
            return match
        if command != UNDO and match.stored_text(text, command) != text:
            report.add(first, "commands", f"seq {first}: the command text {text!r} is not as arbiter"
                       f" stores it ({match.stored_text(text, command)!r})")
            return match
        if [encode(e) for e in events] != [stored[s] for s in range(first, last + 1)]:
            report.add(first, differs, f"seq {first}: '{seat}: {text}' does not produce the stored events{why}")
            return match
        match.extend(events, seat, cid, text, folded=(at_end or {}).get(last))
    return match


#: Global ledger entries read at a time: the audit of a store of any size holds one batch.
LEDGER_BATCH = 5_000
#: The key before every ledger entry (gseq, game_id, seq).
LEDGER_START = (-(2**63), "", 0)


def ledger_entries(store: Store, batch: int | None = None) -> Iterator[tuple[int, str, int, str, str]]:
    """The global ledger in append order, read batch after batch (never held whole)."""
    batch = batch or LEDGER_BATCH
    after: tuple[int, str, int] = LEDGER_START
    while True:
        rows = store.ledger_after(after, batch)
        yield from rows
        if len(rows) < batch:
            return
        after = rows[-1][:3]


def verify_ledger(store: Store) -> list[Problem]:
    """The global chain across games: every event of every game, in append order, ending
    where the store recorded its end. A game deleted whole leaves a gap, or (the newest)
    a chain that stops short; an edited row breaks the chain after it."""
    problems: list[Problem] = []
    prev = GENESIS
    last = 0
    hashed: str | None = None  # a game's events mostly follow one another: its hasher is kept
    hasher = ledger_hasher("")
    for i, (gseq, game_id, seq, event_hash_, h) in enumerate(ledger_entries(store), start=1):
        if gseq != i:
            problems.append(Problem(seq, "ledger", f"entries {i}–{gseq - 1} of the global ledger are missing (events deleted, before {game_id} seq {seq})"))
            return problems
        if game_id != hashed:
            hashed, hasher = game_id, ledger_hasher(game_id)
        if hasher(prev, seq, event_hash_, gseq) != h:
            problems.append(Problem(seq, "ledger", f"the global ledger is broken at entry {i} ({game_id} seq {seq})"))
            return problems
        prev, last = h, i
    head = store.global_head()
    if head != (last, prev):
        problems.append(Problem(last + 1, "ledger",
                                f"the global ledger ends at entry {last}, but the store recorded entry"
                                f" {head[0]} as its end: the newest events (a whole game, perhaps)"
                                " were deleted" if head[0] > last else
                                f"the global ledger ends at entry {last}, but the store recorded"
                                f" entry {head[0]} ({head[1][:16]}) as its end"))
    return problems


def verify_store(store: Store) -> list[Problem]:
    """What no single game's audit sees: the global ledger, events or heads of games the
    listing does not have, and the SQL views (a replaced view could lie about every game)."""
    problems = verify_ledger(store)
    from arbiter.core.engine import all_views

    for name in store.replaced_views(all_views()):
        problems.append(Problem(1, "view", f"view {name} is not the one arbiter installs: its"
                                " definition was replaced (or dropped), so what it shows may lie (a"
                                " view left by an older arbiter is reinstalled by the next new game"
                                " or import)"))
    orphans = store.query("SELECT DISTINCT game_id FROM events_log WHERE game_id NOT IN"
                          " (SELECT game_id FROM games) ORDER BY game_id")[1]
    for (gid,) in orphans:
        problems.append(Problem(1, "listing", f"events of game {gid} are stored, but the games"
                                " listing has no such game (its row was deleted)"))
    return problems


# -- every game of a store, re-decided in parallel worker processes ---------------------------

#: The cyclic collector's thresholds while an audit runs (see :data:`FOLD_GC`).
AUDIT_GC = FOLD_GC


_worker: dict[str, Any] = {}


def _open_worker(path: str, timeout: float | None) -> None:
    """A worker's own read-only connection, kept for its life (a failure is kept too and
    raised by its first task: a pool whose initializer raises restarts it for ever)."""
    from arbiter.events.store import open_store

    gc.set_threshold(*AUDIT_GC)  # a worker does nothing but audit
    try:
        opened = open_store(path, read_only=True, timeout=timeout)
        _worker["store"] = opened.__enter__()
        _worker["opened"] = opened  # held: a dropped context manager closes its connection
    except Exception as exc:  # noqa: BLE001 - re-raised in the parent, by the first task
        _worker["error"] = exc


def _verify_in_worker(task: tuple[int, str, bool]) -> tuple[int, Report]:
    if "error" in _worker:
        raise _worker["error"]
    index, game_id, redecide = task
    return index, verify_game(_worker["store"], game_id, redecide=redecide)


def game_sizes(store: Store) -> list[tuple[str, int]]:
    """(game id, events stored) of every listed game, oldest first."""
    counts = dict(store.query("SELECT game_id, count(*) FROM events_log GROUP BY game_id")[1])
    return [(g.game_id, int(counts.get(g.game_id, 0))) for g in store.games()]


def default_jobs() -> int:
    """Worker processes for an audit: one a core this process may use."""
    import os

    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def verify_all(store: Store, *, redecide: bool = True, jobs: int = 1, timeout: float | None = None,
               progress: Callable[[int], None] | None = None,
               sizes: Sequence[tuple[str, int]] | None = None,
               pool: Any = None) -> tuple[list[Report], list[Problem]]:
    """Every game's audit (in listing order, as :func:`verify_game` gives it) and the
    store's own (:func:`verify_store`). With ``jobs`` > 1 the games are audited by that many
    worker processes, each with its own read-only connection to ``store.path`` (largest
    games first, so that one long game does not finish alone at the end), while this
    process checks the global ledger; ``progress`` is told the events of each game done.
    Memory is bounded by the largest game, never by the store: no process holds more than
    one game's events and one batch of the ledger. ``pool``: the ``jobs`` workers, already
    started by :func:`audit_pool` (the caller shuts it down)."""
    with few_collections():
        return _verify_all(store, redecide=redecide, jobs=jobs, timeout=timeout, progress=progress,
                           sizes=sizes, pool=pool)


def audit_pool(path: str, jobs: int, timeout: float | None = None) -> Any:
    """A pool of ``jobs`` workers for :func:`verify_all` on the store at ``path``, each with
    its own read-only connection: a caller starts it first, so that the workers start up
    while it opens the store itself."""
    from arbiter.core.pools import worker_pool

    return worker_pool(jobs, initializer=_open_worker, initargs=(path, timeout))


def _verify_all(store: Store, *, redecide: bool, jobs: int, timeout: float | None,
                progress: Callable[[int], None] | None,
                sizes: Sequence[tuple[str, int]] | None, pool: Any) -> tuple[list[Report], list[Problem]]:
    sizes = list(sizes) if sizes is not None else game_sizes(store)
    reports: list[Report | None] = [None] * len(sizes)
    jobs = max(1, min(jobs, len(sizes)))
    if jobs == 1 and (pool is None or not sizes):
        for i, (gid, _n) in enumerate(sizes):
            reports[i] = verify_game(store, gid, redecide=redecide)
            if progress is not None:
                progress(reports[i].events)
        ledger = verify_store(store)
        return reports, ledger  # type: ignore[return-value]
    from contextlib import nullcontext

    from arbiter.core.pools import each

    order = sorted(range(len(sizes)), key=lambda i: -sizes[i][1])
    with nullcontext(pool) if pool is not None else audit_pool(store.path, jobs, timeout) as pool:
        done = pool.imap_unordered(_verify_in_worker, [(i, sizes[i][0], redecide) for i in order])
        ledger = verify_store(store)  # meanwhile, here
        for i, report in each(pool, done):
            reports[i] = report
            if progress is not None:
                progress(report.events)
    return reports, ledger  # type: ignore[return-value]


def parse_receipts(text: str) -> list[tuple[int, str]]:
    """Receipts from a file, each with the number of its line: one a line, as arbiter
    printed them (``receipt g:41:9c2e...`` or bare); blank lines and ``#`` comments are
    skipped."""
    out = []
    for no, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if line.lower().startswith("receipt "):
            line = line[8:].strip()
        if line:
            out.append((no, line))
    return out


def check_receipt(store: Store, receipt: str) -> Problem | None:
    """A receipt ``game:seq:hash-prefix`` is still in the log, unchanged."""
    parts = receipt.strip().split(":")
    if len(parts) != 3 or not parts[1].isdigit() or len(parts[2]) < 8:
        shown = receipt if len(receipt) <= 80 else receipt[:80] + "…"
        return Problem(0, "receipt", f"{shown!r} is not a receipt (game:seq:hash, as arbiter printed it)")
    game_id, seq, prefix = parts[0], int(parts[1]), parts[2].lower()
    row = store.query("SELECT hash FROM events_log WHERE game_id = ? AND seq = ?", [game_id, seq])[1]
    if not row:
        last = store.last(game_id)[0]
        if not last:  # "the log of md-1 ends at 0" read as a log cut to nothing
            return Problem(seq, "receipt", f"receipt {receipt}: this store has no game {game_id}"
                           " (deleted whole, or the receipt is of another store)")
        return Problem(seq, "receipt", f"receipt {receipt}: seq {seq} is gone (the log of {game_id} ends at {last})")
    if not row[0][0].startswith(prefix):
        return Problem(seq, "receipt", f"receipt {receipt}: seq {seq} now has hash {row[0][0][:16]}")
    return None
