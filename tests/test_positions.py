"""`show --at SEQ` and each step of `replay` say the same of every position: inside the setup
or inside a command, what it waits on (the rest of those events, then whose decision); between
commands, whose decision it is. A secret command's words stay secret in both."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from arbiter.cli.app import app
from arbiter.core.engine import Engine


@pytest.fixture
def cli(tmp_path, monkeypatch):
    db = str(tmp_path / "pos.duckdb")
    monkeypatch.setenv("ARBITER_DB", db)
    monkeypatch.setenv("ARBITER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "400")
    runner = CliRunner()

    def run(*args: str, stdin: str | None = None) -> str:
        out = runner.invoke(app, list(args), input=stdin)
        assert out.exit_code == 0, out.output
        return out.output
    run.db = db  # type: ignore[attr-defined]
    return run


@pytest.fixture
def derby(cli) -> str:
    """A Monster Derby game past its agendas (each kept in secret; the last keep also starts
    round 1, so it is a command of two events) and one roll."""
    gid = cli("new", "monster-derby", "--seed", "5", "-p", "ann,bob", "-o", "boards=1").split()[0]
    eng = Engine(cli.db)
    for seat in ("ann", "bob"):
        cli("do", gid, "--as", seat, eng.load(gid).legal_texts(seat)[0])
    m = eng.load(gid)
    cli("do", gid, "--as", m.to_act().seats[0], "roll")
    return gid


def shown(cli, gid: str, seq: int, *seat: str) -> str:
    return cli("show", gid, "--at", str(seq), *seat).splitlines()[-1]


def replayed(cli, gid: str, head: int, *seat: str) -> dict[int, str]:
    """seq -> the line under the board at each step of a replay from seq 1 to the head."""
    out = cli("replay", gid, *seat, "--at", "1", stdin="n\n" * (head - 1) + "q\n")
    out = out.replace("replay (h: keys)> ", "\n")  # a prompt answered from a pipe ends no line
    steps = re.split(r"^─+ \S+ seq (\d+)/\d+.*$", out, flags=re.M)[1:]
    said = {}
    for seq, body in zip(steps[::2], steps[1::2]):
        lines = [ln for ln in body.splitlines() if ln.strip()]
        said[int(seq)] = lines[-1]
    return said


@pytest.mark.parametrize("seat", [(), ("--as", "ann"), ("--as", "bob"), ("--as", "referee")])
def test_every_position_is_described_alike_by_show_and_replay(cli, derby, seat):
    head = Engine(cli.db).load(derby).seq
    by_replay = replayed(cli, derby, head, *seat)
    assert sorted(by_replay) == list(range(1, head + 1))
    for seq in range(1, head + 1):
        assert by_replay[seq] == shown(cli, derby, seq, *seat), seq
    assert by_replay[2].startswith("setting up: seq 2 is inside the referee's setup (seq 1–")
    mid = [s for s, line in by_replay.items() if line.startswith("mid-command")]
    assert mid, by_replay  # the last keep: its AgendaKept, then the round begins
    assert " to act: " in by_replay[head] and not by_replay[head].startswith(("mid-command", "setting up"))


def test_a_secret_command_is_not_named_inside_it(cli, derby):
    log = cli("log", derby, "--as", "referee", "--format", "jsonl")
    kept = [ln for ln in log.splitlines() if '"AgendaKept"' in ln]
    last_keep = int(re.search(r'"seq":\s*(\d+)', kept[-1]).group(1))
    agenda = re.search(r'"agenda":\s*"([^"]+)"', kept[-1]).group(1)
    keeper = re.search(r'"seat":\s*"([^"]+)"', kept[-1]).group(1)
    other = "ann" if keeper == "bob" else "bob"
    for who in ((), ("--as", other)):
        line = shown(cli, derby, last_keep, *who)
        assert line.startswith(f"mid-command: seq {last_keep} is inside {keeper}'s (a secret choice)")
        assert agenda not in line and replayed(cli, derby, last_keep, *who)[last_keep] == line
    mine = shown(cli, derby, last_keep, "--as", keeper)
    assert f"{keeper}'s 'keep {agenda}'" in mine
