"""Monster Derby's facts: what happened at the table, never why.

Spaces are written as the renderer shows them: column number (1 = the back of the
starting board) and lane letter, e.g. ``"7c"``; ``"finish"`` is off the end of the track.
"""

from __future__ import annotations

from arbiter.events.base import Event


class TrackLaid(Event, frozen=True):
    """The starting board and the chosen map boards, laid out in a row (Setup)."""

    layout: tuple[str, ...]  # board sides in order, e.g. ("3a", "7b", ...)
    rows: tuple[str, ...]  # terrain per lane, one character per column (see content "terrain")


class MonsterPlaced(Event, frozen=True):
    """A monster card turned up from the deck, mounted in a coloured stand and placed."""

    monster: str
    name: str
    colour: str
    space: str
    hp: int
    attack: int
    natives: tuple[str, ...]
    ability: str
    wacky_attack: str
    wacky_defense: str


class AgendasDealt(Event, frozen=True):
    """Three agenda cards dealt face down to a player (secret)."""

    seat: str
    cards: tuple[str, ...]
    # each card's colour -> points if that monster finishes 1st, 2nd, 3rd (same order as cards)
    points: tuple[dict[str, tuple[int, ...]], ...] = ()


class AgendaKept(Event, frozen=True):
    """A player kept one agenda and discarded the rest (all secret)."""

    seat: str
    agenda: str
    discarded: tuple[str, ...]
    points: dict[str, tuple[int, ...]] = {}  # colour -> points for finishing 1st, 2nd, 3rd


class StartingPlayerChosen(Event, frozen=True):
    """The starting player of the first round, determined at random."""

    seat: str


class RoundBegan(Event, frozen=True):
    """A round starts: the starter puts the Starting Player Marker out (it is available)."""

    round: int
    starter: str


class TurnBegan(Event, frozen=True):
    """A player's turn starts."""

    seat: str


class MovementRolled(Event, frozen=True):
    """The movement die of this turn."""

    seat: str
    value: int


class MarkerTaken(Event, frozen=True):
    """The player took the Starting Player Marker instead of controlling a monster."""

    seat: str


class MonsterControlled(Event, frozen=True):
    """A player takes control of a monster for its turn this round."""

    seat: str
    monster: str
    points: int
    can_move: bool
    can_attack: bool


class MonsterMoved(Event, frozen=True):
    """A monster went from one space to another (kind: walk, fly, curse, call)."""

    monster: str
    frm: str
    to: str
    cost: int
    kind: str = "walk"
    stop: bool = False  # a flyer landing short on its way, to attack from there


class MonsterFinished(Event, frozen=True):
    """A monster exited the last board: it crossed the finish line in ``place``."""

    monster: str
    place: int


class Recovered(Event, frozen=True):
    """The Recover action: hit points up one (not above the top of the track)."""

    monster: str
    hp: int
    forced: bool = False


class Attacked(Event, frozen=True):
    """One attack resolved (after the dice were rolled)."""

    attacker: str
    defender: str
    dice: int
    hits: int
    wacky: str  # the wacky die face
    wacky_attack: str  # the attacker's wacky attack effect that happened, or ""
    wacky_defense: str  # the defender's wacky defense effect that happened, or ""
    damage: int
    kind: str = "attack"  # attack, again, blast, counter


class Damaged(Event, frozen=True):
    """A monster lost hit points."""

    monster: str
    amount: int
    hp: int
    cause: str = "attack"


class MonsterDied(Event, frozen=True):
    """A monster's hit points reached zero: its stand stays as a grave marker."""

    monster: str
    space: str


class EffectGained(Event, frozen=True):
    """A coloured clip: rage, poison, webs, stun, or an extra attack."""

    monster: str
    effect: str
    until_round: int = 0


class EffectSpent(Event, frozen=True):
    """A coloured clip taken off."""

    monster: str
    effect: str


class AbilityCopied(Event, frozen=True):
    """The Doppelganger copied an adjacent monster's special ability for the rest of its turn."""

    monster: str
    source: str
    ability: str
    points: int = 0  # movement points gained (a copied 2x move counts the die again)


class CursePending(Event, frozen=True):
    """A curse struck: the controlling player now walks the cursed monster back 3 spaces.

    What the attack still has to resolve afterwards is kept here: a counter-strike of
    ``counter_by`` on ``counter_on``, then the Blast's other defenders with the same roll."""

    monster: str
    by: str
    counter_by: str = ""
    counter_on: str = ""
    counter_kind: str = ""
    counter_wacky: bool = False
    attacker: str = ""
    rest: tuple[str, ...] = ()
    dice: int = 0
    hits: int = 0
    wacky: str = ""


class ControlEnded(Event, frozen=True):
    """The monster's turn is over: it is rotated 90 degrees (turned) for this round."""

    monster: str
    reason: str = ""


class RoundEnded(Event, frozen=True):
    """Every living monster was controlled and the marker claimed: all monsters rotate back."""

    round: int


class GameEnded(Event, frozen=True):
    """The third monster finished, or no monster can still finish (Megacarnage)."""

    reason: str
    finishes: tuple[str, ...]
    agendas: dict[str, str]
    scores: dict[str, int]
    winners: tuple[str, ...]


EVENTS: tuple[type[Event], ...] = (
    TrackLaid, MonsterPlaced, AgendasDealt, AgendaKept, StartingPlayerChosen, RoundBegan,
    TurnBegan, MovementRolled, MarkerTaken, MonsterControlled, MonsterMoved, MonsterFinished,
    Recovered, Attacked, Damaged, MonsterDied, EffectGained, EffectSpent, ControlEnded,
    RoundEnded, GameEnded, AbilityCopied, CursePending,
)
