"""Helpers for the store and audit tests: SQL behind arbiter's back (a forger's view), on
either store, and a forger who recomputes every hash."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any, Callable

from arbiter.events.envelope import GENESIS, chain_hash, ledger_hash
from arbiter.events.interface import is_url

HERE = os.path.dirname(os.path.abspath(__file__))


def raw(url: str, sql: str, params: list | None = None, many: list | None = None) -> list[tuple]:
    """SQL straight at the store's tables; with ``many``, once for each list of parameters."""
    if is_url(url):
        import psycopg

        from arbiter.events.postgres import _placeholders

        with psycopg.connect(url, autocommit=True) as con:
            if many:
                con.cursor().executemany(_placeholders(sql), many)
                return []
            cur = con.execute(_placeholders(sql) if params else sql, params)
            return cur.fetchall() if cur.description else []
    import duckdb

    con = duckdb.connect(url)
    try:
        if many:
            con.executemany(sql, many)
            return []
        cur = con.execute(sql, params or [])
        return cur.fetchall() if cur.description else []
    finally:
        con.close()


def make_v3(url: str) -> None:
    """Turn a store into what arbiter wrote under store schema v3: no listed outcome, and
    (as on DuckDB then) no index of command ids."""
    raw(url, "DROP INDEX events_log_command")
    raw(url, "ALTER TABLE games DROP COLUMN outcome" + (" CASCADE" if is_url(url) else ""))
    raw(url, "UPDATE meta SET value = '' WHERE key = 'views_hash'")  # v3's views, not these
    raw(url, "UPDATE meta SET value = '3' WHERE key = 'schema_version'")


def head_key(url: str) -> str:
    """The heads table's key column: ``game_id`` on PostgreSQL, ``key`` on DuckDB."""
    return "game_id" if is_url(url) else "key"


def set_global_head(url: str, gseq: int, ghash: str) -> None:
    if is_url(url):
        raw(url, "UPDATE ledger_head SET gseq = ?, ghash = ? WHERE id = 1", [gseq, ghash])
    else:
        raw(url, "UPDATE heads SET seq = ?, hash = ? WHERE key = '*'", [gseq, ghash])


COLS = ("seq", "type", "version", "actor", "payload", "command_id", "command_text")


def forge(url: str, gid: str, edit: Callable[[list[dict[str, Any]]], None]) -> None:
    """Edit a game's events as a forger who can write the file would: ``edit`` changes the
    rows (dicts of COLS) in place; every hash of the game, the whole global ledger and the
    recorded heads are then recomputed, so no chain shows the edit."""
    rows = [dict(zip(COLS, r)) for r in raw(
        url, "SELECT seq, type, version, actor, CAST(payload AS VARCHAR), command_id, command_text"
        " FROM events_log WHERE game_id = ? ORDER BY seq", [gid])]
    edit(rows)
    prev, updates = GENESIS, []
    for r in rows:
        h = chain_hash(prev, gid, r["seq"], r["type"], r["payload"], version=r["version"],
                       actor=r["actor"], command_id=r["command_id"], command_text=r["command_text"])
        updates.append([r["type"], r["version"], r["actor"], r["payload"], r["command_id"],
                        r["command_text"], prev, h, gid, r["seq"]])
        prev = h
    raw(url, "UPDATE events_log SET type = ?, version = ?, actor = ?, payload = ?, command_id = ?,"
        " command_text = ?, prev_hash = ?, hash = ? WHERE game_id = ? AND seq = ?", many=updates)
    raw(url, f"UPDATE heads SET hash = ? WHERE {head_key(url)} = ?", [prev, gid])
    relink_ledger(url)


def relink_ledger(url: str) -> None:
    """Recompute the whole global ledger and its recorded end from the stored event hashes."""
    gprev, updates = GENESIS, []
    rows = raw(url, "SELECT gseq, game_id, seq, hash FROM events_log ORDER BY gseq")
    for gseq, g, s, h in rows:
        gprev = ledger_hash(gprev, g, s, h, gseq=gseq)
        updates.append([gprev, g, s])
    if updates:
        raw(url, "UPDATE events_log SET ghash = ? WHERE game_id = ? AND seq = ?", many=updates)
    set_global_head(url, len(rows), gprev)


def cli(tmp_path, db: str, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """``arbiter --db DB ARGS...`` as a subprocess, with the toy game registered."""
    env = {**os.environ, "ARBITER_PLUGINS": "toygame:GAME", "PYTHONPATH": HERE,
           "ARBITER_DB": db, "ARBITER_HOME": str(tmp_path / "home"), "COLUMNS": "200",
           "ARBITER_LOCK_TIMEOUT": "2"}
    return subprocess.run([sys.executable, "-c", "from arbiter.cli.app import main; main()", *args],
                          input=stdin, capture_output=True, text=True, env=env, cwd=str(tmp_path))
