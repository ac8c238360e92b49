"""The command grammar the five games' parsers share (arbiter.core.grammar), through the
games' own parsers: an empty command, a verb given too few or too many words, a misspelt
verb, each refused as bad input with the game's hint."""

from __future__ import annotations

import pytest

from arbiter.core import registry
from arbiter.core.errors import ParseError
from arbiter.core.grammar import closest, command_words, takes
from arbiter.core.match import Match

KINDS = ["monster-derby", "funkoverse-jaws", "scott-pilgrim", "my-little-scythe", "villainous"]

@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("text", ["", "   ", "\t\n"])
def test_every_game_refuses_an_empty_command_with_its_hint(kind, text):
    game = registry.get(kind)
    m = Match.new(game, seed=1, seats=list(game.default_seats(game.min_seats)))
    seat = m.to_act().seats[0]
    # a Match refuses an empty command before it asks the game: ask the game's parser itself
    with pytest.raises(ParseError, match="empty command") as exc:
        game.parse(m.state, seat, text)
    assert exc.value.hint

def test_a_verb_takes_its_count_of_words():
    takes("roll", [], 0, hint="roll")
    takes("move", ["a1"], 1, 2, hint="move SQUARE [SQUARE]")
    with pytest.raises(ParseError, match="^roll takes 0 arguments\n"):
        takes("roll", ["now"], 0, hint="roll", noun="argument")
    with pytest.raises(ParseError, match="move takes 1 to 2 words"):
        takes("move", ["a1", "b1", "c1"], 1, 2, hint="move SQUARE [SQUARE]")
    with pytest.raises(ParseError, match="attack takes 1 word\n"):
        takes("attack", [], 1, hint="attack MONSTER")

def test_monster_derby_and_funkoverse_say_so_through_their_parsers():
    md = Match.new(registry.get("monster-derby"), seed=1, seats=["ann", "bob"])
    with pytest.raises(ParseError, match="roll takes 0 arguments"):
        md.decide(md.to_act().seats[0], "roll 3")

def test_the_closest_word_and_the_words():
    assert closest("chalenge", ["challenge", "rally"]) == "challenge"
    assert closest("xyzzy", ["challenge", "rally"]) is None
    assert command_words("  Move  A1 ", "h", lower=True) == ["move", "a1"]
    assert command_words("Keep X", "h") == ["Keep", "X"]
