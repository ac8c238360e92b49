"""A game in memory: the kernel's checks around a game's decider, with undo and views.

:class:`Match` holds no store; :mod:`core.engine` persists what it decides.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Mapping, Sequence

import msgspec

from arbiter.core import fairness
from arbiter.core.dice import Rng
from arbiter.core.errors import ManualDiceError, ParseError, RuleViolation
from arbiter.core.game import Game, content_hash, emitted
from arbiter.events.base import DiceRolled, Event, GameCreated, SeedRevealed, Shuffled, Undone
from arbiter.events.codec import Codec
from arbiter.events.store import Listing, outcome_json
from arbiter.projections.fold import SETUP, DeeperFold, Folded, Frame, effective, fold_on, step
from arbiter.projections.kernel import REFEREE, Decision, Outcome, redact_shuffle

#: Recorded in each game's GameCreated; rules of the kernel itself that change with it apply
#: only to games created under it, so an older game's log still re-decides as it was played
#: (0.2.0: an undo may not take back a move that showed a seat something hidden)
ENGINE_VERSION = "0.2.0"

UNDO = "undo"
_MANUAL = re.compile(r"^(.*?)\s*\[([^\[\]]*)\]\s*$")
_SEAT = re.compile(r"^[a-z][a-z0-9_-]{0,23}$")


def release() -> str:
    """arbiter's release, as installed (pyproject.toml's version): what ``--version`` and the
    service's API document name first; not :data:`ENGINE_VERSION`, which moves only with
    the kernel's rules."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("arbiter-referee")
    except PackageNotFoundError:
        return "unknown (not installed)"


#: What a resumed match reads of the log before its snapshot: (seq, command id, event),
#: seq -> actor, and command id -> (seat, text) of every command.
#: One stored command: (command id, seat, text as stored, its events).
Command = tuple[str, "str | None", str, "list[Event]"]
History = tuple[list[tuple[int, str, Event]], dict[int, str | None], dict[str, tuple[str | None, str]]]
#: Reads (seq, actor, event) of stored events after seq ``after`` up to ``upto`` (with
#: ``rolls_from``: only the dice rolled at that draw or later), for a match resumed from a
#: snapshot that needs some of the events before it and not the whole history.
Between = Callable[..., list[tuple[int, "str | None", Event]]]


def check_seat_names(seats: Sequence[str]) -> None:
    from arbiter.core.errors import BadOption

    for s in seats:
        if not _SEAT.match(s) or s in (REFEREE, UNDO, "all"):
            shown = s if len(s) <= 40 else f"{s[:40]}…"
            lower = s.lower()
            hint = f"; try {lower!r}" if lower != s and _SEAT.match(lower) and lower not in (REFEREE, UNDO, "all") else ""
            raise BadOption(
                f"player name {shown!r} is not allowed: a name is 1 to 24 of a-z, 0-9, - and _,"
                f" starting with a letter a-z, and not 'referee', 'undo' or 'all'{hint}"
            )
    if len(set(seats)) != len(seats):
        raise BadOption("player names must differ")


class Match:
    """One game's effective state, and the events it was folded from."""

    def __init__(self, game: Game[Any, Any], items: list[tuple[int, str, Event]],
                 actors: Mapping[int, str | None] | None = None) -> None:
        self.game = game
        self.game_id = ""  # set when loaded from or written to a store
        self.head_hash = ""
        self.codec = game.codec
        self.folded: Folded | None = None
        # What is in memory: the events after seq ``_base``, their actors and the texts of
        # their commands. A match resumed from a snapshot starts with none of the events
        # before it; ``_history`` reads them (and every command's text) on first need.
        self._base = 0
        self._history: Callable[[], History] | None = None
        self._items: list[tuple[int, str, Event]] = []
        self._actors: dict[int, str | None] = {}
        self._texts: dict[str, tuple[str | None, str]] = {}
        #: the seq of the newest snapshot written or read for this game (0: none)
        self.snapshot_seq = 0
        # reads one command from the store by its first seq (a match resumed from a snapshot)
        self._command: Callable[[int], Command | None] | None = None
        self._between: Between | None = None
        # (state before, event, state after) of the events :meth:`with_reveal` last evolved,
        # so that folding the same events does not evolve them a second time
        self._evolved: list[tuple[Any, Event, Any]] = []
        self._made: tuple[GameCreated, dict[str, tuple[str, ...]], SeedRevealed | None] | None = None
        # a replay's loop: nothing evolved ahead yet, so step straight through
        self.folded = fold_on(game.projection, None, items)
        self._items = list(items)
        actors = actors or {}
        if len(actors) == len(items) and (not items or items[0][0] in actors):
            self._actors = dict(actors)  # read_log's own: one actor an event already
        else:
            self._actors = {seq: actors.get(seq) for seq, _c, _e in items}

    @classmethod
    def resume(cls, game: Game[Any, Any], folded: Folded, tail: list[tuple[int, str, Event]],
               actors: dict[int, str | None], texts: dict[str, tuple[str | None, str]],
               history: "Callable[[], History]",
               command: "Callable[[int], Command | None] | None" = None,
               between: "Between | None" = None) -> "Match":
        """A match from a snapshot (``folded``, after seq ``folded.seq``) and the events
        after it; ``history()`` gives the events before it, their actors and every command's
        text when something asks for the whole log."""
        match = cls(game, [])
        match.folded, match._base, match.snapshot_seq = folded, folded.seq, folded.seq
        match._history = history if folded.seq else None
        match._command = command
        match._between = between
        match._texts = dict(texts)
        for seq, cid, ev in tail:
            match._fold(seq, cid, ev, actors.get(seq))
        return match

    # -- the whole history, read on first need -----------------------------------------

    def _whole(self) -> None:
        if self._history is None:
            return
        items, actors, texts = self._history()
        self._items = items + self._items
        self._actors = {**actors, **self._actors}
        self._texts = {**texts, **self._texts}
        self._history, self._base = None, 0

    @property
    def items(self) -> list[tuple[int, str, Event]]:
        """(seq, command id, event) of every stored event, in order."""
        self._whole()
        return self._items

    @property
    def actors(self) -> dict[int, str | None]:
        """seq -> the seat whose command wrote it (None: the referee's setup)."""
        self._whole()
        return self._actors

    @property
    def texts(self) -> dict[str, tuple[str | None, str]]:
        """command_id -> (seat, text as stored: canonical, with manual faces)."""
        self._whole()
        return self._texts

    @texts.setter
    def texts(self, value: dict[str, tuple[str | None, str]]) -> None:
        self._texts = value

    def actor(self, seq: int) -> str | None:
        """Who wrote event ``seq`` (None for setup), without reading older history."""
        if seq > self._base:
            return self._actors.get(seq)
        return self.actors.get(seq)

    def command_at(self, first_seq: int) -> Command | None:
        """(command id, seat, text, events) of the command whose first event is seq
        ``first_seq`` (None: no command starts there). One older than the events in memory
        is read alone from the store, not with the whole history."""
        if self._history is not None and first_seq <= self._base:
            found = self._command(first_seq) if self._command is not None else None
            if found is not None:
                return found
            self._whole()
        index = first_seq - 1 - self._base
        if not 0 <= index < len(self._items):
            return None
        cid = self._items[index][1]
        events = []
        for _s, c, ev in self._items[index:]:
            if c != cid:
                break
            events.append(ev)
        seat, text = self._texts.get(cid, (self._actors.get(first_seq), ""))
        return cid, seat, text, events

    # -- building ---------------------------------------------------------------------

    @classmethod
    def new(cls, game: Game[Any, Any], *, seed: int | None = None, seats: Sequence[str],
            options: Mapping[str, Any] | None = None, dice: str = "seeded",
            content: dict[str, Any] | None = None, content_source: str = "embedded",
            forked_from: str | None = None, forked_at: int | None = None,
            entropy: Mapping[str, str] | None = None, salt: str | None = None,
            practice: bool | None = None, commit: bool = True,
            engine_version: str = ENGINE_VERSION, rules_version: str | None = None) -> "Match":
        """Create a game: validate seats, options and content, then run its setup
        (``engine_version``: the kernel's rules it is played under; an audit sets up an
        older game again under its own; ``rules_version``, the game's, likewise: the setup
        is today's, labelled as recorded, so that only a decision that differs tells).

        Without ``seed`` the referee draws one nobody chose; a given seed makes a practice
        game. Either way the seed is sealed (:mod:`core.fairness`): ``GameCreated`` commits
        to it and the kernel reveals it when the game ends. ``commit=False`` records the
        seed without a commitment or a reveal (a fork of a game still on shares its dice,
        which must stay secret until the original ends)."""
        from arbiter.core.errors import BadOption

        seats = tuple(seats)
        check_seat_names(seats)
        game.check_seats(seats)
        if dice not in ("seeded", "manual"):
            raise BadOption(f"dice must be 'seeded' or 'manual', not {dice!r}")
        if seed is None:
            seed, practice = fairness.draw_seed(), bool(practice)
        elif practice is None:
            practice = True
        if not 0 <= seed < fairness.MAX_SEED:
            raise BadOption("the seed must be a whole number from 0 to 2^63-1")
        fairness.check_entropy(entropy or {}, seats)
        resolved = game.resolve_options(options or {})
        if content is None:
            content = game.default_content()
        game.check_content(content)
        commitment, sealed = None, None
        if commit:
            seed, commitment, sealed = fairness.seal(seed, practice=practice, entropy=entropy, salt=salt)
        elif entropy:
            raise BadOption("a game without a seed commitment takes no --entropy")
        created = GameCreated(
            kind=game.id, seed=seed, seats=seats, options=resolved, content=content,
            content_hash=content_hash(content), content_source=content_source, dice=dice,
            rules_version=rules_version or game.rules_version, engine_version=engine_version,
            forked_from=forked_from, forked_at=forked_at, commitment=commitment, sealed=sealed,
        )
        match = cls(game, [(1, SETUP, created)])
        assert match.folded is not None
        rng = Rng(seed, 0, game.dice(created))
        for ev in match.with_reveal(game.setup(created, rng)):
            match._fold(len(match.items) + 1, SETUP, ev, None)
        return match

    @classmethod
    def recreate(cls, game: Game[Any, Any], created: GameCreated) -> "Match":
        """The game ``created`` set up again, seed, salt and entropy as recorded: an audit
        re-decides a stored game on it."""
        sealed, commitment = created.sealed, created.commitment
        if created.seed is None:
            from arbiter.core.errors import BadOption

            raise BadOption("this GameCreated is a seat's view: its seed is still sealed")
        return cls.new(
            game, seed=sealed.seed if sealed is not None else created.seed, seats=created.seats,
            options=created.options, dice=created.dice, content=created.content,
            content_source=created.content_source, forked_from=created.forked_from,
            forked_at=created.forked_at, entropy=sealed.entropy if sealed is not None else None,
            salt=sealed.salt if sealed is not None else None,
            practice=commitment.practice if commitment is not None else True,
            commit=commitment is not None and sealed is not None, engine_version=created.engine_version,
            rules_version=created.rules_version,
        )

    def with_reveal(self, events: list[Event]) -> list[Event]:
        """``events``, and the seed's reveal after them when they end the game."""
        assert self.folded is not None
        if self.folded.revealed is not None or not events:
            return events
        revealed = self._setup()[1]
        if revealed is None:
            return events
        state, projection = self.state, self.game.projection
        evolved = self._evolved = []
        known = emitted(projection, state, events)  # what the game's own Emitter evolved
        for i, ev in enumerate(events):
            if isinstance(ev, SeedRevealed):
                return events
            after = known[i] if i < len(known) else projection.evolve(state, ev)
            evolved.append((state, ev, after))
            state = after
        return [*events, revealed] if projection.outcome(state) is not None else events

    def _fold(self, seq: int, cid: str, ev: Event, actor: str | None) -> None:
        projection = self.game.projection
        if self._evolved:
            before, event, after = self._evolved[0]
            if event is ev and self.folded is not None and self.folded.state is before:
                del self._evolved[0]
                projection = _Evolved(after)  # type: ignore[assignment]
            else:
                self._evolved = []
        self.folded = step(projection, self.folded, seq, cid, ev)
        self._items.append((seq, cid, ev))
        self._actors[seq] = actor

    # -- reading ----------------------------------------------------------------------

    @property
    def created(self) -> GameCreated:
        assert self.folded is not None
        return self.folded.created

    @property
    def state(self) -> Any:
        assert self.folded is not None
        return self.folded.state

    @property
    def seq(self) -> int:
        return self.folded.seq if self.folded is not None else 0

    @property
    def seats(self) -> tuple[str, ...]:
        return self.created.seats

    def to_act(self) -> Decision:
        if self.outcome() is not None:
            return Decision("over", ())
        return self.game.projection.to_act(self.state)

    def outcome(self) -> Outcome | None:
        return self.game.projection.outcome(self.state)

    def view(self, seat: str | None) -> Any:
        if seat == REFEREE or self.outcome() is not None:
            return self.state
        return self.game.projection.view(self.state, seat)

    def log(self, seat: str | None, *, effective_only: bool = False,
            after: int = 0, before: int | None = None) -> list[tuple[int, str | None, Event]]:
        """(seq, actor, event) as ``seat`` may see them (from ``after`` on, and below
        ``before`` when given: a page of an earlier part of the log); everything once the
        game is over."""
        over = self.outcome() is not None
        if effective_only:
            items = [(seq, self._actors.get(seq), ev) for seq, _c, ev in effective(self.items)]
        else:
            items = self._since(after, before)
        out = []
        for seq, actor, ev in items:
            if seq <= after or (before is not None and seq >= before):
                continue
            shown: Event | None = ev
            if seat != REFEREE and not over:
                shown = self.redact(ev, seat)
            if shown is not None:
                out.append((seq, actor, shown))
        return out

    def _since(self, after: int, before: int | None = None) -> list[tuple[int, str | None, Event]]:
        """(seq, actor, event) after seq ``after`` (and below ``before``): the older ones
        read alone from the store when the match was resumed from a snapshot after
        ``after``."""
        upto = None if before is None else max(after, before - 1)  # the last seq wanted
        if after >= self._base:  # only what is in memory: a command's echo reads nothing
            items = self._items[after - self._base:None if upto is None else upto - self._base]
        elif self._history is not None and self._between is not None:
            older = self._between(after, self._base if upto is None else min(upto, self._base))
            tail = self._items if upto is None else self._items[:max(0, upto - self._base)]
            return older + [(seq, self._actors.get(seq), ev) for seq, _c, ev in tail]
        else:
            items = self.items[after:upto]
        return [(seq, self._actors.get(seq), ev) for seq, _c, ev in items]

    def rolls_seen(self, seat: str | None, from_draw: int) -> dict[int, tuple[tuple[str, ...], tuple[str, ...]]]:
        """draw -> (dice, faces) of the seeded rolls of draw ``from_draw`` or later that
        ``seat`` has been shown (an undo keeps what was seen: its draws come again). Rolls
        older than the events in memory are asked of the store by draw, not by reading the
        whole history."""
        if self._history is not None and self._between is not None:
            older = self._between(0, self._base, rolls_from=from_draw)
            items = older + [(seq, self._actors.get(seq), ev) for seq, _c, ev in self._items]
        else:
            items = [(seq, self._actors.get(seq), ev) for seq, _c, ev in self.items]
        over = self.outcome() is not None
        seen = {}
        for _seq, _a, ev in items:
            if not isinstance(ev, DiceRolled) or ev.n < from_draw:
                continue
            shown = ev if seat == REFEREE or over else self.redact(ev, seat)
            if isinstance(shown, DiceRolled) and not shown.manual:
                seen[shown.n] = (shown.dice, shown.faces)
        return seen

    def redact(self, ev: Event, seat: str | None) -> Event | None:
        """One event as ``seat`` may see it while the game is on."""
        if isinstance(ev, GameCreated):
            return fairness.redact_created(ev)
        shown = redact_shuffle(ev, seat, False)
        if shown is not None:
            shown = self.game.projection.redact(shown, seat, self.state)
        return shown

    def preview(self, events: Sequence[Event], seat: str | None, live: Any = None) -> list[Event]:
        """The events of :meth:`blind_preview` alone."""
        return self.blind_preview(events, seat, live if isinstance(live, Match) else None)[0]

    def blind_preview(self, events: Sequence[Event], seat: str | None,
                      live: "Match | None" = None) -> tuple[list[Event], str]:
        """What a dry run may tell ``seat``: the events decided before the first draw the
        seat has not seen (a seeded roll it was not shown, any shuffle, a card or value
        hidden from it in this position), redacted like the log; and, when the run was cut
        there, what the rest depends on. Nothing computed from a hidden draw is shown.
        ``live`` is the game as it stands (the rolls the seat has seen are in its log)."""
        if seat == REFEREE:
            return list(events), ""
        live = live or self
        assert self.folded is not None
        # what is decided here draws from this position's count on: older rolls cannot recur
        seen = live.rolls_seen(seat, self.folded.draws)
        projection = self.game.projection
        secret = projection.hidden_from(self.state, seat)
        choosing = still_choosing(self.to_act())
        state, out = self.state, []
        for ev in events:
            if choosing and not isinstance(ev, SeedRevealed) and not still_choosing(projection.to_act(state)):
                # the last secret choice is in: what follows is the reveal of the others'
                return out, "the other seats' secret choices (hidden until every choice is in)"
            cut = hidden_draw(ev, seen, secret)
            if cut:
                if cut.startswith("a card"):
                    # a draw as onlookers see it (who draws, how many) tells nothing hidden
                    public = self.redact(ev, None)
                    unseen = secret | projection.hidden_from(self.state, None)
                    if public is not None and not unseen & set(tokens(msgspec.to_builtins(public))):
                        out.append(public)
                        cut = "the card(s) drawn, which you have not seen"
                return out, cut
            shown = self.redact(ev, seat)
            if shown is not None:
                out.append(shown)
            state = projection.evolve(state, ev) if not isinstance(ev, SeedRevealed) else state
        return out, ""

    def legal(self, seat: str) -> list[Any]:
        if self.outcome() is not None or seat not in self.to_act().seats:
            return []
        return self.game.legal_commands(self.state, seat)

    def legal_texts(self, seat: str) -> list[str]:
        return [self.game.command_text(c) for c in self.legal(seat)]

    # -- deciding ---------------------------------------------------------------------

    def resolve_seat(self, seat: str | None) -> str:
        if seat is not None:
            if seat not in self.seats:
                raise ParseError(f"no player {seat!r} in this game (players: {', '.join(self.seats)})")
            return seat
        who = self.to_act()
        if len(who.seats) == 1:
            return who.seats[0]
        if not who.seats:
            raise RuleViolation("ARB-GAME-OVER", "the game is over")
        raise ParseError(f"{', '.join(who.seats)} may all act now: say which with --as SEAT")

    def split_manual(self, text: str) -> tuple[str, list[str] | None]:
        m = _MANUAL.match(text)
        if self.created.dice == "manual":
            if m:
                return m.group(1), m.group(2).replace(",", " ").split()
            shorthand = self.game.manual_faces(text)
            if shorthand is not None:
                return shorthand[0], shorthand[1]
            return text, []
        if m:
            raise ManualDiceError(
                "this game rolls its own seeded dice; faces in [brackets] are only for games"
                " created with --dice manual"
            )
        return text, None

    def decide(self, seat: str | None, text: str) -> tuple[str, Any, list[Event]]:
        """(seat, command, events) that ``text`` would produce now; changes nothing."""
        text = " ".join(text.strip().split())
        if not text:
            raise ParseError("empty command", hint=self.syntax_hint())
        seat = self.resolve_seat(seat)
        if text.lower() == UNDO:
            return seat, UNDO, [self.undo_event(seat)]
        if self.outcome() is not None:
            raise RuleViolation("ARB-GAME-OVER", "the game is over; no more moves")
        who = self.game.projection.to_act(self.state)  # the game is not over: asked above
        body, manual = self.split_manual(text)
        if seat not in who.seats:
            ruling = None
            try:
                ruling = self.game.out_of_turn(self.state, seat, self.game.parse(self.state, seat, body))
            except ParseError:
                pass  # not a command at all: the turn is the first thing wrong with it
            if isinstance(ruling, RuleViolation):
                raise ruling
            raise RuleViolation(
                "ARB-TURN", f"it is not {seat}'s decision now (waiting on {', '.join(who.seats)})"
            )
        command = self.game.parse(self.state, seat, body)
        assert self.folded is not None
        seed = self.created.seed
        if seed is None:
            raise RuleViolation("ARB-SEALED", "this is a seat's copy of the game: only the referee can decide in it")
        rng = Rng(seed, self.folded.draws, self._setup()[0], manual)
        events = self.game.decide(self.state, seat, command, rng)
        rng.check_all_used()
        if not events:
            raise RuleViolation("ARB-NOT-LEGAL", "that command does nothing now")
        return seat, command, self.with_reveal(events)

    def _setup(self) -> tuple[dict[str, tuple[str, ...]], SeedRevealed | None]:
        """The game's dice and its seed's reveal (None for a game without a commitment),
        made once a game (once a ``GameCreated``): every decision asks for both."""
        created = self.created
        if self._made is None or self._made[0] is not created:
            self._made = (created, self.game.dice(created), fairness.reveal(created))
        return self._made[1], self._made[2]

    def undo_event(self, seat: str | None = None) -> Undone:
        """The event that retracts the last move still in effect, asked for by ``seat``."""
        assert self.folded is not None
        top = self.folded.top
        if top is None and self.folded.cut:
            raise DeeperFold("the move to undo is older than the snapshot this game was loaded from")
        if top is None:
            raise RuleViolation("ARB-UNDO-NOTHING", "there is no move to undo (setup cannot be undone)")
        if self.folded.revealed is not None:
            raise RuleViolation(
                "ARB-UNDO-REVEALED",
                "the game is over and its seed is revealed: every seat now knows the dice, so no"
                " move can be taken back (fork the game at an earlier seq to try another line)")
        if _version(self.created.engine_version) >= (0, 2):
            told = self.told_hidden(top, seat)
            if told:
                raise RuleViolation(
                    "ARB-UNDO-HIDDEN",
                    f"that move showed {' and '.join(told)} something the position before it kept hidden"
                    " (a card drawn, a deck's top seen): taken back, it would stay known, so the"
                    f" move stands (fork the game at seq {top.first_seq - 1} to try another line)")
        return Undone(first_seq=top.first_seq, last_seq=top.last_seq, command_id=top.command_id)

    def told_hidden(self, top: Frame, undoer: str | None = None) -> list[str]:
        """The seats that the command ``top`` showed a token (a card id, a secret value)
        the position before it hid from them, which an undo would leave knowing what the
        game again keeps from them. When the move's own seat asks, what the move showed of
        that seat's own secrets (a card played from its hand) does not count: it gives
        away only what was its own to keep."""
        projection, before = self.game.projection, top.state_before
        everything = set(tokens(plain_state(before), keys=True))
        actor = self._actors.get(top.first_seq)
        own: set[str] = set()
        if actor is not None and undoer == actor:
            own = set(tokens(plain_state(projection.view(before, actor)), keys=True))
        events = [ev for seq, _a, ev in self._since(top.first_seq - 1) if seq <= top.last_seq]
        told = []
        for seat in self.seats:
            hidden = everything - set(tokens(plain_state(projection.view(before, seat)), keys=True)) - own
            if not hidden:
                continue
            shown = [self.redact(ev, seat) for ev in events]
            if hidden & set(tokens(msgspec.to_builtins([e for e in shown if e is not None]))):
                told.append(seat)
        return told

    def apply(self, seat: str | None, text: str, command_id: str | None = None) -> list[Event]:
        """Decide and fold ``text``; returns its events."""
        seat, command, events = self.decide(seat, text)
        self.extend(events, seat, command_id or f"c{self.seq + 1}", self.stored_text(text, command))
        return events

    def extend(self, events: Sequence[Event], actor: str | None, command_id: str,
               text: str | None = None, folded: Folded | None = None) -> None:
        """Fold ``events`` as one command; ``folded``, when given, is that fold already
        made (an audit folded the very events, stored, before re-deciding them)."""
        if text is not None:
            self._texts[command_id] = (actor, text)
        if folded is not None and folded.seq == self.seq + len(events):
            self._evolved = []
            for ev in events:
                seq = len(self._items) + self._base + 1
                self._items.append((seq, command_id, ev))
                self._actors[seq] = actor
            self.folded = folded
            return
        for ev in events:
            self._fold(self.seq + 1, command_id, ev, actor)

    def ahead(self, events: Sequence[Event], command_id: str) -> Folded:
        """The fold once ``events`` are appended as ``command_id``; the match is unchanged."""
        folded, seq = self.folded, self.seq
        for ev in events:
            seq += 1
            folded = step(self.game.projection, folded, seq, command_id, ev)
        assert folded is not None
        return folded

    def stored_text(self, text: str, command: Any) -> str:
        """What the log keeps of a command: its canonical text, plus any physical dice."""
        canonical = self.command_text(command)
        if self.created.dice != "manual" or command == UNDO:
            return canonical
        _body, faces = self.split_manual(" ".join(text.split()))
        return f"{canonical} [{' '.join(faces)}]" if faces else canonical

    def effective_commands(self) -> list[tuple[str | None, str]]:
        """(seat, text) of every command still in effect, in order."""
        seen: list[str] = []
        setup = self.folded.setup_id if self.folded else SETUP
        for _seq, cid, _ev in effective(self.items):
            if cid != setup and (not seen or seen[-1] != cid):
                seen.append(cid)
        return [self.texts[c] for c in seen if c in self.texts]

    def command_text(self, command: Any) -> str:
        return UNDO if command == UNDO else self.game.command_text(command)

    def syntax_hint(self) -> str:
        # one form a line (some games' forms are lines already), as `help` in play shows them
        return "".join(f if f.startswith("\n") else f"\n  {f}" for f in self.game.syntax)

    def encode(self, ev: Event) -> str:
        return self.codec.encode(ev)


class _Evolved:
    """A projection for :func:`step` that already knows the state an event evolves to (pure
    evolve: the same state and event give the same state)."""

    __slots__ = ("after",)

    def __init__(self, after: Any) -> None:
        self.after = after

    def evolve(self, _state: Any, _event: Event) -> Any:
        return self.after


def listing_status(game: Game[Any, Any], state: Any) -> Listing:
    """What a game's listing row says of ``state``: (status, winner, outcome)."""
    out = game.projection.outcome(state)
    if out is None:
        return ("playing", None, None)
    return ("over", ",".join(out.winners) or None, outcome_json(out.reason, out.scores))


def still_choosing(decision: Decision) -> bool:
    return decision.kind == "simultaneous" and bool(decision.seats)


def hidden_draw(ev: Event, seen: Mapping[int, tuple[tuple[str, ...], tuple[str, ...]]],
                secret: set[str]) -> str:
    """What ``ev`` draws that the seat has not seen ("" if nothing), in words."""
    if isinstance(ev, SeedRevealed):
        return "the game would end here (its seed is revealed when it really does)"
    if isinstance(ev, Shuffled):
        return f"a shuffle of the {ev.deck}"
    if isinstance(ev, DiceRolled):
        if ev.manual or seen.get(ev.n) == (ev.dice, ev.faces):
            return ""
        return dice_words(ev.dice) + (f" (for {ev.purpose})" if ev.purpose else "")
    if secret and secret & set(tokens(msgspec.to_builtins(ev))):
        words = re.sub(r"(?<!^)([A-Z])", r" \1", type(ev).__name__).lower()
        return f"a card or value you have not seen ({words})"
    return ""


def dice_words(kinds: Sequence[str]) -> str:
    """``2 attack dice and a wacky die``: how many dice of each kind, in order."""
    counts: dict[str, int] = {}
    for k in kinds:
        counts[k] = counts.get(k, 0) + 1
    parts = [f"{n} {k} dice" if n > 1 else f"a {k} die" for k, n in counts.items()]
    return " and ".join(", ".join(parts[:-1]) and [", ".join(parts[:-1]), parts[-1]] or parts)


def tokens(obj: Any, keys: bool = False) -> list[str]:
    """Every text value in a plain structure (an event's fields; with ``keys``, a dict's
    text keys too: a state's zones may be keyed by card). A redaction's "?" and "" are none."""
    out: list[str] = []
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            if x and x != "?":
                out.append(x)
        elif isinstance(x, dict):
            if keys:
                out.extend(k for k in x if isinstance(k, str) and k and k != "?")
            stack.extend(x.values())
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
    return out


def plain_state(state: Any) -> Any:
    """A state as builtins without the box's catalogue (a top-level ``content`` lists every
    component, which every seat may know)."""
    out = msgspec.to_builtins(state)
    if isinstance(out, dict):
        out.pop("content", None)
    return out


def _version(text: str) -> tuple[int, ...]:
    """"0.2.0" -> (0, 2, 0); what does not read as numbers counts as the oldest."""
    try:
        return tuple(int(x) for x in text.split("."))
    except ValueError:
        return (0,)


def roundtrip(codec: Codec, ev: Event) -> Event:
    return codec.decode(type(ev).__name__, type(ev).VERSION, codec.encode(ev))


def to_json(obj: Any) -> str:
    return msgspec.json.encode(obj).decode()
