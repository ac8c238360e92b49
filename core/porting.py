"""Moving whole logs between stores: a JSON-lines export that keeps ids and hashes, and an
import that proves everything verify proves before it commits anything: the chain, the
listing against the events, and every command decided again."""

from __future__ import annotations

import itertools
import os
from typing import Any, Iterable, Iterator, Sequence

import msgspec

from arbiter.core import registry
from arbiter.core.errors import ImportRefused, TranscriptError  # noqa: F401 - ImportRefused re-exported
from arbiter.core.match import Match, listing_status
from arbiter.events.envelope import GENESIS, Envelope
from arbiter.events.store import (ChainMismatch, CommandRecord, GameRow, NewEvent, Store, VerifiedHashes,
                                  write_rows_file)
from arbiter.projections.fold import decoded

#: v2: the hashes of store schema v2 (they cover actor, command id and text).
FORMAT = "arbiter-log-2"


class _Header(msgspec.Struct):
    format: str
    game: GameRow


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


class EventLine(msgspec.Struct):
    """One event line of a jsonl export, its payload kept as the bytes the file holds."""

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
    event: EventLine | None = None
    command: _Command | None = None


_LINE = msgspec.json.Decoder(_Line)


Parsed = tuple[GameRow, list[tuple[EventLine, str]], list[_Command]]

#: Events an import gathers before it writes them (and the games they belong to): a file of
#: any size is held one batch at a time, and a game at most whole.
BATCH_EVENTS = 5_000


#: The same when the workers wrote the games' rows to files (:class:`RowsFile`): a batch
#: then holds only their hashes, and each one written costs the store a few statements.
FILE_BATCH_EVENTS = 25_000

#: Lines an import with workers reads ahead of the oldest game still being audited.
LOOKAHEAD_LINES = 6 * BATCH_EVENTS


def parse_jsonl(text: str) -> list[Parsed]:
    """Games in an export (several may be concatenated); raises TranscriptError on damage."""
    return list(read_games(text.splitlines()))


def read_games(lines: Iterable[str | bytes], start: int = 1) -> Iterator[Parsed]:
    """The games of an export, one at a time, as its lines are read; raises
    TranscriptError on damage (naming the line; ``start``: the number of the first line
    given, for a part of a file)."""
    game: Parsed | None = None
    no = 0
    for no, line in enumerate(lines, start=start):
        if no == 1 and isinstance(line, bytes):
            line = line.removeprefix(b"\xef\xbb\xbf")  # a byte-order mark is not part of the text
        if not line.strip():
            continue
        try:
            item = _LINE.decode(line)
            if item.format is not None:
                if item.format != FORMAT or item.game is None:
                    raise ValueError(_unknown_format(item.format))
                check_header(item.game)
                if game is not None:
                    yield game
                game = (item.game, [], [])
            elif item.event is not None:
                if game is None:
                    raise ValueError("an event before any game header")
                # with the payload's exact text: the hash covers it byte for byte
                game[1].append((item.event, bytes(item.event.payload).decode()))
            elif item.command is not None:
                if game is None:
                    raise ValueError("a command before any game header")
                game[2].append(item.command)
            else:
                raise ValueError("a line must hold 'format', 'event' or 'command'")
        except (ValueError, msgspec.ValidationError, msgspec.DecodeError) as exc:
            raise TranscriptError(f"line {no}: {_unread(line, exc)}") from None
    if game is None:
        raise TranscriptError("not an arbiter log export (no header line)")
    yield game


def _unknown_format(fmt: Any) -> str:
    """Why a header's format is not read here, and what to do about it."""
    if fmt == "arbiter-log-1":
        return ("this export was written by an older arbiter (format arbiter-log-1, store schema"
                " v1 hashes): import it into a store of that arbiter, run `arbiter migrate` there"
                " with this one, and export it again")
    version = fmt.removeprefix("arbiter-log-") if isinstance(fmt, str) and fmt.startswith("arbiter-log-") else ""
    if version.isdigit() and int(version) > int(FORMAT.removeprefix("arbiter-log-")):
        return (f"this export was written by a newer arbiter (format {fmt}; this one reads"
                f" {FORMAT}): import it with that arbiter, or a newer one than this")
    return f"unknown format {fmt!r}"


def _unread(line: str | bytes, exc: Exception) -> str:
    """What is wrong with a line the reader refused, in words where the decoder's are not
    (looked at only once it is refused: a line that reads costs nothing more)."""
    if isinstance(line, bytes):
        try:
            line.decode()
        except UnicodeDecodeError as bad:
            return f"it is not UTF-8 text (byte 0x{line[bad.start]:02x} at column {bad.start + 1})"
    if isinstance(exc, msgspec.DecodeError) and "truncated" in str(exc):
        return "the line ends before its JSON does (was the file cut short?)"
    try:
        fmt = _KIND.decode(line).format
    except (msgspec.DecodeError, msgspec.ValidationError):
        fmt = None
    if fmt is not None and fmt != FORMAT:
        return _unknown_format(fmt)
    return str(exc)


def check_header(row: GameRow) -> None:
    """A listing the store can hold at all (its columns' ranges); whether it is true is
    checked against the events before the import commits."""
    if not 0 <= row.seed < 2**63:
        raise ValueError(f"the seed must be a whole number from 0 to 2^63-1, not {row.seed}")
    if row.forked_at is not None and not 0 <= row.forked_at < 2**31:
        raise ValueError(f"forked_at must be a seq, not {row.forked_at}")
    if not row.game_id or len(row.game_id) > 100 or not row.game_id.isprintable() or any(
            c.isspace() for c in row.game_id):
        raise ValueError(f"the game id must be 1 to 100 printable characters without spaces, not {row.game_id!r}")


Prepared = tuple[GameRow, list[tuple[list[NewEvent], CommandRecord]], list[Envelope]]


def prepare(row: GameRow, events: list[tuple[EventLine, str]], commands: list[_Command], *,
            groups: bool = True) -> Prepared:
    """One game of an export as the store will hold it: its log as envelopes (for the audit
    that must pass before anything is written), and its commands' groups of events (none
    when ``groups`` is false: a worker writes the envelopes themselves)."""
    game = registry.get(row.kind)
    gid = row.game_id
    for i, (ev, _payload) in enumerate(events, start=1):
        if ev.seq != i or ev.prev_hash != (events[i - 2][0].hash if i > 1 else GENESIS):
            raise ImportRefused(f"{gid}: seq {i} fails its hash chain; the file was"
                                " altered. Nothing was imported")
    made: list[tuple[list[NewEvent], CommandRecord]] = []
    envs: list[Envelope] = []
    add = envs.append
    covered = 0  # the commands must cover seqs 1, 2, 3 ... each once, in order
    for c in commands:
        first, last = c.first_seq, c.last_seq
        if not 1 <= first <= last <= len(events):
            raise ImportRefused(f"{gid}: seq {first}: command {c.command_id} names"
                                " missing events; nothing was imported")
        if first != covered + 1:
            covered = -1
        elif covered >= 0:
            covered = last
        text: str | None = c.text  # on the command's first event only
        for s in range(first, last + 1):
            e, p = events[s - 1]
            add(Envelope(game_id=gid, seq=s, type=e.type, version=e.version, actor=e.actor, payload=p,
                         command_id=e.command_id, recorded_at="", prev_hash=e.prev_hash, hash=e.hash,
                         command_text=text))
            text = None
        if groups:
            made.append(([NewEvent(e.type, e.version, e.actor, p) for e, p in events[first - 1:last]],
                         CommandRecord(c.command_id, c.seat, c.text)))
    if covered != len(events):
        raise ImportRefused(f"{gid}: events and commands do not match up; nothing"
                            " was imported")
    if row.status == "over" and row.outcome is None:  # exported before the listing kept outcomes
        row = msgspec.structs.replace(row, outcome=logged_outcome(game, envs))
    return row, made, envs


def logged_outcome(game: Any, envs: list[Envelope]) -> str | None:
    """The outcome a finished game's log gives (None when it does not fold: the audit says why)."""
    try:
        return listing_status(game, Match(game, list(decoded(game.codec, envs)),
                                           {e.seq: e.actor for e in envs}).state)[2]
    except Exception:  # noqa: BLE001 - a forged log is the audit's to name
        return None


def audit_prepared(row: GameRow, envs: list[Envelope]) -> str | None:
    """Why verify refuses a game about to be imported (None: it holds). A game recorded
    under older rules is history, not a forgery: today's rules may decide it otherwise
    (verify says so), and its chain and dice were checked."""
    from arbiter.core.audit import verify_log

    if not envs:
        return f"{row.game_id}: the game has no events; nothing was imported"
    report = verify_log(row.game_id, envs, (envs[-1].seq, envs[-1].hash), row)
    bad = sorted((p for p in report.problems if p.kind != "rules-changed"), key=lambda p: p.seq)
    if not bad:
        return None
    if bad[0].kind == "chain":
        return f"{row.game_id}: seq {bad[0].seq} fails its hash chain; the file was altered. Nothing was imported"
    return f"{row.game_id}: seq {bad[0].seq}: {bad[0].message}; nothing was imported"


class _Kind(msgspec.Struct):
    """Only whether a line is a game's header (the rest of it is the worker's to read)."""

    format: Any = None


_KIND = msgspec.json.Decoder(_Kind)

#: What a worker hands back of a game that holds: its groups and hashes, as msgpack (a
#: fraction of what pickling them costs either side), decoded straight into the store's types.
_Audited = tuple[list[tuple[list[NewEvent], CommandRecord]], list[str]]
_AUDITED = msgspec.msgpack.Decoder(_Audited)


class FileSlice(msgspec.Struct, frozen=True):
    """A game's bytes in an export file: ``length`` bytes from ``offset``."""

    path: str
    offset: int
    length: int

    def read(self) -> bytes:
        with open(self.path, "rb") as fh:
            fh.seek(self.offset)
            return fh.read(self.length)


def _audit_part(task: tuple[list[str | bytes] | bytes | FileSlice, int, str | None]) -> tuple[str, Any, bytes, Any]:
    """A worker's reading and audit of one game, from the export's own lines (one bytes
    object, or where to read it in the file: split at its newlines; ``start``: the file's
    number of the first): ("ok",
    listing, groups and hashes as msgpack, None), or with ``rows_dir`` ("ok", listing, its
    hashes alone, the :class:`RowsFile` of its rows written there), or ("damaged" |
    "refused", why, b"", None) for the error the parent raises."""
    import gc

    from arbiter.core.audit import AUDIT_GC

    gc.set_threshold(*AUDIT_GC)  # a worker does nothing but audit
    given, start, rows_dir = task
    if isinstance(given, FileSlice):
        given = given.read()
    lines = given.split(b"\n") if isinstance(given, bytes) else given
    try:
        games = list(read_games(lines, start))
    except TranscriptError as exc:
        return "damaged", str(exc), b"", None
    if len(games) != 1:  # the parent split the file at headers: not expected
        return "damaged", f"line {start}: expected one game", b"", None
    try:
        row, groups, envs = prepare(*games[0], groups=rows_dir is None)
    except ImportRefused as exc:
        return "refused", str(exc), b"", None
    why = audit_prepared(row, envs)
    if why is not None:
        return "refused", why, b"", None
    hashes = [e.hash for e in envs]
    if rows_dir is None:
        return "ok", row, msgspec.msgpack.encode((groups, hashes)), None
    made = write_rows_file(os.path.join(rows_dir, f"{start}.jsonl"), envs)
    return "ok", row, msgspec.msgpack.encode(([], hashes)), made


def import_jsonl(store: Store, text: str, *, jobs: int = 1) -> list[str]:
    """Write every game of an export in one transaction (see :func:`import_lines`)."""
    return import_lines(store, text.splitlines(), jobs=jobs)


Writable = tuple[GameRow, list[tuple[list[NewEvent], CommandRecord]], list[str]]


def import_lines(store: Store, lines: Iterable[str | bytes], *, jobs: int = 1,
                 skipped: list[str] | None = None, pool: Any = None) -> list[str]:
    """Write every game of an export, read line by line, in one transaction, batch after
    batch: memory is bounded by a batch (and the largest game), never by the file. Before
    a game is written, verify runs on it (every hash recomputed against the file's, the
    listing against the events, every command decided again, by ``jobs`` worker processes
    when more than one); anything it finds refuses the whole file, naming the first bad
    seq, and nothing is committed. The store takes the hashes the audit recomputed and
    chains the global ledger over them. A game the store already holds with the very same
    log is not written again (its id goes in ``skipped``): a file imported twice, or an
    import run again after it was stopped, is no error. ``pool``: ``jobs`` workers already
    started (:func:`arbiter.core.pools.worker_pool`), which the caller shuts down."""
    def audited() -> Iterator[Writable | None]:
        for item in audit_in_order(lines, jobs, rows_dir, idle=rows_dir is not None, pool=pool):
            if item is None:
                yield None
                continue
            (row, groups, _envs, hashes), why = item
            if why is not None:
                raise ImportRefused(why)
            yield row, groups, hashes

    def batches() -> Iterator[list[tuple[GameRow, list, list[str]]]]:
        batch: list[tuple[GameRow, list, list[str]]] = []
        size = 0
        limit = BATCH_EVENTS if rows_dir is None else FILE_BATCH_EVENTS
        for item in audited():
            if item is not None:
                row, groups, hashes = item
                # the audit recomputed every one of these hashes from these very events
                batch.append((row, groups, VerifiedHashes(hashes)))
                size += len(hashes)
            # a batch's worth in hand is written while the next game is still being
            # audited, so that little is left to write once the last one comes
            if size >= limit or (item is None and size >= BATCH_EVENTS):
                yield batch
                batch, size = [], 0
        if batch:
            yield batch

    import shutil
    import tempfile

    from arbiter.core.audit import few_collections

    # a store that reads a game's rows from a file has the workers write them there: the
    # rows then never pass through this process, which chains and writes every game alone
    rows_dir = tempfile.mkdtemp(prefix="arbiter-import-") if jobs > 1 and getattr(store, "reads_rows_files", False) else None
    try:
        with few_collections():
            receipts = store.import_stream(batches(), skipped)
    except ChainMismatch as exc:
        raise ImportRefused(f"{exc}; nothing was imported") from None
    finally:
        if rows_dir is not None:
            shutil.rmtree(rows_dir, ignore_errors=True)
    return [r.game_id for r in receipts]


def audit_in_order(lines: Iterable[str | bytes], jobs: int, rows_dir: str | None = None, *,
                   idle: bool = False, pool: Any = None
                   ) -> Iterator[tuple[tuple[GameRow, Any, list[Envelope], list[str]], str | None] | None]:
    """Each game of an export, prepared (listing, groups, envelopes, hashes), with its
    audit's verdict, in order; with ``jobs`` > 1 audited by that many worker processes from
    the game's own lines, a few games ahead (so that no more than a few are held), and
    with ``rows_dir`` its groups are a :class:`RowsFile` the worker wrote there. With
    ``idle``, None comes first whenever the next game is still being audited. ``pool``:
    the caller's workers, if it started them."""
    if jobs <= 1:
        for game in read_games(lines):
            row, groups, envs = prepare(*game)
            yield (row, groups, envs, [e.hash for e, _p in game[1]]), audit_prepared(row, envs)
        return
    import collections

    from arbiter.core.pools import get, worker_pool

    from contextlib import nullcontext

    # a refusal (or the store's) leaves games in flight: the pool is shut down without
    # waiting on them, and on no path for ever (see arbiter.core.pools)
    with nullcontext(pool) if pool is not None else worker_pool(jobs) as pool:
        pending: collections.deque = collections.deque()
        held = 0  # lines (about) of the games in ``pending``
        source = lines.source if isinstance(lines, FileLines) else None
        for part, start, at in split_games(lines):
            # a line is about 300 bytes
            size = len(part) // 300 if isinstance(part, bytes) else len(part)
            # a game in a file on disk is read there by its worker: its bytes are not sent
            given = FileSlice(source[0], source[1] + at, len(part)) \
                if source is not None and isinstance(part, bytes) else part
            pending.append((size, pool.apply_async(_audit_part, ((given, start, rows_dir),))))
            held += size
            # this process (reading, chaining, writing) reads on while the workers start
            # and audit, rather than wait on the oldest game
            while len(pending) > 2 * jobs and (held > LOOKAHEAD_LINES or pending[0][1].ready()):
                size, result = pending.popleft()
                held -= size
                if idle and not result.ready():
                    yield None
                yield _received(get(pool, result))
        while pending:
            _size, result = pending.popleft()
            if idle and not result.ready():
                yield None
            yield _received(get(pool, result))
        pool.close()  # every game is in: the workers exit while the store writes the last


def _received(result: tuple[str, Any, bytes, Any]) -> tuple[tuple[GameRow, Any, list[Envelope], list[str]], None]:
    """A worker's verdict on a game, as :func:`audit_in_order` yields it (its errors raised)."""
    verdict, row, body, rows = result
    if verdict == "damaged":
        raise TranscriptError(row)
    if verdict == "refused":
        raise ImportRefused(row)
    groups, hashes = _AUDITED.decode(body)
    return (row, rows if rows is not None else groups, [], hashes), None


#: Lines :func:`split_games` takes at a time (a few hundred KiB).
SPLIT_LINES = 2048


#: A game of an export as :func:`split_games` finds it: its lines, the number of the first,
#: and where its bytes begin among those read.
Split = tuple[list[str | bytes] | bytes, int, int]


def split_games(lines: Iterable[str | bytes]) -> Iterator[Split]:
    """The lines of each game of an export (from its header to the next), with the number
    of its first line and the offset of its first byte among the bytes given, as they are
    read: only whether a line is a header is read here, so that each line is parsed once,
    by the worker that audits its game. A damaged header, or a line before any, raises
    TranscriptError as :func:`read_games` does. A game read from a file comes as one bytes
    object, its lines as the file has them (a worker splits it at its newlines): one object
    costs next to nothing to send, a list of lines does."""
    state = _Split()
    for chunk, block, count in _chunks(lines):
        if block is not None and state.start and state.whole and state.part[-1][-1:] == b"\n":
            yield from state.block(block, count)
        else:
            for line in chunk if chunk is not None else _split_lines(block):  # type: ignore[arg-type]
                yield from state.line(line)
    if not state.part:
        raise TranscriptError("not an arbiter log export (no header line)")
    yield state.taken(), state.start, state.at


def _chunks(lines: Iterable[str | bytes]) -> Iterator[tuple[Sequence[str | bytes] | None, bytes | None, int]]:
    """``lines`` a few hundred KiB at a time: (the lines, the same as one block of whole
    lines, how many), one of the first two None when it is not to hand (a block is None
    unless its lines are all bytes, each ending with its only newline); a :class:`FileLines`
    is read in blocks, whose lines are split off only where they are wanted."""
    if isinstance(lines, FileLines):
        for block in lines.blocks():
            if block.endswith(b"\n"):
                yield None, block, block.count(b"\n")
            else:
                yield _split_lines(block), None, block.count(b"\n") + 1
        return
    it = iter(lines)
    while True:
        chunk = list(itertools.islice(it, SPLIT_LINES))
        if not chunk:
            return
        block = _whole_block(chunk)
        yield chunk, block, len(chunk)


def _split_lines(block: bytes) -> list[bytes]:
    """A block's lines, each with its newline (the last may have none)."""
    pieces = block.split(b"\n")
    return [p + b"\n" for p in pieces[:-1]] + ([pieces[-1]] if pieces[-1] else [])


#: Bytes a :class:`FileLines` is read at a time.
SPLIT_BYTES = 1 << 20


class FileLines:
    """The lines of a binary file (``first``: its first line, already read), which an
    import with workers reads in large blocks rather than line by line: it only looks
    for the games' header lines, and a worker splits its game's lines itself."""

    def __init__(self, first: bytes, fh: Any) -> None:
        self.first, self.fh = first, fh
        #: (path, offset of ``first``) when the file can be read again by name (a worker
        #: then reads its game itself rather than be sent its bytes): a file on disk
        self.source: tuple[str, int] | None = None
        try:
            if isinstance(fh.name, str) and fh.seekable() and os.path.isfile(fh.name):
                self.source = (os.path.abspath(fh.name), fh.tell() - len(first))
        except (AttributeError, OSError, ValueError):
            pass

    def __iter__(self) -> Iterator[bytes]:
        if self.first:
            yield self.first
        yield from self.fh

    def blocks(self) -> Iterator[bytes]:
        """The file in blocks of whole lines (the last may lack its newline)."""
        rest = self.first
        while True:
            chunk = self.fh.read(SPLIT_BYTES)
            if not chunk:
                break
            data = rest + chunk
            cut = data.rfind(b"\n") + 1
            if cut:
                yield data[:cut]
            rest = data[cut:]
        if rest:
            yield rest


def _whole_block(chunk: list) -> bytes | None:
    """``chunk``'s lines joined, when each is bytes ending with its only newline (as a
    file's lines are): then splitting the block at its newlines gives them back."""
    try:
        block = b"".join(chunk)
        whole = all(map(bytes.endswith, chunk, itertools.repeat(b"\n")))
    except TypeError:
        return None  # text lines
    return block if whole and block.count(b"\n") == len(chunk) else None


class _Split:
    """:func:`split_games`'s game so far: its lines (or blocks of them), the number of its
    header's line, the number of the last line read, whether every line so far is bytes
    ending at its only newline, and where the game's bytes begin among the bytes read."""

    def __init__(self) -> None:
        self.part: list[str | bytes] = []
        self.start = 0
        self.no = 0
        self.whole = True
        self.at = 0
        self.read = 0  # bytes read so far (of lines that are bytes)

    def taken(self) -> list[str | bytes] | bytes:
        return b"".join(self.part) if self.whole else self.part  # type: ignore[arg-type]

    def header(self, line: str | bytes, no: int, at: int) -> Iterator[Split]:
        """A header line at ``no`` (its error raised if it does not hold), its bytes at
        ``at``, starts a game."""
        for _game in read_games([line], no):
            pass
        if self.part:
            yield self.taken(), self.start, self.at
        self.part, self.start, self.whole, self.at = [], no, True, at

    def line(self, line: str | bytes) -> Iterator[Split]:
        self.no = no = self.no + 1
        size = len(line) if isinstance(line, bytes) else 0
        if no == 1 and isinstance(line, bytes):
            line = line.removeprefix(b"\xef\xbb\xbf")
        at = self.read + (size - len(line) if size else 0)  # where it begins, after a byte-order mark
        self.read += size
        try:
            is_header = _KIND.decode(line).format is not None
        except msgspec.DecodeError:
            is_header = False  # blank, or not JSON: the worker reading this game names it
        if is_header:
            yield from self.header(line, no, at)
        elif not self.start and line.strip():
            list(read_games([line], no))  # before any header: read_games's own error
            raise TranscriptError(f"line {no}: a line before any game header")
        if self.start:
            part = self.part
            # a line is joined only after one that ended with its newline (the last may not)
            whole = self.whole and isinstance(line, bytes) and (not part or part[-1][-1:] == b"\n") \
                and line.find(b"\n") in (-1, len(line) - 1)
            if self.whole and not whole:  # the game goes as a list of lines: one a line
                pieces = b"".join(part).split(b"\n")  # type: ignore[arg-type]
                part = self.part = [p + b"\n" for p in pieces[:-1]] + ([pieces[-1]] if pieces[-1] else [])
            self.whole = whole
            part.append(line)

    def block(self, block: bytes, count: int) -> Iterator[Split]:
        """``count`` whole lines inside a game, as one block. A header is a line whose
        object has the key "format", which its bytes can only spell out as the word itself
        or with an escape: only the lines holding either are read."""
        heads = set()
        for mark in (b"format", b"\\"):
            at = block.find(mark)
            while at != -1:
                begin = block.rfind(b"\n", 0, at) + 1
                heads.add(begin)
                at = block.find(mark, block.find(b"\n", at) + 1)
        taken = 0
        for begin in sorted(heads):
            line = block[begin:block.index(b"\n", begin) + 1]
            try:
                is_header = _KIND.decode(line).format is not None
            except msgspec.DecodeError:
                continue
            if is_header:
                self.part.append(block[taken:begin])
                yield from self.header(line, self.no + 1 + block.count(b"\n", 0, begin), self.read + begin)
                taken = begin
        self.part.append(block[taken:])
        self.no += count
        self.read += len(block)


# -- Parquet: the history for other tools (DuckDB, Spark, Trino) ------------------------------

#: (table, SQL over the store's tables and views that both stores run, with {where}).
PARQUET_TABLES: tuple[tuple[str, str], ...] = (
    ("events", "SELECT e.game_id, e.seq, e.type, e.version, e.actor, CAST(e.payload AS VARCHAR)"
               " AS payload, e.command_id, e.recorded_at, e.prev_hash, e.hash, g.kind"
               " FROM events e JOIN games g ON g.game_id = e.game_id {where} ORDER BY e.game_id, e.seq"),
    ("commands", "SELECT c.command_id, c.game_id, c.seat, c.text, c.first_seq, c.last_seq,"
                 " c.recorded_at, g.kind FROM commands c JOIN games g ON g.game_id = c.game_id"
                 " {where} ORDER BY c.game_id, c.first_seq"),
    ("games", "SELECT g.game_id, g.kind, g.seed, CAST(g.seats AS VARCHAR) AS seats,"
              " CAST(g.options AS VARCHAR) AS options, g.dice, g.status, g.winner, g.rules_version,"
              " g.engine_version, g.created_at, g.forked_from, g.forked_at, CAST(g.outcome AS VARCHAR)"
              " AS outcome FROM games g {where}"
              " ORDER BY g.game_id"),
    ("dice", "SELECT d.game_id, d.seq, d.actor, d.n, d.die_index, d.die, d.face, d.manual,"
             " d.purpose, d.kind FROM dice d {where} ORDER BY d.game_id, d.seq, d.die_index"),
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
    partitioned by game kind (``events/kind=monster-derby/data_0.parquet``, hive style).
    Returns the rows written per table. Works the same from either store: the rows are read
    through the store and written by an in-memory DuckDB."""
    import tempfile

    from arbiter.events.store import scratch_connection

    os.makedirs(out_dir, exist_ok=True)
    for name, _sql in PARQUET_TABLES:
        if os.path.exists(os.path.join(out_dir, name)):
            raise TranscriptError(f"{os.path.join(out_dir, name)} already exists; export into an"
                                  " empty directory")
    written: dict[str, int] = {}
    mem = scratch_connection()
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
            mem.execute(f"COPY \"{name}\" TO '{target}' (FORMAT parquet, PARTITION_BY (kind))")
    finally:
        mem.close()
    return written
