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
    # the verdict, green on stderr's terminal (the table goes to stdout)
    coloured, _piped, rc = on_pty(["verify", ids["scott-pilgrim"]], env(tmp_path, db), stream="stderr")
    assert rc == 0 and COLOR.search(coloured), repr(coloured[:300])
    plain, _piped, rc = on_pty(["verify", ids["scott-pilgrim"]], env(tmp_path, db, NO_COLOR="1"), stream="stderr")
    assert rc == 0 and "verified" in plain and not COLOR.search(plain), repr(plain[:300])


def test_verify_all_shows_progress_on_the_terminal_while_its_report_goes_to_a_file(store, tmp_path):
    db, _ids = store
    bar, report, rc = on_pty(["verify", "--all", "-f", "csv"], env(tmp_path, db), stream="stderr")
    assert rc == 0 and "verifying" in bar
    assert report.splitlines()[0] == "game_id,events,commands,draws,verdict" and "verifying" not in report
    quiet = subprocess.run(ARBITER + ["verify", "--all"], env=env(tmp_path, db), capture_output=True, text=True)
    assert quiet.returncode == 0 and quiet.stderr == "verified\n"  # no bar into a log file


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
    assert version.returncode == 0 and re.fullmatch(r"arbiter \d+\.\d+\.\d+\S* \(engine [^\n]*\)\n", version.stdout)
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


def tab_table(text: str, columns: list[str]) -> list[list[str]]:
    """The rows of a table printed into a pipe, checked to be one: the header line, then a
    line a row with as many tab-separated values, none padded."""
    lines = text.splitlines()
    assert lines[0].split("\t") == columns, lines[0]
    rows = [line.split("\t") for line in lines[1:]]
    for row in rows:
        assert len(row) == len(columns), row
        assert all(v == v.strip() for v in row), row  # no value padded to its column's width
    return rows


def test_every_table_into_a_pipe_is_tab_separated_and_never_padded(store, tmp_path):
    """Into a pipe every column was padded to its widest value (one long event made every
    line of `log` as long) and a value with spaces could not be told from the next. Now a
    table is plain text in the form `mysql --batch` and `gh` print for scripts: a header,
    then a line a row, values separated by one tab, for `cut -f`, `awk -F'\\t'`, `sort -t`."""
    db, ids = store
    gid = ids["monster-derby"]
    log = tab_table(cli(tmp_path, db, "log", gid).stdout, ["seq", "actor", "type", "event"])
    assert [int(r[0]) for r in log] == list(range(1, len(log) + 1))
    assert log[0][2] == "GameCreated" and " " in log[0][3]  # a value's spaces stay in its column
    tab_table(cli(tmp_path, db, "games").stdout,
              ["game_id", "kind", "seats", "status", "winner", "events", "created_at", "seed"])
    tab_table(cli(tmp_path, db, "games", "--kinds").stdout, ["kind", "title", "seats", "rules_version", "bots"])
    rows = tab_table(cli(tmp_path, db, "query", "select game_id, kind, null as nothing from games").stdout,
                     ["game_id", "kind", "nothing"])
    assert sorted(r[0] for r in rows) == sorted(ids.values()) and {r[2] for r in rows} == {""}
    for args in (["--all"], [gid]):  # the table whole on stdout; the verdict's line on stderr
        out = cli(tmp_path, db, "verify", *args)
        rows = tab_table(out.stdout, ["game_id", "events", "commands", "draws", "verdict"])
        assert {r[4] for r in rows} == {"ok"} and out.stderr == "verified\n" and out.returncode == 0
    receipt = f"{gid}:1:" + cli(tmp_path, db, "query", f"select hash from events where game_id = '{gid}'"
                                " and seq = 1", "-f", "csv").stdout.split()[1][:16]
    out = cli(tmp_path, db, "verify", "--receipt", receipt)  # only receipts: a row a receipt
    assert tab_table(out.stdout, ["receipt", "verdict"]) == [[receipt, "present"]] and out.stderr == "verified\n"
    tab_table(cli(tmp_path, db, "rules", "villainous", "vanquish").stdout, ["id", "source", "section", "rule"])
    # the overview: the rules, the command forms and the options, each after a blank line
    sections = cli(tmp_path, db, "rules", "monster-derby").stdout.split("\n\n")
    assert len(sections) == 3 and sections[1].startswith("commands")
    tab_table(sections[0], ["id", "source", "section", "rule"])
    assert sections[2].startswith("options (--option name=value)\n")
    tab_table(sections[2].split("\n", 1)[1], ["option", "default", "choices", "house", "what it sets"])
    out = cli(tmp_path, str(tmp_path / "sim.duckdb"), "simulate", "monster-derby", "--games", "2", "--seed", "3")
    table, said = out.stdout.rsplit("\n", 2)[0], out.stdout.splitlines()[-1]
    tab_table(table, ["winner", "games won"])
    assert said.startswith("2 games of Monster Derby, agenda bots; commands per game: "), said


HOSTILE = "[/x]EVIL\x1b[2J\x1b]0;pwned\x07\x9b\u202e"


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """A Villainous game whose content names things with ESC sequences, a carriage return,
    a C1 control, a bidi override and rich markup: as a store written by an older arbiter or
    through another door may hold them (`new --content` refuses such a file now)."""
    from arbiter.core.engine import Engine
    from arbiter.core.match import Match
    from arbiter.core.villainous import GAME

    tmp = tmp_path_factory.mktemp("hostile")
    db = str(tmp / "h.duckdb")
    content = GAME.default_content()
    for villain in content["villains"].values():
        villain["name"] = HOSTILE + villain["name"]
        for i, item in enumerate([*villain["locations"], *villain["villain_deck"], *villain["fate_deck"]]):
            item["name"] += "[bold red]R\rX" if i % 2 else "\x1b[31mred[/]"
    eng = Engine(db)
    # stored as an older arbiter stored it: a new game's content is refused such text now
    older = Match.new(GAME, seed=3, seats=["ann", "bob"], content=content, content_source="file:h.json")
    with eng.open() as store:
        gid = eng.store_match(store, older)
    eng.do(gid, "move the box", "ann")
    return tmp, db, gid


#: What must never reach a terminal from stored text (rich's own colours are ESC [ ... m).
ACTING = ("\x1b[2J", "\x1b]0;", "\x07", "\x9b", "\u202e", "R\rX", "\x1b[31mred")


@pytest.mark.parametrize("args", [
    ["show", "{g}", "--as", "ann"], ["show", "{g}", "--compact"], ["log", "{g}", "--as", "referee"],
    ["why", "{g}", "12"], ["try", "{g}", "--at", "11", "--as", "ann", "move", "coruscant"],
    ["query", "select chr(27) || '[2J' || chr(7) || chr(155) || chr(8238) || 'R' || chr(13) || 'X' as name"],
    ["verify", "{g}"], ["export", "{g}", "-f", "transcript"], ["replay", "{g}", "--as", "ann", "--at", "12"],
    ["play", "{g}"],
])
def test_stored_control_characters_are_shown_escaped_in_a_pipe_and_at_a_terminal(hostile, tmp_path, args):
    """A card or Villain named with an ESC sequence cleared and retitled the terminal of
    every player who looked at the board, `[/x]` in a name stopped `show` with a traceback,
    and `[bold red]` styled the line. Now each is shown as written, its control characters
    as escapes (\\x1b, \\r, \\x9b, \\u202e), into a pipe and on a terminal alike."""
    _tmp, db, gid = hostile
    args = [a.replace("{g}", gid) for a in args]
    piped = subprocess.run(ARBITER + args, env=env(tmp_path, db), capture_output=True, text=True)
    shown, _err, rc = on_pty(args, env(tmp_path, db))
    for out, code in ((piped.stdout + piped.stderr, piped.returncode), (shown, rc)):
        assert code == 0 and "Traceback" not in out, out[-800:]
        assert not [a for a in ACTING if a in out], (args, [a for a in ACTING if a in out])
    if args[0] in ("show", "log", "replay", "play"):
        assert "[/x]EVIL\\x1b[2J\\x1b]0;pwned\\x07\\x9b\\u202e" in piped.stdout, piped.stdout[:2000]
        assert "[bold red]R\\rX" in piped.stdout, piped.stdout[:2000]
    if args[0] in ("show", "why"):
        assert "The Box\\x1b[31mred[/]" in piped.stdout, piped.stdout[:2000]


def test_json_and_csv_keep_stored_text_exact(hostile, tmp_path):
    """JSON, JSON lines and CSV are data: a name is given as stored, control characters
    and all (JSON escapes them its own way), for a script to judge."""
    _tmp, db, gid = hostile
    sql = "select chr(27) || '[2J' || chr(13) || chr(8238) as name"
    for fmt in ("json", "jsonl"):
        out = cli(tmp_path, db, "query", sql, "-f", fmt).stdout
        assert json.loads(out if fmt == "jsonl" else out[1:-2].strip()) == {"name": "\x1b[2J\r\u202e"}, out
    csv_out = cli(tmp_path, db, "log", gid, "--as", "referee", "-f", "csv").stdout
    assert HOSTILE in csv_out


def test_what_a_user_types_is_echoed_escaped(store, tmp_path):
    """An error echoing what was typed (an unknown verb, a game id, an extra argument, a
    refused command) printed its control characters to the terminal as they were."""
    db = str(tmp_path / "typed.duckdb")
    gid = cli(tmp_path, db, "new", "monster-derby", "--seed", "1", "-p", "ann,bob").stdout.strip()
    for args in (["x\x1b]0;pwned\x07"], ["show", "\x1b[2J"], ["log", gid, "b\x1b[2J"], ["show", "[/x]"],
                 ["do", gid, "--as", "ann", "keep\x1b[2J"], ["do", gid, "--as", "ann", "[/x]\x1b[2J"],
                 ["show", gid, "--as", "\x1b[2J"], ["rules", "monster-derby", "\x1b[2J"], ["why", gid, "--a\x1b[2J"]):
        out = subprocess.run(ARBITER + args, env=env(tmp_path, db), capture_output=True, text=True)
        assert out.returncode == (0 if args[0] == "rules" else 2), (args, out.stderr)
        assert "Traceback" not in out.stderr, (args, out.stderr)
        assert "\x1b" not in out.stderr and "\x07" not in out.stderr, (args, out.stderr)
        assert "\\x1b" in out.stderr or "[/x]" in out.stderr, (args, out.stderr)
