"""Disputed positions reached from the start of a real game (transcripts with physical dice),
then asked the way `arbiter try` asks: would this be legal here, and under which rule?"""

import os

import pytest

from core import transcript
from core.errors import RuleViolation
from events import funkoverse_jaws as E

HERE = os.path.join(os.path.dirname(__file__), "disputes")


def load(name, upto=None):
    with open(os.path.join(HERE, name)) as f:
        lines = f.read().splitlines()
    if upto is not None:
        body = lines.index("---") + 1
        kept = [ln for ln in lines[body:] if ln.split("#")[0].strip()][:upto]
        lines = lines[:body] + kept
    result = transcript.check("\n".join(lines) + "\n")
    assert result.ok, f"line {result.line}: {result.error}"
    return result.match


def would(m, seat, text):
    """Like `arbiter try`: decide without changing anything; the rule id if illegal."""
    try:
        m.decide(seat, text)
    except RuleViolation as exc:
        return exc.rule_id
    return "legal"


def test_the_shark_challenged_while_submerged_is_knocked_out_and_quint_wins():
    m = load("shark-submerged.arb")
    res = [e for *_x, e in m.items if isinstance(e, E.ChallengeResolved)][-1]
    assert res.target == "shark" and res.won and res.result == "knocked-out"
    assert res.challenger_successes == 2 and res.defender_successes == 0
    out = m.outcome()
    assert out is not None and out.winners == ("ann",)


def test_positions_along_the_way():
    from core.funkoverse_jaws import rules as R
    from core.funkoverse_jaws.geometry import parse_square

    m = load("shark-submerged.arb", upto=10)  # the Shark swam to g4, diagonal to Quint on f3
    s = m.state
    assert s.chars["shark"].square == "g4" and s.chars["shark"].emerged is False
    # the Orca's post on the corner of f3/g3/f4/g4 blocks the diagonal: not adjacent
    assert not R.adjacent(s, "dark", parse_square("g4"), parse_square("f3"))
    assert would(m, "bob", "challenge quint") == "FJ-SUBMERGED"
    assert would(m, "bob", "move f3") == "FJ-MOVE-6"
    assert would(m, "bob", "move f4") == "legal"
    m3 = load("shark-submerged.arb", upto=18)  # round 2, Quint chosen next to the submerged Shark
    assert m3.state.round == 2 and m3.state.first == "dark"
    assert would(m3, "ann", "challenge shark [star star circle circle circle circle]") == "legal"
    m3.apply("ann", "move g4")  # never diagonally across the post's corner: round by f4
    assert [e for *_x, e in m3.items if isinstance(e, E.CharacterMoved)][-1].path == ("f4", "g4")


def test_submerged_shark_may_not_challenge_back_until_it_emerges():
    m = load("shark-submerged.arb", upto=15)  # round 2 begins with bob, who holds the marker now
    m.apply("bob", "choose shark")
    assert would(m, "bob", "challenge quint") == "FJ-SUBMERGED"
    assert would(m, "bob", "jaws quint") == "FJ-SUBMERGED"
    m.apply("bob", "emerge")
    assert would(m, "bob", "challenge quint [star star circle circle]") == "legal"
