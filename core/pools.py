"""Worker process pools (import's and ``verify --all``'s) that are shut down on every path
without hanging.

CPython's ``Pool.terminate()`` (what leaving ``with Pool()`` calls) can block for good
while its task thread is still handing work to the workers, and ``close(); join()`` waits
for ever on a task whose worker died. So a pool whose every result was read is closed and
joined (its workers exit on their own); one left on an error is terminated; and either
is given a deadline, after which its workers are killed and the caller goes on.

A worker that dies mid-task (killed, or out of memory) takes its task with it: the pool
starts another worker and never answers for the task. So results are read through
:func:`get` and :func:`each`, which wait a little at a time and raise
:class:`~arbiter.core.errors.WorkerDied` once any worker of the pool has died.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Iterator

if TYPE_CHECKING:
    from multiprocessing.pool import Pool

#: Seconds a pool is given to shut down before its workers are killed.
SHUTDOWN_SECONDS = 30.0
#: Seconds between two looks at the workers while a result is awaited.
POLL_SECONDS = 0.25


@contextmanager
def worker_pool(jobs: int, deadline: float = SHUTDOWN_SECONDS, **kwargs: Any) -> Iterator["Pool"]:
    """A pool of ``jobs`` workers (see :func:`start_method`), shut down by
    :func:`shut_down` however the block is left."""
    import multiprocessing
    import signal
    import threading

    from arbiter.core import registry

    method = start_method()
    games = registry.registered_here() if method == "spawn" else []
    if games:  # a spawned worker starts afresh: it is handed the games registered from Python here
        kwargs["initargs"] = (games, kwargs.pop("initializer", None), kwargs.pop("initargs", ()))
        kwargs["initializer"] = _start_worker

    # Ctrl-C at a terminal reaches every process of its group: this one stops the run and
    # says so, and shuts the pool down. Workers started while SIGINT is ignored keep it
    # ignored (Python leaves an inherited SIG_IGN alone), so none prints a traceback of its
    # own, even in the middle of its imports. SIGINT is blocked meanwhile: one pressed then
    # is held (a blocked signal is never discarded as ignored) and reaches this process
    # once its own handler is back.
    block = hasattr(signal, "pthread_sigmask") and threading.current_thread() is threading.main_thread()
    if block:
        before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        pool = multiprocessing.get_context(method).Pool(jobs, **kwargs)
    finally:
        if block:
            signal.signal(signal.SIGINT, handler)
            signal.pthread_sigmask(signal.SIG_SETMASK, before)
    # every worker the pool has had, by pid: a dead one is dropped from the pool's own list
    # (and replaced) within a tenth of a second, but its exit code stays here
    pool._every_worker = {w.pid: w for w in getattr(pool, "_pool", ())}  # type: ignore[attr-defined]
    finished = False
    try:
        yield pool
        finished = True
    finally:
        shut_down(pool, finished, deadline)


def start_method() -> str:
    """How workers are started: forked while this process runs one thread alone (the
    command line starts its pools before it opens a store), so that each begins with what
    this process has already imported, in no time; spawned otherwise (a fresh interpreter
    each, a quarter of a second to import arbiter), since a process forked while another
    thread (a database's, a server's) holds a lock would find it held for ever.

    Threads are counted by the kernel, not by :mod:`threading`: a store's connection runs
    threads of its own that Python does not know of."""
    import multiprocessing
    import os

    if "fork" not in multiprocessing.get_all_start_methods():
        return "spawn"
    try:
        alone = len(os.listdir("/proc/self/task")) == 1
    except OSError:  # no /proc to ask: a thread may be running
        alone = False
    return "fork" if alone else "spawn"


def _start_worker(games: list[tuple[str, str]], start: Any, args: tuple) -> None:
    """A worker's start: the games registered from Python in the parent, then ``start``."""
    from arbiter.core import registry

    registry.register_again(games)
    if start is not None:
        start(*args)


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


def get(pool: "Pool", result: Any) -> Any:
    """``result.get()`` of a task given to ``pool``, or :class:`WorkerDied` if a worker died
    while it was awaited (its task, maybe this one, will never be answered)."""
    while not result.ready():
        result.wait(POLL_SECONDS)
        _check_workers(pool)
    return result.get()


def each(pool: "Pool", results: Iterator[Any]) -> Iterator[Any]:
    """The results of ``pool.imap_unordered(...)`` (or ``imap``) as they come, or
    :class:`WorkerDied` if a worker died meanwhile."""
    from multiprocessing import TimeoutError

    while True:
        try:
            yield results.next(timeout=POLL_SECONDS)  # type: ignore[attr-defined]
        except StopIteration:
            return
        except TimeoutError:
            _check_workers(pool)


def _check_workers(pool: "Pool") -> None:
    from arbiter.core.errors import WorkerDied

    every = getattr(pool, "_every_worker", {})
    for worker in list(getattr(pool, "_pool", ())):
        every.setdefault(worker.pid, worker)
    for worker in every.values():
        code = worker.exitcode
        if code is not None:
            # workers of an open pool never end on their own: any ending is a death
            how = f"killed by signal {-code}" if code < 0 else f"exit code {code}"
            raise WorkerDied(f"a worker process died mid-task ({how}{'; out of memory?' if code == -9 else ''});"
                             " the work it held is lost, so this stops here")
