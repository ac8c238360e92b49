"""The audit covers every byte: each stored column, the listing, the heads, the global end,
and every verify branch, on both stores. Edits are made as a forger would: straight at the
tables, and (``forge``) with every hash recomputed, so that only the deeper checks remain."""

from __future__ import annotations

import hashlib
import json
import random
import struct

import pytest
from storehelp import cli, forge, head_key, make_v3, raw, set_global_head

from arbiter.core import audit
from arbiter.core.bots import random_bot
from arbiter.core.engine import Engine
from arbiter.events.envelope import GENESIS, chain_hash, chain_hash_v1, ledger_hash, ledger_hash_v1
from arbiter.events.interface import is_url
from arbiter.events.store import OldStore, StoreDamaged, open_store

# -- known answers ---------------------------------------------------------------------------


def _lp(*parts: bytes | None) -> bytes:
    return b"".join(b"\xff" * 8 if p is None else struct.pack(">Q", len(p)) + p for p in parts)


def test_chain_hash_known_answers():
    """Pinned values, and the same from the formula the README gives, computed apart."""
    h1 = chain_hash(GENESIS, "g-1", 1, "GameCreated", "{}", version=1, actor=None,
                    command_id="g-1/setup", command_text="setup")
    assert h1 == "f9484882806d2307c8e298c22429e8db4608d5d1694e850721113a2b1d6c543b"
    assert h1 == hashlib.sha256(_lp(b"arbiter-event-v2", GENESIS.encode(), b"g-1", b"1",
                                    b"GameCreated", b"1", None, b"g-1/setup", b"setup",
                                    b"{}")).hexdigest()
    h2 = chain_hash(GENESIS, "g-1", 2, "BidMade", '{"type":"BidMade","seat":"ann","bid":2}',
                    version=1, actor="ann", command_id="c2", command_text=None)
    assert h2 == "92e3417a70cfc19ca43671677b7548057c2eede261e7446b4b1066498bf3a98c"
    # each part counts: type, version, actor, command id, text, payload, seq, game, prev
    base = dict(version=1, actor="ann", command_id="c2", command_text="bid 2")
    ref = chain_hash(GENESIS, "g-1", 2, "BidMade", "{}", **base)
    variants = [chain_hash(GENESIS, "g-1", 2, "Passed", "{}", **base),
                chain_hash(GENESIS, "g-1", 2, "BidMade", "{}", **{**base, "version": 2}),
                chain_hash(GENESIS, "g-1", 2, "BidMade", "{}", **{**base, "actor": "bob"}),
                chain_hash(GENESIS, "g-1", 2, "BidMade", "{}", **{**base, "actor": None}),
                chain_hash(GENESIS, "g-1", 2, "BidMade", "{}", **{**base, "command_id": "c3"}),
                chain_hash(GENESIS, "g-1", 2, "BidMade", "{}", **{**base, "command_text": None}),
                chain_hash(GENESIS, "g-1", 2, "BidMade", "{}", **{**base, "command_text": ""}),
                chain_hash(GENESIS, "g-1", 2, "BidMade", "[]", **base),
                chain_hash(GENESIS, "g-1", 3, "BidMade", "{}", **base),
                chain_hash(GENESIS, "g-2", 2, "BidMade", "{}", **base),
                chain_hash("1" * 64, "g-1", 2, "BidMade", "{}", **base)]
    assert len({ref, *variants}) == len(variants) + 1


def test_ledger_hash_known_answers():
    lh = ledger_hash(GENESIS, "g-1", 1, "ab" * 32, gseq=1)
    assert lh == "d28b1e4fb63776570673cc57f191b73a6d73ba074c98d686be22dce998cf7e0e"
    assert lh == hashlib.sha256(_lp(b"arbiter-ledger-v2", GENESIS.encode(), b"1", b"g-1", b"1",
                                    ("ab" * 32).encode())).hexdigest()
    assert ledger_hash(GENESIS, "g-1", 1, "ab" * 32, gseq=2) != lh
    # store schema v1, kept to migrate old stores
    assert chain_hash_v1(GENESIS, "g-1", 1, "GameCreated", "{}") == (
        "5b527f1612bfbb50182c29670878b184cafc14adb5728bd3f2e0a31607bf9914")
    assert ledger_hash_v1(GENESIS, "g-1", 1, "ab" * 32) == chain_hash_v1(GENESIS, "g-1", 1, "ledger", "ab" * 32)


# -- a played game on each store --------------------------------------------------------------


def play(engine: Engine, gid: str, match, n: int, seed: int = 1):
    rng = random.Random(seed)
    with engine.open() as store:
        for _ in range(n):
            if match.outcome() is not None:
                break
            seat = match.to_act().seats[0]
            text = match.game.command_text(random_bot(match.state, seat, match.legal(seat), rng))
            _r, match, _e = engine.do(gid, text, seat, store=store)
    return match


@pytest.fixture
def engine(store_url):
    return Engine(store_url, lock_timeout=5)


@pytest.fixture
def game(engine):
    gid, match, _ = engine.new("duel", seats=["ann", "bob"], seed=42, options={"target": "30"})
    return gid, play(engine, gid, match, 24)


def report(engine, gid, redecide=True):
    with engine.open(read_only=True) as store:
        return audit.verify_game(store, gid, redecide=redecide)


def store_problems(engine):
    with engine.open(read_only=True) as store:
        return audit.verify_store(store)


def rows_of(engine, gid):
    return raw(engine.path, "SELECT seq, type, command_text, actor FROM events_log WHERE game_id = ?"
               " ORDER BY seq", [gid])


def a_command_seq(engine, gid, *, multi: bool = False) -> int:
    """The first seq of a player's command (one with several events, if ``multi``)."""
    rows = rows_of(engine, gid)
    for i, (seq, _t, text, actor) in enumerate(rows):
        if text and text != "setup" and actor and (not multi or (i + 1 < len(rows) and rows[i + 1][2] is None)):
            return seq
    raise AssertionError("no such command")


def test_a_clean_game_and_store_verify(engine, game):
    gid, _ = game
    assert report(engine, gid).ok, report(engine, gid).problems
    assert store_problems(engine) == []


def test_a_game_of_an_older_engine_verifies_under_the_undo_it_was_played_under(engine):
    """Engine 0.1.0 let an undo take back a draw (0.2.0 refuses it: ARB-UNDO-HIDDEN): a game
    created under 0.1.0 that did so re-decides as it was played, and its setup is made again
    under its own engine version; the same undo in a game of today's engine is refused."""
    from arbiter.core import registry
    from arbiter.core.errors import RuleViolation
    from arbiter.core.match import ENGINE_VERSION, Match

    game = registry.get("villainous")

    def a_turn_then_undo(match):
        match.apply("ann", "move coruscant")
        match.apply("ann", f"discard {match.state.hand['ann'][0]}")
        match.apply("ann", "end")  # draws back up to four cards
        match.apply("ann", "undo")
        return match

    older = a_turn_then_undo(Match.new(game, seed=7, seats=["ann", "bob"], engine_version="0.1.0"))
    assert older.created.engine_version == "0.1.0" != ENGINE_VERSION
    with engine.open() as store:
        gid = engine.store_match(store, older)
    assert report(engine, gid).ok, report(engine, gid).problems
    with pytest.raises(RuleViolation, match="showed ann something"):
        a_turn_then_undo(Match.new(game, seed=7, seats=["ann", "bob"]))


# -- every stored column of events_log ---------------------------------------------------------

EVENT_EDITS = {
    "type": "type = 'Passed'",
    "version": "version = version + 1",
    "actor": "actor = 'mallory'",
    "payload": """payload = CAST('{"type":"Passed","seat":"ann"}' AS JSON)""",
    "command_id": "command_id = 'forged'",
    "command_text": "command_text = 'bid 3'",
    "prev_hash": f"prev_hash = '{'1' * 64}'",
    "hash": f"hash = '{'2' * 64}'",
    "seq": "seq = seq + 1000",
}


@pytest.mark.parametrize("column", sorted(EVENT_EDITS))
def test_every_event_column_is_covered(engine, game, column):
    gid, _ = game
    seq = a_command_seq(engine, gid)
    raw(engine.path, f"UPDATE events_log SET {EVENT_EDITS[column]} WHERE game_id = ? AND seq = ?", [gid, seq])
    found = report(engine, gid)
    assert not found.ok and found.first.seq == seq, (column, found.problems)


def test_an_event_moved_to_another_game_is_caught(engine, game):
    gid, _ = game
    seq = a_command_seq(engine, gid)
    raw(engine.path, "UPDATE events_log SET game_id = 'elsewhere-1' WHERE game_id = ? AND seq = ?", [gid, seq])
    assert report(engine, gid).first.seq == seq
    assert any("elsewhere-1" in p.message for p in store_problems(engine))


@pytest.mark.parametrize("column,edit", [("gseq", "gseq = gseq + 1000"), ("ghash", f"ghash = '{'3' * 64}'")])
def test_the_ledger_columns_are_covered(engine, game, column, edit):
    gid, _ = game
    seq = a_command_seq(engine, gid)
    raw(engine.path, f"UPDATE events_log SET {edit} WHERE game_id = ? AND seq = ?", [gid, seq])
    problems = store_problems(engine)
    assert problems and problems[0].kind == "ledger", column


def test_recorded_at_is_outside_the_hash_and_the_readme_says_so(engine, game):
    """The time a store wrote a row is its own: an import into another store sets it anew,
    so no hash covers it, and the README says so."""
    gid, _ = game
    raw(engine.path, "UPDATE events_log SET recorded_at = recorded_at - INTERVAL '3 days' WHERE game_id = ?", [gid])
    raw(engine.path, "UPDATE games SET created_at = created_at - INTERVAL '3 days' WHERE game_id = ?", [gid])
    assert report(engine, gid).ok and store_problems(engine) == []
    import os

    readme = open(os.path.join(os.path.dirname(__file__), "..", "README.md"), encoding="utf-8").read()
    assert "`recorded_at`" in readme and "`created_at`" in readme and "outside" in readme


# -- the games listing ---------------------------------------------------------------------------

LISTING_EDITS = {
    "kind": ("kind = 'monster-derby'", "kind"),
    "seed": ("seed = seed + 1", "seed"),
    "seats": ("""seats = CAST('["ann","eve"]' AS JSON)""", "seats"),
    "options": ("""options = CAST('{"target":31}' AS JSON)""", "options"),
    "dice": ("dice = 'manual'", "dice"),
    "status": ("status = CASE WHEN status = 'over' THEN 'playing' ELSE 'over' END", "status"),
    "winner": ("winner = CASE WHEN winner IS NULL THEN 'bob' ELSE NULL END", "winner"),
    "rules_version": ("rules_version = '0'", "rules_version"),
    "engine_version": ("engine_version = '9.9.9'", "engine_version"),
    "forked_from": ("forked_from = 'du-000000'", "forked_from"),
    "forked_at": ("forked_at = 3", "forked_at"),
    "outcome": ("""outcome = '{"reason":"forged"}'""", "outcome"),
}


@pytest.mark.parametrize("column", sorted(LISTING_EDITS))
def test_every_listing_column_is_checked_against_the_log(engine, game, column):
    gid, _ = game
    edit, name = LISTING_EDITS[column]
    raw(engine.path, f"UPDATE games SET {edit} WHERE game_id = ?", [gid])
    found = report(engine, gid, redecide=False)
    listing = [p for p in found.problems if p.kind == "listing"]
    assert listing and name in listing[0].message, (column, found.problems)


def test_a_deleted_listing_row_is_caught(engine, game):
    gid, _ = game
    raw(engine.path, "DELETE FROM games WHERE game_id = ?", [gid])
    assert any(gid in p.message and p.kind == "listing" for p in store_problems(engine))


# -- heads and the end of the global chain ------------------------------------------------------


def test_a_game_head_that_is_not_its_last_event_is_caught(engine, game):
    gid, match = game
    raw(engine.path, f"UPDATE heads SET hash = ? WHERE {head_key(engine.path)} = ?", ["4" * 64, gid])
    found = report(engine, gid)
    assert not found.ok and "recorded seq" in found.first.message


def test_a_deleted_newest_game_is_caught_by_the_global_head(engine, game):
    gid, _ = game
    gid2, m2, _ = engine.new("duel", seats=["ann", "bob"], seed=43)
    play(engine, gid2, m2, 5)
    assert store_problems(engine) == []
    for table, key in (("events_log", "game_id"), ("games", "game_id"), ("heads", head_key(engine.path))):
        raw(engine.path, f"DELETE FROM {table} WHERE {key} = ?", [gid2])
    problems = store_problems(engine)
    assert problems and "newest" in problems[0].message and problems[0].kind == "ledger"
    with engine.open(read_only=True) as store:
        assert audit.verify_game(store, gid).ok  # the game left behind is whole


def test_an_edited_global_head_is_caught(engine, game):
    with engine.open(read_only=True) as store:
        gseq, _h = store.global_head()
    set_global_head(engine.path, gseq, "5" * 64)
    problems = store_problems(engine)
    assert problems and problems[0].kind == "ledger"


# -- forgeries with every hash recomputed: the deeper branches ---------------------------------


def first_of(rows, type_):
    return next(r for r in rows if r["type"] == type_)


def test_a_rehashed_forgery_passes_every_chain_but_not_the_dice(engine, game):
    """The honest limit of an unkeyed chain: whoever can write the file can recompute it.
    The seed, the rules and receipts kept elsewhere still catch the edit."""
    gid, _ = game
    with engine.open(read_only=True) as store:
        receipt = f"{gid}:{store.last(gid)[0]}:{store.last(gid)[1][:16]}"

    def edit(rows):
        r = first_of(rows, "DiceRolled")
        d = json.loads(r["payload"])
        d["faces"] = ["6" if d["faces"][0] != "6" else "1"]
        r["payload"] = json.dumps(d, separators=(",", ":"))

    forge(engine.path, gid, edit)
    assert store_problems(engine) == []  # the ledger was relinked: the chains all hold
    found = report(engine, gid)
    assert found.first.kind == "dice" and "are not what seed" in found.first.message
    with engine.open(read_only=True) as store:
        problem = audit.check_receipt(store, receipt)
    assert problem is not None and "now has hash" in problem.message


def _payload_edit(type_, change):
    def edit(rows):
        r = first_of(rows, type_)
        d = json.loads(r["payload"])
        change(d)
        r["payload"] = json.dumps(d, separators=(",", ":"))
    return edit


def _text_edit(new_text):
    def edit(rows):
        r = next(r for r in reversed(rows) if r["command_text"] and r["command_text"].startswith("bid"))
        r["command_text"] = new_text
    return edit


def _later_event(change):
    def edit(rows):
        for i, r in enumerate(rows[1:], start=1):
            if r["command_text"] is None and rows[i - 1]["command_id"] == r["command_id"] and r["actor"]:
                change(r)
                return
        raise AssertionError("no command with several events")
    return edit


FORGERIES = {
    "undecodable": (lambda rows: first_of(rows, "BidMade").update(payload='{"type":"BidMade","seat":1}'),
                    "decode", "does not decode"),
    "not canonical": (lambda rows: first_of(rows, "BidMade").update(
        payload=json.dumps(json.loads(first_of(rows, "BidMade")["payload"]))), "decode", "canonical"),
    "wrong draw number": (_payload_edit("DiceRolled", lambda d: d.update(n=d["n"] + 1)), "dice", "draw number"),
    "manual flag": (_payload_edit("DiceRolled", lambda d: d.update(manual=True)), "dice", "manual dice in a seeded game"),
    "no command text": (lambda rows: next(r for r in rows[1:] if r["command_text"]).update(command_text=None),
                        "commands", "belong to no recorded command"),
    "split command": (_later_event(lambda r: r.update(command_id=r["command_id"] + "x")),
                      "commands", "no command text"),
    "actor of a later event": (_later_event(lambda r: r.update(actor="mallory")), "commands", "actor"),
    "text on a later event": (_later_event(lambda r: r.update(command_text="bid 1")), "commands", "command text"),
    "a later setup": (_text_edit("setup"), "commands", "setup"),
    "refused today": (_text_edit("bid 9"), "decision", "refused today"),
    "not canonical text": (_text_edit("bid   2"), "commands", "not as arbiter stores it"),
    "setup event changed": (_payload_edit("CardDealt", lambda d: d.update(card="Z" + str(d.get("card")))),
                            "decision", "setup differs"),
    # the bytes a command decides again are the stored ones, but not the type or version
    "another type, the same bytes": (lambda rows: first_of(rows, "BidMade").update(type="BidsRevealed"),
                                     "decode", "is stored as BidsRevealed but its payload is a BidMade"),
    "another version, the same bytes": (lambda rows: first_of(rows, "BidMade").update(version=2),
                                        "decode", "does not decode"),
}


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_every_verify_branch_is_reached_by_a_rehashed_forgery(engine, game, name):
    gid, _ = game
    edit, kind, words = FORGERIES[name]
    forge(engine.path, gid, edit)
    assert store_problems(engine) == []
    found = report(engine, gid)
    assert not found.ok, name
    if kind is not None:
        assert any(p.kind == kind and words in p.message for p in found.problems), (name, found.problems)


def test_an_edited_command_that_decides_differently_is_caught(engine):
    gid, match, _ = engine.new("duel", seats=["ann", "bob"], seed=7)
    engine.do(gid, "bid 1", "ann")
    engine.do(gid, "bid 2", "bob")

    def edit(rows):
        r = next(r for r in rows if r["command_text"] == "bid 1")
        r["command_text"] = "bid 3"

    forge(engine.path, gid, edit)
    found = report(engine, gid)
    assert found.first.kind == "decision" and "does not produce the stored events" in found.first.message


def test_a_forged_status_passes_the_chains_but_not_the_listing_check(engine, game):
    gid, _ = game
    raw(engine.path, "UPDATE games SET status = 'over', winner = 'mallory' WHERE game_id = ?", [gid])
    found = report(engine, gid)
    assert any(p.kind == "listing" and "winner" in p.message for p in found.problems)


# -- the command line ----------------------------------------------------------------------------


def test_verify_receipts_checks_a_whole_file(engine, game, tmp_path):
    gid, _ = game
    with engine.open(read_only=True) as store:
        envs = store.envelopes(gid)
    good = [f"{gid}:{e.seq}:{e.hash[:16]}" for e in envs[-3:]]
    path = tmp_path / "receipts.txt"
    path.write_text("# kept by ann\n" + "\n".join(f"receipt {r}" for r in good) + "\n\n")
    out = cli(tmp_path, engine.path, "verify", "--receipts", str(path))
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["receipt\tverdict", *(f"{r}\tpresent" for r in good)]
    assert out.stderr == "verified\n"  # the verdict beside the table, never among its rows
    path.write_text("\n".join(good + [f"{gid}:{envs[1].seq}:{'0' * 16}"]) + "\n")
    out = cli(tmp_path, engine.path, "verify", "--receipts", str(path))
    assert out.returncode == 1 and out.stdout.count("\tpresent") == 3 and "now has hash" in out.stdout
    path.write_text("not a receipt\n")
    out = cli(tmp_path, engine.path, "verify", "--receipts", str(path))
    assert out.returncode == 2 and "is not a receipt" in out.stderr and "Traceback" not in out.stderr
    path.write_text("# nothing\n")
    out = cli(tmp_path, engine.path, "verify", "--receipts", str(path))
    assert out.returncode == 2 and "holds no receipts" in out.stderr


def test_verify_all_names_the_deleted_newest_game(engine, game, tmp_path):
    gid2, m2, _ = engine.new("duel", seats=["ann", "bob"], seed=44)
    for table, key in (("events_log", "game_id"), ("games", "game_id"), ("heads", head_key(engine.path))):
        raw(engine.path, f"DELETE FROM {table} WHERE {key} = ?", [gid2])
    out = cli(tmp_path, engine.path, "verify", "--all")
    assert out.returncode == 1 and "newest" in out.stderr, (out.stdout, out.stderr)


# -- an older store: migrated by `arbiter migrate`, or refused with a sentence -----------------


def make_v1(url: str) -> None:
    """Turn a store into what arbiter wrote under store schema v1 (its hashes and version)."""
    make_v3(url)
    rows = raw(url, "SELECT game_id, seq, type, CAST(payload AS VARCHAR) FROM events_log ORDER BY game_id, seq")
    prev: dict[str, str] = {}
    updates = []
    for g, s, t, p in rows:
        h = chain_hash_v1(prev.get(g, GENESIS), g, s, t, p)
        updates.append([prev.get(g, GENESIS), h, g, s])
        prev[g] = h
    raw(url, "UPDATE events_log SET prev_hash = ?, hash = ? WHERE game_id = ? AND seq = ?", many=updates)
    for g, h in prev.items():
        raw(url, f"UPDATE heads SET hash = ? WHERE {head_key(url)} = ?", [h, g])
    gprev, led = GENESIS, []
    ordered = raw(url, "SELECT gseq, game_id, seq, hash FROM events_log ORDER BY gseq")
    for _gs, g, s, h in ordered:
        gprev = ledger_hash_v1(gprev, g, s, h)
        led.append([gprev, g, s])
    raw(url, "UPDATE events_log SET ghash = ? WHERE game_id = ? AND seq = ?", many=led)
    set_global_head(url, len(ordered), gprev)
    raw(url, "UPDATE meta SET value = '1' WHERE key = 'schema_version'")


def test_an_old_store_is_refused_until_migrated(engine, game, tmp_path):
    gid, match = game
    make_v1(engine.path)
    with pytest.raises(OldStore, match="arbiter .*migrate"):
        with engine.open(read_only=True):
            pass
    out = cli(tmp_path, engine.path, "show", gid)
    assert out.returncode == 2 and "migrate" in out.stderr and "Traceback" not in out.stderr
    out = cli(tmp_path, engine.path, "migrate", "--map", str(tmp_path / "map.csv"))
    assert out.returncode == 0, out.stderr
    assert "from store schema v1 to v4" in out.stdout
    lines = (tmp_path / "map.csv").read_text().splitlines()
    assert lines[0] == "game_id,seq,old_hash,new_hash" and len(lines) == match.seq + 1
    assert report(engine, gid).ok and store_problems(engine) == []
    out = cli(tmp_path, engine.path, "migrate")
    assert out.returncode == 0 and "nothing to do" in out.stdout


def test_an_old_store_that_fails_its_v1_chain_is_not_migrated(engine, game, tmp_path):
    gid, _ = game
    make_v1(engine.path)
    raw(engine.path, "UPDATE events_log SET type = 'Passed' WHERE game_id = ? AND seq = 3", [gid])
    out = cli(tmp_path, engine.path, "migrate")
    assert out.returncode == 2 and "fails its v1 hash chain" in out.stderr and f"{gid} seq 3" in out.stderr
    assert raw(engine.path, "SELECT value FROM meta WHERE key = 'schema_version'") == [("1",)]


# -- a whole store at once: batches, and worker processes --------------------------------------

#: One forgery a game, each caught by a different branch (kind, words in the first problem).
STORE_FORGERIES = ("refused today", "wrong draw number", "not canonical", "split command",
                   "setup event changed")


def verdicts(reports):
    return [(r.game_id, r.events, r.commands, r.rolls, r.ok, r.first and (r.first.seq, r.first.kind, r.first.message))
            for r in reports]


def test_verify_all_in_workers_finds_what_one_game_at_a_time_finds(engine, game, tmp_path, monkeypatch):
    """The same reports, in the same order, with one process or two, in batches of any size;
    and the command line's output and exit code the same with --jobs 1 and --jobs 2."""
    monkeypatch.setenv("ARBITER_PLUGINS", "toygame:GAME")  # the spawned workers' registry
    ids = [game[0]]
    for i, name in enumerate(STORE_FORGERIES):
        gid, m, _ = engine.new("duel", seats=["ann", "bob"], seed=50 + i, options={"target": "30"})
        play(engine, gid, m, 24, seed=i)
        forge(engine.path, gid, FORGERIES[name][0])
        ids.append(gid)
    with engine.open(read_only=True) as store:
        one_by_one = [audit.verify_game(store, gid) for gid in [g.game_id for g in store.games()]]
        alone, ledger_alone = audit.verify_all(store, jobs=1)
        monkeypatch.setattr(audit, "LEDGER_BATCH", 7)  # many batches, ending mid-game
        workers, ledger_workers = audit.verify_all(store, jobs=2, timeout=5)
    assert verdicts(alone) == verdicts(one_by_one) == verdicts(workers)
    assert ledger_alone == ledger_workers == []
    assert sum(r.ok for r in workers) == 1
    for r, name in zip(workers[1:], STORE_FORGERIES):
        _edit, kind, words = FORGERIES[name]
        assert any(p.kind == kind and words in p.message for p in r.problems), (name, r.problems)
    outs = [cli(tmp_path, engine.path, "verify", "--all", "--jobs", j) for j in ("1", "2")]
    assert outs[0].returncode == outs[1].returncode == 1
    assert outs[0].stdout == outs[1].stdout and "Traceback" not in outs[1].stderr
    assert outs[1].stdout.count("FAIL at seq") == len(STORE_FORGERIES)


@pytest.mark.parametrize("batch", [1, 3, 5000])
def test_the_ledger_read_in_batches_catches_a_duplicated_entry(engine, game, monkeypatch, batch):
    """A forged gseq that repeats another's (a tie) is seen however the batches fall."""
    monkeypatch.setattr(audit, "LEDGER_BATCH", batch)
    gid, _ = game
    with engine.open(read_only=True) as store:
        assert [e[:3] for e in audit.ledger_entries(store)] == [e[:3] for e in store.ledger()]
    raw(engine.path, "UPDATE events_log SET gseq = gseq - 1 WHERE game_id = ? AND seq = 4", [gid])
    problems = store_problems(engine)
    assert problems and problems[0].kind == "ledger", problems


@pytest.mark.parametrize("jobs", ["0", "x"])
def test_verify_jobs_must_be_a_count(engine, game, tmp_path, jobs):
    out = cli(tmp_path, engine.path, "verify", "--all", "--jobs", jobs)
    assert out.returncode == 2 and "--jobs" in out.stderr and "Traceback" not in out.stderr


# -- the SQL views ------------------------------------------------------------------------------

def lying_results(url: str) -> None:
    """A `results` view that says every game is over and won by mallory."""
    sql = ("SELECT game_id, kind, 'over' AS status, 'mallory' AS winner, seats, 0 AS events,"
           " NULL AS started_at, NULL AS ended_at FROM games")
    raw(url, (f"CREATE OR REPLACE VIEW results AS {sql}" if not is_url(url)
              else f'DROP VIEW IF EXISTS results; CREATE VIEW results AS {sql}'))


def test_a_replaced_view_is_caught_by_verify_all(engine, game, tmp_path):
    gid, _ = game
    assert raw(engine.path, "SELECT winner, events FROM results WHERE game_id = ?", [gid])[0][1] > 0
    lying_results(engine.path)
    assert raw(engine.path, "SELECT winner FROM results WHERE game_id = ?", [gid]) == [("mallory",)]
    problems = store_problems(engine)
    assert [(p.kind, p.message.split(":")[0]) for p in problems] == [
        ("view", "view results is not the one arbiter installs")]
    out = cli(tmp_path, engine.path, "verify", "--all")
    assert out.returncode == 1 and "view results is not the one arbiter installs" in out.stderr, out.stderr
    assert report(engine, gid).ok  # the game's own log is untouched


def test_a_dropped_view_is_caught_too(engine, game):
    raw(engine.path, "DROP VIEW dice")
    assert [p.message.split(":")[0] for p in store_problems(engine)] == ["view dice is not the one arbiter installs"]


def test_the_results_view_has_one_row_a_game(engine, game):
    gid, match = game
    rows = raw(engine.path, "SELECT game_id, kind, status, winner, events, started_at IS NOT NULL,"
               " ended_at IS NOT NULL FROM results")
    status = "over" if match.outcome() is not None else "playing"
    winner = ",".join(match.outcome().winners) if match.outcome() else None
    assert rows == [(gid, "duel", status, winner, match.seq, True, status == "over")]
