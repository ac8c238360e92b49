"""The kernel fold: a game's state is the fold of its effective history.

``Undone`` retracts the last command: the fold drops back to the state before it, and the
draw counter with it, so rolling again after an undo gives the same faces.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import threading
import typing
from typing import Any, Callable, Iterable, Iterator, Optional

import msgspec

from arbiter.events.base import RANDOM_EVENTS, Event, GameCreated, SeedRevealed, Undone
from arbiter.events.codec import Codec
from arbiter.events.envelope import Envelope
from arbiter.events.errors import DeeperFold  # noqa: F401 - raised here, caught by the engine
from arbiter.projections.kernel import Projection

SETUP = "setup"


class Frame(msgspec.Struct, frozen=True, gc=False):
    """A command in the effective history, with what it takes to retract it."""
    # plain data, never in a reference cycle: the cyclic collector need not follow it (a fold
    # makes one an event, and a collection's cost grows with the objects it follows)

    command_id: str
    first_seq: int
    last_seq: int
    state_before: Any
    draws_before: int
    below: "Frame | None"
    #: the frames below this one were left out of a snapshot (see :func:`encode_snapshot`)
    cut: bool = False


class Folded(msgspec.Struct, frozen=True):
    """The kernel's state around a game's own: draw counter and the undo stack."""

    created: GameCreated
    state: Any
    seq: int = 0
    draws: int = 0
    top: Frame | None = None  # the last command still in effect (None: only setup)
    command_id: str = SETUP
    setup_id: str = SETUP  # the command id of the events that set the game up
    #: the reveal, once made: what it published stays known, whatever is undone later
    revealed: SeedRevealed | None = None
    #: with no frame left (``top`` None): the stack went deeper than the snapshot this was
    #: folded from kept, so an undo now needs a longer fold (:class:`DeeperFold`)
    cut: bool = False


def step(projection: Projection[Any], folded: Folded | None, seq: int, command_id: str,
         event: Event) -> Folded:
    """Fold one stored event into the kernel state."""
    if folded is None:
        if not isinstance(event, GameCreated):
            raise ValueError(f"a game's log must start with GameCreated, not {type(event).__name__}")
        return Folded(created=event, state=projection.initial(event), seq=seq,
                      command_id=command_id, setup_id=command_id)
    if isinstance(event, Undone):
        top = folded.top
        if top is None:
            if folded.cut:
                raise DeeperFold(f"seq {seq} undoes a move older than the snapshot kept")
            return msgspec.structs.replace(folded, seq=seq)
        return Folded(created=folded.created, state=top.state_before, seq=seq,
                      draws=top.draws_before, top=top.below, command_id=command_id,
                      setup_id=folded.setup_id, revealed=folded.revealed,
                      cut=top.cut and top.below is None)
    top = folded.top
    if command_id != folded.setup_id:
        if command_id != folded.command_id or top is None:
            top = Frame(command_id, seq, seq, folded.state, folded.draws, top,
                        cut=folded.cut and top is None)
        else:
            top = msgspec.structs.replace(top, last_seq=seq)
    cut = folded.cut and top is None
    if isinstance(event, SeedRevealed):  # the kernel's fact: no game's state changes
        return Folded(created=folded.created, state=folded.state, seq=seq, draws=folded.draws,
                      top=top, command_id=command_id, setup_id=folded.setup_id, revealed=event,
                      cut=cut)
    draws = event.n + 1 if isinstance(event, RANDOM_EVENTS) else folded.draws  # type: ignore[attr-defined]
    return Folded(created=folded.created, state=projection.evolve(folded.state, event), seq=seq,
                  draws=draws, top=top, command_id=command_id, setup_id=folded.setup_id,
                  revealed=folded.revealed, cut=cut)


#: The cyclic collector's thresholds while a whole log is read and folded or audited: that
#: makes a great many small objects (events, states, folds) and keeps a game's worth alive,
#: few of them in cycles, so the default thresholds run a collection over and over for next
#: to nothing (measured: 5-8% of an import's CPU, a third of a 10,000-event replay's time).
FOLD_GC = (50_000, 20, 100)


#: The collector's thresholds before the first of the open :func:`few_collections`, and how
#: many are open, across threads (a server folds on several): the last to close puts them back.
_relaxed: list[Any] = [None, 0]
_relaxing = threading.Lock()


@contextlib.contextmanager
def few_collections() -> Iterator[None]:
    """The collector at :data:`FOLD_GC` inside, as it was after; on the main thread, what was
    made inside and is still alive at the end goes straight to the oldest generation."""
    with _relaxing:
        if not _relaxed[1]:
            _relaxed[0] = gc.get_threshold()
            gc.set_threshold(*FOLD_GC)
        _relaxed[1] += 1
    try:
        yield
    finally:
        with _relaxing:
            # What a fold made and is still alive is kept (a game's events, states and undo
            # frames, no cycle among them): the young generation's collection, due at once
            # under the usual thresholds, would trace it all only to find it alive (a tenth of
            # a 10,000-event replay), and the middle generation's later again. freeze +
            # unfreeze moves every tracked object to the oldest generation without tracing
            # any: a cycle made meanwhile waits for a full collection. Not while objects are
            # held frozen (unfreeze would let those go too), and only on the main thread: it
            # moves every thread's objects, and a server folds on threads of its own while its
            # others answer requests, whose garbage cycles would wait for a full collection too.
            if gc.get_freeze_count() == 0 and threading.current_thread() is threading.main_thread():
                gc.freeze()
                gc.unfreeze()
            _relaxed[1] -= 1
            if not _relaxed[1]:
                gc.set_threshold(*_relaxed[0])


def fold(projection: Projection[Any], items: Iterable[tuple[int, str, Event]]) -> Folded:
    """Fold (seq, command_id, event) triples from the start of a game."""
    folded = fold_on(projection, None, items)
    if folded is None:
        raise ValueError("empty log")
    return folded


_RANDOM = frozenset(RANDOM_EVENTS)


def fold_on(projection: Projection[Any], folded: Folded | None,
            items: Iterable[tuple[int, str, Event]]) -> Folded | None:
    """:func:`step` over every triple of ``items``, from ``folded``: the same fold, with the
    kernel's fields kept in locals and a :class:`Folded` made once at the end, not once an
    event (a replay's loop; the reveal, rare, goes through :func:`step` itself)."""
    it = iter(items)
    if folded is None:
        first = next(it, None)
        if first is None:
            return None
        folded = step(projection, None, *first)
    evolve = projection.evolve
    # an evolve made by ``by_type``: its table, to call the event's own function straight away
    # (with ``methods``, bound to the projection once here, not once an event)
    table, methods = getattr(evolve, "by_type", (None, False))
    how_for = None
    if table is not None:
        how_for = ({t: functools.partial(fn, projection) for t, fn in table.items()} if methods
                   else table).get
    created, setup_id, revealed = folded.created, folded.setup_id, folded.revealed
    state, seq, draws, top, command_id, cut = (folded.state, folded.seq, folded.draws, folded.top,
                                               folded.command_id, folded.cut)
    last = 0  # when not 0: the top frame's command runs on to this seq (its Frame made later)
    for s, cid, ev in it:
        if type(ev) is Undone:  # as step: back to the state before the command on top
            top = _ending(top, last)
            last = 0
            if top is None:
                if cut:
                    raise DeeperFold(f"seq {s} undoes a move older than the snapshot kept")
                seq = s
                continue
            state, draws, cut = top.state_before, top.draws_before, top.cut and top.below is None
            top, seq, command_id = top.below, s, cid
            continue
        kind = type(ev)  # the kernel's events have no subclasses: a type is one lookup
        if kind is SeedRevealed:
            top = _ending(top, last)
            last = 0
            folded = step(projection, Folded(created, state, seq, draws, top, command_id,
                                             setup_id, revealed, cut), s, cid, ev)
            seq = s
            state, draws, top, command_id, cut, revealed = (folded.state, folded.draws, folded.top,
                                                            folded.command_id, folded.cut, folded.revealed)
            continue
        if cid != setup_id:
            if cid != command_id or top is None:
                if last:  # the command on top ran on to seq ``last``: its frame says so now
                    top = Frame(top.command_id, top.first_seq, last, top.state_before,  # type: ignore[union-attr]
                                top.draws_before, top.below, top.cut)  # type: ignore[union-attr]
                    last = 0
                top = Frame(cid, s, s, state, draws, top, cut and top is None)
            else:
                last = s
        cut = cut and top is None
        if kind in _RANDOM:
            draws = ev.n + 1  # type: ignore[attr-defined]
        if how_for is None:
            state = evolve(state, ev)
        else:
            how = how_for(kind)
            if how is not None:
                state = how(state, ev)
        seq, command_id = s, cid
    return Folded(created=created, state=state, seq=seq, draws=draws, top=_ending(top, last),
                  command_id=command_id, setup_id=setup_id, revealed=revealed, cut=cut)


def _ending(top: Frame | None, last: int) -> Frame | None:
    """``top`` running on to seq ``last`` (0: as it is)."""
    if not last or top is None:
        return top
    return Frame(top.command_id, top.first_seq, last, top.state_before, top.draws_before, top.below, top.cut)


# -- snapshots --------------------------------------------------------------------------
# A snapshot is a Folded written down: the game's state, the draw counter, the reveal and
# the top SNAPSHOT_DEPTH frames of the undo stack (each holds a whole state, so the stack is
# cut there; an undo past the cut folds from further back). GameCreated is not in it: the
# log's first event is read instead.

#: how many undo frames a snapshot keeps
SNAPSHOT_DEPTH = 8
#: the layout below; a change makes every stored snapshot unusable (they are a cache)
SNAPSHOT_FORMAT = 1


def state_type(projection: Projection[Any]) -> type | None:
    """The struct a game's state is (from ``initial``'s annotation); None: not snapshotted."""
    try:
        hint = typing.get_type_hints(type(projection).initial).get("return")
    except Exception:  # an annotation that does not resolve: the game is folded whole
        return None
    return hint if isinstance(hint, type) and issubclass(hint, msgspec.Struct) else None


@functools.lru_cache(maxsize=None)
def _snapshot_codec(state: type) -> tuple[type, type, msgspec.msgpack.Decoder]:
    frame = msgspec.defstruct("SnapshotFrame", [
        ("command_id", str), ("first_seq", int), ("last_seq", int), ("state_before", state),
        ("draws_before", int)], array_like=True, frozen=True)
    snap = msgspec.defstruct("Snapshot", [
        ("state", state), ("seq", int), ("draws", int), ("command_id", str), ("setup_id", str),
        ("revealed", Optional[SeedRevealed]), ("frames", tuple[frame, ...]),  # type: ignore[valid-type]
        ("cut", bool)], array_like=True, frozen=True)
    return frame, snap, msgspec.msgpack.Decoder(snap)


def encode_snapshot(projection: Projection[Any], folded: Folded,
                    depth: int = SNAPSHOT_DEPTH) -> bytes | None:
    """``folded`` as stored bytes (None when the game's state cannot be snapshotted)."""
    st = state_type(projection)
    if st is None or not isinstance(folded.state, st):
        return None
    frame_t, snap_t, _dec = _snapshot_codec(st)
    frames, top, cut = [], folded.top, folded.cut
    while top is not None and len(frames) < depth:
        frames.append(frame_t(top.command_id, top.first_seq, top.last_seq, top.state_before,
                              top.draws_before))
        cut = top.cut or top.below is not None
        top = top.below
    return msgspec.msgpack.encode(snap_t(folded.state, folded.seq, folded.draws, folded.command_id,
                                         folded.setup_id, folded.revealed, tuple(frames), cut))


def decode_snapshot(projection: Projection[Any], created: GameCreated, body: bytes) -> Folded:
    """The Folded a snapshot holds; raises ``msgspec.DecodeError`` (or ValueError) when the
    bytes are not one of this game's snapshots."""
    st = state_type(projection)
    if st is None:
        raise ValueError("this game's state is not snapshotted")
    snap = _snapshot_codec(st)[2].decode(body)
    prepare = getattr(projection, "prepare", None)
    if prepare is not None:  # what initial() would have learnt of the content, without a setup
        prepare(created)
    below: Frame | None = None
    for i, f in enumerate(reversed(snap.frames)):
        below = Frame(f.command_id, f.first_seq, f.last_seq, f.state_before, f.draws_before,
                      below, cut=snap.cut and i == 0)
    return Folded(created=created, state=snap.state, seq=snap.seq, draws=snap.draws, top=below,
                  command_id=snap.command_id, setup_id=snap.setup_id, revealed=snap.revealed,
                  cut=snap.cut and below is None)


def renamed(folded: Folded, rename: Callable[[str], str], depth: int = SNAPSHOT_DEPTH) -> Folded:
    """``folded`` with its command ids renamed (a match written under its stored ids), its
    undo stack cut to the top ``depth`` frames as a snapshot keeps it."""
    frames, top, cut = [], folded.top, folded.cut
    while top is not None and len(frames) < depth:
        frames.append(top)
        cut = top.cut or top.below is not None
        top = top.below
    below: Frame | None = None
    for i, f in enumerate(reversed(frames)):
        below = Frame(rename(f.command_id), f.first_seq, f.last_seq, f.state_before,
                      f.draws_before, below, cut=cut and i == 0)
    return msgspec.structs.replace(folded, top=below, command_id=rename(folded.command_id),
                                   setup_id=rename(folded.setup_id), cut=cut and below is None)


def same_fold(a: Folded, b: Folded, depth: int = SNAPSHOT_DEPTH) -> bool:
    """Whether two folds agree on everything a snapshot keeps: the state, the counters,
    the reveal and the top ``depth`` undo frames (as far as both have them: a fold through
    a snapshot has no frames below the snapshot's cut)."""
    if (a.state, a.seq, a.draws, a.command_id, a.setup_id, a.revealed) != (
            b.state, b.seq, b.draws, b.command_id, b.setup_id, b.revealed):
        return False
    fa, fb = a.top, b.top
    cut_a, cut_b = a.cut, b.cut
    for _ in range(depth):
        if fa is None or fb is None:
            return (fa is None and fb is None) or (fa is None and cut_a) or (fb is None and cut_b)
        if (fa.command_id, fa.first_seq, fa.last_seq, fa.state_before, fa.draws_before) != (
                fb.command_id, fb.first_seq, fb.last_seq, fb.state_before, fb.draws_before):
            return False
        cut_a, cut_b = fa.cut, fb.cut
        fa, fb = fa.below, fb.below
    return True


def decoded(codec: Codec, envelopes: Iterable[Envelope]) -> Iterator[tuple[int, str, Event]]:
    for e in envelopes:
        yield e.seq, e.command_id, codec.decode(e.type, e.version, e.payload)


def effective(items: list[tuple[int, str, Event]]) -> list[tuple[int, str, Event]]:
    """The events still in effect: each ``Undone`` removes itself and the command it retracts."""
    out: list[tuple[int, str, Event]] = []
    for seq, cid, ev in items:
        if isinstance(ev, Undone):
            while out and out[-1][0] >= ev.first_seq:
                out.pop()
        else:
            out.append((seq, cid, ev))
    return out


class Cursor:
    """Folds a game to any seq; keeps a fold every ``every`` events so that stepping back
    costs at most that many evolve calls.

    Given ``nearest`` (seq -> the fold of the newest stored snapshot at or before it, or
    None), nothing is folded up front: a position is folded from the closest fold known,
    kept or stored, so a replay of a long game never folds from seq 1 to reach its end."""

    def __init__(self, projection: Projection[Any], items: list[tuple[int, str, Event]],
                 every: int = 64, nearest: Callable[[int], Folded | None] | None = None) -> None:
        self.projection = projection
        self.items = items
        self.every = every
        self._snaps: dict[int, Folded] = {}  # index -> the fold after items[index]
        self._nearest = nearest
        self._asked: set[int] = set()  # the spans (index // every) the store was asked about
        self._last: tuple[int, Folded] | None = None  # the position folded last
        if nearest is None:
            folded = None
            for i in range(0, len(items), every):
                folded = fold_on(projection, folded, items[max(0, i - every + 1):i + 1])
                assert folded is not None
                self._snaps[i] = folded

    def __len__(self) -> int:
        return len(self.items)

    def at_index(self, index: int) -> Folded:
        """State after the first ``index + 1`` events."""
        index = max(0, min(index, len(self.items) - 1))
        base = index - index % self.every
        if base not in self._snaps:
            self._reach(base)
        start, folded = base, self._snaps[base]
        if self._last is not None and base <= self._last[0] <= index:  # stepping forward
            start, folded = self._last
        folded = fold_on(self.projection, folded, self.items[start + 1 : index + 1])
        assert folded is not None
        self._last = (index, folded)
        return folded

    def _reach(self, base: int) -> None:
        """Keep the fold at ``base`` (a multiple of ``every``), folded from the closest fold
        before it: one kept, a stored snapshot, or seq 1."""
        first = self.items[0][0]
        known = max((i for i in self._snaps if i < base), default=None)
        starts: list[tuple[int, Folded | None]] = []
        span = base // self.every
        if self._nearest is not None and span not in self._asked and (known is None or base - known > self.every):
            self._asked.add(span)
            stored = self._nearest(self.items[base][0])
            if stored is not None and (known is None or stored.seq - first > known):
                starts.append((stored.seq - first, stored))
        if known is not None:
            starts.append((known, self._snaps[known]))
        starts.append((-1, None))
        end = min(base + self.every, len(self.items)) - 1  # the whole span: at_index never meets a cut
        for at, folded in starts:
            kept: dict[int, Folded] = {base: folded} if at == base and folded is not None else {}
            try:
                for i in range(at + 1, end + 1):
                    seq, cid, ev = self.items[i]
                    folded = step(self.projection, folded, seq, cid, ev)
                    if i % self.every == 0:
                        kept[i] = folded
            except DeeperFold:  # an undo below the frames a snapshot kept: start further back
                continue
            self._snaps.update(kept)
            return

    def at_seq(self, seq: int) -> Folded:
        """State after the event numbered ``seq`` (seqs start at 1 and have no gaps)."""
        return self.at_index(seq - self.items[0][0])
