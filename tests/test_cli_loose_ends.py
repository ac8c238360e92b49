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


def in_process(monkeypatch, tmp_path):
    """The app in this process, the toy game registered from Python (tests/conftest.py)."""
    from typer.testing import CliRunner

    from arbiter.cli.app import app

    monkeypatch.setenv("ARBITER_DB", str(tmp_path / "cli.duckdb"))
    monkeypatch.setenv("ARBITER_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("ARBITER_PLUGINS", raising=False)
    runner = CliRunner()
    return lambda *args: runner.invoke(app, list(args))


def stopped_at_batch(monkeypatch, n: int, committed: bool = False) -> None:
    """Ctrl-C as the ``n``-th batch of a copy (one game a batch) is being written, or just
    after it was (``committed``)."""
    from arbiter.core import copying

    monkeypatch.setattr(copying, "BATCH_GAMES", 1)
    calls = []
    real = copying.import_jsonl

    def importing(store, text, **kw):
        calls.append(1)
        if len(calls) == n:
            if committed:
                real(store, text, **kw)
            raise KeyboardInterrupt
        return real(store, text, **kw)

    monkeypatch.setattr(copying, "import_jsonl", importing)


@pytest.mark.parametrize("at", [1, 3])
def test_ctrl_c_in_copy_says_what_was_copied_and_what_was_not(tmp_path, monkeypatch, at):
    """Ctrl-C in `copy` said "nothing half-written (each move commits whole)", words for a
    game in play: a copy commits batch by batch, so some games may be in the target and
    others not, and a target file the copy had just made was left behind empty."""
    arbiter = in_process(monkeypatch, tmp_path)
    assert arbiter("simulate", "duel", "--games", "4", "--seed", "1").exit_code == 0
    src, dst = str(tmp_path / "cli.duckdb"), str(tmp_path / "copy.duckdb")
    stopped_at_batch(monkeypatch, at)
    out = arbiter("copy", "--from", src, "--to", dst)
    assert out.exit_code == 130 and "Traceback" not in out.output, out.output
    if at == 1:
        assert out.output.strip() == (f"interrupted; nothing was copied, and {dst}, which this copy had made,"
                              " is removed")
        assert not os.path.exists(dst)
        return
    assert out.output.strip().startswith(f"interrupted; 2 of 4 games were copied to {dst}, each whole, and 2 were"
                                 " not: run the same copy again for them"), out.output
    monkeypatch.undo()
    arbiter = in_process(monkeypatch, tmp_path)
    listed = json.loads(arbiter("--db", dst, "games", "-f", "json").output)
    assert len(listed) == 2
    again = arbiter("copy", "--from", src, "--to", dst)
    assert again.exit_code == 0 and "copied 2 games" in again.output and "2 already there" in again.output


def test_ctrl_c_in_copy_as_its_last_batch_commits_says_every_game_was_copied(tmp_path, monkeypatch):
    arbiter = in_process(monkeypatch, tmp_path)
    assert arbiter("simulate", "duel", "--games", "2", "--seed", "1").exit_code == 0
    dst = str(tmp_path / "copy.duckdb")
    stopped_at_batch(monkeypatch, 2, committed=True)
    out = arbiter("copy", "--from", str(tmp_path / "cli.duckdb"), "--to", dst)
    assert out.exit_code == 130 and out.output.strip() == f"interrupted; all 2 games were copied to {dst}, each whole"


def test_ctrl_c_in_copy_before_the_target_is_made_says_so(tmp_path, monkeypatch):
    from arbiter.events import store as duck

    arbiter = in_process(monkeypatch, tmp_path)
    assert arbiter("simulate", "duel", "--games", "2", "--seed", "1").exit_code == 0
    dst = str(tmp_path / "copy.duckdb")

    def stopped(*_args, **_kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(duck.Store, "resolve_game_id", stopped)  # as the source is read
    out = arbiter("copy", "--from", str(tmp_path / "cli.duckdb"), "--to", dst, "du-1")
    assert out.exit_code == 130 and out.output.strip() == f"interrupted; nothing was copied, and {dst} was not made"
    assert not os.path.exists(dst)


def test_ctrl_c_in_copy_into_a_store_that_was_there_leaves_it_as_it_was(tmp_path, monkeypatch):
    arbiter = in_process(monkeypatch, tmp_path)
    assert arbiter("simulate", "duel", "--games", "2", "--seed", "1").exit_code == 0
    dst = str(tmp_path / "copy.duckdb")
    assert arbiter("--db", dst, "new", "duel", "--seed", "1").exit_code == 0
    before = arbiter("--db", dst, "games", "-f", "json").output
    stopped_at_batch(monkeypatch, 1)
    out = arbiter("copy", "--from", str(tmp_path / "cli.duckdb"), "--to", dst)
    assert out.exit_code == 130 and out.output.strip() == f"interrupted; nothing was copied: no game was added to {dst}"
    assert arbiter("--db", dst, "games", "-f", "json").output == before


PROGRESS_BAR = """
import sys
from arbiter.events.store import open_store
for read_only in (False, True):
    with open_store(sys.argv[1], read_only=read_only) as store:
        print(store.con.execute("SELECT current_setting('enable_progress_bar')").fetchone()[0])
"""


def test_duckdb_draws_no_progress_bar_on_any_connection_the_store_opens(tmp_path):
    """Run as `python -c` (or `python -m`), a query past two seconds had DuckDB's progress
    bar written into stdout, between the rows a script reads. Every connection the store
    opens has the bar off: the one `query` runs the user's SQL on, and the writer's."""
    assert run(tmp_path, "new", "duel", "--seed", "1").returncode == 0
    out = run(tmp_path, "query", "select current_setting('enable_progress_bar') as bar", "-f", "json")
    assert json.loads(out.stdout) == [{"bar": False}], out.stderr
    both = subprocess.run([sys.executable, "-c", PROGRESS_BAR, str(tmp_path / "cli.duckdb")],
                          capture_output=True, text=True, env=environment(tmp_path))
    assert both.stdout.split() == ["False", "False"], both.stderr


def test_the_in_memory_connections_draw_no_progress_bar_either(tmp_path, monkeypatch):
    """The in-memory DuckDB a Parquet export writes with (its COPY of a large store runs past
    two seconds) has the bar off as the store's own connections do."""
    from arbiter.core import porting
    from arbiter.events import store as stores

    settings = []
    real = stores.scratch_connection

    def scratch():
        con = real()
        settings.append(con.execute("SELECT current_setting('enable_progress_bar')").fetchone()[0])
        return con

    monkeypatch.setattr(stores, "scratch_connection", scratch)
    assert run(tmp_path, "new", "duel", "--seed", "1").returncode == 0
    with stores.open_store(str(tmp_path / "cli.duckdb"), read_only=True) as store:
        porting.export_parquet(store, str(tmp_path / "pq"))
    assert settings == [False]


def test_a_game_registered_from_python_is_known_to_imports_and_verifys_workers(tmp_path, monkeypatch):
    """A game registered with `registry.register` (the toy game is, by tests/conftest.py)
    was unknown to the worker processes of `import --jobs 2` and `verify --all --jobs 2`,
    which start afresh: verify failed every game ("unknown game 'duel'") and import refused
    the file. ARBITER_PLUGINS is not set here: the workers are handed the game."""
    arbiter = in_process(monkeypatch, tmp_path)
    assert arbiter("simulate", "duel", "--games", "3", "--seed", "2").exit_code == 0
    verified = arbiter("verify", "--all", "--jobs", "2", "-f", "json")
    assert verified.exit_code == 0, verified.output
    ids = [row["game_id"] for row in json.loads(verified.output[verified.output.index("["):])
           if row["verdict"] == "ok"]
    assert len(ids) == 3
    (tmp_path / "all.jsonl").write_text("".join(arbiter("export", gid, "-f", "jsonl").output for gid in ids))
    other = str(tmp_path / "other.duckdb")
    imported = arbiter("--db", other, "import", str(tmp_path / "all.jsonl"), "--jobs", "2")
    assert imported.exit_code == 0 and sorted(imported.output.split()) == sorted(ids), imported.output
    again = arbiter("--db", other, "verify", "--all", "--jobs", "2")
    assert again.exit_code == 0, again.output


def as_a_user(tmp_path, *args, db: str) -> subprocess.CompletedProcess:
    """arbiter run as a user whom file modes bind: root, as these tests may run, reads and
    writes whatever the modes say, so it is run without the capabilities that let it
    (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH), as an unprivileged user is."""
    import shutil

    prefix: tuple[str, ...] = ()
    if os.geteuid() == 0:
        assert shutil.which("setpriv"), "root needs setpriv (util-linux) to be bound by file modes"
        prefix = ("setpriv", "--bounding-set", "-dac_override,-dac_read_search")
    return run(tmp_path, *args, db=db, prefix=prefix)


READS = [["games"], ["show", "{gid}"], ["log", "{gid}"], ["verify", "--all", "--jobs", "2"],
         ["query", "select count(*) as n from events"], ["export", "{gid}", "-f", "jsonl"]]


def test_a_store_this_user_may_only_read_is_read_and_refused_for_writing_in_words(tmp_path):
    """A read-only store file said "IO Error: Cannot open file ...: Permission denied" to every
    verb that writes; in a read-only folder, where DuckDB cannot make its journal, `new` said
    "another writer appended first" (exit 3, as if retrying could help) and `do` "the store
    failed". Reading verbs work either way; writing ones say what is read-only and what to do."""
    folder = tmp_path / "ro"
    folder.mkdir()
    db = str(folder / "s.duckdb")
    gid = run(tmp_path, "new", "duel", "--seed", "1", "-p", "ann,bob", db=db).stdout.strip()
    events = run(tmp_path, "query", "select count(*) as n from events", "-f", "csv", db=db).stdout
    try:
        for mode, said in ((0o444, f"{db} is read-only to this user (mode 0444)"),
                           (0o555, f"{db} is in a folder this user cannot write ({folder})")):
            os.chmod(db if mode == 0o444 else folder, mode)
            for args in READS:
                out = as_a_user(tmp_path, *[a.format(gid=gid) for a in args], db=db)
                assert out.returncode == 0, (args, out.stderr)
            for args in (["new", "duel"], ["do", gid, "--as", "ann", "bid", "1"], ["undo", gid]):
                out = as_a_user(tmp_path, *args, db=db)
                assert out.returncode == 3 and said in out.stderr and "Traceback" not in out.stderr, out.stderr
                assert "can be read" in out.stderr and f"arbiter copy --from {db}" in out.stderr
            if mode == 0o555:
                out = as_a_user(tmp_path, "new", "duel", db=str(folder / "new.duckdb"))
                assert out.returncode == 3 and f"cannot make a store in {folder}" in out.stderr, out.stderr
            os.chmod(db if mode == 0o444 else folder, 0o644 if mode == 0o444 else 0o755)
            assert sorted(os.listdir(folder)) == ["s.duckdb"]
            assert run(tmp_path, "query", "select count(*) as n from events", "-f", "csv", db=db).stdout == events
    finally:
        os.chmod(folder, 0o755)
        os.chmod(db, 0o644)


def test_simulate_gives_a_script_a_row_a_game_stored(tmp_path):
    """`simulate` printed only a table of wins and a sentence ending "last du-…", which a
    script had to take apart for the one id it gave; with -f json|jsonl|csv stdout holds
    every game stored, and the summary goes to stderr."""
    out = run(tmp_path, "simulate", "duel", "--games", "3", "--seed", "4", "-f", "json")
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    assert [r["seed"] for r in rows] == [4, 5, 6] and all(r["finished"] and r["winners"] for r in rows)
    assert "3 games of Duel" in out.stderr and "games won" not in out.stdout
    listed = json.loads(run(tmp_path, "games", "-f", "json").stdout)
    assert sorted(g["game_id"] for g in listed) == sorted(r["game_id"] for r in rows)
    assert {g["game_id"]: [g["winner"]] for g in listed} == {r["game_id"]: r["winners"] for r in rows}
    lines = run(tmp_path, "simulate", "duel", "--games", "2", "-f", "jsonl").stdout.splitlines()
    assert [json.loads(line)["commands"] > 0 for line in lines] == [True, True]
    table = run(tmp_path, "simulate", "duel", "--games", "1")
    assert table.stdout.startswith("winner\tgames won\n") and "1 game of Duel" in table.stdout


@pytest.mark.parametrize("sql, verb", [
    ("delete from events", "DELETE"), ("UPDATE games SET status = 'over'", "UPDATE"),
    ("/* tidy */ insert into games select * from games", "INSERT"), ("drop view dice", "DROP"),
    ("create table mine (a int)", "CREATE"), ("alter table games add column x int", "ALTER"),
])
def test_query_refuses_a_change_to_the_store_in_its_own_words(tmp_path, sql, verb):
    """SQL that would change the store was refused in the database's words: "Cannot execute
    statement of type DELETE on database "cli" which is attached in read-only mode!", or of
    a view, "Binder Error: Can only delete from base table"."""
    assert run(tmp_path, "new", "duel", "--seed", "1").returncode == 0
    out = run(tmp_path, "query", sql)
    assert out.returncode == 2 and "Error" not in out.stderr, out.stderr
    assert f"query reads the store and never changes it, so it does not run {verb}" in out.stderr
    assert run(tmp_path, "query", "create temp table scratch as select 1 as a").returncode == 0
    assert run(tmp_path, "query", "select 'delete' as word", "-f", "csv").stdout == "word\ndelete\n"


def test_do_and_undo_give_a_script_the_receipt_as_data(tmp_path):
    """`do` printed the events as sentences, then "receipt GAME:SEQ:HASH", then whose turn,
    and `undo` its receipt inside a sentence; a script grepped for them. With -f json, jsonl
    or csv they print one row, and the receipt proves present."""
    gid = run(tmp_path, "new", "duel", "--seed", "3", "-p", "ann,bob").stdout.strip()
    out = run(tmp_path, "do", gid, "--as", "ann", "bid", "2", "-f", "json")
    assert out.returncode == 0, out.stderr
    [row] = json.loads(out.stdout)
    assert (row["game_id"], row["seat"], row["command"]) == (gid, "ann", "bid 2")
    assert row["receipt"].startswith(f"{gid}:{row['last_seq']}:") and row["first_seq"] <= row["last_seq"]
    assert row["next"] == "bob chooses in secret: bid 0-3"
    [undone] = list(csv.DictReader(io.StringIO(run(tmp_path, "undo", gid, "-f", "csv").stdout)))
    assert (undone["seat"], undone["command"]) == ("ann", "undo")
    assert int(undone["first_seq"]) == row["last_seq"] + 1
    proved = run(tmp_path, "verify", "--receipt", row["receipt"], "--receipt", undone["receipt"], "-f", "json")
    assert [r["verdict"] for r in json.loads(proved.stdout)] == ["present", "present"]
    refused = run(tmp_path, "do", gid, "--as", "ann", "bid", "9", "-f", "json")
    assert refused.returncode == 1 and refused.stdout == "" and "bids are 0 to 3" in refused.stderr


def test_copy_of_one_game_says_one_game(tmp_path):
    """`copy` of a single game said "copied 1 games"."""
    gid = run(tmp_path, "new", "duel", "--seed", "1").stdout.strip()
    out = run(tmp_path, "copy", "--from", str(tmp_path / "cli.duckdb"), "--to", str(tmp_path / "b.duckdb"), gid)
    assert out.returncode == 0 and out.stdout.startswith("copied 1 game ("), out.stdout


def test_python_m_arbiter_is_the_command_and_its_workers_start(tmp_path):
    """`python -m arbiter` said "'arbiter' is a package and cannot be directly executed".
    Its workers (`verify --all --jobs 2`) run the module again first: they must not start
    another command of their own."""
    m = [sys.executable, "-m", "arbiter"]
    version = subprocess.run([*m, "--version"], capture_output=True, text=True, env=environment(tmp_path),
                             cwd=str(tmp_path))
    assert version.returncode == 0 and version.stdout.startswith("arbiter "), version.stderr
    assert run(tmp_path, "simulate", "duel", "--games", "3").returncode == 0
    out = subprocess.run([*m, "verify", "--all", "--jobs", "2", "-f", "json"], capture_output=True, text=True,
                         env=environment(tmp_path), cwd=str(tmp_path))
    assert out.returncode == 0 and out.stderr == "verified\n", out.stderr
    assert [r["verdict"] for r in json.loads(out.stdout)] == ["ok"] * 3
