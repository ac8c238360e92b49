"""Golden playthroughs: recorded transcripts replay to their recorded final positions,
and disputed positions get the rulebook's answer through ``check``."""

from __future__ import annotations

import json
import pathlib

import pytest

from arbiter.core import transcript

GOLDEN = pathlib.Path(__file__).parent / "golden"


def summary(state) -> dict:
    return {
        "winner": state.winner,
        "round": state.round,
        "team": state.team,
        "chars": {c.id: [c.pos, c.health, c.xp, c.level, c.boosters, c.poofed, c.out]
                  for c in state.chars.values()},
        "objects": {o.id: [o.pos, o.damaged, o.gone] for o in state.objects.values()},
        "hand": len(state.hand),
        "deck": len(state.deck),
        "discard": list(state.discard),
    }


@pytest.mark.parametrize("name", sorted(p.stem for p in GOLDEN.glob("*.arb")))
def test_golden_transcript_replays_to_its_recorded_state(name):
    text = (GOLDEN / f"{name}.arb").read_text()
    result = transcript.check(text)
    assert result.ok, f"line {result.line}: {result.error}"
    expected = json.loads((GOLDEN / f"{name}.json").read_text())
    assert summary(result.match.state) == expected


def test_judo_throw_golden_matches_the_rulebook():
    result = transcript.check((GOLDEN / "judo-wall-chick.arb").read_text())
    s = result.match.state
    assert s.chars["matthew"].pos == "k4" and s.chars["matthew"].health == 33
    assert s.chars["chick1"].poofed


HEADER = """# arbiter transcript 1
game: scott-pilgrim
dice: manual
seed: 5
players: good, bad
option: placement=fixed
---
"""


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
      "bad: matthew fireballs ramona"], "SP-CHICK-MOVE"),
    # an Evil Ex who drew an item must throw it first
    (["bad: roll [speed will magic magic guts]", "bad: matthew move i4 h4 g4 f4 pay speed will",
      "bad: end"], "SP-EX-THROW"),
])
def test_disputed_positions_through_check(moves, rule):
    result = transcript.check(HEADER + "\n".join(moves) + "\n")
    assert not result.ok
    assert result.error.rule_id == rule, str(result.error)
    assert result.line == 7 + len(moves)
