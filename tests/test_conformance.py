"""The conformance suite every registered game must pass (plus the kernel's toy game).

Driven by hypothesis: seeds and bot choices are drawn, games are played to the end with
random legal commands, and every contract of DESIGN.md is checked along the way.
"""

from __future__ import annotations

import random
import string

import msgspec
import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

from arbiter.core import registry, transcript
from arbiter.core.bots import autoplay, bot_step, random_bot
from arbiter.core.engine import Engine
from arbiter.core.errors import ParseError, RuleViolation
from arbiter.core.match import Match, tokens
from arbiter.events.envelope import GENESIS, chain_hash
from arbiter.projections.fold import Cursor, fold
from arbiter.testing import (ZONES, LeakWatch, TraitWatch, check_no_leaks, check_previews, harness, simulate,
                             undo_unless_hidden)
from arbiter.testing.harness import MAX_STEPS, enc

GAME_IDS = [g.id for g in registry.available()]
#: commands a game is watched for leaks (every position is checked, so this is the cost)
LEAK_STEPS = 300

CONF = settings(max_examples=settings().max_examples, deadline=None, derandomize=False,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
#: half the examples each for random and smart players
HALF = settings(CONF, max_examples=max(1, settings().max_examples // 2),
                phases=[Phase.explicit, Phase.reuse, Phase.generate])  # a whole game: no shrinking


def new_match(game_id: str, seed: int, seats: int | None = None) -> Match:
    """A new game; the seat count runs over the game's whole range as the seed varies."""
    return harness.new_match(registry.get(game_id), seed, seats)


def played(game_id: str, seed: int, bot_seed: int, steps: int | None = None) -> Match:
    match = new_match(game_id, seed)
    autoplay(match, {}, random.Random(bot_seed), max_steps=steps or MAX_STEPS)
    return match


seeds = st.integers(min_value=0, max_value=2**40)


@pytest.mark.parametrize("game_id", GAME_IDS)
@CONF
@given(seed=seeds, bot_seed=seeds)
def test_random_legal_play_reaches_the_end(game_id, seed, bot_seed):
    match = played(game_id, seed, bot_seed)
    assert match.outcome() is not None, f"no end after {MAX_STEPS} commands"
    assert match.to_act().kind == "over"
    assert match.legal(match.seats[0]) == []


@pytest.mark.parametrize("game_id", GAME_IDS)
@CONF
@given(seed=seeds, bot_seed=seeds, data=st.data())
def test_replay_and_prefix_folds_equal_live_state(game_id, seed, bot_seed, data):
    match = played(game_id, seed, bot_seed)
    codec = match.codec
    stored = [(s, c, codec.decode(type(e).__name__, type(e).VERSION, codec.encode(e)))
              for s, c, e in match.items]
    assert enc(fold(match.game.projection, stored).state) == enc(match.state)
    cursor = Cursor(match.game.projection, stored, every=16)
    for seq in data.draw(st.lists(st.integers(1, match.seq), min_size=1, max_size=8)):
        assert enc(cursor.at_seq(seq).state) == enc(fold(match.game.projection, stored[:seq]).state)


@pytest.mark.parametrize("game_id", GAME_IDS)
@CONF
@given(seed=seeds, bot_seed=seeds)
def test_same_seed_and_commands_give_identical_events_and_hashes(game_id, seed, bot_seed):
    a = played(game_id, seed, bot_seed, steps=200)
    b = new_match(game_id, seed)
    for seat, text in a.effective_commands():
        b.apply(seat, text)

    def chain(m: Match) -> list[str]:
        prev, out = GENESIS, []
        for s, _c, e in m.items:
            prev = chain_hash(prev, "g", s, type(e).__name__, m.encode(e))
            out.append(prev)
        return out

    assert [a.encode(e) for *_, e in a.items] == [b.encode(e) for *_, e in b.items]
    assert chain(a) == chain(b)


@pytest.mark.parametrize("game_id", GAME_IDS)
@CONF
@given(seed=seeds, bot_seed=seeds, cut=st.integers(1, 150))
def test_undo_never_rerolls(game_id, seed, bot_seed, cut):
    """An undo retracts the move, and the move made again draws the same dice; an undo that
    would leave a seat knowing what the game hides again is refused, the game unchanged."""
    match = new_match(game_id, seed)
    rng = random.Random(bot_seed)
    for _ in range(cut):
        if match.outcome() is not None:
            break
        seat, text = bot_step(match, {}, rng)
    assume(match.folded.top is not None)
    if match.folded.revealed is not None:  # the end revealed the seed: undo is refused
        with pytest.raises(RuleViolation, match="seed is revealed"):
            match.apply(seat, "undo")
        return
    top = match.folded.top
    told = {s: {t for *_x, e in match.log(s, after=top.first_seq - 1) for t in tokens(msgspec.to_builtins(e))}
            for s in match.seats}
    last = match.items[-1][1]
    before = [match.encode(e) for _s, c, e in match.items if c == last]
    draws_before = match.folded.draws
    length = len(match.items)
    try:
        match.apply(seat, "undo")
    except RuleViolation as refused:
        assert refused.rule_id == "ARB-UNDO-HIDDEN", refused
        assert len(match.items) == length and match.folded.top is top
        # it was refused for a reason: the move showed a seat a token hidden before it
        assert any(told[s] & harness.secrets_of(_before(match, top), s, ZONES.get(game_id))
                   for s in match.seats), refused
        return
    # what the undone move showed each seat is no secret from it now (its own seat may have
    # shown others what was its own to keep)
    own = set(tokens(msgspec.to_builtins(match.view(seat))))
    for s in match.seats:
        kept = harness.secrets_of(match, s, ZONES.get(game_id)) - (own if s != seat else set())
        assert not told[s] & kept, f"undo leaves {s} knowing {sorted(told[s] & kept)}"
    assert match.folded.draws <= draws_before
    match.apply(seat, text)
    again = [match.encode(e) for _s, c, e in match.items if c == match.items[-1][1]]
    assert again == before


def _before(match: Match, top) -> Match:
    """``match`` as it stood before the command ``top``."""
    return Match(match.game, [it for it in match.items if it[0] < top.first_seq])


@pytest.mark.parametrize("game_id", GAME_IDS)
@CONF
@given(seed=seeds, bot_seed=seeds)
def test_every_event_round_trips_and_commands_reparse(game_id, seed, bot_seed):
    match = new_match(game_id, seed)
    rng = random.Random(bot_seed)
    steps = 0
    while match.outcome() is None and steps < MAX_STEPS:
        seat = match.to_act().seats[0]
        for command in match.legal(seat)[:20]:
            text = match.game.command_text(command)
            assert match.game.parse(match.state, seat, text) == command, text
        bot_step(match, {}, rng)
        steps += 1
    for _s, _c, ev in match.items:
        back = match.codec.decode(type(ev).__name__, type(ev).VERSION, match.encode(ev))
        assert back == ev


junk = st.one_of(
    st.text(alphabet=string.printable, max_size=40),
    st.lists(st.sampled_from(["move", "attack", "play", "take", "1", "-3", "99", "all", "x",
                              "[", "]", "none", "pass", "undo!"]), max_size=5).map(" ".join),
)


@pytest.mark.parametrize("game_id", GAME_IDS)
@CONF
@given(seed=seeds, bot_seed=seeds, cut=st.integers(0, 120), texts=st.lists(junk, min_size=1, max_size=12))
def test_bad_commands_are_rejected_with_a_rule_id_and_change_nothing(game_id, seed, bot_seed, cut, texts):
    match = new_match(game_id, seed)
    rng = random.Random(bot_seed)
    for _ in range(cut):
        if match.outcome() is not None:
            break
        bot_step(match, {}, rng)
    index = match.game.rules
    waiting = set(match.to_act().seats)
    idle = [s for s in match.seats if s not in waiting]
    probes = [(rng.choice(match.seats), t) for t in texts]
    if idle and match.outcome() is None:
        others = match.legal(rng.choice(sorted(waiting)))
        if others:
            probes.append((idle[0], match.game.command_text(others[0])))
    for seat, text in probes:
        if text.strip().lower() == "undo":
            continue
        before_seq, before_state = match.seq, enc(match.state)
        try:
            match.decide(seat, text)
        except RuleViolation as exc:
            assert exc.rule_id in index, f"{exc.rule_id} is not in the rule index"
        except ParseError as exc:
            assert str(exc)
        else:
            continue  # the text happened to be a legal command
        assert match.seq == before_seq and enc(match.state) == before_state
        with pytest.raises((RuleViolation, ParseError)):
            match.apply(seat, text)
        assert match.seq == before_seq and enc(match.state) == before_state


@pytest.mark.parametrize("players", ["random", "smart"])
@pytest.mark.parametrize("game_id", GAME_IDS)
@HALF
@given(seed=seeds, bot_seed=seeds)
def test_no_seat_learns_a_secret_of_the_referees_state(game_id, players, seed, bot_seed):
    """Views, logs and previews never show a seat what the referee's state keeps from it
    (other seats' hands, face-down decks, dealt agendas, secret options, the seed), whoever
    plays; the game does what its traits say and nothing they deny."""
    game = registry.get(game_id)
    zones = ZONES.get(game_id)
    rng = random.Random(bot_seed)
    previews = [0]

    def preview(match: Match) -> None:
        if previews[0] < 60 and match.outcome() is None and match.seq % 5 == 0:
            previews[0] += check_previews(match, rng, zones)

    simulate(game, seed, bot_seed, smart=players == "smart", max_steps=LEAK_STEPS,
             checks=[LeakWatch(zones), TraitWatch(game.traits, zones), preview])


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_declared_trait_shows_in_play(game_id):
    """What a game declares it does (dice, shuffles, hidden information, simultaneous
    choices, reactions), it does within a few games."""
    game = registry.get(game_id)
    watch = TraitWatch(game.traits, ZONES.get(game_id))
    for seed in range(6):
        simulate(game, seed, seed, checks=[watch], max_steps=MAX_STEPS)
        if watch.seen.as_traits() == game.traits:
            break
    watch.finish()


def leaky(monkeypatch, game_id: str, view=None, redact=None, hidden_from=None) -> None:
    projection = registry.get(game_id).projection
    for name, fn in (("view", view), ("redact", redact), ("hidden_from", hidden_from)):
        if fn is not None:
            monkeypatch.setattr(type(projection), name, fn)


def first(game_id: str, seed: int, until, steps: int = 600) -> Match:
    """A random game played until ``until(match)`` holds."""
    match = new_match(game_id, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if until(match):
            return match
        if match.outcome() is not None:
            break
        bot_step(match, {}, rng)
    raise AssertionError("no such position")


def test_a_view_that_shows_another_seats_agendas_fails_the_leak_check(monkeypatch):
    match = first("monster-derby", 3, lambda m: all(m.state.dealt.values()))
    check_no_leaks(match, ZONES["monster-derby"])
    leaky(monkeypatch, "monster-derby", view=lambda self, state, seat: state)
    with pytest.raises(AssertionError, match="view shows"):
        check_no_leaks(match, ZONES["monster-derby"])


def test_a_game_that_declares_and_redacts_nothing_still_fails(monkeypatch):
    """The secrets come from the referee's state: a game whose view, log and hidden tokens
    hide nothing is caught by its zones."""
    match = first("villainous", 1, lambda m: m.seq > 30)
    check_no_leaks(match, ZONES["villainous"])
    leaky(monkeypatch, "villainous", view=lambda self, state, seat: state,
          redact=lambda self, event, seat, state: event, hidden_from=lambda self, state, seat: set())
    with pytest.raises(AssertionError, match="view shows"):
        check_no_leaks(match, ZONES["villainous"])


def test_a_game_without_zones_is_checked_by_its_views_alone(monkeypatch):
    """With no zones at all, a token one seat's view holds and a spectator's does not is that
    seat's: a view that shows it to another seat fails."""
    match = first("monster-derby", 4, lambda m: all(m.state.dealt.values()))
    check_no_leaks(match)
    honest = type(registry.get("monster-derby").projection).view

    def shows_s1s_agendas(self, state, seat):
        shown = honest(self, state, seat)
        if seat is None:
            return shown
        return msgspec.structs.replace(shown, dealt={**shown.dealt, "s1": state.dealt["s1"]})

    leaky(monkeypatch, "monster-derby", view=shows_s1s_agendas)
    with pytest.raises(AssertionError, match=r"which only s\d may see"):
        check_no_leaks(match)


def test_a_secret_choices_options_shown_to_another_seat_fail(monkeypatch):
    """The mutant that passed the old check: another seat sees a pending secret choice's
    options (in the view and in the log)."""
    def secret_pending(m: Match) -> bool:
        return any(p["secret"] for p in m.state.pending)

    match = next((m for seed in range(40) for m in [first_or_none("villainous", seed, secret_pending)] if m), None)
    assert match is not None, "no secret choice in 40 games"
    check_no_leaks(match, ZONES["villainous"])
    projection = registry.get("villainous").projection
    honest_view, honest_redact = type(projection).view, type(projection).redact

    def view(self, state, seat):
        return msgspec.structs.replace(honest_view(self, state, seat), pending=state.pending)

    def redact(self, event, seat, state):
        if type(event).__name__ == "ChoiceOpened":
            return event
        return honest_redact(self, event, seat, state)

    leaky(monkeypatch, "villainous", view=view)
    with pytest.raises(AssertionError, match="view shows"):
        check_no_leaks(match, ZONES["villainous"])
    monkeypatch.undo()
    leaky(monkeypatch, "villainous", redact=redact)
    with pytest.raises(AssertionError, match="log"):
        check_no_leaks(match, ZONES["villainous"])


def first_or_none(game_id: str, seed: int, until) -> Match | None:
    try:
        return first(game_id, seed, until, steps=400)
    except AssertionError:
        return None


def test_a_seat_that_sees_the_seed_fails_the_leak_check(monkeypatch):
    from arbiter.core import fairness

    match = first("funkoverse-jaws", 2, lambda m: m.seq > 5)
    check_no_leaks(match)
    monkeypatch.setattr(fairness, "redact_created", lambda created: created)
    with pytest.raises(AssertionError, match="seed or salt"):
        check_no_leaks(match)


def test_a_game_that_rolls_without_declaring_dice_fails_its_traits(monkeypatch):
    game = registry.get("funkoverse-jaws")
    monkeypatch.setattr(type(game), "traits", msgspec.structs.replace(game.traits, dice=False))
    with pytest.raises(AssertionError, match="does not declare dice"):
        simulate(game, 1, 1, checks=[TraitWatch(game.traits)], max_steps=200)


def test_a_game_that_hides_without_naming_hidden_tokens_fails_its_traits(monkeypatch):
    game = registry.get("scott-pilgrim")
    monkeypatch.setattr(type(game.projection), "hidden_from", lambda self, state, seat: set())
    watch = TraitWatch(game.traits)
    simulate(game, 1, 1, checks=[watch], max_steps=50)
    with pytest.raises(AssertionError, match="hidden_from never named a token"):
        watch.finish()


@pytest.mark.parametrize("game_id", GAME_IDS)
@CONF
@given(seed=seeds, bot_seed=seeds)
def test_transcript_export_checks_clean_and_folds_to_the_same_state(game_id, seed, bot_seed):
    match = played(game_id, seed, bot_seed, steps=400)
    text = transcript.export(match)
    result = transcript.check(text)
    assert result.ok, f"line {result.line}: {result.error}"
    assert enc(result.match.state) == enc(match.state)
    assert transcript.export(result.match) == text


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_store_replay_equals_live_and_verifies(game_id, tmp_path):
    from arbiter.core.audit import verify_game

    engine = Engine(str(tmp_path / "store.duckdb"))
    game = registry.get(game_id)
    gid, match, _ = engine.new(game_id, seats=[f"s{i}" for i in range(1, game.min_seats + 1)], seed=11)
    rng = random.Random(5)
    steps = 0
    with engine.open() as store:  # one open for the game; each command still commits alone
        while match.outcome() is None and steps < 300:
            seat = match.to_act().seats[0]
            command = random_bot(match.state, seat, match.legal(seat), rng)
            _r, match, _e = engine.do(gid, match.game.command_text(command), seat, store=store)
            steps += 1
    live = enc(match.state)
    with engine.open(read_only=True) as store:
        count = store.query("SELECT count(*), max(gseq) FROM events_log")[1]
    for text in ("", "zzz", "undo undo", "[1 2 3]", "attack", "9999"):
        with pytest.raises((RuleViolation, ParseError)):
            engine.do(gid, text, match.seats[0])
    with engine.open(read_only=True) as store:
        assert store.query("SELECT count(*), max(gseq) FROM events_log")[1] == count
    fresh = Engine(engine.path).load(gid)
    assert enc(fresh.state) == live
    with engine.open(read_only=True) as store:
        report = verify_game(store, gid)
    assert report.ok, report.problems


@pytest.mark.parametrize("game_id", GAME_IDS)
@CONF
@given(seed=seeds, bot_seed=seeds, data=st.data())
def test_the_state_through_any_snapshot_equals_the_fold_from_seq_1(game_id, seed, bot_seed, data):
    """A snapshot taken after any seq, stored and read back, then the rest of the log folded
    onto it: the same state, counters and undo frames as the fold from seq 1."""
    from arbiter.projections.fold import DeeperFold, decode_snapshot, encode_snapshot, same_fold, step

    match = played(game_id, seed, bot_seed, steps=data.draw(st.integers(5, 300), label="steps"))
    projection, items = match.game.projection, match.items
    cursor = Cursor(projection, items)
    for at in data.draw(st.lists(st.integers(1, len(items)), min_size=1, max_size=6), label="at"):
        body = encode_snapshot(projection, cursor.at_seq(at))
        assert body is not None, f"{game_id}'s state cannot be snapshotted"
        folded = decode_snapshot(projection, match.created, body)
        assert same_fold(folded, cursor.at_seq(at))
        try:
            for seq, cid, ev in items[at:]:
                folded = step(projection, folded, seq, cid, ev)
        except DeeperFold:
            continue  # an undo below the frames it kept: a load folds from further back
        assert folded.state == match.state and same_fold(folded, match.folded)


@pytest.mark.parametrize("game_id", GAME_IDS)
@CONF
@given(seed=seeds, bot_seed=seeds, data=st.data())
def test_the_replay_loop_folds_as_step_by_step_undos_included(game_id, seed, bot_seed, data):
    """``fold_on``, the loop a load folds with, gives the very fold :func:`step` gives one
    event at a time (state, counters, every undo frame), from seq 1 and from any fold, with
    undos taken along the way."""
    from arbiter.projections.fold import fold_on, same_fold, step

    match = new_match(game_id, seed)
    rng = random.Random(bot_seed)
    for _ in range(data.draw(st.integers(5, 200), label="steps")):
        if match.outcome() is not None:
            break
        if rng.random() < 0.2 and match.folded.top is not None:
            undo_unless_hidden(match, match.to_act().seats[0])
        else:
            bot_step(match, {}, rng)
    projection, items = match.game.projection, match.items
    one_by_one, folds = None, []
    for seq, cid, ev in items:
        one_by_one = step(projection, one_by_one, seq, cid, ev)
        folds.append(one_by_one)
    assert same_fold(fold_on(projection, None, items), one_by_one, depth=len(items))
    at = data.draw(st.integers(1, len(items)), label="at")
    assert same_fold(fold_on(projection, folds[at - 1], items[at:]), one_by_one, depth=len(items))
