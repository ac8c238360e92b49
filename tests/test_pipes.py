"""The command line in scripts and at a terminal: plain, unwrapped output into pipes, NO_COLOR,
a reader that stops early (`| head`), one `--format` flag, `--version`, completion, help
without `<bool>`, `simulate --seats`, progress on stderr's terminal, and `show --at` inside
the setup. Real subprocesses (and a pseudo-terminal where a terminal is the point)."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys

import pytest
import typer
from storehelp import HERE, cli

ARBITER = [sys.executable, "-c", "from arbiter.cli.app import main; main()"]
KINDS = ("monster-derby", "villainous", "scott-pilgrim", "my-little-scythe", "funkoverse-jaws")
COLOR = re.compile(r"\x1b\[(3\d|9\d|38;)")  # a foreground colour, not bold


def env(tmp_path, db: str, **more: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "COLUMNS")}
    return {**base, "ARBITER_DB": db, "ARBITER_HOME": str(tmp_path / "home"), "PYTHONPATH": HERE,
            "ARBITER_PLUGINS": "toygame:GAME", "TERM": "xterm-256color", **more}


def on_pty(args: list[str], environ: dict[str, str], stream: str = "stdout") -> tuple[str, str, int]:
    """Run with ``stream`` on a pseudo-terminal (the other piped): (terminal text, piped text, exit)."""
    master, slave = pty.openpty()
    p = subprocess.Popen(ARBITER + args, env=environ, stdin=subprocess.DEVNULL,
                         stdout=slave if stream == "stdout" else subprocess.PIPE,
                         stderr=slave if stream == "stderr" else subprocess.PIPE)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # the program closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    piped = p.communicate()[0 if stream == "stderr" else 1]
    os.close(master)
    return b"".join(chunks).decode(errors="replace"), piped.decode(errors="replace"), p.returncode


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """One finished game of every kind (bots), in a DuckDB file."""
    tmp = tmp_path_factory.mktemp("pipes")
    db = str(tmp / "s.duckdb")
    for kind in KINDS:
        out = cli(tmp, db, "simulate", kind, "--games", "1", "--seed", "7")
        assert out.returncode == 0, out.stderr
    ids = {}
    for line in cli(tmp, db, "query", "select kind, game_id from games", "-f", "csv").stdout.splitlines()[1:]:
        kind, gid = line.split(",")
        ids[kind] = gid
    return db, ids


@pytest.mark.parametrize("args", [
    ["log", "{villainous}", "-f", "jsonl"], ["log", "{villainous}"], ["query", "select * from events"],
    ["query", "select * from events", "-f", "json"], ["export", "{villainous}", "-f", "jsonl"],
    ["export", "{villainous}"], ["why", "{villainous}", "30"], ["rules", "villainous"],
])
def test_a_reader_that_stops_early_is_no_error(store, tmp_path, args):
    """`arbiter ... | head -1`: exit 0, nothing on stderr (no "Broken pipe", no traceback)."""
    db, ids = store
    args = [a.format(villainous=ids["villainous"])
            for a in args]
    p = subprocess.Popen(ARBITER + args, env=env(tmp_path, db), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout.readline()
    p.stdout.close()  # as head does once it has its line
    err = p.stderr.read().decode()
    assert p.wait() == 0 and err == "", (args, err[-500:])


def test_output_into_a_pipe_is_plain_and_unwrapped(store, tmp_path):
    db, ids = store
    narrow = env(tmp_path, db, COLUMNS="40")
    out = subprocess.run(ARBITER + ["games"], env=narrow, capture_output=True, text=True)
    rows = out.stdout.splitlines()
    assert out.returncode == 0 and len(rows) == 1 + len(KINDS)
    for kind, gid in ids.items():  # one line a game, each whole, however narrow COLUMNS says
        assert any(r.startswith(gid) and kind in r and "over" in r for r in rows), rows
    assert "…" not in out.stdout and "\x1b[" not in out.stdout
    # the listing's columns are named as the games table names them
    assert rows[0].split() == ["game_id", "kind", "seats", "status", "winner", "events", "created_at", "seed"]
    transcript = cli(tmp_path, db, "export", ids["monster-derby"]).stdout.splitlines()
    i = next(i for i, line in enumerate(transcript) if line.endswith(": roll"))
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(transcript[: i + 2] + [transcript[i + 1].split(":")[0] + ": move 22a"]) + "\n")
    out = subprocess.run(ARBITER + ["check", str(bad)], env=narrow, capture_output=True, text=True)
    said = out.stdout + out.stderr
    assert out.returncode == 1 and "\x1b[" not in said, said
    line = next(line for line in said.splitlines() if "MD-" in line)
    assert re.search(r"\(MD-[A-Z-]+, \"[^\"]+\"\)", line), said  # the rule id and section on one line
    out = subprocess.run(ARBITER + ["rules", "villainous"], env=narrow, capture_output=True, text=True)
    assert "…" not in out.stdout and any(len(r) > 40 for r in out.stdout.splitlines())


def test_no_color_is_respected_at_a_terminal(store, tmp_path):
    db, ids = store
    coloured, _piped, rc = on_pty(["verify", ids["scott-pilgrim"]], env(tmp_path, db))
    assert rc == 0 and COLOR.search(coloured), repr(coloured[:300])
    plain, _piped, rc = on_pty(["verify", ids["scott-pilgrim"]], env(tmp_path, db, NO_COLOR="1"))
    assert rc == 0 and "verified" in plain and not COLOR.search(plain), repr(plain[:300])


def test_verify_all_shows_progress_on_the_terminal_while_its_report_goes_to_a_file(store, tmp_path):
    db, _ids = store
    bar, report, rc = on_pty(["verify", "--all", "-f", "csv"], env(tmp_path, db), stream="stderr")
    assert rc == 0 and "verifying" in bar
    assert report.splitlines()[0] == "game_id,events,commands,draws,verdict" and "verifying" not in report
    quiet = subprocess.run(ARBITER + ["verify", "--all"], env=env(tmp_path, db), capture_output=True, text=True)
    assert quiet.returncode == 0 and quiet.stderr == ""  # no bar into a log file


def test_simulate_seats_and_no_progress_bar_into_a_pipe(tmp_path):
    db = str(tmp_path / "s.duckdb")
    out = subprocess.run(ARBITER + ["simulate", "villainous", "--games", "1", "--seats", "3"],
                         env=env(tmp_path, db), capture_output=True, text=True)
    assert out.returncode == 0 and out.stderr == "", out.stderr
    seats = cli(tmp_path, db, "query", "select seats from games", "-f", "json").stdout
    assert json.loads(seats)[0]["seats"] == ["bot1", "bot2", "bot3"]
    out = subprocess.run(ARBITER + ["simulate", "scott-pilgrim", "--games", "1", "--seats", "9"],
                         env=env(tmp_path, db), capture_output=True, text=True)
    assert out.returncode == 2 and "players" in out.stderr and "Traceback" not in out.stderr


def test_version_completion_and_help_without_bool(tmp_path):
    from typer.testing import CliRunner

    from arbiter.cli.app import app

    runner = CliRunner()
    version = subprocess.run(ARBITER + ["--version"], capture_output=True, text=True)
    assert version.returncode == 0 and re.fullmatch(r"arbiter \d+\.\d+\.\d+\S*\n", version.stdout)
    top = runner.invoke(app, ["--help"], env={"COLUMNS": "200"})
    assert "--install-completion" in top.output and "--version" in top.output
    verbs = sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
    assert {"games", "show", "verify", "query", "simulate"} <= set(verbs), verbs
    for verb in verbs:
        text = runner.invoke(app, [verb, "--help"], env={"COLUMNS": "200"}).output
        assert "<bool>" not in text and "BOOLEAN" not in text, (verb, text)


#: Every verb that prints data, and the formats its --format takes.
FORMATS = {"games": "table|json|csv|jsonl", "log": "table|json|csv|jsonl", "verify": "table|json|csv|jsonl",
           "check": "table|json|csv|jsonl", "try": "table|json|csv|jsonl", "why": "table|json|csv|jsonl",
           "rules": "table|json|csv|jsonl", "query": "table|json|csv|jsonl", "show": "table|json|jsonl"}


def test_one_format_flag_spelt_the_same_on_every_verb_that_prints_data():
    from typer.testing import CliRunner

    from arbiter.cli.app import app

    runner = CliRunner()
    for verb, formats in FORMATS.items():
        text = runner.invoke(app, [verb, "--help"], env={"COLUMNS": "200"}).output
        assert f"-f, --format {formats}" in text, (verb, text)
    text = runner.invoke(app, ["export", "--help"], env={"COLUMNS": "200"}).output
    assert "-f, --format transcript|jsonl|parquet" in text


def test_show_inside_the_setup_says_what_it_waits_on(store, tmp_path):
    db, ids = store
    for kind, gid in ids.items():
        out = cli(tmp_path, db, "show", gid, "--at", "2")
        assert out.returncode == 0, out.stderr
        last = out.stdout.splitlines()[-1]
        assert last.startswith("setting up: seq 2 is inside the referee's setup (seq 1–"), (kind, last)
        assert "to act" in last or "in secret" in last, (kind, last)
        assert not any(line.strip() in ("over", "waiting on :") for line in out.stdout.splitlines()), kind
