"""Villainous's evolve copies only what an event changes and shares the rest with the state
before: each state is exactly what the decider's in-place ``mutate`` makes of the state before
it (thaw, mutate, freeze), and no state already folded is changed by the events after it (so
an undo frame, which keeps the state before its command, stays true)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import msgspec
import pytest

from arbiter.cli.bench import long_match, unending_move
from arbiter.core.match import UNDO
from arbiter.core.villainous import GAME
from arbiter.events import villainous as ev
from arbiter.events.base import Event, Shuffled, Undone
from arbiter.projections.fold import decode_snapshot, encode_snapshot, fold, same_fold, step
from arbiter.projections.villainous import VillainousProjection, VState, freeze, mutate, thaw
from arbiter.testing import golden

from tests.villainous.helpers import fold as fold_events, new

GOLDEN = Path(__file__).parent / "golden"
PROJECTION = GAME.projection
ENCODE = msgspec.msgpack.Encoder().encode


def in_place(state: VState, event: Event) -> VState:
    """What the evolve of before did for every event: the state to builtins, changed in place
    by the decider's ``mutate``, and converted back."""
    if type(event) not in ev.EVENTS and not isinstance(event, Shuffled):
        return state
    d = thaw(state)
    mutate(d, event)
    return freeze(d)


def stored(item: tuple[int, str, Event]) -> tuple[int, str, Event]:
    """An event as a replay reads it: encoded as stored and decoded again."""
    seq, cid, e = item
    return seq, cid, GAME.codec.decode(type(e).__name__, type(e).VERSION, GAME.codec.encode(e))


def check_log(items: list[tuple[int, str, Event]]) -> set[str]:
    """Fold ``items`` (undos included), each event evolved both ways; returns the event types met."""
    folded = None
    kept: list[tuple[VState, bytes]] = []
    seen = set()
    for seq, cid, e in items:
        if folded is not None and not isinstance(e, Undone):
            before = folded.state
            assert PROJECTION.evolve(before, e) == in_place(before, e), (seq, type(e).__name__)
            kept.append((before, ENCODE(before)))
            seen.add(type(e).__name__)
        folded = step(PROJECTION, folded, seq, cid, e)
    assert folded is not None
    assert fold(PROJECTION, items).state == folded.state
    # every state met on the way reads as it did then: nothing shared was changed in place
    assert all(ENCODE(state) == body for state, body in kept)
    return seen


@pytest.mark.parametrize("path", golden.playthroughs(GOLDEN), ids=lambda p: p.name)
def test_a_golden_game_folds_as_the_decider_applies_it(path: Path) -> None:
    match = golden.check(path)
    seen = check_log(match.items)
    assert "GameWon" in seen
    check_log([stored(i) for i in match.items])


def test_a_long_game_with_undos_folds_as_the_decider_applies_it() -> None:
    match = long_match("villainous", 1500, seed=2)
    rng = random.Random(2)
    for _ in range(3):  # undo a few commands and play on after them
        for _ in range(2):
            match.apply(match.to_act().seats[0], UNDO)
        match.apply(*unending_move(match, rng))
    assert sum(isinstance(e, Undone) for _, _, e in match.items) == 6
    seen = check_log([stored(i) for i in match.items])
    assert {"CardsDrawn", "CardPlayed", "CardDiscarded", "FateRevealed", "Shuffled"} <= seen


def test_facts_a_bot_game_seldom_meets_fold_the_same_way() -> None:
    m = new(2)
    ann_hand = list(m.state.hand["ann"])
    bob_deck = list(m.state.deck["bob"])
    events: list[Any] = [
        ev.CardsLooked(seat="ann", deck="villain:bob", cards=tuple(bob_deck[:2])),
        ev.CardsLooked(seat="ann", deck="villain:bob", cards=tuple(bob_deck[1:3])),
        ev.CardsRevealed(seat="ann", cards=tuple(ann_hand[:2]), source="hand"),
        ev.CardToHand(seat="bob", card=ann_hand[0], source="hand"),
        ev.CardRemovedFromGame(owner="ann", card=ann_hand[1], source="hand"),
        ev.BonusActionGranted(seat="ann", symbol="play"),
        ev.ActionUsed(seat="ann", symbol="play", index=-1),
        ev.WindowOpened(seats=("bob",), trigger="play_ally", by="ann"),
        ev.WindowPassed(seat="bob"),
        ev.GameWon(winners=("ann",), reason="a test"),
    ]
    state = m.state
    for e in events:
        after = PROJECTION.evolve(state, e)
        assert after == in_place(state, e), type(e).__name__
        state = after
    fold_events(m, *events)
    assert m.state == state
    assert m.state.known["ann"] == bob_deck[:3]
    assert m.outcome() is not None


def test_an_event_shares_what_it_leaves_alone() -> None:
    m = new(2)
    before = m.state
    after = PROJECTION.evolve(before, ev.CreditsChanged(seat="ann", amount=2))
    assert after.credits == {**before.credits, "ann": before.credits["ann"] + 2}
    assert before.credits["ann"] == after.credits["ann"] - 2  # the state before is as it was
    for field in ("hand", "deck", "discard", "sector", "public", "pending"):
        assert getattr(after, field) is getattr(before, field), field
    drawn = PROJECTION.evolve(after, ev.CardsDrawn(seat="ann", cards=(after.deck["ann"][0],)))
    assert drawn.hand["bob"] is after.hand["bob"] and drawn.deck["bob"] is after.deck["bob"]
    assert drawn.sector is after.sector and drawn.credits is after.credits


class InPlace(VillainousProjection):
    """Villainous folded the way it was before evolve shared: every event through ``mutate``."""

    def evolve(self, state: VState, event: Event) -> VState:  # type: ignore[override]
        return in_place(state, event)


@pytest.mark.parametrize("path", golden.playthroughs(GOLDEN)[:1], ids=lambda p: p.name)
def test_a_snapshot_written_before_reads_as_the_state_folded_now(path: Path) -> None:
    """The state keeps its shape: a snapshot (state and undo frames) written by the fold of
    before is byte for byte the one written now, so stored snapshots stay usable and mean the
    same (a change of shape would need the rules version or SNAPSHOT_FORMAT raised)."""
    items = [stored(i) for i in golden.check(path).items]
    for n in (len(items) // 3, len(items)):
        now, before = fold(PROJECTION, items[:n]), fold(InPlace(), items[:n])
        body = encode_snapshot(PROJECTION, now)
        assert body is not None and body == encode_snapshot(InPlace(), before)
        assert same_fold(decode_snapshot(PROJECTION, now.created, body), now)
