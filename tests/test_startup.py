"""What a verb imports at start-up: only what it uses. `--help` needs typer alone (no
store, no events, no game); a verb on a game imports that game's modules and no other's;
no verb pays for pydantic (typer 0.29 coerces through it) or structlog (the log file is
written without it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

GAMES = ("monster_derby", "scott_pilgrim", "villainous", "my_little_scythe", "funkoverse_jaws")

PROBE = """
import json, sys
from arbiter.cli.app import main
sys.argv = ["arbiter", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
sys.stderr.write("\\nMODULES " + json.dumps(sorted(sys.modules)) + "\\n")
"""


def modules(tmp_path, *args: str) -> tuple[set[str], subprocess.CompletedProcess]:
    env = {**os.environ, "ARBITER_DB": str(tmp_path / "s.duckdb"), "ARBITER_HOME": str(tmp_path / "home"),
           "COLUMNS": "200"}
    out = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=env,
                         cwd=str(tmp_path))
    line = [ln for ln in out.stderr.splitlines() if ln.startswith("MODULES ")][-1]
    return set(json.loads(line[len("MODULES "):])), out


def games_in(mods: set[str]) -> set[str]:
    return {g for g in GAMES if any(m.startswith(f"arbiter.core.{g}") or m == f"arbiter.events.{g}" for m in mods)}


def test_help_imports_typer_and_nothing_of_the_store_or_the_games(tmp_path):
    mods, out = modules(tmp_path, "--help")
    assert "Usage" in out.stdout
    heavy = {"duckdb", "msgspec", "pydantic", "structlog", "rich.console", "arbiter.events.base",
             "arbiter.core.registry", "arbiter.projections.fold"}
    assert heavy.isdisjoint(mods), heavy & mods
    assert not games_in(mods)


@pytest.fixture
def game(tmp_path):
    mods, out = modules(tmp_path, "new", "monster-derby", "--seed", "3", "-p", "ann,bob")
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


@pytest.mark.parametrize("verb", [
    ["show", "{gid}"],
    ["do", "{gid}", "--as", "ann", "keep", "agenda-18"],
    ["try", "{gid}", "--as", "bob", "keep", "agenda-01"],
    ["log", "{gid}", "--as", "ann"],
])
def test_a_verb_imports_its_game_alone_and_no_pydantic_or_structlog(tmp_path, game, verb):
    mods, out = modules(tmp_path, *[a.format(gid=game) for a in verb])
    assert "Traceback" not in out.stderr, out.stderr
    assert games_in(mods) == {"monster_derby"}
    assert {"pydantic", "structlog"}.isdisjoint(mods)


def test_options_are_still_refused_in_typers_words(tmp_path, game):
    _mods, out = modules(tmp_path, "show", game, "--at", "x")
    assert "Invalid value for '--at'" in out.stderr
    _mods, out = modules(tmp_path, "show", game, "--at", " 3")  # typer's own coercion takes it
    assert "seq 3" in out.stdout, out.stderr


def test_the_command_line_needs_no_click_of_its_own(tmp_path):
    """typer from 0.29 carries its own click and no longer installs click: a plain `pip
    install .` has none. The command line starts, and still words typer's refusals, with
    click out of reach (the test extra brings click in for other tools)."""
    code = ("import sys; sys.modules['click'] = None; sys.argv = ['arbiter', 'why', 'x', '-3'];"
            " from arbiter.cli.app import main; main()")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "ARBITER_HOME": str(tmp_path)})
    assert "Traceback" not in out.stderr, out.stderr
    assert out.returncode == 2 and "negative number" in out.stderr, out.stderr


@pytest.mark.parametrize("args, blocked, said", [
    (["serve", "--port", "8799"], ["litestar", "uvicorn"], "the service needs litestar, uvicorn"),
    (["play", "g1", "--server", "http://127.0.0.1:9", "--token", "x"], ["httpx"], "play --server needs httpx"),
])
def test_a_verb_whose_extra_is_not_installed_names_the_extra(tmp_path, args, blocked, said):
    """`pip install .` has no server extra: `serve` and `play --server` say which extra
    to install (exit 2) instead of failing on an import."""
    code = (f"import sys; sys.modules.update(dict.fromkeys({blocked!r})); sys.argv = ['arbiter', *{args!r}];"
            " from arbiter.cli.app import main; main()")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "ARBITER_HOME": str(tmp_path)})
    assert "Traceback" not in out.stderr, out.stderr
    assert out.returncode == 2 and said in out.stderr and "arbiter-referee[server]" in out.stderr, out.stderr
