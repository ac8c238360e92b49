"""Monster Derby's command forms: one frozen struct a form (``keep``, ``roll``, ``take-marker``,
``control``, ``move``, ``fly``, ``attack``, ``recover``, ``call``, ``end``, ``copy``, ``curse``);
``game.py`` parses the words into them and writes them back."""

from __future__ import annotations

import msgspec

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
