"""The service's group commit: the commands waiting for the writer, from several games, are
decided one after another and written in one transaction; a refusal among them is answered
alone, and a group that cannot be written writes nothing and leaves the games playable.

Each test holds the writer thread while its commands queue, so that they form one group
whatever the machine's speed (no timing: a gate the test opens)."""

from __future__ import annotations

import asyncio
import errno
import threading

import pytest

pytest.importorskip("litestar", reason="the server extra (litestar) is not installed")

from arbiter.core import audit  # noqa: E402
from arbiter.core.errors import ParseError, RuleViolation  # noqa: E402
from arbiter.events.errors import StorageFailed  # noqa: E402
from arbiter.service.api import Applied, NewGame  # noqa: E402
from arbiter.service.problems import status  # noqa: E402
from arbiter.service.tables import Tables, Who  # noqa: E402


@pytest.fixture
def tables(tmp_path):
    t = Tables(str(tmp_path / "group.duckdb"))
    yield t
    asyncio.run(t.stopped())


def new(tables: Tables, kind: str, seed: int) -> str:
    return tables.create(NewGame(kind=kind, players=["ann", "bob"], seed=seed)).game_id


def first_legal(tables: Tables, gid: str, seat: str) -> str:
    return tables.state(gid, Who(gid, seat)).legal[0]


def turn(tables: Tables, gid: str) -> tuple[str, str]:
    """(the seat whose turn it is, the other seat) of a two-seat game."""
    mover = tables.state(gid, Who(gid, "referee")).to_act[0]
    return mover, "bob" if mover == "ann" else "ann"


def transactions(tables: Tables) -> list[list[str]]:
    """The game ids of every group the store is asked to write, as it is asked."""
    store = tables.store()
    real, seen = store.append_games, []

    def spy(appends):
        seen.append([a.game_id for a in appends])
        return real(appends)

    store.append_games = spy
    return seen


def in_one_group(tables: Tables, asks: list[tuple[str, str, str, str | None]]) -> list:
    """Each (game, seat, text, command id) sent as the API sends it, all queued while the
    writer thread is held, then let go together; the answers (or errors), in order."""

    async def go() -> list:
        await tables.started()
        gate = threading.Event()
        held = asyncio.ensure_future(tables.run(gate.wait))
        tasks = [asyncio.ensure_future(tables.act(Who(gid, seat), text, cid)) for gid, seat, text, cid in asks]
        await asyncio.sleep(0)  # every task has queued its command
        gate.set()
        await held
        return await asyncio.gather(*tasks, return_exceptions=True)

    async def run() -> list:
        try:
            return await go()
        finally:
            await tables.stopped()

    return asyncio.run(run())


def logs(tables: Tables, games: list[str]) -> dict[str, tuple[int, str]]:
    return {g: tables.store().last(g) for g in games}


def test_commands_of_several_games_land_in_one_transaction_with_their_receipts(tables):
    derby, other, jaws = new(tables, "monster-derby", 1), new(tables, "monster-derby", 2), new(tables, "funkoverse-jaws", 3)
    before = logs(tables, [derby, other, jaws])
    keep = first_legal(tables, derby, "ann")
    asks = [(derby, "ann", keep, "c-1"),
            (other, "bob", first_legal(tables, other, "bob"), "c-2"),
            (derby, "bob", first_legal(tables, derby, "bob"), "c-3"),  # the same game, after ann's
            (jaws, turn(tables, jaws)[0], first_legal(tables, jaws, turn(tables, jaws)[0]), "c-4"),
            (derby, "ann", keep, "c-1")]  # a retry, in the same group
    seen = transactions(tables)
    answers = in_one_group(tables, asks)
    assert all(isinstance(a, Applied) for a in answers), answers
    assert seen == [[derby, other, jaws]]  # one transaction for every game
    assert answers[4].receipt == answers[0].receipt  # the retry changed nothing
    seqs = [a.seq for a in answers]
    assert seqs[0] < seqs[2] and seqs[0] == before[derby][0] + len(answers[0].events)
    with tables.engine.open(read_only=True) as store:
        for a in answers:
            assert audit.check_receipt(store, a.receipt) is None, a.receipt
        assert store.last(derby)[0] == answers[2].seq and store.last(jaws)[0] == answers[3].seq
        assert [c[0] for c in store.commands(derby)[-2:]] == ["c-1", "c-3"]
        for g in (derby, other, jaws):
            assert audit.verify_game(store, g).ok
        assert audit.verify_ledger(store) == []


def test_a_refusal_in_a_group_is_answered_alone_and_the_others_land(tables):
    derby, jaws = new(tables, "monster-derby", 4), new(tables, "funkoverse-jaws", 5)
    mover, waiting = turn(tables, jaws)
    asks = [(derby, "ann", first_legal(tables, derby, "ann"), None),
            (jaws, waiting, first_legal(tables, jaws, mover), None),  # not the waiting seat's turn
            (derby, "bob", "dance a jig", None),  # not a command
            (jaws, mover, first_legal(tables, jaws, mover), None)]
    seen = transactions(tables)
    answers = in_one_group(tables, asks)
    assert isinstance(answers[0], Applied) and isinstance(answers[3], Applied)
    assert isinstance(answers[1], RuleViolation) and status(answers[1])[0] == 409
    assert isinstance(answers[2], ParseError) or status(answers[2])[0] == 422
    assert seen == [[derby, jaws]]
    with tables.engine.open(read_only=True) as store:
        assert store.last(derby)[0] == answers[0].seq and store.last(jaws)[0] == answers[3].seq
        _c, rows = store.query("SELECT game_id, seat, text FROM refusals ORDER BY refused_at")
        assert [r[:2] for r in rows] == [(jaws, waiting), (derby, "bob")]
        assert audit.verify_ledger(store) == []


def test_a_storage_failure_mid_group_writes_nothing_and_the_games_play_on(tables):
    derby, jaws = new(tables, "monster-derby", 6), new(tables, "funkoverse-jaws", 7)
    asks = [(derby, "ann", first_legal(tables, derby, "ann"), "d-1"),
            (derby, "bob", first_legal(tables, derby, "bob"), "d-2"),
            (jaws, turn(tables, jaws)[0], first_legal(tables, jaws, turn(tables, jaws)[0]), "d-3")]
    before = logs(tables, [derby, jaws])
    store = tables.store()
    ledger = len(store.ledger())
    real, failed = store._insert, []

    def disk_full(table, rows):  # the events are in the transaction when the heads fail
        if table == "heads" and not failed:
            failed.append(table)
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(table, rows)

    store._insert = disk_full
    answers = in_one_group(tables, asks)
    assert failed and all(isinstance(a, StorageFailed) for a in answers), answers
    assert logs(tables, [derby, jaws]) == before and len(tables.store().ledger()) == ledger
    assert tables.store().receipts_for(["d-1", "d-2", "d-3"]) == {}
    # the warm games were given up: what a seat sees is the store's state, not the lost moves
    assert tables.state(derby, Who(derby, "ann")).seq == before[derby][0]
    again = in_one_group(tables, asks)  # the same commands, the same ids: they land now
    assert all(isinstance(a, Applied) for a in again), again
    with tables.engine.open(read_only=True) as store:
        assert store.last(derby)[0] == again[1].seq and store.last(jaws)[0] == again[2].seq
        for a in again:
            assert audit.check_receipt(store, a.receipt) is None
        assert audit.verify_game(store, derby).ok and audit.verify_game(store, jaws).ok
        assert audit.verify_ledger(store) == []


def test_a_clash_with_another_writer_has_the_group_tried_one_by_one(tables):
    """Another writer moves a game the server holds warm: the group's transaction clashes and
    writes nothing, then each command is decided again on the store's state and lands."""
    from arbiter.core.engine import Engine

    derby, jaws = new(tables, "monster-derby", 8), new(tables, "funkoverse-jaws", 9)
    mover = turn(tables, jaws)[0]
    asks = [(derby, "bob", first_legal(tables, derby, "bob"), "e-1"),
            (jaws, mover, first_legal(tables, jaws, mover), "e-2")]
    elsewhere, _m, _e = Engine(tables.engine.path).do(derby, first_legal(tables, derby, "ann"), "ann")
    seen = transactions(tables)
    answers = in_one_group(tables, asks)
    assert all(isinstance(a, Applied) for a in answers), answers
    assert seen == [[derby, jaws], [derby], [jaws]]
    assert answers[0].seq > elsewhere.seq
    with tables.engine.open(read_only=True) as store:
        assert store.last(derby)[0] == answers[0].seq and store.last(jaws)[0] == answers[1].seq
        assert audit.verify_game(store, derby).ok and audit.verify_ledger(store) == []


def test_the_bots_moves_after_a_command_are_written_in_its_group(tables):
    """A seat's command at a table with a bot: the bot's answer is decided after it, in the
    same group and the same transaction as another game's command."""
    bot_game = tables.create(NewGame(kind="scott-pilgrim", players=["ann", "bob"], seed=10,
                                     bots={"bob": "random"})).game_id
    jaws = new(tables, "funkoverse-jaws", 11)
    mover = turn(tables, jaws)[0]
    before = logs(tables, [bot_game])[bot_game][0]
    asks = [(bot_game, "ann", first_legal(tables, bot_game, "ann"), "f-1"),
            (jaws, mover, first_legal(tables, jaws, mover), "f-2")]
    seen = transactions(tables)
    answers = in_one_group(tables, asks)
    assert all(isinstance(a, Applied) for a in answers), answers
    assert seen == [[bot_game, jaws]]
    with tables.engine.open(read_only=True) as store:
        after = store.commands(bot_game)
        assert store.last(bot_game)[0] > answers[0].seq > before  # the bot moved after ann
        assert [c[1] for c in after if c[3] > answers[0].seq] and all(
            c[1] == "bob" for c in after if c[3] > answers[0].seq)
        assert audit.verify_game(store, bot_game).ok and audit.verify_ledger(store) == []
