"""The kernel's own log lines (a game's creation, a shuffle) read as words a player reads:
no option's snake_case name, no ``villain:bot1`` deck key."""

from __future__ import annotations

from player_text import leaks
from typer.testing import CliRunner

from arbiter.cli.app import app
from arbiter.core import registry
from arbiter.core.explain import describe
from arbiter.core.match import Match
from arbiter.events.base import GameCreated, Shuffled
from arbiter.projections.kernel import REFEREE


def lines(m: Match, kind: type) -> list[str]:
    return [describe(m, e) for _s, _a, e in m.log(REFEREE) if isinstance(e, kind)]


def test_the_creation_line_names_options_in_words():
    m = Match.new(registry.get("monster-derby"), seed=3, seats=["ann", "bob"], options={"graves_block": True})
    [created] = lines(m, GameCreated)
    assert "graves block on" in created and "graves_block" not in created
    assert "False" not in created and "True" not in created
    assert leaks([created]) == []


def test_a_seats_own_deck_is_shuffled_in_words():
    m = Match.new(registry.get("villainous"), seed=5, seats=["ann", "bob"])
    shuffles = lines(m, Shuffled)
    assert any(line.startswith("shuffled ann's villain deck (") for line in shuffles), shuffles
    assert not any(":" in line.split("(")[0] for line in shuffles)
    assert leaks(shuffles) == []


def test_a_deck_of_everyone_is_the_deck_in_words():
    m = Match.new(registry.get("my-little-scythe"), seed=1, seats=["ann", "bob"])
    assert any(line.startswith("shuffled the action tokens (") for line in lines(m, Shuffled))


def test_the_scan_catches_the_old_wording():
    assert len(leaks(["shuffled the villain:bot1 (30 cards) [draw 2]",
                      "game created: monster-derby, players a, b, seed 1, seeded dice, options graves_block=False"])) == 2
    assert leaks(["ann: keep agenda", "at 12:30"]) == []


def test_the_log_verb_prints_them(tmp_path):
    db = str(tmp_path / "w.duckdb")
    run = CliRunner()
    made = run.invoke(app, ["--db", db, "new", "villainous", "-p", "ann,bob", "--seed", "5"])
    assert made.exit_code == 0, made.output
    gid = made.output.split()[0]
    shown = run.invoke(app, ["--db", db, "log", gid, "--as", "referee"])
    assert shown.exit_code == 0, shown.output
    assert "shuffled ann's villain deck" in shown.output and "villain:ann" not in shown.output


def test_a_roll_names_each_die_once_for_a_run_of_the_same_die():
    """Funkoverse's log read "funkoverse star, funkoverse crit, funkoverse star": a run of
    the same die is named once; a single die, or a roll of different single dice, reads as
    before ("move 4", "d6 5")."""
    from arbiter.events.base import DiceRolled
    from arbiter.projections.kernel import describe_kernel

    def said(dice, faces, **kw):
        return describe_kernel(DiceRolled(n=3, dice=tuple(dice), faces=tuple(faces), **kw))

    assert said(["funkoverse"] * 3, ["star", "crit", "star"], purpose="shark challenges") == \
        "rolled for shark challenges: funkoverse dice star, crit, star [draw 3]"
    assert said(["attack"] * 3 + ["wacky"], ["1", "0", "1", "sword"]) == "rolled: attack dice 1, 0, 1; wacky sword [draw 3]"
    assert said(["move"], ["4"], manual=True) == "rolled: move 4 (physical dice)"
    assert said(["d6", "d8"], ["2", "7"]) == "rolled: d6 2, d8 7 [draw 3]"
