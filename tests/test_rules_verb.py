"""`arbiter rules GAME WORDS` when nothing matches: a sentence on stderr (with the index's
closest words), no empty table, exit 0; json still prints its empty array."""

from __future__ import annotations

import json

import pytest

from typer.testing import CliRunner

from arbiter.cli.app import app


def rules(*args: str):
    return CliRunner().invoke(app, ["rules", *args])


def test_no_match_says_so_and_suggests_close_words():
    out = rules("monster-derby", "zzzzqq")
    assert out.exit_code == 0
    assert "no rule of Monster Derby mentions 'zzzzqq'" in out.stderr
    assert out.stdout == ""  # no empty table
    typo = rules("monster-derby", "flyng")
    assert typo.exit_code == 0 and "close words: flying" in typo.stderr


def test_no_match_in_json_is_an_empty_array_and_a_match_is_a_table():
    out = rules("monster-derby", "flying", "zzzzqq", "-f", "json")
    assert out.exit_code == 0 and json.loads(out.stdout) == []
    assert "mentions 'zzzzqq'" in out.stderr
    found = rules("monster-derby", "flying")
    assert found.exit_code == 0 and "MD-FLY-MUST" in found.stdout and found.stderr == ""


def _games():
    from arbiter.core import registry

    return [registry.get(k) for k in sorted(registry.GAMES) if registry.GAMES[k].startswith("arbiter.")]


@pytest.mark.parametrize("game", _games(), ids=lambda g: g.id)
def test_every_games_options_table_says_which_options_are_house(game):
    """`rules GAME` lists each option as house or rulebook, as its rule entry is: a house
    option names a house entry of the index, a rulebook one a rulebook entry."""
    out = CliRunner().invoke(app, ["rules", game.id])
    assert out.exit_code == 0, out.output
    table = out.stdout[out.stdout.index("\noption"):] if game.options else ""
    for o in game.options:
        line = next(x for x in table.splitlines() if x.startswith(o.name + "\t"))
        assert ("house" if o.house else "rulebook") in line.split("\t"), line
        assert game.rules.get(o.rule).source == ("house" if o.house else "rulebook"), o.name
