"""The event store and the audit: append-only, optimistic, chained, and hard to fool."""

from __future__ import annotations

import json
import multiprocessing
import os
import random

import duckdb
import pytest

from arbiter.core import audit, registry
from arbiter.core.bots import random_bot
from arbiter.core.engine import Engine
from arbiter.core.errors import RuleViolation
from arbiter.core.porting import export_jsonl, import_jsonl
from arbiter.events.envelope import GENESIS, chain_hash
from arbiter.events.store import (SCHEMA_VERSION, CommandRecord, Conflict, NewEvent, StoreDamaged,
                          open_store)


def play(engine: Engine, gid: str, match, n: int, seed: int = 1):
    rng = random.Random(seed)
    for _ in range(n):
        if match.outcome() is not None:
            break
        seat = match.to_act().seats[0]
        text = match.game.command_text(random_bot(match.state, seat, match.legal(seat), rng))
        _r, match, _e = engine.do(gid, text, seat)
    return match


@pytest.fixture
def engine(tmp_path):
    return Engine(str(tmp_path / "s.duckdb"), lock_timeout=0.5)


@pytest.fixture
def game(engine):
    gid, match, _ = engine.new("duel", seats=["ann", "bob"], seed=42, options={"target": "30"})
    match = play(engine, gid, match, 40)
    return gid, match


def raw(engine: Engine) -> duckdb.DuckDBPyConnection:
    return duckdb.connect(engine.path)


def test_a_clean_store_verifies(engine, game):
    gid, match = game
    with engine.open(read_only=True) as store:
        report = audit.verify_game(store, gid)
        assert report.ok, report.problems
        assert report.rolls >= 1 and report.commands > 1
        assert audit.verify_ledger(store) == []


def first_roll_seq(engine, gid) -> int:
    con = raw(engine)
    seq = con.execute("SELECT min(seq) FROM events_log WHERE game_id = ? AND type = 'DiceRolled'"
                      " AND NOT CAST(payload->>'$.manual' AS BOOLEAN)", [gid]).fetchone()[0]
    con.close()
    return seq


def test_an_edited_die_face_fails_verify_at_that_seq(engine, game):
    gid, _ = game
    seq = first_roll_seq(engine, gid)
    con = raw(engine)
    payload = json.loads(con.execute("SELECT payload FROM events_log WHERE game_id = ? AND seq = ?", [gid, seq]).fetchone()[0])
    payload["faces"] = ["6" if payload["faces"][0] != "6" else "1"]
    con.execute("UPDATE events_log SET payload = ? WHERE game_id = ? AND seq = ?", [json.dumps(payload, separators=(",", ":")), gid, seq])
    con.close()
    with engine.open(read_only=True) as store:
        report = audit.verify_game(store, gid)
    assert not report.ok
    assert report.first.seq == seq and report.first.kind == "chain"


def test_a_rehashed_forgery_is_caught_by_the_dice_check(engine, game):
    """Even a forger who recomputes every hash cannot change a seeded roll."""
    gid, _ = game
    seq = first_roll_seq(engine, gid)
    con = raw(engine)
    rows = con.execute("SELECT seq, type, CAST(payload AS VARCHAR) FROM events_log WHERE game_id = ? ORDER BY seq", [gid]).fetchall()
    prev = GENESIS
    for s, t, p in rows:
        if s == seq:
            d = json.loads(p)
            d["faces"] = ["6" if d["faces"][0] != "6" else "1"]
            p = json.dumps(d, separators=(",", ":"))
        h = chain_hash(prev, gid, s, t, p)
        con.execute("UPDATE events_log SET payload = ?, prev_hash = ?, hash = ? WHERE game_id = ? AND seq = ?", [p, prev, h, gid, s])
        prev = h
    con.execute("UPDATE heads SET hash = ? WHERE key = ?", [prev, gid])
    con.close()
    with engine.open(read_only=True) as store:
        report = audit.verify_game(store, gid)
        assert audit.verify_ledger(store)  # the global chain no longer matches either
    kinds = {(p.seq, p.kind) for p in report.problems}
    assert (seq, "dice") in kinds


def test_a_deleted_row_fails_verify_at_that_seq(engine, game):
    gid, match = game
    con = raw(engine)
    con.execute("DELETE FROM events_log WHERE game_id = ? AND seq = 7", [gid])
    con.close()
    with engine.open(read_only=True) as store:
        report = audit.verify_game(store, gid)
        assert audit.verify_ledger(store)
    assert report.first.seq == 7


def test_a_truncated_tail_is_caught_by_the_head_and_by_a_receipt(engine, game):
    gid, match = game
    last = match.seq
    with engine.open(read_only=True) as store:
        receipt = f"{gid}:{last}:{store.last(gid)[1][:16]}"
        assert audit.check_receipt(store, receipt) is None
    con = raw(engine)
    con.execute("DELETE FROM events_log WHERE game_id = ? AND seq >= ?", [gid, last - 1])
    con.close()
    with engine.open(read_only=True) as store:
        report = audit.verify_game(store, gid)
        problem = audit.check_receipt(store, receipt)
    assert not report.ok
    assert problem is not None and "gone" in problem.message


def test_a_whole_deleted_game_breaks_the_global_ledger(engine, game):
    gid, _ = game
    gid2, m2, _ = engine.new("duel", seats=["ann", "bob"], seed=43)
    play(engine, gid2, m2, 5)
    con = raw(engine)
    con.execute("DELETE FROM events_log WHERE game_id = ?", [gid])
    con.close()
    with engine.open(read_only=True) as store:
        problems = audit.verify_ledger(store)
    assert problems and "missing" in problems[0].message


def test_append_is_optimistic_and_writes_nothing_on_a_clash(engine, game):
    gid, match = game
    with engine.open() as store:
        before = store.last(gid)
        ev = NewEvent("Passed", 1, "ann", '{"type":"Passed","seat":"ann"}')
        with pytest.raises(Conflict):
            store.append(gid, match.seq - 1, [ev], CommandRecord("x1", "ann", "pass"))
        assert store.last(gid) == before
        assert store.query("SELECT count(*) FROM commands WHERE command_id = 'x1'")[1][0][0] == 0


def test_a_retried_command_id_is_idempotent(engine):
    gid, match, _ = engine.new("duel", seats=["ann", "bob"], seed=1)
    r1, m, _ = engine.do(gid, "bid 1", "ann", command_id="same")
    r2, m2, _ = Engine(engine.path).do(gid, "bid 1", "ann", command_id="same")
    assert (r1.seq, r1.hash) == (r2.seq, r2.hash)
    with engine.open(read_only=True) as store:
        assert store.last(gid)[0] == r1.seq


def test_illegal_moves_leave_the_store_untouched(engine, game):
    gid, match = game
    with engine.open(read_only=True) as store:
        before = store.query("SELECT count(*), max(gseq) FROM events_log")[1]
    with pytest.raises(RuleViolation) as exc:
        engine.do(gid, "bid 9", match.to_act().seats[0])
    assert exc.value.rule_id in ("DUEL-BID", "DUEL-WINDOW")
    with engine.open(read_only=True) as store:
        assert store.query("SELECT count(*), max(gseq) FROM events_log")[1] == before


def _writer(path: str, gid: str, seat: str, n: int, out) -> None:
    import sys

    sys.path.insert(0, os.path.dirname(__file__))
    from arbiter.core import registry
    import toygame

    registry.register(toygame.GAME)
    eng = Engine(path, lock_timeout=30)
    done = 0
    for _ in range(n):
        try:
            eng.do(gid, "bid 1", seat)
            done += 1
        except Exception:  # noqa: BLE001 - refused moves (not your turn) are expected
            pass
    out.put(done)


def test_two_processes_writing_one_game_never_lose_or_duplicate(engine):
    gid, _m, _ = engine.new("duel", seats=["ann", "bob"], seed=5, options={"target": "50"})
    ctx = multiprocessing.get_context("spawn")
    q = ctx.Queue()
    procs = [ctx.Process(target=_writer, args=(engine.path, gid, s, 15, q)) for s in ("ann", "bob")]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    accepted = q.get() + q.get()
    with engine.open(read_only=True) as store:
        seqs = [r[0] for r in store.query("SELECT seq FROM events_log WHERE game_id = ? ORDER BY seq", [gid])[1]]
        commands = store.commands(gid)
        report = audit.verify_game(store, gid)
    assert seqs == list(range(1, len(seqs) + 1))
    assert len(commands) == accepted + 1  # + setup
    assert report.ok, report.problems


def test_a_held_store_gives_a_clear_locked_error(engine, game):
    holder = duckdb.connect(engine.path)  # another process's connection, in effect
    try:
        import subprocess
        import sys

        code = ("from arbiter.events.store import open_store, StoreLocked\n"
                "try:\n    open_store(%r, timeout=0.2).__enter__()\n"
                "except StoreLocked as e:\n    print('LOCKED', e)\n") % engine.path
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             cwd=os.path.dirname(os.path.dirname(__file__)))
        assert "LOCKED" in out.stdout and "another arbiter process" in out.stdout
    finally:
        holder.close()


def test_a_store_from_a_newer_arbiter_is_refused_politely(engine, game):
    con = raw(engine)
    con.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", [str(SCHEMA_VERSION + 1)])
    con.close()
    with pytest.raises(StoreDamaged, match="newer arbiter"):
        with engine.open():
            pass


def test_a_file_that_is_not_a_store(tmp_path):
    bad = tmp_path / "x.duckdb"
    bad.write_text("not a database" * 50)
    with pytest.raises(StoreDamaged):
        with open_store(str(bad)):
            pass
    other = tmp_path / "other.duckdb"
    con = duckdb.connect(str(other))
    con.execute("CREATE TABLE customers (id INT)")
    con.close()
    with pytest.raises(StoreDamaged, match="not an arbiter store"):
        with open_store(str(other)):
            pass


def test_export_and_import_keep_ids_and_hashes(engine, game, tmp_path):
    gid, match = game
    with engine.open(read_only=True) as store:
        dump = export_jsonl(store, gid)
    other = Engine(str(tmp_path / "other.duckdb"))
    with other.open() as store:
        assert import_jsonl(store, dump) == [gid]
        assert audit.verify_game(store, gid).ok
        assert import_jsonl(store, dump) == []  # the very same game again: left as it is
    assert other.load(gid).state == match.state


def test_an_altered_export_is_refused(engine, game, tmp_path):
    gid, _ = game
    with engine.open(read_only=True) as store:
        dump = export_jsonl(store, gid)
    tampered = dump.replace('"bid":1', '"bid":3', 1)
    assert tampered != dump
    from arbiter.core.errors import TranscriptError

    with open_store(str(tmp_path / "o.duckdb")) as store:
        with pytest.raises(TranscriptError, match="hash chain"):
            import_jsonl(store, tampered)
        assert store.query("SELECT count(*) FROM events_log")[1][0][0] == 0


def test_undo_is_recorded_and_never_deletes(engine):
    gid, match, _ = engine.new("duel", seats=["ann", "bob"], seed=9)
    engine.do(gid, "bid 2", "ann")
    r, m, ev = engine.do(gid, "bid 1", "bob")
    faces = [e.faces for e in ev if type(e).__name__ == "DiceRolled"]
    engine.do(gid, "undo", "bob")
    _r, m, ev2 = engine.do(gid, "bid 1", "bob")
    assert [e.faces for e in ev2 if type(e).__name__ == "DiceRolled"] == faces
    with engine.open(read_only=True) as store:
        types = [r[0] for r in store.query("SELECT type FROM events_log WHERE game_id = ? ORDER BY seq", [gid])[1]]
        assert "Undone" in types
        assert audit.verify_game(store, gid).ok


def test_fork_branches_a_what_if_game(engine, game):
    gid, match = game
    at = match.seq // 2
    fid, fork = engine.fork(gid, at)
    assert fork.created.forked_from == gid
    assert fork.seq <= at + 1
    with engine.open(read_only=True) as store:
        assert audit.verify_game(store, fid).ok


def test_verify_tells_a_changed_ruling_apart_from_tampering(engine, game, monkeypatch):
    """A later release that rules differently: old games still replay, and verify says so."""
    import msgspec

    import toygame

    gid, match = game
    original = toygame.GAME.decide

    def stingier(state, seat, command, rng):
        return [msgspec.structs.replace(e, points=0) if isinstance(e, toygame.Scored) else e
                for e in original(state, seat, command, rng)]

    monkeypatch.setattr(toygame.GAME, "decide", stingier)
    monkeypatch.setattr(toygame.GAME, "rules_version", "2")
    with engine.open(read_only=True) as store:
        report = audit.verify_game(store, gid)
    assert not report.ok
    assert report.first.kind == "rules-changed" and "today's rules are v2" in report.first.message
    assert report.first.seq > 1 and "does not produce the stored events" in report.first.message  # not the setup
    assert Engine(engine.path).load(gid).state == match.state  # the old log still folds


def test_a_new_rules_version_alone_fails_no_old_game(engine, game, monkeypatch):
    """A release that bumps the rules version for a ruling an old game never met: its
    setup is set up again under the version it was recorded with, every command is decided
    again, and the game verifies. (The version's label alone used to fail every old game
    at seq 1, "setup differs", with nothing re-decided.)"""
    import toygame

    gid, match = game
    monkeypatch.setattr(toygame.GAME, "rules_version", "2")
    with engine.open(read_only=True) as store:
        report = audit.verify_game(store, gid)
    assert report.ok, [p.message for p in report.problems]
    assert report.commands > 1


def test_a_game_recorded_under_older_rules_still_imports_and_copies(engine, game, monkeypatch, tmp_path):
    """History moves between stores even after a ruling changed: its chain and dice are
    checked, and only a difference that today's rules explain is let through."""
    import msgspec

    import toygame
    from arbiter.core.copying import copy_games
    from arbiter.core.porting import ImportRefused, export_jsonl, import_jsonl
    from arbiter.events.store import open_store

    gid, match = game
    with engine.open(read_only=True) as store:
        exported = export_jsonl(store, gid)
    original = toygame.GAME.decide

    def stingier(state, seat, command, rng):
        return [msgspec.structs.replace(e, points=0) if isinstance(e, toygame.Scored) else e
                for e in original(state, seat, command, rng)]

    monkeypatch.setattr(toygame.GAME, "decide", stingier)
    monkeypatch.setattr(toygame.GAME, "rules_version", "2")
    with open_store(str(tmp_path / "other.duckdb")) as other:
        assert import_jsonl(other, exported) == [gid]
    with engine.open(read_only=True) as src, open_store(str(tmp_path / "third.duckdb")) as dst:
        assert copy_games(src, dst).copied == [gid]
        report = audit.verify_game(dst, gid)
        assert {p.kind for p in report.problems} == {"rules-changed"}
    assert '"points":' in exported
    tampered = exported.replace('"points":', '"points":1', 1)  # an edit no rules change explains
    with open_store(str(tmp_path / "fourth.duckdb")) as other, pytest.raises(ImportRefused):
        import_jsonl(other, tampered)


def test_a_game_written_whole_with_an_undo_in_it_verifies(engine):
    """A match decided in memory and written in one transaction (simulate, import of a
    transcript, fork, bench) keeps its Undone events pointing at the stored command ids."""
    from arbiter.core.match import UNDO, Match

    match = Match.new(registry.get("duel"), seed=4, seats=["ann", "bob"])
    match.apply("ann", "bid 2")
    match.apply("bob", UNDO)
    match.apply("ann", "bid 1")
    with engine.open() as store:
        gid = engine.store_match(store, match)
        report = audit.verify_game(store, gid)
        assert report.ok, [p.message for p in report.problems]
        undone = [e for e in store.envelopes(gid) if e.type == "Undone"]
        assert len(undone) == 1 and f'"{gid}/' in undone[0].payload


@pytest.mark.parametrize("window", [1, 3, 7, 10_000])
def test_a_log_is_read_window_after_window_as_it_is_read_whole(engine, game, monkeypatch, window):
    """A fold reads a game's events as JSON text the store makes, a window at a time (one
    text of a game of tens of millions of events would pass the store's ceiling on a value):
    the events, actors, command texts and last hash are the same whatever the window."""
    from arbiter.core import engine as engine_mod
    from arbiter.core.engine import read_log, read_rows

    gid, match = game
    with engine.open(read_only=True) as store:
        whole = read_log(store, gid, match.game)
        assert whole == read_rows(store, gid, match.game) and len(whole[0]) == match.seq
        monkeypatch.setattr(engine_mod, "LOG_WINDOW", window)
        assert read_log(store, gid, match.game) == whole
        part = dict(after=5, upto=match.seq - 2)
        assert read_log(store, gid, match.game, **part) == read_rows(store, gid, match.game, **part)
        assert read_log(store, gid, match.game, after=match.seq) == ([], {}, {}, "")
    assert engine.load(gid).state == match.state
