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
    checked = run("verify", gid, "--receipt", receipt)
    assert ok(checked).startswith("game_id\t") and checked.stderr.endswith("verified\n")
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


def test_query_prints_sql_forms_not_pythons_on_each_store(tmp_path, store_url):
    """A table into a pipe, CSV and JSON give the values in the forms SQL's command lines
    print, the same on either store: true/false, NULL empty (null in JSON), a blob as
    PostgreSQL's hex, an interval as PostgreSQL writes one, Infinity, and a time in ISO 8601;
    never Python's True, b'..', timedelta or inf. JSON stays JSON every reader takes."""
    run = runner(tmp_path, store_url)
    ok(run("new", "duel", "--seed", "3", "--players", "ann,bob"))
    sql = ("select true as t, false as f, null as n, cast('ab' as bytea) as b,"
           " interval '1 day 2 hours' as i, cast('Infinity' as double precision) as inf,"
           " timestamp '2024-01-02 03:04:05' as ts, 1.5 as d")
    want = ["true", "false", "", "\\x6162", "1 day 02:00:00", "Infinity", "2024-01-02 03:04:05", "1.5"]
    table = ok(run("query", sql)).splitlines()
    assert table[0].split("\t") == ["t", "f", "n", "b", "i", "inf", "ts", "d"]
    # a backslash in a value is written twice into a pipe (README: a line is always a row)
    assert table[1].split("\t") == [w.replace("\\", "\\\\") for w in want]
    assert ok(run("query", sql, "--format", "csv")).splitlines()[1] == ",".join(want)
    (row,) = json.loads(ok(run("query", sql, "--format", "json")), parse_constant=lambda c: pytest.fail(c))
    assert row == {"t": True, "f": False, "n": None, "b": "\\x6162", "i": "1 day 02:00:00",
                   "inf": "Infinity", "ts": "2024-01-02 03:04:05", "d": 1.5}
    # the store's own booleans: the listing of dice has one
    csv_ = ok(run("query", "select manual from dice limit 1", "--format", "csv")).split()
    assert csv_[1:] in ([], ["false"]) and "False" not in csv_
