"""`arbiter copy`: whole games between a DuckDB file and a PostgreSQL server, both ways, with
ids, hashes and receipts intact and the destination's audit clean."""

from __future__ import annotations

import os
import random
import subprocess
import sys

from arbiter.core import audit
from arbiter.core.bots import autoplay
from arbiter.core.engine import Engine
from arbiter.core.match import Match
from arbiter.core import registry

HERE = os.path.dirname(__file__)


def arbiter(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "ARBITER_PLUGINS": "toygame:GAME", "PYTHONPATH": HERE, "ARBITER_LOCK_TIMEOUT": "10"}
    return subprocess.run([sys.executable, "-c", "from arbiter.cli.app import main; main()", *args],
                          capture_output=True, text=True, env=env, timeout=600)


def fill(path: str, n: int, seed: int = 0) -> list[str]:
    """``n`` finished games (the first of Monster Derby, the rest of the toy game); their receipts."""
    eng = Engine(path)
    receipts = []
    with eng.open() as store:
        for i in range(n):
            game = registry.get("duel" if i else "monster-derby")
            match = Match.new(game, seed=seed + i, seats=["ann", "bob"])
            autoplay(match, {}, random.Random(i), max_steps=400)
            gid = eng.store_match(store, match)
            seq, h = store.last(gid)
            receipts.append(f"{gid}:{seq}:{h[:16]}")
    return receipts


def logs(url: str) -> dict[str, list[tuple]]:
    with Engine(url).open(read_only=True) as store:
        return {g.game_id: [(e.seq, e.type, e.actor, e.payload, e.command_id, e.prev_hash, e.hash)
                            for e in store.envelopes(g.game_id)] + [tuple(c) for c in store.commands(g.game_id)]
                for g in store.games()}


def clean(url: str, receipts: list[str], redecide: bool = True) -> None:
    with Engine(url).open(read_only=True) as store:
        for g in store.games():
            report = audit.verify_game(store, g.game_id, redecide=redecide)
            assert report.ok, (g.game_id, [p.message for p in report.problems])
        assert audit.verify_ledger(store) == []
        for r in receipts:
            assert audit.check_receipt(store, r) is None, r


def test_a_store_of_hundreds_of_games_goes_to_postgresql_and_back(tmp_path, pg_url):
    first, back = str(tmp_path / "first.duckdb"), str(tmp_path / "back.duckdb")
    receipts = fill(first, 300)
    there = arbiter("copy", "--from", first, "--to", pg_url)
    assert there.returncode == 0, there.stderr
    assert "copied 300 games" in there.stdout
    home = arbiter("copy", "--from", pg_url, "--to", back)
    assert home.returncode == 0, home.stderr
    original = logs(first)
    assert logs(pg_url) == original == logs(back)
    clean(back, receipts)
    clean(pg_url, receipts, redecide=False)  # the CLI's audit below decides every command again
    audited = arbiter("--db", pg_url, "verify", "--all")
    assert audited.returncode == 0, audited.stdout + audited.stderr


def test_a_copy_run_again_skips_what_is_there_and_refuses_a_different_log(tmp_path, store_url):
    src = str(tmp_path / "src.duckdb")
    receipts = fill(src, 4)
    some = [r.split(":")[0] for r in receipts[:2]]
    part = arbiter("copy", "--from", src, "--to", store_url, *some)
    assert part.returncode == 0, part.stderr
    assert sorted(logs(store_url)) == sorted(some)
    again = arbiter("copy", "--from", src, "--to", store_url)
    assert again.returncode == 0, again.stderr
    assert "copied 2 games" in again.stdout and "2 already there" in again.stdout
    assert logs(store_url) == logs(src)
    clean(store_url, receipts)
    # a game still on is copied, then moves on at the source: the destination's copy is now
    # another log, and is never overwritten
    eng = Engine(src)
    gid, m, _ = eng.new("duel", seats=["ann", "bob"])
    assert arbiter("copy", "--from", src, "--to", store_url, gid).returncode == 0
    seat = m.to_act().seats[0]
    eng.do(gid, m.game.command_text(m.legal(seat)[0]), seat)
    before = logs(store_url)
    clash = arbiter("copy", "--from", src, "--to", store_url, gid)
    assert clash.returncode == 3, clash.stdout + clash.stderr
    assert "another log" in clash.stderr and "Traceback" not in clash.stderr
    assert logs(store_url) == before


def test_copy_refuses_bad_arguments_plainly(tmp_path):
    src = str(tmp_path / "src.duckdb")
    fill(src, 1)
    for args, words in ((("--from", src, "--to", src), "same store"),
                        (("--from", str(tmp_path / "none.duckdb"), "--to", str(tmp_path / "x.duckdb")), "no store"),
                        (("--from", src, "--to", str(tmp_path / "y.duckdb"), "zz-nothing"), "zz-nothing")):
        r = arbiter("copy", *args)
        assert r.returncode == 2, r.stdout + r.stderr
        assert words in r.stderr and "Traceback" not in r.stderr
    assert not os.path.exists(tmp_path / "y.duckdb") or logs(str(tmp_path / "y.duckdb")) == {}
