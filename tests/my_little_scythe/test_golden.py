"""Golden playthroughs: recorded transcripts must replay to their recorded final state.

A change that alters them must be a deliberate rules change (re-record and explain why)."""

import json
from pathlib import Path

import pytest

from arbiter.core import transcript

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
    assert final_of(m) == want
    assert transcript.export(m) == text


def test_two_golden_games():
    assert len(NAMES) >= 2


def final_of(m) -> dict:
    o = m.outcome()
    return {"winners": list(o.winners), "reason": o.reason, "turn": m.state.turn,
            "trophies": {s: list(p.trophies) for s, p in m.state.players.items()},
            "friendship": {s: p.friendship for s, p in m.state.players.items()},
            "pies": {s: p.pies for s, p in m.state.players.items()}}


def record() -> None:
    """Re-record the golden games (only for a deliberate rules change):
    ``python -m tests.my_little_scythe.test_golden``."""
    import random

    from arbiter.core.bots import autoplay
    from arbiter.core.match import Match
    from arbiter.core.my_little_scythe import GAME

    for name, seats, seed, smart in (("two-player-smart", ["ann", "bob"], 21, True),
                                     ("three-player-random", ["ann", "bob", "cy"], 8, False)):
        m = Match.new(GAME, seed=seed, seats=seats)
        bots = {s: GAME.bots["smart"] for s in seats} if smart else {}
        autoplay(m, bots, random.Random(seed), max_steps=3000)
        (GOLDEN / f"{name}.txt").write_text(transcript.export(m))
        (GOLDEN / f"{name}.json").write_text(json.dumps(final_of(m), indent=1, sort_keys=True))


if __name__ == "__main__":
    record()
