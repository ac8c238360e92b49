"""Monster Derby's command forms: one frozen struct a form (``keep``, ``roll``, ``take-marker``,
``control``, ``move``, ``fly``, ``attack``, ``recover``, ``call``, ``end``, ``copy``, ``curse``),
the parser that reads a player's words into them and the writer that gives the words back."""

from __future__ import annotations

import re
from typing import Any

import msgspec

from arbiter.core.errors import ParseError, RuleViolation
from arbiter.core.grammar import command_words, takes
from arbiter.core.monster_derby.board import FINISH, LANES, parse_space

class Keep(msgspec.Struct, frozen=True, tag=True):
    agenda: str


class Roll(msgspec.Struct, frozen=True, tag=True):
    pass


class TakeMarker(msgspec.Struct, frozen=True, tag=True):
    pass


class ControlMonster(msgspec.Struct, frozen=True, tag=True):
    monster: str


class Move(msgspec.Struct, frozen=True, tag=True):
    spaces: tuple[str, ...]


class Fly(msgspec.Struct, frozen=True, tag=True):
    space: str


class Attack(msgspec.Struct, frozen=True, tag=True):
    monster: str


class Recover(msgspec.Struct, frozen=True, tag=True):
    pass


class Call(msgspec.Struct, frozen=True, tag=True):
    monster: str
    space: str


class End(msgspec.Struct, frozen=True, tag=True):
    pass


class Copy(msgspec.Struct, frozen=True, tag=True):
    monster: str


class Curse(msgspec.Struct, frozen=True, tag=True):
    spaces: tuple[str, ...]


Command = (Keep | Roll | TakeMarker | ControlMonster | Move | Fly | Attack | Recover | Call | End | Copy
           | Curse)


SYNTAX = (
    "\n  keep AGENDA          keep one of your 3 agenda cards (secret), e.g. keep agenda-07",
    "\n  roll                 roll the movement die first (with physical dice: roll 4)",
    "\n  take-marker          take the Starting Player Marker instead of controlling a monster",
    "\n  control MONSTER      control a monster not turned yet this round, e.g. control giant",
    "\n  move SPACE ...       walk ahead, e.g. move 4c or move 4c 5d 6d (move 11c finish crosses)",
    "\n  fly SPACE|finish     a flyer flies and lands, e.g. fly 7c (it lands short only to attack)",
    "\n  attack MONSTER       attack a monster in front, e.g. attack golem",
    "\n  attack MONSTER [..]  physical dice: attack dice, then wacky die: attack golem [1 0 1 sword]",
    "\n                       (any counter-strike's dice follow in the brackets; you are told how many)",
    "\n  recover              recover 1 hit point instead of attacking (automatic if you do not attack)",
    "\n  call MONSTER SPACE   the Siren's Call: bring a monster next to her, e.g. call giant 5c",
    "\n  curse SPACE ...      walk a cursed monster back 3 spaces, e.g. curse 4c 3c 2c (or: curse 2c)",
    "\n  copy MONSTER         the Doppelganger copies a neighbour's ability, e.g. copy griffin",
    "\n  end                  end the monster's turn once its movement points are spent",
)
SHORT_SYNTAX = ("keep AGENDA", "roll", "take-marker", "control MONSTER", "move SPACE [SPACE ...]",
                "fly SPACE|finish", "attack MONSTER", "recover", "call MONSTER SPACE",
                "curse SPACE [SPACE SPACE]", "copy MONSTER", "end")


def parse(state: Any, text: str) -> Command:
    hint = "; ".join(SHORT_SYNTAX)
    words = command_words(text, hint, lower=True)
    verb, args = words[0], words[1:]

    def monster(word: str) -> str:
        if word not in state.deck:
            raise ParseError(f"there is no monster called {word!r}",
                             hint="monsters in this race: " + ", ".join(state.order))
        return word

    def space(word: str, finish_ok: bool) -> str:
        if word == FINISH and finish_ok:
            return word
        p = parse_space(word)
        if p is None or p[1] >= state.lanes or not 0 <= p[0] < max(state.columns, 1):
            raise ParseError(f"{word!r} is not a space of this track",
                             hint=f"spaces are column 1-{state.columns} and lane a-{LANES[state.lanes - 1]}, e.g. 3b"
                             + ("; 'finish' crosses the line" if finish_ok else ""))
        return word

    def arity(n: int, form: str) -> None:
        takes(verb, args, n, hint=form, noun="argument")

    if verb == "keep":
        # the hint names no card: agendas are secret, and an example could be another seat's
        keep = "keep AGENDA  (one of the agenda cards you were dealt)"
        arity(1, keep)
        if not re.match(r"^agenda-[a-z0-9-]+$", args[0]):
            raise ParseError(f"{args[0]!r} is not an agenda card", hint=keep)
        return Keep(args[0])
    if verb == "roll":
        arity(0, "roll")
        return Roll()
    if verb in ("take-marker", "take"):
        if verb == "take" and args != ["marker"]:
            raise ParseError("did you mean take-marker?", hint="take-marker")
        if verb == "take-marker":
            arity(0, "take-marker")
        return TakeMarker()
    if verb == "control":
        arity(1, "control giant")
        return ControlMonster(monster(args[0]))
    if verb == "move":
        if not args:
            raise ParseError("move needs at least one space", hint="move 4c 5c")
        return Move(tuple(space(a, True) for a in args))
    if verb == "fly":
        arity(1, "fly 7c  (or: fly finish)")
        return Fly(space(args[0], True))
    if verb == "attack":
        arity(1, "attack golem")
        return Attack(monster(args[0]))
    if verb == "recover":
        arity(0, "recover")
        return Recover()
    if verb == "call":
        arity(2, "call giant 5c")
        return Call(monster(args[0]), space(args[1], False))
    if verb == "curse":
        if not args:
            raise ParseError("curse takes the cursed monster's way back: 1 to 3 spaces", hint="curse 4c 3c 2c  (or just the last space: curse 2c)")
        if len(args) > 3:
            raise RuleViolation("MD-CURSE-PATH", f"a cursed monster goes back 3 spaces, not {len(args)}"
                                " (\"Move the cursed monster backwards 3 spaces\")")
        return Curse(tuple(space(a, False) for a in args))
    if verb == "copy":
        arity(1, "copy griffin")
        return Copy(monster(args[0]))
    if verb == "end":
        arity(0, "end")
        return End()
    raise ParseError(f"{verb!r} is not a Monster Derby command", hint=hint)


def command_text(c: Any) -> str:
    if isinstance(c, Keep):
        return f"keep {c.agenda}"
    if isinstance(c, Roll):
        return "roll"
    if isinstance(c, TakeMarker):
        return "take-marker"
    if isinstance(c, ControlMonster):
        return f"control {c.monster}"
    if isinstance(c, Move):
        return "move " + " ".join(c.spaces)
    if isinstance(c, Fly):
        return f"fly {c.space}"
    if isinstance(c, Attack):
        return f"attack {c.monster}"
    if isinstance(c, Recover):
        return "recover"
    if isinstance(c, Call):
        return f"call {c.monster} {c.space}"
    if isinstance(c, Copy):
        return f"copy {c.monster}"
    if isinstance(c, Curse):
        return "curse " + " ".join(c.spaces)
    return "end"


def manual_faces(text: str) -> tuple[str, list[str]] | None:
    """``roll 4`` with physical dice: whatever follows ``roll`` is the move die's face, so a
    word or a 9 is answered with the die's faces, not with roll's arity."""
    m = re.match(r"^roll\s+(.+)$", text.strip().lower())
    if m:
        return "roll", m.group(1).replace(",", " ").split()
    return None
