"""The decider interface every game implements: a plain description of its moves.

A game is data (content from ``fixtures/<id>/``), a projection (state and ``evolve``) and the
functions below. The kernel does everything else: dice, logging, undo, replay, audits.
"""

from __future__ import annotations

import hashlib
import json
import random
import threading
from typing import Any, Callable, Generic, Mapping, Sequence, TypeVar

import msgspec

from arbiter import fixtures
from arbiter.core.dice import Rng
from arbiter.core.errors import BadContent, BadOption
from arbiter.core.rules import RuleIndex
from arbiter.events.base import Event, GameCreated
from arbiter.events.codec import Codec
from arbiter.projections.kernel import Projection

S = TypeVar("S")
C = TypeVar("C")

#: A bot picks one of the legal commands. ``rng`` is the bot's own (a player, not a rule).
Bot = Callable[[Any, str, Sequence[Any], random.Random], Any]


class Option(msgspec.Struct, frozen=True, kw_only=True):
    """A named rules choice (a variant, or a house default filling a rulebook gap)."""

    name: str
    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    house: bool = True
    rule: str = ""  # the rule-index entry that explains it

    def coerce(self, raw: str | Any) -> Any:
        """The option's value from text given on the command line, checked."""
        value: Any = raw
        if isinstance(self.default, bool):
            if isinstance(raw, str):
                low = raw.lower()
                if low not in ("true", "false", "yes", "no", "on", "off", "1", "0"):
                    raise BadOption(f"option {self.name} takes true or false, not {raw!r}")
                value = low in ("true", "yes", "on", "1")
        elif isinstance(self.default, int):
            try:
                value = int(raw)
            except (TypeError, ValueError):
                raise BadOption(f"option {self.name} takes a whole number, not {raw!r}") from None
            if self.minimum is not None and value < self.minimum:
                raise BadOption(f"option {self.name} must be at least {self.minimum}")
            if self.maximum is not None and value > self.maximum:
                raise BadOption(f"option {self.name} must be at most {self.maximum}")
        else:
            value = str(raw)
        if self.choices is not None and value not in self.choices:
            raise BadOption(
                f"option {self.name} takes one of {', '.join(map(str, self.choices))}, not {raw!r}"
            )
        return value


class Emitter(Generic[S]):
    """The events a command has decided so far, and the state they fold to, so that each
    later rule sees what the earlier ones did. Every game collects a move's events with
    this class (or a subclass named ``Emitter`` that adds the game's own scratch fields)."""

    def __init__(self, state: S, projection: Projection[S], rng: Rng | None = None) -> None:
        self.state = state
        self.projection = projection
        self.rng = rng
        self.events: list[Event] = []
        #: (state before, event, state after) of every event emitted, in order: the kernel
        #: reuses them (:func:`emitted`) rather than evolve the decided events again
        self.trail: list[tuple[S, Event, S]] = []
        recent = _recent.__dict__.setdefault("emitters", [])
        recent.append(self)
        if len(recent) > _RECENT:
            del recent[0]

    def emit(self, *events: Event) -> None:
        for ev in events:
            self.events.append(ev)
            before = self.state
            self.state = self.projection.evolve(before, ev)
            self.trail.append((before, ev, self.state))


#: Emitters a thread made last (a command's decision may open a few hypothetical ones).
_RECENT = 4
_recent = threading.local()


def emitted(projection: Projection[S], state: S, events: Sequence[Event]) -> list[S]:
    """The states after ``events``, one each, for as many of them (from the first) as an
    Emitter of this thread evolved from this very ``state`` (these very objects: evolve is
    pure, so the same state and event give the same state); empty when none did."""
    for em in reversed(_recent.__dict__.get("emitters", ())):
        trail = em.trail
        if em.projection is not projection or not trail or not events:
            continue
        if trail[0][0] is not state or trail[0][1] is not events[0]:
            continue
        out: list[S] = []
        for (before, ev, after), wanted in zip(trail, events):
            if ev is not wanted or before is not state:
                break
            out.append(after)
            state = after
        return out
    return []


class Traits(msgspec.Struct, frozen=True, kw_only=True):
    """What kind of game this is, declared by the game so that the conformance harness
    (:mod:`arbiter.testing`) can hold it to it: a game with hidden information must name
    hidden tokens, one without dice must never roll, and so on."""

    hidden_information: bool = False  # hands, face-down decks, secret agendas or dials
    simultaneous: bool = False  # several seats choose in secret, revealed together
    reactions: bool = False  # another seat may respond before play goes on
    dice: bool = False  # seeded (or physical) dice are rolled
    shuffles: bool = False  # decks or boards are shuffled


def content_hash(content: Mapping[str, Any]) -> str:
    return hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()


class Game(Generic[S, C]):
    """Base class for a game. Subclasses set the attributes and implement the methods."""

    #: the kind (``monster-derby``): what ``new`` takes, the registry's key and
    #: ``GameCreated.kind``; a played game has an id of its own (``md-3f9a1c``)
    id: str = ""
    short: str = ""  # the prefix of this kind's game ids, e.g. "md"
    title: str = ""
    rules_version: str = "1"
    projection: Projection[S]
    min_seats: int = 2
    max_seats: int = 2
    options: tuple[Option, ...] = ()
    #: One line per command form, shown as help in interactive play and on parse errors.
    syntax: tuple[str, ...] = ()
    #: Bots by name: "random" is provided by the kernel; games add ones that play to win.
    bots: Mapping[str, Bot] = {}
    #: House limits the conformance suite passes (recorded in GameCreated like any option)
    #: so that uniformly random legal play ends; never a default for people.
    random_play_options: Mapping[str, Any] = {}
    #: What kind of game it is (hidden information, simultaneous choices, reactions, dice).
    traits: Traits = Traits()

    def __init__(self) -> None:
        self._rules: RuleIndex | None = None
        self._codec: Codec | None = None

    @property
    def codec(self) -> Codec:
        if self._codec is None:
            self._codec = Codec(self.projection.events)
        return self._codec

    # -- data -----------------------------------------------------------------------------

    @property
    def rules(self) -> RuleIndex:
        if self._rules is None:
            self._rules = RuleIndex(self.id)
        return self._rules

    def default_content(self) -> dict[str, Any]:
        """The embedded content (``fixtures/<id>/content.json``)."""
        return fixtures.load_json(self.id, "content.json")

    def check_content(self, content: dict[str, Any]) -> None:
        """Raise :class:`BadContent` if ``content`` does not fit this game's schema."""
        if not isinstance(content, dict) or "dice" not in content:
            raise BadContent("content must be a JSON object with at least a 'dice' table")

    def dice(self, created: GameCreated) -> dict[str, tuple[str, ...]]:
        """The die kinds of this game: name -> faces (as text)."""
        return {k: tuple(str(f) for f in v) for k, v in created.content["dice"].items()}

    def resolve_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Every option's value: the defaults, overridden by ``given`` (checked)."""
        known = {o.name: o for o in self.options}
        for name in given:
            if name not in known:
                names = ", ".join(sorted(known)) or "none"
                raise BadOption(f"{self.id} has no option {name!r} (options: {names})")
        return {o.name: (o.coerce(given[o.name]) if o.name in given else o.default)
                for o in self.options}

    def check_seats(self, seats: Sequence[str]) -> None:
        if not (self.min_seats <= len(seats) <= self.max_seats):
            raise BadOption(
                f"{self.title} takes {self.min_seats}"
                + (f" to {self.max_seats}" if self.max_seats != self.min_seats else "")
                + f" players, not {len(seats)}"
            )

    def default_seats(self, count: int | None = None) -> tuple[str, ...]:
        n = count or self.min_seats
        return tuple(f"p{i + 1}" for i in range(n))

    # -- rules ----------------------------------------------------------------------------

    def setup(self, created: GameCreated, rng: Rng) -> list[Event]:
        """The events after ``GameCreated`` that set the table (shuffles, deals, ...)."""
        return []

    def decide(self, state: S, seat: str, command: C, rng: Rng) -> list[Event]:
        """What ``command`` by ``seat`` does now, or raise ``RuleViolation``."""
        raise NotImplementedError

    def parse(self, state: S, seat: str, text: str) -> C:
        """The command written as ``text``, or raise ``ParseError`` (bad input)."""
        raise NotImplementedError

    def command_text(self, command: C) -> str:
        """Canonical text of a command: ``parse(command_text(c)) == c``."""
        raise NotImplementedError

    def legal_commands(self, state: S, seat: str) -> list[C]:
        """What ``seat`` may do now (every entry must decide without a RuleViolation)."""
        raise NotImplementedError

    def manual_faces(self, text: str) -> tuple[str, list[str]] | None:
        """A game's own shorthand for physical dice (``roll 4``): (command, faces) or None."""
        return None

    def out_of_turn(self, state: S, seat: str, command: C) -> Any:
        """A game's own ruling on a command from a seat that may not act now: a
        ``RuleViolation`` to raise instead of the kernel's ARB-TURN, or None."""
        return None

    def command_is_secret(self, state: S, seat: str, text: str) -> bool | None:
        """Whether other seats may not read the words of ``seat``'s command ``text`` (a
        secret choice). None: the kernel decides, hiding the words whenever the command's
        events are redacted for the onlooker."""
        return None

    def menu_label(self, state: S, seat: str, text: str) -> str:
        """How ``play``'s menu shows the legal command ``text`` to ``seat`` (``state`` is
        what ``seat`` sees): the text itself, or with a note, such as the names of the house
        content it uses. Choosing the entry still gives ``text``."""
        return text

    def summary(self, state: S) -> dict[str, Any]:
        """A few figures about a finished game for ``simulate``'s table."""
        return {}
