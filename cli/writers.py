"""Many writer processes on one store at once: each plays its own games, and two of them
also share one game, so that their appends clash. Used by `arbiter bench --db
postgresql://...` and by the tests.

A writer decides each move against the latest state it read; when another writer got there
first the store refuses the append (a conflict, nothing written), the engine decides the same
words again on the new state, and if they are no longer legal the move is refused with its
rule and the writer picks another. Nothing is retried blindly and nothing is lost.
"""

from __future__ import annotations

import multiprocessing
import random
import time

import msgspec

#: The game the writers play (random legal moves; a finished game is replaced by a new one).
KIND = "monster-derby"


class WriterResult(msgspec.Struct):
    commands: int  # accepted and stored
    refused: int  # decided again after a clash and no longer legal
    conflicts: int  # appends that lost the race (and were decided again)
    storage_errors: int  # anything that would have been exit 3 (locked, unavailable)
    games: list[str]
    started: float  # wall clock, so that writers in several processes line up
    ended: float


class WritersResult(msgspec.Struct):
    processes: int
    commands: int
    refused: int
    conflicts: int
    storage_errors: int
    seconds: float
    per_second: float
    games: list[str]
    shared: str | None


def new_game(eng, seed: int) -> str:
    gid, _m, _r = eng.new(KIND, seats=["ann", "bob", "cy"], seed=seed)
    return gid


def writer(url: str, index: int, commands: int, shared: str | None, seed: int) -> WriterResult:
    """One process: ``commands`` accepted commands, alternating between its own game and
    ``shared`` (when given)."""
    from arbiter.core.bots import random_bot
    from arbiter.core.engine import Engine
    from arbiter.core.errors import RuleViolation
    from arbiter.events.store import Conflict, StoreError

    rng = random.Random(seed * 1000 + index)
    eng = Engine(url, lock_timeout=30)
    own = new_game(eng, seed * 1000 + index)
    games = [own]
    done = refused = conflicts = errors = 0
    started = time.time()
    with eng.open() as store:
        turn = 0
        while done < commands:
            turn += 1
            gid = shared if shared and turn % 2 else own
            match = eng.load_from(store, gid)
            if match.outcome() is not None:
                if gid == shared:
                    shared = None  # the shared game is over: go on with one's own
                    continue
                own = new_game(eng, rng.randrange(1 << 30))
                games.append(own)
                continue
            seat = match.to_act().seats[0]
            text = match.game.command_text(random_bot(match.state, seat, match.legal(seat), rng))
            try:
                eng.do(gid, text, seat, store=store)
                done += 1
            except RuleViolation:
                refused += 1  # the other writer's move made this one illegal
            except Conflict:
                conflicts += 1  # lost the race twice: read again and choose afresh
            except StoreError:
                errors += 1
    return WriterResult(commands=done, refused=refused, conflicts=conflicts, storage_errors=errors,
                        games=games, started=started, ended=time.time())


def _writer(args: tuple) -> bytes:
    return msgspec.msgpack.encode(writer(*args))


def run_writers(url: str, processes: int = 8, commands: int = 40, seed: int = 1,
                sharing: int = 2) -> WritersResult:
    """``processes`` writers at once, the first ``sharing`` of them also playing one shared
    game; each stops after ``commands`` accepted commands."""
    from arbiter.core.engine import Engine

    shared = new_game(Engine(url), seed) if sharing else None
    ctx = multiprocessing.get_context("spawn")  # no store connection crosses a fork
    args = [(url, i, commands, shared if i < sharing else None, seed) for i in range(processes)]
    with ctx.Pool(processes) as pool:
        results = [msgspec.msgpack.decode(r, type=WriterResult) for r in pool.map(_writer, args)]
    # from the first writer's first command to the last one's end (process start-up excluded)
    secs = max(r.ended for r in results) - min(r.started for r in results)
    total = sum(r.commands for r in results)
    return WritersResult(processes=processes, commands=total, refused=sum(r.refused for r in results),
                         conflicts=sum(r.conflicts for r in results),
                         storage_errors=sum(r.storage_errors for r in results), seconds=secs,
                         per_second=total / secs if secs else 0.0,
                         games=[g for r in results for g in r.games], shared=shared)
