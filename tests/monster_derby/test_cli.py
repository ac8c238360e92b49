"""Issue 2, "How it will be checked", through the real command line: a full hot-seat game,
a bot game, transcripts with illegal lines failing `check` at the right line with a rule id,
and physical dice explained."""

from __future__ import annotations

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(tmp_path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "ARBITER_DB": str(tmp_path / "md.duckdb"), "ARBITER_HOME": str(tmp_path / "home"),
           "COLUMNS": "100", "ARBITER_LOCK_TIMEOUT": "1", "PYTHONPATH": ROOT}
    return subprocess.run([sys.executable, "-c", "from arbiter.cli.app import main; main()", *args],
                          input=stdin, capture_output=True, text=True, env=env, cwd=str(tmp_path))


def test_a_full_hot_seat_game_then_check_an_edited_transcript(tmp_path):
    moves = "help\n" + "1\n" * 400
    out = run(tmp_path, "play", "monster-derby", "-p", "ann,bob", "--seed", "5", "-o", "boards=1",
              stdin=moves)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stdout + out.stderr
    assert "attack MONSTER       attack a monster in front, e.g. attack golem" in out.stdout  # help
    assert "game over" in out.stdout and "winner" in out.stdout
    gid = out.stdout.split("new game ")[1].split()[0]
    # the board and menus are readable at 100 columns (a piped answer leaves the prompt
    # "ann> " in front of a line); event lines ("  • ...") and the options line are prose,
    # left unwrapped in a pipe (a terminal wraps them)
    shown = [line.split("> ", 1)[-1] if line.startswith(("ann>", "bob>")) else line
             for line in out.stdout.splitlines()]
    assert all(len(line) <= 100 for line in shown
               if not line.lstrip().startswith(("•", "house options:")))
    exported = run(tmp_path, "export", gid, "--output", str(tmp_path / "game.arb"))
    assert exported.returncode == 0, exported.stderr
    lines = (tmp_path / "game.arb").read_text().splitlines()
    assert run(tmp_path, "check", str(tmp_path / "game.arb")).returncode == 0
    # an illegal line: the second roll of a turn
    first_roll = next(i for i, ln in enumerate(lines) if ln.endswith(": roll"))
    bad = lines[: first_roll + 1] + [lines[first_roll]] + lines[first_roll + 1:]
    (tmp_path / "bad.arb").write_text("\n".join(bad) + "\n")
    checked = run(tmp_path, "check", str(tmp_path / "bad.arb"))
    assert checked.returncode == 1
    said = checked.stdout + checked.stderr
    assert f"line {first_roll + 2}" in said and "MD-ROLL-FIRST" in said


def test_a_bot_game_through_the_cli_and_verify(tmp_path):
    out = run(tmp_path, "play", "monster-derby", "-p", "ann,bob", "--seed", "6", "-o", "boards=1",
              "--bot", "ann=agenda", "--bot", "bob=random")
    assert out.returncode == 0, out.stderr
    assert "game over" in out.stdout
    assert run(tmp_path, "verify", "--all").returncode == 0


def test_physical_dice_through_do_say_which_dice_in_which_order(tmp_path):
    new = run(tmp_path, "new", "monster-derby", "--players", "ann,bob", "--seed", "2", "--dice", "manual")
    assert new.returncode == 0, new.stderr
    gid = new.stdout.strip().split()[-1] if new.stdout.strip() else ""
    out = run(tmp_path, "do", gid, "roll")
    said = out.stdout + out.stderr
    assert out.returncode == 2 and "Traceback" not in said
