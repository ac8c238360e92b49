"""Every gap games.md names in the Monster Derby rulebook is settled by a named house rule or
option that `arbiter rules monster-derby` shows as house, found by a player searching for it,
and every option defaults to the rulebook's own reading where the rulebook has one."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from arbiter.cli.app import app
from arbiter.core.match import Match
from arbiter.core.monster_derby import GAME


def rules(*args: str) -> list[dict[str, str]]:
    out = CliRunner().invoke(app, ["rules", "monster-derby", *args, "-f", "json"])
    assert out.exit_code == 0, out.output
    return json.loads(out.stdout)


# games.md, "Gaps" for monster-derby: what a player would search for, and the entry that settles it
GAPS = [
    (["monster", "cards"], "MD-HOUSE-CONTENT"),       # the 25 monster cards
    (["boards", "sides"], "MD-HOUSE-LAYOUT"),         # the board layouts
    (["lanes"], "MD-HOUSE-LANES"),                    # the lane width
    (["agendas", "points"], "MD-HOUSE-CONTENT"),      # the agenda cards' points
    (["wacky", "faces"], "MD-HOUSE-WACKY"),           # the wacky die's face counts
    (["players"], "MD-HOUSE-PLAYERS"),                # the player count
    (["cursed", "name"], "MD-HOUSE-CURSE-NAME"),      # the name of the cursing ability (the sentence is cut)
    (["cyclops", "path"], "MD-HOUSE-PATH"),           # is path terrain a monster "native to all" is native to?
    (["call", "once"], "MD-HOUSE-CALL-ONCE"),         # how often a monster may Call
    (["defective"], "MD-HOUSE-SHARED-WIN"),           # players tied after the second place monsters
]


@pytest.mark.parametrize("words, rule", GAPS)
def test_each_gap_is_a_house_rule_a_player_finds(words, rule):
    found = {r["id"]: r for r in rules(*words)}
    assert rule in found, (words, sorted(found))
    assert found[rule]["source"] == "house"


def test_a_new_game_records_every_option_at_its_default():
    m = Match.new(GAME, seed=1, seats=["ann", "bob"])
    assert m.created.options == {o.name: o.default for o in GAME.options}
    # the rulebook's own numbers: "Line up four more boards", "up to 3 spaces away"
    assert m.created.options["boards"] == 4 and m.created.options["call_range"] == 3
