"""Served games the API cannot make today, stored as an older release's server left them."""

from __future__ import annotations

from typing import Any

from arbiter.core import registry
from arbiter.core.engine import Engine
from arbiter.core.match import Match
from arbiter.projections.kernel import REFEREE
from arbiter.service import tokens
from arbiter.testing.harness import simulate


def uncommitted_game(db: str, base_url: str, kind: str = "funkoverse-jaws", seed: int = 3,
                     seats: tuple[str, ...] = ("ann", "bob")) -> tuple[dict[str, Any], tuple[str, str]]:
    """A served game recorded without a seed commitment (as servers before the commitment
    made them): its end reveals no seed, so a seat may still undo it. Played by bots to one
    command before its end; returns the game as ``POST /games`` answers it, and the (seat,
    command) that ends it."""
    game = registry.get(kind)
    whole = simulate(game, seed, 1, smart=True, match=Match.new(game, seed=seed, seats=list(seats), commit=False))
    assert whole.outcome() is not None and whole.folded is not None and whole.folded.revealed is None
    last = whole.texts[whole.folded.command_id]
    short = simulate(game, seed, 1, smart=True, max_steps=len(whole.texts) - 1,
                     match=Match.new(game, seed=seed, seats=list(seats), commit=False))
    assert short.outcome() is None and short.seq < whole.seq
    issued = {seat: tokens.new_token() for seat in (*seats, REFEREE)}
    engine = Engine(db)
    with engine.open() as store:
        gid = engine.store_match(store, short)
        store.add_seat_access(gid, [(s, tokens.token_hash(t), None) for s, t in issued.items()])

    def access(token: str) -> dict[str, str]:
        return {"token": token, "url": f"{base_url}/table/{gid}#{token}"}

    return ({"game_id": gid, "kind": kind, "seats": {s: access(issued[s]) for s in seats},
             "referee": access(issued[REFEREE])}, (str(last[0]), last[1]))
