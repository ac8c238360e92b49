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


class GameCreated(Event, frozen=True):
    """The first event of every game: everything needed to replay it years later."""

    game: str
    seed: int
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


KERNEL_EVENTS: tuple[type[Event], ...] = (GameCreated, DiceRolled, Shuffled, Undone)
RANDOM_EVENTS: tuple[type[Event], ...] = (DiceRolled, Shuffled)
