"""Shared plumbing for the command line: the store path, logging, output and errors.

Start-up is kept light: nothing here imports the store (duckdb) or structlog until a verb
needs them, so `arbiter --help` and `arbiter rules` pay only for typer and rich.
"""

from __future__ import annotations

import csv
import io
import json
import logging
import math
import os
import re
import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Iterator, Sequence

import typer

from arbiter.core import errors as E
from arbiter.core.errors import ArbiterError
from arbiter.core.printable import ACTING, ACTS  # noqa: F401 - ACTS: what a name may not hold
from arbiter.events import errors as S

if TYPE_CHECKING:
    from rich.console import Console

#: Every verb that prints data takes ``--format`` with these (the ones that fit).
FORMATS = ("table", "json", "csv", "jsonl")


def _console(stderr: bool = False) -> "Console":
    """A console that is plain and never wraps when its stream is not a terminal (pipes,
    files, scripts), and that honours NO_COLOR (rich reads it)."""
    from rich.console import Console

    class QuietConsole(Console):
        def on_broken_pipe(self) -> None:
            quiet_pipe()

        def render_str(self, text: str, **kwargs: Any) -> Any:
            # The one door every string printed by rich passes (a line, a rule's title, a
            # table's cell): a control character in stored text (a name, a card, a command
            # an error echoes) is shown as its escape, never sent to the terminal to act.
            return super().render_str(visible(text), **kwargs)

    stream = sys.stderr if stderr else sys.stdout
    if stream.isatty():
        return QuietConsole(stderr=stderr, highlight=False)
    return QuietConsole(stderr=stderr, highlight=False, soft_wrap=True, no_color=True, emoji=False)


class LazyConsole:
    """A rich console made on first use (rich is a heavy import that `--help` can skip)."""

    def __init__(self, stderr: bool = False) -> None:
        self._stderr = stderr
        self._console: "Console | None" = None

    def get(self) -> "Console":
        if self._console is None:
            self._console = _console(self._stderr)
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.get(), name)


console = LazyConsole()
err = LazyConsole(stderr=True)


def interactive() -> bool:
    return sys.stdout.isatty()


class Ctx:
    db: str = ""
    verbose: bool = False
    logging_ready: bool = False


CTX = Ctx()


def data_dir() -> str:
    home = os.environ.get("ARBITER_HOME")
    if home:
        return home
    import platformdirs

    return platformdirs.user_data_dir("arbiter", appauthor=False)


def default_db() -> str:
    return os.environ.get("ARBITER_DB") or os.path.join(data_dir(), "arbiter.duckdb")


def store_problem(path: str, named: bool = True) -> str | None:
    """Why ``path`` (a ``--db``, ``--from`` or ``--to``) cannot name a store, or None: a URL
    of another database, a directory, a file where a directory of its path should be, or
    (``named``: a path the user gave, not the default store) a directory that does not
    exist. Said before anything is opened or created, in words rather than the database's."""
    if not path.strip():  # an unset shell variable (`--db "$STORE"`): not the default store
        return "the store is named by an empty string: give a DuckDB file's path or a postgresql:// URL"
    if path.startswith(("postgresql://", "postgres://")):
        return None
    if "://" in path:
        return f"{path!r} is not a store arbiter can use: give a DuckDB file's path or a postgresql:// URL"
    if os.path.isdir(path):
        return f"{path} is a directory: name the store's file in it (say, {os.path.join(path, 'arbiter.duckdb')})"
    if os.path.exists(path) and not os.path.isfile(path):  # DuckDB would wait on a pipe for ever
        return f"{path} is not a file (a device or a pipe): a store is a DuckDB file"
    if os.path.isfile(path) and os.path.getsize(path) == 0:  # touched, or made by mktemp
        return f"{path} is an empty file, not a store: remove it (or name a new file) to make a store there"
    if not is_duckdb_file(path):
        # DuckDB opens a CSV or JSON file as a database of its own and then speaks of an
        # in-memory database, or of a DuckDB file with other tables
        return f"{path} is not a store: it is not a DuckDB file (name the store's file, or a new one to make a store)"
    parent = os.path.dirname(os.path.abspath(path))
    while parent and not os.path.exists(parent):
        parent = os.path.dirname(parent) if os.path.dirname(parent) != parent else ""
    if parent and not os.path.isdir(parent):
        return f"cannot make a store at {path}: {parent} is a file, not a directory"
    folder = os.path.dirname(os.path.abspath(path))
    if named and not os.path.isdir(folder):
        # a mistyped directory would otherwise become a new, empty store, and the games
        # the user meant seem to be gone: only the default store's directory is made
        return (f"no directory {folder} for the store {path}: make it first (mkdir -p {folder})"
                " or name a store in a directory that exists")
    return None


def is_duckdb_file(path: str) -> bool:
    """Whether ``path`` is a DuckDB database, by the magic bytes of its header; a path that
    is not a file there (a new store) or cannot be read (the store says why when it opens
    it) passes."""
    if not os.path.isfile(path):  # a new store; a device or pipe is not read (it may wait for ever)
        return True
    try:
        with open(path, "rb") as fh:
            return fh.read(12)[8:12] == b"DUCK"
    except (FileNotFoundError, PermissionError, IsADirectoryError, NotADirectoryError):
        return True


def seconds(text: str) -> bool:
    """Whether ``text`` is a number of seconds (0 or more, finite)."""
    import math

    try:
        value = float(text)
    except ValueError:
        return False
    return math.isfinite(value) and value >= 0


def setup_logging(verbose: bool) -> None:
    """JSON lines to ``arbiter.log`` in the data directory; readable lines on stderr with -v.
    Called on the first log line, not at start-up (structlog is a heavy import)."""
    import structlog

    handlers: list[logging.Handler] = []
    try:
        os.makedirs(data_dir(), exist_ok=True)
        fh = logging.FileHandler(os.path.join(data_dir(), "arbiter.log"))
        fh.setFormatter(structlog.stdlib.ProcessorFormatter(
            processor=structlog.processors.JSONRenderer(),
            foreign_pre_chain=[structlog.processors.TimeStamper(fmt="iso")]))
        handlers.append(fh)
    except OSError:
        pass  # a read-only home must not stop play
    if verbose:
        sh = logging.StreamHandler(sys.stderr)
        sh.setFormatter(structlog.stdlib.ProcessorFormatter(
            processor=structlog.dev.ConsoleRenderer(colors=False),
            foreign_pre_chain=[structlog.processors.TimeStamper(fmt="%H:%M:%S")]))
        handlers.append(sh)
    root = logging.getLogger("arbiter")
    root.handlers = handlers
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
    root.propagate = False
    structlog.configure(
        processors=[structlog.stdlib.add_log_level, structlog.processors.TimeStamper(fmt="iso"),
                    structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=False,
    )
    CTX.logging_ready = True


class FileLog:
    """The JSON lines structlog's set-up writes to ``arbiter.log`` (each call's fields, then
    event, level and a UTC timestamp), written without importing structlog: a verb that
    logs one line should not pay for a logging framework. ``-v`` uses structlog itself."""

    def _write(self, level: str, event: str, fields: dict[str, Any]) -> None:
        from datetime import datetime, timezone

        stamp = datetime.now(timezone.utc).isoformat().replace("+00:00", "Z")
        line = json.dumps({**fields, "event": event, "level": level, "timestamp": stamp}, default=repr)
        try:
            os.makedirs(data_dir(), exist_ok=True)
            with open(os.path.join(data_dir(), "arbiter.log"), "a", encoding="utf-8") as fh:
                fh.write(line + "\n")
        except OSError:
            pass  # a read-only home must not stop play

    def info(self, event: str, **fields: Any) -> None:
        self._write("info", event, fields)

    def warning(self, event: str, **fields: Any) -> None:
        self._write("warning", event, fields)


def log() -> Any:
    if not CTX.verbose:
        return FileLog()
    if not CTX.logging_ready:
        setup_logging(CTX.verbose)
    import structlog

    return structlog.get_logger("arbiter")


#: How much of one line of a message is shown: a refused 5 MB line is named, not echoed
#: (long enough for any message of arbiter's own, with a path or URL in it).
CLIP = 2000


def clip(text: str, width: int = CLIP) -> str:
    """``text`` with each line cut to ``width`` characters, saying how much was left out."""
    out = []
    for line in str(text).split("\n"):
        if len(line) > width:
            line = f"{line[:width]}… ({len(line) - width} more characters)"
        out.append(line)
    return "\n".join(out)


def hanging_indent(line: str, width: int) -> int:
    """Where a wrapped ``line`` continues: under the text after its label (``error: ``,
    ``hint: ``) or after its first column gap (a help line's description), else four in from
    the line's own indent; never past half the width."""
    import re

    lead = len(line) - len(line.lstrip(" "))
    gap = re.match(r" *\S.*?\S {2,}(?=\S)", line)
    label = re.match(r" *[a-z][a-z ]{0,12}: (?=\S)", line)
    at = label.end() if label else gap.end() if gap else lead + 4
    return at if at <= width // 2 else lead + 4


def wrapped(text: str, width: int | None) -> str:
    """``text`` with each line longer than ``width`` wrapped at words, its continuation lines
    indented (:func:`hanging_indent`) rather than starting at column 0. ``width`` None (output
    into a pipe or a file) leaves every line whole, for grep."""
    if width is None:
        return text
    import textwrap

    out = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        indent = " " * hanging_indent(line, width)
        out += textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=False,
                             break_on_hyphens=False) or [line]
    return "\n".join(out)


def say(con: "LazyConsole", text: str, style: str = "", label: str = "") -> None:
    """Print plain ``text`` (``label`` first, styled ``bold red``), wrapped with hanging
    indents at a terminal (rich would continue a long line at column 0)."""
    c = con.get()
    body = wrapped(label + text, None if c.soft_wrap else c.width)
    head, rest = (f"[bold red]{escape(label.rstrip())}[/]", body[len(label.rstrip()):]) if label else ("", body)
    c.print(head + (f"[{style}]{escape(rest)}[/]" if style else escape(rest)), soft_wrap=True)


def counted(n: int, noun: str) -> str:
    """``1 game``, ``2 games``: a count and its noun (one that takes an s)."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def fail(message: str, code: int = 2) -> None:
    say(err, clip(message), label="error: " if code != 1 else "")
    raise typer.Exit(code)


def escape(text: str) -> str:
    """``text`` as rich markup that prints it as it is: a name like ``[bold red]`` or
    ``[/x]`` is text, neither styling the line nor breaking the print."""
    from rich.markup import escape as esc

    return esc(str(text))


_ACTING = ACTING  # what acts on a terminal (arbiter.core.printable)
_IN_PROSE = re.compile(rf"[\x00-\x09\x0b-\x1f{_ACTING}]")  # a newline stays a newline
_IN_CELL = re.compile(rf"[\x00-\x1f{_ACTING}\\]")
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r", "\\": "\\\\"}


def _written(match: "re.Match[str]") -> str:
    ch = match.group()
    if ch in _NAMED:
        return _NAMED[ch]
    return f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}"


def visible(text: str) -> str:
    """``text`` with every character that would act on a terminal (an ESC sequence, a
    carriage return that lets a line overwrite another, a bidi override) written as its
    escape (``\\x1b``, ``\\r``, ``\\u202e``); newlines stay, for text of many lines."""
    return _IN_PROSE.sub(_written, text) if _IN_PROSE.search(text) else text


def cell(value: Any) -> str:
    """One value of a table as plain text on one line: as :func:`visible`, and a newline,
    a tab and a backslash escaped too (``\\n``, ``\\t``, ``\\\\``), so that a line is a row and a
    tab ends a column whatever the value holds (as `mysql --batch` writes them)."""
    text = _plain(value)
    return _IN_CELL.sub(_written, text) if _IN_CELL.search(text) else text


def quiet_pipe() -> None:
    """The reader went away (``| head``): stop quietly and successfully, as `cat` would."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass
    raise typer.Exit(0)


#: The exit code of each of arbiter's errors (README "Exit codes"): 1 an illegal move or a
#: failed verification, 2 bad input, 3 a storage conflict or a store that cannot be used now.
#: The one place an error becomes a number; an error takes the code of the nearest class on
#: its MRO listed here, and tests/test_errors.py holds every class of arbiter's to an entry.
EXIT_CODES: dict[type[ArbiterError], int] = {
    ArbiterError: 2,
    E.ParseError: 2,
    E.ManualDiceError: 2,
    E.RuleViolation: 1,
    E.BadOption: 2,
    E.BadContent: 2,
    E.UnknownGameKind: 2,
    E.CommandIdReused: 2,
    E.TranscriptError: 2,
    E.ImportRefused: 1,  # the file's games do not verify
    E.CopyClash: 3,
    E.Stalled: 2,
    E.WorkerDied: 3,  # the machine's (a worker killed), not the input's
    S.UnknownEventType: 2,  # a store written by a newer arbiter, or damaged
    S.DeeperFold: 3,  # the store's snapshots, never the player's input (a bug if it escapes)
    S.StoreError: 3,
    S.StoreLocked: 3,
    S.Conflict: 3,
    S.StorageFailed: 3,
    S.StoreUnavailable: 3,
    S.StoreDamaged: 2,  # the file given is not a usable store
    S.OldStore: 2,
    S.ChainMismatch: 2,
    S.UnknownGame: 2,
    S.QueryRefused: 2,
}


def exit_code(exc: ArbiterError) -> int:
    """The exit code of one of arbiter's errors (see :data:`EXIT_CODES`)."""
    for klass in type(exc).__mro__:
        if klass in EXIT_CODES:
            return EXIT_CODES[klass]
    return EXIT_CODES[ArbiterError]


#: What Ctrl-C leaves, said when it stops a verb (exit code 130, as a shell reports SIGINT).
INTERRUPTED = "interrupted; nothing half-written (each move commits whole)"


def stopped_by_ctrl_c(exc: BaseException) -> bool:
    """Whether ``exc`` is DuckDB's way of saying Ctrl-C stopped its query: its Python client
    takes the SIGINT for itself and raises a RuntimeError, not KeyboardInterrupt."""
    return (isinstance(exc, RuntimeError) and str(exc) == "Query interrupted") \
        or type(exc).__name__ == "InterruptException"


@contextmanager
def ctrl_c_stops(store: Any) -> Iterator[None]:
    """Ctrl-C stops the store's query at once. DuckDB's Python client looks for a pending
    SIGINT only between the tasks of a query, and a task of a large scan or join runs on for
    minutes, or the signal is lost: a thread woken by the signal itself (the wakeup fd is
    written from the C-level handler, whatever the main thread is doing) asks the
    connection to stop. psycopg cancels a PostgreSQL query on Ctrl-C by itself."""
    import signal
    import threading

    con = getattr(store, "con", None)
    if not hasattr(con, "interrupt") or threading.current_thread() is not threading.main_thread():
        yield
        return
    r, w = os.pipe()
    try:
        os.set_blocking(w, False)
        before = signal.set_wakeup_fd(w, warn_on_full_buffer=False)
    except (ValueError, OSError):  # a platform whose wakeup fd must be a socket: as DuckDB does
        os.close(r)
        os.close(w)
        yield
        return
    pressed = threading.Event()

    def watch() -> None:
        while data := os.read(r, 64):  # empty: the query is over and the pipe closed
            if signal.SIGINT in data:
                pressed.set()
                con.interrupt()

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        yield
    except Exception:
        if pressed.is_set():  # whatever words the store gave the stopped query
            raise KeyboardInterrupt from None
        raise
    finally:
        signal.set_wakeup_fd(before)
        os.close(w)
        watcher.join()
        os.close(r)


@contextmanager
def user_errors(interrupted: str = INTERRUPTED) -> Iterator[None]:
    """Turn every user-facing error into a message and its exit code, never a traceback;
    ``interrupted`` is what is said when Ctrl-C stops the verb."""
    try:
        yield
    except typer.Exit:
        raise
    except BrokenPipeError:
        quiet_pipe()
    except ArbiterError as exc:
        if isinstance(exc, S.StoreError):
            log().warning("store", error=str(exc), kind=type(exc).__name__)
        else:
            log().info("refused", error=str(exc), kind=type(exc).__name__)
        code = exit_code(exc)
        if code == 1:
            say(err, clip(str(exc)), style="bold red")
        else:
            say(err, clip(str(exc)), label="error: ")
        raise typer.Exit(code) from None
    except OSError as exc:  # a path the user gave that cannot be read or written
        where = f"cannot use {exc.filename}: " if getattr(exc, "filename", None) else ""
        err.print(f"[bold red]error:[/] {escape(where)}{escape(exc.strerror or str(exc))}")
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        err.print(interrupted)
        raise typer.Exit(130) from None
    except Exception as exc:
        if stopped_by_ctrl_c(exc):
            err.print(interrupted)
            raise typer.Exit(130) from None
        if type(exc).__module__.split(".")[0] in ("_duckdb", "duckdb", "psycopg"):
            # a database error no store method turned into a sentence: still no traceback
            err.print(f"[bold red]error:[/] the store failed: {escape(clip(str(exc).splitlines()[0]))}")
            raise typer.Exit(3) from None
        raise


def record_refusal(engine: Any, match: Any, seat: str | None, text: str, exc: ArbiterError,
                   source: str) -> None:
    """Keep a refused command in the store's `refusals` table and in the log."""
    from arbiter.core.refusals import record_refusal as record

    log().info("refused", game_id=match.game_id, seat=seat, text=text, seq=match.seq,
               rule_id=getattr(exc, "rule_id", None), error=str(exc), source=source)
    record(engine, match.game_id, match.seq, seat, text, exc, exit_code(exc), source)


def emit_rows(columns: Sequence[str], rows: Sequence[Sequence[Any]], fmt: str = "table",
              title: str = "", json_columns: Sequence[bool] | None = None) -> None:
    """Print rows as a table, CSV, JSON (one array of objects) or JSON lines. JSON, JSON
    lines and CSV are the exact data: a value is given as it is, and only the columns
    ``json_columns`` marks (as the store typed them) are given as the JSON value their text
    holds; text stays text however much it reads like JSON.

    A table at a terminal is drawn by rich, under its title. Into a pipe or a file it is
    plain: the header line, then one line a row, the values separated by one tab and never
    padded, wrapped or cut (as `mysql --batch` and `gh` print for scripts), each value kept
    to its row by :func:`cell`; the title is for the eye and is left out."""
    if fmt in ("json", "jsonl"):
        columns = unique_names(columns)
        if json_columns is not None:
            rows = [tuple(_json_value(v) if j else v for v, j in zip(r, json_columns)) for r in rows]
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(columns)
        w.writerows([[_plain(v) for v in r] for r in rows])
        sys.stdout.write(buf.getvalue())
    elif fmt == "json":
        sys.stdout.write(_json_dumps([dict(zip(columns, r)) for r in rows], indent=2) + "\n")
    elif fmt == "jsonl":
        for r in rows:
            sys.stdout.write(_json_dumps(dict(zip(columns, r))) + "\n")
    elif not interactive():
        lines = ["\t".join(map(cell, columns))] + ["\t".join(map(cell, r)) for r in rows]
        sys.stdout.write("\n".join(lines) + "\n")
    else:
        from rich.table import Table

        table = Table(title=escape(title) if title else None, show_lines=False)
        for c in columns:
            table.add_column(escape(c), overflow="fold")
        for r in rows:
            table.add_row(*[escape(_plain(v)) for v in r])
        console.print(table)


def unique_names(columns: Sequence[str]) -> list[str]:
    """Column names as a JSON object's keys: a name given twice (``select 1 as a, 2 as a``)
    gets ``_2``, ``_3``, … rather than losing the first column's value."""
    seen: dict[str, int] = {}
    out = []
    for c in map(str, columns):
        seen[c] = seen.get(c, 0) + 1
        name = c if seen[c] == 1 else f"{c}_{seen[c]}"
        while name in columns and seen[c] > 1:
            seen[c] += 1
            name = f"{c}_{seen[c]}"
        out.append(name)
    return out


def _plain(v: Any) -> str:
    """A value as text in a table, a pipe's tab-separated lines and CSV, in the forms SQL's
    command lines print rather than Python's: NULL empty, ``true``/``false``, a blob as
    PostgreSQL's hex (``\\x01ff``), an interval as PostgreSQL writes one (``1 day 02:00:00``),
    ``Infinity``/``-Infinity``/``NaN``, a decimal as the number it is, times in ISO 8601 with a
    space, and a list or struct as the JSON :func:`_json_dumps` gives. One function, so that
    every verb and both stores agree."""
    if v is None:
        return ""
    if isinstance(v, (dict, list, tuple)):
        return _json_dumps(v)
    form = _json_form(v)
    return form if isinstance(form, str) else _plain(form)


def _json_form(v: Any) -> Any:
    """The JSON value of one of the values a store hands back that JSON has no type for
    (``json.dumps``'s ``default``, and the floats it would write as bare ``Infinity``)."""
    if v is True or v is False:
        return "true" if v else "false"
    if isinstance(v, float):
        if math.isfinite(v):
            return str(v)
        return "NaN" if v != v else "Infinity" if v > 0 else "-Infinity"
    if isinstance(v, (bytes, bytearray, memoryview)):
        return "\\x" + bytes(v).hex()
    # a store hands back an interval or a decimal only once their modules are loaded: start-up
    # does not load them for this
    if isinstance(v, getattr(sys.modules.get("datetime"), "timedelta", ())):
        return _interval(v)
    if isinstance(v, getattr(sys.modules.get("decimal"), "Decimal", ())):
        # a number, as the PostgreSQL store hands its numerics back
        return int(v) if v == v.to_integral_value() and v.as_tuple().exponent >= 0 else float(v)
    return str(v)


def _interval(span: Any) -> str:
    """An interval (a ``timedelta``) as PostgreSQL prints one: ``3 days``, ``02:00:00``,
    ``1 day 00:00:01.5``, and a negative one with each part negative (``-1 days -02:00:00``)."""
    sign = "-" if span.total_seconds() < 0 else ""
    span = abs(span)
    days, secs, micros = span.days, span.seconds, span.microseconds
    parts = [f"{sign}{days} day{'' if days == 1 and not sign else 's'}"] if days else []
    if secs or micros or not days:
        clock = f"{secs // 3600:02d}:{secs // 60 % 60:02d}:{secs % 60:02d}"
        if micros:
            clock += f".{micros:06d}".rstrip("0")
        parts.append(sign + clock)
    return " ".join(parts)


def _json_dumps(v: Any, **kwargs: Any) -> str:
    """``v`` as JSON, every value JSON has no type for in :func:`_json_form`'s form: valid
    JSON (no bare ``Infinity``) that any reader takes."""
    try:
        return json.dumps(v, default=_json_form, allow_nan=False, **kwargs)
    except ValueError:  # a float that is not finite, somewhere inside: walk it (rare)
        return json.dumps(_finite(v), default=_json_form, **kwargs)


def _finite(v: Any) -> Any:
    if isinstance(v, float) and not math.isfinite(v):
        return _json_form(v)
    if isinstance(v, dict):
        return {k: _finite(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_finite(x) for x in v]
    return v


def _json_value(v: Any) -> Any:
    """The value a JSON column's text holds (any JSON: an object, a list, a string, a number)."""
    if isinstance(v, str):
        try:
            return json.loads(v)
        except ValueError:
            return v
    return v


def check_format(fmt: str, allowed: Sequence[str] = FORMATS) -> str:
    if fmt not in allowed:
        fail(f"--format takes one of {', '.join(allowed)}, not {fmt!r}")
    return fmt


def format_option(default: str = "table", allowed: Sequence[str] = FORMATS) -> Any:
    """The one ``--format`` flag every verb that prints data shares."""

    def checked(value: str) -> str:
        if value not in allowed:
            raise typer.BadParameter(f"takes one of {', '.join(allowed)}, not {value!r}")
        return value

    return typer.Option(default, "--format", "-f", callback=checked, metavar="|".join(allowed),
                        autocompletion=lambda: list(allowed), help="Output format.")
