"""`arbiter query` reads the store and nothing else; Parquet export is a verb of its own.
Both stores, through the command line as a user runs it."""

from __future__ import annotations

import os

import duckdb
import pytest
from storehelp import cli

from arbiter.events.interface import is_url


@pytest.fixture
def db(store_url, tmp_path):
    for seed in (3, 4):
        out = cli(tmp_path, store_url, "new", "duel", "--seed", str(seed), "--players", "ann,bob")
        assert out.returncode == 0, out.stderr
        gid = out.stdout.strip()
        for seat, bid in (("ann", "2"), ("bob", "1")):
            assert cli(tmp_path, store_url, "do", gid, "--as", seat, "bid", bid).returncode == 0
    out = cli(tmp_path, store_url, "simulate", "monster-derby", "--games", "1")
    assert out.returncode == 0, out.stderr
    return store_url


def test_query_still_reads_the_store(db, tmp_path):
    out = cli(tmp_path, db, "query", "select kind, count(*) as n from games group by kind order by kind", "-f", "csv")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["kind,n", "duel,2", "monster-derby,1"]


DUCKDB_REACH = [
    "select * from read_csv('/etc/passwd')",
    "select * from read_text('/etc/hostname')",
    "select * from glob('/etc/*')",
    "copy (select * from events) to '{out}/leak.csv'",
    "attach '{out}/other.duckdb' as other",
    "install httpfs",
    "set enable_external_access = true",
    "export database '{out}/dump'",
]

PG_REACH = [
    "select pg_read_file('/etc/passwd')",
    'select "pg_read_file"(\'/etc/hostname\')',
    "select pg_catalog.pg_ls_dir('.')",
    "select * from pg_stat_file('postgresql.conf')",
    "copy (select * from events) to '{out}/leak.csv'",
    "select lo_import('/etc/passwd')",
    "select set_config('role', 'postgres', true)",
    "select query_to_xml('select 1', true, true, '')",
    "reset role",
    "select 1; select pg_read_file('/etc/passwd')",
    "delete from events_log",
]


def test_query_reaches_nothing_outside_the_store(db, tmp_path):
    out_dir = tmp_path / "outside"
    out_dir.mkdir()
    for sql in PG_REACH if is_url(db) else DUCKDB_REACH:
        out = cli(tmp_path, db, "query", sql.format(out=out_dir))
        assert out.returncode == 2, (sql, out.stdout, out.stderr)
        assert "Traceback" not in out.stderr and out.stderr.strip(), sql
        assert "root:" not in out.stdout, sql
    assert list(out_dir.iterdir()) == []
    out = cli(tmp_path, db, "query", "select * from read_csv('/etc/passwd')" if not is_url(db)
              else "select pg_read_file('/etc/passwd')")
    assert "query reads only the store" in out.stderr and "export --format parquet" in out.stderr


def test_on_postgresql_a_wait_or_a_lock_is_refused_as_what_it_is(pg_url, tmp_path):
    assert cli(tmp_path, pg_url, "new", "duel", "--seed", "3", "--players", "ann,bob").returncode == 0
    for sql in ("select pg_sleep(30)", "select pg_advisory_lock(1)"):
        out = cli(tmp_path, pg_url, "query", sql)
        assert out.returncode == 2 and "holds the server (a wait, a lock)" in out.stderr, out.stderr
        assert "reaches outside" not in out.stderr


def test_on_postgresql_a_superuser_login_steps_down_for_query(pg_url, tmp_path):
    assert cli(tmp_path, pg_url, "new", "duel", "--seed", "3", "--players", "ann,bob").returncode == 0
    out = cli(tmp_path, pg_url, "query", "select current_user, rolsuper from pg_roles where rolname = session_user", "-f", "csv")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[1] == "pg_read_all_data,true"  # the login is a superuser; query is not


def test_the_owner_may_lift_the_sandbox(db, tmp_path):
    if is_url(db):
        out = cli(tmp_path, db, "query", "--unsafe-files", "select count(*) > 0 from pg_ls_dir('.')", "-f", "csv")
    else:
        (tmp_path / "x.csv").write_text("a\n1\n")
        out = cli(tmp_path, db, "query", "--unsafe-files", f"select * from read_csv('{tmp_path / 'x.csv'}')", "-f", "csv")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[1] in ("1", "true")


def test_export_parquet_writes_every_table_partitioned_by_game(db, tmp_path):
    target = tmp_path / "pq"
    out = cli(tmp_path, db, "export", "--format", "parquet", "-o", str(target))
    assert out.returncode == 0, out.stderr
    assert sorted(os.listdir(target)) == ["commands", "dice", "events", "games"]
    assert sorted(os.listdir(target / "events")) == ["kind=duel", "kind=monster-derby"]
    counts = dict(l.split(",") for l in cli(tmp_path, db, "query", "select 'events', count(*) from events union all"
                                                 " select 'games', count(*) from games union all"
                                                 " select 'dice', count(*) from dice union all"
                                                 " select 'commands', count(*) from commands", "-f", "csv"
                                                 ).stdout.splitlines()[1:])
    con = duckdb.connect()
    for table in ("events", "commands", "games", "dice"):
        n = con.execute(f"select count(*) from read_parquet('{target}/{table}/*/*.parquet',"
                        " hive_partitioning = true)").fetchone()[0]
        assert n == int(counts[table]), table
    kinds = con.execute(f"select distinct kind from read_parquet('{target}/games/*/*.parquet',"
                        " hive_partitioning = true) order by 1").fetchall()
    assert kinds == [("duel",), ("monster-derby",)]
    payload = con.execute(f"select payload from read_parquet('{target}/events/*/*.parquet',"
                          " hive_partitioning = true) where seq = 1 limit 1").fetchone()[0]
    assert payload.startswith('{"type":"GameCreated"')
    again = cli(tmp_path, db, "export", "--format", "parquet", "-o", str(target))
    assert again.returncode == 2 and "already exists" in again.stderr
    out = cli(tmp_path, db, "export", "--format", "parquet")
    assert out.returncode == 2 and "-o DIR" in out.stderr


def test_export_parquet_of_one_game(db, tmp_path):
    gid = cli(tmp_path, db, "query", "select game_id from games where kind = 'duel' order by game_id limit 1",
              "-f", "csv").stdout.splitlines()[1]
    target = tmp_path / "one"
    out = cli(tmp_path, db, "export", gid, "--format", "parquet", "-o", str(target))
    assert out.returncode == 0, out.stderr
    assert os.listdir(target / "events") == ["kind=duel"]
    n = duckdb.connect().execute(f"select count(distinct game_id) from read_parquet('{target}/events/*/*.parquet')").fetchone()[0]
    assert n == 1


def test_query_schema_lists_tables_views_and_columns(db, tmp_path):
    import json

    out = cli(tmp_path, db, "query", "--schema", "-f", "json")
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    cols = {(r["name"], r["kind"]): [] for r in rows}
    for r in rows:
        cols[(r["name"], r["kind"])].append(r["column_name"])
    assert cols[("games", "table")][:2] == ["game_id", "kind"]
    assert cols[("results", "view")] == ["game_id", "kind", "status", "winner", "seats", "events",
                                         "started_at", "ended_at", "end_reason", "scores"]
    assert ("dice", "view") in cols and ("md_attacks", "view") in cols
    table = cli(tmp_path, db, "query", "--schema")
    assert table.returncode == 0 and "results" in table.stdout and "ended_at" in table.stdout
    both = cli(tmp_path, db, "query", "--schema", "select 1")
    assert both.returncode == 2 and "takes no SQL" in both.stderr and "Traceback" not in both.stderr


def test_on_postgresql_a_login_granted_a_file_function_directly_is_refused_it(pg_url, tmp_path):
    """Not the blocklist but the role: a login granted pg_read_file itself (not through
    pg_read_server_files) reaches it through any SQL function that calls it, a name no
    blocklist knows; query steps it down to pg_read_all_data, which may not execute it."""
    import psycopg

    assert cli(tmp_path, pg_url, "new", "duel", "--seed", "3", "--players", "ann,bob").returncode == 0
    schema = pg_url.split("search_path%3D")[1]
    role = f"reader_{schema}"
    with psycopg.connect(pg_url, autocommit=True) as con:
        con.execute(f'CREATE ROLE "{role}" LOGIN')
        con.execute(f'GRANT pg_read_all_data TO "{role}"')
        con.execute(f'GRANT USAGE ON SCHEMA "{schema}" TO "{role}"')
        con.execute(f'GRANT EXECUTE ON FUNCTION pg_read_file(text) TO "{role}"')
        con.execute(f'CREATE FUNCTION "{schema}".peek(p text) RETURNS text LANGUAGE sql'
                    " AS $$ SELECT pg_read_file(p) $$")
    url = pg_url.replace("//postgres@", f"//{role}@", 1)
    assert url != pg_url
    with psycopg.connect(url, autocommit=True) as con:  # the grant works outside arbiter
        assert con.execute("select length(peek('PG_VERSION')) > 0").fetchone()[0]
    out = cli(tmp_path, url, "query", "select peek('PG_VERSION')")
    assert out.returncode == 2, (out.stdout, out.stderr)
    assert "query reads only the store" in out.stderr and "Traceback" not in out.stderr
    out = cli(tmp_path, url, "query", "select current_user, count(*) from games group by 1", "-f", "csv")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[1] == "pg_read_all_data,1"
