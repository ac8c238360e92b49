"""One conformance suite, two stores: every test here runs against a DuckDB file and a
PostgreSQL database (a throwaway server started from the machine's binaries; skipped with
the reason when the machine has none)."""

from __future__ import annotations

import json
import random
import threading

import pytest

from arbiter.core import audit, registry
from arbiter.core.bots import autoplay, random_bot
from arbiter.core.engine import Engine, all_views, read_log
from arbiter.core.errors import RuleViolation
from arbiter.core.match import Match
from arbiter.core.porting import export_jsonl, import_jsonl, import_lines
from arbiter.events.codec import UnknownEventType
from arbiter.events.envelope import GENESIS, chain_hash
from arbiter.events.interface import Store
from storehelp import raw

from arbiter.events.store import (ChainMismatch, CommandRecord, Conflict, GameAppend, GameRow, NewEvent,
                                  StoreDamaged, StoreError, UnknownGame, open_store)


def test_the_throwaway_server_hands_out_empty_stores(pg_server):
    import psycopg

    first, second = pg_server.new_database(), pg_server.new_database()
    assert first != second
    with open_store(first) as store:
        store.install_views([])
    with psycopg.connect(second) as con:
        assert con.execute("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()").fetchone() == (0,)
    with psycopg.connect(first) as con:
        assert con.execute("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()").fetchone()[0] > 0


def play(engine: Engine, gid: str, match, n: int, seed: int = 1):
    """``n`` random legal commands, one transaction each (one open: no person waits)."""
    rng = random.Random(seed)
    with engine.open() as store:
        for _ in range(n):
            if match.outcome() is not None:
                break
            seat = match.to_act().seats[0]
            text = match.game.command_text(random_bot(match.state, seat, match.legal(seat), rng))
            _r, match, _e = engine.do(gid, text, seat, store=store)
    return match


@pytest.fixture
def engine(store_url):
    return Engine(store_url, lock_timeout=5)


@pytest.fixture
def game(engine):
    gid, match, _ = engine.new("duel", seats=["ann", "bob"], seed=42, options={"target": "30"})
    return gid, play(engine, gid, match, 40)


def ev(seat: str = "ann") -> NewEvent:
    return NewEvent("Passed", 1, seat, '{"type":"Passed","seat":"%s"}' % seat)


def test_both_stores_meet_the_protocol(engine):
    with engine.open() as store:
        assert isinstance(store, Store)


def test_a_clean_store_verifies_and_reads_back(engine, game):
    gid, match = game
    with engine.open(read_only=True) as store:
        report = audit.verify_game(store, gid)
        assert report.ok, report.problems
        assert report.rolls >= 1 and report.commands > 1
        assert audit.verify_ledger(store) == []
        envs = store.envelopes(gid)
        assert [e.seq for e in envs] == list(range(1, match.seq + 1))
        assert store.head(gid) == store.last(gid) == (envs[-1].seq, envs[-1].hash)
        assert [e.seq for e in store.envelopes(gid, upto=3)] == [1, 2, 3]
        cmds = store.commands(gid)
        assert cmds[0][2] == "setup" and cmds[-1][4] == match.seq
        row = store.game(gid)
        assert (row.kind, row.seed, row.seats, row.options) == ("duel", 42, ("ann", "bob"), {"target": 30})
        assert [g.game_id for g in store.games()] == [gid]
        assert store.resolve_game_id(gid[:-2]) == gid
        with pytest.raises(UnknownGame):
            store.resolve_game_id("zz")
        receipt = store.receipt_for(cmds[-1][0])
        assert (receipt.game_id, receipt.seq, receipt.hash) == (gid, match.seq, envs[-1].hash)
        assert store.receipt_for("never") is None
    assert Engine(engine.path).load(gid).state == match.state


def test_a_fold_reads_the_log_as_one_text_as_it_reads_it_row_by_row(engine, game):
    """``log_text``: what ``log_rows`` holds, made into JSON by the store's own SQL, whatever
    characters an id, a seat or a command's text hold; decoded at once, as the rows are one
    by one."""
    gid, match = game
    odd = 'q"uo\\te\n\ttab é ✓ \x01 {}[],:'
    with engine.open() as store:
        store.append(gid, match.seq, [NewEvent("Passed", 1, odd, json.dumps({"type": "Passed", "seat": odd})), ev()],
                     CommandRecord(odd + "/1", odd, odd))
    codec = registry.get("duel").codec
    with engine.open(read_only=True) as store:
        for after, upto in ((0, None), (3, None), (0, 5), (2, 6), (match.seq, None), (match.seq + 2, None)):
            rows, last = store.log_rows(gid, upto=upto, after=after)
            log = store.log_text(gid, upto=upto, after=after)
            assert (log.count, log.last_hash) == (len(rows), last)
            items, actors, texts = codec.decode_log(log) or ([], {}, {})
            assert items == [(r[0], r[1], codec.decode(r[2], r[3], r[4])) for r in rows]
            assert actors == {r[0]: r[5] for r in rows}
            assert texts == {r[1]: (r[5], r[6]) for r in rows if r[6] is not None}
        assert read_log(store, gid, registry.get("duel"))[2][odd + "/1"] == (odd, odd)


def test_an_event_of_a_version_this_arbiter_cannot_read_is_read_row_by_row(engine, game):
    """A fold reads an event that must be upcast row by row, through the upcasters, and one
    no upcaster reads is refused by name."""
    gid, _match = game
    raw(engine.path, "UPDATE events_log SET version = 0 WHERE game_id = ? AND seq = 2", [gid])
    with engine.open(read_only=True) as store:
        with pytest.raises(UnknownEventType, match="v0"):
            read_log(store, gid, registry.get("duel"))


def test_an_edited_die_face_fails_verify_at_that_seq(engine, game):
    gid, _ = game
    seq, payload = raw(engine.path, "SELECT seq, CAST(payload AS VARCHAR) FROM events_log WHERE game_id = ?"
                       " AND type = 'DiceRolled' ORDER BY seq LIMIT 1", [gid])[0]
    d = json.loads(payload)
    d["faces"] = ["6" if d["faces"][0] != "6" else "1"]
    raw(engine.path, "UPDATE events_log SET payload = ? WHERE game_id = ? AND seq = ?",
        [json.dumps(d, separators=(",", ":")), gid, seq])
    with engine.open(read_only=True) as store:
        report = audit.verify_game(store, gid)
    assert not report.ok and report.first.seq == seq and report.first.kind == "chain"


def test_a_truncated_tail_is_caught_by_the_head_a_receipt_and_the_next_append(engine, game):
    gid, match = game
    last = match.seq
    with engine.open(read_only=True) as store:
        receipt = f"{gid}:{last}:{store.last(gid)[1][:16]}"
        assert audit.check_receipt(store, receipt) is None
    raw(engine.path, "DELETE FROM events_log WHERE game_id = ? AND seq >= ?", [gid, last - 1])
    with engine.open() as store:
        assert not audit.verify_game(store, gid).ok
        problem = audit.check_receipt(store, receipt)
        assert problem is not None and "gone" in problem.message
        with pytest.raises(StoreDamaged, match="behind arbiter's back"):
            store.append(gid, last - 2, [ev()], CommandRecord("late", "ann", "pass"))


def test_a_whole_deleted_game_breaks_the_global_ledger(engine, game):
    gid, _ = game
    gid2, m2, _ = engine.new("duel", seats=["ann", "bob"], seed=43)
    play(engine, gid2, m2, 5)
    raw(engine.path, "DELETE FROM events_log WHERE game_id = ?", [gid])
    with engine.open(read_only=True) as store:
        problems = audit.verify_ledger(store)
    assert problems and "missing" in problems[0].message


def test_append_is_optimistic_and_writes_nothing_on_a_clash(engine, game):
    gid, match = game
    with engine.open() as store:
        before, ledger = store.last(gid), len(store.ledger())
        with pytest.raises(Conflict):
            store.append(gid, match.seq - 1, [ev()], CommandRecord("x1", "ann", "pass"))
        with pytest.raises(Conflict):
            store.append(gid, 0, [ev()], CommandRecord("x2", "ann", "pass"))
        assert store.last(gid) == before and len(store.ledger()) == ledger
        assert store.receipt_for("x1") is None
        r = store.append(gid, match.seq, [ev(), ev("bob")], CommandRecord("x3", "ann", "pass"))
        assert (r.first_seq, r.seq) == (match.seq + 1, match.seq + 2)
        assert store.head(gid) == store.last(gid) == (r.seq, r.hash)


def test_a_group_commit_appends_several_games_in_one_transaction(engine):
    """append_games: each game after its own seq, a receipt per command, one ledger; a clash
    in any game writes nothing of any, and the store takes the next group."""
    a, ma, _ = engine.new("duel", seats=["ann", "bob"], seed=1)
    b, mb, _ = engine.new("duel", seats=["ann", "bob"], seed=2)
    with engine.open() as store:
        ledger = len(store.ledger())
        got = store.append_games([
            GameAppend(a, ma.seq, [([ev()], CommandRecord("g1", "ann", "pass")),
                                   ([ev("bob"), ev()], CommandRecord("g2", "bob", "pass"))],
                       snapshot=("v1", b"state")),
            GameAppend(b, mb.seq, [([ev()], CommandRecord("g3", "ann", "pass"))], status=("over", "ann", None))])
        assert [[(r.game_id, r.first_seq, r.seq) for r in rs] for rs in got] == [
            [(a, ma.seq + 1, ma.seq + 1), (a, ma.seq + 2, ma.seq + 3)], [(b, mb.seq + 1, mb.seq + 1)]]
        assert [store.receipt_for(c) for c in ("g1", "g2", "g3")] == [got[0][0], got[0][1], got[1][0]]
        assert store.receipts_for(["g1", "g3", "never"]) == {"g1": got[0][0], "g3": got[1][0]}
        assert store.receipts_for([]) == {}
        assert store.head(a) == store.last(a) == (got[0][1].seq, got[0][1].hash)
        assert store.head(b) == store.last(b) == (got[1][0].seq, got[1][0].hash)
        assert store.snapshots(a)[0][:3] == (got[0][1].seq, got[0][1].hash, got[0][1].hash)
        assert (store.game(b).status, store.game(b).winner) == ("over", "ann")
        assert len(store.ledger()) == ledger + 4 and audit.verify_ledger(store) == []
        with pytest.raises(Conflict):  # b is stale: a's command is refused with it
            store.append_games([GameAppend(a, got[0][1].seq, [([ev()], CommandRecord("g4", "ann", "pass"))]),
                                GameAppend(b, mb.seq, [([ev()], CommandRecord("g5", "ann", "pass"))])])
        with pytest.raises(ValueError):
            store.append_games([GameAppend(a, got[0][1].seq, [([ev()], CommandRecord("g6", "ann", "pass"))])] * 2)
        assert store.receipts_for(["g4", "g5", "g6"]) == {} and store.last(a) == (got[0][1].seq, got[0][1].hash)
        assert len(store.ledger()) == ledger + 4
        again = store.append_games([GameAppend(b, got[1][0].seq, [([ev()], CommandRecord("g7", "ann", "pass"))])])
        assert again[0][0].seq == got[1][0].seq + 1 and store.head(b) == store.last(b)
    with engine.open(read_only=True) as store:
        assert audit.verify_ledger(store) == [] and len(store.ledger()) == ledger + 5
        assert [store.last(g)[0] for g in (a, b)] == [got[0][1].seq, got[1][0].seq + 1]


def test_a_game_id_is_created_once(engine, game):
    gid, _ = game
    row = GameRow(game_id=gid, kind="duel", seed=1, seats=("a", "b"), options={}, dice="seeded")
    with engine.open() as store:
        with pytest.raises(Conflict):
            store.append(gid, 0, [ev()], CommandRecord("y", None, "setup"), new_game=row)


def test_a_retried_command_id_is_idempotent(engine):
    gid, _match, _ = engine.new("duel", seats=["ann", "bob"], seed=1)
    r1, _m, _ = engine.do(gid, "bid 1", "ann", command_id="same")
    r2, _m2, _ = Engine(engine.path).do(gid, "bid 1", "ann", command_id="same")
    assert (r1.seq, r1.hash) == (r2.seq, r2.hash)
    with engine.open(read_only=True) as store:
        assert store.last(gid)[0] == r1.seq


def test_illegal_moves_leave_the_store_untouched(engine, game):
    gid, match = game
    with engine.open(read_only=True) as store:
        before = store.query("SELECT count(*), max(gseq) FROM events_log")[1]
    with pytest.raises(RuleViolation):
        engine.do(gid, "bid 9", match.to_act().seats[0])
    with engine.open(read_only=True) as store:
        assert store.query("SELECT count(*), max(gseq) FROM events_log")[1] == before


def test_query_is_read_only_and_takes_parameters(engine, game):
    gid, match = game
    with engine.open(read_only=True) as store:
        cols, rows = store.query("SELECT seq, type FROM events WHERE game_id = ? AND seq <= ?"
                                 " ORDER BY seq", [gid, 2])
        assert cols == ["seq", "type"] and rows == [(1, "GameCreated"), (2, rows[1][1])]
        assert store.query("SELECT count(*) FROM events WHERE type LIKE 'Game%'")[1] == [(1,)]
        with pytest.raises(Exception):
            store.query("DELETE FROM events_log")
    assert raw(engine.path, "SELECT count(*) FROM events_log")[0][0] == match.seq


def test_a_store_from_a_newer_arbiter_is_refused_politely(engine, game):
    raw(engine.path, "UPDATE meta SET value = '999' WHERE key = 'schema_version'")
    with pytest.raises(StoreDamaged, match="newer arbiter"):
        with engine.open():
            pass


def test_a_database_that_is_not_a_store(store_url):
    raw(store_url, "CREATE TABLE customers (id INT)")
    with pytest.raises(StoreDamaged, match="not an arbiter store"):
        with open_store(store_url):
            pass


def test_nothing_there_yet_opens_read_only_as_unknown(store_url):
    with pytest.raises(UnknownGame):
        with open_store(store_url, read_only=True):
            pass


def test_import_keeps_ids_and_hashes_and_refuses_a_clash_or_an_altered_chain(engine, game, tmp_path):
    gid, match = game
    with engine.open(read_only=True) as store:
        dump = export_jsonl(store, gid)
    other = Engine(str(tmp_path / "other.duckdb"))
    with other.open() as store:
        import_jsonl(store, dump)
    # the very same game again: left as it is, named as skipped, nothing written
    with engine.open() as store:
        before = store.query("SELECT count(*), max(gseq) FROM events_log")[1]
        skipped: list[str] = []
        assert import_lines(store, dump.splitlines(), skipped=skipped) == [] and skipped == [gid]
        assert store.query("SELECT count(*), max(gseq) FROM events_log")[1] == before
        assert audit.verify_ledger(store) == []
    # the same id with another log (the game moved on since the export): refused, nothing written
    fresh, m, _ = engine.new("duel", seats=["ann", "bob"], seed=5)
    with engine.open(read_only=True) as store:
        early = export_jsonl(store, fresh)
    seat = m.to_act().seats[0]
    engine.do(fresh, m.game.command_text(m.legal(seat)[0]), seat)
    with engine.open() as store:
        before = store.query("SELECT count(*), max(gseq) FROM events_log")[1]
        with pytest.raises(Conflict, match="another log"):
            import_jsonl(store, early)
        assert store.query("SELECT count(*), max(gseq) FROM events_log")[1] == before
    # into an empty store of this kind, via a round trip through a DuckDB file
    with other.open(read_only=True) as store:
        back = export_jsonl(store, gid)
    assert back.splitlines()[1:] == dump.splitlines()[1:]
    row = GameRow(game_id="fresh-1", kind="duel", seed=1, seats=("a", "b"), options={}, dice="seeded")
    with engine.open() as store:
        with pytest.raises(ChainMismatch):
            store.import_games([(row, [([ev()], CommandRecord("c", None, "setup"))])],
                               expected=[["0" * 64]])
        assert store.query("SELECT count(*) FROM events_log WHERE game_id = 'fresh-1'")[1] == [(0,)]
        (r,) = store.import_games([(row, [([ev()], CommandRecord("c", None, "setup"))])])
        assert store.head("fresh-1") == (1, r.hash)
        assert audit.verify_ledger(store) == []


def test_undo_and_fork(engine):
    gid, _match, _ = engine.new("duel", seats=["ann", "bob"], seed=9)
    engine.do(gid, "bid 2", "ann")
    _r, _m, evs = engine.do(gid, "bid 1", "bob")
    engine.do(gid, "undo", "bob")
    _r, m, evs2 = engine.do(gid, "bid 1", "bob")
    faces = lambda es: [e.faces for e in es if type(e).__name__ == "DiceRolled"]  # noqa: E731
    assert faces(evs2) == faces(evs)
    fid, fork = engine.fork(gid, m.seq)
    with engine.open(read_only=True) as store:
        types = [r[0] for r in store.query("SELECT type FROM events WHERE game_id = ? ORDER BY seq", [gid])[1]]
        assert "Undone" in types
        assert audit.verify_game(store, gid).ok and audit.verify_game(store, fid).ok
        assert store.game(fid).forked_from == gid


def test_two_writers_on_one_game_at_one_seq_exactly_one_wins(engine, game):
    """Many connections race to append at the same expected seq: one commits, the rest
    are refused with Conflict and write nothing."""
    gid, match = game
    barrier, results = threading.Barrier(6), []

    def racer(i: int) -> None:
        with engine.open() as store:
            barrier.wait()
            try:
                store.append(gid, match.seq, [ev()], CommandRecord(f"race{i}", "ann", "pass"))
                results.append("won")
            except Conflict:
                results.append("conflict")

    threads = [threading.Thread(target=racer, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(results) == ["conflict"] * 5 + ["won"]
    with engine.open(read_only=True) as store:
        assert store.last(gid)[0] == match.seq + 1
        assert audit.verify_ledger(store) == []


def test_many_concurrent_appenders_keep_the_global_chain_whole(pg_url):
    """Threads on their own connections, each appending to its own game and all to one
    shared game: every gseq from 1 to N exactly once, the ledger verifies, no seq gaps.
    PostgreSQL only: DuckDB admits one writing process, so its ledger is serial by
    construction."""
    engine = Engine(pg_url, lock_timeout=5)
    row = lambda g: GameRow(game_id=g, kind="duel", seed=1, seats=("a", "b"), options={}, dice="seeded")  # noqa: E731
    writers, rounds = 12, 25
    shared = "shared-1"
    with engine.open() as store:
        store.append(shared, 0, [ev()], CommandRecord("s0", None, "setup"), new_game=row(shared))
    errors: list[BaseException] = []

    def writer(i: int) -> None:
        try:
            gid = f"own-{i}"
            with engine.open() as store:
                store.append(gid, 0, [ev()], CommandRecord(f"{gid}/0", None, "setup"), new_game=row(gid))
                seq = 1
                for n in range(1, rounds + 1):
                    seq = store.append(gid, seq, [ev(), ev("bob")][: 1 + n % 2],
                                       CommandRecord(f"{gid}/{n}", "ann", "pass")).seq
                    while True:  # the shared game: read its end, try, re-read on a clash
                        try:
                            store.append(shared, store.head(shared)[0], [ev()],
                                         CommandRecord(f"{gid}/s{n}", "ann", "pass"))
                            break
                        except Conflict:
                            continue
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    with engine.open(read_only=True) as store:
        gseqs = [r[0] for r in store.ledger()]
        assert gseqs == list(range(1, len(gseqs) + 1))
        assert audit.verify_ledger(store) == []
        shared_seqs = [e.seq for e in store.envelopes(shared)]
        assert shared_seqs == list(range(1, 1 + writers * rounds + 1))
        for i in range(writers):
            envs = store.envelopes(f"own-{i}")
            assert audit.check_chain(f"own-{i}", envs, audit.Report(f"own-{i}"))
            assert len(envs) == 1 + sum(1 + n % 2 for n in range(1, rounds + 1))


def test_every_games_views_say_the_same_on_both_stores(tmp_path, pg_url):
    """Each game's SQL views (written in DuckDB's SQL, translated for PostgreSQL) give the
    same rows on both stores for the same games."""
    engines = [Engine(str(tmp_path / "v.duckdb")), Engine(pg_url)]
    views = all_views()
    for i, game in enumerate(registry.available()):
        match = Match.new(game, seed=100 + i, seats=game.default_seats())
        autoplay(match, {}, random.Random(i), max_steps=400)
        for eng in engines:
            with eng.open() as store:
                eng.store_match(store, match, game_id=f"{game.short or game.id}-v{i}")
    names = ["events", "dice", "commands"] + [name for name, _sql in views]
    results = []
    for eng in engines:
        with eng.open(read_only=True) as store:
            out = {}
            for name in names:
                cols, rows = store.query(f'SELECT * FROM "{name}"')
                keep = [c for c in cols if c not in ("recorded_at", "payload")]
                idx = [cols.index(c) for c in keep]
                out[name] = (keep, sorted((tuple(str(r[j]) for j in idx) for r in rows)))
            results.append(out)
    for name in names:
        assert results[0][name] == results[1][name], name
    assert sum(len(results[0][n][1]) for n, _ in views) > 0
