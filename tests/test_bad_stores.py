"""Bad stores and bad files: a sentence and the documented exit code, never a traceback."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys

import pytest
from storehelp import HERE, cli

from arbiter.events.store import StorageFailed


@pytest.fixture
def cut_store(tmp_path):
    """A store with a few games, copied to half its size (a copy that stopped halfway)."""
    whole = str(tmp_path / "whole.duckdb")
    for kind in ("monster-derby", "villainous"):
        out = cli(tmp_path, whole, "simulate", kind, "--games", "8")
        assert out.returncode == 0, out.stderr
    gid = cli(tmp_path, whole, "query", "select game_id from games limit 1", "-f", "csv").stdout.splitlines()[1]
    data = open(whole, "rb").read()
    half = str(tmp_path / "half.duckdb")
    with open(half, "wb") as fh:
        fh.write(data[: len(data) // 2])
    return half, gid


def test_a_store_cut_to_half_gives_a_sentence_on_every_verb(cut_store, tmp_path):
    half, gid = cut_store
    verbs = [["games"], ["query", "select count(*) from events"], ["query", "select * from events"],
             ["verify", "--all"], ["verify", gid], ["show", gid], ["log", gid], ["replay", gid],
             ["do", gid, "pass"], ["undo", gid], ["why", gid, "3"], ["try", gid, "pass"],
             ["export", gid], ["export", gid, "-f", "jsonl"], ["fork", gid, "--at", "3"],
             ["new", "monster-derby"], ["simulate", "monster-derby", "--games", "1"], ["migrate"]]
    size = os.path.getsize(half)
    for args in verbs:
        out = cli(tmp_path, half, *args, stdin="q\n")
        assert out.returncode == 2, (args, out.returncode, out.stderr[-400:])
        assert "cut off" in out.stderr and "Traceback" not in out.stderr, args
        assert out.stdout.strip() == "", (args, out.stdout[:200])  # no partial results
    assert os.path.getsize(half) == size


def test_a_full_disk_is_a_storage_error_not_a_clash(tmp_path):
    db = str(tmp_path / "s.duckdb")
    assert cli(tmp_path, db, "new", "monster-derby", "--seed", "1").returncode == 0
    size = os.path.getsize(db)

    def no_room() -> None:  # the file system refuses to let any file grow past this
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    env = {**os.environ, "ARBITER_DB": db, "ARBITER_HOME": str(tmp_path / "home"), "PYTHONPATH": HERE}
    out = subprocess.run([sys.executable, "-c", "from arbiter.cli.app import main; main()",
                          "simulate", "monster-derby", "--games", "40"], env=env, capture_output=True,
                         text=True, preexec_fn=no_room)
    assert out.returncode == 3, out.stderr[-500:]
    assert "could not write" in out.stderr and "another writer" not in out.stderr
    assert "Traceback" not in out.stderr
    assert cli(tmp_path, db, "verify", "--all").returncode == 0  # what was committed is whole


def test_a_full_disk_on_postgresql_is_a_storage_error(pg_url):
    from psycopg import errors as pg_errors

    from arbiter.events.store import open_store

    with open_store(pg_url) as store:
        with pytest.raises(StorageFailed, match="could not write"):
            with store._tx("another writer appended first"):
                raise pg_errors.DiskFull("could not extend file: No space left on device")


def test_a_refused_long_line_is_named_not_echoed(tmp_path):
    db = str(tmp_path / "s.duckdb")
    long = "x" * 5_000_000
    path = tmp_path / "long.arb"
    path.write_text(f"# arbiter transcript 1\ngame: duel\nseed: 1\nplayers: ann, bob\n---\nann: bid {long}\n")
    for args in (["check", str(path)], ["import", str(path)], ["check", str(path), "-f", "json"]):
        out = cli(tmp_path, db, *args)
        assert out.returncode in (1, 2), (args, out.stderr[-300:])
        assert len(out.stderr) + len(out.stdout) < 5000, (args, len(out.stderr), len(out.stdout))
        assert "more characters" in out.stderr + out.stdout
    gid = cli(tmp_path, db, "new", "duel", "--seed", "1", "--players", "ann,bob").stdout.strip()
    out = cli(tmp_path, db, "do", gid, "--as", "ann", "bid", long[:100_000])
    assert out.returncode == 2 and len(out.stderr) < 5000 and "Traceback" not in out.stderr


def test_a_header_seed_out_of_range_in_a_transcript_is_bad_input(tmp_path):
    path = tmp_path / "big.arb"
    path.write_text(f"# arbiter transcript 1\ngame: duel\nseed: {2**70}\nplayers: ann, bob\n---\n")
    for verb in ("check", "import"):
        out = cli(tmp_path, str(tmp_path / "s.duckdb"), verb, str(path))
        assert out.returncode == 2 and "seed" in out.stderr and "Traceback" not in out.stderr, out.stderr
