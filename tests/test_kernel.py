"""The kernel on its own: dice, manual dice, whose decision, secrets, undo, cursor, upcasting."""

from __future__ import annotations

import gc
import hashlib

import pytest

import toygame
from arbiter.core.dice import Rng, seeded_faces, seeded_order
from arbiter.core.errors import BadOption, ManualDiceError, ParseError, RuleViolation
from arbiter.core.match import Match
from arbiter.events.base import DiceRolled, Event, Shuffled
from arbiter.events.codec import UPCASTERS, Codec, register_upcaster
from arbiter.projections.fold import Cursor, few_collections, fold


def new(**kw) -> Match:
    return Match.new(toygame.GAME, seed=kw.pop("seed", 1), seats=["ann", "bob"], **kw)


def test_the_dice_formula_in_the_readme_recomputes_a_roll():
    def u64(seed, stream, n, i):
        d = hashlib.blake2b(f"{seed}/{stream}/{n}/{i}".encode(), key=b"arbiter-dice-v1", digest_size=8)
        return int.from_bytes(d.digest(), "big")

    faces = ["1", "2", "3", "4", "5", "6"]
    assert seeded_faces(99, 7, [faces, faces]) == tuple(faces[u64(99, "roll", 7, i) % 6] for i in range(2))
    items = sorted(["c", "a", "b", "d"])
    order = list(items)
    for i in range(len(order) - 1, 0, -1):
        j = u64(5, "shuffle", 3, i) % (i + 1)
        order[i], order[j] = order[j], order[i]
    assert seeded_order(5, 3, items) == tuple(order)


def test_rolls_are_counter_based_and_shuffles_ignore_input_order():
    rng = Rng(7, 10, {"d6": tuple("123456")})
    a, b = rng.roll(["d6"] * 3), rng.roll(["d6"])
    assert (a.n, b.n) == (10, 11)
    assert Rng(7, 10, {"d6": tuple("123456")}).roll(["d6"] * 3) == a
    s1 = Rng(1, 0, {}).shuffle("deck", ["x", "y", "z"])
    s2 = Rng(1, 0, {}).shuffle("deck", ["z", "x", "y"])
    assert s1.order == s2.order and sorted(s1.order) == ["x", "y", "z"]
    faces = [Rng(s, 0, {"d6": tuple("123456")}).roll(["d6"]).faces[0] for s in range(600)]
    assert all(80 <= faces.count(f) <= 120 for f in "123456")


def test_manual_dice_take_the_faces_from_the_command():
    m = new(dice="manual")
    m.apply("ann", "bid 2")
    with pytest.raises(ManualDiceError, match="give their faces"):
        m.apply("bob", "bid 1")
    with pytest.raises(ManualDiceError, match="not a face of the d6"):
        m.apply("bob", "bid 1 [7]")
    with pytest.raises(ManualDiceError, match="left over"):
        m.apply("bob", "bid 1 [4 5]")
    events = m.apply("bob", "bid 1 [4]")
    roll = next(e for e in events if isinstance(e, DiceRolled))
    assert roll.manual and roll.faces == ("4",)
    assert m.state.scores["ann"] == 4
    assert m.effective_commands()[-1] == ("bob", "bid 1 [4]")


def test_seeded_games_refuse_typed_faces():
    m = new()
    m.apply("ann", "bid 2")
    with pytest.raises(ManualDiceError, match="seeded"):
        m.apply("bob", "bid 1 [4]")


def test_whose_decision_simultaneous_then_reaction():
    m = new()
    assert m.to_act().kind == "simultaneous" and set(m.to_act().seats) == {"ann", "bob"}
    m.apply("bob", "bid 3")
    assert m.to_act().seats == ("ann",)
    with pytest.raises(RuleViolation) as exc:
        m.apply("bob", "bid 1")
    assert exc.value.rule_id == "ARB-TURN"
    m.apply("ann", "bid 0")
    who = m.to_act()
    assert who.kind == "reaction" and who.seats == ("ann",)
    with pytest.raises(ParseError):
        Match.resolve_seat(m, "zed")


def test_a_secret_choice_stays_hidden_until_revealed():
    m = new()
    m.apply("bob", "bid 3")
    ann_view = m.view("ann")
    assert ann_view.bids["bob"] == -1
    assert [e.bid for _s, _a, e in m.log("ann") if isinstance(e, toygame.BidMade)] == [-1]
    assert [e.bid for _s, _a, e in m.log("bob") if isinstance(e, toygame.BidMade)] == [3]
    shuffled = [e for _s, _a, e in m.log("ann") if isinstance(e, Shuffled)][0]
    assert set(shuffled.order) == {"?"}
    m.apply("ann", "bid 1")
    assert m.view("ann").bids["bob"] == 3


def test_undo_pops_commands_but_never_setup():
    m = new()
    with pytest.raises(RuleViolation) as exc:
        m.apply("ann", "undo")
    assert exc.value.rule_id == "ARB-UNDO-NOTHING"
    m.apply("ann", "bid 1")
    m.apply("bob", "bid 1")  # a tie: no roll
    m.apply("ann", "undo")
    m.apply("ann", "undo")
    assert m.state.bids == {} and m.folded.top is None
    assert len(m.effective_commands()) == 0


def test_cursor_snapshots_match_prefix_folds():
    m = new(options={"target": "40"})
    import random

    from arbiter.core.bots import autoplay

    autoplay(m, {}, random.Random(3))
    cursor = Cursor(m.game.projection, m.items, every=8)
    for seq in (1, 2, 9, 17, m.seq // 2, m.seq):
        assert cursor.at_seq(seq).state == fold(m.game.projection, m.items[:seq]).state


def test_options_are_checked_and_recorded():
    with pytest.raises(BadOption, match="at most 50"):
        new(options={"target": "99"})
    with pytest.raises(BadOption, match="no option"):
        new(options={"speed": "2"})
    m = new(options={"target": "12"})
    assert m.created.options == {"target": 12}


class Tally(Event, frozen=True):
    VERSION = 2
    points: int
    reason: str


def test_old_event_versions_are_upcast():
    @register_upcaster("Tally", 1)
    def v1_to_v2(raw):
        return {**raw, "reason": "legacy", "points": raw.pop("pts")}

    try:
        codec = Codec((Tally,))
        old = codec.decode("Tally", 1, b'{"type":"Tally","pts":3}')
        assert old == Tally(points=3, reason="legacy")
        assert codec.decode("Tally", 2, codec.encode(old)) == old
        with pytest.raises(ValueError, match="newer arbiter"):
            codec.decode("Tally", 3, b'{"type":"Tally"}')
    finally:
        UPCASTERS.pop(("Tally", 1), None)


def test_a_game_may_rule_on_a_command_out_of_turn(monkeypatch):
    m = new()
    m.apply("ann", "bid 1")
    with pytest.raises(RuleViolation) as exc:
        m.apply("ann", "bid 2")
    assert exc.value.rule_id == "ARB-TURN"
    monkeypatch.setattr(toygame.GAME, "out_of_turn",
                        lambda state, seat, command: RuleViolation("DUEL-BID", "one bid a round"))
    with pytest.raises(RuleViolation) as exc:
        m.apply("ann", "bid 2")
    assert exc.value.rule_id == "DUEL-BID"
    with pytest.raises(RuleViolation) as exc:  # not a command at all: the turn comes first
        m.apply("ann", "dance")
    assert exc.value.rule_id == "ARB-TURN"


def test_manual_left_counts_unused_faces():
    rng = Rng(1, 0, {"d6": tuple("123456")}, manual=["4", "5"])
    rng.roll(["d6"])
    assert rng.manual_left() == 1 and Rng(1, 0, {}).manual_left() is None


@pytest.mark.parametrize("kind", ["funkoverse-jaws", "my-little-scythe"])
def test_a_replay_loop_folds_as_step_does_whichever_way_evolve_is_made(kind):
    """fold_on calls the function ``by_type`` found for each event itself (bound to the
    projection for a table of methods, as Funkoverse Jaws has; plain functions for My Little
    Scythe): every state it makes, undos included, is the one stepping event by event makes,
    and the one a projection whose evolve is its own (no table) makes."""
    import random

    from arbiter.core import registry
    from arbiter.projections.fold import fold_on, same_fold, step
    from arbiter.testing import undo_unless_hidden

    game = registry.get(kind)
    m = Match.new(game, seed=4, seats=game.default_seats(2))
    rng = random.Random(4)
    for i in range(120):
        if m.outcome() is not None:
            break
        if i % 17 == 16 and m.folded.top is not None:
            undo_unless_hidden(m, m.to_act().seats[0])
            continue
        seat = m.to_act().seats[0]
        m.apply(seat, game.command_text(rng.choice(m.legal(seat))))

    class Own:  # the same projection, its evolve a plain method of its own
        def __init__(self, p):
            self.p = p

        def initial(self, created):
            return self.p.initial(created)

        def evolve(self, state, event):
            return self.p.evolve(state, event)

    assert getattr(game.projection.evolve, "by_type", None) is not None
    stepped = None
    for n, item in enumerate(m.items, 1):
        stepped = step(game.projection, stepped, *item)
        if n % 25 == 0 or n == len(m.items):
            looped = fold_on(game.projection, None, m.items[:n])
            assert same_fold(looped, stepped, depth=1000) and looped.state == stepped.state
            assert same_fold(fold_on(Own(game.projection), None, m.items[:n]), stepped, depth=1000)


def test_what_a_fold_keeps_goes_to_the_oldest_generation_untraced():
    """At the end of a fold's relaxed collector settings, what it made and keeps is not traced
    by a young collection (the usual threshold would run one at once): it is already old."""
    gc.collect()
    started: list[int] = []

    def seen(phase: str, info: dict) -> None:
        if phase == "start":
            started.append(info["generation"])

    gc.callbacks.append(seen)
    try:
        with few_collections():
            kept = [[i] for i in range(5_000)]
        more = [[i] for i in range(100)]  # past the usual threshold's count, had it not been reset
    finally:
        gc.callbacks.remove(seen)
    assert started == [] and len(kept) + len(more) == 5_100
    assert any(o is kept for o in gc.get_objects(generation=2))
