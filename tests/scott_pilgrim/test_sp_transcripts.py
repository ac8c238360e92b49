"""Disputed positions get the rulebook's answer through ``check``, and a golden playthrough
ends where the rulebook's example does (the golden playthroughs themselves are replayed by
tests/test_golden.py)."""

from __future__ import annotations

import pathlib

import pytest

from arbiter.core import transcript

from sp_helpers import MANUAL_HEADER as HEADER

GOLDEN = pathlib.Path(__file__).parent / "golden"


def test_judo_throw_golden_matches_the_rulebook():
    result = transcript.check((GOLDEN / "judo-wall-chick.arb").read_text())
    s = result.match.state
    assert s.chars["matthew"].pos == "k4" and s.chars["matthew"].health == 33
    assert s.chars["chick1"].poofed


@pytest.mark.parametrize("moves,rule", [
    # punching while holding an object
    (["bad: roll [speed speed speed speed speed]", "bad: end",
      "good: roll [will will speed speed guts]", "good: scott move c6 pay speed",
      "good: scott grab amp", "good: scott punch amp"], "SP-HELD-AWKWARD"),
    # pushing a character into the wall: no squishing
    (["bad: roll [speed speed speed speed speed]", "bad: end",
      "good: roll [will will speed speed guts]", "good: knives move b7 b8 pay speed",
      "good: scott move b6 b7 b8 pay speed"], "SP-PUSH-SQUISH"),
    # the Bad Guys cannot act inside the Good Guys' reaction window
    (["bad: roll [speed will magic magic guts]", "bad: matthew move i4 h4 g4 pay speed",
      "bad: chick1 move j6 j5 j6", "bad: chick2 move j2 j3 j2", "bad: chick3 move k5 k4 k5",
      "bad: matthew fireballs ramona", "bad: end"], "ARB-TURN"),
    # the Chicks follow Matthew exactly as many spaces, before anything else
    (["bad: roll [speed will magic magic guts]", "bad: matthew move i4 h4 g4 pay speed",
      "bad: chick1 move i5"], "SP-CHICK-MOVE"),
    (["bad: roll [speed will magic magic guts]", "bad: matthew move i4 h4 g4 pay speed",
      "bad: matthew fireballs ramona"], "SP-HOUSE-CHICK-MOVE"),
    # an Evil Ex who drew an item must throw it first
    (["bad: roll [speed will magic magic guts]", "bad: matthew move i4 h4 g4 f4 pay speed will",
      "bad: end"], "SP-HOUSE-EX-THROW-AFTER"),
])
def test_disputed_positions_through_check(moves, rule):
    result = transcript.check(HEADER + "\n".join(moves) + "\n")
    assert not result.ok
    assert result.error.rule_id == rule, str(result.error)
    assert result.line == 7 + len(moves)
