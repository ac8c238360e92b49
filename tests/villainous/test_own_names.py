"""A game names its cards, locations and Villains by its own content: a content file that gives
built-in ids other names is said its way in its log, refusals and choices, even in a process
that has loaded the built-in content (a server, a test run) and the other way round."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from arbiter.cli.app import app
from arbiter.core.bots import autoplay
from arbiter.core.engine import Engine
from arbiter.core.match import Match
from arbiter.core.villainous import GAME
from arbiter.events.villainous import ChoiceMade


def renamed() -> tuple[dict, dict[str, tuple[str, str]]]:
    """The built-in content with every Villain, location and card named in capitals; and
    id -> (built-in name, new name) for the names that change."""
    content = GAME.default_content()
    changed = {}
    for key, villain in content["villains"].items():
        items = [villain, *villain["locations"], *villain["villain_deck"], *villain["fate_deck"]]
        for item in items:
            old = item["name"]
            if old != old.upper():
                item["name"] = old.upper()
                changed[item.get("id", key)] = (old, old.upper())
    return content, changed


@pytest.fixture
def cli(tmp_path, monkeypatch):
    db = str(tmp_path / "names.duckdb")
    monkeypatch.setenv("ARBITER_DB", db)
    monkeypatch.setenv("ARBITER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "400")
    runner = CliRunner()

    def run(*args: str, code: int = 0) -> str:
        out = runner.invoke(app, list(args))
        assert out.exit_code == code, out.output
        return out.output
    run.db = db  # type: ignore[attr-defined]
    return run


def test_a_renamed_card_is_said_by_its_new_name_in_its_game_and_the_old_one_in_the_others(cli, tmp_path):
    content, changed = renamed()
    path = tmp_path / "renamed.json"
    path.write_text(json.dumps(content))
    builtin = cli("new", "villainous", "--seed", "3", "-p", "ann,bob").split()[0]
    assert "ann draws 4 cards: Twin Blasters, Hired Gun" in cli("log", builtin, "--as", "referee")
    custom = cli("new", "villainous", "--seed", "3", "-p", "ann,bob", "--content", str(path)).split()[0]
    log = cli("log", custom, "--as", "referee")
    assert "ann plays CAD BANE" in log and "ann draws 4 cards: TWIN BLASTERS, HIRED GUN" in log
    assert "Twin Blasters" not in log and "Cad Bane" not in log
    # the built-in game, read after the renamed content was loaded, keeps the printed names
    again = cli("log", builtin, "--as", "referee")
    assert "Twin Blasters" in again and "TWIN BLASTERS" not in again and "ann plays Cad Bane" in again
    # what the move and the refusal say
    assert "ann moves the mover to CORUSCANT" in cli("do", custom, "--as", "ann", "move", "coruscant")
    refused = cli("do", custom, "--as", "ann", "play", "cb-twin-blasters-1", code=1)
    assert "TWIN BLASTERS must be attached to an Ally" in refused
    refused = cli("do", custom, "--as", "ann", "play", "cb-hired-gun-2", "at", "coruscant", code=1)
    assert "you have no HIRED GUN in your hand" in refused


def test_choices_in_a_renamed_game_use_its_names(cli, tmp_path):
    content, changed = renamed()
    Match.new(GAME, seed=4, seats=["ann", "bob"])  # the built-in content is known to the process
    m = Match.new(GAME, seed=4, seats=["ann", "bob"], content=content, content_source="file:renamed.json")
    rng = random.Random(4)
    bots = {s: GAME.bots["smart"] for s in m.seats}
    while m.outcome() is None and not any(isinstance(e, ChoiceMade) for _s, _c, e in m.items):
        autoplay(m, bots, rng, max_steps=1)
    eng = Engine(cli.db)
    with eng.open() as store:
        gid = eng.store_match(store, m)
    lines = cli("log", gid, "--as", "referee").splitlines()
    text = "\n".join(lines)
    choices = [ln for ln in lines if "ChoiceOpened" in ln or "ChoiceMade" in ln]
    assert choices
    olds = {old for old, _new in changed.values()}
    for line in choices:
        assert not any(old in line for old in olds), line
    assert any(new in line for line in choices for _old, new in changed.values()), choices
    assert not any(old in text for old in olds if len(old) > 3), [o for o in olds if o in text]


def test_two_games_warm_in_one_process_each_keep_their_names(tmp_path):
    """A server holds games of both contents at once, loaded in either order."""
    from arbiter.core.explain import describe
    from arbiter.projections.kernel import REFEREE

    content, changed = renamed()
    eng = Engine(str(tmp_path / "sv.duckdb"))
    custom_id, _m, _r = eng.new("villainous", seats=["ann", "bob"], seed=3, content=content,
                                content_source="file:renamed.json")
    builtin_id, _m, _r = eng.new("villainous", seats=["ann", "bob"], seed=3)
    for order in ((custom_id, builtin_id), (builtin_id, custom_id)):
        games = {gid: Engine(eng.path).load(gid) for gid in order}
        said = {gid: "\n".join(describe(m, e, REFEREE) for _s, _a, e in m.log(REFEREE)) for gid, m in games.items()}
        assert "TWIN BLASTERS" in said[custom_id] and "Twin Blasters" not in said[custom_id]
        assert "Twin Blasters" in said[builtin_id] and "TWIN BLASTERS" not in said[builtin_id]
