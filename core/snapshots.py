"""What `verify` says of a game's snapshots, and how `migrate --rebuild-snapshots` writes
them again.

Snapshots are a cache, never evidence: the audit folds and re-decides the log itself, and
only then compares each snapshot with that fold. One that loads would pass over (its tag
fails, the log changed after it) is a warning: no answer rests on it. One that loads would
use but that holds a state the log does not fold to (its bytes and tag were both written by
someone with write access) is a failed audit: until it is rebuilt, answers rest on it."""

from __future__ import annotations

from typing import Any

from arbiter.core import registry
from arbiter.core.engine import SNAPSHOT_EVERY, snapshot_usable, snapshot_version
from arbiter.events.envelope import Envelope
from arbiter.events.interface import Store
from arbiter.events.store import snapshot_tag
from arbiter.projections.fold import Cursor, Folded, decode_snapshot, decoded, encode_snapshot, same_fold, step

#: (seq, sentence)
Finding = tuple[int, str]


def check_snapshots(store: Store, game_id: str,
                    envs: list[Envelope] | None = None) -> tuple[list[Finding], list[Finding]]:
    """(problems, warnings) of the snapshots of ``game_id`` against the fold of its log
    (``envs``, read from the store if not given), oldest first: a problem is a snapshot loads
    would use that holds another state; a warning one they pass over."""
    rows = store.snapshots(game_id)
    if not rows:
        return [], []
    game = registry.get(store.game(game_id).kind)
    version = snapshot_version(game)
    envs = store.envelopes(game_id) if envs is None else envs
    cursor = Cursor(game.projection, list(decoded(game.codec, envs)))
    problems: list[Finding] = []
    warnings: list[Finding] = []
    for row in reversed(rows):
        seq, event_hash, log_hash, written_under, tag, body = row
        if tag != snapshot_tag(game_id, seq, event_hash, written_under, body):
            warnings.append((seq, f"the snapshot after seq {seq} fails its tag (edited or damaged);"
                                  " loads pass it over (migrate --rebuild-snapshots writes it again)"))
        elif log_hash != event_hash:
            warnings.append((seq, f"the snapshot after seq {seq} follows an event the log does not"
                                  " hold (the log was changed after it was taken); loads pass it over"))
        elif written_under != version:
            continue  # folded under other rules or another engine: unused, nothing wrong
        elif snapshot_usable(game_id, row, version) and not _holds(game, cursor, seq, body):
            problems.append((seq, f"the snapshot after seq {seq} holds a state the log does not fold"
                                  " to, and loads would use it: rebuild it (arbiter migrate"
                                  f" --rebuild-snapshots {game_id})"))
    return problems, warnings


def snapshot_warnings(store: Store, game_id: str, envs: list[Envelope] | None = None) -> list[Finding]:
    """Every finding of :func:`check_snapshots`, problems and warnings, oldest first."""
    problems, warnings = check_snapshots(store, game_id, envs)
    return sorted(problems + warnings)


def _holds(game: Any, cursor: Cursor, seq: int, body: bytes) -> bool:
    folded = cursor.at_seq(seq)
    try:
        snap = decode_snapshot(game.projection, folded.created, body)
    except Exception:  # bytes that do not decode: loads pass them over too
        return True
    return same_fold(snap, folded)


def rebuild_snapshots(store: Store, game_id: str) -> int:
    """Drop every snapshot of ``game_id`` and write them again from its log, where `do`
    would have: after the first command to end SNAPSHOT_EVERY events or more past the last
    one (or the start). Returns how many were written. Changes no event and no answer."""
    game = registry.get(store.game(game_id).kind)
    version = snapshot_version(game)
    items = list(decoded(game.codec, store.envelopes(game_id)))
    folded: Folded | None = None
    last, written = 0, []
    for i, (seq, cid, ev) in enumerate(items):
        folded = step(game.projection, folded, seq, cid, ev)
        ends_command = i + 1 == len(items) or items[i + 1][1] != cid
        if ends_command and seq - last >= SNAPSHOT_EVERY:
            body = encode_snapshot(game.projection, folded)
            if body is None:  # a game whose state is not snapshotted: folded whole
                break
            written.append((seq, version, body))
            last = seq
    return store.replace_snapshots(game_id, written)
