"""The ``arbiter`` command line: play, replay, audit and query games."""

from __future__ import annotations

import importlib
import json
import os
import random
import sys
import time
from contextlib import nullcontext, suppress
from typing import TYPE_CHECKING, Any, Optional

import typer

from arbiter.cli import common
from arbiter.cli.common import CTX, console, counted, emit_rows, err, escape, fail, format_option, log, say, user_errors
from arbiter.core.errors import ArbiterError, BadContent, ParseError, RuleViolation, TranscriptError

if TYPE_CHECKING:  # the store (duckdb) is imported only by the verbs that open it
    from arbiter.core.engine import Engine
    from arbiter.core.match import Match


class _Lazy:
    """A module imported on first use, so verbs that never open the store never load duckdb."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        return getattr(importlib.import_module(self._name), attr)


# What the verbs print with, imported when one prints (help and usage errors need none of
# it: the events, the fold and msgspec behind them are most of a verb's own start-up).
def describe(*args: Any, **kwargs: Any) -> str:
    from arbiter.cli.words import describe as words

    return words(*args, **kwargs)


def print_events(*args: Any, **kwargs: Any) -> None:
    from arbiter.cli.words import print_events as words

    words(*args, **kwargs)


def print_new(*args: Any, **kwargs: Any) -> None:
    from arbiter.cli.words import print_new as words

    words(*args, **kwargs)


def whose_turn(*args: Any, **kwargs: Any) -> str:
    from arbiter.cli.words import whose_turn as words

    return words(*args, **kwargs)


def renderer(kind: str, width: int | None = 80) -> Any:
    from arbiter.cli.render import renderer as render

    return render(kind, width)


audit = _Lazy("arbiter.core.audit")
explain = _Lazy("arbiter.core.explain")
botlib = _Lazy("arbiter.core.bots")
matches = _Lazy("arbiter.core.match")
registry = _Lazy("arbiter.core.registry")
transcript = _Lazy("arbiter.core.transcript")


def version_callback(value: bool) -> None:
    """The release (pyproject.toml's version, as installed), then the versions it writes
    that are not the release's: the engine each new game records in its GameCreated (the
    kernel's own rules; a game replays under the engine it names, so this moves only when
    those rules do), and the layouts of the store, the export and the snapshots."""
    if value:
        from arbiter.core.match import ENGINE_VERSION, release
        from arbiter.core.porting import FORMAT
        from arbiter.events.store import SCHEMA_VERSION
        from arbiter.projections.fold import SNAPSHOT_FORMAT

        v = release()
        # one line, the release first: `arbiter --version | cut -d' ' -f2` is the release
        console.print(f"arbiter {v} (engine {ENGINE_VERSION}, store schema v{SCHEMA_VERSION},"
                      f" export format {FORMAT}, snapshot format {SNAPSHOT_FORMAT})",
                      highlight=False, soft_wrap=True)
        raise typer.Exit()


app = typer.Typer(
    # rich help at a terminal; plain (and much quicker to start) into a pipe
    add_completion=True, no_args_is_help=True, rich_markup_mode="rich" if sys.stdout is not None and sys.stdout.isatty() else None,
    help="arbiter: a referee for tabletop games that keeps a tamper-evident ledger of every move.",
    context_settings={"help_option_names": ["-h", "--help"]},
)


@app.callback()
def main_options(
    db: Optional[str] = typer.Option(None, "--db", help="The store (default: ARBITER_DB or the data directory)."),
    verbose: bool = typer.Option(False, "-v", "--verbose", help="A readable log on stderr."),
    _version: bool = typer.Option(False, "--version", callback=version_callback, is_eager=True,
                                  help="Print arbiter's version and exit."),
) -> None:
    CTX.db = common.default_db() if db is None else db
    CTX.verbose = verbose
    if {"-h", "--help"} & set(sys.argv[1:]):
        return  # a verb's help is shown whatever the store or the environment says
    problem = common.store_problem(CTX.db, named=bool(db or os.environ.get("ARBITER_DB")))
    if problem:
        fail(problem + (" (from ARBITER_DB)" if db is None and os.environ.get("ARBITER_DB") else ""))
    wait = os.environ.get("ARBITER_LOCK_TIMEOUT")
    if wait and not common.seconds(wait):  # empty: unset, as ARBITER_DB
        fail(f"ARBITER_LOCK_TIMEOUT takes how many seconds to wait for a busy store (say, 5), not {wait!r}")


def engine() -> "Engine":
    from arbiter.core.engine import Engine

    return Engine(CTX.db)


def parse_options(raw: list[str]) -> dict[str, str]:
    out = {}
    for item in raw:
        k, eq, v = item.partition("=")
        if not eq or not k.strip():
            fail(f"--option takes name=value, not {item!r}")
        if k.strip() in out and out[k.strip()] != v.strip():
            fail(f"--option {k.strip()} is given twice ({out[k.strip()]} and {v.strip()}): keep the one you mean")
        out[k.strip()] = v.strip()
    return out


def parse_players(raw: list[str]) -> list[str] | None:
    names = [p.strip() for item in raw for p in item.split(",") if p.strip()]
    if raw and not names:  # an empty shell variable: not the game's default players
        fail(f"--players takes the players' names, comma separated (ann,bob,cy), not {', '.join(map(repr, raw))}")
    return names or None


def load_content(path: str | None) -> tuple[dict[str, Any] | None, str]:
    if path is None:
        return None, "embedded"
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except OSError as exc:
        raise BadContent(f"cannot read content file {path}: {exc.strerror}") from None
    except ValueError as exc:
        raise BadContent(f"{path} is not valid JSON: {exc}") from None
    from arbiter.core.printable import ACTING_CONTENT, acting_text

    where = acting_text(data)
    if where:
        raise BadContent(f"{common.visible(path)}: {where}: {ACTING_CONTENT}")
    return data, f"file:{os.path.basename(path)}"


# ----------------------------------------------------------------------------- new / do


@app.command()
def new(
    kind: str = typer.Argument(..., help="The kind of game, e.g. monster-derby (see `arbiter games --kinds`)."),
    seed: Optional[int] = typer.Option(None, help="Seed for dice and shuffles (random if omitted)."),
    players: list[str] = typer.Option([], "--players", "-p", help="Player names, comma separated."),
    option: list[str] = typer.Option([], "--option", "-o", help="A rules option, name=value (repeatable)."),
    dice: str = typer.Option("seeded", help="seeded, or manual to type the faces of physical dice."),
    content: Optional[str] = typer.Option(None, help="A content file (JSON) replacing the built-in cards/boards."),
    entropy: list[str] = typer.Option([], "--entropy", help="SEAT=TEXT: a player's own secret mixed into the seed (repeatable)."),
) -> None:
    """Create a game and print its id.

    The referee draws a secret seed and shows every player only its commitment until the
    game ends (then it is revealed and anyone can check the dice). `--seed` makes a practice
    game; `--entropy SEAT=TEXT` lets a player add a secret of its own to the dice."""
    with user_errors():
        data, source = load_content(content)
        gid, match, receipt = engine().new(
            kind, seats=parse_players(players), seed=seed, options=parse_options(option),
            dice=dice, content=data, content_source=source, entropy=parse_entropy(entropy))
        log().info("new", game_id=gid, kind=kind, practice=seed is not None)
        console.print(escape(gid))
        c = match.created.commitment
        sealed = f"practice seed {seed}" if seed is not None else "secret seed"
        err.print(f"[dim]{match.game.title}: {', '.join(match.seats)}; {sealed}"
                  + (f" (commitment {c.seed[:16]}…)" if c is not None else "")
                  + f"; {escape(whose_turn(match))}. receipt {escape(receipt)}[/]")


def parse_entropy(raw: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in raw:
        seat, eq, text = item.partition("=")
        if not eq or not seat.strip():
            fail(f"--entropy takes SEAT=TEXT, not {item!r}")
        if seat.strip() in out:
            fail(f"--entropy for {seat.strip()} is given twice")
        out[seat.strip()] = text
    return out


@app.command("do")
def do_(
    game_id: str = typer.Argument(..., help="The game (a unique prefix is enough)."),
    command: list[str] = typer.Argument(..., help="The command, e.g. `attack giant`."),
    seat: Optional[str] = typer.Option(None, "--as", help="Which player acts (needed when several may)."),
    command_id: Optional[str] = typer.Option(None, "--command-id", metavar="ID", help="Makes a retried command idempotent."),
    fmt: str = format_option(),
) -> None:
    """Apply one command (scriptable).

    With --format json, jsonl or csv, stdout holds one row: the game, the seat that acted,
    the command, the seqs of its events, the receipt and who decides next."""
    with user_errors():
        if command_id is not None:
            check_command_id(command_id)
        text = " ".join(command)
        eng = engine()
        try:
            receipt, match, events = eng.do(game_id, text, seat, command_id)
        except (ParseError, RuleViolation) as exc:
            match = eng.load(game_id)
            common.record_refusal(eng, match, seat, text, exc, "do")
            if isinstance(exc, ParseError):
                first, _, rest = text.partition(" ")
                if seat is None and first in match.seats and rest:  # `do GAME ann bid 2`
                    exc.hint = f"the player goes in --as: arbiter do {game_id} --as {first} {rest}"
                    raise exc from None
                raise explain.with_hint(exc, match, seat, text) from None
            raise
        log().info("command", game_id=receipt.game_id, text=text, seq=receipt.seq)
        if fmt != "table":
            return emit_receipt(receipt, match, text, fmt)
        print_new(match, receipt.first_seq - 1, match.actor(receipt.first_seq))
        console.print(f"[dim]receipt {escape(receipt)}[/]")
        console.print(escape(whose_turn(match)))


def emit_receipt(receipt: Any, match: Match, text: str, fmt: str) -> None:
    """A command a script gave (`do`, `undo`) as one row of data: what was recorded and
    the receipt to keep."""
    emit_rows(["game_id", "seat", "command", "first_seq", "last_seq", "receipt", "next"],
              [(receipt.game_id, match.actor(receipt.first_seq), text, receipt.first_seq, receipt.seq,
                str(receipt), whose_turn(match))], fmt)


#: The longest --command-id: room for any UUID, hash or key a script makes.
COMMAND_ID_MAX = 200


def check_command_id(command_id: str) -> None:
    """Refuse a --command-id that cannot make a retry safe: an empty one (an unset shell
    variable) was taken as none, so the retry it was meant to guard was applied twice."""
    if not command_id.strip():
        fail("--command-id takes an id that a retry repeats (say, a UUID), not an empty one")
    if len(command_id) > COMMAND_ID_MAX:
        fail(f"--command-id takes 1 to {COMMAND_ID_MAX} characters, not {len(command_id)}")
    if common.ACTS.search(command_id):
        fail(f"--command-id takes printable characters, not {common.visible(repr(command_id))}")


@app.command()
def undo(
    game_id: str = typer.Argument(..., help="The game (a unique prefix is enough)."),
    seat: Optional[str] = typer.Option(None, "--as", help="Who asks for the undo."),
    fmt: str = format_option(),
) -> None:
    """Retract the last move (recorded as an event, never deleted; the dice do not change).

    With --format json, jsonl or csv, stdout holds one row, as `do` prints it."""
    with user_errors():
        eng = engine()
        match = eng.load(game_id)
        top = match.folded.top if match.folded else None
        undone = match.command_at(top.first_seq) if top and not seat else None
        who = seat or (undone[1] if undone else None) or match.seats[0]
        receipt, match, events = eng.do(game_id, matches.UNDO, who)
        ev = events[0]
        assert type(ev).__name__ == "Undone"
        if fmt != "table":
            return emit_receipt(receipt, match, matches.UNDO, fmt)
        console.print(f"undid {escape(explain.undone_move(match, ev.first_seq, who))}"
                      f" [dim](seq {ev.first_seq}–{ev.last_seq}; receipt {escape(receipt)})[/]")
        console.print(escape(whose_turn(match)))


# ----------------------------------------------------------------------------- looking


def load_at(game_id: str, at: Optional[int], whole_commands: bool = False,
            eng: "Engine | None" = None) -> Match:
    """The game as it was after seq ``at`` (folded from the nearest snapshot before it).
    ``whole_commands``: ``at`` must end a command (what `try` decides at and what `fork`
    branches from must be the same position)."""
    eng = eng or engine()
    if at is None:
        return eng.load(game_id)
    with eng.open(read_only=True) as store:
        gid = check_at(store, game_id, at, whole_commands)
        return eng.load_from(store, gid, upto=at)


def check_at(store: Any, game_id: str, at: int, whole_commands: bool) -> str:
    """The game's id, once ``at`` is one of its seqs (ending a command, if asked)."""
    gid = store.resolve_game_id(game_id)
    head = store.head(gid)[0]
    if not 1 <= at <= head:
        fail(f"--at takes a seq from 1 to {head}")
    if whole_commands:
        check_boundary(store, gid, at)
    return gid


def check_boundary(store: Any, game_id: str, at: int) -> None:
    """Refuse a seq in the middle of a command: a position between two of one command's
    events was never a state anyone could act in."""
    here = store.envelopes(game_id, upto=at + 1, after=at - 1)
    if len(here) < 2 or here[0].command_id != here[1].command_id:
        return
    _gid, _seat, _text, first, last = store.command(here[0].command_id)
    before = f"--at {first - 1} (before it) or " if first > 1 else ""
    fail(f"seq {at} is inside one command's events (seq {first}–{last}); use {before}--at {last} (after it)")


@app.command()
def show(
    game_id: str = typer.Argument(..., help="The game (a unique prefix is enough)."),
    at: Optional[int] = typer.Option(None, "--at", help="Show the game as it was after this seq."),
    seat: Optional[str] = typer.Option(None, "--as", help="As this player sees it (`referee` sees all)."),
    fmt: str = format_option("table", ("table", "json", "jsonl")),
    as_json: bool = typer.Option(False, "--json", hidden=True, help="Same as --format json."),
    compact: bool = typer.Option(False, "--compact", help="The short layout that fits an 80x24 terminal."),
) -> None:
    """The board and state at any point (json: the state as this seat may see it)."""
    with user_errors():
        match = load_at(game_id, at)
        check_seat(match, seat)
        view = match.view(seat)
        import msgspec

        if as_json or fmt == "json":
            sys.stdout.write(msgspec.json.format(msgspec.json.encode(view), indent=2).decode() + "\n")
            return
        if fmt == "jsonl":
            sys.stdout.write(msgspec.json.encode(view).decode() + "\n")
            return
        console.print(f"[bold]{escape(match.game_id)}[/] {match.game.title} — seq {match.seq}"
                      + (f" (as {escape(seat)})" if seat else " (public view)"))
        if compact:
            from arbiter.cli.render import compact_renderer

            console.print(compact_renderer(match.game.id)(view, seat))
        else:
            # into a pipe or a file every line stays whole (for grep), as README promises
            console.print(renderer(match.game.id, 80 if common.interactive() else None)(view, seat))
        console.print(escape(within_command(match, at, seat) or whose_turn(match)))


def within_command(match: Match, at: Optional[int], seat: Optional[str]) -> str | None:
    """What a position inside one command's events waits on, in words, as ``seat`` may
    read them (``explain.waits_on``, which `replay` says too); None at a position between
    commands."""
    if at is None:
        return None
    with engine().open(read_only=True) as store:
        here = store.envelopes(match.game_id, upto=at + 1, after=at - 1)
        if len(here) < 2 or here[0].command_id != here[1].command_id:
            return None
        _gid, who, text, first, last = store.command(here[0].command_id)
    after = load_at(match.game_id, last)
    found = after.command_at(first)
    words = explain.readable_words(after, who, text, found[3] if found else [], seat)
    return explain.waits_on(at, (who, words, first, last), whose_turn(after))


def check_seat(match: Match, seat: Optional[str]) -> None:
    from arbiter.projections.kernel import REFEREE

    if seat is not None and seat != REFEREE and seat not in match.seats:
        fail(f"no player {seat!r} in this game (players: {', '.join(match.seats)}, or referee)")


@app.command("log")
def log_(
    game_id: str = typer.Argument(..., help="The game (a unique prefix is enough)."),
    seat: Optional[str] = typer.Option(None, "--as", help="Redacted for this player (`referee`: all)."),
    fmt: str = format_option(),
) -> None:
    """The events of a game, redacted for a seat (json and jsonl carry each event's fields)."""
    with user_errors():
        match = engine().load(game_id)
        check_seat(match, seat)
        import msgspec

        rows = []
        for seq, actor, ev in match.log(seat):
            if fmt in ("json", "jsonl"):
                rows.append((seq, actor or "", type(ev).__name__, msgspec.to_builtins(ev)))
            else:
                rows.append((seq, actor or "", type(ev).__name__, describe(match, ev, seat)))
        emit_rows(["seq", "actor", "type", "event"], rows, fmt, title=f"{match.game_id} ({match.game.title})")


@app.command()
def replay(
    game_id: str = typer.Argument(..., help="The game (a unique prefix is enough)."),
    seat: Optional[str] = typer.Option(None, "--as", help="Replay as this player sees it."),
    at: Optional[int] = typer.Option(None, "--at", help="Start at this seq."),
) -> None:
    """Step through a game: n/p event, c/C command, t/T turn, r/R round, /WORDS search
    (?WORDS back), g SEQ, s(tart), e(nd); `try COMMAND` and `fork` from the point reached;
    h(elp), q(uit)."""
    with user_errors():
        from arbiter.cli.replay import run_replay

        eng = engine()
        match = eng.load(game_id)
        check_seat(match, seat)
        if at is not None and not 1 <= at <= match.seq:  # as show, try and fork say it
            fail(f"--at takes a seq from 1 to {match.seq}")

        def try_at(seq: int, text: str) -> None:
            words = text.split()
            who = seat
            if words[:1] == ["--as"]:
                if len(words) < 3:
                    err.print("try --as takes a seat and a command: try --as ann keep agenda-3")
                    return
                who, words = words[1], words[2:]
            try_(match.game_id, words, at=seq, seat=who, fmt="table")

        def fork_at(seq: int) -> None:
            fork(match.game_id, at=seq)

        def nearest(seq: int) -> Any:
            from arbiter.events.store import StoreError

            try:
                return eng.nearest_fold(match.game_id, seq)
            except StoreError:  # the store busy or gone mid-replay: fold from what is in hand
                return None

        run_replay(match, seat, at, input, try_at, fork_at, nearest=nearest)


@app.command("try")
def try_(
    game_id: str = typer.Argument(..., help="The game (a unique prefix is enough)."),
    command: list[str] = typer.Argument(..., help="The command, e.g. `attack giant`."),
    at: Optional[int] = typer.Option(None, "--at", help="Ask about the position after this seq."),
    seat: Optional[str] = typer.Option(None, "--as", help="Who acts (needed when several may)."),
    fmt: str = format_option(),
) -> None:
    """Dry run: would this command be (or have been) legal, and what would it do? Writes nothing.

    What it would do is shown as the acting seat may see it, up to the first die, card,
    shuffle or reveal that seat has not seen; from there it says only what the rest depends
    on (`--as referee` shows everything)."""
    with user_errors():
        eng = engine()
        live = eng.load(game_id)  # the position asked about is the live one unless --at
        match = live if at is None else load_at(game_id, at, whole_commands=True, eng=eng)
        text = " ".join(command)
        try:
            trial = explain.try_command(match, seat, text, live)
        except (RuleViolation, ParseError) as exc:
            if at is None:  # a refusal at the live position, as `do` would have refused it
                common.record_refusal(eng, match, seat, text, exc, "try")
            if fmt != "table":  # a script reads "not legal" as a row too, not only from stderr
                emit_rows(["at", "actor", "command", "legal", "rules", "event"],
                          [(match.seq, seat or "", text, False, getattr(exc, "rule_id", None) or "",
                            common.clip(str(exc)))], fmt)
            raise
        if fmt == "table":
            console.print(f"legal: {escape(trial.actor)}: {escape(trial.text)} at seq {trial.at}"
                          + (f" (checked {', '.join(trial.rules)})" if trial.rules else ""))
            print_events(match, trial.events, trial.viewer)
            if trial.rest:
                console.print(f"  [dim]•[/] {escape(trial.rest)}")
            return
        emit_rows(["at", "actor", "command", "legal", "rules", "event"],
                  [(trial.at, trial.actor, trial.text, True, ", ".join(trial.rules), line)
                   for line in [describe(match, ev, trial.viewer) for ev in trial.events]
                   + ([trial.rest] if trial.rest else [])], fmt)


@app.command()
def why(
    game_id: str = typer.Argument(..., help="The game (a unique prefix is enough)."),
    seq: int = typer.Argument(..., help="The event to explain."),
    seat: Optional[str] = typer.Option(None, "--as", help="Show the events as this seat may see them."),
    fmt: str = format_option(),
) -> None:
    """Which command produced an event, and which rules it passed."""
    with user_errors():
        match = engine().load(game_id)
        check_seat(match, seat)
        why = explain.explain(match, seq, seat)
        columns = ["seq", "command_id", "actor", "command", "first_seq", "last_seq", "kind", "detail"]
        head = (seq, why.command_id, why.actor, why.words, why.first, why.last)
        if why.setup:
            if fmt == "table":
                console.print(f"seq {seq} was written when the game was set up (seq {why.first}–{why.last}).")
            else:
                emit_rows(columns, [(*head, "setup", "")], fmt)
            return
        if fmt != "table":
            emit_rows(columns, [(*head, "refused today", why.refused) for _ in [why.refused] if why.refused]
                      + [(*head, "rule", f"{r.id} ({r.source}, {r.section}): {r.text}") for r in why.rules]
                      + [(*head, "event", f"{s} {describe(match, ev, seat)}") for s, ev in why.events], fmt)
            return
        if why.refused:
            console.print(f"[yellow]today's rules refuse it: {escape(why.refused)}[/]")
        console.print(f"seq {seq} came from [bold]{escape(why.actor)}: {escape(why.words)}[/]"
                      f" (seq {why.first}–{why.last}, command {escape(why.command_id)})")
        for rule in why.rules:
            console.print(f"  passed {rule.id} ({rule.source}, \"{escape(rule.section)}\"): {escape(rule.text)}")
        for s, ev in why.events:
            console.print(f"  [dim]{s}[/] {escape(describe(match, ev, seat))}")


# ----------------------------------------------------------------------------- audits


@app.command()
def check(
    path: str = typer.Argument(..., help="A transcript file (- for stdin)."),
    content: Optional[str] = typer.Option(None, help="The content file the game was played with."),
    fmt: str = format_option(),
) -> None:
    """Validate a whole game written as a transcript; report the first illegal line."""
    with user_errors():
        text = read_text(path)
        data, _source = load_content(content)
        try:
            if not text.strip():  # as import says it: nothing was given, rather than a bad first line
                raise TranscriptError(f"line 1: {'standard input' if path == '-' else path} is empty:"
                                      f" nothing to check (a transcript starts with {transcript.MAGIC!r})")
            result = transcript.check(text, data)
        except TranscriptError as bad:
            if fmt == "table":
                raise
            # a script reads an unreadable transcript's verdict as it reads an illegal line's
            import re

            where = re.match(r"line (\d+): (.*)", str(bad), re.S)
            line = int(where.group(1)) if where else None
            shown = text.splitlines()[line - 1] if line and line <= len(text.splitlines()) else None
            emit_rows(["ok", "line", "text", "rule_id", "message", "commands", "events"],
                      [(False, line, common.clip(shown) if shown is not None else None, None,
                        common.clip(where.group(2) if where else str(bad)), 0, None)], fmt)
            raise typer.Exit(2) from None
        exc = result.error
        if fmt != "table":
            m = result.match
            emit_rows(["ok", "line", "text", "rule_id", "message", "commands", "events"],
                      [(result.ok, None if result.ok else result.line, None if result.ok else common.clip(result.text),
                        getattr(exc, "rule_id", None), None if exc is None else common.clip(str(exc)),
                        result.commands, m.seq if m is not None else None)], fmt)
        elif not result.ok:
            err.print(f"[bold red]line {result.line}[/] {escape(common.clip(result.text))}\n  {escape(common.clip(str(exc)))}")
        else:
            m = result.match
            console.print(f"ok: {result.commands} commands, {m.seq} events. {escape(whose_turn(m))}")
        if not result.ok:
            raise typer.Exit(1 if isinstance(exc, RuleViolation) else 2)


def read_text(path: str) -> str:
    if path == "-":
        return sys.stdin.read().removeprefix("\ufeff")
    try:  # utf-8-sig: a byte-order mark some editors write is not part of the text
        with open(path, encoding="utf-8-sig") as fh:
            return fh.read()
    except UnicodeDecodeError as exc:
        fail(f"cannot read {path}: it is not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset"
             f" {exc.start}); a transcript or receipts file is plain text")
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror or exc}")
    return ""


@app.command()
def verify(
    game_id: Optional[str] = typer.Argument(None, help="The game (a unique prefix is enough)."),
    all_games: bool = typer.Option(False, "--all", help="Every game in the store, and the global ledger."),
    receipt: list[str] = typer.Option([], "--receipt", "-r", help="A receipt to prove (repeatable)."),
    receipts: Optional[str] = typer.Option(None, "--receipts", help="A file of receipts, one a line, to prove at once."),
    quick: bool = typer.Option(False, "--quick", help="Chain and dice only; do not re-decide commands."),
    seat: Optional[str] = typer.Option(None, "--as", help="Check only what this player may know (the dice once the game is over)."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", metavar="N", help="Worker processes re-deciding games with --all (default: one a core)."),
    fmt: str = format_option(),
) -> None:
    """Audit: hash chains, the listing, dice against the seed, and every command decided again.

    With --all, the store is read in batches (memory bounded by the largest game, not the
    store) and games are re-decided by --jobs worker processes, with a progress bar on a
    terminal. With --as SEAT, the audit a player can make: while the game is on, the
    chain's links; once it is over, the whole chain, the revealed seed against its
    commitment, and every roll and shuffle recomputed from it."""
    with user_errors():
        if jobs is not None and jobs < 1:
            fail(f"--jobs takes a number of worker processes, 1 or more, not {jobs}")
        if not game_id and not all_games and not receipt and not receipts:
            fail("name a game, or --all, or --receipt, or --receipts FILE")
        if game_id and all_games:
            fail(f"verify takes a game or --all, not both (--all checks every game, {game_id} among them)")
        from arbiter.projections.kernel import REFEREE

        if seat is not None and seat != REFEREE:
            if not game_id or all_games or receipt or receipts:
                fail("verify --as SEAT checks one game: name it (without --all, --receipt or --receipts)")
            return verify_as(game_id, seat, fmt)
        wanted = list(receipt)
        where = [""] * len(wanted)  # where each receipt was read, to name a malformed one
        if receipts:
            for no, line in audit.parse_receipts(read_text(receipts)):
                wanted.append(line)
                where.append(f"{receipts}, line {no}: ")
            if not wanted:
                fail(f"{receipts} holds no receipts (one a line, game:seq:hash as arbiter printed them)")
        eng = engine()
        bad = 0
        jobs = jobs or audit.default_jobs()
        # the workers start up while this process opens the store
        with audit.audit_pool(eng.path, jobs, eng.lock_timeout) if all_games and jobs > 1 \
                else nullcontext() as pool, eng.open(read_only=True) as store:
            # a receipt typed wrong is bad input: refused before the audit, not after its report
            checked = [audit.check_receipt(store, r) for r in wanted]
            malformed = [(at, p) for at, p in zip(where, checked) if p is not None and p.seq == 0]
            for at, p in malformed:
                err.print(f"[bold red]error:[/] {escape(at + p.message)}")
            if malformed:
                raise typer.Exit(2)
            if all_games:
                from rich.progress import Progress

                sizes = audit.game_sizes(store)
                # on stderr's terminal, even when the report goes to a file or a pipe
                with Progress(console=err.get(), transient=True,
                              disable=not err.get().is_terminal or not sizes) as bar:
                    task = bar.add_task("verifying", total=sum(n for _g, n in sizes))
                    reports, ledger = audit.verify_all(
                        store, redecide=not quick, jobs=jobs, timeout=eng.lock_timeout, sizes=sizes,
                        progress=lambda n: bar.advance(task, n), pool=pool)
            else:
                reports = [audit.verify_game(store, store.resolve_game_id(game_id), redecide=not quick)] if game_id else []
                ledger = []
            rows = []
            warnings: list[tuple[str, int, str]] = []
            for report in reports:
                first = report.first
                rows.append((report.game_id, report.events, report.commands, report.rolls,
                             "ok" if report.ok else f"FAIL at seq {first.seq}: {first.message}"))
                bad += not report.ok
                warnings += [(report.game_id, seq, text) for seq, text in report.warnings]
            stale = stale_snapshots(store, [r.game_id for r in reports] if game_id else None) if reports else []
        # stdout holds the data in every format: the games' rows, or with only receipts asked
        # for, a row a receipt; what is said beside it (the verdict, the receipts' lines
        # beside a game's rows) goes to stderr, so that a script reads the table whole
        receipt_rows = not rows and bool(wanted)
        if receipt_rows:
            emit_rows(["receipt", "verdict"],
                      [(r, "present" if p is None else p.message) for r, p in zip(wanted, checked)], fmt)
        elif rows:
            emit_rows(["game_id", "events", "commands", "draws", "verdict"], rows, fmt)
        for gid, _seq, text in warnings:
            err.print(f"[yellow]warning: {escape(gid)}: {escape(text)}[/]")
        if stale:
            say(err, "hint: " + unused_snapshots(stale), style="dim")
        for p in ledger:
            err.print(f"[red]store: {escape(p.message)}[/]")
        missing = [p for p in checked if p is not None]
        if receipt_rows:
            pass
        elif receipts and not missing:
            err.print(f"receipts: all {len(wanted)} present")
        elif receipts:
            err.print(f"receipts: {len(wanted) - len(missing)} of {len(wanted)} present")
            for p in missing:
                err.print(f"[red]{escape(p.message)}[/]")
        else:
            for r, p in zip(wanted, checked):
                err.print("[green]" + escape(f"receipt {r}: present") + "[/]" if p is None else f"[red]{escape(p.message)}[/]")
        failed = bad + len(ledger) + len(missing)
        if failed:
            raise typer.Exit(1)
        err.print("[green]verified[/]")


def stale_snapshots(store: Any, game_ids: list[str] | None) -> list[str]:
    """The games (of ``game_ids``, or every game) whose newest snapshot was folded under other
    rules or another engine than today's: loads pass it over and fold the log instead, until
    `migrate --rebuild-snapshots` writes them again (or `do` writes a new one). Nothing is
    wrong with them, so the audit does not count them; a hint says so. One query: the
    snapshots' bodies are not read."""
    from arbiter.core.engine import snapshot_version

    where = " AND g.game_id = ?" if game_ids and len(game_ids) == 1 else ""
    _cols, rows = store.query(
        "SELECT g.game_id, g.kind, s.version FROM games g JOIN snapshots s ON s.game_id = g.game_id"
        " WHERE s.seq = (SELECT max(t.seq) FROM snapshots t WHERE t.game_id = g.game_id)" + where
        + " ORDER BY g.game_id", game_ids if where else None)
    today: dict[str, str | None] = {}
    out = []
    for gid, kind, version in rows:
        if kind not in today:
            try:
                today[kind] = snapshot_version(registry.get(kind))
            except ArbiterError:  # a kind this arbiter does not have: the audit says so
                today[kind] = None
        if today[kind] is not None and version != today[kind] and (game_ids is None or gid in game_ids):
            out.append(gid)
    return out


def unused_snapshots(games: list[str]) -> str:
    if len(games) == 1:
        return (f"the snapshots of {games[0]} were taken under other rules or another engine (a"
                " release changed them since): loads pass them over and fold the log instead, which"
                f" is slower; `arbiter migrate --rebuild-snapshots {games[0]}` writes them again")
    return (f"the snapshots of {len(games)} games were taken under other rules or another engine (a"
            " release changed them since): loads pass them over and fold the log instead, which is"
            " slower; `arbiter migrate --rebuild-snapshots` writes them again")


def verify_as(game_id: str, seat: str, fmt: str) -> None:
    from arbiter.core.seat_audit import verify_as_seat

    with engine().open(read_only=True) as store:
        gid = store.resolve_game_id(game_id)
        report, what = verify_as_seat(store, gid, seat)
    first = report.first
    emit_rows(["game_id", "seat", "events", "draws", "checked", "verdict"],
              [(gid, seat, report.events, report.rolls, what,
                "ok" if report.ok else f"FAIL at seq {first.seq}: {first.message}")], fmt)
    if not report.ok:
        raise typer.Exit(1)
    err.print(f"[green]verified as {escape(seat)}[/]")  # beside the data, as verify's own


@app.command()
def migrate(
    games: Optional[list[str]] = typer.Argument(None, help="With --rebuild-snapshots: only these games (default: every game)."),
    hash_map: Optional[str] = typer.Option(None, "--map", help="Write game_id,seq,old_hash,new_hash of every event to this CSV file."),
    rebuild: bool = typer.Option(False, "--rebuild-snapshots", help="Drop the snapshots of the games named (or of every game) and write them again from their logs."),
) -> None:
    """Bring a store written by an older arbiter up to this one's schema (its v1 chains are
    checked first; a store that fails them is left as it is).

    With --rebuild-snapshots, also drop each game's snapshots and fold them again from its
    log: the cure for one `verify` finds lying. Snapshots are a cache; no event, hash or
    answer changes."""
    with user_errors():
        if games and not rebuild:
            fail("game ids name the games whose snapshots --rebuild-snapshots writes again")
        if games:  # a game the store has not is bad input: refused before anything is written
            from arbiter.events.store import open_store

            with open_store(CTX.db, read_only=True, allow_old=True) as store:
                games = [store.resolve_game_id(g) for g in games]
    migrate_schema(hash_map, rebuild)
    if rebuild:
        with user_errors():
            rebuild_snapshots(games or [])


def rebuild_snapshots(games: list[str]) -> None:
    """``migrate --rebuild-snapshots``: each game's snapshots dropped and folded again."""
    from arbiter.core.snapshots import rebuild_snapshots as rebuild

    eng = engine()
    with eng.open() as store:
        ids = games or [g.game_id for g in store.games()]
        written = 0
        for gid in ids:
            try:
                written += rebuild(store, gid)
            except ArbiterError as exc:  # a kind this arbiter does not have, say: left as it is
                err.print(f"[yellow]warning: {escape(gid)}: snapshots left as they are: {escape(str(exc))}[/]")
    console.print(f"rebuilt the snapshots of {counted(len(ids), 'game')}:"
                  f" {written} written (a cache: no event or hash changed)")


def migrate_schema(hash_map: Optional[str], rebuilding: bool = False) -> None:
    """Bring a store written by an older arbiter up to this one's schema (its v1 chains are
    checked first; a store that fails them is left as it is). ``rebuilding``: snapshots are
    rebuilt next, so a store already current needs no word of its own."""
    with user_errors():
        from arbiter.events.store import SCHEMA_VERSION, open_store

        from arbiter.core.engine import Engine, all_views, status_of

        from arbiter.events.interface import is_url

        if not is_url(CTX.db) and not os.path.exists(CTX.db):
            fail(f"no store at {CTX.db}: nothing to migrate (--db names the store an older arbiter wrote)")
        if hash_map:  # the map is the only record of the old hashes: checked before the store changes
            where = hash_map if os.path.exists(hash_map) else os.path.dirname(os.path.abspath(hash_map))
            if os.path.isdir(hash_map) or not os.path.isdir(os.path.dirname(os.path.abspath(hash_map))) \
                    or not os.access(where, os.W_OK):
                fail(f"--map {hash_map}: cannot write that file (its directory must exist and be writable)")
        folder = Engine(CTX.db)

        def outcome(store: Any, gid: str) -> str | None:  # a finished game's, from its log
            try:
                return status_of(folder.load_from(store, gid))[2]
            except ArbiterError:
                return None  # a kind this arbiter does not have: verify will say so

        with open_store(CTX.db, allow_old=True) as store:
            before = store.schema_version
            games_, events_, mapping = store.migrate(outcome)
            store.install_views(all_views())  # no DDL when they are today's already
        if before == SCHEMA_VERSION:
            if not rebuilding:
                console.print(f"{escape(CTX.db)} is already at store schema v{SCHEMA_VERSION}; nothing to do")
            return
        added = (["the snapshots table"] if before < 3 else []) + [
            "each finished game's outcome in the listing", "an index of command ids"]
        if not events_:  # from v2 or v3: no event or hash changed
            console.print(f"migrated {escape(CTX.db)} from store schema v{before} to v{SCHEMA_VERSION}:"
                          f" added {', '.join(added[:-1])} and {added[-1]} (no event or hash changed)")
            return
        if hash_map:
            import csv

            with open(hash_map, "w", encoding="utf-8", newline="") as fh:
                w = csv.writer(fh)
                w.writerow(["game_id", "seq", "old_hash", "new_hash"])
                w.writerows(mapping)
        console.print(f"migrated {escape(CTX.db)} from store schema v{before} to v{SCHEMA_VERSION}:"
                      f" {events_} events of {games_} games rehashed. Receipts printed before today"
                      " name the old hashes" + (f"; {escape(hash_map)} maps them to the new." if hash_map else
                                                "; --map FILE lists old and new."))


@app.command()
def query(
    sql: Optional[str] = typer.Argument(None, help="SQL over the store: tables games, events, commands, dice, ..."),
    fmt: str = format_option(),
    schema: bool = typer.Option(False, "--schema", help="List the tables and views and their columns instead."),
    unsafe_files: bool = typer.Option(
        False, "--unsafe-files",
        help="Let the SQL read and write files and other databases (for the store's owner only)."),
) -> None:
    """SQL over the store: read-only, and nothing outside the store (see --unsafe-files)."""
    import duckdb

    with user_errors():
        if schema and sql:
            fail("query --schema takes no SQL: it lists the tables and views and their columns")
        if schema:
            # the same SQL on both stores: the standard information schema
            sql = ("SELECT c.table_name AS name, CASE t.table_type WHEN 'VIEW' THEN 'view' ELSE 'table' END"
                   " AS kind, c.column_name AS column_name, lower(c.data_type) AS type"
                   " FROM information_schema.columns c JOIN information_schema.tables t"
                   " ON t.table_schema = c.table_schema AND t.table_name = c.table_name"
                   " WHERE c.table_schema = current_schema()"
                   " ORDER BY kind, name, c.ordinal_position")
        if not sql or not sql.strip():
            fail("give a SQL statement, e.g. arbiter query \"select * from games\" (or --schema)")
        change = changes_the_store(sql)
        if change:
            fail(f"query reads the store and never changes it, so it does not run {change}: the log is"
                 " append-only (`arbiter undo` takes a move back; `arbiter import` and `copy` add games)")
        eng = engine()
        eng.refresh_views()  # views older than this arbiter's games (no DDL when current)
        with eng.open(read_only=True) as store:
            json_columns: list[bool] = []
            try:
                with common.ctrl_c_stops(store):
                    cols, rows = store.query(sql, sandbox=not unsafe_files, json_columns=json_columns)
            except duckdb.IOException as exc:  # only without the sandbox: a file the SQL named
                fail(f"SQL: {str(exc).splitlines()[0]}")
            except duckdb.Error as exc:
                fail(f"SQL: {str(exc).splitlines()[0]}")
        emit_rows(cols, rows, fmt, json_columns=json_columns)


#: The statements that would change the store, refused in words: the store's own answer
#: was DuckDB's "attached in read-only mode", "Can only delete from base table" of a view,
#: or PostgreSQL's "read-only transaction". A temporary table or view changes nothing.
CHANGES = ("insert", "update", "delete", "drop", "alter", "truncate", "merge", "create", "upsert")


def changes_the_store(sql: str) -> str | None:
    """The statement's verb (``DELETE``) if ``sql`` would change the store, else None."""
    import re

    words = re.sub(r"--[^\n]*|/\*.*?\*/", " ", sql, flags=re.S).lower().split()
    if not words or words[0].lstrip("(") not in CHANGES:
        return None
    if words[0] == "create" and any(w in ("temp", "temporary") for w in words[1:4]):
        return None
    return words[0].upper()


@app.command()
def rules(
    kind: str = typer.Argument(..., help="The kind of game, e.g. monster-derby."),
    words: list[str] = typer.Argument(None, help="Only rules mentioning all these words.", metavar="[WORDS]..."),
    fmt: str = format_option(),
) -> None:
    """The rule index (and the game's options), searchable."""
    with user_errors():
        g = registry.get(kind)
        found = g.rules.search(words or [])
        if words and not found:
            # an answer, not an error: exit 0 (1 is arbiter's "illegal move / failed
            # verification"), the empty result still on stdout for json/csv, and why on stderr
            if fmt != "table":
                emit_rows(["id", "source", "section", "rule"], [], fmt)
            say(err, common.clip(no_rule_matches(g, words)))
            return
        emit_rows(["id", "source", "section", "rule"], [(r.id, r.source, r.section, r.text) for r in found],
                  fmt, title=f"{g.title}: rules")
        if fmt != "table":
            return
        if not words and g.syntax:  # each section after a blank line, into a pipe too
            console.print("\n[bold]commands[/] (in `play`, `do`, `try` and transcripts)")
            for line in g.syntax:
                console.print(f"  {escape(line.strip(chr(10)))}")
        if not words and g.options:
            if not common.interactive():  # the table's title is drawn only at a terminal
                console.print("\noptions (--option name=value)")
            emit_rows(["option", "default", "choices", "house", "what it sets"],
                      [(o.name, o.default, ", ".join(map(str, o.choices)) if o.choices else "",
                        "house" if o.house else "rulebook", o.doc) for o in g.options],
                      "table", title="options (--option name=value)")


def no_rule_matches(g: Any, words: list[str]) -> str:
    """Why ``arbiter rules`` found nothing, with the index's words closest to each word that
    matches no rule on its own."""
    import difflib
    import re

    quoted = " ".join(words)
    lone = [w for w in words if not g.rules.search([w])]
    if not lone:
        return f"no rule of {g.title} mentions all of: {quoted} (each does alone; try fewer words)"
    vocab = sorted({w for r in g.rules.rules.values()
                    for w in re.findall(r"[a-z][a-z'-]{2,}", f"{r.id} {r.section} {r.text}".lower())})
    close = [c for w in lone for c in difflib.get_close_matches(w.lower(), vocab, n=3, cutoff=0.7)]
    hint = f"; close words: {', '.join(dict.fromkeys(close))}" if close else ""
    return (f"no rule of {g.title} mentions {', '.join(repr(w) for w in lone)}{hint}"
            f" (`arbiter rules {g.id}` lists them all)")


@app.command()
def games(
    kinds: bool = typer.Option(False, "--kinds", help="The games arbiter knows, not the stored ones."),
    fmt: str = format_option(),
) -> None:
    """The games in the store (or, with --kinds, the games arbiter can referee)."""
    with user_errors():
        if kinds:
            found = registry.available()
            if fmt == "table":  # for the eye; a script reads numbers and a list
                emit_rows(["kind", "title", "seats", "rules_version", "bots"],
                          [(g.id, g.title, f"{g.min_seats}–{g.max_seats}", g.rules_version,
                            ", ".join(botlib.bot_names(g))) for g in found], fmt)
            else:
                emit_rows(["kind", "title", "min_seats", "max_seats", "rules_version", "bots"],
                          [(g.id, g.title, g.min_seats, g.max_seats, g.rules_version,
                            list(botlib.bot_names(g))) for g in found], fmt)
            return
        from arbiter.events.interface import is_url

        if not is_url(CTX.db) and not os.path.exists(CTX.db):
            if fmt == "table":
                err.print(f"no games yet in {escape(CTX.db)}; start one with `arbiter new monster-derby`")
            emit_rows(["game_id", "kind", "seats", "status", "winner", "events", "created_at", "seed"], [], fmt)
            return
        typed: list[bool] = []  # the seats are a JSON list; every other column is as it is
        with engine().open(read_only=True) as store:
            cols, rows = store.query(
                # the SQL both stores speak (no GROUP BY ALL, no string slices); the seed's
                # kind is read from the commitment GameCreated records
                "SELECT g.game_id, g.kind, g.seats, g.status, g.winner,"
                " (SELECT max(e.seq) FROM events_log e WHERE e.game_id = g.game_id) AS events,"
                " substr(CAST(g.created_at AS VARCHAR), 1, 19) AS created_at,"
                " (SELECT CAST(e.payload->'commitment' AS VARCHAR) FROM events_log e"
                "  WHERE e.game_id = g.game_id AND e.seq = 1) AS commitment"
                " FROM games g ORDER BY g.created_at, g.game_id", json_columns=typed)
        emit_rows([*cols[:-1], "seed"], [(*r[:-1], seed_kind(r[-1])) for r in rows], fmt,
                  json_columns=[*typed[:-1], False] if typed else None)


def seed_kind(commitment: Any) -> str:
    """How a game's seed was chosen, from the commitment its GameCreated records: ``secret``
    (drawn by the referee, committed), ``practice`` (typed with --seed) or ``unsealed`` (no
    commitment: recorded before seeds were sealed, or a fork of a game still on)."""
    try:
        c = json.loads(commitment) if commitment else None
    except (TypeError, ValueError):
        return "?"
    if not isinstance(c, dict):
        return "unsealed"
    return "practice" if c.get("practice") else "secret"


# ----------------------------------------------------------------------------- moving games


@app.command()
def fork(
    game_id: str = typer.Argument(..., help="The game (a unique prefix is enough)."),
    at: int = typer.Option(..., "--at", help="Branch after this seq."),
) -> None:
    """Branch a what-if game from any point of another."""
    with user_errors():
        eng = engine()
        with eng.open(read_only=True) as store:  # checked here; the fork folds it once
            check_at(store, game_id, at, whole_commands=True)
        gid, match = eng.fork(game_id, at)
        console.print(escape(gid))
        err.print(f"[dim]forked from {escape(game_id)} at seq {at}; {escape(whose_turn(match))}[/]")


@app.command()
def export(
    game_id: Optional[str] = typer.Argument(None, help="The game (every game, with --format parquet)."),
    fmt: str = typer.Option("transcript", "--format", "-f", metavar="transcript|jsonl|parquet",
                            help="transcript, jsonl (every stored event) or parquet (tables, into a directory)."),
    out: Optional[str] = typer.Option(None, "-o", "--output", help="File to write (default, or -: stdout); for parquet, a directory."),
) -> None:
    """Write a game out, as a transcript or its full event log; or the whole history as
    Parquet tables (events, commands, games, dice; partitioned by game kind)."""
    with user_errors():
        common.check_format(fmt, ("transcript", "jsonl", "parquet"))
        eng = engine()
        if fmt == "parquet":
            from arbiter.core.porting import export_parquet

            if not out or out == "-":
                fail("--format parquet writes a directory of tables, not to standard output: give it with -o DIR"
                     if out == "-" else "--format parquet writes a directory of tables: give it with -o DIR")
            if os.path.exists(out) and not os.path.isdir(out):
                fail(f"{out} is a file: --format parquet writes a directory of tables (-o DIR)")
            with eng.open(read_only=True) as store:
                gid = store.resolve_game_id(game_id) if game_id else None
                written = export_parquet(store, out, gid)
            err.print(f"[dim]wrote {escape(out)}: " + ", ".join(
                f"{n} {t[:-1] if n == 1 and t.endswith('s') else t}" for t, n in written.items()) + "[/]")
            return
        if not game_id:
            fail(f"name the game to export as {fmt} (every game: --format parquet -o DIR)")
        if fmt == "transcript":
            text = transcript.export(eng.load(game_id))
        else:
            from arbiter.core.porting import export_jsonl

            with eng.open(read_only=True) as store:
                text = export_jsonl(store, store.resolve_game_id(game_id))
        if out and out != "-":  # `-o -`: standard output, as without -o
            with open(out, "w", encoding="utf-8") as fh:
                fh.write(text)
            err.print(f"[dim]wrote {escape(out)}[/]")
        else:
            sys.stdout.write(text)


def transcript_game_id(match: Match, text: str) -> str:
    """A transcript's game id: the game's short name and a digest of the file, so that
    importing the same file again finds the game it made instead of making another."""
    import hashlib

    # the same file saved with Windows line endings is the same transcript, and the same game
    digest = hashlib.sha256(text.replace("\r\n", "\n").encode()).hexdigest()[:10]
    return f"{match.game.short or match.game.id[:2]}-t{digest}"


@app.command("import")
def import_(
    path: str = typer.Argument(..., help="A transcript or a jsonl export (- for stdin)."),
    content: Optional[str] = typer.Option(None, help="Content file, for a transcript played with one."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", metavar="N", help="Worker processes re-deciding a jsonl file's games (default: one a core)."),
) -> None:
    """Bring a game into this store (a jsonl log keeps its id and hashes; a transcript is replayed).

    A jsonl export of any size is read in batches and written in one transaction, each game
    audited first (its commands re-decided by --jobs worker processes): a file with any bad
    event is refused whole, naming the first bad seq."""

    from arbiter.core.audit import default_jobs
    from arbiter.core.porting import FileLines, import_lines

    with user_errors("interrupted; nothing was imported (a file is written in one transaction)"):
        if jobs is not None and jobs < 1:
            fail(f"--jobs takes a number of worker processes, 1 or more, not {jobs}")
        # a transcript is read whole (it is replayed in memory); a log export line by line
        try:
            fh = sys.stdin.buffer if path == "-" else open(path, "rb")
            first = fh.readline()
            text = None
            if first.removeprefix(b"\xef\xbb\xbf").startswith(transcript.MAGIC.encode()):
                text = (first + fh.read()).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            fail(f"cannot read {path}: it is not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start})")
        except OSError as exc:
            fail(f"cannot read {path}: {exc.strerror or exc}")
        if not first.strip():
            fail(f"{'standard input' if path == '-' else path} is empty: nothing to import"
                 " (a transcript, or a jsonl file from `arbiter export GAME -f jsonl`)")
        eng = engine()
        if text is not None:
            data, _ = load_content(content)
            result = transcript.check(text, data)
            if not result.ok:
                err.print(f"[bold red]line {result.line}[/] {escape(common.clip(result.text))}\n  {escape(common.clip(str(result.error)))}")
                raise typer.Exit(1 if isinstance(result.error, RuleViolation) else 2)
            # Decided whole in memory, written in one transaction, under an id drawn from
            # the transcript itself: a killed import leaves nothing, a retry finds its game.
            match = result.match
            gid = transcript_game_id(match, text)
            with eng.open() as store:
                if store.query("SELECT count(*) FROM games WHERE game_id = ?", [gid])[1][0][0]:
                    err.print(f"[dim]already imported as {escape(gid)}[/]")
                else:
                    eng.store_match(store, match, game_id=gid)
            console.print(escape(gid))
        else:
            from arbiter.core.pools import worker_pool

            skipped: list[str] = []
            jobs = jobs or default_jobs()
            # the workers start up while this process opens the store
            with worker_pool(jobs) if jobs > 1 else nullcontext() as pool, eng.open() as store:
                try:
                    ids = import_lines(store, FileLines(first, fh), jobs=jobs, skipped=skipped, pool=pool)
                except OSError as exc:
                    fail(f"cannot read {path}: {exc.strerror or exc}")
                finally:
                    fh.close()
            for gid in skipped:
                err.print(f"[dim]already in this store, with the same log: {escape(gid)}[/]")
            for gid in [*ids, *skipped]:  # a script reads the file's ids however often it runs
                console.print(escape(gid))


@app.command("copy")
def copy_(
    src: str = typer.Option(..., "--from", help="The store to copy from (a DuckDB file or a postgresql:// URL)."),
    dst: str = typer.Option(..., "--to", help="The store to copy into (created if it is a new file)."),
    game_ids: list[str] = typer.Argument(None, help="Games to copy (default: every game)."),
) -> None:
    """Copy whole games between stores, keeping ids, hashes and receipts."""
    from rich.progress import Progress

    from arbiter.core.copying import copy_games, plan
    from arbiter.core.engine import all_views
    from arbiter.events.interface import is_url
    from arbiter.events.store import open_store

    with user_errors():
        for flag, path in (("--from", src), ("--to", dst)):
            if common.store_problem(path):
                fail(f"{flag}: {common.store_problem(path)}")
        if os.path.abspath(src) == os.path.abspath(dst) or src == dst:
            fail("--from and --to name the same store")
        if not src.startswith(("postgresql://", "postgres://")) and not os.path.exists(src):
            fail(f"--from {src}: no store there (this machine's default store is {common.default_db()})")
        timeout = engine().lock_timeout
        made = not is_url(dst) and not os.path.exists(dst)  # a new file: removed if nothing lands in it
        todo: list[tuple[str, int]] | None = None
        try:
            with open_store(src, read_only=True, timeout=timeout) as source:
                for gid in game_ids or []:  # one the source has not is refused before --to is made
                    source.resolve_game_id(gid)
                with open_store(dst, timeout=timeout) as target:
                    target.install_views(all_views())
                    todo, _same = plan(source, target, game_ids or None)
                    with Progress(console=err.get(), transient=True, disable=not todo) as progress:
                        task = progress.add_task("copying", total=len(todo))
                        report = copy_games(source, target, game_ids or None,
                                            progress=lambda n: progress.advance(task, n))
        except Exception as exc:
            if not common.stopped_by_ctrl_c(exc):
                raise
            copy_interrupted(dst, made, todo)
        except KeyboardInterrupt:
            copy_interrupted(dst, made, todo)
        console.print(f"copied {counted(len(report.copied), 'game')} ({report.events:,} events) from {escape(src)}"
                      f" to {escape(dst)}"
                      + (f"; {len(report.skipped)} already there, unchanged" if report.skipped else ""))


def copy_interrupted(dst: str, made: bool, todo: list[tuple[str, int]] | None) -> None:
    """What a copy stopped by Ctrl-C leaves: each batch commits whole, so the games of the
    batches done are in ``dst`` and the rest are not (read back from ``dst``, as a batch may
    have committed just as Ctrl-C came). A file the copy made and left without a game is
    removed."""
    from arbiter.events.store import open_store

    landed = 0
    if todo:
        try:
            with open_store(dst, read_only=True, timeout=engine().lock_timeout) as target:
                there = {row[0] for row in target.query("SELECT game_id FROM games")[1]}
            landed = sum(gid in there for gid, _n in todo)
        except ArbiterError:
            landed = -1  # cannot be told: said so
    rest = len(todo or ()) - landed
    if landed > 0 and not rest:  # the last batch committed as Ctrl-C came
        said = (f"interrupted; {'the one game was' if landed == 1 else f'all {landed} games were'} copied"
                f" to {dst}, each whole")
    elif landed > 0:
        said = (f"interrupted; {landed} of {counted(len(todo or ()), 'game')} {'was' if landed == 1 else 'were'}"
                f" copied to {dst}, each whole, and {rest} {'was' if rest == 1 else 'were'} not: run the same"
                f" copy again for {'it' if rest == 1 else 'them'}"
                " (the games already there are skipped)")
    elif landed < 0:
        said = (f"interrupted; {dst} could not be read back to tell which games were copied (each"
                " batch commits whole): run the same copy again to finish it")
    elif made and os.path.exists(dst):
        for path in (dst, dst + ".wal"):
            with suppress(OSError):
                os.remove(path)
        said = f"interrupted; nothing was copied, and {dst}, which this copy had made, is removed"
    elif made:
        said = f"interrupted; nothing was copied, and {dst} was not made"
    else:
        said = f"interrupted; nothing was copied: no game was added to {dst}"
    err.print(escape(said))
    raise typer.Exit(130)


# ----------------------------------------------------------------------------- playing


_session: Any = None


def ask(prompt: str, choices: list[str]) -> str:
    """A line from the player: with editing, history and tab-completion of the legal
    commands at a terminal; plain input() when stdin is a pipe (scripts, tests)."""
    global _session
    if not sys.stdin.isatty():
        return input(prompt)
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import WordCompleter

    if _session is None:
        _session = PromptSession()
    words = sorted({*choices, "help", "board", "undo", "log", "quit"})
    # no lines kept free below the prompt for the completion menu: on an 80x24 terminal they
    # would scroll the top of the compact board off the screen
    return _session.prompt(prompt, completer=WordCompleter(words, sentence=True), reserve_space_for_menu=0)


@app.command()
def play(
    game: str = typer.Argument(..., help="A kind of game to create and play (monster-derby), or an existing game's id to continue."),
    bot: list[str] = typer.Option([], "--bot", help="SEAT=KIND plays that seat by bot (KIND: random, or the game's own); kept with the game."),
    players: list[str] = typer.Option([], "--players", "-p", help="A new game's player names, comma separated."),
    seed: Optional[int] = typer.Option(None, help="A new game's seed (a practice game; secret if omitted)."),
    option: list[str] = typer.Option([], "--option", "-o", help="A new game's rules option, name=value (repeatable)."),
    dice: str = typer.Option("seeded", help="A new game's dice: seeded, or manual to type the faces of physical dice."),
    bot_seed: Optional[int] = typer.Option(None, help="Seed of the bots' own choices (default 0; a resumed game keeps its own)."),
    max_menu: Optional[int] = typer.Option(None, help="How many legal commands to number (default 30; a resumed game keeps its own)."),
    pass_screen: Optional[bool] = typer.Option(
        None, "--pass-screen/--no-pass-screen",
        help="Clear the screen between people when a seat holds secrets (default: at a terminal)."),
    server: Optional[str] = typer.Option(None, "--server", help="Play a game served by `arbiter serve` at this URL."),
    token: Optional[str] = typer.Option(None, "--token", envvar="ARBITER_TOKEN", help="Your seat's token (with --server)."),
) -> None:
    """Interactive play: the board, whose turn, numbered legal commands, or type your own."""
    with user_errors():
        if max_menu is not None and max_menu < 0:
            fail(f"--max-menu takes how many legal commands to number, 0 or more, not {max_menu}")
        if server or token:
            if not (server and token):
                fail("--server and --token go together: the served game's URL and your seat's token")
            if not server.startswith(("http://", "https://")):
                fail(f"--server takes the service's http:// or https:// URL (as `arbiter serve` prints it), not {server!r}")
            from arbiter.service.server import CLIENT_NEEDS, missing

            why = missing(CLIENT_NEEDS, "play --server")
            if why:
                fail(why)
            from arbiter.cli.remote import play_remote

            return play_remote(server, token, game, 30 if max_menu is None else max_menu)
        from arbiter.cli.play import play_local

        known = list(registry.known())
        if game not in known and "-" in game and not any(c.isdigit() for c in game):
            import difflib

            near = difflib.get_close_matches(game, known, n=1, cutoff=0.6)
            if near:
                fail(f"unknown game {game!r}: did you mean {near[0]!r}? (arbiter knows: {', '.join(sorted(known))})")
        from arbiter.events.errors import UnknownGame

        try:
            play_local(engine(), game, known=known, bot=bot, players=parse_players(players), seed=seed,
                       options=parse_options(option), dice=dice, bot_seed=bot_seed, max_menu=max_menu,
                       ask=ask, pass_screen=pass_screen)
        except UnknownGame as exc:  # neither a stored game nor a kind: perhaps a kind mistyped
            if not str(exc).startswith("no game "):
                raise
            import difflib

            near = difflib.get_close_matches(game.lower(), known, n=1, cutoff=0.6)
            raise UnknownGame(f"{exc}; nor is it a kind of game"
                              + (f" (did you mean {near[0]!r}?)" if near else f" ({', '.join(sorted(known))})")) from None


@app.command()
def simulate(
    kind: str = typer.Argument(..., help="The kind of game, e.g. monster-derby."),
    games_: int = typer.Option(10, "--games", "-n", help="How many games."),
    bot: Optional[str] = typer.Option(None, metavar="KIND", help="The bot every seat uses (default: the game's own bot; `random` for random legal commands)."),
    seed: int = typer.Option(0, help="First game seed (each game adds one); bots are seeded from it too."),
    seats: Optional[int] = typer.Option(None, "--seats", help="Seats per game (default: the game's minimum)."),
    option: list[str] = typer.Option([], "--option", "-o", help="A rules option, name=value (repeatable)."),
    max_steps: int = typer.Option(5000, help="Give up on a game after this many commands."),
    players_: Optional[int] = typer.Option(None, "--players", hidden=True),
    fmt: str = format_option(),
) -> None:
    """Bot-vs-bot games, stored, with a progress bar and a summary.

    With --format json, jsonl or csv, stdout holds a row a game stored (its id, seed,
    commands, winners and whether it finished) and the summary goes to stderr."""
    from rich.progress import Progress

    with user_errors():
        if players_ is not None:  # the old name, kept so that existing scripts still run
            err.print("note: simulate --players is now --seats")
            seats = seats or players_
        if games_ < 1:
            fail("--games takes a number of games, at least 1")
        if max_steps < 1:
            fail(f"--max-steps takes how many commands a game may last, at least 1, not {max_steps}")
        g = registry.get(kind)
        bot = bot or next(iter(g.bots), "random")
        chosen = botlib.get_bot(g, bot)
        if seats is not None and not g.min_seats <= seats <= g.max_seats:  # 0 is no "unset"
            fail(f"--seats takes {g.min_seats} to {g.max_seats} players for {g.title}, not {seats}")
        n = g.min_seats if seats is None else seats
        opts = parse_options(option)
        eng = engine()
        wins: dict[str, int] = {}
        lengths: list[int] = []
        unfinished = 0
        t0 = time.perf_counter()
        gid = ""
        interrupted = False
        stored: list[tuple[str, int, int, list[str], bool]] = []  # a row a game, for a script
        with Progress(console=err.get(), transient=False, disable=not err.get().is_terminal) as progress, \
                eng.open() as store:
            task = progress.add_task(f"{g.title}", total=games_)
            try:
                for i in range(games_):
                    seats = [f"bot{j + 1}" for j in range(n)]
                    match = matches.Match.new(g, seed=seed + i, seats=seats, options=opts)
                    steps = botlib.autoplay(match, {s: chosen for s in seats}, random.Random(seed + i), max_steps)
                    gid = eng.store_match(store, match)
                    lengths.append(steps)
                    out = match.outcome()
                    if out is None:
                        unfinished += 1
                    else:
                        for w in out.winners:
                            wins[w] = wins.get(w, 0) + 1
                    stored.append((gid, seed + i, steps, list(out.winners) if out else [], out is not None))
                    progress.advance(task)
            except KeyboardInterrupt:  # the games played are stored, each whole: sum them up
                interrupted = True
            except Exception as exc:
                if not common.stopped_by_ctrl_c(exc):
                    raise
                interrupted = True
        if not lengths:
            raise KeyboardInterrupt
        secs = time.perf_counter() - t0
        played = len(lengths)
        if fmt == "table":
            emit_rows(["winner", "games won"], [(s, wins.get(s, 0)) for s in sorted(wins)], "table")
        else:  # the data a script reads on stdout; the summary is said beside it
            emit_rows(["game_id", "seed", "commands", "winners", "finished"], stored, fmt)
        (console if fmt == "table" else err).print(f"{played}{f' of {games_}' if interrupted else ''} game{'' if played == 1 else 's'} of {g.title}, {escape(bot)} bots;"
                      f" commands per game: min {min(lengths)}, mean {sum(lengths) / len(lengths):.0f},"
                      f" max {max(lengths)} (step cap {max_steps}); unfinished {unfinished}; {played / secs:.1f} games/s; last {gid}")
        if interrupted:
            err.print(f"interrupted; the {played} game{'' if played == 1 else 's'} played so far are stored, each whole")
            raise typer.Exit(130)


@app.command()
def demo(
    kind: str = typer.Option("monster-derby", "--game", help="Which kind of game to show."),
    seed: int = typer.Option(2026, help="The demo game's seed."),
) -> None:
    """A quick tour on the default store: a bot game, a step back, an audit and a query."""
    with user_errors():
        from arbiter.cli.demo import run_demo

        if not 0 <= seed < 2**63:  # refused before the tour's heading, not after it
            fail("the seed must be a whole number from 0 to 2^63-1")
        registry.get(kind)
        run_demo(engine(), kind, seed)


@app.command()
def bench(
    events: int = typer.Option(10000, help="Events in the long game used for replay and stepping back."),
    commands: int = typer.Option(300, help="Stored commands timed for latency."),
    kind: Optional[str] = typer.Option(None, "--game", help="Which kind of game to measure (default monster-derby)."),
    postgres: Optional[str] = typer.Option(
        None, "--postgres", help="A PostgreSQL database (URL) for the many-writers row; bench writes games there."),
    store_events: int = typer.Option(250_000, "--store-events", help="Events in the large store that verify --all and import are measured on (the small one has a fifth)."),
    quick: bool = typer.Option(False, "--quick", help="Tiny sizes: check that every row runs, in under a minute (not a measurement)."),
) -> None:
    """Measure speed as ratios against a baseline measured in the same run."""
    with user_errors():
        from arbiter.cli.bench import run_bench
        from arbiter.events.interface import is_url

        if postgres is not None and not is_url(postgres):
            fail(f"--postgres takes a postgresql:// URL, not {postgres!r}")
        if events < 100 or commands < 1 or store_events < 1_000:
            fail("bench needs --events of 100 or more, --commands of 1 or more and --store-events of 1000 or more")
        run_bench(events=events, commands=commands, game_id=kind, postgres=postgres,
                  store_events=store_events, quick=quick)


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on (loopback unless an admin token is set)."),
    port: int = typer.Option(8080, help="Port to listen on."),
    admin_token: Optional[str] = typer.Option(
        None, "--admin-token", envvar="ARBITER_ADMIN_TOKEN",
        help="Token that creating and listing games need (required to listen beyond loopback)."),
) -> None:
    """The game service: HTTP API, live stream and a web table per seat."""
    with user_errors():
        from arbiter.service.server import is_loopback, missing, serve as run_server

        why = missing()
        if why:
            fail(why)
        if not is_loopback(host) and not admin_token:
            fail(f"serve listens on {host} only with an admin token (--admin-token or"
                 " ARBITER_ADMIN_TOKEN): without one, anyone who reaches it can create games")
        if not 0 < port < 65536:
            fail(f"--port takes 1 to 65535, not {port}")
        port_free(host, port)
        run_server(CTX.db, host=host, port=port, admin_token=admin_token)


def port_free(host: str, port: int) -> None:
    """Refuse, in words, an address the server could not listen on (another program's port,
    a host this machine does not have), before it says it is serving there."""
    import errno
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        fail(f"--host {host}: not an address of this machine ({exc.strerror or exc})")
    family, kind, proto, _name, addr = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds
        try:
            probe.bind(addr)
        except OSError as exc:
            fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}"
                 + (" (another program uses that port: choose another with --port)" if exc.errno == errno.EADDRINUSE else ""))


#: How a value is named in help, by parameter (default: the parameter's name in capitals).
METAVARS = {"seat": "SEAT", "at": "SEQ", "players": "NAMES", "option": "NAME=VALUE", "bot": "SEAT=KIND", "entropy": "SEAT=TEXT",
            "content": "FILE", "path": "FILE", "out": "FILE", "games_": "N", "seats": "N", "command": "COMMAND...", "bot_seed": "N", "max_menu": "N",
            "max_steps": "N", "db": "PATH|URL", "receipts": "FILE", "hash_map": "FILE", "server": "URL", "token": "TOKEN", "admin_token": "TOKEN", "dice": "seeded|manual", "events": "N", "commands": "N", "store_events": "N", "game_ids": "GAME_ID", "postgres": "URL"}


def _name_values_in_help() -> None:
    """Name every option's value plainly in help (``--seed SEED``, ``--bot SEAT=KIND``), not by
    its Python type (``<int>``, ``<list[str]>``)."""
    import inspect

    callbacks = [c.callback for c in app.registered_commands] + [app.registered_callback.callback]
    for callback in callbacks:
        for name, param in inspect.signature(callback).parameters.items():
            info = param.default
            if getattr(info, "metavar", "") is None and not isinstance(getattr(info, "default", None), bool):
                info.metavar = METAVARS.get(name, name.upper())


    # An argument's name says what it is, and a flag takes no value; typer 0.29's help adds
    # a Python type to both (``GAME_ID <str>``, ``--all <bool>``).
    from typer import core

    if hasattr(core, "TyperArgument") and hasattr(core.TyperArgument, "display_type_rich"):
        core.TyperArgument.display_type_rich = lambda self, ctx: None  # type: ignore[method-assign]
        typed = core.TyperOption.display_type_rich

        def untyped_flags(self: Any, ctx: Any) -> Any:
            return None if self.is_flag or self.count else typed(self, ctx)

        core.TyperOption.display_type_rich = untyped_flags  # type: ignore[method-assign]


_name_values_in_help()


def _plain_coercion() -> None:
    """Coerce str, int, bool and list-of-str values without pydantic. typer 0.29 builds a
    pydantic TypeAdapter for every parameter of the verb it runs, and importing pydantic
    costs a verb more than the rest of typer. Only a value whose type is plain (a str, a
    bool, a whole number in digits, a list of str) is taken here; any other goes to typer's own
    coercion, so a wrong value is refused in typer's words."""
    from dataclasses import dataclass
    from typing import get_args, get_origin

    from typer import _coercion, core

    param_class = getattr(core, "_TyperParameter", None)
    if param_class is None or not hasattr(param_class, "get_runtime_param") or not hasattr(_coercion, "RuntimeParam"):
        return  # another typer: its own coercion throughout
    typers = param_class.get_runtime_param

    @dataclass(frozen=True)
    class Plain(_coercion.RuntimeParam):  # type: ignore[misc, valid-type]
        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            kind = self.annotation
            if (kind is str and isinstance(value, str)) or (kind is bool and isinstance(value, bool)):
                return value
            if kind is int and isinstance(value, str) and value.lstrip("-").isdigit() and value.isascii() \
                    and len(value) < 19 and (value.lstrip("-")[:1] != "0" or value.lstrip("-") == "0"):
                return int(value)
            if get_origin(kind) is list and get_args(kind) == (str,) and isinstance(value, (list, tuple)) \
                    and all(isinstance(v, str) for v in value):
                return list(value)
            param._runtime_param = None  # anything else: typer's own, with its own words
            try:
                return typers(param)._coerce_value(value, param, ctx)
            except typer.BadParameter as exc:
                if kind is int and isinstance(value, str):  # not pydantic's "unable to parse string as an integer"
                    raise typer.BadParameter(f"takes a whole number, not {common.visible(repr(value))}",
                                             ctx=ctx, param=param) from None
                raise

    def plain_first(self: Any) -> Any:
        kind = self.type_descriptor.annotation
        if self._runtime_param is None and (kind in (str, int, bool) or kind == list[str]) \
                and not self.type_descriptor.is_file:
            self._runtime_param = Plain(parameter_info=self.type_descriptor.parameter_info, annotation=kind)
        return typers(self)

    param_class.get_runtime_param = plain_first  # type: ignore[method-assign]


_plain_coercion()


def _visible_usage_errors() -> None:
    """typer's own refusals (``No such command 'X'``, ``Got unexpected extra argument
    (X)``) echo what was typed, printed by a console of typer's own: the words typed are
    shown with their control characters escaped, as every other message is, so that an
    argument cannot retitle or clear the terminal that runs it. typer 0.29 raises them from
    a click of its own (``typer._click``); both are seen to."""
    import importlib

    # typer before 0.29 depends on click; from 0.29 it has its own, and click is there only
    # when something else brought it (a plain `pip install .` has none)
    clicks = []
    for name in ("click.exceptions", "typer._click.exceptions"):
        try:
            clicks.append(importlib.import_module(name))
        except ImportError:
            pass

    def visible(said: Any) -> Any:
        return lambda self: common.visible(said(self))

    def subclasses(klass: type) -> list[type]:
        return [klass] + [c for sub in klass.__subclasses__() for c in subclasses(sub)]

    def negative(said: Any) -> Any:  # `why GAME -3` said only "No such option: -3"
        def message(self: Any) -> str:
            if self.option_name[1:].isdigit():
                return f"{self.option_name} is a negative number, and no seq or count is below 1 (seqs start at 1)"
            if any(c.isspace() for c in self.option_name):  # no option's name holds a space
                first = self.option_name.splitlines()[0]
                shown = first if len(first) <= 40 and first == self.option_name else first[:40] + "…"
                return (f"'{shown}' begins with '-' and reads as an option;"
                        " put -- before an argument that begins with '-', as SQL that opens with a"
                        " comment does: arbiter query -- '-- ...'")
            return said(self)
        return message

    for module in clicks:
        for klass in subclasses(module.ClickException):  # each that says it its own way
            if "format_message" in vars(klass):
                klass.format_message = visible(vars(klass)["format_message"])  # type: ignore[attr-defined]
        module.NoSuchOption.format_message = negative(module.NoSuchOption.format_message)  # type: ignore[method-assign]


_visible_usage_errors()


def only_the_verb(args: list[str]) -> None:
    """Register only the verb ``args`` name, when they name one: typer builds every
    registered command's parameters at start-up, and a verb needs only its own. Help,
    --version, completion, a mistyped verb (its suggestion) and no verb keep them all."""
    if any(k.startswith("_") and k.endswith("_COMPLETE") for k in os.environ):
        return
    i = 0
    while i < len(args):
        if args[i] == "--db":  # the global options that may come before the verb
            i += 2
        elif args[i].startswith("--db=") or args[i] in ("-v", "--verbose"):
            i += 1
        elif args[i].startswith("-"):
            return
        else:
            break
    if i >= len(args):
        return
    chosen = [c for c in app.registered_commands
              if (c.name or c.callback.__name__.lower().replace("_", "-")) == args[i]]
    if len(chosen) == 1:
        app.registered_commands[:] = chosen


#: The store's tables and views that README names, which a reader may type as a verb.
SQL_VIEWS = ("results", "events", "commands", "dice", "refusals")

#: The options whose value is a path: kept as the bytes the shell gave, whatever they are.
PATH_OPTIONS = ("--db", "-o", "--out", "--content", "--receipts", "--map", "--from", "--to")


def sql_typed_as_verb(args: list[str]) -> str | None:
    """The statement of `arbiter sql ...` (as sqlite3 and psql users say it), or of the
    statement itself where the verb goes (`arbiter "select * from games"`); None when the
    verb is not SQL's."""
    words = " ".join(args).split()
    if not words or words[0].lower() not in ("sql", "select", "with"):
        return None
    statement = " ".join(words[1:] if words[0].lower() == "sql" else words)
    return statement if len(statement) < 200 else "select * from games"


def text_args(args: list[str]) -> list[str]:
    """``args`` with bytes that are not UTF-8 (Python keeps them as lone surrogates, which
    no store can hold) shown as U+FFFD, so a command, name or id typed in another encoding
    is refused in words; a path (an option's value above, or one that exists) is left as it is."""
    out = []
    for i, arg in enumerate(args):
        path = os.path.lexists(arg) or (i > 0 and args[i - 1] in PATH_OPTIONS) or arg.startswith(
            tuple(f"{o}=" for o in PATH_OPTIONS))
        if not path and not arg.isascii():
            arg = arg.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        out.append(arg)
    return out


def closed_streams() -> None:
    """A standard stream the shell closed (`<&-`, `2>&-`, `>&-`) is None in Python, and its
    descriptor is free for the next file opened: the store's, which output would then be
    written into. stdin and stderr become /dev/null (stdin reads as empty; what arbiter says
    goes nowhere, and the exit code still tells it); a closed stdout is refused before
    anything is done, as what a verb prints (a new game's id, a receipt) would be lost."""
    for fd, name, flags, mode in ((0, "stdin", os.O_RDONLY, "r"), (2, "stderr", os.O_WRONLY, "w")):
        if getattr(sys, name) is None:
            null = os.open(os.devnull, flags)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
            setattr(sys, name, open(fd, mode, closefd=False))
    if sys.stdout is None:
        sys.stderr.write("error: standard output is closed (>&-): send it to a file, or to /dev/null\n")
        sys.exit(2)


def main() -> None:
    closed_streams()
    sys.argv[1:] = text_args(sys.argv[1:])
    if sys.argv[1:2] == ["help"]:  # `arbiter help [VERB]`, as git and pip take it
        sys.argv[1:] = [*sys.argv[2:3], "--help"]
    if sys.argv[1:2] and sys.argv[1] in SQL_VIEWS:  # README's tables, taken for verbs
        common.say(err, f"{sys.argv[1]} is a table of the store, not a verb:"
                   f" arbiter query \"select * from {sys.argv[1]}\"", label="error: ")
        sys.exit(2)
    statement = sql_typed_as_verb(sys.argv[1:])
    if statement is not None:
        common.say(err, f"SQL goes to the verb query: arbiter query \"{statement or 'select * from games'}\""
                   " (arbiter query --schema lists the tables)", label="error: ")
        sys.exit(2)
    if not sys.stdin.isatty() and hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")  # a line in another encoding is refused, not stored
    only_the_verb(sys.argv[1:])
    try:
        app()
    except ArbiterError as exc:  # anything that escaped a command's own handler
        err.print(f"error: {escape(exc)}")
        sys.exit(common.exit_code(exc))
    except BrokenPipeError:  # printed outside a verb's own handler
        try:
            common.quiet_pipe()
        except typer.Exit:
            sys.exit(0)
