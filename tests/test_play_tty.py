"""`arbiter play` at a real terminal (tmux, 80x24): the pass screen between people, another
terminal's move, a refusal left on screen; and its piped behaviour (bots kept with the game,
seat order, undo of another seat's move asks first).

The kernel's toy game ("duel": a secret card each, secret bids) stands in for a game with
hidden hands."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))


def env_for(tmp_path) -> dict[str, str]:
    return {**os.environ, "ARBITER_PLUGINS": "toygame:GAME", "PYTHONPATH": HERE,
            "ARBITER_DB": str(tmp_path / "tty.duckdb"), "ARBITER_HOME": str(tmp_path / "home"),
            "ARBITER_LOCK_TIMEOUT": "5", "TERM": "xterm"}


def run(tmp_path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from arbiter.cli.app import main; main()", *args],
                          input=stdin, capture_output=True, text=True, env=env_for(tmp_path), cwd=str(tmp_path))


@pytest.fixture
def gid(tmp_path):
    out = run(tmp_path, "new", "duel", "--seed", "3", "--players", "ann,bob")
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


class Tty:
    """One program in a detached 80x24 tmux window."""

    def __init__(self, tmp_path, *args: str) -> None:
        self.name = f"arb-{uuid.uuid4().hex[:8]}"
        env = env_for(tmp_path)
        exports = " ".join(f"{k}={shlex.quote(env[k])}" for k in
                           ("ARBITER_PLUGINS", "PYTHONPATH", "ARBITER_DB", "ARBITER_HOME", "ARBITER_LOCK_TIMEOUT"))
        cmd = " ".join(shlex.quote(a) for a in [sys.executable, "-c", "from arbiter.cli.app import main; main()", *args])
        # the shell stays after the program ends so that its last screen can still be read
        subprocess.run(["tmux", "new-session", "-d", "-s", self.name, "-x", "80", "-y", "24",
                        f"env {exports} {cmd}; echo EXITED $?; sleep 30"], check=True, cwd=str(tmp_path))

    def screen(self) -> str:
        return subprocess.run(["tmux", "capture-pane", "-p", "-t", self.name], capture_output=True,
                              text=True).stdout

    def history(self) -> str:
        """The screen and everything scrolled above it."""
        return subprocess.run(["tmux", "capture-pane", "-p", "-S", "-", "-t", self.name],
                              capture_output=True, text=True).stdout

    def send(self, *keys: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", self.name, *keys], check=True)

    def line(self, text: str) -> None:
        self.send("-l", text)
        self.send("Enter")

    def wait_for(self, text: str, timeout: float = 20) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            shown = self.screen()
            if text in shown:
                return shown
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared; the screen:\n{self.screen()}")

    def last_lines(self, n: int, timeout: float = 20) -> list[str]:
        """The last ``n`` non-blank lines once the program waits at a prompt again."""
        end = time.monotonic() + timeout
        lines: list[str] = []
        while time.monotonic() < end:
            lines = [ln for ln in self.screen().splitlines() if ln.strip()]
            if lines and lines[-1].rstrip().endswith(">"):
                return lines[-n:]
            time.sleep(0.1)
        raise AssertionError(f"no prompt; the screen:\n{self.screen()}")

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.name], capture_output=True)


@pytest.fixture
def tty(tmp_path):
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    opened: list[Tty] = []

    def start(*args: str) -> Tty:
        opened.append(Tty(tmp_path, *args))
        return opened[-1]

    yield start
    for t in opened:
        t.close()


def test_pass_screen_hides_the_last_persons_hand(tmp_path, gid, tty):
    t = tty("play", gid)
    hidden = t.wait_for("press Enter")  # the first seat's card waits for the first seat too
    assert "pass to ann" in hidden and f"game {gid}" in hidden and "card-b" not in t.history()
    t.line("")
    first = t.wait_for("ann>")
    assert "card-b" in first  # ann's own secret card, on ann's screen
    t.line("bid 2")
    passed = t.wait_for("press Enter")
    assert "pass to bob" in passed
    assert "card-b" not in t.history()  # nor scrolled up above the pass screen
    t.line("")
    bobs = t.wait_for("bob>")
    assert "card-g" in bobs and "card-b" not in t.history()


def test_another_terminals_move_is_played_on(tmp_path, gid, tty):
    t = tty("play", gid, "--no-pass-screen")
    t.wait_for("ann>")
    assert run(tmp_path, "do", gid, "--as", "ann", "bid", "1").returncode == 0
    t.line("")  # any line: the store is read again before the next prompt
    shown = t.wait_for("bob>")
    assert "bob chooses in secret" in shown
    t.line("bid 3")
    t.wait_for("may react")


def test_a_refusal_stays_on_screen(tmp_path, gid, tty):
    t = tty("play", gid, "--no-pass-screen")
    t.wait_for("ann>")
    t.line("bid 7")
    t.wait_for("DUEL-BID")
    said, prompt = t.last_lines(2)
    assert "DUEL-BID" in said and prompt.startswith("ann>")
    t.line("bdi 2")
    t.wait_for("did you mean")
    said, prompt = t.last_lines(2)
    assert "`bid 2`" in said and prompt.startswith("ann>")


def test_play_resumes_with_the_bots_it_was_started_with(tmp_path):
    out = run(tmp_path, "play", "duel", "-p", "ann,bob", "--seed", "5", "--bot", "bob=random", stdin="quit\n")
    assert out.returncode == 0, out.stderr
    gid = out.stdout.split("new game ")[1].split()[0]
    again = run(tmp_path, "play", gid, stdin="bid 1\n" + "1\n" * 10 + "quit\n")
    assert again.returncode == 0, again.stderr
    assert "bots as the game was started: bob=random" in again.stdout
    assert "bob (bot)" in again.stdout and "bob>" not in again.stdout
    assert run(tmp_path, "verify", gid).returncode == 0


def test_the_first_prompt_follows_seat_order(tmp_path):
    for seed in range(4):
        out = run(tmp_path, "play", "duel", "-p", "ann,bob", "--seed", str(seed), stdin="quit\n")
        assert out.returncode == 0, out.stderr
        assert "ann>" in out.stdout and "bob>" not in out.stdout


def test_undoing_another_seats_move_asks_first(tmp_path, gid):
    assert run(tmp_path, "do", gid, "--as", "ann", "bid", "2").returncode == 0
    out = run(tmp_path, "play", gid, stdin="undo\nn\nundo\ny\nquit\n")
    assert out.returncode == 0, out.stderr
    # bob is asked about ann's move without being told her secret bid
    assert "undo ann's move (a secret choice)? ann made it [y/N]" in out.stdout
    assert "not undone" in out.stdout and "`bid 2`" not in out.stdout
    assert "undid ann's move" in out.stdout
    log = run(tmp_path, "log", gid, "--as", "referee")
    assert "undid ann's move `bid 2`" in log.stdout


def test_menu_never_starts_with_end():
    from arbiter.cli.play import menu_order

    assert menu_order(["end", "move a", "end turn", "attack b"]) == ["move a", "attack b", "end", "end turn"]


def test_play_with_bots_on_either_store(tmp_path, store_url):
    env = {**env_for(tmp_path), "ARBITER_DB": store_url}
    args = [sys.executable, "-c", "from arbiter.cli.app import main; main()"]
    out = subprocess.run([*args, "play", "duel", "-p", "ann,bob", "--bot", "bob=random", "--seed", "2"],
                         input="quit\n", capture_output=True, text=True, env=env, cwd=str(tmp_path))
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    gid = out.stdout.split("new game ")[1].split()[0]
    again = subprocess.run([*args, "play", gid], input="bid 1\nquit\n",
                           capture_output=True, text=True, env=env, cwd=str(tmp_path))
    assert again.returncode == 0 and "Traceback" not in again.stderr, again.stderr
    assert "bots as the game was started: bob=random" in again.stdout  # kept by either store


def test_every_refusal_is_one_query_away_on_either_store(tmp_path, store_url):
    import json

    env = {**env_for(tmp_path), "ARBITER_DB": store_url}
    args = [sys.executable, "-c", "from arbiter.cli.app import main; main()"]

    def cli(*a: str, stdin: str | None = None) -> subprocess.CompletedProcess:
        return subprocess.run([*args, *a], input=stdin, capture_output=True, text=True, env=env, cwd=str(tmp_path))

    gid = cli("new", "duel", "-p", "ann,bob", "--seed", "3").stdout.strip()
    assert cli("do", gid, "--as", "ann", "bid", "7").returncode == 1
    assert cli("do", gid, "--as", "ann", "bdi", "2").returncode == 2
    assert cli("play", gid, stdin="bid 9\nquit\n").returncode == 0
    assert cli("try", gid, "--as", "bob", "bid", "8").returncode == 1
    assert cli("do", gid, "--as", "ann", "bid", "2").returncode == 0
    out = cli("query", "select source, seq, seat, text, rule_id, exit_code from refusals"
                       " order by refused_at", "--format", "json")
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    assert [(r["source"], r["seat"], r["text"], r["rule_id"], r["exit_code"]) for r in rows] == [
        ("do", "ann", "bid 7", "DUEL-BID", 1), ("do", "ann", "bdi 2", None, 2),
        ("play", "ann", "bid 9", "DUEL-BID", 1), ("try", "bob", "bid 8", "DUEL-BID", 1)]
    assert {r["seq"] for r in rows} == {4}  # all refused at the position after setup
    assert cli("verify", gid).returncode == 0  # the game's own record is untouched


def test_play_resumes_with_the_bot_seed_and_menu_size_it_was_started_with(tmp_path):
    started = ["play", "duel", "-p", "ann,bob", "--seed", "5", "--bot", "bob=random", "--bot-seed", "7"]
    out = run(tmp_path, *started, "--max-menu", "1", stdin="quit\n")
    assert out.returncode == 0, out.stderr
    gid = out.stdout.split("new game ")[1].split()[0]
    again = run(tmp_path, "play", gid, stdin="quit\n")
    assert "bots as the game was started: bob=random (bot seed 7, menu of 1)" in again.stdout
    assert "   1 " in again.stdout and "   2 " not in again.stdout and "more (type the command)" in again.stdout

    def transcript(game_id: str) -> list[str]:
        text = run(tmp_path, "export", game_id).stdout
        return [line for line in text.splitlines() if not line.startswith("#")]

    # the bots choose the same whether the game was played in one sitting or resumed
    whole = run(tmp_path, *started, stdin="1\n" * 12 + "quit\n")
    one_sitting = whole.stdout.split("new game ")[1].split()[0]
    part = run(tmp_path, *started, stdin="1\n" * 4 + "quit\n")
    resumed = part.stdout.split("new game ")[1].split()[0]
    rest = run(tmp_path, "play", resumed, stdin="1\n" * 8 + "quit\n")
    assert rest.returncode == 0, rest.stderr
    assert len(transcript(one_sitting)) > 4
    assert transcript(one_sitting) == transcript(resumed)


def test_an_80x24_terminal_gets_the_compact_board_and_board_shows_it_whole(tmp_path, tty):
    out = run(tmp_path, "new", "villainous", "--seed", "4", "--players", "ann,bob")
    assert out.returncode == 0, out.stderr
    t = tty("play", out.stdout.strip(), "--no-pass-screen")
    screen = t.wait_for("ann>")
    # the whole turn fits one screen: the table, ann's hand, whose turn, the menu, the prompt
    assert "Villainous — round" in screen and "Your hand: " in screen and " 1 " in screen
    assert "Objective:" not in screen  # the full layout's Objective lines are in `board`
    t.line("board")
    # the whole board is taller than the terminal: its last lines are what stays on screen
    t.wait_for("Your hand (ann):")
    full = run(tmp_path, "show", out.stdout.strip(), "--as", "ann")
    short = run(tmp_path, "show", out.stdout.strip(), "--as", "ann", "--compact")
    assert short.returncode == 0 and "Objective:" in full.stdout and "Objective:" not in short.stdout
    assert len(short.stdout.splitlines()) <= 22 < len(full.stdout.splitlines())


def test_each_prompt_redacts_only_the_events_since_the_last(tmp_path, monkeypatch):
    """A long game costs `play` no more per prompt than a short one: what is printed
    (a command's echo, a bot's move, another terminal's moves, what a seat missed behind
    the pass screen) is the new events, redacted once each, never the whole history."""
    from typer.testing import CliRunner

    from arbiter.cli.app import app
    from arbiter.cli.bench import long_match
    from arbiter.core.engine import Engine
    from arbiter.core.match import Match

    db = str(tmp_path / "long.duckdb")
    eng = Engine(db, lock_timeout=5)
    with eng.open() as store:
        gid = eng.store_match(store, long_match("monster-derby", 300, seed=2))
    before = eng.load(gid).seq
    redacted: list[int] = []
    redact = Match.redact

    def counted(self, ev, seat):
        redacted.append(self.seq)
        return redact(self, ev, seat)

    monkeypatch.setattr(Match, "redact", counted)
    with eng.open(read_only=True) as store:
        store_type = type(store)
    read: list[int] = []
    envelopes = store_type.envelopes
    monkeypatch.setattr(store_type, "envelopes", lambda self, *a, **k: read.append(len(r := envelopes(self, *a, **k))) or r)
    out = CliRunner().invoke(app, ["--db", db, "play", gid, "--bot", "p3=random", "--pass-screen"],
                             input="1\n" * 12 + "quit\n", env={"COLUMNS": "200", "ARBITER_HOME": str(tmp_path)})
    assert out.exit_code == 0, out.output
    new = Engine(db).load(gid).seq - before
    assert new > 0 and "•" in out.output
    # each new event is printed for the table and, at most, again for the seat that missed it
    assert len(redacted) <= 3 * new + 3 < before, (len(redacted), new)
    assert sum(read) < before // 2, read  # the snapshot's tail, never the whole log


def test_the_prompt_keeps_no_blank_lines_below_it_so_the_board_keeps_its_title(tmp_path, tty):
    """Monster Derby's first screen (board, three dealt agendas, options, menu) fills an 80x24
    terminal: lines kept free under the prompt for a completion menu scrolled its title off."""
    out = run(tmp_path, "new", "monster-derby", "--seed", "5", "--players", "ann,bob,cy")
    assert out.returncode == 0, out.stderr
    t = tty("play", out.stdout.strip(), "--no-pass-screen")
    screen = t.wait_for("ann>")
    assert "Monster Derby — round 0" in screen, screen
    assert screen.rstrip().splitlines()[-1].startswith("ann>")


def test_a_long_hint_continues_under_its_label_not_at_column_0(tmp_path, tty):
    gid = run(tmp_path, "new", "monster-derby", "-p", "ann,bob", "--seed", "2").stdout.strip()
    t = tty("do", gid, "kep agenda-04", "--as", "ann")
    shown = t.wait_for("EXITED 2")
    lines = [ln for ln in shown.splitlines() if ln.strip() and not ln.startswith("EXITED")]
    assert lines[0].startswith("error: 'kep' is not a Monster Derby command")
    assert lines[1].startswith("  hint: keep AGENDA")
    assert len(lines) > 3 and all(ln.startswith(" " * 8) for ln in lines[2:])  # under "hint: "
    assert all(len(ln) <= 80 for ln in lines)


def test_help_at_80_columns_wraps_with_a_hanging_indent(tmp_path, tty):
    t = tty("play", "scott-pilgrim", "-p", "ann,bob", "--seed", "2", "--no-pass-screen")
    t.wait_for("ann>")
    t.line("help")
    t.wait_for("also: a number")
    text = t.history()
    helped = text[text.rindex("commands:"):text.rindex("also: a number")].splitlines()[1:]
    assert len(helped) > 20 and all(ln.startswith("  ") for ln in helped if ln.strip()), helped
    # a description continues in its own column
    at = next(i for i, ln in enumerate(helped) if ln.lstrip().startswith("WHO punch|kick TARGET"))
    column = helped[at].index("1 damage")
    assert helped[at + 1][:column].strip() == "" and helped[at + 1][column:].strip()


def test_the_compact_menu_at_80x24_shows_several_useful_entries(tmp_path, tty):
    """Scott Pilgrim's board leaves the menu little room at 80x24: it still takes three
    lines, packed as full as they fit, and opens with a move, not with punching a chair."""
    t = tty("play", "scott-pilgrim", "-p", "ann,bob", "--seed", "2")
    for wait, line in (("pass to ann", ""), ("ann>", "place default"), ("pass to bob", ""),
                       ("bob>", "place default"), (" 1 roll", "roll")):
        t.wait_for(wait)
        t.line(line)
    t.wait_for(" 1 matthew move")  # (the board before the roll already said "more lines")
    lines = t.last_lines(6)
    at = next(i for i, ln in enumerate(lines) if "to act" in ln)
    menu = lines[at + 1:-1]
    assert len(menu) == 3 and menu[0].startswith(" 1 matthew move"), lines
    assert sum(ln.count(" move ") for ln in menu) >= 5 and menu[-1].rstrip().endswith("more")
    assert all(len(ln) <= 80 for ln in menu)
