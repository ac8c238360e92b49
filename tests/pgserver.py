"""A throwaway PostgreSQL server for the tests, from the binaries on this machine.

``initdb`` into a temporary directory (trust authentication, loopback only, a free port),
``pg_ctl start``, and ``pg_ctl stop`` when the test session ends, as pytest-postgresql and
testing.postgresql do. PostgreSQL refuses to run as root, so as root the server runs as the
``postgres`` user and its directory belongs to it. Each test gets a fresh schema.

A server outlives the process that started it (``pg_ctl`` detaches it), so a test run killed
before its session ends would leave it running: a watchdog, a small process of its own
session, waits on a pipe only the starting process holds, and when that process is gone
however it died (the pipe's end), stops the server and removes its directory.
"""

from __future__ import annotations

import glob
import itertools
import json
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
from typing import Sequence


def find_bindir() -> str | None:
    """The directory holding ``initdb`` and ``pg_ctl``, or None when PostgreSQL is absent."""
    candidates: list[str] = []
    if os.environ.get("ARBITER_PG_BINDIR"):
        candidates.append(os.environ["ARBITER_PG_BINDIR"])
    pg_config = shutil.which("pg_config")
    if pg_config:
        out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True)
        if out.returncode == 0:
            candidates.append(out.stdout.strip())
    initdb = shutil.which("initdb")
    if initdb:
        candidates.append(os.path.dirname(os.path.realpath(initdb)))
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    for d in candidates:
        if all(os.access(os.path.join(d, b), os.X_OK) for b in ("initdb", "pg_ctl", "postgres")):
            return d
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


#: The watchdog: read until end of file (the starting process gone), then stop the server.
WATCHDOG = """
import json, shutil, subprocess, sys
sys.stdin.buffer.read()
subprocess.run(json.loads(sys.argv[1]), stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
shutil.rmtree(sys.argv[2], ignore_errors=True)
"""


class PgServer:
    """One running server; :meth:`new_database` hands out fresh, empty stores."""

    def __init__(self, bindir: str) -> None:
        self.bindir = bindir
        self.as_postgres = os.geteuid() == 0
        self.dir = tempfile.mkdtemp(prefix="arbiter-pg-")
        self.data = os.path.join(self.dir, "data")
        self.port = free_port()
        self._names = itertools.count(1)
        self.started = False
        if self.as_postgres:
            pw = pwd.getpwnam("postgres")
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)

    def _command(self, args: Sequence[str]) -> list[str]:
        cmd = [os.path.join(self.bindir, args[0]), *args[1:]]
        return ["runuser", "-u", "postgres", "--", *cmd] if self.as_postgres else cmd

    def _run(self, args: Sequence[str]) -> None:
        cmd = self._command(args)
        out = subprocess.run(cmd, capture_output=True, text=True, cwd=self.dir, timeout=120)
        if out.returncode != 0:
            log = ""
            logfile = os.path.join(self.dir, "server.log")
            if os.path.exists(logfile):
                with open(logfile, encoding="utf-8", errors="replace") as fh:
                    log = fh.read()[-2000:]
            raise RuntimeError(f"{' '.join(cmd)} failed:\n{out.stdout}\n{out.stderr}\n{log}")

    def _watch(self) -> None:
        """Start the watchdog (before the server: a run killed while it starts leaves none)."""
        read, self._alive = os.pipe()  # not inherited by the processes this one starts
        stop = self._command(["pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop"])
        self._watchdog = subprocess.Popen(
            [sys.executable, "-c", WATCHDOG, json.dumps(stop), self.dir], stdin=read,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=self.dir,
            start_new_session=True)  # a Ctrl-C to the test run's group is not its signal
        os.close(read)

    def start(self) -> "PgServer":
        self._watch()
        self._run(["initdb", "-D", self.data, "-A", "trust", "-U", "postgres", "-E", "UTF8",
                   "--locale=C", "--no-sync"])
        # Throwaway data: no fsync. Unix sockets in our own directory, TCP on loopback only.
        opts = (f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={self.dir}"
                " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
                " -c max_connections=200")
        self._run(["pg_ctl", "-D", self.data, "-l", os.path.join(self.dir, "server.log"),
                   "-o", opts, "-w", "-t", "60", "start"])
        self.started = True
        return self

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{dbname}"

    def new_database(self) -> str:
        """The URL of a fresh, empty store: its own schema (``search_path`` set in the URL),
        as cheap as a directory; a new database per test costs half a second."""
        import psycopg

        name = f"t{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as con:
            con.execute(f'CREATE SCHEMA "{name}"')
        return self.url() + f"?options=-csearch_path%3D{name}"

    def stop(self) -> None:
        try:
            if self.started:
                self._run(["pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop"])
        finally:
            self.started = False
            if getattr(self, "_watchdog", None) is not None:
                self._watchdog.kill()  # its work is done here
                self._watchdog.wait()
                os.close(self._alive)
                self._watchdog = None
            shutil.rmtree(self.dir, ignore_errors=True)


def skip_reason() -> str | None:
    """Why PostgreSQL tests cannot run here, or None when they can."""
    if find_bindir() is None:
        return ("PostgreSQL server binaries (initdb, pg_ctl) not found: install Debian's"
                " 'postgresql' package, or set ARBITER_PG_BINDIR")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed: pip install 'arbiter-referee[postgres]'"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no 'postgres' user to run the server as"
    return None
