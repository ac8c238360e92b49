"""Star Wars Villainous: Scum and Villainy — the facts of a game (no logic).

Card ids are instance ids (``<card-def>-<copy>``, e.g. ``cb-hired-gun-2``); a sector is named
by the seat that owns it. ``loc`` is a location id, an Ally Vehicle's card id, ``deep-space``
or ``mover`` (a Fate Condition under the mover).
"""

from __future__ import annotations

from typing import Any

from arbiter.events.base import Event


class VillainsAssigned(Event, frozen=True):
    villains: dict[str, str]  # seat -> villain key
    order: tuple[str, ...]  # play order, first player first


class CardsDrawn(Event, frozen=True):
    seat: str
    cards: tuple[str, ...]  # secret to other seats


class CreditsChanged(Event, frozen=True):
    seat: str
    amount: int
    why: str = ""


class AmbitionChanged(Event, frozen=True):
    seat: str
    amount: int
    why: str = ""


class TurnBegan(Event, frozen=True):
    seat: str
    round: int


class MoverMoved(Event, frozen=True):
    seat: str
    to: str


class ActionUsed(Event, frozen=True):
    seat: str
    symbol: str
    index: int  # the symbol's place at the location; -1: a free (bonus) action


class BonusActionGranted(Event, frozen=True):
    seat: str
    symbol: str


class CardPlayed(Event, frozen=True):
    """A card entered a sector (``how``: played or placed; ``source``: hand, discard, deck, fate)."""

    seat: str  # who played it
    sector: str
    card: str
    loc: str
    side: str  # lower (villain cards) or upper (fate cards)
    on: str | None = None  # the card it is attached to
    how: str = "played"
    source: str = "hand"
    cost: int = 0
    cost_kind: str = ""


class CardMoved(Event, frozen=True):
    sector: str
    card: str
    to: str


class CardDiscarded(Event, frozen=True):
    """A card went to its owner's discard pile (``pile``: villain or fate)."""

    owner: str
    card: str
    pile: str
    source: str  # hand, sector, revealed, deck


class CardRemovedFromGame(Event, frozen=True):
    owner: str
    card: str
    source: str


class CardToHand(Event, frozen=True):
    seat: str
    card: str
    source: str  # sector, discard, deck (after a reveal or a find)


class CardsRevealed(Event, frozen=True):
    seat: str
    cards: tuple[str, ...]
    source: str  # villain-deck, fate-deck, hand


class CardsLooked(Event, frozen=True):
    seat: str
    cards: tuple[str, ...]  # secret to other seats
    deck: str


class FateRevealed(Event, frozen=True):
    by: str
    target: str
    cards: tuple[str, ...]


class FateResolved(Event, frozen=True):
    by: str
    target: str
    played: str


class Vanquished(Event, frozen=True):
    seat: str
    hero: str
    allies: tuple[str, ...]
    loc: str
    hero_strength: int
    ally_strength: int


class Defeated(Event, frozen=True):
    seat: str
    card: str
    by: str  # the card whose ability defeated it


class Engaged(Event, frozen=True):
    sector: str
    ally_vehicle: str
    hero_vehicle: str


class Disengaged(Event, frozen=True):
    sector: str
    ally_vehicle: str
    hero_vehicle: str


class StrengthTokenPlaced(Event, frozen=True):
    sector: str
    card: str
    amount: int


class TargetPlaced(Event, frozen=True):
    sector: str
    hero: str


class TargetsCollected(Event, frozen=True):
    seat: str
    hero: str
    count: int


class RebelRemoved(Event, frozen=True):
    seat: str
    hero: str


class BountyProgressed(Event, frozen=True):
    seat: str
    bounty: str
    requirement: int


class BountyCompleted(Event, frozen=True):
    seat: str
    bounty: str
    contact: str


class HuntPaid(Event, frozen=True):
    seat: str
    bounty: str
    cost: int


class ChoiceOpened(Event, frozen=True):
    """A card's ability waits on a choice by ``seat`` (options may be secret to others)."""

    seat: str
    prompt: str
    options: tuple[str, ...]
    frame: dict[str, Any]  # the effect waiting and the effects queued after it
    secret: bool = False


class ChoiceMade(Event, frozen=True):
    seat: str
    choice: str


class WindowOpened(Event, frozen=True):
    """Opponents may now play a Condition card (``trigger`` names what happened)."""

    seats: tuple[str, ...]
    trigger: str
    by: str


class WindowPassed(Event, frozen=True):
    seat: str


class ConditionPlayed(Event, frozen=True):
    seat: str
    card: str
    trigger: str


class TurnEnded(Event, frozen=True):
    seat: str


class GameWon(Event, frozen=True):
    winners: tuple[str, ...]
    reason: str


EVENTS = (
    VillainsAssigned, CardsDrawn, CreditsChanged, AmbitionChanged, TurnBegan, MoverMoved,
    ActionUsed, BonusActionGranted, CardPlayed, CardMoved, CardDiscarded, CardRemovedFromGame,
    CardToHand, CardsRevealed, CardsLooked, FateRevealed, FateResolved, Vanquished, Defeated,
    Engaged, Disengaged, StrengthTokenPlaced, TargetPlaced, TargetsCollected, RebelRemoved,
    BountyProgressed, BountyCompleted, HuntPaid, ChoiceOpened, ChoiceMade, WindowOpened,
    WindowPassed, ConditionPlayed, TurnEnded, GameWon,
)
