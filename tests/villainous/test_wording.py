"""What a player reads (the log, the prompts, the board, the refusals) is in the rulebook's
words: no identifier of the code (``play_ally``) and no Python repr."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from arbiter.cli.app import app
from arbiter.cli.render.villainous import render
from arbiter.core.match import Match
from arbiter.core.villainous import GAME
from player_text import leaks, played_text

PROBES = ("end", "vanquish embo with hired gun", "fate ann", "play embo at coruscant", "hunt jedi",
          "move bilzen", "p", "choose nothing", "discard embo", "activate tracking fob")


@pytest.mark.parametrize("seats,seed", [(2, 3), (3, 4)])
def test_a_played_game_shows_no_identifier_nor_repr(seats, seed):
    names = ["ann", "bob", "cy"][:seats]
    m = Match.new(GAME, seed=seed, seats=names)
    text = played_text(m, {s: GAME.bots["smart"] for s in names}, render, seed=seed, probes=PROBES)
    assert any("may play a Condition" in line for line in text)  # the windows were read
    assert leaks(text, allowed=[o.name for o in GAME.options]) == []


def test_the_scan_catches_what_it_is_for():
    assert len(leaks(["bob may play a Condition (play_ally by ann)", "scores {'ann': 3}",
                      "cards ['a', 'b']", "('x', 'y')", '{"ann": 3}'])) == 5
    assert leaks(["bob chooses Embo", "ann's sector: Coruscant", "cb-embo-1 (house)",
                  "option hunt_turns=any"], allowed=["hunt_turns"]) == []


def test_the_play_menu_names_the_cards_and_labels_house_ones(tmp_path):
    """games.md's policy: house content is labelled house where a player sees it, the menus
    of play included; choosing the entry by number still gives the plain command."""
    db = str(tmp_path / "s.duckdb")
    run = CliRunner()
    out = run.invoke(app, ["--db", db, "new", "villainous", "-p", "ann,bob", "--seed", "5"])
    gid = next(w for w in out.output.split() if w.startswith("sv-")).split(":")[0]
    for text in ("move bora-vio", "collect"):
        assert run.invoke(app, ["--db", db, "do", gid, "--as", "ann", *text.split()]).exit_code == 0
    shown = run.invoke(app, ["--db", db, "play", gid], input="quit\n", env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    entry = next(line for line in shown.output.splitlines() if "play cb-tracking-fob-1 at coruscant" in line)
    assert entry.rstrip().endswith("play cb-tracking-fob-1 at coruscant  (Tracking Fob, house)")
    number = entry.split()[0]
    chosen = run.invoke(app, ["--db", db, "play", gid], input=f"{number}\nquit\n", env={"COLUMNS": "200"})
    assert chosen.exit_code == 0, chosen.output
    log = run.invoke(app, ["--db", db, "log", gid]).output
    assert "ann plays cb-tracking-fob-1 at coruscant" in log
