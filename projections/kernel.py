"""What every game's projection provides, and the kernel's shared state vocabulary."""

from __future__ import annotations

from typing import Any, Callable, Generic, Iterable, Mapping, Protocol, Sequence, TypeVar

import msgspec

from arbiter.events.base import Event, GameCreated

S = TypeVar("S")

REFEREE = "referee"  # the all-seeing seat name: full view, used by audits and after the game


class Decision(msgspec.Struct, frozen=True):
    """Whose decision it is now.

    ``kind`` is ``turn`` (the active seat), ``reaction`` (another seat may respond before
    play goes on), ``simultaneous`` (each seat in ``seats`` still owes a secret choice; the
    choices are revealed together once all are in) or ``over``.
    """

    kind: str
    seats: tuple[str, ...]
    prompt: str = ""


class Outcome(msgspec.Struct, frozen=True):
    """How a finished game ended: winners (several on a shared win), scores, a sentence."""

    winners: tuple[str, ...]
    scores: dict[str, float] = {}
    reason: str = ""


class Projection(Protocol[S]):
    """One game's state layer: pure, never raises for events its decider produced."""

    events: tuple[type[Event], ...]
    sql_views: tuple[tuple[str, str], ...]

    def initial(self, created: GameCreated) -> S: ...

    # Optional: ``prepare(created) -> None`` learns what ``describe`` needs of the game's
    # content; the kernel calls it when a game is loaded from a snapshot (no initial()).

    def evolve(self, state: S, event: Event) -> S: ...

    def to_act(self, state: S) -> Decision: ...

    def outcome(self, state: S) -> Outcome | None: ...

    def view(self, state: S, seat: str | None) -> S:
        """``state`` as ``seat`` may know it (None: a spectator; REFEREE: everything)."""
        ...

    def redact(self, event: Event, seat: str | None, state: S) -> Event | None:
        """``event`` as ``seat`` may see it in the log, given the latest state (None: hide)."""
        ...

    def hidden_from(self, state: S, seat: str | None) -> set[str]:
        """Tokens (card ids, secret values) ``seat`` must not find in its view or log now."""
        ...


def by_type(table: Mapping[type, Callable[..., Any]], methods: bool = False) -> Callable[..., Any]:
    """A projection's ``evolve`` method (``evolve = by_type(TABLE)`` in its class): the
    function ``table`` gives for the event's own type, ``(state, event) -> state`` (with
    ``methods``: the projection's own method, ``(self, state, event) -> state``); an event
    of a type not in it changes nothing. One dict lookup an event however many types a game
    has, where a chain of ``isinstance`` tests costs one test per type before the event's."""
    how_for = table.get
    if methods:
        def evolve(self: Any, state: Any, event: Event) -> Any:
            how = how_for(type(event))
            return state if how is None else how(self, state, event)
    else:
        def evolve(self: Any, state: Any, event: Event) -> Any:
            how = how_for(type(event))
            return state if how is None else how(state, event)
    # a fold's loop looks the function up itself (one call an event, not two): see fold_on
    evolve.by_type = (dict(table), methods)  # type: ignore[attr-defined]
    return evolve


def handlers(namespace: Mapping[str, Any], prefix: str, types: Iterable[type]) -> dict[type, Any]:
    """type -> ``namespace[prefix + the type's name]``, for each of ``types`` that has one:
    the table for :func:`by_type` of a projection whose methods are named after the events
    they fold (``_on_Moved``), given its class body's namespace (``locals()``)."""
    return {t: namespace[prefix + t.__name__] for t in types if prefix + t.__name__ in namespace}


def is_over(projection: Projection[Any], state: Any) -> bool:
    return projection.outcome(state) is not None


def redact_shuffle(event: Event, seat: str | None, over: bool) -> Event | None:
    """Deck orders stay secret from every seat until the game is over."""
    from arbiter.events.base import Shuffled

    if isinstance(event, Shuffled) and not over and seat != REFEREE:
        return msgspec.structs.replace(event, order=("?",) * len(event.order))
    return event


class Base(Generic[S]):
    """Defaults for a projection: no hidden information, no views of its own."""

    events: tuple[type[Event], ...] = ()
    sql_views: tuple[tuple[str, str], ...] = ()

    def view(self, state: S, seat: str | None) -> S:
        return state

    def redact(self, event: Event, seat: str | None, state: S) -> Event | None:
        return event

    def hidden_from(self, state: S, seat: str | None) -> set[str]:
        return set()

    def describe(self, event: Event, state: S | None = None) -> str:
        """One readable line for the log; ``state`` is the game's (its content names what
        the event's ids stand for), None when there is no game to ask."""
        return describe_event(event)


def dice_words(dice: Sequence[str], faces: Sequence[str]) -> str:
    """A roll's faces, each die named once for a run of the same die: ``move 4``,
    ``funkoverse dice star, crit, star``, ``attack dice 1, 0, 1; wacky sword``."""
    runs: list[tuple[str, list[str]]] = []
    for die, face in zip(dice, faces):
        if runs and runs[-1][0] == die:
            runs[-1][1].append(str(face))
        else:
            runs.append((die, [str(face)]))
    if all(len(shown) == 1 for _d, shown in runs):
        return ", ".join(f"{die} {shown[0]}" for die, shown in runs)
    return "; ".join(f"{die} {shown[0]}" if len(shown) == 1 else f"{die} dice {', '.join(shown)}"
                     for die, shown in runs)


def describe_kernel(event: Event) -> str | None:
    """Readable lines for the kernel's own events (None for a game's events)."""
    from arbiter.events.base import DiceRolled, GameCreated, SeedRevealed, Shuffled, Undone

    if isinstance(event, GameCreated):
        opts = ", ".join(f"{words(k)} {option_value(v)}" for k, v in event.options.items()
                         if v not in ("", None))  # an option left unset is not listed
        return (f"game created: {event.kind}, players {', '.join(event.seats)}, {describe_seed(event)},"
                f" {event.dice} dice" + (f"; options: {opts}" if opts else "")
                + ("" if event.content_source == "embedded" else f", content {event.content_source}"))
    if isinstance(event, DiceRolled):
        what = f" for {event.purpose}" if event.purpose else ""
        return (f"rolled{what}: {dice_words(event.dice, event.faces)}"
                + (" (physical dice)" if event.manual else f" [draw {event.n}]"))
    if isinstance(event, Shuffled):
        return f"shuffled {deck_words(event.deck)} ({len(event.order)} cards) [draw {event.n}]"
    if isinstance(event, Undone):
        return f"undid seq {event.first_seq}–{event.last_seq}"
    if isinstance(event, SeedRevealed):
        added = f", entropy from {', '.join(sorted(event.entropy))}" if event.entropy else ""
        return (f"the game is over: the referee reveals seed {event.seed}, salt {event.salt}{added};"
                f" the dice used seed {event.dice_seed}")
    return None


def words(name: str) -> str:
    """An identifier as a player reads it: ``graves_block`` -> ``graves block``."""
    return name.replace("_", " ").replace("-", " ")


def option_value(value: Any) -> str:
    """An option's value in words: a switch is on or off, a list is its items."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None:
        return "none"
    if isinstance(value, (list, tuple)):
        return " and ".join(words(str(v)) for v in value) or "none"
    return words(str(value)) if isinstance(value, str) else str(value)


def deck_words(deck: str) -> str:
    """A shuffled deck's name in words: ``villain:bot1`` (a seat's own deck) -> ``bot1's
    villain deck``; ``action-tokens`` -> ``the action tokens``."""
    kind, _, owner = deck.partition(":")
    return f"{owner}'s {words(kind)} deck" if owner else f"the {words(kind)}"


def describe_seed(event: GameCreated) -> str:
    """The seed as the reader may know it: the number, or only its commitment."""
    c = event.commitment
    kind = "practice seed" if c is not None and c.practice else "seed"
    if event.seed is None:
        return (f"{kind} secret until the end (commitment {c.seed[:16]}…)" if c is not None
                else "seed secret")
    return f"{kind} {event.seed}"


def describe_event(event: Event) -> str:
    """A plain one-line rendering of any event: its type and fields."""
    kernel = describe_kernel(event)
    if kernel is not None:
        return kernel
    fields = msgspec.structs.asdict(event)
    parts = []
    for k, v in fields.items():
        if isinstance(v, (dict, list, tuple)) and len(str(v)) > 60:
            v = f"<{len(v)} items>"
        parts.append(f"{k}={v}")
    return f"{type(event).__name__} " + " ".join(parts)
