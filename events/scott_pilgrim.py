"""Scott Pilgrim Miniatures The World: the facts of a battle at the Rockit.

Facts only. Spaces are written like ``c4`` (column letter a.., row number 1..).
"""

from __future__ import annotations

from arbiter.events.base import Event


class ItemDrawn(Event, frozen=True):
    """A Good Guy (or the Evil Ex) drew the top item card. ``card`` is hidden from the Bad
    Guys while it sits unequipped in the Good Guys' hand."""

    by: str  # a character id, or "setup"
    card: str


class Placed(Event, frozen=True):
    """Setup: a character placed behind its team's start line."""

    who: str
    at: str


class TurnBegan(Event, frozen=True):
    """A team's turn starts (the Bad Guys go first each round)."""

    team: str
    round: int


class PoolRolled(Event, frozen=True):
    """The team's dice for this turn: die ids with their faces."""

    team: str
    dice: tuple[str, ...]
    faces: tuple[str, ...]


class DiceRerolled(Event, frozen=True):
    """The once-per-turn reroll of every unspent die showing one icon."""

    face: str
    dice: tuple[str, ...]
    faces: tuple[str, ...]


class DiceSpent(Event, frozen=True):
    """Dice (by id, with the face each showed) and booster tokens spent by a character."""

    who: str
    purpose: str
    dice: tuple[str, ...]
    faces: tuple[str, ...]
    boosters: int = 0
    combo: bool = False


class Moved(Event, frozen=True):
    """A character moved along ``path`` (each step to an adjacent space)."""

    who: str
    path: tuple[str, ...]


class Pushed(Event, frozen=True):
    """Something was pushed one space by a mover."""

    what: str
    frm: str
    to: str


class ChicksFollow(Event, frozen=True):
    """Matthew moved: each Chick on the board may move the same number of spaces."""

    spaces: int
    chicks: tuple[str, ...]


class ChickMoved(Event, frozen=True):
    """A Demon Hipster Chick moved along with Matthew."""

    who: str
    path: tuple[str, ...]


class AbilityUsed(Event, frozen=True):
    """A character used an ability (basic or special) on targets."""

    who: str
    ability: str
    targets: tuple[str, ...] = ()
    detail: str = ""


class AbilityRerolled(Event, frozen=True):
    """A reroll ability rolled the team's dice; the unspent dice were then reset from the
    dice tracker to ``restored``."""

    ability: str
    faces: tuple[str, ...]
    counted: int


class Damaged(Event, frozen=True):
    """``target`` took ``amount`` damage (a character loses Health)."""

    target: str
    amount: int
    source: str
    by: str = ""


class ShieldedBy(Event, frozen=True):
    """A held object took the damage instead of its holder and was dropped."""

    holder: str
    obj: str
    at: str


class KnockedBack(Event, frozen=True):
    """``what`` was knocked back from ``frm`` to ``to`` (``wall``: it hit a wall)."""

    what: str
    frm: str
    to: str
    wall: bool = False


class ObjectFlipped(Event, frozen=True):
    obj: str


class ObjectRemoved(Event, frozen=True):
    obj: str


class Poofed(Event, frozen=True):
    """A Demon Hipster Chick took damage and poofed off the board."""

    chick: str


class KnockedOut(Event, frozen=True):
    who: str


class Summoned(Event, frozen=True):
    """Matthew summoned a poofed Chick back within two spaces of him."""

    chick: str
    at: str


class XPGained(Event, frozen=True):
    who: str
    amount: int


class LeveledUp(Event, frozen=True):
    """XP reached the fifth space: star back, combo cube, next advanced ability."""

    who: str
    unlocked: str  # the ability unlocked ("" if none left)


class HealthRecovered(Event, frozen=True):
    who: str
    amount: int


class BoosterGained(Event, frozen=True):
    who: str


class ObjectGrabbed(Event, frozen=True):
    who: str
    obj: str


class Thrown(Event, frozen=True):
    """Something held was thrown along a line: ``hit`` is what it hit ("wall" or an id)."""

    who: str
    what: str
    direction: str
    hit: str
    landed: str = ""


class ItemEquipped(Event, frozen=True):
    who: str
    card: str


class ItemUsed(Event, frozen=True):
    who: str
    card: str
    effect: str = ""


class ItemDiscarded(Event, frozen=True):
    card: str


class ItemsTransferred(Event, frozen=True):
    frm: str
    to: str
    cards: tuple[str, ...]


class ExThrowPending(Event, frozen=True):
    """The Evil Ex drew an item on an item space and must throw it from ``origin``."""

    who: str
    card: str
    origin: str


class ReactionOpened(Event, frozen=True):
    """A Bad Guy's ability is declared: the Good Guys may react before it resolves."""

    who: str
    command: str
    targets: tuple[str, ...]


class ReactionTaken(Event, frozen=True):
    """The Good Guys answered the window: ``allow``, ``pause`` or ``reversal``."""

    kind: str
    by: str = ""


class TurnEnded(Event, frozen=True):
    team: str


class BattleOver(Event, frozen=True):
    winner: str
    reason: str


EVENTS: tuple[type[Event], ...] = (
    ItemDrawn, Placed, TurnBegan, PoolRolled, DiceRerolled, DiceSpent, Moved, Pushed, ChicksFollow,
    ChickMoved, AbilityUsed, AbilityRerolled, Damaged, ShieldedBy, KnockedBack, ObjectFlipped,
    ObjectRemoved, Poofed, KnockedOut, Summoned, XPGained, LeveledUp, HealthRecovered,
    BoosterGained, ObjectGrabbed, Thrown, ItemEquipped, ItemUsed, ItemDiscarded,
    ItemsTransferred, ExThrowPending, ReactionOpened, ReactionTaken, TurnEnded, BattleOver,
)
