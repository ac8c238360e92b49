"""The shapes every game's command parser shares, said once: the words of a command, how
many words a verb takes, and the known word closest to a misspelt one. A game's parser
(``core/<game>/commands.py``) keeps its own verbs, hints and phrasing."""

from __future__ import annotations

import difflib
from typing import Iterable, Sequence

from arbiter.core.errors import ParseError


def command_words(text: str, hint: str, *, lower: bool = False) -> list[str]:
    """The words of ``text`` (lower-cased with ``lower``); no words at all is refused as an
    empty command, with the game's ``hint``."""
    words = (text.lower() if lower else text).split()
    if not words:
        raise ParseError("empty command", hint=hint)
    return words


def takes(verb: str, args: Sequence[str], fewest: int, most: int | None = None, *, hint: str,
          noun: str = "word") -> None:
    """Refuse ``verb`` unless it has ``fewest`` to ``most`` (default: exactly ``fewest``)
    words after it: "move takes 1 to 2 words", "roll takes 0 arguments"."""
    most = fewest if most is None else most
    if not fewest <= len(args) <= most:
        span = f"{fewest}" if most == fewest else f"{fewest} to {most}"
        raise ParseError(f"{verb} takes {span} {noun}{'' if most == 1 else 's'}", hint=hint)


def closest(word: str, known: Iterable[str]) -> str | None:
    """The known word a misspelling most likely meant (``chalenge`` -> ``challenge``), or None."""
    found = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return found[0] if found else None
