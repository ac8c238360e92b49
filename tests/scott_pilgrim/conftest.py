"""The CLI as a player runs it (in process), on a store of the test's own."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from arbiter.cli.app import app


@pytest.fixture
def cli(tmp_path, monkeypatch):
    monkeypatch.setenv("ARBITER_DB", str(tmp_path / "sp.duckdb"))
    monkeypatch.setenv("ARBITER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "100")
    runner = CliRunner()

    def run(*args: str, stdin: str | None = None):
        return runner.invoke(app, list(args), input=stdin)
    return run
