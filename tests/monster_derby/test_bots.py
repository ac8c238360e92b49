"""The agenda bot plays real games: rulebook defaults, no house limit, a rulebook ending."""

from __future__ import annotations

import random

import pytest

from arbiter.core.bots import autoplay
from arbiter.core.match import Match
from arbiter.core.monster_derby import GAME

RULEBOOK_ENDINGS = ("the third monster crossed the finish line", "Megacarnage")


def test_every_default_is_the_rulebooks_own_or_fills_a_gap_it_leaves():
    """No option limits rounds or turns: the game ends only as "Game End" says."""
    names = {o.name for o in GAME.options}
    assert not any("round" in n or "limit" in n or "max" in n for n in names)
    for o in GAME.options:
        if not o.house:
            assert o.rule and GAME.rules.get(o.rule).source == "rulebook", o.name


@pytest.mark.parametrize("seats, seeds", [(2, range(3)), (8, range(2))])
def test_agenda_bots_finish_games_with_rulebook_defaults_by_a_rulebook_ending(seats, seeds):
    for seed in seeds:
        names = [f"p{i + 1}" for i in range(seats)]
        m = Match.new(GAME, seed=seed, seats=names)
        assert m.created.options == GAME.resolve_options({})
        steps = autoplay(m, {s: GAME.bots["agenda"] for s in names}, random.Random(seed), max_steps=5000)
        out = m.outcome()
        assert out is not None, (seats, seed)
        assert out.reason.startswith(RULEBOOK_ENDINGS), out.reason
        assert steps < 1000  # well within simulate's step cap
