"""``arbiter play``: a game at one terminal, people taking turns at the keyboard (hot seat)
and bots playing the other seats.

The store is read again before every prompt, so a move made from another terminal (or by
`arbiter do`) is shown and played on, never answered with stale refusals. Only new events
are printed, so a long game costs no more per prompt than a short one. Where a seat holds
secrets, the screen is cleared and handed over ("pass to bob") before the next person acts.
"""

from __future__ import annotations

import hashlib
import random
import secrets
import shutil
import sys
from typing import Any, Callable, Optional

import msgspec
import typer

from arbiter.cli.common import console, err, escape, fail, record_refusal, say, stopped_by_ctrl_c
from arbiter.cli.render import WIDTH, compact_renderer, renderer, squeeze
from arbiter.core import explain
from arbiter.cli.words import describe, print_new, undone_move, whose_turn
from arbiter.core import bots as botlib
from arbiter.core.errors import ParseError, RuleViolation
from arbiter.core.match import UNDO, Match
from arbiter.projections.kernel import REFEREE

#: The lines a short terminal's menu may take from the board's middle.
MENU_LINES = 3

#: Menu entries that end a turn: never the first (so "1" is never a turn thrown away).
LAST_WORDS = ("end",)


def menu_order(texts: list[str]) -> list[str]:
    """The legal commands as numbered: ending the turn goes last."""
    first = [t for t in texts if t.split(" ", 1)[0] not in LAST_WORDS]
    return first + [t for t in texts if t.split(" ", 1)[0] in LAST_WORDS]


def next_seat(match: Match, bots: dict[str, Any]) -> str:
    """Who acts next: a bot before a person (a bot never keeps anyone waiting), then in seat
    order, so the first prompt of simultaneous choices is the first seat's."""
    acting = match.to_act().seats
    ordered = [s for s in match.seats if s in acting] or list(acting)
    return next((s for s in ordered if s in bots), ordered[0])


def has_secrets(match: Match, seat: str) -> bool:
    """Whether ``seat`` sees more than the table does (a hand, a dealt agenda, a drawn card)."""
    return msgspec.to_builtins(match.view(seat)) != msgspec.to_builtins(match.view(None))


def terminal_rows() -> int | None:
    """The terminal's height, or None when the output is not a terminal."""
    return shutil.get_terminal_size().lines if sys.stdout.isatty() else None


def at_terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def clear_screen() -> None:
    """Clear the screen and the scrollback, so the next person cannot scroll up to a hand."""
    console.file.write("\033[H\033[2J\033[3J")
    console.file.flush()


# ----------------------------------------------------------------------------- bots kept


def bot_token_hash() -> str:
    """A seat-access row's hash for a bot seat: of a token nobody holds (a bot never signs in)."""
    return hashlib.sha256(secrets.token_bytes(32)).hexdigest()


def parse_bots(raw: list[str], match: Match) -> dict[str, str]:
    """--bot SEAT=KIND (or SEAT, or all=KIND) -> seat -> bot kind, each kind checked."""
    kinds: dict[str, str] = {}
    for item in raw:
        seat, eq, kind = item.partition("=")
        if not eq:
            seat, kind = item, "random"
        if seat == "all":
            kinds.update({s: kind for s in match.seats})
            continue
        if seat not in match.seats:
            fail(f"--bot {item}: no player {seat!r} (players: {', '.join(match.seats)})")
        kinds[seat] = kind
    for kind in set(kinds.values()):
        botlib.get_bot(match.game, kind)  # an unknown kind is refused before anything is stored
    return kinds


def remember_bots(eng: Any, gid: str, kinds: dict[str, str], bot_seed: int, max_menu: int) -> None:
    """Keep which seats are bots with the game, with the settings they play by (in the
    table the service keeps its bots in), so that `arbiter play GAME_ID` resumes with them."""
    if kinds:
        with eng.open() as store:
            store.add_seat_access(gid, [(seat, bot_token_hash(), botlib.bot_record(botlib.BotSeat(kind, bot_seed, max_menu)))
                                        for seat, kind in kinds.items()])


def kept_bots(eng: Any, gid: str) -> dict[str, botlib.BotSeat]:
    with eng.open(read_only=True) as store:
        return {seat: botlib.read_bot_record(text) for seat, text in store.seat_bots(gid).items()}


# ----------------------------------------------------------------------------- the table


class Table:
    """One `arbiter play` session."""

    def __init__(self, eng: Any, gid: str, bots: dict[str, str], bot_seed: int, max_menu: int,
                 ask: Callable[[str, list[str]], str], pass_screen: bool) -> None:
        self.eng = eng
        self.gid = gid
        self.match: Match = eng.load(gid)
        self.kinds = bots
        self.bots = {s: botlib.get_bot(self.match.game, k) for s, k in bots.items()}
        self.bot_seed = bot_seed
        self.max_menu = max_menu
        self.ask = ask
        self.pass_screen = pass_screen
        # at a terminal the board's prose wraps at its width; into a pipe every line is whole
        self.draw = renderer(self.match.game.id, WIDTH if sys.stdout.isatty() else None)
        self.draw_compact = compact_renderer(self.match.game.id)
        self.compact: bool | None = None  # None: compact when the terminal is too short
        self.shown = self.match.seq  # events printed up to this seq
        self.seen: dict[str, int] = {}  # each person's last prompt (seq), for "since your turn"
        self.at_keyboard: str | None = None  # the person the screen was last drawn for
        self.drawn: tuple[int, str] | None = None  # (seq, seat) the board was last drawn at
        self.refusal: str | None = None

    @property
    def humans(self) -> list[str]:
        return [s for s in self.match.seats if s not in self.bots]

    def refresh(self) -> None:
        """Read the store again; print what others did meanwhile (as the table may see it)."""
        self.match = self.eng.load(self.gid)
        if self.match.seq > self.shown:
            print_new(self.match, self.shown, None)
            self.shown = self.match.seq

    def run(self) -> None:
        while True:
            self.refresh()
            match = self.match
            if match.outcome() is not None:
                console.print(self.draw(match.state, REFEREE))
                console.print(f"[bold green]{escape(whose_turn(match))}[/]")
                return
            seat = next_seat(match, self.bots)
            if seat in self.bots:
                if not self.bot_turn(seat):
                    return
                continue
            if seat != self.at_keyboard:
                self.hand_over(seat)
            if not self.prompt(seat):
                return

    def bot_turn(self, seat: str) -> bool:
        """The bot at ``seat`` plays its move; False if the game stops here (at a table with
        physical dice, the person at the keyboard rolls for the bot and may decline)."""
        match = self.match
        # seeded by the position too, so a resumed game's bots choose as they would have
        rng = random.Random(f"{self.bot_seed}/{match.seq}/{seat}")
        command = self.bots[seat](match.state, seat, match.legal(seat), rng)
        text = match.game.command_text(command)
        before = match.state
        chosen = text
        while True:
            try:
                receipt, match, _events = self.eng.do(self.gid, text, seat)
                break
            except (RuleViolation, ParseError) as exc:
                if not explain.needs_faces(match, exc):
                    raise
                # a bot cannot roll physical dice: whoever is at the keyboard rolls them for it
                say(err, f"{seat} (bot) plays `{chosen}`: {exc}", style="yellow")
                faces = self.ask_faces(f"faces as rolled for {seat} (empty: stop here)> ")
                if not faces:
                    console.print(f"saved. resume with `arbiter play {escape(self.gid)}`")
                    return False
                text = explain.with_faces(chosen, faces)
        console.print(f"[cyan]{escape(seat)}[/] (bot): " + escape(explain.move_words(match, receipt.first_seq, None, before)))
        print_new(match, receipt.first_seq - 1, None)
        self.match, self.shown = match, match.seq
        return True

    def ask_faces(self, prompt: str) -> str:
        """The faces of physical dice as the table rolled them ("" when none are typed)."""
        try:
            return self.ask(prompt, []).strip().strip("[]")
        except EOFError:
            return ""

    def hand_over(self, seat: str) -> None:
        """Another person's turn at the keyboard: where anyone holds secrets, clear the
        screen and wait for them, then show what they missed, as they may see it."""
        before = self.at_keyboard
        self.at_keyboard = seat
        secret = any(has_secrets(self.match, s) for s in self.humans)
        # the first seat too: its dealt secrets must not be on screen before it has the keyboard
        if not (self.pass_screen and len(self.humans) > 1 and secret):
            return
        clear_screen()
        # the first pass screen clears the new game's id away: say it again
        hidden = (f" — {escape(before)}'s hand is hidden now." if before is not None
                  else f" — game {escape(self.gid)} (resume with `arbiter play {escape(self.gid)}`)")
        console.print(f"\n\n   [bold]pass to {escape(seat)}[/]{hidden}"
                      f"\n\n   {escape(seat)}, press Enter when only you can see the screen.\n")
        try:
            self.ask(f"{seat}, press Enter> ", [])
        except EOFError:
            pass
        clear_screen()
        self.drawn = None
        missed = self.match.log(seat, after=self.seen.get(seat, self.match.seq))
        if missed:
            console.print(f"[bold]since {escape(seat)}'s last turn:[/]")
            for _s, _a, ev in missed[-12:]:
                console.print(f"  [dim]•[/] {escape(describe(self.match, ev, seat))}")

    def show_board(self, seat: str, legal: list[str]) -> None:
        match = self.match
        view = match.view(seat)
        board = self.draw(view, seat)
        rows = terminal_rows()
        compact = self.compact
        if compact is None:  # the whole board, its menu and the prompt do not fit the screen
            compact = rows is not None and board.count("\n") + min(len(legal), self.max_menu) + 5 > rows
        if compact:
            board = self.draw_compact(view, seat)
            height = rows or 24
            # the menu gets up to MENU_LINES lines, the board's middle giving way for them
            want = min(MENU_LINES, len(self.menu_rows(legal, self.max_menu)))
            if height - board.count("\n") - 4 < want:
                board = squeeze(board, height - 3 - want)
            console.print(board)
            console.print(f"[bold]{escape(whose_turn(match))}[/]")
            for row in self.menu_rows(legal, height - board.count("\n") - 4):
                console.print(escape(row))
            return
        console.rule(f"{escape(self.gid)} — seq {match.seq}")
        console.print(board)
        console.print(f"[bold]{escape(whose_turn(match))}[/]")
        view = match.view(seat)
        for i, text in enumerate(legal[:self.max_menu], start=1):
            console.print(f"  [cyan]{i:>2}[/] {escape(match.game.menu_label(view, seat, text))}")
        if len(legal) > self.max_menu:
            console.print(f"  … and {len(legal) - self.max_menu} more (type the command)")
        console.print("[dim]  a number or a command; help: command forms; board, undo, log, quit[/]")

    def menu_rows(self, legal: list[str], lines: int) -> list[str]:
        """The numbered menu side by side, in at most ``lines`` lines (a short terminal):
        each line takes as many entries, in the menu's order, as fit its width (a fixed
        column as wide as the longest entry left room for one or two), and the last says how
        many more there are."""
        shown = [f"{i:>2} {t}"[:WIDTH] for i, t in enumerate(legal[:self.max_menu], start=1)]
        rows: list[list[str]] = [[]]
        for cell in shown:
            if rows[-1] and len("  ".join(rows[-1] + [cell])) > WIDTH:
                if len(rows) == max(1, lines):
                    break
                rows.append([])
            rows[-1].append(cell)
        placed = sum(len(r) for r in rows)

        def more() -> str:
            return f"… {len(legal) - placed} more"

        while placed < len(legal) and rows[-1] and len("  ".join(rows[-1] + [more()])) > WIDTH:
            rows[-1].pop()  # room on the last line to say what is left
            placed -= 1
        if placed < len(legal):
            rows[-1].append(more())
        return ["  ".join(row) for row in rows]

    def prompt(self, seat: str) -> bool:
        """One line from ``seat``; False when they leave."""
        match = self.match
        legal = menu_order(match.legal_texts(seat))
        if self.drawn != (match.seq, seat):
            self.show_board(seat, legal)
            if self.refusal and self.drawn is not None:
                err.print(f"[red]{escape(self.refusal)}[/] [dim](before the game moved on)[/]")
            self.drawn = (match.seq, seat)
        self.refusal = None
        self.seen[seat] = match.seq
        try:
            raw = self.ask(f"{seat}> ", legal).strip()
        except EOFError:
            console.print(f"\nsaved. resume with `arbiter play {escape(self.gid)}`")
            return False
        if raw in ("q", "quit", "exit"):
            console.print(f"saved. resume with `arbiter play {escape(self.gid)}`")
            return False
        if raw in ("?", "help"):
            console.print("commands:")
            for line in match.game.syntax:
                say(console, "  " + line.strip("\n"))
            console.print("also: a number from the menu, board (the whole board), undo, log, quit")
            return True
        if raw == "board":  # the whole board, however tall
            console.print(self.draw(match.view(seat), seat))
            return True
        if raw == "log":
            for s, a, ev in match.log(seat)[-15:]:
                console.print(f"  [dim]{s}[/] {escape(a or '')} {escape(describe(match, ev, seat))}")
            return True
        shown = min(len(legal), self.max_menu)
        if raw.isdigit() and 1 <= int(raw) <= shown:
            raw = legal[int(raw) - 1]
        elif raw.lstrip("-+").isdigit():  # a number off the menu (-1 too) is a slip of the finger, not a command
            self.refuse(f"{raw} is not on the menu: type {'1' if shown == 1 else f'a number from 1 to {shown}'}, or a command"
                        if shown else f"{raw}: there is no menu now; type a command (help lists them)")
            return True
        if not raw:
            return True
        if raw.lower() == UNDO and not self.confirm_undo(seat):
            return True
        self.act(seat, raw, legal)
        return True

    def confirm_undo(self, seat: str) -> bool:
        """Undoing someone else's move is asked about first: it is theirs to take back."""
        top = self.match.folded.top if self.match.folded else None
        if top is None:
            return True  # nothing to undo: the refusal says so
        undone = self.match.command_at(top.first_seq)
        owner = undone[1] if undone else None
        if owner in (None, seat):
            return True
        move = undone_move(self.match, top.first_seq, seat)
        try:
            answer = self.ask(f"undo {move}? {owner} made it [y/N]> ", []).strip().lower()
        except EOFError:
            answer = ""
        if answer not in ("y", "yes"):
            console.print("not undone")
            return False
        return True

    def act(self, seat: str, raw: str, legal: list[str]) -> None:
        while True:
            try:
                receipt, match, _events = self.eng.do(self.gid, raw, seat)
            except (RuleViolation, ParseError) as exc:
                if explain.needs_faces(self.match, exc):
                    # physical dice: ask for the faces this command needs, then try again
                    say(err, str(exc), style="yellow")
                    faces = self.ask_faces("faces as rolled (empty: cancel)> ")
                    if not faces:
                        return
                    raw = explain.with_faces(raw, faces)
                    continue
                record_refusal(self.eng, self.match, seat, raw, exc, "play")
                if isinstance(exc, ParseError):
                    exc = explain.with_hint(exc, self.match, seat, raw)
                self.refuse(str(exc))
                return
            print_new(match, receipt.first_seq - 1, seat)
            console.print(f"[dim]receipt {escape(receipt)}[/]")
            self.match, self.shown = match, match.seq
            return

    def refuse(self, message: str) -> None:
        """A refusal is the last thing on screen: the board is not drawn again below it."""
        self.refusal = message
        say(err, message, style="red")


#: The table's settings when neither the command line nor the stored game gives them.
BOT_SEED = 0
MAX_MENU = 30


def play_local(eng: Any, game: str, *, known: list[str], bot: list[str], players: Optional[list[str]],
               seed: Optional[int], options: dict[str, str], dice: str, bot_seed: Optional[int],
               max_menu: Optional[int], ask: Callable[[str, list[str]], str], pass_screen: Optional[bool]) -> None:
    """A new game of kind ``game``, or the stored game ``game`` resumed with the bots (kind,
    seed, menu size) it was started with, unless the command line names others."""
    if game in known:
        from arbiter.core import registry

        kind = registry.get(game)
        match = Match.new(kind, seed=seed, seats=players or kind.default_seats(), options=options, dice=dice)
        kinds = parse_bots(bot, match)  # a bot refused (no such seat, no such bot) stores no game
        gid, match, _ = eng.store_new(match)
        bot_seed = BOT_SEED if bot_seed is None else bot_seed
        max_menu = MAX_MENU if max_menu is None else max_menu
        remember_bots(eng, gid, kinds, bot_seed, max_menu)
        console.print(f"new game [bold]{escape(gid)}[/] — resume any time with `arbiter play {escape(gid)}`")
    else:
        match = eng.load(game)
        gid = match.game_id
        kept = kept_bots(eng, gid)
        first = next(iter(kept.values()), botlib.BotSeat("random"))
        bot_seed = next((v for v in (bot_seed, first.seed) if v is not None), BOT_SEED)
        max_menu = next((v for v in (max_menu, first.menu) if v is not None), MAX_MENU)
        kinds = {s: b.kind for s, b in kept.items()}
        if bot:
            kinds = parse_bots(bot, match)
            console.print("bots this time: " + escape(", ".join(f"{s}={k}" for s, k in kinds.items()) or "none"))
        elif kinds:
            console.print("bots as the game was started: " + escape(", ".join(f"{s}={k}" for s, k in kinds.items()))
                          + f" (bot seed {bot_seed}, menu of {max_menu})")
    table = Table(eng, gid, kinds, bot_seed, max_menu, ask,
                  at_terminal() if pass_screen is None else pass_screen)
    try:
        table.run()
    except (KeyboardInterrupt, RuntimeError) as exc:  # RuntimeError: Ctrl-C inside a DuckDB read
        if isinstance(exc, RuntimeError) and not stopped_by_ctrl_c(exc):
            raise
        # every move made is stored, as when a player quits: say how to go on
        err.print(f"\ninterrupted; every move made is kept. resume with `arbiter play {escape(gid)}`")
        raise typer.Exit(130) from None
