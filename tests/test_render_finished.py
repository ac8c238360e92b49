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
