import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

os.environ.setdefault("ARBITER_LOCK_TIMEOUT", "10")

from hypothesis import settings  # noqa: E402

# CI runs few examples; `HYPOTHESIS_PROFILE=heavy pytest tests/test_conformance.py` runs many
# more on demand (README: For developers). Tests take max_examples from the loaded profile.
settings.register_profile("ci", max_examples=4, deadline=None)
settings.register_profile("heavy", max_examples=200, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

from arbiter.core import registry  # noqa: E402

import toygame  # noqa: E402

registry.register(toygame.GAME)


# -- stores ----------------------------------------------------------------------------------

import pytest  # noqa: E402

import pgserver  # noqa: E402


@pytest.fixture(scope="session")
def pg_server():
    """A throwaway PostgreSQL server for the whole test session (skipped without one)."""
    reason = pgserver.skip_reason()
    if reason:
        pytest.skip(reason)
    server = pgserver.PgServer(pgserver.find_bindir()).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_url(pg_server) -> str:
    """The URL of a fresh, empty PostgreSQL database."""
    return pg_server.new_database()


@pytest.fixture(params=["duckdb", "postgres"])
def store_url(request, tmp_path) -> str:
    """A new empty store of each kind: a DuckDB file path or a PostgreSQL URL."""
    if request.param == "duckdb":
        return str(tmp_path / "store.duckdb")
    return request.getfixturevalue("pg_url")
