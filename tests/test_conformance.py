"""The conformance suite every registered game must pass (plus the kernel's toy game).

Driven by hypothesis: seeds and bot choices are drawn, games are played to the end with
random legal commands, and every contract of DESIGN.md is checked along the way.
"""

from __future__ import annotations

import random
import string

import msgspec
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from arbiter.core import registry, transcript
from arbiter.core.bots import autoplay, bot_step, random_bot
from arbiter.core.engine import Engine
from arbiter.core.errors import ParseError, RuleViolation
from arbiter.core.match import Match, tokens
from arbiter.events.base import DiceRolled, SeedRevealed, Shuffled
from arbiter.events.envelope import GENESIS, chain_hash
from arbiter.projections.fold import Cursor, fold
from arbiter.projections.kernel import REFEREE

GAME_IDS = [g.id for g in registry.available()]
MAX_STEPS = 3000

CONF = settings(max_examples=settings().max_examples, deadline=None, derandomize=False,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def enc(obj) -> bytes:
    return msgspec.json.encode(obj)


def new_match(game_id: str, seed: int, seats: int | None = None) -> Match:
    """A new game; the seat count runs over the game's whole range as the seed varies."""
    game = registry.get(game_id)
    n = seats if seats is not None else game.min_seats + seed % (game.max_seats - game.min_seats + 1)
    return Match.new(game, seed=seed, seats=[f"s{i}" for i in range(1, n + 1)],
                     options=dict(game.random_play_options))


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
    last = match.items[-1][1]
    before = [match.encode(e) for _s, c, e in match.items if c == last]
    draws_before = match.folded.draws
    match.apply(seat, "undo")
    assert match.folded.draws <= draws_before
    match.apply(seat, text)
    again = [match.encode(e) for _s, c, e in match.items if c == match.items[-1][1]]
    assert again == before


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


def public_part(obj):
    """Everything but the component catalogue: a top-level ``content`` field (in a state, or
    in GameCreated) lists what is in the box, which every seat may know."""
    if isinstance(obj, dict):
        return {k: v for k, v in obj.items() if k != "content"}
    return obj


@pytest.mark.parametrize("game_id", GAME_IDS)
@CONF
@given(seed=seeds, bot_seed=seeds)
def test_hidden_information_never_leaks(game_id, seed, bot_seed):
    match = new_match(game_id, seed)
    rng = random.Random(bot_seed)
    steps = 0
    while match.outcome() is None and steps < MAX_STEPS:
        for seat in (*match.seats, None):
            secret = match.game.projection.hidden_from(match.state, seat)
            if not secret:
                continue
            view = enc(public_part(msgspec.to_builtins(match.view(seat)))).decode()
            log = enc([public_part(msgspec.to_builtins(e)) for *_, e in match.log(seat)]).decode()
            for token in secret:
                assert token not in view, f"{token!r} leaks into {seat}'s view"
                assert token not in log, f"{token!r} leaks into {seat}'s log"
        bot_step(match, {}, rng)
        steps += 1
    assert match.view(REFEREE) == match.state


@pytest.mark.parametrize("game_id", GAME_IDS)
@CONF
@given(seed=seeds, bot_seed=seeds)
def test_previews_never_tell_a_draw_the_seat_has_not_seen(game_id, seed, bot_seed):
    """A dry run shows no card or value hidden from the seat, no roll it has not seen, no
    shuffle and no reveal, and nothing the command decides after its first hidden draw."""
    match = new_match(game_id, seed)
    rng = random.Random(bot_seed)
    steps = previews = 0
    while match.outcome() is None and steps < MAX_STEPS and previews < 60:
        if steps % 5 == 0:
            seat = rng.choice(match.to_act().seats)
            legal = match.legal_texts(seat)
            hidden = match.game.projection.hidden_from(match.state, seat)
            seen = {e.n for *_, e in match.log(seat) if isinstance(e, DiceRolled)}
            for text in rng.sample(legal, min(3, len(legal))):
                _s, _c, events = match.decide(seat, text)
                shown, rest = match.blind_preview(events, seat)
                previews += 1
                told = {t for e in shown for t in tokens(public_part(msgspec.to_builtins(e)))}
                assert not told & hidden, f"{text!r}: the preview names {sorted(told & hidden)}"
                for e in shown:
                    assert not isinstance(e, (SeedRevealed, Shuffled)), text
                    assert not isinstance(e, DiceRolled) or e.manual or e.n in seen, f"{text!r} tells roll {e.n}"
                blind = next((i for i, e in enumerate(events) if isinstance(e, (Shuffled, SeedRevealed))
                              or (isinstance(e, DiceRolled) and not e.manual and e.n not in seen)), None)
                if blind is not None:
                    assert len(shown) <= blind and rest, f"{text!r}: the preview runs past a hidden draw"
        bot_step(match, {}, rng)
        steps += 1


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
