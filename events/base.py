"""The event base class and the events every game shares (the kernel's own facts)."""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag=True):
    """One fact in a game's log. Subclasses are tagged by class name in their JSON.

    ``VERSION`` is the schema version of the payload; bump it and register an upcaster in
    :mod:`events.upcast` when a field changes meaning, so old logs still decode.
    """

    VERSION: ClassVar[int] = 1


class Commitment(msgspec.Struct, frozen=True, kw_only=True):
    """What every seat knows of the seed while a game is on (formulas in ``core/fairness.py``)."""

    seed: str  # SHA-256 (hex) of the referee's seed and the salt
    entropy: dict[str, str] = {}  # seat -> SHA-256 (hex) of the entropy it added
    practice: bool = False  # the seed was typed by whoever created the game (--seed)


class Sealed(msgspec.Struct, frozen=True, kw_only=True):
    """The referee's secret: published by :class:`SeedRevealed` when the game ends."""

    seed: int  # the referee's own draw
    salt: str
    entropy: dict[str, str] = {}  # seat -> the text it added


class GameCreated(Event, frozen=True):
    """The first event of every game: everything needed to replay it years later.

    ``seed`` is the seed the dice use (the referee's seed mixed with any seat's entropy).
    A seat never sees ``seed`` or ``sealed`` while the game is on, only ``commitment``;
    games recorded before commitments existed have neither (their dice still replay)."""

    #: the game's kind (``monster-derby``); stored under its first name, ``game``, so every
    #: payload, and with it every hash, is the bytes it always was
    kind: str = msgspec.field(name="game")
    seed: int | None  # None only in a seat's view of a game still on
    seats: tuple[str, ...]
    options: dict[str, Any]
    content: dict[str, Any]
    content_hash: str
    content_source: str  # "embedded" (the fixtures shipped) or "file:<name>"
    dice: str  # "seeded" or "manual"
    rules_version: str
    engine_version: str
    forked_from: str | None = None
    forked_at: int | None = None
    commitment: Commitment | None = None
    sealed: Sealed | None = None


class DiceRolled(Event, frozen=True):
    """Dice were rolled: ``dice`` names the kinds, ``faces`` what came up, in order.

    ``n`` is the index of this draw in the game's effective history; a seeded roll is a
    pure function of (seed, n), so anyone can recompute it.
    """

    n: int
    dice: tuple[str, ...]
    faces: tuple[str, ...]
    manual: bool = False
    purpose: str = ""


class Shuffled(Event, frozen=True):
    """A deck was shuffled. ``order`` is secret to every seat until the game ends."""

    n: int
    deck: str
    order: tuple[str, ...]


class Undone(Event, frozen=True):
    """The last command (events ``first_seq``..``last_seq``) was retracted, never deleted."""

    first_seq: int
    last_seq: int
    command_id: str


class SeedRevealed(Event, frozen=True):
    """The game is over: the referee publishes its seed, the salt and every seat's entropy,
    so that any seat can check the commitment in ``GameCreated`` and recompute every roll
    and shuffle from ``dice_seed``."""

    seed: int
    salt: str
    dice_seed: int
    entropy: dict[str, str] = {}


KERNEL_EVENTS: tuple[type[Event], ...] = (GameCreated, DiceRolled, Shuffled, Undone, SeedRevealed)
RANDOM_EVENTS: tuple[type[Event], ...] = (DiceRolled, Shuffled)
