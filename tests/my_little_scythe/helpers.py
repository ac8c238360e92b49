"""Build My Little Scythe positions by folding ordinary events after a real setup.

Every event used here is one the game itself produces (Seekers moving, resources gained,
tracks moving, spells drawn, trophies earned), so each position is one the public path
could reach; the helper only skips the turns that would lead there.
"""

from __future__ import annotations

from typing import Any

import pytest

from arbiter.core.errors import RuleViolation
from arbiter.core.match import Match
from arbiter.core.my_little_scythe import GAME
from arbiter.events import my_little_scythe as ev
from arbiter.projections.fold import SETUP


def position(seats=("ann", "bob"), *, seed: int = 1, first: str | None = None, dice: str = "seeded",
             seekers: dict[str, tuple[str, str]] | None = None,
             resources: dict[str, dict[str, int]] | None = None,
             tracks: dict[str, dict[str, int]] | None = None,
             spells: dict[str, tuple[str, ...]] | None = None,
             personality: dict[str, str] | None = None,
             trophies: dict[str, tuple[str, ...]] | None = None,
             last_action: dict[str, str] | None = None,
             quests_done: dict[str, tuple[str, ...]] | None = None,
             quest_top: str | None = None,
             tiles: dict[str, dict[str, str]] | None = None,
             options: dict[str, Any] | None = None, keep_board: bool = False) -> Match:
    m = Match.new(GAME, seed=seed, seats=list(seats), options=options or {}, dice=dice)
    s = m.state
    evs: list[Any] = []
    first = first or seats[0]
    if not keep_board and s.board:
        evs.append(ev.ResourcesPaid(seat=seats[0], taken=s.board, reason="test position"))
    i = list(seats).index(first)
    order = tuple(seats[i:]) + tuple(seats[:i])
    evs.append(ev.FirstPlayerChosen(seat=first, order=order))
    for seat, where in (seekers or {}).items():
        for n, w in enumerate(where, start=1):
            if w != "base":
                evs.append(ev.SeekerMoved(seat=seat, seeker=n, path=("base", w)))
    for space, res in (resources or {}).items():
        evs.append(ev.ResourcesGained(seat=seats[0], space=space, gained=res, reason="test position"))
    for seat, t in (tracks or {}).items():
        for track, value in t.items():
            before = getattr(s.players[seat], track)
            evs.append(ev.TrackMoved(seat=seat, track=track, before=before, after=value, reason="test position"))
    deck = list(s.spell_deck)
    for seat, cards in (spells or {}).items():
        # hand the seat exactly these cards: discard what it holds, draw the named ones
        held = s.players[seat].spells
        if held:
            evs.append(ev.SpellsDiscarded(seat=seat, cards=held))
        for card in cards:
            evs.append(ev.SpellDrawn(seat=seat, card=card, reason="test position"))
    neutral = ["personality-cheerful", "personality-stubborn", "personality-sparkly",
               "personality-hardworking", "personality-tinkering", "personality-curious"]
    given = dict(zip(seats, neutral))
    given.update(personality or {})
    for seat, card in given.items():
        evs.append(ev.PersonalityDealt(seat=seat, card=card))
    for seat, ts in (trophies or {}).items():
        for t in ts:
            evs.append(ev.TrophyEarned(seat=seat, trophy=t, turn=0))
    for seat, qs in (quests_done or {}).items():
        for q in qs:
            evs.append(ev.QuestDrawn(seat=seat, card=q, space="T1"))
            evs.append(ev.QuestResolved(seat=seat, card=q, option=1))
    piles = {k: list(v) for k, v in s.piles.items()}
    for seat, by_pile in (tiles or {}).items():
        for pile, tile in by_pile.items():
            k = piles[pile].index(tile)
            looked = tuple(piles[pile][: k + 1])
            evs.append(ev.PowerUpLooked(seat=seat, pile=pile, tiles=looked))
            evs.append(ev.PowerUpTaken(seat=seat, pile=pile, tile=tile, returned=k))
            piles[pile] = piles[pile][k + 1:] + [t for t in looked if t != tile]
    if quest_top is not None:
        # draw and refuse the cards above it: each goes to the bottom, as "No Thanks" does
        deck = [q for q in s.quest_deck if not any(q in v for v in (quests_done or {}).values())]
        for q in deck[: deck.index(quest_top)]:
            evs.append(ev.QuestDrawn(seat=seats[0], card=q, space="T1"))
            evs.append(ev.QuestDeclined(seat=seats[0], card=q))
    for seat, a in (last_action or {}).items():
        evs.append(ev.ActionChosen(seat=seat, action=a))
    evs.append(ev.TurnStarted(seat=first, turn=1))
    del deck
    items = list(m.items) + [(len(m.items) + k + 1, SETUP, e) for k, e in enumerate(evs)]
    return Match(GAME, items)


def texts(m: Match, seat: str) -> list[str]:
    return m.legal_texts(seat)


def events_of(evs, cls):
    return [e for e in evs if isinstance(e, cls)]


#: every trophy a player can place, by name
ALL = ("friendship-8", "power-ups-2", "spells-3", "quests-2", "apple-delivery", "gem-delivery",
       "pie-fight", "pies-8")


def rule_of(m: Match, seat: str, text: str) -> str:
    """The rule id a refused command cites."""
    with pytest.raises(RuleViolation) as e:
        m.decide(seat, text)
    return e.value.rule_id


def pass_turn(m: Match, seat: str) -> None:
    """A quiet Move in which nothing happens (or a Seek after a Move)."""
    if m.state.players[seat].last_action == "move":
        m.apply(seat, "seek-gems")
        while m.state.seek:
            m.apply(seat, m.legal_texts(seat)[0])
        return
    m.apply(seat, "move")
    m.apply(seat, "stay 1")
    m.apply(seat, "stay 2")
