"""Eight writer processes on one PostgreSQL store, each playing its own games and two also
sharing one game: nothing lost or duplicated, no seq gap, the whole audit clean, and never a
storage error (what would be exit 3)."""

from __future__ import annotations

from arbiter.cli.writers import run_writers
from arbiter.core import audit
from arbiter.core.engine import Engine
from arbiter.projections.fold import SETUP


def test_eight_writer_processes_lose_nothing(pg_url):
    result = run_writers(pg_url, processes=8, commands=25, seed=7)
    assert result.storage_errors == 0
    assert result.commands == 8 * 25
    with Engine(pg_url).open(read_only=True) as store:
        games = {g.game_id for g in store.games()}
        assert games == set(result.games) | {result.shared}
        stored = store.query("SELECT count(*) FROM commands WHERE text <> ?", [SETUP])[1][0][0]
        assert stored == result.commands  # every accepted command stored once, none lost
        ids = store.query("SELECT count(*), count(DISTINCT command_id) FROM commands")[1][0]
        assert ids[0] == ids[1]
        gseqs = [row[0] for row in store.ledger()]
        assert gseqs == list(range(1, len(gseqs) + 1))  # the global chain: no gap, no duplicate
        for gid in games:
            seqs = [e.seq for e in store.envelopes(gid)]
            assert seqs == list(range(1, len(seqs) + 1)), gid
            report = audit.verify_game(store, gid)
            assert report.ok, (gid, [p.message for p in report.problems])
        assert audit.verify_ledger(store) == []
        shared = [c for c in store.commands(result.shared) if c[2] != SETUP]
        assert len(shared) >= 2  # both sharing writers got moves into the shared game
