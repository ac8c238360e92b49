"""Every gap games.md names in the Villainous rulebook is settled by a named house rule or
option that `arbiter rules villainous` shows as house and a player finds by searching; the
options default to the rulebook's own reading."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from arbiter.cli.app import app
from arbiter.core.match import Match
from arbiter.core.villainous import GAME


def rules(*args: str) -> list[dict[str, str]]:
    out = CliRunner().invoke(app, ["rules", "villainous", *args, "-f", "json"])
    assert out.exit_code == 0, out.output
    return json.loads(out.stdout)


# games.md, "Gaps" for villainous: what a player would search for, and the entry that settles it
GAPS = [
    (["card", "lists"], "SV-HOUSE-CARDS"),       # almost every card
    (["location", "symbols"], "SV-HOUSE-CARDS"),  # every location's action symbols
    (["target"], "SV-HOUSE-TARGETS"),            # the Villain Guide's special rules: Targets
    (["rebel"], "SV-HOUSE-REBELS"),              # ... and Rebels
    (["sectors"], "SV-HOUSE-SECTORS"),           # "5 Sectors", corrected to 3
]


@pytest.mark.parametrize("words, rule", GAPS)
def test_each_gap_is_a_house_rule_a_player_finds(words, rule):
    found = {r["id"]: r for r in rules(*words)}
    assert rule in found, (words, sorted(found))
    assert found[rule]["source"] == "house"


def test_rulebook_defaults_everywhere():
    """No house limit is on unless asked for: the game ends only by an Objective, Hunts
    are unlimited, and a card's defeat counts as a vanquish (the rulebook's words)."""
    m = Match.new(GAME, seed=1, seats=["ann", "bob"])
    opts = m.created.options
    assert opts == {o.name: o.default for o in GAME.options}
    assert opts["round_limit"] == 0 and opts["hunts_per_turn"] == 0
    assert opts["card_defeat_is_vanquish"] is True and opts["hunt_turns"] == "own"
    assert opts["sectors"] == 3
