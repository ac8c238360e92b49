"""A finished game, loaded in a new process (from the snapshot its simulation wrote), is
shown whole: no crash for want of content the setup would have registered, and nothing
awaited once the game is over."""

from __future__ import annotations

import os
import subprocess
import sys


def arbiter(tmp_path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "ARBITER_DB": str(tmp_path / "fin.duckdb"), "ARBITER_HOME": str(tmp_path / "home")}
    return subprocess.run([sys.executable, "-c", "from arbiter.cli.app import main; main()", *args],
                          capture_output=True, text=True, env=env, cwd=str(tmp_path))


def test_a_finished_villainous_game_shows_from_its_snapshot(tmp_path):
    assert arbiter(tmp_path, "simulate", "villainous", "--games", "1", "--seed", "5").returncode == 0
    gid = arbiter(tmp_path, "query", "select game_id from games", "--format", "csv").stdout.split()[-1]
    for extra in ([], ["--compact"], ["--as", "bot1"]):
        out = arbiter(tmp_path, "show", gid, *extra)
        assert out.returncode == 0, out.stderr[-2000:]
        assert "Traceback" not in out.stderr and "game over — winner" in out.stdout
        assert "Condition window" not in out.stdout and "Waiting on" not in out.stdout, out.stdout


def test_a_pie_fight_shows_the_seat_its_own_dial_and_the_other_only_that_it_is_set(tmp_path):
    assert arbiter(tmp_path, "simulate", "my-little-scythe", "--games", "1", "--seed", "5").returncode == 0
    gid = arbiter(tmp_path, "query", "select game_id from games", "--format", "csv").stdout.split()[-1]
    rows = arbiter(tmp_path, "query", f"select seq, actor, payload->>'$.pies' from events where game_id = '{gid}'"
                   " and type = 'DialSet' order by seq limit 1", "--format", "csv").stdout.split()[-1]
    seq, setter, pies = rows.split(",")
    # a fork just after the first dial: the fight is still on, so the other dial is a secret
    fork = arbiter(tmp_path, "fork", gid, "--at", seq).stdout.split()[-1]
    seats = arbiter(tmp_path, "query", f"select seats from games where game_id = '{gid}'", "--format", "csv")
    other = next(s for s in ("bot1", "bot2") if s != setter and s in seats.stdout)
    mine = arbiter(tmp_path, "show", fork, "--as", setter)
    assert mine.returncode == 0 and f"your dial: {pies} pie" in mine.stdout, mine.stdout
    theirs = arbiter(tmp_path, "show", fork, "--as", other)
    assert theirs.returncode == 0 and "your dial" not in theirs.stdout and f"dials set: {setter}" in theirs.stdout
