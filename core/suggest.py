"""Typo suggestions, the same for every game and for both doors (command line and service):
when a command does not parse, the nearest legal command texts and the nearest words (card,
character, space names) the legal commands and the game's command forms use."""

from __future__ import annotations

import difflib
import re
from typing import Iterable, Sequence

_WORD = re.compile(r"[A-Za-z][\w'-]*")


def vocabulary(legal: Iterable[str], syntax: Iterable[str] = ()) -> set[str]:
    """Every word a command may use now: the words of the legal commands, and the literal
    (lower-case) words of the game's command forms."""
    words = set()
    for text in legal:
        words.update(w.lower() for w in _WORD.findall(text))
    for line in syntax:
        words.update(w for w in _WORD.findall(line.split("  ")[0]) if w.islower())
    return words


def suggestions(text: str, legal: Sequence[str], syntax: Iterable[str] = ()) -> str:
    """"did you mean ..." for ``text``, or "" when nothing is near."""
    text = " ".join(text.split())
    near = difflib.get_close_matches(text.lower(), [t.lower() for t in legal], n=3, cutoff=0.6)
    if near:
        by_lower = {t.lower(): t for t in legal}
        return "did you mean: " + "; ".join(f"`{by_lower[n]}`" for n in near) + "?"
    known = vocabulary(legal, syntax)
    fixes = []
    for word in _WORD.findall(text):
        if word.lower() in known:
            continue
        close = difflib.get_close_matches(word.lower(), sorted(known), n=2, cutoff=0.7)
        if close:
            fixes.append(f"{word!r}: {' or '.join(repr(c) for c in close)}")
    return ("did you mean " + "; ".join(fixes) + "?") if fixes else ""
