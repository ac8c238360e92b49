"""A group commit: several games' commands decided one after another and appended in one
store transaction.

A server that owns a store decides the commands waiting for it, from many games, each
against the state the ones before it left (a game's own commands keep their order), and
writes them all with one commit (:meth:`Store.append_games`) instead of one commit each.
Deciding changes the warm :class:`Match` in place, so a group that cannot be written must be
given up with :meth:`Group.discard`: its games are then folded again from the store.
"""

from __future__ import annotations

import uuid
from typing import Any, Sequence

from arbiter.core.engine import Engine, check_retry, cite, encode_all
from arbiter.core.errors import RuleViolation
from arbiter.core.match import UNDO, Match, listing_status
from arbiter.events.base import Event
from arbiter.events.store import CommandRecord, Conflict, GameAppend, NewEvent, Receipt


class Later(Exception):
    """The command cannot join this group (its command id is already in it, or its game
    must be folded again from the store first): it waits for the next one."""


class Staged:
    """One command decided in a group; its receipt once the group is written (at once for
    the retry of a stored command, which writes nothing)."""

    def __init__(self, game_id: str, events: list[Event], receipt: Receipt | None = None) -> None:
        self.game_id = game_id
        self.events = events
        self.receipt = receipt


class _Game:
    """A game's share of the group: its warm match, the seq the store's log ends at, and the
    commands decided since."""

    def __init__(self, match: Match) -> None:
        self.match = match
        self.expected = match.seq
        self.groups: list[tuple[list[NewEvent], CommandRecord]] = []
        self.staged: list[Staged] = []
        self.undo = False


class Group:
    """Commands of any games, decided in order and written together by :meth:`commit`."""

    def __init__(self, engine: Engine, store: Any) -> None:
        self.engine = engine
        self.store = store
        self._games: dict[str, _Game] = {}
        self._ids: set[str] = set()
        self._looked_up: set[str] = set()
        self._stored: dict[str, Receipt] = {}

    @property
    def games(self) -> list[str]:
        """The ids of the games with a command decided in this group."""
        return list(self._games)

    def __len__(self) -> int:
        return sum(len(g.groups) for g in self._games.values())

    def look_up(self, command_ids: Sequence[str]) -> None:
        """Which of the commands about to be decided are retries of stored ones, in one read
        (instead of one a command)."""
        self._looked_up = set(command_ids)
        self._stored = self.store.receipts_for(sorted(self._looked_up))

    def _receipt_for(self, command_id: str) -> Receipt | None:
        if command_id in self._looked_up:
            return self._stored.get(command_id)
        return self.store.receipt_for(command_id)

    def decide(self, match: Match, seat: str | None, text: str,
               command_id: str | None = None) -> tuple[Staged, Match]:
        """Decide ``text`` against ``match`` (the game's warm state, with this group's earlier
        commands of the game) and fold it in; returns the staged command and the match it
        was folded into (another when the game had to be read again). A refusal raises and
        changes nothing."""
        gid = match.game_id
        if command_id is not None:
            if command_id in self._ids:
                raise Later(command_id)  # a retry of a command in this very group
            done = self._receipt_for(command_id)
            if done is not None:
                return self._retry(match, done, seat, text, command_id)
        folded = match.folded
        if folded is not None and folded.top is None and folded.cut:
            # an undo here would reach below the snapshot the game was loaded from
            if gid in self._games:
                raise Later(gid)
            self.engine.forget(gid)
            match = self.engine.load_from(self.store, gid)
        cid = command_id or uuid.uuid4().hex
        try:
            actor, command, events = match.decide(seat, text)
        except RuleViolation as exc:
            raise cite(match.game.rules, exc)
        stored = match.stored_text(text, command)
        game = self._games.get(gid)
        if game is None:
            game = self._games[gid] = _Game(match)
        assert game.match is match, "a game's commands in one group are decided on one match"
        match.extend(events, actor, cid, stored)  # folds the states decide evolved already
        game.groups.append((encode_all(match, events, actor), CommandRecord(cid, actor, stored)))
        game.undo = game.undo or command == UNDO
        self._ids.add(cid)
        staged = Staged(gid, events)
        game.staged.append(staged)
        return staged, match

    def _retry(self, match: Match, done: Receipt, seat: str | None, text: str,
               command_id: str) -> tuple[Staged, Match]:
        """A command id already stored: the same command again is answered with its receipt
        and writes nothing; anything else under that id is refused."""
        gid = match.game_id
        if done.game_id != gid:  # which game used it is not this seat's to learn
            raise Conflict(f"command id {command_id} was already used for another command;"
                           " send a new id")
        if match.seq < done.seq:  # stored by another writer since the game was warmed
            if gid in self._games:
                raise Later(command_id)
            self.engine.forget(gid)
            match = self.engine.load_from(self.store, gid)
        check_retry(match, self.store.command(command_id), command_id, seat, text)
        events = [e for s, _c, e in match.items if done.first_seq <= s <= done.seq]
        return Staged(gid, events, done), match

    def commit(self) -> None:
        """Write every decided command in one transaction and hand each its receipt. On any
        failure nothing is written and the group's games are discarded (read again when next
        needed); the error is raised."""
        if not self._games:
            return
        appends = []
        for gid, game in self._games.items():
            m = game.match
            status = listing_status(m.game, m.state)
            assert m.folded is not None
            appends.append(GameAppend(gid, game.expected, game.groups,
                                      status=status if status[0] != "playing" or game.undo else None,
                                      snapshot=self.engine.snapshot_due(m, m.folded)))
        try:
            written = self.store.append_games(appends)
        except BaseException:
            self.discard()
            raise
        for game, append, receipts in zip(self._games.values(), appends, written):
            for staged, receipt in zip(game.staged, receipts):
                staged.receipt = receipt
            game.match.head_hash = receipts[-1].hash
            if append.snapshot is not None:
                game.match.snapshot_seq = receipts[-1].seq

    def discard(self) -> list[str]:
        """Give the group up: its games' folds (changed by deciding) are forgotten, to be
        read again from the store. Returns their ids."""
        gone = list(self._games)
        for gid in gone:
            self.engine.forget(gid)
        self._games.clear()
        self._ids.clear()
        return gone
