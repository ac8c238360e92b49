"""A game names its characters, abilities, items and status cards by its own content: a content
file that renames them is said its way in its own log, and the built-in names stay in every
other game's, whichever the process loaded first (a server, a test run)."""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

from arbiter.cli.app import app
from arbiter.core.bots import autoplay
from arbiter.core.engine import Engine
from arbiter.core.funkoverse_jaws import GAME
from arbiter.core.match import Match

RENAMED = {"quint": "Captain Quint", "swimmer": "Night Swimmer", "tiger-shark": "Stripe"}


def played(content=None) -> Match:
    extra = {} if content is None else {"content": content, "content_source": "file:renamed.json"}
    m = Match.new(GAME, seed=3, seats=["ann", "bob"], **extra)
    autoplay(m, {}, random.Random(5), max_steps=40)
    return m


@pytest.fixture
def log_of(tmp_path, monkeypatch):
    monkeypatch.setenv("ARBITER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "400")
    eng = Engine(str(tmp_path / "fj.duckdb"))

    def log(m: Match) -> str:
        with eng.open() as store:
            gid = eng.store_match(store, m)
        out = CliRunner().invoke(app, ["--db", eng.path, "log", gid, "--as", "referee"])
        assert out.exit_code == 0, out.output
        return out.output
    return log


def test_renamed_characters_are_said_by_their_new_names_in_their_game_only(log_of):
    content = GAME.default_content()
    for cid, name in RENAMED.items():
        content["characters"][cid]["name"] = name
    builtin, custom = played(), played(content)  # the same commands: the same events
    assert [type(e) for _s, _c, e in builtin.items] == [type(e) for _s, _c, e in custom.items]
    before, theirs, after = log_of(builtin), log_of(custom), log_of(played())
    for cid, name in RENAMED.items():
        old = GAME.default_content()["characters"][cid]["name"]
        assert name in theirs and old not in theirs.replace(name, ""), cid
        assert old in before and old in after and name not in before + after, cid


def test_two_games_warm_in_one_process_each_keep_their_names(tmp_path):
    """A server holds games of both contents at once: a line of one is said in its names
    whichever game was loaded last."""
    from arbiter.core.explain import describe
    from arbiter.projections.kernel import REFEREE

    content = GAME.default_content()
    for cid, name in RENAMED.items():
        content["characters"][cid]["name"] = name
    eng = Engine(str(tmp_path / "fj.duckdb"))
    with eng.open() as store:
        custom_id = eng.store_match(store, played(content))
        builtin_id = eng.store_match(store, played())
    custom = eng.load(custom_id)
    builtin = eng.load(builtin_id)  # loaded after: what it knows must not rename the other
    theirs = "\n".join(describe(custom, e, REFEREE) for _s, _a, e in custom.log(REFEREE))
    ours = "\n".join(describe(builtin, e, REFEREE) for _s, _a, e in builtin.log(REFEREE))
    for cid, name in RENAMED.items():
        old = GAME.default_content()["characters"][cid]["name"]
        assert name in theirs and old not in theirs.replace(name, ""), cid
        assert old in ours and name not in ours, cid
