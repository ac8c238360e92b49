"""Text every player's screen shows: what in it would act on a terminal instead of showing.

A name or a line of content (a card, a villain, a monster) is printed on every seat's
screen, by the command line and by the web table alike, so the kernel refuses content
holding such a character whichever door it came through; stored text is escaped again
wherever it is printed (see :mod:`arbiter.cli.common`).
"""

from __future__ import annotations

import re
from typing import Any

#: Characters that act on a terminal rather than show: C0 controls (ESC, CR, BS, BEL, ...),
#: DEL, the C1 controls (some terminals take 0x9b as ESC [), and the Unicode marks that
#: reorder or break lines (bidi overrides and isolates, line and paragraph separators).
ACTING = r"\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
#: Any of them, a newline included: what a name or a line of content must not hold.
ACTS = re.compile(rf"[\x00-\x1f{ACTING}]")


def escaped(text: str) -> str:
    """``text`` with each acting character written as its escape (``\\x1b``, ``\\u202e``)."""
    return ACTS.sub(lambda m: m.group().encode("unicode_escape").decode(), text)


def acting_text(data: Any, at: str = "") -> str | None:
    """Where in content (JSON data) a string, key or value, holds a character that acts on
    a terminal, and which: ``villains/cad-bane/name holds \\x1b (at character 4)``; None if
    none does."""
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        here = f"{at}/{key}" if at else str(key)
        for text in (key, value):
            found = ACTS.search(text) if isinstance(text, str) else None
            if found:
                return f"{escaped(here)} holds {escaped(found.group())} (at character {found.start() + 1})"
        deeper = acting_text(value, here)
        if deeper:
            return deeper
    return None


#: Why such content is refused, said the same by every door.
ACTING_CONTENT = ("a name or text in content is shown on every player's screen, so it is one"
                  " line of printable text (no control characters, line breaks or direction marks)")
