"""Golden playthroughs: recorded transcripts must replay to their recorded final state.

A change that alters them must be a deliberate rules change (re-record and explain why)."""

import json
from pathlib import Path

import pytest

from core import transcript

GOLDEN = Path(__file__).parent / "golden"
NAMES = sorted(p.stem for p in GOLDEN.glob("*.txt"))


@pytest.mark.parametrize("name", NAMES)
def test_golden_transcript_replays_to_its_recorded_end(name):
    text = (GOLDEN / f"{name}.txt").read_text()
    want = json.loads((GOLDEN / f"{name}.json").read_text())
    result = transcript.check(text)
    assert result.ok, f"line {result.line}: {result.error}"
    m = result.match
    o = m.outcome()
    assert o is not None
    got = {"winners": list(o.winners), "reason": o.reason, "turn": m.state.turn,
           "trophies": {s: list(p.trophies) for s, p in m.state.players.items()},
           "friendship": {s: p.friendship for s, p in m.state.players.items()},
           "pies": {s: p.pies for s, p in m.state.players.items()}}
    assert got == want
    assert transcript.export(m) == text


def test_two_golden_games():
    assert len(NAMES) >= 2
