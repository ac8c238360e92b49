"""Random play ends the way the rulebook's battle ends ("Matthew Patel is knocked out" or
"all the Good Guys are knocked out"), with no step cap or round limit doing it: the menu
offers moves that close in on an opponent or stop next to something to strike, grab or
push, so random players engage (random play once wandered past 5000 commands)."""

from __future__ import annotations

import random

import pytest

from arbiter.core import bots
from arbiter.core.match import Match
from arbiter.core.scott_pilgrim import GAME
from sp_helpers import battle, to_good_turn

ENDINGS = {"Matthew Patel is knocked out", "all the Good Guys are knocked out"}


@pytest.mark.parametrize("seed", [13, 14, 21])
def test_random_play_ends_in_a_knock_out(seed):
    m = Match.new(GAME, seed=seed, seats=["bot1", "bot2"], options={})
    steps = bots.autoplay(m, {}, random.Random(seed), max_steps=1_000_000)
    out = m.outcome()
    assert out is not None and out.reason in ENDINGS
    assert steps < 5000  # the old cap, which these seeds used to reach


def test_the_menu_offers_no_move_away_from_every_opponent_but_it_may_be_typed():
    m = battle({"scott": "e4", "matthew": "h4", "chick1": "k1", "chick2": "k2", "chick3": "k3"}, objects={})
    to_good_turn(m, "speed speed speed speed speed")
    moves = [t for t in m.legal_texts("good") if t.startswith("scott move")]
    assert moves and all(t.split()[-3] not in ("b4", "b1", "b7", "e1", "e7") for t in moves)
    assert "scott move d4 c4 b4 pay speed" not in moves
    m.apply("good", "scott move d4 c4 b4")
    assert m.state.chars["scott"].pos == "b4"
