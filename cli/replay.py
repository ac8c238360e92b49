"""``arbiter replay``: step through a finished (or running) game to settle a dispute.

Steps by event, command, turn or round, forward and back; searches the events' words; and
hands the point reached to `try` (would this other command have been legal here?) and to
`fork` (play on from here in a new game)."""

from __future__ import annotations

from typing import Callable, Hashable, Optional

import typer

from arbiter.cli.common import console, err, escape
from arbiter.cli.render import renderer
from arbiter.cli.words import describe
from arbiter.core.explain import readable_words, turn_words, waits_on
from arbiter.core.match import Match
from arbiter.events.base import Event
from arbiter.projections.fold import SETUP, Cursor, Folded
from arbiter.projections.kernel import REFEREE

KEYS = ("n/p event, c/C command, t/T turn, r/R round (lower case forward, capital back);"
        " g SEQ, s(tart), e(nd); /WORDS search forward, ?WORDS back (alone: again);"
        " try [--as SEAT] COMMAND, fork; q(uit)")


class Replay:
    def __init__(self, match: Match, seat: Optional[str],
                 nearest: Callable[[int], Folded | None] | None = None) -> None:
        self.match = match
        self.seat = seat
        # positions are folded on demand from the nearest stored snapshot (``nearest``)
        self.cursor = Cursor(match.game.projection, match.items, nearest=nearest)
        self.cids = [cid for _s, cid, _e in match.items]
        self.last = len(match.items) - 1
        self.open = seat != REFEREE and match.outcome() is None  # events are redacted
        self._shown: dict[int, Event | None] = {}
        self.search = ""

    def shown(self, seq: int) -> Event | None:
        """Event ``seq`` as the seat may see it (as `log --as` shows it), redacted on first
        need."""
        if seq not in self._shown:
            ev = self.match.items[seq - 1][2]
            self._shown[seq] = self.match.redact(ev, self.seat) if self.open else ev
        return self._shown[seq]

    # -- where things are -------------------------------------------------------------

    def ends_command(self, pos: int) -> bool:
        return pos == self.last or self.cids[pos] != self.cids[pos + 1]

    def command_end(self, pos: int) -> int:
        while not self.ends_command(pos):
            pos += 1
        return pos

    def command_start(self, pos: int) -> int:
        while pos > 0 and self.cids[pos - 1] == self.cids[pos]:
            pos -= 1
        return pos

    def waits(self, pos: int) -> str:
        """What the position after ``pos`` waits on, in the words `show --at` prints."""
        items = self.match.items
        end = self.command_end(pos)
        then = turn_words(self.match.game.projection, self.cursor.at_index(end).state)
        if end == pos:
            return waits_on(items[pos][0], None, then)
        first = self.command_start(pos)
        seat, text = self.match.texts.get(self.cids[pos], (self.match.actors.get(items[first][0]), SETUP))
        decided_in = self.cursor.at_index(first - 1).state if first else None
        words = readable_words(self.match, seat, text, [ev for _s, _c, ev in items[first:end + 1]],
                               self.seat, decided_in)
        return waits_on(items[pos][0], (seat, words, items[first][0], items[end][0]), then)

    def boundaries(self, pos: int, forward: bool) -> range:
        return range(pos + 1, self.last + 1) if forward else range(pos - 1, -1, -1)

    def turn(self, pos: int) -> Hashable:
        """Whose decision the game waits on after ``pos`` (a turn is a run of equal ones)."""
        state = self.cursor.at_index(pos).state
        projection = self.match.game.projection
        if projection.outcome(state) is not None:
            return ("over",)
        return tuple(projection.to_act(state).seats)

    def round(self, pos: int) -> Hashable:
        state = self.cursor.at_index(pos).state
        return getattr(state, "round", None)

    def seek(self, pos: int, forward: bool, key: Callable[[int], Hashable]) -> int:
        """Forward: the first command end where ``key`` changes. Back: the last command end
        where it changed (the start of the current turn or round, else of the one before)."""
        if forward:
            here = key(pos)
            for b in self.boundaries(pos, True):
                if self.ends_command(b) and key(b) != here:
                    return b
            return self.last
        ends = [b for b in self.boundaries(pos, False) if self.ends_command(b)]
        for i, b in enumerate(ends):
            before = ends[i + 1] if i + 1 < len(ends) else None
            if before is None or key(before) != key(b):
                return b
        return 0

    def find(self, pos: int, words: str, forward: bool) -> int | None:
        words = words.lower()
        for b in self.boundaries(pos, forward):
            seq = self.match.items[b][0]
            ev = self.shown(seq)
            if ev is not None and words in describe(self.match, ev, self.seat).lower():
                return b
        return None

    # -- the loop ---------------------------------------------------------------------

    def draw(self, pos: int) -> None:
        match = self.match
        folded = self.cursor.at_index(pos)
        seq = match.items[pos][0]
        state = folded.state if self.seat == REFEREE else match.game.projection.view(folded.state, self.seat)
        where = "" if self.ends_command(pos) else " (inside a command)"
        rnd = getattr(folded.state, "round", None)
        console.rule(f"{escape(match.game_id)} seq {seq}/{match.seq}" + (f", round {rnd}" if rnd is not None else "") + where)
        ev = self.shown(seq)
        actor = match.actors.get(seq)
        line = describe(match, ev, self.seat) if ev is not None else "(hidden)"
        console.print(f"[bold]{escape((actor + ': ') if actor else '')}{escape(line)}[/]")
        width = 80 if console.is_terminal else None  # into a pipe every line stays whole
        console.print(renderer(match.game.id, width)(state, self.seat))
        console.print(escape(self.waits(pos)))

    def run(self, pos: int, ask: Callable[[str], str], try_at: Callable[[int, str], None],
            fork_at: Callable[[int], None]) -> None:
        drawn = None
        while True:
            if pos != drawn:  # an answer that does not move (help, a refusal) stays last
                self.draw(pos)
                drawn = pos
            try:
                key = ask("replay (h: keys)> ").strip()
            except EOFError:  # Ctrl-D: the shell's prompt goes on a line of its own
                console.print()
                return
            moved = self.step(pos, key, try_at, fork_at)
            if moved is None:
                return
            pos = moved

    def step(self, pos: int, key: str, try_at: Callable[[int, str], None],
             fork_at: Callable[[int], None]) -> int | None:
        """The position after one key (None: quit)."""
        low = key.lower()
        if low in ("q", "quit", "exit"):
            return None
        if key in ("", "n", "next"):
            return min(pos + 1, self.last)
        if key in ("p", "b", "prev", "back"):
            return max(pos - 1, 0)
        if key in ("c", "C"):
            forward = key == "c"
            return next((b for b in self.boundaries(pos, forward) if self.ends_command(b)),
                        self.last if forward else 0)
        if key in ("t", "T"):
            return self.seek(pos, key == "t", self.turn)
        if key in ("r", "R"):
            if self.round(pos) is None:
                err.print(f"{self.match.game.title} keeps no round count: step by turn (t/T) instead")
                return pos
            return self.seek(pos, key == "r", self.round)
        if low in ("s", "start"):
            return 0
        if low in ("e", "end"):
            return self.last
        if low.startswith("g") and low[1:].strip().isdigit():
            return self.go(int(low[1:].strip()))
        if low == "g" or low.startswith("g "):
            err.print(f"g takes a seq to go to, 1 to {self.match.items[self.last][0]}: g 42")
            return pos
        if low == "try":
            err.print("try takes a command: try attack, or try --as ann keep agenda-3")
            return pos
        if key[:1] in ("/", "?"):
            self.search = key[1:].strip() or self.search
            if not self.search:
                err.print("search for what? e.g. /attack")
                return pos
            found = self.find(pos, self.search, key[0] == "/")
            if found is None:
                err.print(escape(f"no {'later' if key[0] == '/' else 'earlier'} event says {self.search!r}"))
                return pos
            return found
        if low.startswith("try "):
            self.hand_over(pos, lambda seq: try_at(seq, key[4:].strip()))
            return pos
        if low == "fork":
            self.hand_over(pos, fork_at)
            return pos
        err.print("keys: " + KEYS)
        return pos

    def go(self, seq: int) -> int:
        """The position of ``seq``; one past either end goes to that end and says so, as a
        pager does with a line number past the last."""
        first, end = self.match.items[0][0], self.match.items[self.last][0]
        if seq > end:
            err.print(f"the game ends at seq {end}: there")
            return self.last
        if seq < first:
            err.print(f"the game starts at seq {first}: there")
            return 0
        return seq - first

    def hand_over(self, pos: int, to: Callable[[int], None]) -> None:
        end = self.command_end(pos)
        seq = self.match.items[end][0]
        if end != pos:
            err.print(f"(at seq {seq}, the end of this command: no one could act inside it)")
        try:
            to(seq)
        except typer.Exit:
            pass  # its message is printed; the replay goes on


def run_replay(match: Match, seat: Optional[str], at: Optional[int], ask: Callable[[str], str],
               try_at: Callable[[int, str], None], fork_at: Callable[[int], None],
               nearest: Callable[[int], Folded | None] | None = None) -> None:
    replay = Replay(match, seat, nearest)
    replay.run(max(0, min((at or 1) - 1, replay.last)), ask, try_at, fork_at)

