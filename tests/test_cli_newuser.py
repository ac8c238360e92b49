"""What a new user gets wrong at the command line, each answered with a clear error, the right
exit code and the store unchanged: an unknown seat, a receipt typed wrong, a `--db` that
cannot be a store, bytes that are not UTF-8, a game kind or a player name mistyped; and
script output (`--format json|jsonl|csv`) that parses whatever else a verb has to say.
Real processes, as a user runs them."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ARBITER = [sys.executable, "-c", "from arbiter.cli.app import main; main()"]


def environment(tmp_path, db: str | None = None) -> dict[str, str]:
    return {**os.environ, "ARBITER_PLUGINS": "toygame:GAME", "PYTHONPATH": HERE,
            "ARBITER_DB": db or str(tmp_path / "cli.duckdb"), "ARBITER_HOME": str(tmp_path / "home"),
            "ARBITER_LOCK_TIMEOUT": "1"}


def run(tmp_path, *args, stdin: bytes | str | None = None, db: str | None = None) -> subprocess.CompletedProcess:
    env = environment(tmp_path, db)
    if isinstance(stdin, str):
        stdin = stdin.encode()
    out = subprocess.run([*ARBITER, *args], input=stdin, capture_output=True, env=env, cwd=str(tmp_path))
    return subprocess.CompletedProcess(out.args, out.returncode, out.stdout.decode(errors="replace"),
                                       out.stderr.decode(errors="replace"))


def no_traceback(out: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in out.stderr, out.stderr


@pytest.fixture
def derby(tmp_path) -> str:
    out = run(tmp_path, "new", "monster-derby", "--seed", "5", "-p", "ann,bob,cy")
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def dealt(tmp_path, gid: str, seat: str) -> set[str]:
    view = json.loads(run(tmp_path, "show", gid, "--as", "referee", "-f", "json").stdout)
    return set(view["dealt"][seat])


def test_a_typo_under_a_seat_the_game_has_not_names_no_other_seats_cards(tmp_path, derby):
    """`do --as zed keep agenda-13`: the hint came from every seat's legal commands, so it
    listed the agendas dealt to ann, bob and cy. A seat that is not in the game gets the
    players' names and nothing of their hands."""
    secret = dealt(tmp_path, derby, "bob") | dealt(tmp_path, derby, "cy")
    out = run(tmp_path, "do", derby, "--as", "zed", "keep", "agenda-1")
    assert out.returncode == 2 and "no player 'zed'" in out.stderr, out.stderr
    assert not any(card in out.stderr for card in secret), out.stderr
    # a seat of the game still gets its own cards suggested
    own = run(tmp_path, "do", derby, "--as", "ann", "keep", "agneda")
    assert own.returncode == 2 and any(card in own.stderr for card in dealt(tmp_path, derby, "ann")), own.stderr


def receipt_of(out: subprocess.CompletedProcess) -> str:
    return out.stdout.split("receipt ")[1].split()[0]


def test_verify_receipts_keep_script_output_parseable_and_refuse_a_bad_receipt_first(tmp_path):
    """`verify --receipt R -f json` printed the receipt's line after the JSON (and with only
    receipts, no JSON at all); a malformed receipt was refused only after the whole audit's
    report had been printed; a changed receipt's line said "receipt R:" twice."""
    gid = run(tmp_path, "new", "duel", "--seed", "3", "-p", "ann,bob").stdout.strip()
    good = receipt_of(run(tmp_path, "do", gid, "--as", "ann", "bid", "2"))
    game, seq, digest = good.split(":")
    changed = f"{game}:{seq}:{'0' if digest[0] != '0' else '1'}{digest[1:]}"

    alone = run(tmp_path, "verify", "--receipt", good, "-f", "json")
    assert alone.returncode == 0 and json.loads(alone.stdout) == [{"receipt": good, "verdict": "present"}]
    lines = run(tmp_path, "verify", "--receipt", good, "--receipt", changed, "-f", "jsonl")
    assert lines.returncode == 1
    assert [json.loads(line)["receipt"] for line in lines.stdout.splitlines()] == [good, changed]
    (tmp_path / "kept.txt").write_text(f"{good}\r\n{changed}\r\n")
    both = run(tmp_path, "verify", gid, "--receipts", "kept.txt", "-f", "json")
    assert both.returncode == 1 and json.loads(both.stdout)[0]["game_id"] == gid
    assert "1 of 2 present" in both.stderr

    table = run(tmp_path, "verify", gid, "--receipt", changed)
    assert table.returncode == 1 and table.stderr.count(f"receipt {changed}") == 1, table.stderr

    typo = run(tmp_path, "verify", gid, "--receipt", f"{game}:{seq}:9c2e")
    assert typo.returncode == 2 and "is not a receipt" in typo.stderr and typo.stdout == ""
    # one typed wrong in a file is named by its line
    (tmp_path / "typed.txt").write_text(f"# kept receipts\n{good}\n\nreceipt {game}:{seq}:9c2e\n")
    named = run(tmp_path, "verify", "--receipts", "typed.txt")
    assert named.returncode == 2 and "typed.txt, line 4: " in named.stderr and "is not a receipt" in named.stderr


@pytest.mark.parametrize("db, said", [
    ("sqlite:///games.db", "give a DuckDB file's path or a postgresql:// URL"),
    ("{tmp}", "is a directory: name the store's file in it"),
    ("{tmp}/notes.txt/club.duckdb", "notes.txt is a file, not a directory"),
    ("{tmp}/notes.txt/a/b/club.duckdb", "notes.txt is a file, not a directory"),
    # a mistyped directory made a new, empty store there, and the games seemed gone
    ("{tmp}/nowhere/club.duckdb", "no directory {tmp}/nowhere for the store"),
    ("{tmp}/nowhere/deeper/club.duckdb", "(mkdir -p {tmp}/nowhere/deeper)"),
    # DuckDB opens a CSV or JSON file as a database of its own: "Cannot launch in-memory
    # database in read-only mode!", or, to write, "a DuckDB file but not an arbiter store"
    ("{tmp}/results.csv", "results.csv is not a store: it is not a DuckDB file"),
    ("{tmp}/notes.txt", "notes.txt is not a store: it is not a DuckDB file"),
    # DuckDB refuses an empty file as "not a valid DuckDB database file"
    ("{tmp}/touched.duckdb", "touched.duckdb is an empty file, not a store: remove it"),
])
def test_a_db_that_cannot_be_a_store_is_refused_in_words_and_nothing_is_made(tmp_path, db, said):
    """`--db sqlite:///games.db` made a DuckDB file under a folder named `sqlite:`; a path
    through a file said only "File exists"."""
    (tmp_path / "notes.txt").write_text("not a folder\n")
    (tmp_path / "results.csv").write_text("game,winner\nmd-1,ann\n")
    (tmp_path / "touched.duckdb").write_bytes(b"")
    db, said = db.format(tmp=tmp_path), said.format(tmp=tmp_path)
    before = sorted(os.listdir(tmp_path))
    for args in (["--db", db, "new", "duel"], ["--db", db, "games"]):
        out = run(tmp_path, *args)
        assert out.returncode == 2 and said in out.stderr, out.stderr
        no_traceback(out)
    from_env = run(tmp_path, "new", "duel", db=db)
    assert from_env.returncode == 2 and "(from ARBITER_DB)" in from_env.stderr, from_env.stderr
    helped = run(tmp_path, "new", "--help", db=db)  # help is shown whatever the store
    assert helped.returncode == 0 and "KIND" in helped.stdout, helped.stderr
    copied = run(tmp_path, "copy", "--from", str(tmp_path / "cli.duckdb"), "--to", db)
    assert copied.returncode == 2 and said in copied.stderr, copied.stderr
    assert sorted(os.listdir(tmp_path)) == before


def test_copy_of_a_game_the_source_has_not_makes_no_destination(tmp_path):
    assert run(tmp_path, "new", "duel", "--seed", "1").returncode == 0
    out = run(tmp_path, "copy", "--from", str(tmp_path / "cli.duckdb"), "--to", str(tmp_path / "new.duckdb"), "du-nope")
    assert out.returncode == 2 and "no game 'du-nope'" in out.stderr, out.stderr
    assert not (tmp_path / "new.duckdb").exists()


def test_migrate_a_store_that_is_not_there_or_to_a_map_that_cannot_be_written(tmp_path):
    """`arbiter --db typo.duckdb migrate` made an empty store and said it was up to date; a
    `--map` that cannot be written was found out only after the hashes had changed."""
    out = run(tmp_path, "--db", str(tmp_path / "typo.duckdb"), "migrate")
    assert out.returncode == 2 and "no store at" in out.stderr, out.stderr
    assert not (tmp_path / "typo.duckdb").exists()
    assert run(tmp_path, "new", "duel", "--seed", "1").returncode == 0
    out = run(tmp_path, "migrate", "--map", str(tmp_path / "no-such-dir" / "map.csv"))
    assert out.returncode == 2 and "--map" in out.stderr, out.stderr


def test_bytes_that_are_not_utf8_are_refused_in_words_not_as_a_store_failure(tmp_path):
    """A command, seat or game id typed in another encoding reached the store as lone
    surrogates, which DuckDB cannot encode: "the store failed" (exit 3), and `play` ended."""
    gid = run(tmp_path, "new", "duel", "--seed", "3", "-p", "ann,bob").stdout.strip()
    events = run(tmp_path, "query", "select count(*) as n from events", "-f", "csv").stdout
    for args, said in (([gid, "--as", "ann", b"b\xe9d", "2"], "not a duel command"),
                       ([gid, "--as", b"\xff", "bid", "2"], "no player"),
                       ([b"du-\xff", "bid", "2"], "no game")):
        out = run(tmp_path, "do", *args)
        assert out.returncode == 2 and said in out.stderr and "store failed" not in out.stderr, out.stderr
        no_traceback(out)
    played = run(tmp_path, "play", gid, stdin=b"b\xffd 2\nbid 2\n")
    assert played.returncode == 0 and "not a duel command" in played.stdout + played.stderr, played.stderr
    assert "store failed" not in played.stderr
    assert "receipt" in played.stdout  # the next line was played
    assert run(tmp_path, "query", "select count(*) as n from events", "-f", "csv").stdout != events

    (tmp_path / "game.arb").write_bytes(b"\xff\xfe\x00garbage")
    out = run(tmp_path, "check", "game.arb")
    assert out.returncode == 2 and "not UTF-8 text" in out.stderr, out.stderr


def test_mistyped_kinds_names_and_ids_say_what_to_type(tmp_path):
    kind = run(tmp_path, "new", "monster-derbi")
    assert kind.returncode == 2 and "did you mean 'monster-derby'?" in kind.stderr, kind.stderr
    rules = run(tmp_path, "rules", "vilainous")
    assert rules.returncode == 2 and "did you mean 'villainous'?" in rules.stderr, rules.stderr

    capital = run(tmp_path, "new", "duel", "-p", "Ann,bob")
    assert capital.returncode == 2 and "try 'ann'" in capital.stderr, capital.stderr
    accented = run(tmp_path, "new", "duel", "-p", "zoë,bob")
    assert accented.returncode == 2 and "a-z" in accented.stderr and "try" not in accented.stderr, accented.stderr
    long = run(tmp_path, "new", "duel", "-p", "ann," + "b" * 5000)
    assert long.returncode == 2 and "1 to 24" in long.stderr and len(long.stderr) < 400, long.stderr

    first = run(tmp_path, "new", "duel", "--seed", "1").stdout.strip()
    second = run(tmp_path, "new", "duel", "--seed", "2").stdout.strip()
    empty = run(tmp_path, "show", "")
    assert empty.returncode == 2 and "no game id given" in empty.stderr, empty.stderr
    both = run(tmp_path, "show", "du-")
    assert both.returncode == 2 and "give more of the id" in both.stderr and "..." not in both.stderr, both.stderr
    assert first in both.stderr and second in both.stderr


def test_transcripts_and_exports_as_editors_and_shells_leave_them(tmp_path):
    """A transcript saved with Windows line endings imported as a second game (its id is a
    digest of the file); an empty file to import was "not an arbiter log export (no header
    line)"; `-o -` wrote a file named `-`; parquet into a file said only "File exists"."""
    gid = run(tmp_path, "new", "duel", "--seed", "3", "-p", "ann,bob").stdout.strip()
    assert run(tmp_path, "do", gid, "--as", "ann", "bid", "2").returncode == 0
    assert run(tmp_path, "export", gid, "-o", "game.arb").returncode == 0
    text = (tmp_path / "game.arb").read_bytes()
    (tmp_path / "crlf.arb").write_bytes(b"\xef\xbb\xbf" + text.replace(b"\n", b"\r\n"))
    other = str(tmp_path / "other.duckdb")
    first = run(tmp_path, "import", "game.arb", db=other)
    again = run(tmp_path, "import", "crlf.arb", db=other)
    assert first.returncode == again.returncode == 0, again.stderr
    assert first.stdout == again.stdout and "already imported" in again.stderr
    assert run(tmp_path, "check", "crlf.arb").returncode == 0

    (tmp_path / "empty.arb").write_text("")
    empty = run(tmp_path, "import", "empty.arb", db=other)
    assert empty.returncode == 2 and "empty.arb is empty" in empty.stderr, empty.stderr
    assert run(tmp_path, "import", "-", stdin="", db=other).returncode == 2

    dashed = run(tmp_path, "export", gid, "-f", "jsonl", "-o", "-")
    assert dashed.returncode == 0 and json.loads(dashed.stdout.splitlines()[0])["game"]["game_id"] == gid
    assert not (tmp_path / "-").exists()
    parquet = run(tmp_path, "export", gid, "-f", "parquet", "-o", "game.arb")
    assert parquet.returncode == 2 and "is a file" in parquet.stderr, parquet.stderr
    one = run(tmp_path, "export", gid, "-f", "parquet", "-o", "one")
    assert one.returncode == 0 and "1 game," in one.stderr, one.stderr
    missing = run(tmp_path, "export", gid, "-o", "no-such-dir/game.arb")
    assert missing.returncode == 2 and "cannot use no-such-dir/game.arb: No such file" in missing.stderr


def test_every_argument_and_option_of_every_verb_says_what_it_is():
    """`arbiter play -h` listed -p, --seed, -o and --dice with no words; `simulate --bot`
    read SEAT=KIND although it takes one KIND for every seat."""
    import typer.main

    from arbiter.cli.app import app

    verbs = typer.main.get_command(app).commands
    silent = [(name, p.name) for name, verb in verbs.items() for p in verb.params
              if not getattr(p, "help", None) and not getattr(p, "hidden", False)]
    assert silent == []
    assert [p.metavar for p in verbs["simulate"].params if p.name == "bot"] == ["KIND"]
    # a value is named for what it is, not by the Python name of its parameter (`bench
    # --store-events STORE_EVENTS`)
    pythonic = [(name, p.name) for name, verb in verbs.items() for p in verb.params
                if p.metavar == p.name.upper() and "_" in p.name and p.name != "game_id"
                and not getattr(p, "hidden", False) and not getattr(p, "is_flag", False)]
    assert pythonic == []


@pytest.mark.parametrize("wait", ["abc", "-1", "nan"])
def test_a_lock_timeout_that_is_not_seconds_is_refused_not_ignored(tmp_path, wait):
    env = {**os.environ, "ARBITER_PLUGINS": "toygame:GAME", "PYTHONPATH": HERE, "ARBITER_LOCK_TIMEOUT": wait,
           "ARBITER_DB": str(tmp_path / "s.duckdb"), "ARBITER_HOME": str(tmp_path / "home")}
    out = subprocess.run([*ARBITER, "new", "duel"], capture_output=True, text=True, env=env)
    assert out.returncode == 2 and "ARBITER_LOCK_TIMEOUT takes" in out.stderr, out.stderr
    assert not (tmp_path / "s.duckdb").exists()


def test_an_empty_command_lists_the_forms_one_a_line(tmp_path, derby):
    """The forms were joined with '; ' although each is a line of its own: every line of the
    hint ended in a stray semicolon."""
    out = run(tmp_path, "do", derby, "--as", "ann", " ")
    assert out.returncode == 2 and "empty command" in out.stderr
    assert "keep AGENDA" in out.stderr and "; \n" not in out.stderr and not out.stderr.rstrip().endswith(";")


def test_an_unreachable_postgresql_store_says_why(tmp_path):
    """Only the last line of the driver's message was kept: "Is the server running ...?",
    without the reason before it (connection refused)."""
    import socket

    with socket.socket() as s:  # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    out = run(tmp_path, "--db", f"postgresql://nobody@127.0.0.1:{port}/none", "games")
    assert out.returncode == 3 and "cannot reach the PostgreSQL store" in out.stderr, out.stderr
    assert "refused" in out.stderr.lower(), out.stderr


def test_serve_on_a_port_in_use_says_so_before_it_claims_to_serve(tmp_path):
    """It printed "arbiter serving ... at http://127.0.0.1:PORT", then the web server's own
    "ERROR: [Errno 98] ..." and exit 3 (a storage conflict)."""
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        out = run(tmp_path, "serve", "--port", str(port))
    assert out.returncode == 2 and "in use" in out.stderr and "--port" in out.stderr, out.stderr
    assert "serving" not in out.stdout + out.stderr


def test_help_as_a_verb(tmp_path):
    """`arbiter help` was "No such command 'help'"."""
    top = run(tmp_path, "help")
    assert top.returncode == 0 and "Commands" in top.stdout
    verb = run(tmp_path, "help", "do")
    assert verb.returncode == 0 and " do [OPTIONS]" in verb.stdout
    assert run(tmp_path, "help", "nope").returncode == 2


def test_check_gives_a_script_its_verdict_on_a_transcript_it_cannot_read(tmp_path):
    """`check -f json` printed a row for an illegal move but nothing at all on stdout for a
    line it could not read (a move without 'player:', a missing header)."""
    (tmp_path / "bad.arb").write_text("# arbiter transcript 1\ngame: duel\nseed: 1\nplayers: ann, bob\n---\nann bid 2\n")
    out = run(tmp_path, "check", "bad.arb", "-f", "json")
    assert out.returncode == 2, out.stderr
    [row] = json.loads(out.stdout)
    assert row["ok"] is False and row["line"] == 6 and row["text"] == "ann bid 2" and "player: command" in row["message"]
    (tmp_path / "empty.arb").write_text("")
    [row] = [json.loads(line) for line in run(tmp_path, "check", "empty.arb", "-f", "jsonl").stdout.splitlines()]
    assert row["ok"] is False and row["line"] == 1


def test_query_json_keeps_every_column_when_two_share_a_name(tmp_path):
    assert run(tmp_path, "new", "duel", "--seed", "1").returncode == 0
    out = run(tmp_path, "query", "select 1 as a, 2 as a, 3 as a_2", "-f", "json")
    assert out.returncode == 0 and json.loads(out.stdout) == [{"a": 1, "a_3": 2, "a_2": 3}]
    csv_out = run(tmp_path, "query", "select 1 as a, 2 as a", "-f", "csv")
    assert csv_out.stdout.splitlines() == ["a,a", "1,2"]  # CSV may repeat a header


@pytest.mark.parametrize("bot", ["zed=random", "ann=grandmaster"])
def test_play_with_a_bot_refused_stores_no_game(tmp_path, bot):
    """`arbiter play monster-derby --bot bob=agenda` (the seats are p1, p2 without -p) was
    refused after the game had been created: every retry left another game behind."""
    out = run(tmp_path, "play", "duel", "-p", "ann,bob", "--bot", bot, stdin="")
    assert out.returncode == 2 and "error:" in out.stderr, out.stderr
    games = run(tmp_path, "games", "-f", "json")
    assert games.returncode == 0 and json.loads(games.stdout) == []


def test_a_player_named_where_the_command_goes_is_told_about_as(tmp_path):
    gid = run(tmp_path, "new", "duel", "--seed", "3", "-p", "ann,bob").stdout.strip()
    out = run(tmp_path, "do", gid, "ann", "bid", "2")
    assert out.returncode == 2 and f"--as ann bid 2" in out.stderr, out.stderr


@pytest.mark.parametrize("args", [["--seed", "-5"], ["--game", "monster-derbi"]])
def test_demo_refuses_before_its_heading(tmp_path, args):
    out = run(tmp_path, "demo", *args)
    assert out.returncode == 2 and "error:" in out.stderr and out.stdout == "", out.stdout


def test_show_into_a_pipe_keeps_every_line_of_the_board_whole(tmp_path, derby):
    """The board's prose lines were wrapped at 80 columns even into a pipe, so `show | grep
    curse_chooser` found a continuation line without the rest of the house options."""
    out = run(tmp_path, "show", derby)
    assert out.returncode == 0
    [line] = [ln for ln in out.stdout.splitlines() if "house options:" in ln]
    assert "layout=" in line and "curse_chooser=" in line and len(line) > 80


def test_an_option_given_twice_with_two_values_is_refused(tmp_path):
    """`--option target=3 --option target=5` silently played to 5."""
    out = run(tmp_path, "new", "duel", "--option", "target=3", "--option", "target=5")
    assert out.returncode == 2 and "given twice" in out.stderr, out.stderr
    assert run(tmp_path, "new", "duel", "--option", "target=3", "--option", "target=3").returncode == 0


def test_copy_from_a_file_that_is_not_there_names_the_default_store(tmp_path):
    """README's `arbiter copy --from arbiter.duckdb ...`, run where no such file is, said only
    "no store at arbiter.duckdb"."""
    out = run(tmp_path, "copy", "--from", "arbiter.duckdb", "--to", "club.duckdb")
    assert out.returncode == 2 and "default store is" in out.stderr and "cli.duckdb" in out.stderr, out.stderr
    assert not (tmp_path / "club.duckdb").exists()


def test_play_server_that_is_not_a_url_is_bad_input(tmp_path):
    """It was "cannot reach the server: Request URL is missing an 'http://' ..." with exit 3,
    the code of a busy store."""
    out = run(tmp_path, "play", "du-1", "--server", "localhost:8080", "--token", "t", stdin="")
    assert out.returncode == 2 and "http:// or https://" in out.stderr, out.stderr


def test_try_gives_a_script_a_row_for_a_command_that_is_not_legal(tmp_path):
    """`try -f json` printed nothing on stdout for an illegal command, so a script had no JSON to
    read; the row now says legal false with the rule, and the exit code is still 1."""
    gid = run(tmp_path, "new", "duel", "--seed", "3", "-p", "ann,bob").stdout.strip()
    legal = run(tmp_path, "try", gid, "--as", "ann", "bid", "2", "-f", "json")
    assert legal.returncode == 0 and all(r["legal"] is True for r in json.loads(legal.stdout))
    out = run(tmp_path, "try", gid, "--as", "ann", "bid", "7", "-f", "json")
    assert out.returncode == 1, out.stderr
    [row] = json.loads(out.stdout)
    assert row["legal"] is False and row["rules"] == "DUEL-BID" and row["command"] == "bid 7"


def test_play_of_a_word_that_is_neither_a_game_nor_a_kind_suggests_the_kind(tmp_path):
    """`arbiter play villianous` said only "no game 'villianous'"."""
    assert run(tmp_path, "new", "duel", "--seed", "1").returncode == 0
    out = run(tmp_path, "play", "dule", stdin="")
    assert out.returncode == 2 and "no game 'dule'" in out.stderr and "did you mean 'duel'?" in out.stderr, out.stderr


def test_a_table_of_the_store_typed_as_a_verb_points_at_query(tmp_path):
    out = run(tmp_path, "results")
    assert out.returncode == 2 and 'arbiter query "select * from results"' in out.stderr, out.stderr
    no_traceback(out)


@pytest.mark.parametrize("args, said", [
    (["sql", "select count(*) from dice"], 'arbiter query "select count(*) from dice"'),
    (["SQL"], 'arbiter query "select * from games"'),
    (["select * from games where kind = 'duel'"], 'arbiter query "select * from games where kind = \'duel\'"'),
    (["select", "1"], 'arbiter query "select 1"'),
])
def test_sql_typed_where_the_verb_goes_points_at_query(tmp_path, args, said):
    """`arbiter sql "..."`, as sqlite3 and psql have it, said only "No such command 'sql'"."""
    out = run(tmp_path, *args)
    assert out.returncode == 2 and said in out.stderr and out.stdout == "", out.stderr
    assert not os.path.exists(tmp_path / "cli.duckdb")


def test_game_id_prefixes_say_the_same_on_both_stores(tmp_path, store_url):
    first = run(tmp_path, "new", "duel", "--seed", "1", db=store_url).stdout.strip()
    second = run(tmp_path, "new", "duel", "--seed", "2", db=store_url).stdout.strip()
    empty = run(tmp_path, "show", "", db=store_url)
    assert empty.returncode == 2 and "no game id given" in empty.stderr, empty.stderr
    both = run(tmp_path, "log", "du-", db=store_url)
    assert both.returncode == 2 and "give more of the id" in both.stderr and "..." not in both.stderr
    assert first in both.stderr and second in both.stderr


@pytest.mark.parametrize("at", ["0", "-3", "999"])
def test_replay_at_a_seq_the_game_has_not_is_refused_as_show_refuses_it(tmp_path, at):
    """replay --at 999 started silently at the end (and -3 at the start), where show, try
    and fork say which seqs there are."""
    gid = run(tmp_path, "new", "duel", "--seed", "3", "-p", "ann,bob").stdout.strip()
    out = run(tmp_path, "replay", gid, "--at", at, stdin="q\n")
    shown = run(tmp_path, "show", gid, "--at", at)
    assert out.returncode == shown.returncode == 2 and "--at takes a seq from 1 to" in out.stderr, out.stderr


def test_a_very_long_word_is_named_not_echoed_whole(tmp_path):
    word = "q" * 20_000
    for args in (["rules", "duel", word], ["new", "duel", "-p", f"ann,{word}"], ["new", "duel", "--option", f"target={word}"]):
        out = run(tmp_path, *args)
        assert len(out.stderr) < 2500 and word not in out.stderr, (args[:2], len(out.stderr))
        no_traceback(out)


def test_verify_refuses_a_game_and_all_together(tmp_path, derby):
    """`verify GAME --all` used to check every game and say nothing of GAME: the two ask
    different things, so naming both is a usage error."""
    out = run(tmp_path, "verify", derby, "--all")
    no_traceback(out)
    assert out.returncode == 2 and "not both" in out.stderr, out.stderr
    assert run(tmp_path, "verify", derby).returncode == 0


def test_a_mistyped_villain_is_named_as_such(tmp_path):
    """`--option villains=xyz` used to be told it names 1 villain for 2 players; the name
    itself is what is wrong, so that is said first, with the villains there are."""
    out = run(tmp_path, "new", "villainous", "-p", "ann,bob", "--option", "villains=xyz")
    no_traceback(out)
    assert out.returncode == 2 and "unknown villain 'xyz'" in out.stderr, out.stderr
    count = run(tmp_path, "new", "villainous", "-p", "ann,bob", "--option", "villains=xyz,abc,def")
    assert count.returncode == 2 and "unknown villain 'xyz'" in count.stderr, count.stderr


def test_importing_the_same_jsonl_twice_is_no_error(tmp_path, derby):
    """The second import of a file finds its games already there with the same log: it says
    so, writes nothing and prints the same ids (a script can simply run it again)."""
    dump = tmp_path / "g.jsonl"
    assert run(tmp_path, "export", derby, "-f", "jsonl", "-o", str(dump)).returncode == 0
    into = str(tmp_path / "into.duckdb")
    first = run(tmp_path, "import", str(dump), db=into)
    assert first.returncode == 0 and first.stdout.split() == [derby], first.stderr
    again = run(tmp_path, "import", str(dump), db=into)
    no_traceback(again)
    assert again.returncode == 0 and again.stdout.split() == [derby], again.stderr
    assert "already in this store" in again.stderr
    assert run(tmp_path, "verify", "--all", db=into).returncode == 0


def test_replay_says_what_a_half_typed_key_needs(tmp_path):
    """`g abc`, `try` alone and `try --as ann` at a replay prompt printed the key list or
    "'--as' is not a command"; each now says what it takes, and the replay goes on."""
    gid = run(tmp_path, "new", "duel", "--seed", "3", "-p", "ann,bob").stdout.strip()
    out = run(tmp_path, "replay", gid, stdin="g abc\ntry\ntry --as ann\nq\n")
    no_traceback(out)
    assert out.returncode == 0, out.stderr
    assert "g takes a seq to go to" in out.stderr
    assert "try takes a command" in out.stderr
    assert "try --as takes a seat and a command" in out.stderr
    assert "is not a command" not in out.stderr


@pytest.mark.parametrize("fmt", ["json", "jsonl"])
def test_query_json_gives_text_as_text_and_json_as_values(tmp_path, derby, fmt):
    """A text column whose value happens to read as JSON stays text (it used to become a
    list or an object, so a column changed type from row to row); a column SQL typed as
    JSON gives the value it holds, a JSON string included."""
    sql = ("SELECT '[1, 2]' AS looks_like_json, '{\"a\": 1}' AS also_text, payload AS payload,"
           " payload->'$.type' AS tag, seq FROM events WHERE game_id = '" + derby + "' AND seq = 1")
    out = run(tmp_path, "query", sql, "-f", fmt)
    no_traceback(out)
    assert out.returncode == 0, out.stderr
    row = json.loads(out.stdout)[0] if fmt == "json" else json.loads(out.stdout.splitlines()[0])
    assert row["looks_like_json"] == "[1, 2]" and row["also_text"] == '{"a": 1}'
    assert isinstance(row["payload"], dict) and row["payload"]["type"] == "GameCreated"
    assert row["tag"] == "GameCreated" and row["seq"] == 1


def test_the_default_store_makes_its_own_directory(tmp_path):
    """Only a store the user named must be in a directory that exists: the default one, in
    the data directory (ARBITER_HOME), is made with its directory on the first game."""
    env = {k: v for k, v in os.environ.items() if k != "ARBITER_DB"}
    env.update(ARBITER_PLUGINS="toygame:GAME", PYTHONPATH=HERE, ARBITER_HOME=str(tmp_path / "a" / "home"))
    out = subprocess.run([*ARBITER, "new", "duel", "--seed", "1"], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "a" / "home" / "arbiter.duckdb").exists()


def test_a_content_file_with_control_characters_is_refused_and_stores_nothing(tmp_path):
    """A name or card text in content is printed on every player's screen: an ESC sequence,
    a carriage return or a line break in it could clear that screen or forge a line, and no
    card needs one. `new --content` refuses the file (exit 2), saying where in it."""
    from arbiter.core.villainous import GAME

    content = GAME.default_content()
    villain = next(iter(content["villains"]))
    content["villains"][villain]["locations"][0]["name"] += "\x1b[2J"
    path = tmp_path / "content.json"
    path.write_text(json.dumps(content))
    out = run(tmp_path, "new", "villainous", "--seed", "1", "-p", "ann,bob", "--content", str(path))
    assert out.returncode == 2, out.stderr
    assert f"villains/{villain}/locations/0/name holds \\x1b" in out.stderr and "\x1b" not in out.stderr
    no_traceback(out)
    assert not (tmp_path / "cli.duckdb").exists()
    # markup-like names are no control characters: taken, and shown as written
    content = GAME.default_content()
    content["villains"][villain]["name"] = "[/x][bold red]Boss"
    path.write_text(json.dumps(content))
    out = run(tmp_path, "new", "villainous", "--seed", "1", "-p", "ann,bob", "--content", str(path))
    assert out.returncode == 0, out.stderr
    shown = run(tmp_path, "show", out.stdout.strip(), "--as", "ann")
    assert shown.returncode == 0 and "[/x][bold red]Boss" in shown.stdout, shown.stdout + shown.stderr


@pytest.mark.parametrize("fmt", ["json", "jsonl"])
def test_text_that_reads_as_json_stays_text_in_every_verb(tmp_path, derby, fmt):
    """`try -f json` and `check -f json` gave a command typed `[1, 2]` as a list, and any
    text a verb printed that began with [ or { as whatever JSON it read as: only the store's
    JSON columns are JSON values (the listing's seats, a query's JSON)."""
    def rows(out):
        return json.loads(out.stdout) if fmt == "json" else [json.loads(line) for line in out.stdout.splitlines()]

    tried = run(tmp_path, "try", derby, "--as", "ann", "-f", fmt, "--", "[1, 2]")
    assert tried.returncode == 2 and rows(tried)[0]["command"] == "[1, 2]", tried.stdout
    (tmp_path / "t.arb").write_text('{"a": 1}\n')
    checked = run(tmp_path, "check", "t.arb", "-f", fmt)
    assert checked.returncode == 2 and rows(checked)[0]["text"] == '{"a": 1}', checked.stdout
    listed = run(tmp_path, "games", "-f", fmt)
    assert rows(listed)[0]["seats"] == ["ann", "bob", "cy"], listed.stdout


def test_a_new_game_never_takes_an_id_the_store_holds(tmp_path, monkeypatch):
    """A game id has 24 random bits: `simulate --games 5000` drew an id the store already
    held about one run in four, and stopped there with "game md-... moved on" (exit 3). An
    id the store holds is drawn again, for `simulate` and `new` alike."""
    from typer.testing import CliRunner

    from arbiter.cli.app import app
    from arbiter.core import engine

    drawn = iter(["aaaaaa", "aaaaaa", "bbbbbb", "aaaaaa", "bbbbbb", "cccccc"])
    monkeypatch.setattr(engine.secrets, "token_hex", lambda n: next(drawn))
    monkeypatch.setenv("ARBITER_DB", str(tmp_path / "ids.duckdb"))
    monkeypatch.setenv("ARBITER_HOME", str(tmp_path / "home"))
    runner = CliRunner()
    out = runner.invoke(app, ["simulate", "monster-derby", "--games", "2"])
    assert out.exit_code == 0, out.output
    out = runner.invoke(app, ["new", "monster-derby", "--seed", "1"])
    assert out.exit_code == 0 and out.stdout.split()[0] == "md-cccccc", out.output
    out = runner.invoke(app, ["query", "select game_id from games order by game_id", "-f", "csv"])
    assert out.stdout.split() == ["game_id", "md-aaaaaa", "md-bbbbbb", "md-cccccc"]


def test_an_empty_players_list_or_command_id_is_refused_not_taken_as_none(tmp_path, derby):
    """`--players "$NAMES"` with NAMES unset made a game of the default p1, p2; `do
    --command-id "$ID"` with ID unset applied the command with no id, so the retry it was
    meant to make safe was applied twice. Both are refused (exit 2), and so are a command id
    no store column should hold (a control character, 5000 characters)."""
    before = run(tmp_path, "query", "select count(*) from events", "-f", "csv").stdout
    for players in ("", " , "):
        out = run(tmp_path, "new", "duel", "--players", players)
        assert out.returncode == 2 and "--players takes the players' names" in out.stderr, out.stderr
    for cid, said in (("", "not an empty one"), (" ", "not an empty one"), ("k\x1b[2J", "printable characters, not 'k\\x1b[2J'"),
                      ("k" * 5000, "1 to 200 characters, not 5000")):
        out = run(tmp_path, "do", derby, "--as", "ann", "--command-id", cid, "keep", "agenda-1")
        assert out.returncode == 2 and said in out.stderr, out.stderr
        no_traceback(out)
    assert run(tmp_path, "query", "select count(*) from events", "-f", "csv").stdout == before


def test_ctrl_d_in_replay_leaves_the_shell_prompt_on_a_line_of_its_own(tmp_path, derby):
    out = run(tmp_path, "replay", derby, stdin="")
    assert out.returncode == 0 and out.stdout.endswith("replay (h: keys)> \n"), out.stdout[-80:]


def test_play_and_replay_into_a_pipe_keep_every_line_of_the_board_whole(tmp_path, derby):
    """`show` left the board's lines whole into a pipe, but `play` and `replay` still wrapped
    them at 80 columns (and a Villainous board wrapped itself everywhere)."""
    for args, stdin in ((["play", derby], "quit\n"), (["replay", derby, "--at", "17"], "q\n")):
        out = run(tmp_path, *args, stdin=stdin)
        assert out.returncode == 0, out.stderr
        [line] = [ln for ln in out.stdout.splitlines() if "house options:" in ln]
        assert "layout=" in line and "curse_chooser=" in line and len(line) > 80, line


@pytest.mark.parametrize("number", ["99", "0", "-1"])
def test_a_number_off_plays_menu_is_refused_as_such(tmp_path, derby, number):
    """`99` at a menu of 3 was taken as a command and refused as "'99' is not a Monster
    Derby command", with every command form as a hint; so was `-1` after that was mended."""
    out = run(tmp_path, "play", derby, stdin=f"{number}\nquit\n")
    assert out.returncode == 0, out.stderr
    assert f"{number} is not on the menu: type a number from 1 to 3, or a command" in out.stdout + out.stderr
    assert "not a Monster Derby command" not in out.stdout + out.stderr
    kept = run(tmp_path, "query", "select count(*) as n from information_schema.tables"
               " where table_name = 'refusals'", "-f", "csv")
    assert kept.stdout.split() == ["n", "0"], kept.stdout  # no command was refused: none kept


@pytest.mark.parametrize("args, said", [
    (["simulate", "duel", "--seats", "0"], "--seats takes 2 to 2 players for Duel (kernel test game), not 0"),
    (["simulate", "duel", "--seats", "-2"], "--seats takes 2 to 2 players for Duel (kernel test game), not -2"),
    (["simulate", "duel", "--max-steps", "0"], "--max-steps takes how many commands a game may last, at least 1, not 0"),
    (["play", "duel", "--max-menu", "-3"], "--max-menu takes how many legal commands to number, 0 or more, not -3"),
])
def test_counts_below_their_range_are_refused_not_taken_as_unset(tmp_path, args, said):
    """`simulate --seats 0` played the game's smallest table, `--seats -2` was refused as
    "not 0", `--max-steps -1` stored a game of no commands, `play --max-menu -3` numbered
    none and said "and 4 more"."""
    out = run(tmp_path, *args, stdin="quit\n")
    assert out.returncode == 2 and said in out.stderr, out.stderr
    assert not (tmp_path / "cli.duckdb").exists()


def test_a_negative_seq_is_named_as_such(tmp_path, derby):
    """`why GAME -3` said only "No such option: -3"."""
    out = run(tmp_path, "why", derby, "-3")
    assert out.returncode == 2 and "-3 is a negative number, and no seq or count is below 1" in out.stderr, out.stderr
    out = run(tmp_path, "why", derby, "--nope")
    assert out.returncode == 2 and "No such option: --nope" in out.stderr, out.stderr


def test_sql_that_opens_with_a_comment_is_told_how_to_pass(tmp_path, derby):
    """`query "-- the seats\nselect ..."` said only "No such option: -- the seats\x0aselect
    ...": a SQL comment first reads as an option. It is told to put -- before it, which works."""
    sql = "-- how many events\nselect count(*) as n from events"
    out = run(tmp_path, "query", sql)
    assert out.returncode == 2 and "'-- how many events…' begins with '-' and reads as an option" in out.stderr, out.stderr
    assert "arbiter query -- '-- ...'" in out.stderr
    out = run(tmp_path, "query", "-f", "csv", "--", sql)
    assert out.returncode == 0 and out.stdout.splitlines()[0] == "n", out.stderr


def test_replay_g_past_the_end_says_where_the_game_ends_and_goes_there(tmp_path):
    """`g 99999` at a replay prompt went to the last event without a word, as if the game
    had that many; now it says where the game ends and shows that seq (`g 0` its start)."""
    gid = run(tmp_path, "new", "duel", "--seed", "3", "-p", "ann,bob").stdout.strip()
    assert run(tmp_path, "do", gid, "--as", "ann", "bid", "2").returncode == 0
    last = int(run(tmp_path, "query", "select max(seq) from events", "-f", "csv").stdout.split()[1])
    out = run(tmp_path, "replay", gid, stdin="g 99999\ng 0\nq\n")
    no_traceback(out)
    assert out.returncode == 0, out.stderr
    assert f"the game ends at seq {last}: there" in out.stderr
    assert "the game starts at seq 1: there" in out.stderr
    drawn = [line for line in out.stdout.splitlines() if f"{gid} seq " in line]
    assert [d.split(" seq ")[1].split("/")[0].split(",")[0] for d in drawn] == ["1", str(last), "1"], drawn


def start(tmp_path, *args, db: str | None = None, **popen) -> subprocess.Popen:
    """arbiter running as a user started it, to be stopped by :func:`ctrl_c`."""
    return subprocess.Popen([*ARBITER, *args], env=environment(tmp_path, db), cwd=str(tmp_path),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **popen)


def ctrl_c(proc: subprocess.Popen, ready=lambda: True, group: bool = False) -> tuple:
    """Ctrl-C once ``ready()`` holds (or the process has ended): to the process, or as a
    terminal sends it, to every process of its group. Its output, once it has stopped."""
    try:
        while proc.poll() is None and not ready():
            time.sleep(0.05)
        if group:
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.send_signal(signal.SIGINT)
        return proc.communicate(timeout=60)
    finally:
        proc.kill()


def cpu_seconds(pid: int) -> float:
    """The CPU time a process has used so far (Linux's /proc): a long query is under way once
    it is well past what starting arbiter costs, however busy the machine."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.parametrize("unsafe", [[], ["--unsafe-files"]])
def test_ctrl_c_stops_a_long_query_at_once_and_says_so(tmp_path, unsafe):
    """Ctrl-C during a long `query` printed DuckDB's `RuntimeError: Query interrupted` as a
    traceback with exit code 1 (a failed verification, to a script), or DuckDB's client
    missed it and the query ran on for as long as it took."""
    assert run(tmp_path, "new", "duel", "--seed", "1").returncode == 0
    sql = "select count(*) from range(1000000000000) t(x) where x % 7 = 3"
    proc = start(tmp_path, "query", sql, *unsafe, text=True)
    _out, err = ctrl_c(proc, lambda: cpu_seconds(proc.pid) >= 2.5)
    assert proc.returncode == 130, (proc.returncode, err)
    assert err.startswith("interrupted") and "Traceback" not in err, err


def test_ctrl_c_inside_a_store_read_is_an_interruption_not_a_traceback(tmp_path, monkeypatch):
    """DuckDB's Python client takes a Ctrl-C that lands inside one of its queries for itself
    and raises `RuntimeError: Query interrupted`: `verify --all` stopped that way printed a
    traceback and exited 1, the code of a store that failed its audit."""
    from typer.testing import CliRunner

    from arbiter.cli.app import app
    from arbiter.events.store import Store

    monkeypatch.setenv("ARBITER_DB", str(tmp_path / "cli.duckdb"))
    monkeypatch.setenv("ARBITER_HOME", str(tmp_path / "home"))
    runner = CliRunner()
    assert runner.invoke(app, ["new", "monster-derby", "--seed", "1", "-p", "ann,bob"]).exit_code == 0

    def stopped(self, after, limit):
        raise RuntimeError("Query interrupted")  # word for word what duckdb 2.0 raises

    monkeypatch.setattr(Store, "ledger_after", stopped)
    out = runner.invoke(app, ["verify", "--all", "--jobs", "1"])
    assert out.exit_code == 130 and "interrupted" in out.output and out.exception.__class__ is SystemExit, out.output


def test_ctrl_c_during_an_import_says_nothing_was_imported_and_nothing_is(tmp_path):
    """An import stopped by Ctrl-C said "each move commits whole", words for a game in play:
    an import is one transaction, and the store is left without any of the file's games."""
    sim = run(tmp_path, "simulate", "monster-derby", "--games", "1", "--seed", "3")
    assert sim.returncode == 0, sim.stderr
    sim_id = sim.stdout.split("last ")[-1].split()[0]
    data = run(tmp_path, "export", sim_id, "-f", "jsonl").stdout.encode()
    assert len(data) > 2 * 65536  # more than a pipe holds: once written, the import has read it
    proc = start(tmp_path, "import", "-", "--jobs", "1", db=str(tmp_path / "other.duckdb"), stdin=subprocess.PIPE)
    proc.stdin.write(data[: len(data) - 100])  # all but the end: it waits for the rest
    proc.stdin.flush()
    time.sleep(0.3)
    out, err = ctrl_c(proc)
    assert proc.returncode == 130 and out == b"", (proc.returncode, err)
    assert err.decode().startswith("interrupted; nothing was imported"), err
    left = run(tmp_path, "games", "-f", "json", db=str(tmp_path / "other.duckdb"))
    assert left.returncode == 2 or json.loads(left.stdout) == [], left


def test_an_empty_db_is_refused_not_taken_for_the_default_store(tmp_path):
    """`arbiter --db "$STORE" new ...` with STORE unset played into the user's own default
    store; `copy --to ""` said only "No such file or directory"."""
    for args in (["--db", "", "new", "duel"], ["--db=", "games"]):
        out = run(tmp_path, *args)
        assert out.returncode == 2 and "named by an empty string" in out.stderr, out.stderr
        assert "ARBITER_DB" not in out.stderr
    copied = run(tmp_path, "copy", "--from", str(tmp_path / "cli.duckdb"), "--to", "")
    assert copied.returncode == 2 and "--to: the store is named by an empty string" in copied.stderr, copied.stderr
    assert not os.path.exists(tmp_path / "home") and not os.path.exists(tmp_path / "cli.duckdb")


@pytest.mark.parametrize("args, said", [
    (["new", "duel", "--seed", "abc"], "Invalid value for '--seed': takes a whole number, not 'abc'"),
    (["simulate", "duel", "-n", "ten"], "Invalid value for '--games' / '-n': takes a whole number, not 'ten'"),
    (["why", "du-1", "2.5"], "Invalid value for 'SEQ': takes a whole number, not '2.5'"),
    (["show", "du-1", "--at", ""], "Invalid value for '--at': takes a whole number, not ''"),
])
def test_a_number_mistyped_is_refused_in_the_words_of_the_other_options(tmp_path, args, said):
    """A word where a number goes was refused in pydantic's words: "Input should be a valid
    integer, unable to parse string as an integer"."""
    out = run(tmp_path, *args)
    assert out.returncode == 2 and said in out.stderr and "Input should be" not in out.stderr, out.stderr


def children(pid: int) -> list[int]:
    try:
        return [int(c) for c in open(f"/proc/{pid}/task/{pid}/children").read().split()]
    except OSError:
        return []


def test_ctrl_c_at_a_terminal_stops_verify_all_and_its_workers_without_a_traceback(tmp_path):
    """A terminal's Ctrl-C reaches the whole process group: every worker of `verify --all
    --jobs 2` printed a KeyboardInterrupt traceback of its own (or "Fatal Python error"
    mid-import) under arbiter's own word. The command line forks its workers (no imports of
    their own), so they are stopped in the middle of their audits: games long enough that
    each worker is well into its share when Ctrl-C comes."""
    sim = run(tmp_path, "simulate", "monster-derby", "--games", "8", "--seed", "3")
    assert sim.returncode == 0, sim.stderr
    proc = start(tmp_path, "verify", "--all", "--jobs", "2", text=True, start_new_session=True)
    workers: list[int] = []

    def auditing() -> bool:  # the workers are up and at work
        workers[:] = children(proc.pid)
        return sum(busy(pid, 0.05) for pid in workers) >= 2

    _out, err = ctrl_c(proc, auditing, group=True)
    assert proc.returncode == 130, (proc.returncode, err)
    assert err.strip() == "interrupted; nothing half-written (each move commits whole)", err
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(running(pid) for pid in workers):
        time.sleep(0.1)
    assert not any(running(pid) for pid in workers)  # the workers and the pool's tracker are gone


def busy(pid: int, seconds: float) -> bool:
    try:
        return cpu_seconds(pid) >= seconds
    except OSError:
        return False


def running(pid: int) -> bool:
    try:
        return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_refused_line_of_any_length_is_kept_clipped_in_refusals(tmp_path, derby):
    """`refusals` kept a refused line whole: a 2 MB line fed to `play` was stored as it came."""
    long = "x" * 5000
    assert run(tmp_path, "do", derby, "--as", "ann", long).returncode == 2
    assert run(tmp_path, "play", derby, stdin="y" * 200_000 + "\nquit\n").returncode == 0
    rows = json.loads(run(tmp_path, "query", "select seat, text, message, source from refusals order by refused_at",
                          "-f", "json").stdout)
    assert [(r["seat"], r["source"]) for r in rows] == [("ann", "do"), ("ann", "play")]
    assert rows[0]["text"] == "x" * 500 + "… (5,000 characters)"
    assert rows[1]["text"] == "y" * 500 + "… (200,000 characters)"
    assert all(len(r["message"]) < 1000 for r in rows)


def test_a_receipt_of_a_game_the_store_has_not_says_so(tmp_path):
    """A receipt of a game this store has never held said "seq 4 is gone (the log of du-1
    ends at 0)", as if the game's log had been cut to nothing."""
    gid = run(tmp_path, "new", "duel", "--seed", "3", "-p", "ann,bob").stdout.strip()
    good = receipt_of(run(tmp_path, "do", gid, "--as", "ann", "bid", "2"))
    assert run(tmp_path, "new", "duel", db=str(tmp_path / "other.duckdb")).returncode == 0
    elsewhere = run(tmp_path, "verify", "--receipt", good, "-f", "json", db=str(tmp_path / "other.duckdb"))
    assert elsewhere.returncode == 1, elsewhere.stderr
    [row] = json.loads(elsewhere.stdout)
    assert row["verdict"] == (f"receipt {good}: this store has no game {gid}"
                              " (deleted whole, or the receipt is of another store)")


def test_replay_help_names_every_key_replay_takes(tmp_path, derby):
    """`replay --help` left out `?WORDS` (search back) and `h`, which replay's own `h` lists."""
    import re

    helped = " ".join(run(tmp_path, "replay", "--help").stdout.split())
    out = run(tmp_path, "replay", derby, stdin="h\nq\n")
    keys = out.stdout + out.stderr
    listed = re.search(r"keys: (.*)", keys).group(1)
    for key in ("n/p", "c/C", "t/T", "r/R", "g SEQ", "s(tart)", "e(nd)", "/WORDS", "?WORDS", "fork", "q(uit)"):
        assert key in listed and key in helped, key
    assert "h(elp)" in helped


def test_ctrl_c_in_play_says_how_to_resume_the_game(tmp_path):
    """Ctrl-C at play's prompt said only "nothing half-written": the id of the game that
    `play KIND` had just made had scrolled away, and nothing said the game was kept."""
    proc = start(tmp_path, "play", "duel", "-p", "ann,bob", stdin=subprocess.PIPE, text=True)
    games: list = []

    def at_the_prompt() -> bool:
        time.sleep(0.2)
        listed = run(tmp_path, "games", "-f", "json")
        games[:] = json.loads(listed.stdout) if listed.returncode == 0 else []
        if games:
            time.sleep(0.5)  # stored, and the board drawn
        return bool(games)

    _out, err = ctrl_c(proc, at_the_prompt)
    assert proc.returncode == 130 and "Traceback" not in err, err
    assert f"resume with `arbiter play {games[0]['game_id']}`" in err, err


def test_ctrl_c_in_simulate_sums_up_the_games_played(tmp_path):
    """Ctrl-C in `simulate` said "nothing half-written (each move commits whole)" and no
    more: the games it had played and stored went unmentioned."""
    proc = start(tmp_path, "simulate", "duel", "--games", "100000", text=True)
    # the store is simulate's while it runs: it has played some games once it has spent a
    # few seconds of CPU (a game of duel takes a tenth of one)
    out, err = ctrl_c(proc, lambda: cpu_seconds(proc.pid) >= 3)
    assert proc.returncode == 130, (proc.returncode, err)
    played = int(out.split(" of 100000 games of Duel")[0].split()[-1])
    assert f"interrupted; the {played} games played so far are stored, each whole" in err, err
    stored = run(tmp_path, "query", "select count(*) as n from games where status = 'over'", "-f", "csv")
    assert int(stored.stdout.split()[1]) - played in (0, 1)  # one stored as Ctrl-C came, before it was counted


def with_closed(tmp_path, closing: str, *args) -> subprocess.CompletedProcess:
    """arbiter run by a shell with some of its standard streams closed (`<&-`, `>&-`, `2>&-`)."""
    out = subprocess.run(["sh", "-c", f'exec "$@" {closing}', "sh", *ARBITER, *args], capture_output=True,
                         env=environment(tmp_path), cwd=str(tmp_path))
    return subprocess.CompletedProcess(out.args, out.returncode, out.stdout.decode(errors="replace"),
                                       out.stderr.decode(errors="replace"))


def test_closed_standard_streams_are_no_traceback(tmp_path):
    """`arbiter games <&-` and `arbiter games >&-` failed with a traceback (AttributeError:
    'NoneType' object has no attribute 'isatty'), and `arbiter do ... 2>&-` exited 1, the code
    of an illegal move, for a game that was not there."""
    gid = run(tmp_path, "new", "duel", "--seed", "1", "-p", "ann,bob").stdout.strip()
    no_stdin = with_closed(tmp_path, "<&-", "games", "-f", "csv")
    assert no_stdin.returncode == 0 and no_stdin.stdout.splitlines()[1].startswith(gid), no_stdin.stderr
    no_stdout = with_closed(tmp_path, ">&-", "new", "duel")
    assert no_stdout.returncode == 2 and "standard output is closed" in no_stdout.stderr, no_stdout.stderr
    assert [g["game_id"] for g in json.loads(run(tmp_path, "games", "-f", "json").stdout)] == [gid]
    assert with_closed(tmp_path, "2>&-", "do", "du-nothere", "bid", "1").returncode == 2
    quiet = with_closed(tmp_path, "2>&-", "do", gid, "--as", "ann", "bid", "1")
    assert quiet.returncode == 0 and "receipt" in quiet.stdout
    assert run(tmp_path, "verify", gid).returncode == 0


def test_a_db_that_is_a_pipe_is_refused_not_waited_on(tmp_path):
    """`--db` naming a named pipe left DuckDB waiting for ever for a writer to open it."""
    os.mkfifo(tmp_path / "pipe")
    for args in (["--db", str(tmp_path / "pipe"), "games"], ["copy", "--from", str(tmp_path / "pipe"),
                                                            "--to", str(tmp_path / "x.duckdb")]):
        out = run(tmp_path, *args)
        assert out.returncode == 2 and "pipe is not a file (a device or a pipe)" in out.stderr, out.stderr


def test_parquet_to_standard_output_is_refused_for_what_it_is(tmp_path, derby):
    """`export -f parquet -o -` was told to "give it with -o DIR", which it had just done."""
    out = run(tmp_path, "export", "-f", "parquet", "-o", "-")
    assert out.returncode == 2 and "not to standard output" in out.stderr and out.stdout == "", out.stderr


def test_check_of_an_empty_transcript_says_it_is_empty(tmp_path):
    """`check` of an empty file (or of nothing piped in) said "line 1: a transcript starts
    with '# arbiter transcript 1'", as for a file that begins wrongly; `import` says "empty"."""
    (tmp_path / "empty.arb").write_text("\n\n")
    out = run(tmp_path, "check", "empty.arb")
    assert out.returncode == 2 and "empty.arb is empty: nothing to check" in out.stderr, out.stderr
    piped = run(tmp_path, "check", "-", "-f", "json", stdin="")
    assert piped.returncode == 2
    assert json.loads(piped.stdout)[0]["message"].startswith("standard input is empty: nothing to check")
