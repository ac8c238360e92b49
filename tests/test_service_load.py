"""Many games at once through the HTTP API: no server error, no event lost, a clean audit."""

from __future__ import annotations

import pytest

pytest.importorskip("litestar", reason="the server extra (litestar) is not installed")

from arbiter.core import audit  # noqa: E402
from arbiter.core.engine import Engine  # noqa: E402
from arbiter.projections.fold import SETUP  # noqa: E402
from arbiter.service.load import run_load  # noqa: E402


def test_concurrent_games_lose_nothing_and_verify_clean(store_url):
    """On both stores: the server writes the commands waiting in groups (one transaction for
    several games), and every accepted one is there once, with a clean audit."""
    db = store_url
    result = run_load(db, kinds=["monster-derby", "my-little-scythe", "villainous", "funkoverse-jaws",
                                 "scott-pilgrim"], games=10, per_game=6, seed=3, limit=120)
    assert result.server_errors == 0
    assert result.commands >= 10 * 6 * 0.8
    with Engine(db).open(read_only=True) as store:
        for receipt in result.receipts:
            assert audit.check_receipt(store, receipt) is None, receipt
        stored = store.query("SELECT count(*) FROM commands WHERE text <> ?", [SETUP])[1][0][0]
        games = store.games()
        assert len(games) == 10
        for g in games:
            assert audit.verify_game(store, g.game_id).ok, g.game_id
        assert audit.verify_ledger(store) == []
    assert stored == result.commands  # every accepted command is stored once, none lost
