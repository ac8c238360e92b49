"""Every board fits a terminal's 80 columns: real positions of every game (bot games from
several seeds, each seat's view and the referee's), measured as rich draws them."""

from __future__ import annotations

import io
import random

import pytest
from rich.cells import cell_len
from rich.console import Console

from arbiter.cli.render import fit, renderer
from arbiter.core import bots as botlib
from arbiter.core import registry
from arbiter.core.match import Match
from arbiter.projections.kernel import REFEREE

GAMES = ["monster-derby", "scott-pilgrim", "funkoverse-jaws", "my-little-scythe", "villainous"]


def on_screen(markup: str) -> list[str]:
    console = Console(file=io.StringIO(), width=400, no_color=True, highlight=False, soft_wrap=True)
    console.print(markup)
    return console.file.getvalue().splitlines()


@pytest.mark.parametrize("kind", GAMES)
def test_every_board_fits_80_columns(kind):
    game = registry.get(kind)
    draw = renderer(kind)
    for seats in sorted({game.min_seats, min(game.max_seats, 4)}):
        match = Match.new(game, seed=seats, seats=[f"seat{i + 1}" for i in range(seats)])
        bot = botlib.get_bot(game, "random")
        rng = random.Random(seats)
        for step in range(300):
            if match.outcome() is not None:
                break
            if step % 7 == 0:
                for viewer in (*match.seats, REFEREE, None):
                    for line in on_screen(draw(match.view(viewer), viewer)):
                        assert cell_len(line.rstrip()) <= 80, f"{kind} {viewer}: {line}"
            botlib.bot_step(match, {s: bot for s in match.seats}, rng)
        for line in on_screen(draw(match.state, REFEREE)):
            assert cell_len(line.rstrip()) <= 80, f"{kind} at the end: {line}"


def test_fit_wraps_prose_under_its_indent_and_ignores_markup():
    line = "   " + " ".join(["[bold]word[/bold]"] * 30)
    out = fit(line).splitlines()
    assert all(len(on_screen(x)[0]) <= 80 for x in out)
    assert out[0].startswith("   [bold]word") and out[1].startswith("     [bold]word")
    assert fit("short line\n" + "x" * 90) == "short line\n" + "x" * 90  # one word: left whole
