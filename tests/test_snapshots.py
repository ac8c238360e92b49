"""Snapshots of folded state: a cache that loads long games quickly and changes no answer.
Every test runs on both stores."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from arbiter.cli.bench import long_match, unending_move
from arbiter.core import registry
from arbiter.core.engine import SNAPSHOT_EVERY, Engine
from arbiter.core.match import Match
from arbiter.core.snapshots import snapshot_warnings
from arbiter.events.store import OldStore
from arbiter.projections.fold import SNAPSHOT_DEPTH, fold, decoded, same_fold
from storehelp import make_v3, raw

GAME = "monster-derby"


@pytest.fixture
def engine(store_url):
    return Engine(store_url, lock_timeout=5)


def whole(engine: Engine, gid: str, upto: int | None = None):
    """The fold from seq 1, as an audit makes it."""
    with engine.open(read_only=True) as store:
        game = registry.get(store.game(gid).kind)
        return fold(game.projection, decoded(game.codec, store.envelopes(gid, upto=upto)))


def fresh(engine: Engine) -> Engine:
    """Another process's engine: nothing cached."""
    return Engine(engine.path, lock_timeout=5)


def play(engine: Engine, gid: str, n: int, seed: int = 1, undo: float = 0.0) -> None:
    rng = random.Random(seed)
    for _ in range(n):
        m = fresh(engine).load(gid)
        move = unending_move(m, rng)
        if move is None or rng.random() < undo:
            fresh(engine).do(gid, "undo", m.to_act().seats[0])
        else:
            fresh(engine).do(gid, move[1], move[0])


@pytest.fixture
def long_game(engine):
    with engine.open() as store:
        gid = engine.store_match(store, long_match(GAME, 3 * SNAPSHOT_EVERY, seed=4))
    play(engine, gid, 40, seed=2, undo=0.15)
    return gid


def snapshot_seqs(engine: Engine, gid: str) -> list[int]:
    with engine.open(read_only=True) as store:
        return sorted(r[0] for r in store.snapshots(gid))


def test_do_writes_snapshots_and_a_load_folds_only_the_tail(engine, long_game):
    seqs = snapshot_seqs(engine, long_game)
    assert len(seqs) >= 2 and all(b - a >= SNAPSHOT_EVERY for a, b in zip(seqs, seqs[1:]))
    m = fresh(engine).load(long_game)
    assert m.snapshot_seq == seqs[-1] and m._base == seqs[-1]  # nothing before it was read
    assert same_fold(m.folded, whole(engine, long_game))
    # what needs the whole log still reads it all
    assert [s for s, _c, _e in m.items] == list(range(1, m.seq + 1))


def test_the_state_through_any_snapshot_equals_the_fold_from_seq_1(engine, long_game):
    head = fresh(engine).load(long_game).seq
    for at in list(range(1, head + 1, 13)) + [head]:
        m = fresh(engine).load(long_game, upto=at)
        assert m.seq == at and same_fold(m.folded, whole(engine, long_game, at)), at


def test_deleting_every_snapshot_changes_no_answer(engine, long_game):
    before = fresh(engine).load(long_game)
    raw(engine.path, "DELETE FROM snapshots")
    after = fresh(engine).load(long_game)
    assert after.snapshot_seq == 0 and same_fold(before.folded, after.folded)
    assert before.legal_texts(before.to_act().seats[0]) == after.legal_texts(after.to_act().seats[0])
    play(engine, long_game, 1)  # the next command writes one again
    assert snapshot_seqs(engine, long_game)


def test_a_tampered_snapshot_is_passed_over_and_verify_warns(engine, long_game, tmp_path):
    seq = snapshot_seqs(engine, long_game)[-1]
    body = raw(engine.path, "SELECT body FROM snapshots WHERE game_id = ? AND seq = ?", [long_game, seq])[0][0]
    edited = bytes(body[:-1]) + bytes([body[-1] ^ 1])
    raw(engine.path, "UPDATE snapshots SET body = ? WHERE game_id = ? AND seq = ?", [edited, long_game, seq])
    m = fresh(engine).load(long_game)
    assert m.snapshot_seq < seq and same_fold(m.folded, whole(engine, long_game))
    with engine.open(read_only=True) as store:
        warned = snapshot_warnings(store, long_game)
    assert [s for s, _t in warned] == [seq] and "fails its tag" in warned[0][1]
    out = subprocess.run([sys.executable, "-c", "from arbiter.cli.app import main; main()",
                          "--db", engine.path, "verify", long_game],
                         capture_output=True, text=True, env={"ARBITER_HOME": str(tmp_path), "PATH": ""})
    assert out.returncode == 0, out.stderr  # a cache that fails is not a failed ledger
    assert "warning" in out.stderr and f"after seq {seq}" in out.stderr and "verified" in out.stderr


def test_a_snapshot_of_another_state_with_a_forged_tag_is_reported(engine, long_game):
    from arbiter.events.store import snapshot_tag

    seqs = snapshot_seqs(engine, long_game)
    older = raw(engine.path, "SELECT body FROM snapshots WHERE game_id = ? AND seq = ?", [long_game, seqs[0]])[0][0]
    seq, h, version = raw(engine.path, "SELECT seq, event_hash, version FROM snapshots WHERE game_id = ?"
                          " AND seq = ?", [long_game, seqs[-1]])[0]
    raw(engine.path, "UPDATE snapshots SET body = ?, tag = ? WHERE game_id = ? AND seq = ?",
        [bytes(older), snapshot_tag(long_game, seq, h, version, bytes(older)), long_game, seq])
    with engine.open(read_only=True) as store:
        warned = snapshot_warnings(store, long_game)
    assert [s for s, _t in warned] == [seq] and "does not fold to" in warned[0][1]


def test_a_snapshot_after_a_changed_log_is_passed_over(engine, long_game):
    seq = snapshot_seqs(engine, long_game)[-1]
    raw(engine.path, "UPDATE snapshots SET event_hash = ? WHERE game_id = ? AND seq = ?", ["0" * 64, long_game, seq])
    m = fresh(engine).load(long_game)
    assert m.snapshot_seq != seq and same_fold(m.folded, whole(engine, long_game))
    with engine.open(read_only=True) as store:
        assert any(s == seq for s, _t in snapshot_warnings(store, long_game))


def test_other_rules_invalidate_snapshots(engine, long_game, monkeypatch):
    """Snapshots taken under other rules are passed over: stale, not wrong, so the audit
    warns of nothing. `verify` said nothing at all, and read-only verbs went on folding those
    games from seq 1; it now adds a hint (not a failure: the exit code is the same) naming
    the command that takes them again."""
    from typer.testing import CliRunner

    from arbiter.cli.app import app

    game = registry.get(GAME)
    monkeypatch.setattr(type(game), "rules_version", game.rules_version + "-next")
    m = fresh(engine).load(long_game)
    assert m.snapshot_seq == 0 and same_fold(m.folded, whole(engine, long_game))
    with engine.open(read_only=True) as store:
        assert snapshot_warnings(store, long_game) == []  # stale, not wrong
    runner = CliRunner()
    hint = f"hint: the snapshots of {long_game} were taken under other rules or another engine"
    one = runner.invoke(app, ["--db", engine.path, "verify", long_game])
    assert one.exit_code == 0 and hint in one.output and "warning" not in one.output, one.output
    assert f"`arbiter migrate --rebuild-snapshots {long_game}` writes them again" in " ".join(one.output.split())
    with engine.open() as store:
        other = engine.store_match(store, long_match(GAME, 2 * SNAPSHOT_EVERY, seed=5))
    assert snapshot_seqs(engine, other)  # taken under today's (patched) rules
    every = runner.invoke(app, ["--db", engine.path, "verify", "--all", "--jobs", "1"])
    assert every.exit_code == 0 and "hint: the snapshots of 1 games" not in every.output
    assert f"hint: the snapshots of {long_game} were" in every.output, every.output
    assert "hint" not in runner.invoke(app, ["--db", engine.path, "verify", other]).output
    monkeypatch.setattr(type(game), "rules_version", game.rules_version + "-later")
    both = runner.invoke(app, ["--db", engine.path, "verify", "--all", "--jobs", "1"])
    assert both.exit_code == 0 and "hint: the snapshots of 2 games were taken" in both.output, both.output
    assert "`arbiter migrate --rebuild-snapshots` writes them again" in " ".join(both.output.split())
    rebuilt = runner.invoke(app, ["--db", engine.path, "migrate", "--rebuild-snapshots"])
    assert rebuilt.exit_code == 0, rebuilt.output
    again = runner.invoke(app, ["--db", engine.path, "verify", "--all", "--jobs", "1"])
    assert again.exit_code == 0 and "hint" not in again.output, again.output


def test_undo_across_a_snapshot_boundary(engine, long_game):
    rng = random.Random(9)
    for _ in range(SNAPSHOT_EVERY):  # moves only, so a snapshot lands among them
        m = fresh(engine).load(long_game)
        move = unending_move(m, rng)
        if move is None:
            break
        fresh(engine).do(long_game, move[1], move[0])
    base = fresh(engine).load(long_game).snapshot_seq
    assert base > 0
    # undo well past the frames the snapshot kept, each in a process of its own
    for i in range(SNAPSHOT_DEPTH + 6):
        m = fresh(engine).load(long_game)
        if m.folded.top is None:
            break
        fresh(engine).do(long_game, "undo", m.to_act().seats[0])
        assert same_fold(fresh(engine).load(long_game).folded, whole(engine, long_game)), i
    # and the same undos on one engine that keeps its match in memory
    with engine.open() as store:
        gid = engine.store_match(store, long_match(GAME, 2 * SNAPSHOT_EVERY, seed=8))
    for _ in range(SNAPSHOT_DEPTH + 4):
        engine.do(gid, "undo", engine.load(gid).to_act().seats[0])
    assert same_fold(engine.load(gid).folded, whole(engine, gid))


def test_status_is_written_by_the_append_itself(engine, monkeypatch):
    gid, match, _ = engine.new("duel", seats=["ann", "bob"], seed=3, options={"target": "1"})
    with engine.open() as store:
        monkeypatch.setattr(type(store), "set_status",
                            lambda *a, **k: pytest.fail("status written after the append"))
        rng = random.Random(1)
        while match.outcome() is None:
            seat = match.to_act().seats[0]
            _r, match, _e = engine.do(gid, rng.choice(match.legal_texts(seat)), seat, store=store)
        row = store.game(gid)
    assert row.status == "over" and row.winner == ",".join(match.outcome().winners)


def test_a_v2_store_is_refused_until_migrate_adds_the_snapshots_table(engine, long_game, tmp_path):
    make_v3(engine.path)
    raw(engine.path, "DROP TABLE snapshots")
    raw(engine.path, "UPDATE meta SET value = '2' WHERE key = 'schema_version'")
    with pytest.raises(OldStore, match="migrate"):
        fresh(engine).load(long_game)
    out = subprocess.run([sys.executable, "-c", "from arbiter.cli.app import main; main()",
                          "--db", engine.path, "migrate"],
                         capture_output=True, text=True, env={"ARBITER_HOME": str(tmp_path), "PATH": ""})
    assert out.returncode == 0 and "added the snapshots table" in out.stdout, out.stderr
    assert same_fold(fresh(engine).load(long_game).folded, whole(engine, long_game))
    play(engine, long_game, 1)
    assert snapshot_seqs(engine, long_game)


def test_a_game_played_in_one_engine_from_its_creation_exports_the_same_commands(engine):
    """One engine creates the game and plays it past a snapshot (as `play` does): the
    snapshot names the setup command as stored, so a later load lists the same commands
    as the fold from seq 1 (no "setup" line in the transcript)."""
    gid, match, _ = engine.new(GAME, seats=["ann", "bob"], seed=9)
    rng = random.Random(3)
    while match.seq < SNAPSHOT_EVERY + 10:
        move = unending_move(match, rng)
        assert move is not None
        _r, match, _e = engine.do(gid, move[1], move[0])
    assert snapshot_seqs(engine, gid)
    loaded = fresh(engine).load(gid)
    with engine.open(read_only=True) as store:
        full = Engine._fold_whole(fresh(engine), store, gid, registry.get(GAME), None)
    assert loaded.effective_commands() == full.effective_commands()
    assert all(seat is not None for seat, _t in loaded.effective_commands())


# -- fork and replay start from the nearest snapshot -------------------------------------


def counting(monkeypatch, obj, name: str) -> list[int]:
    """Count the calls of ``obj``'s method ``name`` (on its class, so every match sees it)."""
    calls = [0]
    original = getattr(type(obj), name)

    def counted(self, *args, **kwargs):
        calls[0] += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(type(obj), name, counted)
    return calls


@pytest.fixture
def longer_game(engine):
    """A game of some 6 snapshot spans, played on by commands with undos among them."""
    with engine.open() as store:
        gid = engine.store_match(store, long_match(GAME, 6 * SNAPSHOT_EVERY, seed=6))
    play(engine, gid, SNAPSHOT_EVERY + 10, seed=3, undo=0.2)
    return gid


def command_ends(engine: Engine, gid: str) -> list[tuple[int, str]]:
    with engine.open(read_only=True) as store:
        return [(last, text) for _c, _s, text, _f, last in store.commands(gid)]


def contents(engine: Engine, fid: str) -> tuple[list, list]:
    """A fork's events and commands, without its game id."""
    with engine.open(read_only=True) as store:
        envs = store.envelopes(fid)
        cmds = store.commands(fid)
    return ([(e.seq, e.type, e.actor, e.command_id.split("/", 1)[1], e.payload) for e in envs],
            [(c.split("/", 1)[1], seat, text, first, last) for c, seat, text, first, last in cmds])


def test_fork_starts_from_the_nearest_snapshot_and_forks_as_from_seq_1(engine, longer_game, monkeypatch):
    from arbiter.core import audit

    ends = command_ends(engine, longer_game)
    undone = [last for last, text in ends if text == "undo"]
    assert undone, "the game should have undos"
    # late points, one just after an undo and one just before it (its move undone later)
    points = sorted({ends[-1][0], ends[-6][0], undone[-1], undone[-1] - 1})
    game = registry.get(GAME)
    copied = {}
    for at in points:
        evolves = counting(monkeypatch, game.projection, "evolve")
        decides = counting(monkeypatch, game, "decide")
        fid, fork = fresh(engine).fork(longer_game, at)
        monkeypatch.undo()
        # from the snapshots (the original's, at its head and before the point), never seq 1
        assert decides[0] == 0 and evolves[0] < 2 * SNAPSHOT_EVERY + 40 < at, (at, evolves[0])
        assert fork.state == whole(engine, longer_game, at).state
        copied[at] = contents(engine, fid)
        with engine.open(read_only=True) as store:
            assert audit.verify_game(store, fid).ok and snapshot_warnings(store, fid) == []
    raw(engine.path, "DELETE FROM snapshots WHERE game_id = ?", [longer_game])
    for at in points:  # every command decided again from seq 1: the same fork
        fid, fork = fresh(engine).fork(longer_game, at)
        assert contents(engine, fid) == copied[at], at
        assert fork.state == whole(engine, longer_game, at).state


def test_replay_folds_from_the_nearest_snapshot_and_shows_what_a_fold_from_seq_1_shows(engine, longer_game, monkeypatch):
    from typer.testing import CliRunner

    from arbiter.cli.app import app

    head = fresh(engine).load(longer_game).seq
    ends = [last for last, _t in command_ends(engine, longer_game)]

    def replay(at: int, keys: str, seat: str = "referee") -> str:
        out = CliRunner().invoke(app, ["--db", engine.path, "replay", longer_game, "--at", str(at), "--as", seat],
                                 input=keys, env={"COLUMNS": "200"})
        assert out.exit_code == 0, out.output
        return out.output

    game = registry.get(GAME)
    evolves = counting(monkeypatch, game.projection, "evolve")
    replay(head - 3, "q\n")  # the load, then one position: from the snapshots, not seq 1
    assert evolves[0] < 3 * SNAPSHOT_EVERY + 20 < head, evolves[0]
    monkeypatch.undo()
    late = replay(head - 3, "p\nn\nn\nn\nC\nq\n")
    keys = "p\nn\nc\nC\nt\nT\ng 40\nn\ne\np\ns\nq\n"
    stepped = {seat: replay(ends[-4], keys, seat) for seat in ("referee", "p2")}
    raw(engine.path, "DELETE FROM snapshots WHERE game_id = ?", [longer_game])
    assert replay(head - 3, "p\nn\nn\nn\nC\nq\n") == late
    assert {seat: replay(ends[-4], keys, seat) for seat in ("referee", "p2")} == stepped


def test_undo_reads_only_the_command_it_takes_back(engine, longer_game, monkeypatch):
    """`undo` and `do ... undo` name the move they took back ("undid p1's move `roll`")
    from that command's own events, not from the whole history."""
    from typer.testing import CliRunner

    from arbiter.cli.app import app

    def undo(*args: str) -> tuple[str, int]:
        read[0] = 0
        out = CliRunner().invoke(app, ["--db", engine.path, *args])
        assert out.exit_code == 0, out.output
        return out.output, read[0]

    head = fresh(engine).load(longer_game).seq
    read = reads(monkeypatch, engine)
    said = []
    below = 0  # undos of a command older than the snapshot the game loads from
    for args in 3 * (["undo", longer_game], ["do", longer_game, "undo"], ["undo", longer_game, "--as", "p1"]):
        m = fresh(engine).load(longer_game)
        if m.folded.top is None:
            break  # what is left to undo lies below the snapshot's frames: a longer fold
        below += m.folded.top.first_seq <= m.snapshot_seq
        out, n = undo(*args)
        assert n < 2 * SNAPSHOT_EVERY < head, (args, n)
        said.append(out.split("(seq")[0] if args[0] == "undo" else out.split("\n")[0])
    assert below and all(s.startswith("undid ") or "• undid" in s for s in said), said
    assert all("the move at seq" not in s for s in said), said


# -- what one command of a long game reads: the tail, never the whole history -------------


def reads(monkeypatch, engine: Engine) -> list[int]:
    """Count the events the store hands out (every read of the log goes through
    ``envelopes`` or, for a fold, ``log_text`` or ``log_rows``)."""
    with engine.open(read_only=True) as store:
        store_type = type(store)
    read = [0]

    def counter(original, size):
        def counted(self, *args, **kwargs):
            out = original(self, *args, **kwargs)
            read[0] += size(out)
            return out
        return counted

    for name, size in (("envelopes", len), ("log_text", lambda log: log.count),
                       ("log_rows", lambda rows_hash: len(rows_hash[0]))):
        monkeypatch.setattr(store_type, name, counter(getattr(store_type, name), size))
    return read


def cli(engine: Engine, *args: str) -> str:
    from typer.testing import CliRunner

    from arbiter.cli.app import app

    out = CliRunner().invoke(app, ["--db", engine.path, *args], env={"COLUMNS": "200"})
    assert out.exit_code == 0, (args, out.output)
    return out.output


def test_do_on_a_long_game_reads_and_folds_only_the_tail(engine, longer_game, monkeypatch):
    """`do` costs the same at seq 400 as at seq 40: it reads the events after the newest
    snapshot and folds those and its own, through the snapshot it writes on the way."""
    game = registry.get(GAME)
    head = fresh(engine).load(longer_game).seq
    before = snapshot_seqs(engine, longer_game)
    rng = random.Random(9)
    read = reads(monkeypatch, engine)
    evolves = counting(monkeypatch, game.projection, "evolve")
    worst = (0, 0)
    for _ in range(30):
        move = unending_move(fresh(engine).load(longer_game), rng)
        if move is None:
            break
        read[0] = evolves[0] = 0
        cli(engine, "do", longer_game, "--as", move[0], move[1])
        worst = (max(worst[0], read[0]), max(worst[1], evolves[0]))
    assert snapshot_seqs(engine, longer_game) != before  # one was written at the head meanwhile
    assert worst[0] <= SNAPSHOT_EVERY + 10 < head and worst[1] <= 2 * SNAPSHOT_EVERY + 20 < head, worst
    monkeypatch.undo()
    assert same_fold(fresh(engine).load(longer_game).folded, whole(engine, longer_game))


def test_try_reads_the_dice_a_seat_saw_by_draw_not_the_whole_log(engine, longer_game, monkeypatch):
    """A dry run shows what the seat may see of the rolls it has already seen (an undo
    keeps them seen); finding those asks the store for rolls from the trial's draw on."""
    head = fresh(engine).load(longer_game).seq
    ends = [last for last, _t in command_ends(engine, longer_game)]
    rng = random.Random(4)
    asks = []
    for at in (None, ends[-8]):
        m = fresh(engine).load(longer_game, upto=at)
        move = unending_move(m, rng)
        assert move is not None
        at_args = [] if at is None else ["--at", str(at)]
        for seat in (move[0], "referee"):
            asks.append(["try", longer_game, move[1], "--as", seat, *at_args])
    read = reads(monkeypatch, engine)
    said = []
    for args in asks:
        read[0] = 0
        said.append(cli(engine, *args))
        assert read[0] < 3 * SNAPSHOT_EVERY < head, (args, read[0])
    monkeypatch.undo()
    raw(engine.path, "DELETE FROM snapshots WHERE game_id = ?", [longer_game])
    assert [cli(engine, *args) for args in asks] == said  # what a fold from seq 1 says


def test_a_log_from_before_the_snapshot_reads_only_from_there(engine, longer_game, monkeypatch):
    game = registry.get(GAME)
    m = fresh(engine).load(longer_game)
    assert m.snapshot_seq > 100
    with engine.open(read_only=True) as store:
        envs = store.envelopes(longer_game)
    full = Match(game, list(decoded(game.codec, envs)), {e.seq: e.actor for e in envs})
    read = reads(monkeypatch, engine)
    after = m.snapshot_seq - 40
    for seat in ("p1", "p2", "referee"):
        read[0] = 0
        assert m.log(seat, after=after) == full.log(seat, after=after)
        assert read[0] <= 40, (seat, read[0])
    assert m._base == m.snapshot_seq  # the whole history was never read


def test_a_page_of_the_log_further_back_reads_only_its_window(engine, longer_game, monkeypatch):
    """A page of an earlier part of the log (``before``, as the web table pages back) is the
    same as from a fold from seq 1, and reads only its own events, wherever the snapshot is."""
    game = registry.get(GAME)
    m = fresh(engine).load(longer_game)
    with engine.open(read_only=True) as store:
        envs = store.envelopes(longer_game)
    full = Match(game, list(decoded(game.codec, envs)), {e.seq: e.actor for e in envs})
    read = reads(monkeypatch, engine)
    snap = m.snapshot_seq
    for after, before in ((snap - 30, snap - 10), (snap - 20, snap + 5), (snap, m.seq + 1), (0, 12)):
        for seat in ("p1", "p2", "referee"):
            read[0] = 0
            page = m.log(seat, after=after, before=before)
            assert page == [e for e in full.log(seat, after=after) if e[0] < before]
            assert page and page[-1][0] < before
            assert read[0] <= 30, (after, before, seat, read[0])
    assert m._base == m.snapshot_seq  # the whole history was never read


def test_the_service_reads_one_command_for_an_undo(engine, longer_game, monkeypatch):
    """The service's undo asks whose move is on top of the one command there, and a page
    of events from an older seq reads from that seq on."""
    pytest.importorskip("litestar")
    from arbiter.service.problems import Problem
    from arbiter.service.tables import Tables, Who

    head = fresh(engine).load(longer_game)
    top = head.folded.top
    mover = head.command_at(top.first_seq)[1]
    other = next(s for s in head.seats if s != mover)
    tables = Tables(engine.path)
    read = reads(monkeypatch, engine)
    try:
        tables.match(longer_game)
        read[0] = 0
        after = head.snapshot_seq - 30
        page = tables.events(longer_game, Who(longer_game, "referee"), after)
        assert [e.seq for e in page.events] == list(range(after + 1, head.seq + 1))
        # the 30 events, and the words of a move an Undone among them took back
        assert read[0] < SNAPSHOT_EVERY and tables.match(longer_game)._base == head.snapshot_seq, read[0]
        read[0] = 0
        with pytest.raises(Problem) as refused:
            tables.undo(longer_game, Who(longer_game, other))
        assert refused.value.status == 403 and read[0] < SNAPSHOT_EVERY, read[0]
        tables.undo(longer_game, Who(longer_game, mover))
        assert read[0] < 2 * SNAPSHOT_EVERY < head.seq, read[0]
    finally:
        import asyncio

        asyncio.run(tables.stopped())


# -- a snapshot that lies: verify fails it, migrate --rebuild-snapshots writes it again ---------


def invoke(engine: Engine, *args: str):
    from typer.testing import CliRunner

    from arbiter.cli.app import app

    return CliRunner().invoke(app, ["--db", engine.path, *args], env={"COLUMNS": "400"})


def forge_newest(engine: Engine, gid: str) -> int:
    """Rewrite the newest snapshot with a state that says the game ended and a tag made for it
    (what someone with write access to the store can do); returns its seq."""
    import msgspec

    from arbiter.events.store import snapshot_tag
    from arbiter.projections.fold import decode_snapshot, encode_snapshot

    game = registry.get(GAME)
    seq = snapshot_seqs(engine, gid)[-1]
    body, h, version = raw(engine.path, "SELECT body, event_hash, version FROM snapshots WHERE game_id = ?"
                           " AND seq = ?", [gid, seq])[0]
    true = decode_snapshot(game.projection, whole(engine, gid, 1).created, bytes(body))
    lie = msgspec.structs.replace(true, state=msgspec.structs.replace(true.state, reason="forged"))
    forged = encode_snapshot(game.projection, lie)
    raw(engine.path, "UPDATE snapshots SET body = ?, tag = ? WHERE game_id = ? AND seq = ?",
        [forged, snapshot_tag(gid, seq, h, version, forged), gid, seq])
    return seq


def test_verify_fails_a_snapshot_that_lies_and_migrate_rebuilds_it(engine, long_game):
    seq = forge_newest(engine, long_game)
    lied = fresh(engine).load(long_game, upto=seq)
    assert lied.state.reason == "forged" and not same_fold(lied.folded, whole(engine, long_game, seq))  # used
    for args in ([long_game], ["--all"]):
        out = invoke(engine, "verify", *args, "--format", "csv")
        assert out.exit_code == 1, out.output
        row = next(line for line in out.output.splitlines() if line.startswith(long_game))
        assert f"FAIL at seq {seq}: the snapshot after seq {seq} holds a state" in row
        assert f"migrate --rebuild-snapshots {long_game}" in row
    assert invoke(engine, "migrate", long_game).exit_code == 2  # game ids only name what to rebuild
    kept = raw(engine.path, "SELECT seq, tag FROM snapshots ORDER BY seq")
    assert invoke(engine, "migrate", "--rebuild-snapshots", long_game, "nope-1").exit_code == 2
    assert raw(engine.path, "SELECT seq, tag FROM snapshots ORDER BY seq") == kept  # bad input: nothing written
    out = invoke(engine, "migrate", "--rebuild-snapshots", long_game)
    assert out.exit_code == 0 and "rebuilt the snapshots of 1 game" in out.output, out.output
    assert invoke(engine, "verify", long_game).exit_code == 0
    m = fresh(engine).load(long_game, upto=seq)
    assert m.snapshot_seq == seq and same_fold(m.folded, whole(engine, long_game, seq))


def test_rebuilt_snapshots_fall_where_do_writes_them_and_change_no_answer(engine, long_game):
    """Every game's snapshots dropped and written again: after the first command to end
    SNAPSHOT_EVERY events past the last one, each holding the fold at its seq; the events,
    their hashes and every load the same as before."""
    other, _m, _r = engine.new(GAME, seats=["ann", "bob"], seed=3)  # a short game: none due
    before = fresh(engine).load(long_game)
    events = raw(engine.path, "SELECT game_id, seq, hash FROM events_log ORDER BY game_id, seq")
    raw(engine.path, "UPDATE snapshots SET tag = 'x'")  # damaged: all passed over until rebuilt
    out = invoke(engine, "migrate", "--rebuild-snapshots")
    assert out.exit_code == 0 and "rebuilt the snapshots of 2 games" in out.output, out.output
    assert raw(engine.path, "SELECT game_id, seq, hash FROM events_log ORDER BY game_id, seq") == events
    seqs = snapshot_seqs(engine, long_game)
    ends = [last for last, _t in command_ends(engine, long_game)]
    expected, last = [], 0
    for end in ends:
        if end - last >= SNAPSHOT_EVERY:
            expected.append(end)
            last = end
    assert seqs == expected and len(seqs) >= 3
    assert snapshot_seqs(engine, other) == []
    after = fresh(engine).load(long_game)
    assert after.snapshot_seq == seqs[-1] and same_fold(before.folded, after.folded)
    assert before.legal_texts(before.to_act().seats[0]) == after.legal_texts(after.to_act().seats[0])
    for at in seqs:
        assert same_fold(fresh(engine).load(long_game, upto=at).folded, whole(engine, long_game, at)), at
    verified = invoke(engine, "verify", "--all")
    assert verified.exit_code == 0, verified.output
    with engine.open(read_only=True) as store:
        assert snapshot_warnings(store, long_game) == []
