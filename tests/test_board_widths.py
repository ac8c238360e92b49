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


def positions(kind):
    """(match, viewer) at every seventh move of bot games with the fewest and most seats."""
    game = registry.get(kind)
    for seats in sorted({game.min_seats, min(game.max_seats, 4)}):
        match = Match.new(game, seed=seats, seats=[f"seat{i + 1}" for i in range(seats)])
        bot = botlib.get_bot(game, "random")
        rng = random.Random(seats)
        for step in range(300):
            if match.outcome() is not None:
                break
            if step % 7 == 0:
                for viewer in (*match.seats, REFEREE, None):
                    yield match, viewer
            botlib.bot_step(match, {s: bot for s in match.seats}, rng)
        yield match, REFEREE


@pytest.mark.parametrize("kind", GAMES)
def test_every_board_fits_80_columns(kind):
    draw = renderer(kind)
    for match, viewer in positions(kind):
        for line in on_screen(draw(match.view(viewer), viewer)):
            assert cell_len(line.rstrip()) <= 80, f"{kind} {viewer}: {line}"


def test_fit_wraps_prose_under_its_indent_and_ignores_markup():
    line = "   " + " ".join(["[bold]word[/bold]"] * 30)
    out = fit(line).splitlines()
    assert all(len(on_screen(x)[0]) <= 80 for x in out)
    assert out[0].startswith("   [bold]word") and out[1].startswith("     [bold]word")
    assert fit("short line\n" + "x" * 90) == "short line\n" + "x" * 90  # one word: left whole


@pytest.mark.parametrize("kind", GAMES)
def test_every_compact_board_fits_an_80x24_terminal(kind):
    from arbiter.cli.render import COMPACT_HEIGHT, compact_renderer

    draw = compact_renderer(kind)
    assert COMPACT_HEIGHT <= 24 - 4  # whose turn, a line of menu, the prompt: on screen too
    for match, viewer in positions(kind):
        lines = on_screen(draw(match.view(viewer), viewer))
        assert len(lines) <= COMPACT_HEIGHT, f"{kind} as {viewer}: {len(lines)} lines"
        assert all(cell_len(line.rstrip()) <= 80 for line in lines), f"{kind} as {viewer}"


@pytest.mark.parametrize("kind", ["villainous", "my-little-scythe", "monster-derby"])
def test_a_compact_board_keeps_the_viewers_own_secret(kind):
    """The short layout still shows the seat what only it knows (its hand, agenda, spells)."""
    from arbiter.cli.render import compact_renderer

    draw = compact_renderer(kind)
    game = registry.get(kind)
    match = Match.new(game, seed=4, seats=["ann", "bob"])
    rng = random.Random(4)
    for _ in range(6):
        botlib.bot_step(match, {}, rng)
    hidden = match.game.projection.hidden_from(match.state, "bob")
    text = " ".join(on_screen(draw(match.view("ann"), "ann"))).lower()
    assert hidden, "nothing is hidden from bob: this proves nothing"
    mine = [t for t in hidden if t.split(":", 1)[-1].lower() in text]
    assert mine, f"ann's compact board shows none of her secrets {sorted(hidden)[:5]}"
