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
    assert out.stdout.count("--jobs 2") == 2 and out.stdout.count("≤ 1.5x") >= 3
    assert "Traceback" not in out.stderr
