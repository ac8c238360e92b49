"""Every verb of the command line against both stores: a DuckDB file and a PostgreSQL
database given as ``--db postgresql://...`` (a throwaway server; skipped with the reason on a
machine without PostgreSQL). Real processes, real exit codes, the same answers."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))


def runner(tmp_path, db: str):
    def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
        env = {**os.environ, "ARBITER_PLUGINS": "toygame:GAME", "PYTHONPATH": HERE, "ARBITER_DB": db,
               "ARBITER_HOME": str(tmp_path / "home"), "COLUMNS": "200", "ARBITER_LOCK_TIMEOUT": "5"}
        out = subprocess.run([sys.executable, "-c", "from arbiter.cli.app import main; main()", *args],
                             input=stdin, capture_output=True, text=True, env=env, cwd=str(tmp_path), timeout=300)
        assert "Traceback" not in out.stderr, out.stderr
        return out
    return run


def ok(out: subprocess.CompletedProcess) -> str:
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


def test_every_verb_on_each_store(tmp_path, store_url):
    run = runner(tmp_path, store_url)
    gid = ok(run("new", "duel", "--seed", "3", "--players", "ann,bob")).strip()
    assert run("do", gid, "--as", "ann", "bid", "7").returncode == 1  # illegal: nothing written
    assert run("do", gid, "--as", "ann", "dance").returncode == 2
    receipt = ok(run("do", gid, "--as", "ann", "bid", "2")).split("receipt ")[1].split()[0]
    ok(run("do", gid, "--as", "bob", "bid", "1"))
    seq = json.loads(ok(run("log", gid, "--format", "json")))[-1]["seq"]
    assert gid in ok(run("show", gid, "--as", "ann"))
    assert gid in ok(run("show", gid, "--at", "3"))
    assert ok(run("log", gid, "--as", "bob", "--format", "jsonl")).count("\n") == seq
    assert ok(run("replay", gid, stdin="n\nn\np\nq\n"))
    assert "legal" in ok(run("try", gid, "--as", "bob", "pass"))  # bob may protest ann's score
    assert run("try", gid, "--as", "bob", "bid", "1").returncode == 1
    assert gid[:4] and ok(run("why", gid, str(seq)))
    ok(run("undo", gid))
    assert json.loads(ok(run("log", gid, "--format", "json")))[-1]["type"] == "Undone"
    fork = ok(run("fork", gid, "--at", "5")).split()[0]
    assert fork != gid and fork in ok(run("games"))
    assert "verified" in ok(run("verify", gid, "--receipt", receipt)) or ok(run("verify", gid))
    ok(run("verify", "--all"))
    rows = json.loads(ok(run("query", "select game_id, kind from games order by game_id", "--format", "json")))
    assert {r["game_id"] for r in rows} == {gid, fork} and {r["kind"] for r in rows} == {"duel"}
    assert int(ok(run("query", "select count(*) as n from dice", "--format", "csv")).split()[1]) >= 0
    assert run("query", "drop table games").returncode == 2
    # JSON as SQL typed it on either store: a JSON column gives its value, text stays text
    (typed,) = json.loads(ok(run("query", "select seats, '[1]' as text from games where game_id = '"
                                 + gid + "'", "--format", "json")))
    assert typed == {"seats": ["ann", "bob"], "text": "[1]"}
    assert run("query", "select nonsense from nowhere").returncode == 2
    assert "DUEL-BID" in ok(run("rules", "duel"))
    transcript = ok(run("export", gid))
    (tmp_path / "t.arb").write_text(transcript)
    ok(run("check", str(tmp_path / "t.arb")))
    jsonl = ok(run("export", gid, "--format", "jsonl"))
    imported = ok(run("import", str(tmp_path / "t.arb"))).split()[0]
    assert imported != gid
    (tmp_path / "g.jsonl").write_text(jsonl)
    again = run("import", str(tmp_path / "g.jsonl"))  # that very game is already there: left as it is
    assert again.returncode == 0 and again.stdout.split() == [gid] and "already in this store" in again.stderr
    ok(run("simulate", "duel", "--games", "3"))
    listed = json.loads(ok(run("games", "--format", "json")))
    assert len(listed) == 2 + 1 + 3 and all(g["events"] for g in listed)
    ok(run("verify", "--all"))


def test_the_demo_runs_on_postgresql(tmp_path, pg_url):
    out = runner(tmp_path, pg_url)("demo")
    assert out.returncode == 0, out.stderr
    assert "verified" in out.stdout and "error" not in out.stderr.lower()
    assert "wacky" in out.stdout  # the SQL step printed the faces


def test_an_id_typed_in_capitals_and_one_statement_a_query_on_each_store(tmp_path, store_url):
    """What a person types: a game id read off a screen in capitals finds the game; a query
    of two statements is refused (exit 2) rather than running both and showing one; an
    imported game whose id holds a control character is refused, nothing stored."""
    run = runner(tmp_path, store_url)
    gid = ok(run("new", "duel", "--seed", "3", "--players", "ann,bob")).strip()
    assert gid in ok(run("show", gid.upper()))
    assert gid in ok(run("show", gid[:5].upper()))
    two = run("query", "select 1 as a; select 2 as b")
    assert two.returncode == 2 and "one SQL statement at a time" in two.stderr, two.stderr
    assert ok(run("query", "select 1 as a;")).split() == ["a", "1"]
    # a later statement could undo the sandbox (on the server: RESET ROLE) before reading
    sneaky = run("query", "select 1; reset role; select current_user")
    assert sneaky.returncode == 2 and "one SQL statement" in sneaky.stderr, sneaky.stderr
    dump = ok(run("export", gid, "--format", "jsonl"))
    lines = dump.splitlines()
    header = json.loads(lines[0])
    header["game"]["game_id"] = "x\x1b[2Jy"
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    before = ok(run("query", "select count(*) as n from games"))
    out = run("import", str(bad))
    assert out.returncode == 2 and "printable characters" in out.stderr and "\x1b" not in out.stderr, out.stderr
    assert ok(run("query", "select count(*) as n from games")) == before
