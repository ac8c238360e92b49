"""Shared plumbing for the command line: the store path, logging, output and errors."""

from __future__ import annotations

import csv
import io
import json
import logging
import os
import sys
from contextlib import contextmanager
from typing import Any, Iterator, Sequence

import platformdirs
import structlog
import typer
from rich.console import Console
from rich.table import Table

from arbiter.core.errors import ArbiterError
from arbiter.events.store import StoreError

console = Console(highlight=False)
err = Console(stderr=True, highlight=False)


class Ctx:
    db: str = ""
    verbose: bool = False


CTX = Ctx()


def data_dir() -> str:
    return os.environ.get("ARBITER_HOME") or platformdirs.user_data_dir("arbiter", appauthor=False)


def default_db() -> str:
    return os.environ.get("ARBITER_DB") or os.path.join(data_dir(), "arbiter.duckdb")


def setup_logging(verbose: bool) -> None:
    """JSON lines to ``arbiter.log`` in the data directory; readable lines on stderr with -v."""
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


def log() -> Any:
    return structlog.get_logger("arbiter")


def fail(message: str, code: int = 2) -> None:
    err.print(f"[bold red]error:[/] {escape(message)}" if code != 1 else escape(message))
    raise typer.Exit(code)


def escape(text: str) -> str:
    from rich.markup import escape as esc

    return esc(str(text))


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn every user-facing error into a message and its exit code, never a traceback."""
    try:
        yield
    except typer.Exit:
        raise
    except ArbiterError as exc:
        log().info("refused", error=str(exc), kind=type(exc).__name__)
        if exc.exit_code == 1:
            err.print(f"[bold red]{escape(str(exc))}[/]")
        else:
            err.print(f"[bold red]error:[/] {escape(str(exc))}")
        raise typer.Exit(exc.exit_code) from None
    except StoreError as exc:
        log().warning("store", error=str(exc), kind=type(exc).__name__)
        err.print(f"[bold red]error:[/] {escape(str(exc))}")
        raise typer.Exit(exc.exit_code) from None
    except OSError as exc:  # a path the user gave that cannot be read or written
        where = f" ({exc.filename})" if getattr(exc, "filename", None) else ""
        err.print(f"[bold red]error:[/] {escape(exc.strerror or str(exc))}{escape(where)}")
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        err.print("interrupted; nothing half-written (each move commits whole)")
        raise typer.Exit(130) from None


def emit_rows(columns: Sequence[str], rows: Sequence[Sequence[Any]], fmt: str, title: str = "") -> None:
    """Print rows as a rich table, CSV or JSON (a list of objects)."""
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(columns)
        w.writerows([[_plain(v) for v in r] for r in rows])
        sys.stdout.write(buf.getvalue())
    elif fmt == "json":
        sys.stdout.write(json.dumps([{c: _jsonable(v) for c, v in zip(columns, r)} for r in rows],
                                    indent=2, default=str) + "\n")
    elif fmt == "jsonl":
        for r in rows:
            sys.stdout.write(json.dumps({c: _jsonable(v) for c, v in zip(columns, r)}, default=str) + "\n")
    else:
        table = Table(title=title or None, show_lines=False)
        for c in columns:
            table.add_column(str(c), overflow="fold")
        for r in rows:
            table.add_row(*[escape(_plain(v)) for v in r])
        console.print(table)


def _plain(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, (dict, list, tuple)):
        return json.dumps(v, default=str)
    return str(v)


def _jsonable(v: Any) -> Any:
    if isinstance(v, str) and v[:1] in "[{":
        try:
            return json.loads(v)
        except ValueError:
            return v
    return v


def check_format(fmt: str, allowed: Sequence[str]) -> str:
    if fmt not in allowed:
        fail(f"--format takes one of {', '.join(allowed)}, not {fmt!r}")
    return fmt
