"""Whole bot games checked, event by event, against what the rulebook implies everywhere:
every card in exactly one place, Credits and Ambition never negative, the hand refilled only
at the end of the turn and only up to the hand limit, the Fate action only against an
opponent, the mover always moving to a different location, each action symbol used once,
and the game ending the moment a Villain achieves their Objective, and only then."""

from __future__ import annotations

import collections
import random
from typing import Any

import pytest

from arbiter.core.bots import autoplay
from arbiter.core.match import Match
from arbiter.core.villainous import GAME
from arbiter.events.villainous import (
    ActionUsed, AmbitionChanged, CardPlayed, CardsDrawn, FateRevealed, GameWon, MoverMoved, TurnBegan, TurnEnded,
)

# "Cad Bane — You must collect 5 Target tokens", "Seventh Sister — You must permanently
# remove 3 Rebels", "Boba Fett — You must complete 4 Bounties" (Objective)
OBJECTIVES = {"cad-bane": ("targets", 5), "seventh-sister": ("rebels", 3), "boba-fett": ("bounties", 4)}
HAND = 4  # "You can only refill your hand to 4 cards at the end of your turn!" (Discard Cards)


def places(s: Any) -> collections.Counter[str]:
    """Where each card is: a hand, a deck, a discard pile, a sector, removed from the game,
    the two Fate cards being revealed, or a completed Bounty beside its portrait."""
    out: collections.Counter[str] = collections.Counter()
    for pile in ("hand", "deck", "discard", "fate_deck", "fate_discard"):
        for cards in getattr(s, pile).values():
            out.update(cards)
    for sector in s.sector.values():
        out.update(list(sector))
    out.update(s.removed)
    out.update((s.fate or {}).get("cards", []))
    for done in s.bounties.values():
        out.update(done)
    return out


def progress(s: Any, seat: str) -> bool:
    kind, count = OBJECTIVES[s.villain[seat]]
    have = len(s.bounties[seat]) if kind == "bounties" else getattr(s, kind)[seat]
    return have >= count


def unengaged_hero_vehicles(s: Any, seat: str) -> int:
    """Each unengaged Hero Vehicle in your Sector reduces your hand-card limit by 1."""
    return sum(1 for c, e in s.sector[seat].items()
               if e["side"] == "upper" and e["loc"] == "deep-space" and e.get("engaged") is None
               and "vehicle" in c_type(s, c))


_TYPES: dict[str, str] = {}
_OWNER: dict[str, str] = {}  # card -> the villain whose deck holds it
_FATE: set[str] = set()  # the cards of the Fate decks


def c_type(s: Any, card: str) -> str:
    return _TYPES[card.rsplit("-", 1)[0]]  # a copy's id is the card's id and its number


def learn(m: Match) -> None:
    """Each card's type and deck, from the content the game was created with."""
    for key, v in m.created.content["villains"].items():
        for deck in ("villain_deck", "fate_deck"):
            for c in v[deck]:
                _TYPES[c["id"]], _OWNER[c["id"]] = c["type"], key
                if deck == "fate_deck":
                    _FATE.add(c["id"])


class Checker:
    def __init__(self, m: Match) -> None:
        self.m = m
        self.proj = GAME.projection
        self.cards: set[str] | None = None
        self.used: set[int] = set()
        self.fates = self.draws_at_end = self.checked = 0
        self.fate_pair = ("", "")

    def apply(self, seat: str, text: str) -> None:
        state = self.m.state
        events = self.m.apply(seat, text)
        verb = text.split()[0]
        drew_at_end: dict[str, int] = {}
        for ev in events:
            self.event(state, ev, seat, verb)
            if isinstance(ev, CardsDrawn) and verb == "end":
                drew_at_end[ev.seat] = drew_at_end.get(ev.seat, 0) + len(ev.cards)
            if isinstance(ev, TurnEnded):
                self.turn_ended(state, ev.seat, drew_at_end.get(ev.seat, 0))
            state = self.proj.evolve(state, ev)
            self.state(state)
            self.checked += 1
        assert self.m.state == state
        self.whereabouts(state)  # between the events of one command a card may be in hand
        # the game stops the moment an Objective is achieved (Objective)
        reached = [s for s in state.order if progress(state, s)]
        assert bool(reached) == bool(state.winners), (text, reached, state.winners)
        if state.winners:
            assert sorted(state.winners) == sorted(reached)

    def state(self, s: Any) -> None:
        for seat in s.order:
            assert s.credits[seat] >= 0, f"{seat} has {s.credits[seat]} Credits"
            assert s.ambition[seat] >= 0, f"{seat} has {s.ambition[seat]} Ambition"

    def whereabouts(self, s: Any) -> None:
        if s.phase == "setup":
            return
        where = places(s)
        twice = sorted(c for c, n in where.items() if n > 1)
        assert not twice, f"cards in two places: {twice}"
        if self.cards is None:
            self.cards = set(where)
            assert len(self.cards) == 45 * len(s.order)  # a Villain deck of 30 and a Fate deck of 15 each
        assert set(where) == self.cards, (self.cards - set(where), set(where) - self.cards)

    def event(self, s: Any, ev: Any, seat: str, verb: str) -> None:
        if not type(ev).__module__.endswith("villainous"):
            return
        assert not s.winners, f"{type(ev).__name__} after the game was won"
        if isinstance(ev, TurnBegan):
            self.used = set()
        if isinstance(ev, MoverMoved):
            assert ev.to != s.mover[ev.seat], f"{ev.seat} moved to the location it stood on"
        if isinstance(ev, ActionUsed) and ev.index >= 0:
            assert ev.index not in self.used, f"{ev.seat} used action {ev.index} twice in a turn"
            self.used.add(ev.index)
        if isinstance(ev, FateRevealed):
            self.fate_pair = (ev.by, ev.target)
            if verb == "fate":  # the Fate action: "Choose an opponent" (Fate)
                assert ev.target != ev.by, "the Fate action against oneself"
                self.fates += 1
        if isinstance(ev, CardPlayed):
            # Playing Cards: "You play the Villain cards from your hand to the lower part of
            # your Sector. Your Fate cards are played by your opponents to the upper part"
            owner = _OWNER[ev.card.rsplit("-", 1)[0]]
            fate = ev.card.rsplit("-", 1)[0] in _FATE
            assert ev.side == ("upper" if fate else "lower"), ev
            assert s.villain[ev.sector] == owner, f"{ev.card} played into the sector of {s.villain[ev.sector]}"
        if isinstance(ev, CardPlayed) and ev.side == "upper" and ev.sector == ev.seat:
            # a Fate card lands in its player's own sector only through a card that says so
            assert self.fate_pair == (ev.seat, ev.seat), ev
        if isinstance(ev, AmbitionChanged) and ev.why == "start of turn":
            assert ev.amount == 1 and ev.seat == s.active
        if isinstance(ev, GameWon):
            reached = [x for x in s.order if progress(s, x)]
            assert reached and sorted(ev.winners) == sorted(reached), (ev, reached)

    def turn_ended(self, s: Any, seat: str, drawn: int) -> None:
        """Draw up to the hand limit at the end only: 4, less one per unengaged Hero Vehicle."""
        limit = HAND - unengaged_hero_vehicles(s, seat)
        hand = len(s.hand[seat])  # after the draw, before TurnEnded is folded
        before = hand - drawn
        assert drawn == 0 or hand <= max(limit, 0), (seat, hand, limit)
        if before < limit:
            self.draws_at_end += 1
            exhausted = not s.deck[seat] and not s.discard[seat]
            assert hand == limit or exhausted, (seat, hand, limit)


GAMES = [(bot, seats, seed) for bot in ("random", "smart") for seats, seed in ((2, 1), (3, 2), (2, 3))]


@pytest.mark.parametrize("bot, seats, seed", GAMES)
def test_bot_games_keep_the_rulebooks_invariants(bot, seats, seed):
    names = ["ann", "bob", "cat"][:seats]
    m = Match.new(GAME, seed=seed, seats=names)
    learn(m)
    chk = Checker(m)
    bots = {s: GAME.bots["smart"] for s in names} if bot == "smart" else {}
    autoplay(m, bots, random.Random(seed), max_steps=4000, apply=chk.apply)
    assert m.outcome() is not None, (bot, seats, seed)
    assert chk.checked > 300 and chk.draws_at_end > 5
    if bot == "smart":
        assert chk.fates > 0


def test_actions_are_not_mandatory_but_the_mover_must_move_first():
    """"Actions are not mandatory and may be performed in any order" (Perform Actions): once
    the mover has moved and nothing waits on an answer, `end` is always offered; before it
    has moved ("Move Your Mover", step 2), never."""
    from arbiter.core.bots import bot_step

    offered = 0
    for seed in range(2):
        m = Match.new(GAME, seed=seed, seats=["ann", "bob"])
        rng = random.Random(seed)
        while m.outcome() is None:
            seat, st = m.to_act().seats[0], m.state
            legal = m.legal_texts(seat)
            if seat == st.active and st.phase == "act" and not (st.window or st.pending or st.fate):
                assert "end" in legal
                offered += 1
            if seat == st.active and st.phase == "move":
                assert "end" not in legal
            bot_step(m, {}, rng)
    assert offered > 100
