"""Worker process pools (import's and ``verify --all``'s) that are shut down on every path
without hanging.

CPython's ``Pool.terminate()`` (what leaving ``with Pool()`` calls) can block for good
while its task thread is still handing work to the workers, and ``close(); join()`` waits
for ever on a task whose worker died. So a pool whose every result was read is closed and
joined (its workers exit on their own); one left on an error is terminated; and either
is given a deadline, after which its workers are killed and the caller goes on.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Iterator

if TYPE_CHECKING:
    from multiprocessing.pool import Pool

#: Seconds a pool is given to shut down before its workers are killed.
SHUTDOWN_SECONDS = 30.0


@contextmanager
def worker_pool(jobs: int, deadline: float = SHUTDOWN_SECONDS, **kwargs: Any) -> Iterator["Pool"]:
    """A pool of ``jobs`` spawned workers (spawn: this process may hold a database
    connection and threads), shut down by :func:`shut_down` however the block is left."""
    import multiprocessing

    pool = multiprocessing.get_context("spawn").Pool(jobs, **kwargs)
    finished = False
    try:
        yield pool
        finished = True
    finally:
        shut_down(pool, finished, deadline)


def shut_down(pool: "Pool", finished: bool, deadline: float = SHUTDOWN_SECONDS) -> None:
    """Close and join a ``finished`` pool (every result read); terminate any other. Either
    runs in a thread of its own for at most ``deadline`` seconds; past it the workers are
    killed (the blocked thread is a daemon: it does not keep the process from exiting)."""
    import threading

    if finished:
        pool.close()
    stop = threading.Thread(target=pool.join if finished else pool.terminate, daemon=True,
                            name="pool-shutdown")
    workers = list(getattr(pool, "_pool", ()))  # the processes, to kill if it comes to that
    stop.start()
    stop.join(deadline)
    if stop.is_alive():
        # with those the pool started since (it replaces a worker that died)
        for worker in dict.fromkeys([*workers, *getattr(pool, "_pool", ())]):
            if worker.is_alive():
                worker.kill()
                worker.join(5)
        # and the pool's own terminate, which would run at exit, is not: a worker killed
        # while it held the pool's queue lock would keep it (and the exit) waiting for ever
        finalizer = getattr(pool, "_terminate", None)
        if finalizer is not None:
            finalizer.cancel()
