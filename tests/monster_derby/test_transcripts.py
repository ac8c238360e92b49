"""A transcript's first illegal line is reported with the rule it breaks (the golden
playthroughs themselves are replayed by tests/test_golden.py)."""

from __future__ import annotations

from pathlib import Path

from arbiter.core import transcript

GOLDEN = Path(__file__).parent / "golden"


def test_an_illegal_line_is_reported_with_its_rule():
    text = (GOLDEN / "seeded-two-boards.arb").read_text().splitlines()
    body = text.index("---")
    lines = text[: body + 1] + [ln for ln in text[body + 1:] if ln.split(": ")[1].startswith("keep")]
    first = lines[-1].split(":")[0]
    lines.append(f"{first}: control golem")  # before rolling the movement die
    result = transcript.check("\n".join(lines) + "\n")
    assert not result.ok and result.line == len(lines)
    assert getattr(result.error, "rule_id", None) in ("MD-ROLL-FIRST", "ARB-TURN")
