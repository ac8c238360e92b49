"""House content is shown as house where a player sees it (show, play): the map layout and the
ability tokens the dots give."""

from arbiter.cli.render.funkoverse_jaws import render
from arbiter.core.funkoverse_jaws import GAME
from arbiter.core.match import Match


def test_the_board_names_the_house_pieces_in_play():
    m = Match.new(GAME, seed=1, seats=["ann", "bob"])
    text = render(m.view("ann"), "ann")
    assert "(house layout)" in text.splitlines()[0]
    # the side panel may break the note across lines (80 columns), never losing a letter
    panel = " ".join(line[38:].strip() for line in text.splitlines()[1:20])  # beside the map
    assert "house: tokens from the dots" in " ".join(panel.split())
    assert any(x.startswith("house (rules.toml, HOUSE.md):") and "layout" in x for x in text.splitlines())
