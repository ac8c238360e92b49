"""The command line's loose ends a user or a script meets: what `--version` says against what
a game records, numbers where a script reads numbers, Ctrl-C in `copy`, a hint when a rules
change leaves snapshots unused, DuckDB's own progress bar, games registered from Python, and
a store this user may only read. Real processes, or the app in-process where a game has to
be registered from Python."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import tomllib

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ARBITER = [sys.executable, "-c", "from arbiter.cli.app import main; main()"]


def environment(tmp_path, db: str | None = None) -> dict[str, str]:
    return {**os.environ, "ARBITER_PLUGINS": "toygame:GAME", "PYTHONPATH": HERE,
            "ARBITER_DB": db or str(tmp_path / "cli.duckdb"), "ARBITER_HOME": str(tmp_path / "home"),
            "ARBITER_LOCK_TIMEOUT": "1"}


def run(tmp_path, *args, db: str | None = None, stdin: str | None = None,
        prefix: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    return subprocess.run([*prefix, *ARBITER, *args], input=stdin, capture_output=True, text=True,
                          env=environment(tmp_path, db), cwd=str(tmp_path))


def test_version_names_the_release_and_the_engine_each_new_game_records(tmp_path):
    """`--version` said 0.1.0 while every game recorded engine 0.2.0, with nothing to tell
    the two apart: the release is pyproject's, and the engine is the one a new game records."""
    out = run(tmp_path, "--version")
    assert out.returncode == 0, out.stderr
    release = tomllib.load(open(os.path.join(ROOT, "pyproject.toml"), "rb"))["project"]["version"]
    [line] = out.stdout.splitlines()  # one line, the release first
    assert line.startswith(f"arbiter {release} (engine ")
    gid = run(tmp_path, "new", "duel", "--seed", "1", "-p", "ann,bob").stdout.strip()
    recorded = run(tmp_path, "query", "select payload->>'engine_version' as v from events"
                   f" where game_id = '{gid}' and seq = 1", "-f", "json")
    engine = json.loads(recorded.stdout)[0]["v"]
    assert f"(engine {engine}, " in line


def test_games_kinds_gives_a_script_numbers_and_the_eye_a_range(tmp_path):
    """`games --kinds -f json` gave the seats as the text "2–4", which a script has to take
    apart; JSON and CSV now give min_seats and max_seats as numbers (and the bots as a list
    in JSON), while the table keeps "2–4"."""
    from arbiter.core import registry

    listed = json.loads(run(tmp_path, "games", "--kinds", "-f", "json").stdout)
    duel = next(k for k in listed if k["kind"] == "duel")
    game = registry.get("duel")
    assert (duel["min_seats"], duel["max_seats"]) == (game.min_seats, game.max_seats) == (2, 2)
    assert duel["rules_version"] == game.rules_version and isinstance(duel["bots"], list)
    assert "seats" not in duel
    rows = list(csv.DictReader(io.StringIO(run(tmp_path, "games", "--kinds", "-f", "csv").stdout)))
    assert {r["kind"]: (int(r["min_seats"]), int(r["max_seats"])) for r in rows}["monster-derby"] == (
        registry.get("monster-derby").min_seats, registry.get("monster-derby").max_seats)
    table = run(tmp_path, "games", "--kinds").stdout.splitlines()
    assert table[0].split("\t")[:3] == ["kind", "title", "seats"]
    assert next(line for line in table if line.startswith("duel\t")).split("\t")[2] == "2–2"
