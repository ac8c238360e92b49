"""A game in memory: the kernel's checks around a game's decider, with undo and views.

:class:`Match` holds no store; :mod:`core.engine` persists what it decides.
"""

from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

import msgspec

from arbiter.core.dice import Rng
from arbiter.core.errors import ManualDiceError, ParseError, RuleViolation
from arbiter.core.game import Game, content_hash
from arbiter.events.base import DiceRolled, Event, GameCreated, Undone
from arbiter.events.codec import Codec
from arbiter.projections.fold import SETUP, Folded, effective, step
from arbiter.projections.kernel import REFEREE, Decision, Outcome, redact_shuffle

ENGINE_VERSION = "0.1.0"
UNDO = "undo"
_MANUAL = re.compile(r"^(.*?)\s*\[([^\[\]]*)\]\s*$")
_SEAT = re.compile(r"^[a-z][a-z0-9_-]{0,23}$")


def check_seat_names(seats: Sequence[str]) -> None:
    from arbiter.core.errors import BadOption

    for s in seats:
        if not _SEAT.match(s) or s in (REFEREE, UNDO, "all"):
            raise BadOption(
                f"player name {s!r} is not allowed: use lower-case letters, digits, - or _"
                f" (starting with a letter), and not 'referee', 'undo' or 'all'"
            )
    if len(set(seats)) != len(seats):
        raise BadOption("player names must differ")


class Match:
    """One game's effective state, and the events it was folded from."""

    def __init__(self, game: Game[Any, Any], items: list[tuple[int, str, Event]],
                 actors: dict[int, str | None] | None = None) -> None:
        self.game = game
        self.game_id = ""  # set when loaded from or written to a store
        self.head_hash = ""
        self.codec = game.codec
        self.items: list[tuple[int, str, Event]] = []
        self.actors: dict[int, str | None] = {}
        self.folded: Folded | None = None
        #: command_id -> (seat, text as stored: canonical, with manual faces)
        self.texts: dict[str, tuple[str | None, str]] = {}
        for seq, cid, ev in items:
            self._fold(seq, cid, ev, (actors or {}).get(seq))

    # -- building ---------------------------------------------------------------------

    @classmethod
    def new(cls, game: Game[Any, Any], *, seed: int, seats: Sequence[str],
            options: Mapping[str, Any] | None = None, dice: str = "seeded",
            content: dict[str, Any] | None = None, content_source: str = "embedded",
            forked_from: str | None = None, forked_at: int | None = None) -> "Match":
        """Create a game: validate seats, options and content, then run its setup."""
        from arbiter.core.errors import BadOption

        seats = tuple(seats)
        check_seat_names(seats)
        game.check_seats(seats)
        if dice not in ("seeded", "manual"):
            raise BadOption(f"dice must be 'seeded' or 'manual', not {dice!r}")
        if not 0 <= seed < 2**63:
            raise BadOption("the seed must be a whole number from 0 to 2^63-1")
        resolved = game.resolve_options(options or {})
        if content is None:
            content = game.default_content()
        game.check_content(content)
        created = GameCreated(
            game=game.id, seed=seed, seats=seats, options=resolved, content=content,
            content_hash=content_hash(content), content_source=content_source, dice=dice,
            rules_version=game.rules_version, engine_version=ENGINE_VERSION,
            forked_from=forked_from, forked_at=forked_at,
        )
        match = cls(game, [(1, SETUP, created)])
        assert match.folded is not None
        rng = Rng(seed, 0, game.dice(created))
        for ev in game.setup(created, rng):
            match._fold(len(match.items) + 1, SETUP, ev, None)
        return match

    def _fold(self, seq: int, cid: str, ev: Event, actor: str | None) -> None:
        self.folded = step(self.game.projection, self.folded, seq, cid, ev)
        self.items.append((seq, cid, ev))
        self.actors[seq] = actor

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
        return self.items[-1][0] if self.items else 0

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
            after: int = 0) -> list[tuple[int, str | None, Event]]:
        """(seq, actor, event) as ``seat`` may see them (from ``after`` on); everything once
        the game is over."""
        over = self.outcome() is not None
        items = effective(self.items) if effective_only else self.items[after:]
        out = []
        for seq, _cid, ev in items:
            if seq <= after:
                continue
            shown: Event | None = ev
            if seat != REFEREE and not over:
                shown = redact_shuffle(ev, seat, over)
                if shown is not None:
                    shown = self.game.projection.redact(shown, seat, self.state)
            if shown is not None:
                out.append((seq, self.actors.get(seq), shown))
        return out

    def preview(self, events: Sequence[Event], seat: str | None, live_draws: int) -> list[Event]:
        """Events a dry run would produce, as ``seat`` may see them: redacted like the log,
        and with seeded dice from draws not yet made in the live game shown as "?", so that
        a dry run never tells what the next roll, draw or shuffle will be."""
        if seat == REFEREE:
            return list(events)
        out = []
        for ev in events:
            if isinstance(ev, DiceRolled) and not ev.manual and ev.n >= live_draws:
                ev = msgspec.structs.replace(ev, faces=("?",) * len(ev.faces))
            shown = redact_shuffle(ev, seat, False)
            if shown is not None:
                shown = self.game.projection.redact(shown, seat, self.state)
            if shown is not None:
                out.append(shown)
        return out

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
            return seat, UNDO, [self.undo_event()]
        if self.outcome() is not None:
            raise RuleViolation("ARB-GAME-OVER", "the game is over; no more moves")
        who = self.to_act()
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
        rng = Rng(self.created.seed, self.folded.draws, self.game.dice(self.created), manual)
        events = self.game.decide(self.state, seat, command, rng)
        rng.check_all_used()
        if not events:
            raise RuleViolation("ARB-NOT-LEGAL", "that command does nothing now")
        return seat, command, events

    def undo_event(self) -> Undone:
        assert self.folded is not None
        top = self.folded.top
        if top is None:
            raise RuleViolation("ARB-UNDO-NOTHING", "there is no move to undo (setup cannot be undone)")
        return Undone(first_seq=top.first_seq, last_seq=top.last_seq, command_id=top.command_id)

    def apply(self, seat: str | None, text: str, command_id: str | None = None) -> list[Event]:
        """Decide and fold ``text``; returns its events."""
        seat, command, events = self.decide(seat, text)
        self.extend(events, seat, command_id or f"c{self.seq + 1}", self.stored_text(text, command))
        return events

    def extend(self, events: Sequence[Event], actor: str | None, command_id: str,
               text: str | None = None) -> None:
        if text is not None:
            self.texts[command_id] = (actor, text)
        for ev in events:
            self._fold(self.seq + 1, command_id, ev, actor)

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
        return "; ".join(self.game.syntax) if self.game.syntax else ""

    def encode(self, ev: Event) -> str:
        return self.codec.encode(ev)


def roundtrip(codec: Codec, ev: Event) -> Event:
    return codec.decode(type(ev).__name__, type(ev).VERSION, codec.encode(ev))


def to_json(obj: Any) -> str:
    return msgspec.json.encode(obj).decode()
