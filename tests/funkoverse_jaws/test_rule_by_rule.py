"""The rulebook rule by rule, at the positions where players would argue; each test quotes
the sentence that decides it (``shared/rulebooks/funkoverse-jaws.txt``)."""

from __future__ import annotations

import pytest

from arbiter.core.errors import RuleViolation
from arbiter.events import funkoverse_jaws as E
from fjhelp import acting

FAR = {"swimmer": "h1", "shark": "h8"}


def test_one_character_may_knock_a_rival_down_and_out_with_two_basic_challenges():
    """Taking a Turn: "Do up to two actions with your chosen character ... a character may do
    the same action twice"; Knocked Out: "If a character that is knocked down is challenged
    and loses, it is knocked out"."""
    m = acting({"quint": "a1", "tiger-shark": "b1", **FAR}, "quint", dice="manual")
    m.apply(None, "challenge tiger-shark [star star star circle]")
    assert not m.state.chars["tiger-shark"].standing
    m.apply(None, "challenge tiger-shark [star star star circle]")
    assert m.state.chars["tiger-shark"].square is None
    assert m.outcome() is not None and m.outcome().winners == ("ann",)


def test_a_point_marker_may_be_taken_from_its_own_square():
    """Point Markers: "When a character is adjacent to a point marker on the map or in its
    square, the character may do the interact action"; Markers: "characters can occupy the
    same squares as markers"."""
    m = acting({"quint": "a1", "swimmer": "b1", "shark": "h8", "tiger-shark": "g8"}, "quint", mode="control",
               point_markers={"A": "a3", "B": "h5", "C": "h6", "D": "h7"})
    m.apply(None, "move a2 a3")
    assert m.state.chars["quint"].square == "a3"
    m.apply(None, "interact A")
    assert m.state.sides["light"].points == 1


def test_a_barrel_shortens_a_special_move_too():
    """Barrel: "All of this character's moves are reduced by 1" - Swim's "Move 3" as well
    as a basic move."""
    m = acting({"shark": "d4", "quint": "a1", "swimmer": "h1", "tiger-shark": "h8"}, "shark",
               statuses={"shark": ["barrel-light"]})
    with pytest.raises(RuleViolation) as e:
        m.apply(None, "swim d5 d6 d7")
    assert e.value.rule_id == "FJ-MOVE-RANGE" and "only 2 squares now" in str(e.value)
    m.apply(None, "swim d5 d6")
    assert m.state.chars["shark"].square == "d6"


def test_farewell_and_adieu_needs_a_hunted_rival_on_the_map():
    """Abilities That Are Challenge Actions: "If there is no possible target, you cannot do a
    challenge action" - Farewell and Adieu moves "toward the rival with the Hunted status
    card"; with no Hunted rival it is refused, and not offered."""
    m = acting({"quint": "a1", "tiger-shark": "c3", **FAR}, "quint")
    with pytest.raises(RuleViolation) as e:
        m.apply(None, "farewell-and-adieu b2")
    assert e.value.rule_id == "FJ-HUNTED-TARGET"
    assert not any(t.startswith("farewell") for t in m.legal_texts("ann"))


def test_a_knocked_down_character_only_rallies():
    """Knocked Down: "A character that is knocked down cannot use actions, but can rally"."""
    m = acting({"quint": "a1", "tiger-shark": "h3", **FAR}, "quint", down=("quint",))
    for text in ("move a2", "interact A", "can-crusher tiger-shark"):
        with pytest.raises(RuleViolation) as e:
            m.apply(None, text)
        assert e.value.rule_id in ("FJ-KNOCKED-DOWN", "FJ-INTERACT-FIRST-GAME"), text
        if text.startswith("can-crusher"):
            assert "Quint is knocked down: it cannot do Can Crusher, only rally" in str(e.value)
    m.apply(None, "rally")
    assert any(isinstance(e, E.StoodUp) for e in (ev for _s, _a, ev in m.log(None)))


@pytest.mark.parametrize("bot", [[], ["--bot", "random"]], ids=["own-bot", "random"])
def test_simulate_with_the_default_bot_ends_every_first_game_by_a_knock_out(tmp_path, bot):
    """Winning Your First Game: "play until one player has knocked out one of their rivals"
    - simulate with the default (the game's own) bot or random ones, and no round limit,
    ends each game so."""
    from typer.testing import CliRunner

    from arbiter.cli.app import app
    db = str(tmp_path / "s.duckdb")
    run = CliRunner()
    out = run.invoke(app, ["--db", db, "simulate", "funkoverse-jaws", "--games", "4", *bot])
    assert out.exit_code == 0 and "unfinished 0" in out.output and "step cap 5000" in out.output, out.output
    rows = run.invoke(app, ["--db", db, "query", "-f", "csv",
                            "select type, payload->>'$.reason' as reason from events"
                            " where type in ('GameWon', 'GameDrawn')"]).output.strip().splitlines()[1:]
    assert len(rows) == 4 and all(r.startswith("GameWon") and "knocked out" in r for r in rows)
