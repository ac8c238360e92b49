"""The command line end to end, as a user runs it: real processes, real exit codes.

The kernel's toy game is loaded as a plugin (ARBITER_PLUGINS), so these tests exercise
the CLI itself; each game's own tests drive its rules.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))


def run(tmp_path, *args: str, stdin: str | None = None, db: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "ARBITER_PLUGINS": "toygame:GAME", "PYTHONPATH": HERE,
           "ARBITER_DB": db or str(tmp_path / "cli.duckdb"), "ARBITER_HOME": str(tmp_path / "home"),
           "COLUMNS": "200", "ARBITER_LOCK_TIMEOUT": "1"}
    return subprocess.run([sys.executable, "-c", "from arbiter.cli.app import main; main()", *args],
                          input=stdin, capture_output=True, text=True, env=env, cwd=str(tmp_path))


@pytest.fixture
def gid(tmp_path):
    out = run(tmp_path, "new", "duel", "--seed", "3", "--players", "ann,bob")
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_new_do_show_log_and_receipts(tmp_path, gid):
    out = run(tmp_path, "do", gid, "--as", "ann", "bid", "2")
    assert out.returncode == 0 and "receipt" in out.stdout
    receipt = out.stdout.split("receipt ")[1].split()[0]
    assert run(tmp_path, "do", gid, "--as", "bob", "bid", "1").returncode == 0
    shown = run(tmp_path, "show", gid, "--as", "ann")
    assert shown.returncode == 0 and gid in shown.stdout
    log = run(tmp_path, "log", gid, "--as", "bob", "--format", "jsonl")
    rows = [json.loads(line) for line in log.stdout.splitlines()]
    assert rows[0]["type"] == "GameCreated"
    verified = run(tmp_path, "verify", gid, "--receipt", receipt)
    assert verified.returncode == 0 and "present" in verified.stderr and gid in verified.stdout


def test_exit_codes(tmp_path, gid):
    assert run(tmp_path, "new", "chess").returncode == 2
    assert "unknown game 'chess'" in run(tmp_path, "new", "chess").stderr
    illegal = run(tmp_path, "do", gid, "--as", "ann", "bid", "7")
    assert illegal.returncode == 1 and "DUEL-BID" in illegal.stderr
    malformed = run(tmp_path, "do", gid, "--as", "ann", "dance")
    assert malformed.returncode == 2 and "not a duel command" in malformed.stderr
    assert run(tmp_path, "do", "nope-123", "bid", "1").returncode == 2
    assert run(tmp_path, "new", "duel", "--option", "target=lots").returncode == 2
    assert run(tmp_path, "new", "duel", "--option", "colour=red").returncode == 2
    assert run(tmp_path, "new", "duel", "--players", "ann,ann").returncode == 2
    assert run(tmp_path, "show", gid, "--as", "zed").returncode == 2
    assert run(tmp_path, "query", "select nonsense from nowhere").returncode == 2
    assert run(tmp_path, "log", gid, "--format", "xml").returncode == 2
    for out in (illegal, malformed):
        assert "Traceback" not in out.stderr


def test_a_locked_store_exits_3(tmp_path, gid):
    import duckdb

    holder = duckdb.connect(str(tmp_path / "cli.duckdb"))
    try:
        out = run(tmp_path, "do", gid, "--as", "ann", "bid", "1")
    finally:
        holder.close()
    assert out.returncode == 3 and "in use" in out.stderr


def test_a_damaged_store_exits_2(tmp_path):
    bad = tmp_path / "bad.duckdb"
    bad.write_text("garbage" * 100)
    out = run(tmp_path, "games", db=str(bad))
    assert out.returncode == 2 and "Traceback" not in out.stderr


def test_query_formats(tmp_path, gid):
    run(tmp_path, "do", gid, "--as", "ann", "bid", "2")
    run(tmp_path, "do", gid, "--as", "bob", "bid", "1")
    csv_out = run(tmp_path, "query", "select die, face from dice", "--format", "csv")
    assert csv_out.stdout.splitlines()[0] == "die,face"
    js = json.loads(run(tmp_path, "query", "select game_id, seq from events order by seq", "-f", "json").stdout)
    assert js[0] == {"game_id": gid, "seq": 1}
    refused = run(tmp_path, "query", "delete from events_log")
    assert refused.returncode == 2


def test_try_and_why(tmp_path, gid):
    run(tmp_path, "do", gid, "--as", "ann", "bid", "2")
    ok = run(tmp_path, "try", gid, "--as", "bob", "bid", "3")
    assert ok.returncode == 0 and ok.stdout.startswith("legal")
    then = run(tmp_path, "try", gid, "--at", "4", "--as", "ann", "protest")
    assert then.returncode == 1 and "DUEL-WINDOW" in then.stderr
    why = run(tmp_path, "why", gid, "5", "--as", "ann")
    assert why.returncode == 0 and "ann: bid 2" in why.stdout
    public = run(tmp_path, "why", gid, "5")
    assert "bid 2" not in public.stdout and "secret" in public.stdout
    assert run(tmp_path, "why", gid, "99").returncode == 2


def test_transcript_export_check_and_import(tmp_path, gid):
    run(tmp_path, "do", gid, "--as", "ann", "bid", "2")
    run(tmp_path, "do", gid, "--as", "bob", "bid", "1")
    path = tmp_path / "game.arb"
    assert run(tmp_path, "export", gid, "-o", str(path)).returncode == 0
    assert run(tmp_path, "check", str(path)).returncode == 0
    bad = path.read_text() + "ann: bid 2\nbob: bid 9\n"
    path.write_text(bad)
    out = run(tmp_path, "check", str(path))
    lines = bad.splitlines()
    assert out.returncode == 1
    assert f"line {len(lines) - 1}" in out.stderr or f"line {len(lines)}" in out.stderr
    assert "DUEL-" in out.stderr or "ARB-" in out.stderr
    garbled = tmp_path / "garbled.arb"
    garbled.write_text("hello\n")
    assert run(tmp_path, "check", str(garbled)).returncode == 2
    assert run(tmp_path, "check", str(tmp_path / "missing.arb")).returncode == 2
    jsonl = tmp_path / "g.jsonl"
    run(tmp_path, "export", gid, "--format", "jsonl", "-o", str(jsonl))
    other = str(tmp_path / "other.duckdb")
    assert run(tmp_path, "import", str(jsonl), db=other).returncode == 0
    assert run(tmp_path, "verify", "--all", db=other).returncode == 0
    again = run(tmp_path, "import", str(jsonl), db=other)  # the same game: left as it is
    assert again.returncode == 0 and again.stdout.split() == [gid] and "already in this store" in again.stderr


def test_play_hot_seat_from_stdin(tmp_path, gid):
    out = run(tmp_path, "play", gid, stdin="1\n2\nbid 1\n")
    assert out.returncode == 0, out.stderr
    assert "resume with" in out.stdout


def test_play_with_bots_to_the_end_then_verify_all(tmp_path):
    out = run(tmp_path, "play", "duel", "--bot", "all=random", "--seed", "4")
    assert out.returncode == 0 and "game over" in out.stdout
    sim = run(tmp_path, "simulate", "duel", "--games", "5", "--seed", "7")
    assert sim.returncode == 0 and "games won" in sim.stdout
    assert run(tmp_path, "verify", "--all").returncode == 0


def test_undo_fork_rules_games(tmp_path, gid):
    run(tmp_path, "do", gid, "--as", "ann", "bid", "2")
    out = run(tmp_path, "undo", gid)
    assert out.returncode == 0 and "undid ann's move `bid 2`" in out.stdout
    assert run(tmp_path, "undo", gid).returncode == 1
    run(tmp_path, "do", gid, "--as", "ann", "bid", "2")
    forked = run(tmp_path, "fork", gid, "--at", "4")
    assert forked.returncode == 0 and forked.stdout.strip() != gid
    assert "DUEL-BID" in run(tmp_path, "rules", "duel").stdout
    assert "target" in run(tmp_path, "rules", "duel").stdout
    listed = run(tmp_path, "games")
    assert gid in listed.stdout


def test_replay_steps_back_and_forth(tmp_path, gid):
    run(tmp_path, "do", gid, "--as", "ann", "bid", "2")
    out = run(tmp_path, "replay", gid, "--as", "ann", stdin="n\nn\np\ng 5\ne\nq\n")
    assert out.returncode == 0
    assert "seq 2/" in out.stdout and "seq 5/" in out.stdout


def test_try_never_tells_the_next_roll_or_a_hidden_card(tmp_path, gid):
    run(tmp_path, "do", gid, "--as", "ann", "bid", "2")
    out = run(tmp_path, "try", gid, "--as", "bob", "bid", "1")
    assert out.returncode == 0
    # bob's bid is the last: the reveal of ann's secret bid, and the roll after it, are not told
    assert "bob=1" in out.stdout or "bid=1" in out.stdout
    assert "'ann': 2" not in out.stdout and "rolled" not in out.stdout
    assert "depends on the other seats' secret choices" in out.stdout
    full = run(tmp_path, "try", gid, "--as", "referee", "bid", "1")
    assert "'ann': 2" in full.stdout and "rolled" in full.stdout
    why = run(tmp_path, "why", gid, "5", "--as", "bob")
    assert why.returncode == 0 and "bid=-1" in why.stdout  # ann's secret bid, as bob sees it
    assert "bid 2" not in why.stdout


@pytest.mark.parametrize("args", [
    ["query", ""],
    ["show", "{gid}", "--at", "999"],
    ["fork", "{gid}", "--at", "-5"],
    ["export", "{gid}", "-o", "/nonexistent/dir/game.arb"],
    ["simulate", "duel", "--games", "0"],
    ["verify", "--receipt", "abc"],
    ["new", "duel", "--content", "/etc/hostname"],
    ["check", "/bin/sh"],
    ["import", "/etc/hostname"],
])
def test_user_mistakes_get_a_message_and_exit_2(tmp_path, gid, args):
    out = run(tmp_path, *[a.format(gid=gid) for a in args])
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr and out.stderr.strip()


def test_play_with_physical_dice_asks_for_the_faces(tmp_path):
    gid = run(tmp_path, "new", "duel", "--dice", "manual", "-p", "ann,bob").stdout.strip()
    run(tmp_path, "do", gid, "--as", "ann", "bid", "2")
    out = run(tmp_path, "play", gid, stdin="bid 1\n9\n5\n")
    assert out.returncode == 0, out.stderr
    assert "give their faces" in out.stderr and "not a face" in out.stderr
    shown = run(tmp_path, "log", gid, "--as", "referee")
    assert "d6 5 (physical dice)" in shown.stdout


def test_a_typo_gets_the_nearest_legal_commands(tmp_path, gid):
    out = run(tmp_path, "do", gid, "--as", "ann", "bdi", "2")
    assert out.returncode == 2 and "did you mean: `bid 2`" in out.stderr
    assert "Traceback" not in out.stderr


@pytest.mark.parametrize("kind,typo,near", [
    ("monster-derby", "kep", "'keep'"),
    ("villainous", "movee the-bx", "move the-box"),
    ("my-little-scythe", "mvoe", "move"),
    ("funkoverse-jaws", "plce", "place"),
])
def test_typo_suggestions_in_every_game(tmp_path, kind, typo, near):
    gid = run(tmp_path, "new", kind, "-p", "ann,bob", "--seed", "1").stdout.strip()
    out = run(tmp_path, "do", gid, "--as", "ann", *typo.split())
    assert out.returncode == 2 and "did you mean" in out.stderr and near in out.stderr, out.stderr


def test_replay_steps_by_command_and_turn_searches_and_hands_over_to_try_and_fork(tmp_path):
    out = run(tmp_path, "play", "duel", "--bot", "all=random", "--seed", "4")
    gid = out.stdout.split("new game ")[1].split()[0]
    keys = "c\nc\nt\nT\n/protest\n?bid\nr\ntry --as p1 bid 2\nfork\ne\nq\n"
    out = run(tmp_path, "replay", gid, "--as", "referee", stdin=keys)
    assert out.returncode == 0, out.stderr
    import re

    seqs = [int(n) for n in re.findall(r"─ \S+ seq (\d+)/", out.stdout)]
    log = json.loads(run(tmp_path, "log", gid, "--as", "referee", "--format", "json").stdout)
    kinds = {row["seq"]: row["type"] for row in log}
    # c: the end of setup, then of p1's bid; t: past the next change of who must act; T: back
    assert kinds[seqs[1]] == "CardDealt" and kinds[seqs[2]] == "BidMade"
    assert seqs[3] > seqs[2] and seqs[4] <= seqs[3]
    assert kinds[seqs[5]] == "Protested" and kinds[seqs[6]].startswith("Bid") and seqs[6] < seqs[5]
    assert "keeps no round count" in out.stderr
    assert "legal: p1: bid 2" in out.stdout or "illegal" in out.stderr or "DUEL-" in out.stderr
    forked = [g for g in re.findall(r"> (du-[0-9a-f]{6})$", out.stdout, re.M) if g != gid]
    assert forked and run(tmp_path, "show", forked[0]).returncode == 0
    assert seqs[-1] == len(log)


def test_a_bot_at_a_table_with_physical_dice_has_its_dice_rolled_by_the_person_at_the_keyboard(tmp_path):
    out = run(tmp_path, "play", "monster-derby", "-p", "ann,bob", "--dice", "manual", "--bot", "all=random",
              stdin="9\n4\n\n")
    assert out.returncode == 0, out.stderr
    assert "(bot) plays `" in out.stderr and "is not a face" in out.stderr and "Traceback" not in out.stderr
    assert "saved. resume with" in out.stdout  # the next roll was declined: the game waits there
    gid = out.stdout.split("new game ")[1].split()[0]
    assert "(physical dice)" in run(tmp_path, "log", gid, "--as", "referee").stdout
