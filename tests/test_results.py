"""How each game ended, in the listing: `results` shows the end reason and the scores, on
both stores; verify checks them against the log; `migrate` fills them in for older stores;
`import` keeps them. Every game here is played to its end by its own bots (`simulate`)."""

from __future__ import annotations

import json

import pytest
from storehelp import cli, make_v3, raw

from arbiter.core.engine import Engine
from arbiter.events.interface import is_url

KINDS = ("monster-derby", "villainous", "scott-pilgrim", "my-little-scythe", "funkoverse-jaws")
#: The games whose end keeps no score (Scott Pilgrim's battle names a side and why).
NO_SCORES = {"scott-pilgrim"}
RESULTS = ["game_id", "kind", "status", "winner", "seats", "events", "started_at", "ended_at",
           "end_reason", "scores"]


def ok(out):
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr[-800:]
    return out.stdout


def results(tmp_path, db) -> dict[str, dict]:
    return {r["game_id"]: r for r in json.loads(ok(cli(tmp_path, db, "query", "select * from results",
                                                       "-f", "json")))}


@pytest.fixture
def played(store_url, tmp_path):
    """A store with one game of every kind, each played to its end by bots."""
    for kind in KINDS:
        ok(cli(tmp_path, store_url, "simulate", kind, "--games", "1", "--seed", "5"))
    return store_url


def test_every_finished_game_shows_its_end_reason_and_scores(played, tmp_path):
    cols = json.loads(ok(cli(tmp_path, played, "query", "select * from results limit 0", "-f", "json"))
                      or "[]")
    assert cols == []
    header = ok(cli(tmp_path, played, "query", "select * from results", "-f", "csv")).splitlines()[0]
    assert header.split(",") == RESULTS  # the same columns on both stores
    rows = results(tmp_path, played)
    assert sorted(r["kind"] for r in rows.values()) == sorted(KINDS)
    engine = Engine(played)
    for gid, row in rows.items():
        out = engine.load(gid).outcome()
        assert out is not None and row["status"] == "over", row
        assert row["end_reason"] == out.reason and row["end_reason"], row
        if row["kind"] in NO_SCORES:
            assert row["scores"] is None, row
        else:
            assert row["scores"] == {s: pytest.approx(v) for s, v in out.scores.items()}, row
            assert set(row["scores"]) == set(json.loads(row["seats"]) if isinstance(row["seats"], str)
                                             else row["seats"])
    ok(cli(tmp_path, played, "verify", "--all"))


def test_a_game_being_played_has_no_outcome(store_url, tmp_path):
    ok(cli(tmp_path, store_url, "new", "monster-derby", "--seed", "3"))
    (row,) = results(tmp_path, store_url).values()
    assert row["status"] == "playing" and row["end_reason"] is None and row["scores"] is None


def test_query_schema_documents_the_outcome_columns(played, tmp_path):
    rows = json.loads(ok(cli(tmp_path, played, "query", "--schema", "-f", "json")))
    assert [r["column_name"] for r in rows if r["name"] == "results"] == RESULTS
    assert "outcome" in [r["column_name"] for r in rows if r["name"] == "games"]


@pytest.mark.parametrize("forgery", [
    # another score, another reason, a score taken away, an outcome erased
    lambda o: {**o, "scores": {**o["scores"], next(iter(o["scores"])): 99}},
    lambda o: {**o, "reason": "the other side conceded"},
    lambda o: {"reason": o["reason"]},
    lambda o: None,
])
def test_verify_catches_a_tampered_outcome(played, tmp_path, forgery):
    gid = next(g for g, r in results(tmp_path, played).items() if r["kind"] == "monster-derby")
    (text,) = raw(played, "SELECT CAST(outcome AS VARCHAR) FROM games WHERE game_id = ?", [gid])[0]
    forged = forgery(json.loads(text))
    raw(played, "UPDATE games SET outcome = ? WHERE game_id = ?",
        [json.dumps(forged) if forged is not None else None, gid])
    out = cli(tmp_path, played, "verify", gid)
    assert out.returncode == 1 and "outcome" in out.stdout + out.stderr, (out.stdout, out.stderr)
    assert cli(tmp_path, played, "verify", "--all").returncode == 1


def test_migrate_fills_in_the_outcome_of_a_v3_store(played, tmp_path):
    before = results(tmp_path, played)
    make_v3(played)
    out = cli(tmp_path, played, "query", "select * from results")
    assert out.returncode == 2 and "migrate" in out.stderr and "Traceback" not in out.stderr
    said = ok(cli(tmp_path, played, "migrate"))
    assert "from store schema v3 to v4" in said and "outcome" in said and "no event or hash changed" in said
    assert results(tmp_path, played) == before
    ok(cli(tmp_path, played, "verify", "--all"))
    assert "nothing to do" in ok(cli(tmp_path, played, "migrate"))


def test_command_ids_are_indexed_on_both_stores_and_after_migrate(store_url, tmp_path):
    ok(cli(tmp_path, store_url, "new", "monster-derby", "--seed", "3"))

    def indexed() -> bool:
        if is_url(store_url):
            return bool(raw(store_url, "SELECT 1 FROM pg_indexes WHERE tablename = 'events_log'"
                            " AND indexdef LIKE '%(command_id)%'"))
        return bool(raw(store_url, "SELECT 1 FROM duckdb_indexes() WHERE table_name = 'events_log'"
                         " AND expressions LIKE '%command_id%'"))

    assert indexed()
    make_v3(store_url)
    ok(cli(tmp_path, store_url, "migrate"))
    assert indexed()


def test_import_keeps_the_outcome_and_fills_it_in_for_older_exports(played, tmp_path):
    gid = next(g for g, r in results(tmp_path, played).items() if r["kind"] == "my-little-scythe")
    want = results(tmp_path, played)[gid]
    dump = ok(cli(tmp_path, played, "export", gid, "-f", "jsonl")).splitlines()
    head = json.loads(dump[0])
    assert json.loads(head["game"]["outcome"])["scores"] == want["scores"]
    for name, outcome in (("now", head["game"]["outcome"]), ("older", None)):
        if outcome is None:
            del head["game"]["outcome"]  # an export from before the listing kept outcomes
        path = tmp_path / f"{name}.jsonl"
        path.write_text("\n".join([json.dumps(head)] + dump[1:]) + "\n")
        db = str(tmp_path / f"{name}.duckdb")
        ok(cli(tmp_path, db, "import", str(path)))
        got = results(tmp_path, db)[gid]
        assert (got["end_reason"], got["scores"]) == (want["end_reason"], want["scores"])
        ok(cli(tmp_path, db, "verify", "--all"))
