"""Events of Funkoverse Strategy Game: Jaws 100 (facts only, no logic)."""

from __future__ import annotations

from arbiter.events.base import Event


class FirstPlayerChosen(Event, frozen=True):
    """The First Player marker was flipped; ``side`` takes it."""

    side: str


class PhaseChanged(Event, frozen=True):
    """Whose decision it is now: ``phase`` (place, choose, act, jaws, veteran, flags)."""

    phase: str
    side: str
    char: str | None = None


class CharacterPlaced(Event, frozen=True):
    char: str
    square: str
    why: str  # setup, return, blood-in-the-water, jaws


class CharacterChosen(Event, frozen=True):
    char: str
    empty: bool = False  # a knocked-out character taking an empty turn


class ActionDone(Event, frozen=True):
    char: str
    action: str
    left: int


class CharacterMoved(Event, frozen=True):
    char: str
    path: tuple[str, ...]  # every square entered, in order
    how: str  # move, swim, farewell-and-adieu
    start: str = ""  # the square the move began on
    route: str = ""  # why the route is not the direct one, e.g. round an obstructed corner


class SharkSurfaced(Event, frozen=True):
    """The Shark status card was flipped: ``emerged`` true (Emerged) or false (Submerged)."""

    char: str
    emerged: bool


class TokenSpent(Event, frozen=True):
    side: str
    token: str
    slot: int
    ability: str
    char: str


class ChallengeDeclared(Event, frozen=True):
    challenger: str
    target: str
    kind: str  # basic-challenge or an ability id
    dice: int
    defense: int
    extra: int = 0  # of ``dice``, the extra dice (Can Crusher: your status cards on the target)


class ChallengeResolved(Event, frozen=True):
    challenger: str
    target: str
    kind: str
    challenger_faces: tuple[str, ...]
    defender_faces: tuple[str, ...]
    challenger_successes: int
    defender_successes: int
    won: bool
    result: str  # knocked-down, knocked-out, none


class KnockedDown(Event, frozen=True):
    char: str


class KnockedOut(Event, frozen=True):
    char: str
    by: str | None


class StoodUp(Event, frozen=True):
    char: str
    how: str  # rally, assist, compare-scars
    by: str | None = None


class Exhausted(Event, frozen=True):
    char: str


class StatusGiven(Event, frozen=True):
    card: str
    char: str
    by: str


class StatusDiscarded(Event, frozen=True):
    card: str
    char: str


class ItemCooled(Event, frozen=True):
    side: str
    item: str
    char: str
    slot: int


class PointsGained(Event, frozen=True):
    side: str
    points: int
    why: str


class PointMarkerTaken(Event, frozen=True):
    letter: str
    char: str
    side: str


class ControlMarkerPlaced(Event, frozen=True):
    area: str
    side: str
    square: str
    char: str


class ControlMarkerFlipped(Event, frozen=True):
    area: str
    side: str  # the colour now showing
    char: str


class HuntedShift(Event, frozen=True):
    """Hunted resolved: the Quint side's cunning and might tokens shift down one."""

    side: str
    tokens: tuple[str, ...]


class CooldownShifted(Event, frozen=True):
    side: str
    returned: tuple[str, ...]  # things that shifted off the 1 (token:x, char:x, item:x, point:X)


class FlagReturned(Event, frozen=True):
    char: str
    side: str


class RoundEnded(Event, frozen=True):
    round: int
    first: str  # who holds the First Player marker next round


class GameWon(Event, frozen=True):
    side: str
    reason: str


class GameDrawn(Event, frozen=True):
    reason: str


ALL = (FirstPlayerChosen, PhaseChanged, CharacterPlaced, CharacterChosen, ActionDone,
       CharacterMoved, SharkSurfaced, TokenSpent, ChallengeDeclared, ChallengeResolved,
       KnockedDown, KnockedOut, StoodUp, Exhausted, StatusGiven, StatusDiscarded, ItemCooled,
       PointsGained, PointMarkerTaken, ControlMarkerPlaced, ControlMarkerFlipped, HuntedShift,
       CooldownShifted, FlagReturned, RoundEnded, GameWon, GameDrawn)
