"""Building Villainous positions for tests: a real setup, then events folded on top (the
same way a log is folded), never by editing the state."""

from __future__ import annotations

import copy
from typing import Any

from arbiter.core.match import Match
from arbiter.core.villainous import GAME
from arbiter.events import villainous as ev
from arbiter.projections.fold import SETUP

SEATS = ("ann", "bob", "cy")


def new(n: int = 2, seed: int = 1, content: dict[str, Any] | None = None, **options: Any) -> Match:
    # Card-mechanics tests ask only the holder of a Condition; the default (always) is
    # tested on its own in test_cards.py.
    options.setdefault("condition_windows", "holders")
    return Match.new(GAME, seed=seed, seats=list(SEATS[:n]), options=options, content=content)


def fold(m: Match, *events: Any) -> Match:
    m.extend(list(events), None, SETUP)
    return m


def put(m: Match, sector: str, card: str, loc: str, on: str | None = None) -> Match:
    """A card placed in a sector (as by a 'place' effect: no on-play ability)."""
    from arbiter.core.villainous.board import Table
    side = "upper" if Table(m.state).card(card)["_deck"] == "fate" else "lower"
    return fold(m, ev.CardPlayed(seat=sector, sector=sector, card=card, loc=loc, side=side, on=on,
                                 how="placed", source="test"))


def give(m: Match, seat: str, *cards: str) -> Match:
    """Cards into a hand (taken from wherever they are)."""
    return fold(m, ev.CardsDrawn(seat=seat, cards=tuple(cards)))


def empty_hand(m: Match, seat: str) -> Match:
    return fold(m, *[ev.CardDiscarded(owner=seat, card=c, pile="villain", source="hand")
                     for c in list(m.state.hand[seat])])


def credits(m: Match, seat: str, n: int) -> Match:
    return fold(m, ev.CreditsChanged(seat=seat, amount=n - m.state.credits[seat]))


def ambition(m: Match, seat: str, n: int) -> Match:
    return fold(m, ev.AmbitionChanged(seat=seat, amount=n - m.state.ambition[seat]))


def token(m: Match, sector: str, card: str, amount: int) -> Match:
    return fold(m, ev.StrengthTokenPlaced(sector=sector, card=card, amount=amount))


def at(m: Match, seat: str, loc: str) -> Match:
    """The seat's mover stands at ``loc`` and its actions are fresh (as after step 2)."""
    return fold(m, ev.MoverMoved(seat=seat, to=loc))


def content_with(changes: dict[str, dict[str, Any]], extra: dict[str, list[dict[str, Any]]] | None = None) -> dict[str, Any]:
    """The house content with some cards changed (by id) - for cards the house decks lack."""
    c = copy.deepcopy(GAME.default_content())
    for v in c["villains"].values():
        for deck in ("villain_deck", "fate_deck"):
            for card in v[deck]:
                if card["id"] in changes:
                    card.update(changes[card["id"]])
    return c


def strength(m: Match, sector: str, card: str) -> int:
    from arbiter.core.villainous.board import Table
    return Table(m.state).strength(sector, card)


def rule_of(exc: Any) -> str:
    return exc.value.rule_id
