"""What a player reads of a played game, and a check that none of it is the code's own
words: no snake_case identifiers (``play_ally``, ``counter_strike``), no ids joined by a
colon (``villain:bot1``) and no Python reprs of dicts, lists or tuples (``{'ann': 3}``,
``['a', 'b']``)."""

from __future__ import annotations

import random
import re
from typing import Any, Callable, Iterable

from arbiter.cli.words import describe
from arbiter.core.bots import bot_step
from arbiter.core.errors import ArbiterError
from arbiter.core.match import Match
from arbiter.projections.kernel import REFEREE

SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
REPR = re.compile(r"[\[{(]'|'[\]})]|': |\{\"|\": ")
#: a key of the code's, such as a seat's deck (``villain:bot1``); a player's "ann: keep" has
#: a space after its colon
JOINED = re.compile(r"\b[a-z][a-z0-9-]*:[a-z0-9][a-z0-9-]*\b")


#: a command to type, or a handle shown to type (``<cb-embo-1>``): where an id belongs
TYPED = re.compile(r"`[^`]*`|<[^<>\s]+>")
KEBAB = re.compile(r"\b[a-z0-9]+(?:-[a-z0-9]+)+\b")


def leaks(lines: Iterable[str], allowed: Iterable[str] = (), ids: Iterable[str] = ()) -> list[str]:
    """The lines that show an identifier or a repr, each with what was found. ``allowed``:
    words a player types themselves (the names of the options of ``new -o NAME=VALUE``).
    ``ids``: the content's ids that have names (``cad-bane``, ``cb-embo``): one of them, or
    a numbered copy of one (``cb-embo-1``), outside a command or handle is a leak."""
    ok = set(allowed)
    named = set(ids)
    bad = []
    for line in lines:
        found = [w for w in SNAKE.findall(line) if w not in ok] + JOINED.findall(line) + REPR.findall(line)
        if named:
            found += [w for w in KEBAB.findall(TYPED.sub("", line))
                      if w in named or w.rpartition("-")[0] in named and w.rpartition("-")[2].isdigit()]
        if found:
            bad.append(f"{found}: {line}")
    return bad


def played_text(m: Match, bots: dict[str, Any], render: Callable[[Any, str], str], *, seed: int,
                probes: tuple[str, ...] = (), every: int = 15, max_steps: int = 4000) -> list[str]:
    """Play ``m`` to its end with ``bots`` and collect what its players read: every log line
    (the game's creation and its shuffles included), the prompt of every decision, each seat's board every ``every`` commands and at
    the end, the outcome, and the refusal (or parse error) of each of ``probes`` tried by
    the seat to act along the way."""
    rng = random.Random(seed)
    out: list[str] = []
    steps = 0
    while m.outcome() is None and steps < max_steps:
        d = m.to_act()
        out.append(d.prompt)
        if steps % every == 0:
            for seat in m.seats:
                out += render(m.view(seat), seat).splitlines()
            for text in probes:
                try:
                    m.decide(d.seats[0], text)
                except ArbiterError as e:
                    out += str(e).splitlines()
        bot_step(m, bots, rng)
        steps += 1
    assert m.outcome() is not None, f"unfinished after {steps} commands"
    out.append(m.outcome().reason)
    for seat in m.seats:
        out += render(m.view(seat), seat).splitlines()
    out += [describe(m, e) for _seq, _actor, e in m.log(REFEREE)]
    return out
