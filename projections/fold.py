"""The kernel fold: a game's state is the fold of its effective history.

``Undone`` retracts the last command: the fold drops back to the state before it, and the
draw counter with it, so rolling again after an undo gives the same faces.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator

import msgspec

from arbiter.events.base import RANDOM_EVENTS, Event, GameCreated, SeedRevealed, Undone
from arbiter.events.codec import Codec
from arbiter.events.envelope import Envelope
from arbiter.projections.kernel import Projection

SETUP = "setup"


class Frame(msgspec.Struct, frozen=True):
    """A command in the effective history, with what it takes to retract it."""

    command_id: str
    first_seq: int
    last_seq: int
    state_before: Any
    draws_before: int
    below: "Frame | None"


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
            return msgspec.structs.replace(folded, seq=seq)
        return Folded(created=folded.created, state=top.state_before, seq=seq,
                      draws=top.draws_before, top=top.below, command_id=command_id,
                      setup_id=folded.setup_id, revealed=folded.revealed)
    top = folded.top
    if command_id != folded.setup_id:
        if command_id != folded.command_id or top is None:
            top = Frame(command_id, seq, seq, folded.state, folded.draws, top)
        else:
            top = msgspec.structs.replace(top, last_seq=seq)
    if isinstance(event, SeedRevealed):  # the kernel's fact: no game's state changes
        return Folded(created=folded.created, state=folded.state, seq=seq, draws=folded.draws,
                      top=top, command_id=command_id, setup_id=folded.setup_id, revealed=event)
    draws = event.n + 1 if isinstance(event, RANDOM_EVENTS) else folded.draws  # type: ignore[attr-defined]
    return Folded(created=folded.created, state=projection.evolve(folded.state, event), seq=seq,
                  draws=draws, top=top, command_id=command_id, setup_id=folded.setup_id,
                  revealed=folded.revealed)


def fold(projection: Projection[Any], items: Iterable[tuple[int, str, Event]]) -> Folded:
    """Fold (seq, command_id, event) triples from the start of a game."""
    folded: Folded | None = None
    for seq, cid, ev in items:
        folded = step(projection, folded, seq, cid, ev)
    if folded is None:
        raise ValueError("empty log")
    return folded


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
    """Folds a game to any seq; keeps a snapshot every ``every`` events so that stepping
    back costs at most that many evolve calls."""

    def __init__(self, projection: Projection[Any], items: list[tuple[int, str, Event]],
                 every: int = 64) -> None:
        self.projection = projection
        self.items = items
        self.every = every
        self._snaps: dict[int, Folded] = {}
        folded = None
        for i, (seq, cid, ev) in enumerate(items):
            folded = step(projection, folded, seq, cid, ev)
            if i % every == 0:
                self._snaps[i] = folded
        self.last = folded

    def __len__(self) -> int:
        return len(self.items)

    def at_index(self, index: int) -> Folded:
        """State after the first ``index + 1`` events."""
        index = max(0, min(index, len(self.items) - 1))
        base = index - index % self.every
        folded = self._snaps[base]
        for seq, cid, ev in self.items[base + 1 : index + 1]:
            folded = step(self.projection, folded, seq, cid, ev)
        return folded

    def at_seq(self, seq: int) -> Folded:
        """State after the event numbered ``seq`` (seqs start at 1 and have no gaps)."""
        return self.at_index(seq - self.items[0][0])
