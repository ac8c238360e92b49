"""Golden playthroughs: recorded transcripts replay to their recorded final state."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arbiter.core import transcript

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("name", ["seeded-two-boards", "manual-dice-one-board"])
def test_golden_transcript_replays_to_its_final_state(name):
    result = transcript.check((GOLDEN / f"{name}.arb").read_text())
    assert result.ok, (result.line, result.text, result.error)
    m = result.match
    out = m.outcome()
    got = {"winners": list(out.winners), "scores": out.scores, "reason": out.reason,
           "finishes": list(m.state.finishes), "graves": m.state.graves, "round": m.state.round}
    assert got == json.loads((GOLDEN / f"{name}.json").read_text())
    assert transcript.export(m) == (GOLDEN / f"{name}.arb").read_text()


def test_an_illegal_line_is_reported_with_its_rule():
    text = (GOLDEN / "seeded-two-boards.arb").read_text().splitlines()
    body = text.index("---")
    lines = text[: body + 1] + [ln for ln in text[body + 1:] if ln.split(": ")[1].startswith("keep")]
    first = lines[-1].split(":")[0]
    lines.append(f"{first}: control golem")  # before rolling the movement die
    result = transcript.check("\n".join(lines) + "\n")
    assert not result.ok and result.line == len(lines)
    assert getattr(result.error, "rule_id", None) in ("MD-ROLL-FIRST", "ARB-TURN")
