"""`arbiter demo`: a bot game on the default store, a step back, an audit and a query."""

from __future__ import annotations

import random
import time

from arbiter.cli.common import console, emit_rows, escape
from arbiter.cli.render import renderer
from arbiter.core import audit, registry
from arbiter.core.bots import bot_names, get_bot, next_seat
from arbiter.core.engine import Engine
from arbiter.core.match import Match
from arbiter.projections.fold import Cursor
from arbiter.projections.kernel import REFEREE


def run_demo(engine: Engine, kind: str, seed: int, pause: float = 0.0) -> str:
    game = registry.get(kind)
    bot_kind = next((b for b in bot_names(game) if b != "random"), "random")
    seats = list(game.default_seats(min(max(game.min_seats, 3), game.max_seats)))
    console.rule(f"[bold]arbiter demo[/] — {game.title}")
    console.print(f"store: {escape(engine.path)}")
    gid, match, receipt = engine.new(kind, seats=seats, seed=seed)
    console.print(f"1. created game [bold]{gid}[/] (seed {seed}, players {', '.join(seats)}, bots: {bot_kind})")
    bot = get_bot(game, bot_kind)
    rng = random.Random(seed)
    with engine.open() as store:  # one open for the whole bot game: no person is waiting
        n = 0
        while match.outcome() is None and n < 5000:
            seat = next_seat(match, rng)
            command = bot(match.state, seat, match.legal(seat), rng)
            text = game.command_text(command)
            receipt, match, events = engine.do(gid, text, seat, store=store)
            n += 1
            if n <= 6:
                console.print(f"   {seat}: {escape(text)}  [dim]receipt {receipt}[/]")
            if pause:
                time.sleep(pause)
    console.print(f"   … {n} commands, {match.seq} events in all")
    out = match.outcome()
    console.print(renderer(kind)(match.state, REFEREE))
    console.print(f"   winner: [bold green]{', '.join(out.winners) if out else 'none yet'}[/]"
                  + (f" — {out.reason}" if out and out.reason else ""))
    half = max(1, match.seq // 2)
    cursor = Cursor(match.game.projection, match.items)
    back = Match(match.game, match.items[:half], match.actors)
    console.rule(f"2. stepping back to seq {half} of {match.seq}")
    console.print(renderer(kind)(cursor.at_seq(half).state, REFEREE))
    who = back.to_act()
    console.print(f"   at seq {half}: {', '.join(who.seats)} to act")
    console.rule("3. audit")
    with engine.open(read_only=True) as store:
        report = audit.verify_game(store, gid)
        console.print(f"   hash chain, {report.rolls} dice draws against the seed, {report.commands}"
                      f" commands decided again: " + ("[green]verified[/]" if report.ok else f"[red]{report.first}[/]"))
        console.rule("4. SQL: which faces came up")
        cols, rows = store.query(
            "SELECT die, face, count(*) AS times FROM dice WHERE game_id = ? GROUP BY die, face ORDER BY die, face",
            [gid])
    emit_rows(cols, rows, "table")
    console.rule("next")
    console.print(f"   arbiter show {gid} --at {half}      arbiter log {gid}      arbiter verify {gid}")
    console.print(f"   arbiter query \"select * from dice where game_id = '{gid}' limit 5\"")
    console.print("   arbiter play monster-derby -p ann,bob,cy --bot bob=agenda --bot cy=random   (hot-seat: leave out --bot)")
    return gid
