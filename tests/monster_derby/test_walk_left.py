"""Whether a walking monster has a walk left is asked of its first step alone (the turn ends
by itself when nothing is left, MD-HOUSE-AUTO-END): the answer must be the one the whole
search for destinations, which the menu lists, gives."""

from __future__ import annotations

import random

from arbiter.core.bots import random_bot
from arbiter.core.match import Match
from arbiter.core.monster_derby import GAME
from arbiter.core.monster_derby.board import parse_space
from arbiter.core.monster_derby.rules import walk_destinations, walk_steps


def test_a_first_step_exists_exactly_when_a_walk_ends_somewhere():
    asked = with_steps = 0
    for seed in range(4):
        match = Match.new(GAME, seed=seed, seats=GAME.default_seats(3))
        rng = random.Random(seed)
        while match.outcome() is None and match.seq < 1_500:
            st = match.state
            for m in st.racing():
                for points in range(0, 7):
                    steps = walk_steps(st, m, points)
                    assert bool(walk_destinations(st, m, points)) == bool(steps), (seed, match.seq, m.id, points)
                    asked += 1
                    with_steps += bool(steps)
            seat = match.to_act().seats[0]
            match.apply(seat, GAME.command_text(random_bot(st, seat, match.legal(seat), rng)))
    assert asked > 1_000 and 0 < with_steps < asked  # both answers were seen


def test_a_space_parsed_from_the_cache_is_the_space_named():
    assert parse_space("12c") == (11, 2) and parse_space("12c") is parse_space("12c")
    assert parse_space("1a") == (0, 0) and parse_space("finish") is None and parse_space("12z") is None
