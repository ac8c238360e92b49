"""Copying whole games from one store to another (a DuckDB file, a PostgreSQL server).

A game is copied as its log export: every event with its hash and every command, written to
the destination through the same import that ``arbiter import`` uses, so whatever import
checks (each chain recomputed and compared with the source's hashes before anything is
committed) is checked here too. Ids, event hashes and so receipts (``game:seq:hash``) are the
same on both sides; the destination's global ledger chains the copies in its own order.

Games go over in batches, one transaction a batch: a batch that fails leaves nothing of
itself behind, and the batches before it stay copied. A game already at the destination
with the same head is skipped, so a copy that was stopped can simply be run again; one whose
log differs there is refused.
"""

from __future__ import annotations

from typing import Callable, Iterable, Sequence

import msgspec

from arbiter.core.errors import CopyClash  # noqa: F401 - re-exported
from arbiter.core.porting import export_jsonl, import_jsonl
from arbiter.events.store import Store, UnknownGame

#: Games a transaction, and the most events a batch gathers before it is written.
BATCH_GAMES = 100
BATCH_EVENTS = 50_000


class CopyReport(msgspec.Struct):
    copied: list[str]
    skipped: list[str]  # already at the destination, identical
    events: int


def plan(src: Store, dst: Store, game_ids: Sequence[str] | None) -> tuple[list[tuple[str, int]], list[str]]:
    """(games to copy with their event counts, games already there), in the source's order.
    Raises :class:`CopyClash` for a game whose log differs at the destination."""
    wanted = [src.resolve_game_id(g) for g in game_ids] if game_ids else [g.game_id for g in src.games()]
    todo, same = [], []
    for gid in dict.fromkeys(wanted):
        head = src.last(gid)
        try:
            dst.game(gid)
        except UnknownGame:
            todo.append((gid, head[0]))
            continue
        if dst.last(gid) != head:
            raise CopyClash(f"{gid} is already in {dst.path} with another log (its last event is"
                            f" {dst.last(gid)[0]}:{dst.last(gid)[1][:12]}, the source's"
                            f" {head[0]}:{head[1][:12]}); nothing of it was copied")
        same.append(gid)
    return todo, same


def batches(todo: Iterable[tuple[str, int]]) -> Iterable[list[str]]:
    batch: list[str] = []
    events = 0
    for gid, n in todo:
        if batch and (len(batch) >= BATCH_GAMES or events + n > BATCH_EVENTS):
            yield batch
            batch, events = [], 0
        batch.append(gid)
        events += n
    if batch:
        yield batch


def copy_games(src: Store, dst: Store, game_ids: Sequence[str] | None = None,
               progress: Callable[[int], None] | None = None) -> CopyReport:
    """Copy ``game_ids`` (default: every game) from ``src`` to ``dst``, batch by batch."""
    todo, same = plan(src, dst, game_ids)
    copied: list[str] = []
    events = 0
    for batch in batches(todo):
        text = "".join(export_jsonl(src, gid) for gid in batch)
        copied += import_jsonl(dst, text)
        n = sum(src.last(gid)[0] for gid in batch)
        events += n
        if progress is not None:
            progress(len(batch))
    return CopyReport(copied=copied, skipped=same, events=events)
