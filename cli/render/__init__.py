"""Text renderers of each game's state, for the terminal."""

from __future__ import annotations

import importlib
import re
from typing import Any, Callable

import msgspec

#: kind -> "module:function" with signature render(state, seat) -> str
RENDERERS: dict[str, str] = {
    "monster-derby": "arbiter.cli.render.monster_derby:render",
    "scott-pilgrim": "arbiter.cli.render.scott_pilgrim:render",
    "funkoverse-jaws": "arbiter.cli.render.funkoverse_jaws:render",
    "my-little-scythe": "arbiter.cli.render.my_little_scythe:render",
    "villainous": "arbiter.cli.render.villainous:board",  # wrapped here, at a terminal only
}


#: Every board fits a terminal's 80 columns.
WIDTH = 80

#: A compact board's most lines: with whose turn it is, the menu in columns and the prompt,
#: it fits an 80x24 terminal.
COMPACT_HEIGHT = 20

_TAG = re.compile(r"\[/?[a-z][a-z ]*\]")
_SQUEEZED = re.compile(r"… (\d+) more lines \(`board` shows them all\)")


def renderer(kind: str, width: int | None = WIDTH) -> Callable[[Any, str | None], str]:
    """The game's board drawing, its prose lines wrapped to ``width`` (None: left whole,
    for output into a pipe or a file)."""
    spec = RENDERERS.get(kind)
    if spec is None:
        return plain
    module, attr = spec.split(":")
    try:
        draw = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError):
        return plain

    def fitted(state: Any, seat: str | None) -> str:
        return fit(draw(state, seat), width) if width else draw(state, seat)

    return fitted


def compact_renderer(kind: str) -> Callable[[Any, str | None], str]:
    """The board for a short terminal: the game's own compact layout where it has one (a
    ``compact`` beside its ``render``), squeezed to :data:`COMPACT_HEIGHT` lines."""
    spec = RENDERERS.get(kind)
    draw: Callable[[Any, str | None], str] = plain
    if spec is not None:
        module, attr = spec.split(":")
        try:
            mod = importlib.import_module(module)
            draw = getattr(mod, "compact", None) or getattr(mod, attr)
        except (ImportError, AttributeError):
            pass

    def squeezed(state: Any, seat: str | None) -> str:
        return squeeze(fit(draw(state, seat)))

    return squeezed


def squeeze(text: str, height: int = COMPACT_HEIGHT) -> str:
    """``text`` in at most ``height`` lines: blank lines go first; then the middle, so the
    head (the board) and the tail (the viewer's own hand and what is awaited) stay."""
    lines = [line for line in text.split("\n") if line.strip()]
    if len(lines) <= height:
        return "\n".join(lines)
    tail = height // 3
    head = height - tail - 1
    # a board squeezed again (a short terminal's menu wanting more room) counts the lines
    # an earlier squeeze hid too
    gone = lines[head:len(lines) - tail]
    hidden = sum(int(m.group(1)) if (m := _SQUEEZED.search(line)) else 1 for line in gone)
    return "\n".join([*lines[:head], f"  [dim]… {hidden} more lines (`board` shows them all)[/dim]", *lines[-tail:]])


def visible(text: str) -> int:
    """Columns ``text`` takes on screen (rich markup tags take none)."""
    return len(_TAG.sub("", text))


def fit(text: str, width: int = WIDTH) -> str:
    """Wrap any line wider than ``width`` at spaces, continuing under its own indent plus
    two, so that prose lines (abilities, cards, legends) never run past the terminal's edge.
    Grids are laid out within the width by their renderers; this only catches prose."""
    out = []
    for line in text.split("\n"):
        if visible(line) <= width:
            out.append(line)
            continue
        lead = line[:len(line) - len(line.lstrip())]
        indent = lead + "  "
        current = lead
        for word in line.lstrip().split(" "):
            candidate = f"{current} {word}" if current.strip() else current + word
            if current.strip() and visible(candidate) > width:
                out.append(current.rstrip())
                current = indent + word
            else:
                current = candidate
        out.append(current.rstrip())
    return "\n".join(out)


def house_options(game: Any, options: dict[str, Any]) -> str:
    """The house options in force, as typed (``--option name=value``): the readings and
    fillings of the rulebook's gaps that a table may want to change."""
    def typed(v: Any) -> str:
        return str(v).lower() if isinstance(v, bool) else str(v)

    return "house options: " + ", ".join(f"{o.name}={typed(options.get(o.name, o.default))}"
                                         for o in game.options if o.house)


def plain(state: Any, seat: str | None) -> str:
    """Fallback: the state as indented JSON."""
    from arbiter.cli.common import escape

    return escape(msgspec.json.format(msgspec.json.encode(state), indent=2).decode())
