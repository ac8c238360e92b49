"""Import's and `verify --all`'s worker pools are shut down on every path, never for ever.

CPython's Pool.terminate() hung twice at the end of long imports with workers (leaving
``with Pool()`` calls it), and close() then join() waits for ever on a task whose worker
is gone. A finished pool is now closed and joined, any other terminated, each with a
deadline past which the workers are killed."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

import signal

from arbiter.core.errors import WorkerDied
from arbiter.core.pools import each, get, shut_down, worker_pool


def test_a_finished_pool_is_closed_and_its_workers_exit_on_their_own():
    with worker_pool(2) as pool:
        workers = list(pool._pool)
        assert sorted(pool.map(abs, [-1, -2, -3])) == [1, 2, 3]
    assert [w.exitcode for w in workers] == [0, 0]  # not terminated (that is -SIGTERM)


def test_a_pool_left_on_an_error_does_not_wait_for_its_work():
    started = time.monotonic()
    with pytest.raises(ValueError):
        with worker_pool(1, deadline=20) as pool:
            workers = list(pool._pool)
            pool.apply_async(time.sleep, (3600,))  # a game that takes for ever
            pool.apply_async(time.sleep, (3600,))  # and one still to be handed out
            time.sleep(0.5)
            raise ValueError("refused")
    assert time.monotonic() - started < 60
    assert not any(w.is_alive() for w in workers)


BLOCKED = """
import sys, time
from arbiter.core.pools import shut_down
if __name__ == "__main__":
    import multiprocessing
    pool = multiprocessing.get_context("spawn").Pool(2)
    pool.map(abs, [1, 2])
    print(*[w.pid for w in pool._pool], flush=True)
    pool.terminate = lambda: time.sleep(3600)  # as CPython's blocked for good
    shut_down(pool, finished=False, deadline=1)
    print("on", flush=True)
"""


def test_a_shutdown_that_blocks_is_cut_short_its_workers_killed_and_the_process_exits(tmp_path):
    """As terminate() blocked for good: the caller goes on after the deadline, the workers
    are killed, and neither the blocked thread nor the pool's own clean-up at exit keeps
    the process from ending."""
    script = tmp_path / "blocked.py"  # spawned workers import the main module from a file
    script.write_text(BLOCKED)
    started = time.monotonic()
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert time.monotonic() - started < 60
    pids, said = out.stdout.splitlines()
    assert said == "on"
    assert not any(os.path.exists(f"/proc/{pid}") for pid in pids.split())


def _kill_a_worker_soon(pool) -> None:
    time.sleep(0.5)
    os.kill(pool._pool[0].pid, signal.SIGKILL)  # as the kernel's out-of-memory killer would


@pytest.mark.parametrize("read", ["get", "each"])
def test_a_worker_that_dies_mid_task_stops_the_wait_in_words(read):
    """CPython's pool starts another worker and never answers for the dead one's task:
    waiting on it was for ever. Now the wait ends with WorkerDied, and the pool shuts down."""
    import threading

    started = time.monotonic()
    with pytest.raises(WorkerDied, match="signal 9; out of memory"):
        with worker_pool(1, deadline=20) as pool:
            threading.Thread(target=_kill_a_worker_soon, args=(pool,), daemon=True).start()
            if read == "get":
                get(pool, pool.apply_async(time.sleep, (3600,)))
            else:
                list(each(pool, pool.imap_unordered(time.sleep, [3600, 3600])))
    assert time.monotonic() - started < 60


def test_results_read_through_the_watch_are_the_pools_own():
    with worker_pool(2) as pool:
        assert get(pool, pool.apply_async(abs, (-4,))) == 4
        assert sorted(each(pool, pool.imap_unordered(abs, [-1, -2, -3]))) == [1, 2, 3]


STARTS = """
import sys, threading
from arbiter.core.pools import start_method, worker_pool
alone = start_method()  # before anything runs
if sys.argv[1] == "thread":
    threading.Thread(target=threading.Event().wait, daemon=True).start()
elif sys.argv[1] == "store":  # a connection's threads, which Python does not see
    import duckdb
    con = duckdb.connect(sys.argv[2])
    con.execute("CREATE TABLE t AS SELECT range AS x FROM range(100000)")
    con.execute("SELECT sum(x) FROM t").fetchall()
with worker_pool(2) as pool:
    print(alone, pool._ctx.get_start_method(), pool.apply(abs, (-3,)))
"""


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="needs /proc to count a process's threads")
@pytest.mark.parametrize("running, expected", [
    ("nothing", "fork fork 3"),
    ("thread", "fork spawn 3"),
    ("store", "fork spawn 3"),
])
def test_workers_are_forked_only_from_a_process_that_runs_one_thread(tmp_path, running, expected):
    """A process alone in its one thread forks its workers (they start with what it has
    imported); once any other thread runs (its own, or a store connection's, which Python
    does not count) they are spawned, since a fork would copy a lock another thread holds."""
    out = subprocess.run([sys.executable, "-c", STARTS, running, str(tmp_path / "s.duckdb")],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == expected.split()
