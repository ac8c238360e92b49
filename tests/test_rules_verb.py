"""`arbiter rules GAME WORDS` when nothing matches: a sentence on stderr (with the index's
closest words), no empty table, exit 0; json still prints its empty array."""

from __future__ import annotations

import json

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
