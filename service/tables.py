"""The tables a server keeps: games warm in memory, one writer thread, seats and tokens.

All store work runs on one thread (the store's only writer), so requests never race each
other on a game. Reads never queue behind it: what a seat's GET returns is kept per (game,
seq, seat) and answered on the event loop when it is kept; otherwise it is computed once, on
a reader thread, from the game warm in memory, under that game's lock (which a write to the
game holds too, so no read sees half a command). Streams wait on an asyncio event per game
and hold no thread, so a slow or dead client blocks nobody.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import random
import threading
from collections import OrderedDict, deque
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, TypeVar

import msgspec

from arbiter.core import audit, explain, registry
from arbiter.core.bots import get_bot, next_seat, read_bot_record
from arbiter.core.engine import Engine
from arbiter.core.errors import ArbiterError, ManualDiceError, ParseError, RuleViolation
from arbiter.core.group import Group, Later, Staged
from arbiter.core.match import UNDO, Match
from arbiter.events.errors import Conflict, UnknownGame
from arbiter.projections.fold import SETUP
from arbiter.projections.kernel import REFEREE
from arbiter.service import tokens
from arbiter.service import problems
from arbiter.service.boards import board_svg, side_panels
from arbiter.service.problems import Problem

T = TypeVar("T")

#: Answers of ``GET /games/{id}`` kept, by (game, seq, seat): a state never changes at a seq.
STATES_KEPT = 2048

#: Bot moves a server makes in a row before it hands the turn back (a safety net only).
BOT_STEPS = 2000

#: Threads that compute seats' answers from warm games (a game is read by one at a time).
READERS = 4

#: Most commands written in one group commit (a bound on how long the first one waits).
GROUP_MAX = 256


class Who(msgspec.Struct, frozen=True):
    """Whom a request acts for: a seat of one game, or its referee."""

    game_id: str
    seat: str  # a seat name, or REFEREE


class _Cold(Exception):
    """A game left memory (its group could not be written) before a reader got its lock."""


class Job:
    """Work for the writer thread: a function to run alone, or a seat's command, which joins
    the other commands waiting in a group commit. Its outcome goes back to the event loop
    that asked (or stays here for a caller on the writer thread itself)."""

    def __init__(self, fn: Callable[..., Any] | None, args: tuple[Any, ...],
                 loop: asyncio.AbstractEventLoop | None = None) -> None:
        self.fn, self.args, self.loop = fn, args, loop
        self.future: asyncio.Future[Any] | None = loop.create_future() if loop is not None else None
        self.value: Any = None
        self.error: BaseException | None = None
        self.settled = False

    def settle(self, value: Any = None, error: BaseException | None = None) -> None:
        self.value, self.error, self.settled = value, error, True
        if self.loop is not None:
            with contextlib.suppress(RuntimeError):  # the server's loop has closed
                self.loop.call_soon_threadsafe(self._settled)

    def _settled(self) -> None:
        assert self.future is not None
        if self.future.cancelled():
            return  # the client went away; what it asked for was done all the same
        if self.error is not None:
            self.future.set_exception(self.error)
        else:
            self.future.set_result(self.value)

    def outcome(self) -> Any:
        if self.error is not None:
            raise self.error
        return self.value


class Tables:
    """A server's games. Methods without ``async`` run on the writer thread (``run``)."""

    def __init__(self, db: str, *, admin_token: str | None = None, base_url: str = "") -> None:
        self.engine = Engine(db)
        self.admin_hash = tokens.token_hash(admin_token) if admin_token else None
        self.base_url = base_url
        self._jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None
        self._readers: ThreadPoolExecutor | None = None  # made when first needed, again after a stop
        self._store: Any = None
        self._opened: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiters: dict[str, asyncio.Event] = {}
        self._ending = False
        self._bots: dict[str, dict[str, str]] = {}
        self._states: OrderedDict[tuple[str, int, str], Any] = OrderedDict()
        self._states_lock = threading.Lock()
        # Games warm in memory (written only on the writer thread, under the game's lock).
        self._warm: dict[str, Match] = {}
        self._locks: dict[str, threading.RLock] = {}
        # Caches of what never changes once written: ids as resolved, seats by token hash.
        self._ids: dict[str, str] = {}
        self._seats: dict[str, tuple[str, str]] = {}

    # -- life -----------------------------------------------------------------------------

    async def started(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._ending = False

    async def stopped(self) -> None:
        if self._writer is None:
            self._close()
        else:
            await self.run(self._close)
            self._jobs.put(None)
            await asyncio.get_running_loop().run_in_executor(None, self._writer.join)
            self._writer = None
        readers, self._readers = self._readers, None
        if readers is not None:
            readers.shutdown(wait=True)

    def _close(self) -> None:
        if self._opened is not None:
            self._opened.__exit__(None, None, None)
            self._opened = self._store = None

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn`` on the writer thread, alone (anything that touches the store)."""
        return await self._submit(Job(fn, args, asyncio.get_running_loop()))

    async def act(self, who: Who, text: str, command_id: str | None, faces: str | None = None) -> Any:
        """A seat's command, decided and written on the writer thread together with the
        other commands waiting then (see :meth:`_group`)."""
        return await self._submit(Job(None, (who.game_id, who, text, command_id, faces),
                                      asyncio.get_running_loop()))

    async def _submit(self, job: Job) -> Any:
        if self._writer is None:
            self._writer = threading.Thread(target=self._write, name="arbiter-store", daemon=True)
            self._writer.start()
        self._jobs.put(job)
        assert job.future is not None
        return await job.future

    def _write(self) -> None:
        """The writer thread: jobs in the order they came; the commands waiting side by side
        are decided and written as one group."""
        waiting: deque[Job | None] = deque()
        while True:
            if not waiting:
                waiting.append(self._jobs.get())
            with contextlib.suppress(queue.Empty):
                while True:
                    waiting.append(self._jobs.get_nowait())
            job = waiting.popleft()
            if job is None:
                return
            if job.fn is not None:
                try:
                    job.settle(job.fn(*job.args))
                except BaseException as exc:  # handed to the request, which answers it
                    job.settle(error=exc)
                continue
            jobs = [job]
            while waiting and waiting[0] is not None and waiting[0].fn is None and len(jobs) < GROUP_MAX:
                jobs.append(waiting.popleft())  # type: ignore[arg-type]
            try:
                waiting.extendleft(reversed(self._group(jobs)))
            except BaseException as exc:  # a fault of the server's own: answered, never a hang
                for j in jobs:
                    if not j.settled:
                        j.settle(error=exc)

    async def read(self, game_id: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn`` on a reader thread, under the lock of game ``game_id`` (warmed first, on the
        writer thread, when it is not in memory yet)."""
        loop = asyncio.get_running_loop()
        while True:
            if game_id not in self._warm:
                game_id = (await self.run(self.match, game_id)).game_id
            try:
                if self._readers is None:
                    self._readers = ThreadPoolExecutor(max_workers=READERS, thread_name_prefix="arbiter-read")
                return await loop.run_in_executor(self._readers, self._locked, game_id, fn, args)
            except _Cold:
                continue

    def _locked(self, game_id: str, fn: Callable[..., T], args: tuple[Any, ...]) -> T:
        with self.lock(game_id):
            if game_id not in self._warm:
                raise _Cold(game_id)  # folding it again is the writer's work
            return fn(*args)

    def lock(self, game_id: str) -> threading.RLock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks.setdefault(game_id, threading.RLock())
        return lock

    def store(self) -> Any:
        """The store, opened once for the server's life (it is the store's writer)."""
        if self._store is None:
            self._opened = self.engine.open()
            self._store = self._opened.__enter__()
        return self._store

    # -- streams --------------------------------------------------------------------------

    @property
    def ending(self) -> bool:
        """Whether the server is stopping (every stream ends, and new ones end at once)."""
        return self._ending

    def end_streams(self) -> None:
        """Wake every stream to end (on the event loop, as the server stops): uvicorn waits
        for open responses before it stops, and a stream never ends on its own."""
        self._ending = True
        waiters, self._waiters = self._waiters, {}
        for ev in waiters.values():
            ev.set()

    def waiter(self, game_id: str) -> asyncio.Event:
        ev = self._waiters.get(game_id)
        if ev is None or ev.is_set():
            ev = self._waiters[game_id] = asyncio.Event()
        return ev

    def _moved(self, game_id: str) -> None:
        """Wake every stream of a game (called on the writer thread after an append)."""
        ev = self._waiters.pop(game_id, None)
        if ev is not None and self._loop is not None:
            self._loop.call_soon_threadsafe(ev.set)

    # -- who is asking --------------------------------------------------------------------

    def is_admin(self, token: str | None) -> bool:
        return bool(token and self.admin_hash and tokens.same(tokens.token_hash(token), self.admin_hash))

    def still_valid(self, token: str) -> bool:
        """Whether a token that was let in still is (a seat's is replaced by a new link)."""
        return self.is_admin(token) or tokens.token_hash(token) in self._seats

    def require_admin(self, token: str | None) -> None:
        """Creating and listing games need the admin token when the server has one."""
        if self.admin_hash is None:
            return
        if token is None:
            raise Problem(401, "no token", "this server needs its admin token (Authorization: Bearer ...)")
        if not self.is_admin(token):
            raise Problem(401, "wrong token", "that is not this server's admin token")

    async def who(self, game_id: str, token: str | None, seat: str | None) -> Who:
        """:meth:`authorize`, answered on the event loop when the game id and the token were
        seen before (they never change once written), else on the writer thread."""
        if token is not None and game_id in self._ids and (
                tokens.token_hash(token) in self._seats or self.is_admin(token)):
            return self.authorize(game_id, token, seat)  # from the caches alone
        return await self.run(self.authorize, game_id, token, seat)

    def authorize(self, game_id: str, token: str | None, seat: str | None) -> Who:
        """The seat a token acts as in a game; 401 without a valid token, 403 for another
        game's token or for another seat's view."""
        if token is None:
            raise Problem(401, "no token", "send the seat's token: Authorization: Bearer TOKEN")
        gid = self._ids.get(game_id)
        hashed = tokens.token_hash(token)
        if gid is not None and (hashed in self._seats or self.is_admin(token)):
            return self._authorized(game_id, gid, hashed, seat)  # no store needed
        store = self.store()
        if gid is None:
            try:
                gid = self._ids[game_id] = store.resolve_game_id(game_id)
            except UnknownGame:
                gid = None
        if hashed not in self._seats and not self.is_admin(token):
            found = store.seat_for_token(hashed)
            if found is not None:
                self._seats[hashed] = found
        return self._authorized(game_id, gid, hashed, seat)

    def _authorized(self, game_id: str, gid: str | None, hashed: str, seat: str | None) -> Who:
        if self.admin_hash is not None and tokens.same(hashed, self.admin_hash):
            if gid is None:
                raise Problem(404, "no such game", f"no game {game_id!r} here")
            return self._asking(Who(gid, REFEREE), seat)
        found = self._seats.get(hashed)
        if found is None:
            raise Problem(401, "wrong token", "that token belongs to no seat of this server")
        if gid is None or found[0] != gid:
            raise Problem(403, "not your game", "that token belongs to another game")
        return self._asking(Who(gid, found[1]), seat)

    @staticmethod
    def _asking(who: Who, seat: str | None) -> Who:
        if seat is None or seat == who.seat:
            return who
        if who.seat == REFEREE:
            return Who(who.game_id, seat)
        raise Problem(403, "not your seat", f"your token is {who.seat}'s; it cannot see {seat}'s view")

    # -- games ----------------------------------------------------------------------------

    def create(self, data: Any) -> Any:
        from arbiter.service.api import Created, SeatAccess

        game = registry.get(data.kind)
        if data.players is not None and not data.players:
            raise Problem(422, "bad input", "players is empty: name the players, or leave it out for"
                          f" {game.title}'s default seats ({', '.join(game.default_seats())})")
        for seat, kind in data.bots.items():
            get_bot(game, kind)
        if data.bots and data.dice == "manual":
            # a bot sitting at the table cannot roll physical dice, and no one holds its seat's
            # link to roll for it: its first roll would stop the game for everyone
            raise Problem(422, "bad input", f"bots cannot roll physical dice: a game with manual dice"
                          f" seats players only (bots asked for: {', '.join(sorted(data.bots))})")
        # checked before the game is stored: a refused request leaves nothing behind
        unknown = sorted(set(data.bots) - set(data.players or game.default_seats()))
        if unknown:
            raise Problem(422, "bad input", f"bots for seats not in the game: {', '.join(unknown)}")
        gid, match, _receipt = self.engine.new(
            data.kind, seats=data.players, seed=data.seed,
            options={k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in data.options.items()},
            dice=data.dice)
        issued = {seat: tokens.new_token() for seat in match.seats}
        referee = tokens.new_token()
        rows = [(seat, tokens.token_hash(tok), data.bots.get(seat)) for seat, tok in issued.items()]
        rows.append((REFEREE, tokens.token_hash(referee), None))
        store = self.store()
        store.add_seat_access(gid, rows)
        self._bots[gid] = dict(data.bots)
        self._alone(gid, lambda group: self._play_bots(gid, group))

        def access(tok: str) -> SeatAccess:
            return SeatAccess(token=tok, url=f"{self.base_url}/table/{gid}#{tok}")

        return Created(game_id=gid, kind=data.kind,
                       seats={s: access(t) for s, t in issued.items() if s not in data.bots},
                       referee=access(referee))

    def relink(self, game_id: str, who: Who, seat: str) -> Any:
        """A new link for a seat whose link went astray (shared by mistake, lost, taken): the
        referee's to give; the old token stops working at once, on every open page."""
        from arbiter.service.api import SeatAccess

        if who.seat != REFEREE:
            raise Problem(403, "not the referee", "only the game's referee gives a seat a new link")
        m = self.match(game_id)
        if seat != REFEREE and seat not in m.seats:
            raise Problem(404, "no such seat", f"{m.game_id} has no seat {seat!r} (seats: {', '.join(m.seats)})")
        bots = self._bots.get(m.game_id)
        if bots is None:
            bots = self._bots[m.game_id] = self.store().seat_bots(m.game_id)
        if seat in bots:
            raise Problem(409, "a bot's seat", f"a bot sits at {seat}: it needs no link")
        token = tokens.new_token()
        if not self.store().replace_seat_token(m.game_id, seat, tokens.token_hash(token)):
            raise Problem(404, "no such seat", f"{m.game_id} was not created by a server: it has no seat links")
        for hashed, (gid, s) in list(self._seats.items()):  # the old token, known no more
            if gid == m.game_id and s == seat:
                del self._seats[hashed]
        self._moved(m.game_id)  # the old token's open streams wake, and end
        return SeatAccess(token=token, url=f"{self.base_url}/table/{m.game_id}#{token}")

    def listing(self) -> list[Any]:
        from arbiter.service.api import Listing

        return [Listing(game_id=g.game_id, kind=g.kind, seats=list(g.seats), status=g.status or "",
                        winner=g.winner) for g in self.store().games()]

    def match(self, game_id: str) -> Match:
        """A game warm in memory (folded from the store on the writer thread the first time).
        The server is the store's only writer while it runs, so its warm games are current."""
        warm = self._warm.get(game_id)
        if warm is not None:
            return warm
        m = self.engine.load_from(self.store(), game_id, fresh=True)
        self._warm.setdefault(m.game_id, m)
        return self._warm[m.game_id]

    def _do(self, group: Group, game_id: str, text: str, seat: str,
            command_id: str | None = None) -> tuple[Staged, Match]:
        """Decide one command into ``group`` (writer thread, holding the game's lock, so that
        no reader sees the warm game before the group is written or given up)."""
        staged, m = group.decide(self.match(game_id), seat, text, command_id)
        self._warm[m.game_id] = m
        return staged, m

    def _alone(self, game_id: str, work: Callable[[Group], Callable[[], T] | None]) -> T | None:
        """``work`` decides into a group of its own, written with one commit; what it
        returns is called once the group is written, for the answer."""
        group = Group(self.engine, self.store())
        with self.lock(game_id):
            try:
                answer = work(group)
                games = group.games
                group.commit()
            except BaseException:
                self._cool(group.discard())
                raise
            result = answer() if answer is not None else None
        for gid in games:
            self._moved(gid)
        return result

    def _cool(self, games: list[str]) -> None:
        """Games whose decided commands were not written: out of memory, to be folded again."""
        for gid in games:
            self._warm.pop(gid, None)

    # -- the group commit -----------------------------------------------------------------

    def _group(self, jobs: list[Job], alone: bool = False) -> list[Job]:
        """Seats' commands, from any games, decided one after another (a game's own in the
        order they came, each against the state the ones before it left) and written with one
        commit; then each is answered. A refused command is answered alone and changes
        nothing; if the group cannot be written, nothing of it is, every command in it gets
        the error, and its games are folded again when next needed. A clash with another
        writer, or a command that failed halfway (a bot's move after it), has the group's
        commands tried again one by one. Returns the commands that must wait for the next
        group (a retry of a command in this one)."""
        try:
            group = Group(self.engine, self.store())
            group.look_up([job.args[3] for job in jobs if job.args[3] is not None])
        except ArbiterError as exc:
            for job in jobs:
                job.settle(error=exc)
            return []
        later: list[Job] = []
        decided: list[tuple[Job, Callable[[], Any] | None, BaseException | None, tuple | None]] = []
        with contextlib.ExitStack() as held:
            for job in jobs:
                held.enter_context(self.lock(job.args[0]))
                before = len(group)
                try:
                    decided.append((job, self._stage(group, *job.args), None, None))
                    continue
                except BaseException as exc:
                    error: BaseException = exc
                if isinstance(error, Later) and len(group) == before:
                    later.append(job)
                    continue
                if len(group) != before:  # it failed halfway: part of it is decided, in memory
                    if not alone:
                        return self._one_by_one(group, jobs)
                    self._cool(group.discard())
                    job.settle(error=error)
                    return []
                refusal = None
                if isinstance(error, (RuleViolation, ParseError)):
                    try:
                        error, refusal = self._refusal(job.args[0], job.args[1].seat,
                                                       self._as_sent(job.args[2], job.args[4]), error)
                    except BaseException as exc:
                        error = exc
                decided.append((job, None, error, refusal))
            games = group.games
            try:
                group.commit()
            except BaseException as exc:
                self._cool(games)
                if isinstance(exc, Conflict) and not alone:
                    return self._one_by_one(group, jobs)
                for job, *_ in decided:
                    job.settle(error=exc)
                return later
            answers = []
            for job, answer, error, refusal in decided:
                try:
                    if refusal is not None:
                        self.store().add_refusal(*refusal, "service")
                    answers.append((job, answer() if answer is not None else None, error))
                except BaseException as exc:
                    answers.append((job, None, exc))
        for gid in games:
            self._moved(gid)
        for job, value, error in answers:
            job.settle(value, error)
        return later

    def _one_by_one(self, group: Group, jobs: list[Job]) -> list[Job]:
        """The group given up; each of its commands decided and written on its own."""
        self._cool(group.discard())
        later: list[Job] = []
        for job in jobs:
            later += self._group([job], alone=True)
        return later

    def _stage(self, group: Group, game_id: str, who: Who, text: str, command_id: str | None,
               faces: str | None) -> Callable[[], Any]:
        """Decide a seat's command (and the bots' moves after it) into ``group``; returns how
        to answer it once the group is written."""
        if who.seat == REFEREE:
            raise Problem(403, "not a seat", "the referee's token watches and undoes; seats act")
        if not text.strip():
            raise Problem(422, "not a command", "the command is empty")
        if len(text) > 2000:
            raise Problem(422, "not a command", "a command is at most 2000 characters")
        staged, m = self._do(group, game_id, self._as_sent(text, faces), who.seat, command_id)
        self._play_bots(m.game_id, group)

        def answer() -> Any:
            r = staged.receipt
            assert r is not None
            return self._applied(m.game_id, who, str(r), r.seq, r.first_seq)

        return answer

    @staticmethod
    def _as_sent(text: str, faces: str | None) -> str:
        """The command with the physical dice's faces the seat sent beside it."""
        return text if faces is None else explain.with_faces(text, faces)

    def kept_state(self, who: Who) -> Any:
        """The answer of a seat's GET when it is kept for the game's current seq (event loop:
        a dictionary look-up, no lock; a seq inside a command is never a key)."""
        m = self._warm.get(who.game_id)
        if m is None:
            return None
        return self._states.get((who.game_id, m.seq, who.seat))

    async def get_state(self, who: Who) -> Any:
        kept = self.kept_state(who)
        if kept is not None:  # every seat's clients ask again after each move
            return kept
        return await self.read(who.game_id, self.state, who.game_id, who)

    def state(self, game_id: str, who: Who) -> Any:
        """What ``who`` sees now: computed once per (game, seq, seat), then kept."""
        from arbiter.service.api import GameState

        m = self.match(game_id)
        seat = who.seat
        if seat != REFEREE and seat not in m.seats:  # the referee asked for a seat the game has not
            raise Problem(404, "no such seat", f"{m.game_id} has no seat {seat!r} (seats: {', '.join(m.seats)})")
        key = (m.game_id, m.seq, seat)
        kept = self._states.get(key)
        if kept is not None:
            return kept
        view = m.view(seat)
        plain = msgspec.to_builtins(view)
        to_act = m.to_act()
        out = m.outcome()
        legal: list[str] = []
        if out is None and seat in to_act.seats:
            legal = m.legal_texts(seat)
        state = GameState(
            game_id=m.game_id, kind=m.game.id, title=m.game.title, seq=m.seq, seat=seat,
            seats=list(m.seats), to_act=[] if out else list(to_act.seats),
            decision="over" if out else to_act.kind, prompt="" if out else (to_act.prompt or ""),
            turn=explain.whose_turn(m), status="over" if out else "playing",
            winners=list(out.winners) if out else [], result=(out.reason or "") if out else "",
            view=plain, legal=legal, board=board_svg(m.game.id, plain, seat),
            panels=side_panels(m.game.id, plain, seat), final=self.final(m))
        with self._states_lock:
            self._states[key] = state
            while len(self._states) > STATES_KEPT:
                self._states.popitem(last=False)
        return state

    def command(self, game_id: str, who: Who, text: str, command_id: str | None,
                faces: str | None = None) -> Any:
        """A seat's command written on its own (on the writer thread; the API's commands go
        through :meth:`act`, to be written in groups)."""
        job = Job(None, (game_id, who, text, command_id, faces))
        while self._group([job], alone=True):
            pass
        return job.outcome()

    def _refusal(self, game_id: str, seat: str, text: str, exc: ArbiterError
                 ) -> tuple[ArbiterError, tuple[Any, ...]]:
        """The answer to a refused command, and its row for the store's `refusals` (written,
        as the command line does, through the server's own open store once the group is),
        with the command line's code for it: 1 for an illegal move (409 here), 2 for bad
        input."""
        m = self.match(game_id)
        code = 1 if problems.status(exc)[0] == 409 else 2
        row = (m.game_id, m.seq, seat, text, getattr(exc, "rule_id", None), str(exc), code)
        if isinstance(exc, ParseError):
            exc = self._unparsed(game_id, seat, text, exc)
        return exc, row

    def _unparsed(self, game_id: str, seat: str, text: str, exc: ParseError) -> ArbiterError:
        """A command that did not parse, with the same hint the command line gives; a
        manual-dice game's missing faces say so, for the table to ask for them."""
        m = self.match(game_id)
        if explain.needs_faces(m, exc):
            return Problem(422, "faces needed", str(exc), faces_needed=True)
        return explain.with_hint(exc, m, seat, text)

    def bot_turn(self, game_id: str, who: Who, kind: str | None) -> Any:
        """A bot decides for the seat while it is the seat's decision (a routine turn); its
        moves, and the bots' after them, are written with one commit."""
        return self._alone(who.game_id, lambda group: self._bot_turn(group, game_id, who, kind))

    def _bot_turn(self, group: Group, game_id: str, who: Who, kind: str | None) -> Callable[[], Any]:
        if who.seat == REFEREE:
            raise Problem(403, "not a seat", "the referee's token watches and undoes; seats act")
        m = self.match(game_id)
        bot = get_bot(m.game, kind or next(iter(m.game.bots), "random"))
        if m.outcome() is not None or who.seat not in m.to_act().seats:
            raise Problem(409, "not your decision", f"it is not {who.seat}'s decision now")
        first, last = m.seq + 1, None
        rng = random.Random(f"{m.game_id}/{m.seq}/{who.seat}")
        for _ in range(BOT_STEPS):
            if m.outcome() is not None or who.seat not in m.to_act().seats:
                break
            legal = m.legal(who.seat)
            if not legal:
                break
            text = m.game.command_text(bot(m.state, who.seat, legal, rng))
            try:
                last, m = self._do(group, m.game_id, text, who.seat)
            except ManualDiceError as exc:
                if not explain.needs_faces(m, exc):
                    raise
                if last is not None:
                    break  # what the bot played stands; the dice it needs next are the seat's to roll
                raise Problem(422, "faces needed", f"the bot would play `{text}`: {exc}", faces_needed=True,
                              command=text) from None
            if m.to_act().kind == "turn" and m.to_act().seats and m.to_act().seats[0] != who.seat:
                break
        self._play_bots(m.game_id, group)
        gid, seq = m.game_id, m.seq
        return lambda: self._applied(gid, who, str(last.receipt) if last is not None else "", seq, first)

    def undo(self, game_id: str, who: Who) -> Any:
        return self._alone(who.game_id, lambda group: self._undo(group, game_id, who))

    def _undo(self, group: Group, game_id: str, who: Who) -> Callable[[], Any]:
        """The move on top taken back: the referee's any, a seat's its own; at a table with
        bots, a seat's own together with the bots' moves that answered it (they move at once,
        so a seat playing bots could otherwise never take a move back). All or nothing: one
        group, given up whole when no move of the seat's is found under the bots'."""
        m = self.match(game_id)
        bots = self._bots.get(m.game_id)
        if bots is None:
            bots = self._bots[m.game_id] = self.store().seat_bots(m.game_id)
        first = None
        for _ in range(BOT_STEPS):
            top = m.folded.top if m.folded else None
            # the move on top, read alone (not the whole history) when it is older than the
            # snapshot the game was loaded from
            undone = m.command_at(top.first_seq) if top is not None else None
            if undone is None or undone[2] == SETUP:
                if first is None:
                    raise Problem(409, "nothing to undo", "no move has been made yet")
                raise Problem(409, "nothing to undo", f"{who.seat} has made no move under the bots' moves")
            mover = undone[1]
            mine = who.seat == REFEREE or mover == who.seat
            if not mine and not (mover in bots and who.seat not in bots):
                raise Problem(403, "not your move", f"the last move was {mover}'s; a seat may retract only its own")
            staged, m = self._do(group, game_id, UNDO, mover)
            first = first if first is not None else staged
            if mine:
                break
        else:
            raise Problem(409, "nothing to undo", f"{who.seat} has made no move under the bots' moves")

        def answer() -> Any:
            r, f = staged.receipt, first.receipt
            assert r is not None and f is not None
            return self._applied(m.game_id, who, str(r), r.seq, f.first_seq)

        return answer

    def _applied(self, game_id: str, who: Who, receipt: str, seq: int, first: int) -> Any:
        from arbiter.service.api import Applied

        page = self.events(game_id, who, first - 1)
        return Applied(receipt=receipt, seq=seq, events=[e for e in page.events if e.seq <= seq])

    def events(self, game_id: str, who: Who, after: int, before: int | None = None,
               limit: int | None = None) -> Any:
        """The seat's log after seq ``after``; with ``before``, the newest ``limit`` of it
        below that seq (a page further back), else the oldest ``limit`` (all, with none)."""
        from arbiter.service.api import EventPage, ShownEvent

        m = self.match(game_id)
        if before is None:
            items = m.log(who.seat, after=after)
            more = limit is not None and len(items) > limit
            items = items[:limit]
        else:
            items, more = self._earlier(m, who.seat, after, before, limit)
        shown = [ShownEvent(seq=s, actor=a, type=type(ev).__name__, text=explain.describe(m, ev, who.seat),
                            event=msgspec.to_builtins(ev))
                 for s, a, ev in items]
        return EventPage(seq=m.seq, events=shown, more=more)

    def stream_page(self, game_id: str, who: Who, after: int) -> tuple[Any, Any]:
        """The seat's log after ``after``, and the game's result when it is over (read
        together, so a stream that ends has sent every event before the end)."""
        from arbiter.service.api import Ended

        m = self.match(game_id)
        out = m.outcome()
        page = self.events(game_id, who, after)
        return page, None if out is None else Ended(seq=m.seq, winners=list(out.winners), result=out.reason or "",
                                                    final=self.final(m))

    @staticmethod
    def final(m: Match) -> bool:
        """Whether the game is over for good. Its end reveals the seed, and no move can be
        taken back once it is (every seat knows the dice); a game recorded without a seed
        commitment (by an older release) reveals none, and a seat may still undo its end."""
        return m.outcome() is not None and m.folded is not None and m.folded.revealed is not None

    @staticmethod
    def _earlier(m: Match, seat: str, after: int, before: int, limit: int | None) -> tuple[list[Any], bool]:
        """The newest ``limit`` events of the seat's log between ``after`` and ``before``,
        and whether it holds any further back: read a window of seqs at a time, never the
        whole log (a seat's log leaves out what it may not see, so a window can come short)."""
        if limit is None:
            return m.log(seat, after=after, before=before), False
        low = before
        items: list[Any] = []
        while len(items) <= limit and low > after:
            low = max(after, low - 1 - 2 * limit)
            items = m.log(seat, after=low, before=before)
        return items[-limit:], len(items) > limit

    def verify(self, game_id: str, who: Who) -> Any:
        from arbiter.service.api import Verdict

        m = self.match(game_id)
        full = who.seat == REFEREE
        report = audit.verify_game(self.store(), m.game_id, redecide=full)
        problems = [p.message for p in report.problems]
        return Verdict(game_id=m.game_id, ok=report.ok, checked="chain, dice and decisions" if full else "chain and dice",
                       events=report.events, commands=report.commands, draws=report.rolls,
                       problems=problems if full else [p for p in problems if "seed" not in p])

    # -- bots -----------------------------------------------------------------------------

    def _play_bots(self, game_id: str, group: Group) -> None:
        """Let the bots sitting at a game act while it is their decision."""
        bots = self._bots.get(game_id)
        if bots is None:
            bots = self._bots[game_id] = self.store().seat_bots(game_id)
        if not bots:
            return
        m = self.match(game_id)
        game = m.game
        rng = random.Random(f"{game_id}/{m.seq}")
        for _ in range(BOT_STEPS):
            if m.outcome() is not None:
                return
            acting = [s for s in m.to_act().seats if s in bots]
            humans = [s for s in m.to_act().seats if s not in bots]
            if not acting or (humans and m.to_act().kind == "turn"):
                return
            seat = next_seat(m, rng) if not humans else acting[0]
            if seat not in bots:
                seat = acting[0]
            legal = m.legal(seat)
            if not legal:
                return
            bot = get_bot(game, read_bot_record(bots[seat]).kind)
            text = game.command_text(bot(m.state, seat, legal, rng))
            _staged, m = self._do(group, game_id, text, seat)
