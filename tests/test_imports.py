"""Imports that cannot smuggle anything in, forks and transcript imports that are whole or
absent, and command ids that are retries or refusals, on both stores."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest
from storehelp import HERE, cli, raw

from arbiter.core import audit, transcript
from arbiter.core.bots import random_bot
from arbiter.core.engine import Engine
from arbiter.core.errors import CommandIdReused, TranscriptError
from arbiter.cli.common import exit_code
from arbiter.core.porting import ImportRefused, export_jsonl, import_jsonl
from arbiter.events.envelope import GENESIS, chain_hash
from arbiter.events.interface import is_url


def play(engine: Engine, gid: str, match, n: int, seed: int = 1):
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
    return gid, play(engine, gid, match, 24)


def count(engine) -> tuple:
    return tuple(raw(engine.path, "SELECT count(*), (SELECT count(*) FROM games) FROM events_log")[0])


def rehash_dump(dump: str) -> str:
    """A forger's file: the dump's event hashes recomputed after an edit, so that the chain
    in the file holds; only deciding the commands again can tell."""
    lines = [json.loads(line) for line in dump.splitlines()]
    gid = lines[0]["game"]["game_id"]
    texts = {c["command"]["first_seq"]: c["command"]["text"] for c in lines if "command" in c}
    prev = GENESIS
    for item in lines:
        if "event" in item:
            e = item["event"]
            payload = json.dumps(e["payload"], separators=(",", ":"))
            e["prev_hash"] = prev
            e["hash"] = prev = chain_hash(prev, gid, e["seq"], e["type"], payload, version=e["version"],
                                          actor=e["actor"], command_id=e["command_id"],
                                          command_text=texts.get(e["seq"]))
    return "\n".join(json.dumps(i, separators=(",", ":")) for i in lines) + "\n"


def test_a_clean_export_imports_and_verifies(engine, game, tmp_path):
    gid, match = game
    with engine.open(read_only=True) as store:
        dump = export_jsonl(store, gid)
    assert rehash_dump(dump).splitlines()[1:] == dump.splitlines()[1:]  # the forger's tool is exact
    other = Engine(str(tmp_path / "other.duckdb"))
    with other.open() as store:
        assert import_jsonl(store, dump) == [gid]
        assert audit.verify_game(store, gid).ok and audit.verify_store(store) == []


def test_an_edited_command_text_with_a_recomputed_chain_is_refused_whole(engine, game, tmp_path):
    gid, _ = game
    with engine.open(read_only=True) as store:
        dump = export_jsonl(store, gid)
    lines = [json.loads(x) for x in dump.splitlines()]
    cmd = next(c["command"] for c in lines if "command" in c and c["command"]["text"].startswith("bid"))
    cmd["text"] = "bid 9"
    forged = rehash_dump("\n".join(json.dumps(x) for x in lines))
    target = Engine(str(tmp_path / "t.duckdb"))
    with target.open() as store:
        store.install_views([])
    before = count(target)
    with target.open() as store:
        with pytest.raises(ImportRefused, match=f"seq {cmd['first_seq']}: .*refused today") as exc:
            import_jsonl(store, forged)
    assert exit_code(exc.value) == 1
    assert count(target) == before
    path = tmp_path / "forged.jsonl"
    path.write_text(forged)
    out = cli(tmp_path, target.path, "import", str(path))
    assert out.returncode == 1 and f"seq {cmd['first_seq']}" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.parametrize("field,value,words", [
    ("winner", "mallory", "winner"), ("status", "over", "status"), ("seed", 43, "seed"),
    ("seats", ["ann", "eve"], "seats"), ("options", {"target": 5}, "options"),
    ("forked_from", "du-999999", "forked_from"), ("outcome", '{"reason":"forged"}', "outcome"),
])
def test_a_listing_that_contradicts_its_events_is_refused(engine, game, field, value, words):
    gid, _ = game
    with engine.open(read_only=True) as store:
        dump = export_jsonl(store, gid)
        head = json.loads(dump.splitlines()[0])
    if head["game"][field] == value:
        value = None
    head["game"][field] = value
    forged = "\n".join([json.dumps(head)] + dump.splitlines()[1:]) + "\n"
    raw(engine.path, "DELETE FROM events_log WHERE game_id = ?", [gid])
    raw(engine.path, "DELETE FROM games WHERE game_id = ?", [gid])
    raw(engine.path, f"DELETE FROM heads WHERE {'game_id' if is_url(engine.path) else 'key'} = ?", [gid])
    before = count(engine)
    with engine.open() as store:
        with pytest.raises(ImportRefused, match=words):
            import_jsonl(store, forged)
    assert count(engine) == before


def test_a_seed_out_of_range_is_bad_input(engine, game, tmp_path):
    gid, _ = game
    with engine.open(read_only=True) as store:
        dump = export_jsonl(store, gid)
    head = json.loads(dump.splitlines()[0])
    for seed in (2**64 + 5, -1):
        head["game"]["seed"] = seed
        path = tmp_path / "big.jsonl"
        path.write_text("\n".join([json.dumps(head)] + dump.splitlines()[1:]) + "\n")
        out = cli(tmp_path, str(tmp_path / "fresh.duckdb"), "import", str(path))
        assert out.returncode == 2 and "seed must be a whole number" in out.stderr, out.stderr
        assert "Traceback" not in out.stderr


def test_an_export_of_the_old_format_says_how_to_bring_it_over(engine, game):
    gid, _ = game
    with engine.open(read_only=True) as store:
        dump = export_jsonl(store, gid).replace('"arbiter-log-2"', '"arbiter-log-1"', 1)
    with engine.open() as store:
        with pytest.raises(TranscriptError, match="migrate"):
            import_jsonl(store, dump)


# -- whole or absent: a process killed in the middle of a fork or a transcript import --------

KILLER = """
import os, sys
sys.path.insert(0, {here!r})
from arbiter.core import registry
import toygame
registry.register(toygame.GAME)
from arbiter.events import store as duck
from arbiter.events import postgres as pg

def half_then_die(original):
    def insert(self, *args):
        rows = args[-1]
        if len(rows) > 4:
            original(self, *(args[:-1] + (rows[: len(rows) // 2],)))
            os._exit(9)  # killed midway: half the events written, nothing committed
        return original(self, *args)
    return insert

duck.Store._insert = half_then_die(duck.Store._insert)
pg.PostgresStore._insert_events = half_then_die(pg.PostgresStore._insert_events)
{action}
"""


def killed(action: str) -> int:
    code = KILLER.format(here=HERE, action=action)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=os.path.dirname(HERE))
    return out.returncode


def test_a_killed_fork_leaves_nothing_and_a_retry_makes_one(engine, game):
    gid, match = game
    before = count(engine)
    rc = killed(f"from arbiter.core.engine import Engine\nEngine({engine.path!r}).fork({gid!r}, {match.seq})")
    assert rc == 9
    assert count(engine) == before
    with engine.open(read_only=True) as store:
        assert audit.verify_store(store) == []
    fid, fork = engine.fork(gid, match.seq)
    with engine.open(read_only=True) as store:
        forks = store.query("SELECT game_id FROM games WHERE forked_from = ?", [gid])[1]
        assert forks == [(fid,)] and audit.verify_game(store, fid).ok
    assert fork.seq == match.seq


def test_a_killed_transcript_import_leaves_nothing_and_a_retry_does_not_duplicate(engine, game, tmp_path):
    gid, match = game
    text = transcript.export(engine.load(gid))
    path = tmp_path / "game.arb"
    path.write_text(text)
    target = str(tmp_path / "import.duckdb") if not is_url(engine.path) else engine.path
    rc = killed("from arbiter.cli.app import main\nimport sys\nsys.argv = ['arbiter', '--db', "
                f"{target!r}, 'import', {str(path)!r}]\nmain()")
    assert rc == 9
    before = raw(target, "SELECT count(*) FROM games")[0][0] if os.path.exists(target) or is_url(target) else 0
    first = cli(tmp_path, target, "import", str(path))
    assert first.returncode == 0, first.stderr
    again = cli(tmp_path, target, "import", str(path))
    assert again.returncode == 0 and again.stdout == first.stdout and "already imported" in again.stderr
    assert raw(target, "SELECT count(*) FROM games")[0][0] == before + 1
    new_id = first.stdout.strip()
    out = cli(tmp_path, target, "verify", new_id)
    assert out.returncode == 0, out.stdout + out.stderr


def test_a_transcript_with_a_byte_order_mark_imports(engine, game, tmp_path):
    gid, _ = game
    path = tmp_path / "bom.arb"
    path.write_bytes(b"\xef\xbb\xbf" + transcript.export(engine.load(gid)).encode())
    for verb in ("check", "import"):
        out = cli(tmp_path, str(tmp_path / "bom.duckdb"), verb, str(path))
        assert out.returncode == 0, (verb, out.stderr)


# -- command ids: a retry, or a refusal --------------------------------------------------------


def test_a_reused_command_id_with_another_command_or_seat_is_refused(engine):
    gid, _m, _ = engine.new("duel", seats=["ann", "bob"], seed=1)
    r1, _m, _ = engine.do(gid, "bid 1", "ann", command_id="same")
    r2, _m, _ = Engine(engine.path).do(gid, "Bid  1", "ann", command_id="same")  # the same, written loosely
    assert (r1.seq, r1.hash) == (r2.seq, r2.hash)
    before = count(engine)
    with pytest.raises(CommandIdReused, match="bid 2") as exc:
        Engine(engine.path).do(gid, "bid 2", "ann", command_id="same")
    assert exit_code(exc.value) == 2
    with pytest.raises(CommandIdReused, match="bob cannot reuse it"):
        Engine(engine.path).do(gid, "bid 1", "bob", command_id="same")
    assert count(engine) == before


def test_a_reused_command_id_at_the_command_line(tmp_path, store_url):
    out = cli(tmp_path, store_url, "new", "duel", "--seed", "3", "--players", "ann,bob")
    gid = out.stdout.strip()
    assert cli(tmp_path, store_url, "do", gid, "--as", "ann", "--command-id", "k1", "bid", "2").returncode == 0
    same = cli(tmp_path, store_url, "do", gid, "--as", "ann", "--command-id", "k1", "bid", "2")
    assert same.returncode == 0
    other = cli(tmp_path, store_url, "do", gid, "--as", "bob", "--command-id", "k1", "bid", "3")
    assert other.returncode == 2 and "command id k1 was used" in other.stderr and "Traceback" not in other.stderr


# -- a file of many games, read in batches -------------------------------------------------------


def many_games_dump(engine, n: int) -> tuple[list[str], str]:
    ids = []
    for i in range(n):
        gid, m, _ = engine.new("duel", seats=["ann", "bob"], seed=60 + i, options={"target": "30"})
        play(engine, gid, m, 12, seed=i)
        ids.append(gid)
    with engine.open(read_only=True) as store:
        return ids, "".join(export_jsonl(store, gid) for gid in ids)


def forge_last_game(dump: str) -> tuple[str, int]:
    """The file with its last game's last bid changed (and that game's chain recomputed)."""
    cut = dump.rindex('{"format"')
    last = [json.loads(x) for x in dump[cut:].splitlines()]
    cmd = [c["command"] for c in last if "command" in c and c["command"]["text"].startswith("bid")][-1]
    cmd["text"] = "bid 9"
    return dump[:cut] + rehash_dump("\n".join(json.dumps(x) for x in last)), cmd["first_seq"]


def test_a_file_read_in_batches_is_imported_whole_or_not_at_all(engine, tmp_path, monkeypatch):
    from arbiter.core import porting

    ids, dump = many_games_dump(engine, 4)
    monkeypatch.setattr(porting, "BATCH_EVENTS", 5)  # a batch a game, so several are written
    forged, seq = forge_last_game(dump)
    target = Engine(str(tmp_path / "t.duckdb"))
    with target.open() as store:
        store.install_views([])
    before = count(target)
    with target.open() as store, pytest.raises(ImportRefused, match=f"{ids[-1]}: seq {seq}: .*refused today"):
        import_jsonl(store, forged)
    assert count(target) == before  # the games of earlier batches were rolled back too
    with target.open() as store:
        assert import_jsonl(store, dump) == ids
        assert all(audit.verify_game(store, g).ok for g in ids) and audit.verify_store(store) == []
    with engine.open(read_only=True) as src, target.open(read_only=True) as dst:
        for g in ids:  # every event, hash and command as the source has them
            assert export_jsonl(dst, g).splitlines()[1:] == export_jsonl(src, g).splitlines()[1:]


def test_import_in_workers_and_from_stdin(engine, tmp_path):
    ids, dump = many_games_dump(engine, 3)
    forged, seq = forge_last_game(dump)
    path = tmp_path / "forged.jsonl"
    path.write_text(forged)
    db = str(tmp_path / "cli.duckdb")
    out = cli(tmp_path, db, "import", str(path), "--jobs", "2")
    assert out.returncode == 1 and f"{ids[-1]}: seq {seq}" in out.stderr and "Traceback" not in out.stderr
    assert not os.path.exists(db) or raw(db, "SELECT count(*) FROM events_log")[0][0] == 0
    out = cli(tmp_path, db, "import", "-", "--jobs", "2", stdin=dump)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ids
    assert cli(tmp_path, db, "verify", "--all").returncode == 0
    out = cli(tmp_path, db, "import", str(tmp_path / "missing.jsonl"))
    assert out.returncode == 2 and "cannot read" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.parametrize("jobs", [1, 2])
def test_commands_that_skip_or_repeat_events_are_refused_in_workers_too(engine, tmp_path, jobs, monkeypatch):
    monkeypatch.setenv("ARBITER_PLUGINS", "toygame:GAME")  # the workers learn the test's game
    ids, dump = many_games_dump(engine, 2)
    lines = dump.splitlines()
    commands = [i for i, x in enumerate(lines) if x.startswith('{"command"')]
    skipped = "\n".join(x for i, x in enumerate(lines) if i != commands[-3]) + "\n"
    repeated = "\n".join(lines + [lines[commands[-2]]]) + "\n"
    target = Engine(str(tmp_path / f"t{jobs}.duckdb"))
    for forged in (skipped, repeated):
        with target.open() as store, pytest.raises(ImportRefused, match=f"{ids[-1]}: events and commands do not match up"):
            import_jsonl(store, forged, jobs=jobs)
    with target.open() as store:
        assert import_jsonl(store, dump, jobs=jobs) == ids
        assert all(audit.verify_game(store, g).ok for g in ids) and audit.verify_store(store) == []


def one_prepared_game(tmp_path):
    """A stored game's export read back as an import prepares it: (listing, groups, the
    hashes its audit would vouch for), and the engine of the store it came from."""
    from arbiter.core.porting import prepare, read_games

    source = Engine(str(tmp_path / "s.duckdb"))
    _ids, dump = many_games_dump(source, 1)
    (game,) = read_games(dump.splitlines())
    row, groups, envs = prepare(*game)
    return source, row, groups, [e.hash for e, _p in game[1]], envs


def test_an_import_leaves_duckdbs_memory_setting_as_it_was_and_hashes_must_cover_the_events(tmp_path):
    from arbiter.events.store import ChainMismatch, VerifiedHashes, open_store

    source, row, groups, hashes, _envs = one_prepared_game(tmp_path)
    with open_store(str(tmp_path / "t.duckdb")) as store:
        setting = "SELECT current_setting('memory_limit')"
        before = store.con.execute(setting).fetchone()
        for short in (hashes[:-1], hashes + ["0" * 64]):
            with pytest.raises(ChainMismatch):
                store.import_stream(iter([[(row, groups, VerifiedHashes(short))]]))
            assert store.con.execute(setting).fetchone() == before
        assert store.query("SELECT count(*) FROM events_log")[1] == [(0,)]
        store.import_stream(iter([[(row, groups, VerifiedHashes(hashes))]]))
        assert store.con.execute(setting).fetchone() == before
        assert audit.verify_game(store, row.game_id).ok and audit.verify_store(store) == []


def test_a_damaged_file_is_refused_alike_whether_its_games_are_read_here_or_in_workers(engine, tmp_path, monkeypatch):
    """With --jobs 2 this process only splits the file at its headers and each worker reads
    its game's lines; the refusals (and a file that holds) come out as with --jobs 1, and
    alike when the file is read in blocks of bytes rather than line by line (blocks cut
    mid-line here, so that headers and damage fall anywhere in one)."""
    from arbiter.core import porting
    from arbiter.core.porting import FileLines, import_lines

    monkeypatch.setenv("ARBITER_PLUGINS", "toygame:GAME")  # the workers learn the test's game
    monkeypatch.setattr(porting, "SPLIT_BYTES", 700)

    def imported(store, given: list[bytes], jobs: int, how: str) -> list[str]:
        if how == "lines":
            return import_lines(store, list(given), jobs=jobs)
        path = tmp_path / "given.jsonl"
        path.write_bytes(b"".join(given))
        with open(path, "rb") as fh:  # as the command line reads a file: its first line, then the rest
            return import_lines(store, FileLines(fh.readline(), fh), jobs=jobs)

    ids, dump = many_games_dump(engine, 3)
    lines = [x.encode() + b"\n" for x in dump.splitlines()]
    second = [i for i, x in enumerate(lines) if x.startswith(b'{"format"')][1]
    event = next(i for i in range(second, len(lines)) if lines[i].startswith(b'{"event"'))
    damaged = {
        "not JSON": lines[:event + 2] + [b'{"event": \n'] + lines[event + 2:],
        "two on a line": lines[:event] + [lines[event].rstrip(b"\n") + b" " + lines[event + 1]]
        + lines[event + 2:],
        "unknown format": lines[:second] + [lines[second].replace(b"arbiter-log-2", b"arbiter-log-9")]
        + lines[second + 1:],
        "before any header": [b"\n", lines[event]] + lines,
        "a line of nothing": lines[:event] + [b'{"nothing": 1}\n'] + lines[event:],
    }
    ways = [(1, "lines"), (2, "lines"), (2, "file")]
    for name, forged in damaged.items():
        said = []
        for jobs, how in ways:
            target = Engine(str(tmp_path / f"{name}{jobs}{how}.duckdb"))
            with target.open() as store, pytest.raises((TranscriptError, ImportRefused)) as refused:
                imported(store, forged, jobs, how)
            said.append((type(refused.value), str(refused.value)))
            assert count(target) == (0, 0)
        assert said[0] == said[1] == said[2], name
        assert "line " in said[0][1], (name, said[0])
    crlf = [b"\xef\xbb\xbf" + lines[0].replace(b"\n", b"\r\n")] + [b"\n"] + [x.replace(b"\n", b"\r\n") for x in lines[1:]]
    unended = lines[:-1] + [lines[-1].rstrip(b"\n")]  # the last line without its newline
    for given in (crlf, unended):
        for jobs, how in ways:
            target = Engine(str(tmp_path / f"ok{len(given[0])}{jobs}{how}.duckdb"))
            with target.open() as store:
                assert imported(store, given, jobs, how) == ids
                assert all(audit.verify_game(store, g).ok for g in ids)


def test_a_worker_reads_its_game_from_the_file_where_the_split_found_it(engine, tmp_path, monkeypatch):
    """A game of a file on disk is not sent to its worker: the worker reads the bytes where
    the split found them, the very bytes the split saw, whatever came before the first
    header (a byte-order mark, blank lines) and wherever a block of the file was cut."""
    from arbiter.core import porting
    from arbiter.core.porting import FileLines, FileSlice, split_games

    monkeypatch.setattr(porting, "SPLIT_BYTES", 500)
    _ids, dump = many_games_dump(engine, 3)
    path = tmp_path / "given.jsonl"
    path.write_bytes(b"\xef\xbb\xbf\n\r\n" + dump.encode())
    with open(path, "rb") as fh:
        given = FileLines(fh.readline(), fh)
        assert given.source == (str(path), 0)
        games = list(split_games(given))
    # line numbers count the two lines before the first header
    assert [start for _part, start, _at in games] == [i + 3 for i, x in enumerate(dump.splitlines())
                                                      if x.startswith('{"format"')]
    assert b"".join(part for part, _s, _at in games) == dump.encode()
    for part, _start, at in games:
        assert FileSlice(str(path), at, len(part)).read() == part
    with open(path, "rb") as fh:  # a pipe, or a file read from elsewhere than its start
        fh.readline()
        assert FileLines(fh.readline(), fh).source == (str(path), 4)


def test_an_import_with_workers_writes_what_one_process_writes(engine, tmp_path, monkeypatch):
    """With --jobs 2 the workers write each game's rows to a file the store reads: the store
    comes out as with one process (every column but the time of the import, the ledger
    included), imported again it is left as it is, and no file is left behind. The file is
    split at its headers a block of lines at a time: a header spelled with an escape is one."""
    import tempfile

    from arbiter.core import porting
    from arbiter.core.porting import import_lines

    monkeypatch.setenv("ARBITER_PLUGINS", "toygame:GAME")  # the workers learn the test's game
    for batch in ("BATCH_EVENTS", "FILE_BATCH_EVENTS"):
        monkeypatch.setattr(porting, batch, 5)  # several batches, a game or two each
    monkeypatch.setattr(porting, "SPLIT_LINES", 3)  # headers found inside blocks of lines
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    ids, dump = many_games_dump(engine, 4)
    lines = [x.encode() + b"\n" for x in dump.splitlines()]
    third = [i for i, x in enumerate(lines) if x.startswith(b'{"format"')][2]
    lines[third] = lines[third].replace(b'"format"', b'"form\\u0061t"', 1)
    columns = ("SELECT game_id, seq, type, version, actor, CAST(payload AS VARCHAR), command_id, prev_hash,"
               " hash, gseq, ghash, command_text FROM events_log ORDER BY gseq")
    stored = []
    for jobs in (1, 2):
        target = Engine(str(tmp_path / f"t{jobs}.duckdb"))
        with target.open() as store:
            threads = store.con.execute("SELECT current_setting('threads')").fetchone()
            assert import_lines(store, iter(lines), jobs=jobs) == ids
            skipped: list[str] = []
            assert import_lines(store, iter(lines), jobs=jobs, skipped=skipped) == [] and skipped == ids
            assert store.con.execute("SELECT current_setting('threads')").fetchone() == threads
            assert all(audit.verify_game(store, g).ok for g in ids) and audit.verify_store(store) == []
        stored.append([raw(target.path, sql) for sql in (
            columns, "SELECT * FROM heads ORDER BY key", "SELECT count(DISTINCT recorded_at) FROM events_log",
            "SELECT * EXCLUDE (recorded_at) FROM commands ORDER BY game_id, first_seq")])
        assert os.listdir(scratch) == []
    assert stored[0] == stored[1]
    assert stored[1][2] == [(1,)] and len(stored[1][0]) == count(engine)[0]
    with engine.open(read_only=True) as src:
        logged = [(e.game_id, e.seq, e.payload, e.hash) for g in ids for e in src.envelopes(g)]
    assert [(r[0], r[1], r[5], r[8]) for r in stored[1][0]] == logged


def test_a_games_rows_file_must_hold_the_events_audited(tmp_path):
    """The DuckDB store takes a game's rows from a file only when it holds one row for each
    of the game's audited hashes; otherwise nothing is written."""
    from arbiter.events.store import ChainMismatch, Conflict, RowsFile, VerifiedHashes, open_store, write_rows_file

    source, row, _groups, hashes, envs = one_prepared_game(tmp_path)
    with open_store(str(tmp_path / "t.duckdb")) as store:
        made = write_rows_file(str(tmp_path / "rows.jsonl"), envs)
        with open(made.path) as fh:
            lines = fh.readlines()
        short = tmp_path / "short.jsonl"
        short.write_text("".join(lines[:3] + lines[4:]))
        twice = tmp_path / "twice.jsonl"
        twice.write_text("".join(lines[:4] + lines[3:-1]))
        for rows, given in ((RowsFile(str(short), made.events), VerifiedHashes(hashes)),
                            (RowsFile(str(twice), made.events), VerifiedHashes(hashes)),
                            (made, VerifiedHashes(hashes[:-1])), (made, hashes)):
            with pytest.raises((ChainMismatch, Conflict)):
                store.import_stream(iter([[(row, rows, given)]]))
            assert store.query("SELECT count(*) FROM events_log")[1] == [(0,)]
            assert store.query("SELECT count(*) FROM games")[1] == [(0,)]
        store.import_stream(iter([[(row, made, VerifiedHashes(hashes))]]))
        assert not os.path.exists(made.path)
        assert audit.verify_game(store, row.game_id).ok and audit.verify_store(store) == []
    with source.open(read_only=True) as src, open_store(str(tmp_path / "t.duckdb"), read_only=True) as dst:
        assert export_jsonl(dst, row.game_id).splitlines()[1:] == export_jsonl(src, row.game_id).splitlines()[1:]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_file_that_holds_a_game_twice_imports_it_once_however_it_is_batched(engine, tmp_path, monkeypatch, jobs):
    """Two copies of the same log are one game (the second named as already stored) whether
    both fall in one batch or not; the same id with another log refuses the file."""
    from arbiter.core import porting
    from arbiter.core.porting import import_lines
    from arbiter.events.errors import Conflict

    monkeypatch.setenv("ARBITER_PLUGINS", "toygame:GAME")  # the workers learn the test's game
    ids, dump = many_games_dump(engine, 2)
    first = dump[:dump.index('{"format"', 1)]
    other = Engine(str(tmp_path / "other.duckdb"))
    gid, m, _ = other.new("duel", seats=["ann", "bob"], seed=99, options={"target": "30"})
    play(other, gid, m, 6, seed=5)
    with other.open(read_only=True) as store:
        forged = rehash_dump(export_jsonl(store, gid).replace(gid, ids[0]))  # another log, the first id
    for n, size in enumerate((5, 10**6)):
        for batch in ("BATCH_EVENTS", "FILE_BATCH_EVENTS"):
            monkeypatch.setattr(porting, batch, size)
        target = Engine(str(tmp_path / f"t{n}.duckdb"))
        with target.open() as store:
            skipped: list[str] = []
            lines = [x.encode() + b"\n" for x in (dump + first).splitlines()]
            assert import_lines(store, lines, jobs=jobs, skipped=skipped) == ids and skipped == [ids[0]]
        with target.open() as store, pytest.raises(Conflict, match=f"{ids[0]} is already in this store with another log"):
            import_lines(store, [x.encode() + b"\n" for x in (dump + forged).splitlines()], jobs=jobs)
        assert count(target) == count(engine)


def test_a_worker_process_imports_only_what_it_audits_with():
    """A spawned worker (import's, verify --all's) first runs again the script that started
    its parent, then its task: neither the installed script's own module nor the audit of
    any game imports the command line or DuckDB (a tenth of a second of every worker)."""
    import tomllib

    with open(os.path.join(os.path.dirname(HERE), "pyproject.toml"), "rb") as fh:
        module = tomllib.load(fh)["project"]["scripts"]["arbiter"].split(":")[0]
    code = (f"import sys, {module}, arbiter.core.porting, arbiter.core.audit\n"
            "from arbiter.core import registry\n"
            "for kind in registry.known():\n"
            "    registry.get(kind)\n"
            "print(sorted({'typer', 'click', 'rich', 'duckdb', 'structlog'} & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("damage, words", [
    (lambda b: b.replace(b'"arbiter-log-2"', b'"arbiter-log-3"', 1), "line 1: this export was written by a newer arbiter"),
    (lambda b: b.replace(b'"arbiter-log-2"', b'5', 1), "line 1: unknown format 5"),
    (lambda b: b[: b.index(b"\n", b.index(b'"event"')) - 20], "line 2: the line ends before its JSON does"),
    (lambda b: b.replace(b'"type"', b'"ty\xffpe"', 1), "line 2: it is not UTF-8 text (byte 0xff"),
], ids=["newer format", "not a format of ours", "cut short", "not UTF-8"])
def test_a_file_arbiter_cannot_read_is_named_in_words_by_its_line(engine, tmp_path, jobs, damage, words):
    """A newer export, a file cut off mid-line and a line that is not UTF-8 are refused
    naming the line and what is wrong, in the same words with and without workers, and
    nothing is written."""
    _ids, dump = many_games_dump(engine, 1)
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(damage(dump.encode()))
    target = str(tmp_path / "t.duckdb")
    out = cli(tmp_path, target, "import", str(bad), "--jobs", jobs)
    assert out.returncode == 2 and words in out.stderr and "Traceback" not in out.stderr, out.stderr
    assert raw(target, "SELECT count(*) FROM events_log") == [(0,)]
