"""What `verify` says of a game's snapshots. They are a cache, never evidence: the audit
folds and re-decides the log itself, and only then compares each snapshot with that fold.
A snapshot that fails is a warning (loads pass it over or, if its tag was forged too, the
next audit still says so), not a failure of the ledger."""

from __future__ import annotations

from arbiter.core import registry
from arbiter.core.engine import snapshot_usable, snapshot_version
from arbiter.events.envelope import Envelope
from arbiter.events.interface import Store
from arbiter.events.store import snapshot_tag
from arbiter.projections.fold import Cursor, decode_snapshot, decoded, same_fold


def snapshot_warnings(store: Store, game_id: str, envs: list[Envelope] | None = None) -> list[tuple[int, str]]:
    """(seq, sentence) for every snapshot of ``game_id`` that does not hold the state its
    log (``envs``, read from the store if not given) folds to after that seq, oldest first."""
    rows = store.snapshots(game_id)
    if not rows:
        return []
    game = registry.get(store.game(game_id).kind)
    version = snapshot_version(game)
    envs = store.envelopes(game_id) if envs is None else envs
    cursor = Cursor(game.projection, list(decoded(game.codec, envs)))
    out = []
    for row in reversed(rows):
        seq, event_hash, log_hash, written_under, tag, body = row
        if tag != snapshot_tag(game_id, seq, event_hash, written_under, body):
            out.append((seq, f"the snapshot after seq {seq} fails its tag (edited or damaged);"
                             " loads pass it over"))
        elif log_hash != event_hash:
            out.append((seq, f"the snapshot after seq {seq} follows an event the log does not"
                             " hold (the log was changed after it was taken); loads pass it over"))
        elif written_under != version:
            continue  # folded under other rules or another engine: unused, nothing wrong
        elif not snapshot_usable(game_id, row, version) or not _holds(game, cursor, seq, body):
            out.append((seq, f"the snapshot after seq {seq} holds a state the log does not fold"
                             " to; loads would use it: delete it (a snapshot is a cache)"))
    return out


def _holds(game, cursor: Cursor, seq: int, body: bytes) -> bool:
    folded = cursor.at_seq(seq)
    try:
        snap = decode_snapshot(game.projection, folded.created, body)
    except Exception:  # bytes that do not decode: loads pass them over too
        return True
    return same_fold(snap, folded)
