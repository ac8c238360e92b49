"""A tiny game that exercises every kernel feature: secret simultaneous bids revealed
together, a reaction window for the other seat, hidden hands, seeded dice and shuffles.

Rules of "duel": each seat is dealt one secret card. Each round both seats secretly bid
0-3; once both have bid, the bids are revealed. The higher bidder rolls a d6 and scores it
(a tie scores nothing); then the other seat may `protest` (the score is halved, rounded
down, and the protester discards their card) or `pass`. First to 10 wins.
"""

from __future__ import annotations

from typing import Any

import msgspec

from arbiter.core.dice import Rng
from arbiter.core.errors import ParseError, RuleViolation
from arbiter.core.game import Game, Option, Traits
from arbiter.core.rules import Rule, RuleIndex
from arbiter.events.base import Event, GameCreated
from arbiter.projections.kernel import Base, Decision, Outcome


class CardDealt(Event, frozen=True):
    seat: str
    card: str


class BidMade(Event, frozen=True):
    seat: str
    bid: int  # secret until BidsRevealed


class BidsRevealed(Event, frozen=True):
    bids: dict[str, int]


class Scored(Event, frozen=True):
    seat: str
    points: int


class Protested(Event, frozen=True):
    seat: str
    card: str
    points_lost: int


class Passed(Event, frozen=True):
    seat: str


class DuelState(msgspec.Struct, frozen=True):
    seats: tuple[str, ...]
    target: int
    scores: dict[str, int]
    hands: dict[str, str | None]
    bids: dict[str, int]
    revealed: bool = False
    window: str | None = None  # the seat that may protest now
    last_score: int = 0


class DuelProjection(Base[DuelState]):
    events = (CardDealt, BidMade, BidsRevealed, Scored, Protested, Passed)
    sql_views = ()

    def initial(self, created: GameCreated) -> DuelState:
        return DuelState(seats=created.seats, target=created.options["target"],
                         scores={s: 0 for s in created.seats}, hands={s: None for s in created.seats},
                         bids={})

    def evolve(self, state: DuelState, event: Event) -> DuelState:
        r = msgspec.structs.replace
        if isinstance(event, CardDealt):
            return r(state, hands={**state.hands, event.seat: event.card})
        if isinstance(event, BidMade):
            return r(state, bids={**state.bids, event.seat: event.bid})
        if isinstance(event, BidsRevealed):
            return r(state, revealed=True)
        if isinstance(event, Scored):
            other = [s for s in state.seats if s != event.seat][0]
            return r(state, scores={**state.scores, event.seat: state.scores[event.seat] + event.points},
                     window=other, last_score=event.points)
        if isinstance(event, Protested):
            winner = [s for s in state.seats if s != event.seat][0]
            return r(state, scores={**state.scores, winner: state.scores[winner] - event.points_lost},
                     hands={**state.hands, event.seat: None}, window=None, bids={}, revealed=False)
        if isinstance(event, Passed):
            return r(state, window=None, bids={}, revealed=False)
        return state

    def to_act(self, state: DuelState) -> Decision:
        if state.window:
            return Decision("reaction", (state.window,), "protest or pass")
        if state.revealed:  # a tie: the round just closes on the next bid
            return Decision("simultaneous", state.seats, "bid 0-3")
        return Decision("simultaneous", tuple(s for s in state.seats if s not in state.bids), "bid 0-3")

    def outcome(self, state: DuelState) -> Outcome | None:
        best = max(state.scores.values())
        if best >= state.target and state.window is None:
            return Outcome(tuple(s for s, v in state.scores.items() if v == best), dict(state.scores))
        return None

    def view(self, state: DuelState, seat: str | None) -> DuelState:
        hands = {s: (c if s == seat else ("?" if c else None)) for s, c in state.hands.items()}
        bids = state.bids if state.revealed else {s: (b if s == seat else -1) for s, b in state.bids.items()}
        return msgspec.structs.replace(state, hands=hands, bids=bids)

    def redact(self, event: Event, seat: str | None, state: DuelState) -> Event | None:
        if isinstance(event, CardDealt) and event.seat != seat:
            return msgspec.structs.replace(event, card="?")
        if isinstance(event, BidMade) and event.seat != seat:
            return msgspec.structs.replace(event, bid=-1)
        return event

    def hidden_from(self, state: DuelState, seat: str | None) -> set[str]:
        return {c for s, c in state.hands.items() if c and s != seat}


class Bid(msgspec.Struct, frozen=True):
    amount: int


class Protest(msgspec.Struct, frozen=True):
    pass


class Pass(msgspec.Struct, frozen=True):
    pass


RULES = {
    "DUEL-BID": Rule("DUEL-BID", "Bidding", "Bids are 0 to 3, one a round.", "house"),
    "DUEL-WINDOW": Rule("DUEL-WINDOW", "Protest", "Protest or pass only after a score.", "house"),
    "DUEL-CARD": Rule("DUEL-CARD", "Protest", "Protesting costs your card.", "house"),
}


class Duel(Game[DuelState, Any]):
    id = "duel"
    traits = Traits(hidden_information=True, simultaneous=True, reactions=True, dice=True, shuffles=True)
    short = "du"
    title = "Duel (kernel test game)"
    projection = DuelProjection()
    min_seats = max_seats = 2
    options = (Option(name="target", default=10, doc="points to win", minimum=1, maximum=50),)
    syntax = ("bid N", "protest", "pass")

    @property
    def rules(self) -> RuleIndex:
        index = RuleIndex(None)
        index.rules.update(RULES)
        return index

    def default_content(self) -> dict[str, Any]:
        return {"dice": {"d6": ["1", "2", "3", "4", "5", "6"]},
                "cards": [f"card-{c}" for c in "abcdefgh"]}

    def setup(self, created: GameCreated, rng: Rng) -> list[Event]:
        shuffled = rng.shuffle("cards", created.content["cards"])
        return [shuffled] + [CardDealt(seat=s, card=shuffled.order[i]) for i, s in enumerate(created.seats)]

    def parse(self, state: DuelState, seat: str, text: str) -> Any:
        words = text.lower().split()
        if words[:1] == ["bid"] and len(words) == 2 and words[1].lstrip("-").isdigit():
            return Bid(int(words[1]))
        if words == ["protest"]:
            return Protest()
        if words == ["pass"]:
            return Pass()
        raise ParseError(f"not a duel command: {text!r}", hint="; ".join(self.syntax))

    def command_text(self, command: Any) -> str:
        if isinstance(command, Bid):
            return f"bid {command.amount}"
        return "protest" if isinstance(command, Protest) else "pass"

    def decide(self, state: DuelState, seat: str, command: Any, rng: Rng) -> list[Event]:
        if isinstance(command, Bid):
            if state.window:
                raise RuleViolation("DUEL-WINDOW", "protest or pass first")
            if not 0 <= command.amount <= 3:
                raise RuleViolation("DUEL-BID", "bids are 0 to 3")
            events: list[Event] = []
            bids = {} if state.revealed else dict(state.bids)
            if state.revealed:
                events.append(Passed(seat=seat))  # a tied round closes
            events.append(BidMade(seat=seat, bid=command.amount))
            bids[seat] = command.amount
            if len(bids) == len(state.seats):
                events.append(BidsRevealed(bids=bids))
                a, b = state.seats
                if bids[a] != bids[b]:
                    high = a if bids[a] > bids[b] else b
                    roll = rng.roll(["d6"], purpose="score")
                    events += [roll, Scored(seat=high, points=int(roll.faces[0]))]
            return events
        if state.window != seat:
            raise RuleViolation("DUEL-WINDOW", "there is no score to protest")
        if isinstance(command, Protest):
            card = state.hands[seat]
            if card is None:
                raise RuleViolation("DUEL-CARD", "you have no card left to protest with")
            return [Protested(seat=seat, card=card, points_lost=state.last_score - state.last_score // 2)]
        return [Passed(seat=seat)]

    def legal_commands(self, state: DuelState, seat: str) -> list[Any]:
        if state.window == seat:
            return ([Protest()] if state.hands[seat] else []) + [Pass()]
        if state.window is None and (state.revealed or seat not in state.bids):
            return [Bid(n) for n in range(4)]
        return []


GAME = Duel()
