"""My Little Scythe: the facts of a game (no logic).

Secret fields: ``PersonalityDealt.card`` (until ``PersonalityRevealed``), ``SpellDrawn.card``
(to everyone but the drawer), ``DialSet.pies``/``DialSet.spells`` (until ``PieFightRevealed``),
``PowerUpLooked.tiles`` (to everyone but the looker).
"""

from __future__ import annotations

from arbiter.events.base import Event


class SetupTilePlaced(Event, frozen=True):
    """The setup tile's orientation and the resources it put in front of active base camps."""

    orientation: int
    placed: dict[str, dict[str, int]]  # space -> {apple|gem|quest: n}


class PersonalityDealt(Event, frozen=True):
    seat: str
    card: str  # secret until revealed


class PersonalityRevealed(Event, frozen=True):
    seat: str
    card: str
    trophy: str


class SpellDrawn(Event, frozen=True):
    seat: str
    card: str  # secret to the other seats
    reason: str = ""


class FirstPlayerChosen(Event, frozen=True):
    seat: str
    order: tuple[str, ...]


class TurnStarted(Event, frozen=True):
    seat: str
    turn: int
    final: bool = False


class ActionChosen(Event, frozen=True):
    seat: str
    action: str


class SeekerMoved(Event, frozen=True):
    seat: str
    seeker: int  # 1 or 2
    path: tuple[str, ...]  # from (a space or "base") to the last space
    carried: dict[str, int] = {}  # apple/gem moved along with the Seeker


class SeekerStayed(Event, frozen=True):
    seat: str
    seeker: int


class DeliveryStarted(Event, frozen=True):
    """Part of a split delivery reached Castle Everfree; the other Seeker must finish it."""

    seat: str
    kind: str
    count: int
    need: int
    origin: str


class DeliveryMade(Event, frozen=True):
    seat: str
    kind: str  # apple | gem
    count: int
    extras_left: dict[str, dict[str, int]] = {}  # origin space -> {kind: count} that stayed behind


class SeekersSentHome(Event, frozen=True):
    seat: str
    seekers: tuple[int, ...]
    reason: str  # delivery | pie-fight


class TrackMoved(Event, frozen=True):
    seat: str
    track: str  # friendship | pies
    before: int
    after: int
    reason: str = ""


class PieFightPending(Event, frozen=True):
    """A Seeker stopped on an opponent's Seeker; the fight follows once moving is done."""

    attacker: str
    defender: str
    space: str


class PieFightCalledOff(Event, frozen=True):
    """A pending fight's space no longer holds both sides."""

    space: str


class PieFightStarted(Event, frozen=True):
    attacker: str
    defender: str
    space: str


class DialSet(Event, frozen=True):
    seat: str
    pies: int  # secret until PieFightRevealed (-1 when redacted)
    spells: tuple[str, ...] = ()  # secret until PieFightRevealed


class PieFightRevealed(Event, frozen=True):
    attacker: str
    defender: str
    space: str
    pies: dict[str, int]
    spells: dict[str, tuple[str, ...]]
    scores: dict[str, int]
    attacker_score: int
    defender_score: int
    winner: str
    loser: str


class SpellsDiscarded(Event, frozen=True):
    seat: str
    cards: tuple[str, ...]


class Rejuvenated(Event, frozen=True):
    """Back at base camp: 1 spell or 2 pies, and the action token leaves the mat."""

    seat: str
    choice: str  # spell | pies


class RejuvenationOwed(Event, frozen=True):
    seat: str


class TokenPlaced(Event, frozen=True):
    seat: str
    kind: str  # apple | gem | quest
    region: str
    space: str
    gift_to: str | None = None


class TokenSkipped(Event, frozen=True):
    seat: str
    kind: str
    region: str
    reason: str
    turn: int = 0  # the turn of the Seek (a dry run of a Seek must not name the region)


class ResourcesPaid(Event, frozen=True):
    """Resources taken from Seeker spaces back to the supply."""

    seat: str
    taken: dict[str, dict[str, int]]
    reason: str = ""


class ResourcesMoved(Event, frozen=True):
    """Resources paid from one player's Seeker spaces onto another player's Seeker space."""

    seat: str
    taken: dict[str, dict[str, int]]
    to_space: str
    to_seat: str
    reason: str = ""


class ResourcesGained(Event, frozen=True):
    """Resources from the supply placed on a space where the player has a Seeker."""

    seat: str
    space: str
    gained: dict[str, int]
    reason: str = ""


class PowerUpLooked(Event, frozen=True):
    seat: str
    pile: str
    tiles: tuple[str, ...]  # secret to the other seats


class PowerUpTaken(Event, frozen=True):
    seat: str
    pile: str
    tile: str
    returned: int  # how many tiles went to the bottom, face down


class QuestTokenTaken(Event, frozen=True):
    seat: str
    space: str


class QuestsPending(Event, frozen=True):
    seat: str
    spaces: tuple[str, ...]


class QuestsLeft(Event, frozen=True):
    """The player does not grab the quest tokens under the Seekers; they stay on the map."""

    seat: str
    spaces: tuple[str, ...]


class QuestDrawn(Event, frozen=True):
    seat: str
    card: str
    space: str


class QuestDeckRebuilt(Event, frozen=True):
    cards: tuple[str, ...]
    taken_from: tuple[str, ...]


class QuestResolved(Event, frozen=True):
    seat: str
    card: str
    option: int  # 1 or 2


class QuestDeclined(Event, frozen=True):
    seat: str
    card: str


class TrophyChoiceOffered(Event, frozen=True):
    seat: str
    choices: tuple[str, ...]
    reveal: tuple[str, ...] = ()  # choices earned only by revealing the personality card
    optional: bool = False  # the seat may pass (`trophy none`): every choice needs the card


class TrophyDeclined(Event, frozen=True):
    """The seat keeps its personality card secret and passes on the trophies it would unlock."""

    seat: str
    trophies: tuple[str, ...]


class TrophyEarned(Event, frozen=True):
    seat: str
    trophy: str
    turn: int
    personality: str | None = None


class TurnEnded(Event, frozen=True):
    seat: str
    turn: int


class GrandFinaleBegan(Event, frozen=True):
    crowned: tuple[str, ...]
    final_turns: tuple[str, ...]


class GameEnded(Event, frozen=True):
    winners: tuple[str, ...]
    reason: str
    trophies: dict[str, int]
    friendship: dict[str, int]


ALL = (SetupTilePlaced, PersonalityDealt, PersonalityRevealed, SpellDrawn, FirstPlayerChosen,
       TurnStarted, ActionChosen, SeekerMoved, SeekerStayed, DeliveryStarted, DeliveryMade,
       SeekersSentHome, TrackMoved, PieFightPending, PieFightCalledOff, PieFightStarted, DialSet, PieFightRevealed, SpellsDiscarded,
       Rejuvenated, RejuvenationOwed, TokenPlaced, TokenSkipped, ResourcesPaid, ResourcesMoved,
       ResourcesGained, PowerUpLooked, PowerUpTaken, QuestTokenTaken, QuestsPending, QuestsLeft, QuestDrawn,
       QuestDeckRebuilt, QuestResolved, QuestDeclined, TrophyChoiceOffered, TrophyDeclined, TrophyEarned,
       TurnEnded, GrandFinaleBegan, GameEnded)
