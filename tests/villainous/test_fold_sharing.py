"""Villainous has one way to apply an event, ``evolve``: the decider applies each event it
emits with it, and the fold applies each stored event with it. It copies only what an event
changes and shares the rest with the state before, so nothing may change a state once made:
not a later event, not a command decided on it (legal ones, refused ones, hypothetical ones),
or an undo frame, which keeps the state before its command, would no longer be true."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path
from typing import Any

import msgspec
import pytest

from arbiter.cli.bench import long_match, unending_move
from arbiter.core.errors import ParseError, RuleViolation
from arbiter.core.game import emitted
from arbiter.core.match import UNDO, Match
from arbiter.testing import undo_unless_hidden
from arbiter.core.villainous import GAME
from arbiter.core.villainous.bots import smart
from arbiter.events import villainous as ev
from arbiter.events.base import Event, SeedRevealed, Undone
from arbiter.projections.fold import decode_snapshot, encode_snapshot, fold, same_fold, step
from arbiter.testing import golden

from tests.villainous.helpers import fold as fold_events, new

GOLDEN = Path(__file__).parent / "golden"
PROJECTION = GAME.projection
ENCODE = msgspec.msgpack.Encoder().encode


def stored(item: tuple[int, str, Event]) -> tuple[int, str, Event]:
    """An event as a replay reads it: encoded as stored and decoded again."""
    seq, cid, e = item
    return seq, cid, GAME.codec.decode(type(e).__name__, type(e).VERSION, GAME.codec.encode(e))


def places(state: Any) -> dict[str, list[str]]:
    """Every card that is anywhere -> the places it is in (a pile, a sector, the Fate cards
    revealed), as many as it is in."""
    out: dict[str, list[str]] = {}
    for key in ("hand", "discard", "fate_discard", "deck", "fate_deck", "sector"):
        for seat, cards in getattr(state, key).items():
            for c in cards:
                out.setdefault(c, []).append(f"{key} of {seat}")
    for c in state.fate["cards"] if state.fate else ():
        out.setdefault(c, []).append("revealed")
    return out


def check_log(items: list[tuple[int, str, Event]], decided: dict[int, Any] | None = None) -> set[str]:
    """Fold ``items`` (undos included), each state kept with its bytes; ``decided``: the
    state after each seq as the decider made it, which the fold must match. Every state
    has each card in one place at most (what lets an event stop looking for the card it
    moves where it finds it). Returns the event types met."""
    folded = None
    kept: list[tuple[Any, bytes]] = []
    seen = set()
    for seq, cid, e in items:
        if folded is not None and not isinstance(e, Undone):
            kept.append((folded.state, ENCODE(folded.state)))
            seen.add(type(e).__name__)
            twice = {c: p for c, p in places(folded.state).items() if len(p) > 1}
            assert not twice, (seq, twice)
        folded = step(PROJECTION, folded, seq, cid, e)
        if decided is not None and seq in decided:
            assert decided[seq] == folded.state, (seq, type(e).__name__)
    assert folded is not None
    assert fold(PROJECTION, items).state == folded.state
    # every state met on the way reads as it did then: nothing shared was changed in place
    assert all(ENCODE(state) == body for state, body in kept)
    return seen


@pytest.mark.parametrize("path", golden.playthroughs(GOLDEN), ids=lambda p: p.name)
def test_a_golden_game_folds_as_the_decider_applied_it(path: Path) -> None:
    """Each state the decider made as it decided a command (its Emitter's) is the state
    the fold makes of the same events, as decided and as stored."""
    match = golden.check(path)
    again = Match.recreate(match.game, match.created)
    decided: dict[int, Any] = {}
    for actor, text in match.effective_commands():  # the recorded commands decided again
        _seat, _cmd, events = again.decide(actor, text)
        made = emitted(PROJECTION, again.state, events)
        assert len(made) == sum(not isinstance(e, SeedRevealed) for e in events)
        decided.update((again.seq + 1 + i, state) for i, state in enumerate(made))
        again.apply(actor, text)
    assert [e for _, _, e in again.items] == [e for _, _, e in match.items]
    assert len(decided) > len(match.items) * 0.9  # all but setup's
    seen = check_log(match.items, decided)
    assert "GameWon" in seen
    check_log([stored(i) for i in match.items], decided)


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


@pytest.mark.parametrize("seats,windows,seed", [(2, "always", 3), (3, "holders", 4)])
def test_deciding_changes_no_state_in_place(seats: int, windows: str, seed: int) -> None:
    """The decider reads the very lists and dicts of the state it decides on (and of each
    state its events make): a command decided, legal or refused, a menu of legal commands
    (each one decided) or a bot's choice leaves every state met as it was, byte for byte."""
    m = new(seats, seed=seed, condition_windows=windows, hunt_turns="any")
    rng = random.Random(seed)
    kept: list[tuple[Any, bytes]] = []
    refused = undone = 0
    while m.outcome() is None and len(kept) < 250:
        kept.append((m.state, ENCODE(m.state)))
        seat = m.to_act().seats[0]
        legal = m.legal(seat)
        for other in m.seats:  # every seat tries a few commands, most of them refused
            for text in ("end", "collect", "pass", "discard " + " ".join(m.state.hand[other][:2]),
                         GAME.command_text(rng.choice(legal))):
                try:
                    m.decide(other, text)
                except (RuleViolation, ParseError):
                    refused += 1
        assert ENCODE(m.state) == kept[-1][1], f"a command decided changed the state in place ({text})"
        m.apply(seat, GAME.command_text(smart(m.state, seat, legal, rng)))
        if len(kept) % 40 == 0:  # back to a state kept by an undo frame (a draw stands)
            undone += undo_unless_hidden(m, m.to_act().seats[0])
    assert refused > 100 and undone
    assert all(ENCODE(state) == body for state, body in kept)


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
    kept = []
    for e in events:
        kept.append((state, ENCODE(state)))
        state = PROJECTION.evolve(state, e)
    assert all(ENCODE(s) == body for s, body in kept)
    fold_events(m, *events)
    assert m.state == state
    assert m.state.known["ann"] == bob_deck[:3]
    assert ann_hand[0] in m.state.hand["bob"] and ann_hand[0] in m.state.shown
    assert ann_hand[1] in m.state.removed and ann_hand[1] not in m.state.hand["ann"]
    assert set(ann_hand[:2]) <= set(m.state.public)
    assert m.state.bonus == [] and m.state.window is None
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


@pytest.mark.parametrize("path", golden.playthroughs(GOLDEN)[:1], ids=lambda p: p.name)
def test_a_snapshot_written_before_reads_as_the_state_folded_now(path: Path) -> None:
    """The state keeps its shape: a snapshot (state and undo frames) is byte for byte the one
    the fold wrote when the decider still had an applier of its own (its digests, then), so
    stored snapshots stay usable and mean the same (a change of shape would need the rules
    version or SNAPSHOT_FORMAT raised)."""
    items = [stored(i) for i in golden.check(path).items]
    digests = []
    for n in (len(items) // 3, len(items)):
        now = fold(PROJECTION, items[:n])
        body = encode_snapshot(PROJECTION, now)
        assert body is not None
        digests.append(hashlib.sha256(body).hexdigest())
        assert same_fold(decode_snapshot(PROJECTION, now.created, body), now)
    assert digests == SNAPSHOT_DIGESTS


#: the snapshots above as the fold of before wrote them
SNAPSHOT_DIGESTS = ["4a78395475c78f2e22040be560fc1af885c3daa75c17402153abc1b15ff1b455",
                    "86db1b8754c3bf8e90b540a24dcefb348452cfab4cd43fb45fee621185fde86f"]
