"""One conformance suite, two stores: every test here runs against a DuckDB file and a
PostgreSQL database (a throwaway server started from the machine's binaries)."""

from __future__ import annotations


def test_the_throwaway_server_hands_out_empty_databases(pg_server):
    import psycopg

    first, second = pg_server.new_database(), pg_server.new_database()
    assert first != second
    with psycopg.connect(first) as con:
        assert con.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone() == (0,)
