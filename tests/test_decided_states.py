"""A decided command's events are folded with the states the game's own Emitter reached
while deciding them (not evolved again): the state a match holds after every command must
be the one a fold of its whole log from the start gives, and a game that ends reveals its
seed."""

from __future__ import annotations

import random

import pytest

from arbiter.core import registry
from arbiter.core.bots import random_bot
from arbiter.events.base import SeedRevealed
from arbiter.core.match import Match
from arbiter.projections.fold import fold


@pytest.mark.parametrize("kind", registry.known())
def test_state_after_each_command_is_the_fold_of_the_log(kind: str) -> None:
    game = registry.get(kind)
    match = Match.new(game, seed=7, seats=game.default_seats(), options=dict(game.random_play_options))
    rng = random.Random(7)
    for _ in range(150):
        if match.outcome() is not None:
            break
        seat = match.to_act().seats[0]
        legal = match.legal(seat)
        match.apply(seat, game.command_text(random_bot(match.state, seat, legal, rng)))
        assert match.state == fold(game.projection, match.items).state
    if match.outcome() is not None:
        assert isinstance(match.items[-1][2], SeedRevealed)
