"""`arbiter bench` runs through every row (with tiny sizes: this checks that it completes
and prints each measure with its aim, never how fast anything is)."""

from __future__ import annotations

import os
import subprocess
import sys

ROWS = ("replay (read+decode+fold)", "replay against the column floor", "arbiter --help",
        "arbiter do, short game", "arbiter do, ", "arbiter show --at 10", "step back to a random seq",
        "stored command", "the better --jobs", "verify --all, ", "--jobs 1: peak memory", "--jobs 2",
        "import (jsonl, every command re-decided)", "DuckDB read_json", "service (")


def test_bench_quick_prints_every_row(tmp_path):
    env = {**os.environ, "COLUMNS": "400", "HOME": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", "from arbiter.cli.app import main; main()",
                          "bench", "--quick"], capture_output=True, text=True, env=env,
                         cwd=tmp_path, timeout=1200)
    assert out.returncode == 0, out.stdout + out.stderr
    for row in ROWS:
        assert row in out.stdout, (row, out.stdout)
    assert out.stdout.count("--jobs 2") == 2 and out.stdout.count("≤ 1.5x") >= 2
    from arbiter.core import registry

    games = ("monster-derby", "villainous", "my-little-scythe", "funkoverse-jaws", "scott-pilgrim")
    for kind in games:  # a replay row for every game, against its own floor
        assert f"replay against the column floor, {registry.get(kind).title} (" in out.stdout, kind
    assert "Traceback" not in out.stderr


def test_whole_processes_are_timed_in_turns_and_compared_round_by_round():
    """A machine that slows down between two commands' runs must not show as their ratio:
    bench runs one of each command a round, and divides within a round."""
    import sys

    from arbiter.cli.bench import ratio, rounds

    order = []

    def cmd(name):
        def before(i):
            order.append((i, name))
            return [sys.executable, "-S", "-c", "pass"]
        return before

    times = rounds({"a": cmd("a"), "b": cmd("b")}, {}, runs=2)
    assert order == [(0, "a"), (0, "b"), (1, "a"), (1, "b"), (2, "a"), (2, "b")]  # round 0 is untimed
    assert [len(times["a"]), len(times["b"])] == [2, 2] and all(w > 0 and c >= 0 for w, c in times["a"])
    # a took twice b's time in two rounds of three: 2x, though a's median over b's is 0.5x
    drift = {"a": [(1.0, 1.0), (10.0, 10.0), (2.0, 2.0)], "b": [(0.5, 0.5), (5.0, 5.0), (4.0, 4.0)]}
    assert ratio(drift, "a", "b") == (2.0, 2.0)


def test_a_speed_up_under_one_is_said_as_slower():
    from arbiter.cli.bench import faster

    assert faster(1.83) == "1.83x faster" and faster(0.5) == "2.00x slower" and faster(1.0) == "1.00x faster"


def test_a_compared_run_is_shown_by_its_median():
    from arbiter.cli.bench import median_run

    runs = [(5.0, 9.0, 170.0, 0), (4.0, 8.0, 171.0, 0), (6.0, 9.5, 172.0, 0)]
    assert median_run(runs) == (5.0, 9.0, 170.0, 0)
    assert median_run([*runs, (1.0, 1.0, 50.0, 2)]) == (1.0, 1.0, 50.0, 2)  # a failure shows
