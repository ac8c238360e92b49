"""What a player reads (the log, the prompts, the board, the refusals) is in the rulebook's
words: no identifier of the code and no Python repr."""

from __future__ import annotations

import pytest

from arbiter.cli.render.funkoverse_jaws import render
from arbiter.core.funkoverse_jaws import GAME
from arbiter.core.match import Match
from fjhelp import acting
from player_text import leaks, played_text

PROBES = ("end", "move a1", "move z9", "challenge quint", "jaws swimmer", "assist shark", "rally",
          "emerge", "interact A", "interact flip 2", "swim a1 b1 c1 d1 e1", "place shark a1",
          "choose tiger-shark", "hunt quint", "return quint", "put a1", "blood a1", "chalenge shark")


@pytest.mark.parametrize("mode,seed", [("first-game", 3), ("control", 4), ("flags", 5)])
def test_a_played_game_shows_no_identifier_nor_repr(mode, seed):
    m = Match.new(GAME, seed=seed, seats=["ann", "bob"], options={"mode": mode})
    text = played_text(m, {s: GAME.bots["smart"] for s in ("ann", "bob")}, render, seed=seed, probes=PROBES)
    assert leaks(text, allowed=[o.name for o in GAME.options]) == []


def test_the_play_menu_labels_an_ability_whose_tokens_are_house():
    """Quint's ability dots are house content (HOUSE.md): play's menu says so on the entries
    that spend them; a rulebook ability (the Shark's) and a basic action carry no note."""
    m = acting({"quint": "a1", "tiger-shark": "c3", "swimmer": "h1", "shark": "h8"}, "quint")
    labels = [GAME.menu_label(m.view("ann"), "ann", t) for t in m.legal_texts("ann")]
    assert "can-crusher tiger-shark  (Can Crusher: house ability tokens)" in labels
    assert all("house" not in x for x in labels if x.split()[0] in ("move", "challenge", "end"))
    shark = acting({"quint": "a1", "tiger-shark": "c3", "swimmer": "h1", "shark": "h8"}, "shark")
    seat = shark.to_act().seats[0]
    assert not any("house" in GAME.menu_label(shark.view(seat), seat, t) for t in shark.legal_texts(seat))


def test_placing_the_other_sides_character_says_whose_it_is(tmp_path, monkeypatch):
    """bob (the dark side) typing `place quint h8` is told Quint is the light side's, with
    the rule that each side places its own, not that Quint "is not waiting"."""
    from typer.testing import CliRunner

    from arbiter.cli.app import app

    monkeypatch.setenv("ARBITER_DB", str(tmp_path / "fj.duckdb"))
    monkeypatch.setenv("ARBITER_HOME", str(tmp_path / "home"))
    cli = CliRunner()
    gid = cli.invoke(app, ["new", "funkoverse-jaws", "-p", "ann,bob", "--seed", "2"]).stdout.strip().splitlines()[-1]
    out = cli.invoke(app, ["do", gid, "place quint h8", "--as", "bob"])
    assert out.exit_code == 1
    said = " ".join(out.stderr.split())
    assert "Quint is the light side's character (ann's): each side places only its own" in said
    assert "the dark side places The Shark or Tiger Shark (e.g. `place shark SQUARE`)" in said
    assert "FJ-PLACE-WHO" in said and "not waiting" not in said
