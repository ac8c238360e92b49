"""Bots: players that pick among the legal commands. They are players, not rules, so they
may use their own ``random.Random`` (seeded, so simulations repeat)."""

from __future__ import annotations

import random
from typing import Any, Callable, Mapping, Sequence

import msgspec

from arbiter.core.errors import BadOption, Stalled  # noqa: F401 - Stalled re-exported
from arbiter.core.game import Bot, Game
from arbiter.core.match import Match


def random_bot(state: Any, seat: str, legal: Sequence[Any], rng: random.Random) -> Any:
    """Any legal command, uniformly."""
    return rng.choice(list(legal))


def bot_names(game: Game[Any, Any]) -> list[str]:
    return ["random", *sorted(k for k in game.bots if k != "random")]


def get_bot(game: Game[Any, Any], kind: str) -> Bot:
    if kind == "random":
        return random_bot
    if kind not in game.bots:
        raise BadOption(f"{game.id} has no bot {kind!r} (bots: {', '.join(bot_names(game))})")
    return game.bots[kind]


def next_seat(match: Match, rng: random.Random) -> str:
    seats = match.to_act().seats
    return seats[0] if len(seats) == 1 else rng.choice(list(seats))


def bot_step(match: Match, bots: Mapping[str, Bot], rng: random.Random,
             apply: Callable[[str, str], Any] | None = None) -> tuple[str, str]:
    """Let the bot of the seat to act choose one command and apply it; (seat, text)."""
    seat = next_seat(match, rng)
    legal = match.legal(seat)
    if not legal:
        raise Stalled(f"{match.game.id}: {seat} must act ({match.to_act()}) but has no legal command")
    command = bots.get(seat, random_bot)(match.state, seat, legal, rng)
    text = match.game.command_text(command)
    if apply is None:
        match.apply(seat, text)
    else:
        apply(seat, text)
    return seat, text


def autoplay(match: Match, bots: Mapping[str, Bot], rng: random.Random, max_steps: int = 5000,
             apply: Callable[[str, str], Any] | None = None) -> int:
    """Play until the game ends (or ``max_steps``); returns the number of commands."""
    steps = 0
    while match.outcome() is None and steps < max_steps:
        bot_step(match, bots, rng, apply)
        steps += 1
    return steps


class BotSeat(msgspec.Struct, frozen=True):
    """A bot sitting at a stored game, with the settings it was started with: its kind, the
    seed of its own choices and how many legal commands the table numbered."""

    kind: str
    seed: int | None = None
    menu: int | None = None


def bot_record(seat: BotSeat) -> str:
    """What a seat's bot record keeps (``random seed=7 menu=30``; a bare kind, as older
    records and the service write it, is a bot with no settings of its own)."""
    extra = [f"{k}={v}" for k, v in (("seed", seat.seed), ("menu", seat.menu)) if v is not None]
    return " ".join([seat.kind, *extra])


def read_bot_record(text: str) -> BotSeat:
    kind, *rest = text.split()
    settings: dict[str, int] = {}
    for item in rest:
        name, _eq, value = item.partition("=")
        if name in ("seed", "menu") and value.lstrip("-").isdigit():
            settings[name] = int(value)
    return BotSeat(kind, settings.get("seed"), settings.get("menu"))
