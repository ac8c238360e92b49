"""Text renderers of each game's state, for the terminal."""

from __future__ import annotations

import importlib
from typing import Any, Callable

import msgspec

#: game id -> "module:function" with signature render(state, seat) -> str
RENDERERS: dict[str, str] = {
    "monster-derby": "arbiter.cli.render.monster_derby:render",
    "scott-pilgrim": "arbiter.cli.render.scott_pilgrim:render",
    "funkoverse-jaws": "arbiter.cli.render.funkoverse_jaws:render",
    "my-little-scythe": "arbiter.cli.render.my_little_scythe:render",
    "villainous": "arbiter.cli.render.villainous:render",
}


def renderer(game_id: str) -> Callable[[Any, str | None], str]:
    spec = RENDERERS.get(game_id)
    if spec is None:
        return plain
    module, attr = spec.split(":")
    try:
        return getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError):
        return plain


def plain(state: Any, seat: str | None) -> str:
    """Fallback: the state as indented JSON."""
    return msgspec.json.format(msgspec.json.encode(state), indent=2).decode()
