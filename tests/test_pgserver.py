"""The tests' throwaway PostgreSQL server never outlives the test run that started it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

import pgserver

HERE = os.path.dirname(os.path.abspath(__file__))

START = """
import sys
sys.path.insert(0, sys.argv[1])
import pgserver
server = pgserver.PgServer(pgserver.find_bindir()).start()
with open(server.data + "/postmaster.pid") as fh:
    print(fh.readline().strip(), server.dir, flush=True)
sys.stdin.read()  # until killed
"""


def running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(") ")[1][:1] != "Z"
    except FileNotFoundError:
        return False


def test_a_server_stops_when_the_process_that_started_it_is_killed():
    """pg_ctl detaches the server, and only the session's end stopped it: a test run
    killed with -9 (or by a timeout) left servers running. Now the server and its
    directory are gone within seconds of the starting process's death."""
    reason = pgserver.skip_reason()
    if reason:
        pytest.skip(reason)
    starter = subprocess.Popen([sys.executable, "-c", START, HERE], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    try:
        line = starter.stdout.readline().split()
        assert len(line) == 2, "the server did not start"
        pid, folder = int(line[0]), line[1]
        assert running(pid) and os.path.isdir(folder)
        os.kill(starter.pid, signal.SIGKILL)
        starter.wait()
        deadline = time.monotonic() + 30
        while (running(pid) or os.path.exists(folder)) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not running(pid), "the server outlived the process that started it"
        assert not os.path.exists(folder)
    finally:
        if starter.poll() is None:
            starter.kill()
