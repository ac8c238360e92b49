"""``arbiter play --server URL --token TOKEN``: the terminal as a client of a served game."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytest.importorskip("litestar", reason="the server extra (litestar) is not installed")
import httpx  # noqa: E402

from arbiter.service.load import Running  # noqa: E402


def arbiter(tmp_path, *args, stdin=""):
    env = {**os.environ, "ARBITER_HOME": str(tmp_path / "home"), "ARBITER_DB": str(tmp_path / "local.duckdb"),
           "NO_COLOR": "1", "COLUMNS": "100"}
    return subprocess.run([sys.executable, "-c", "from arbiter.cli.app import main; main()", *args],
                          input=stdin, capture_output=True, text=True, env=env, timeout=120)


def test_a_seat_plays_a_served_game_from_the_terminal(tmp_path):
    with Running(str(tmp_path / "served.duckdb")) as server:
        game = httpx.post(f"{server.url}/games", json={"kind": "monster-derby", "players": ["ann", "bob"]}).json()
        gid = game["game_id"]
        ann = game["seats"]["ann"]["token"]
        bob = {"Authorization": f"Bearer {game['seats']['bob']['token']}"}
        bob_pick = httpx.get(f"{server.url}/games/{gid}", headers=bob).json()["legal"][0]
        httpx.post(f"{server.url}/games/{gid}/commands", headers=bob, json={"text": bob_pick})
        out = arbiter(tmp_path, "play", gid, "--server", server.url, "--token", ann,
                      stdin="keep agenda-99\n1\nq\n")
        assert out.returncode == 0, out.stderr
        assert "ann, your decision" in out.stdout and " 1. keep agenda-" in out.stdout
        assert "refused:" in out.stderr
        assert "receipt " + gid in out.stdout
        # bob's kept agenda is his secret: ann's terminal never names it
        assert bob_pick.split()[-1] not in out.stdout
        state = httpx.get(f"{server.url}/games/{gid}", headers=bob).json()
        assert state["decision"] != "simultaneous"


def test_wrong_token_and_half_flags_are_clear_errors(tmp_path):
    with Running(str(tmp_path / "served.duckdb")) as server:
        out = arbiter(tmp_path, "play", "md-000000", "--server", server.url, "--token", "nope")
        assert out.returncode == 2 and "token" in out.stderr and "Traceback" not in out.stderr
    out = arbiter(tmp_path, "play", "md-000000", "--server", "http://127.0.0.1:9")
    assert out.returncode == 2 and "--token" in out.stderr
