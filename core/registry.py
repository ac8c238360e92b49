"""The game registry: every game arbiter knows, by id. Adding a game adds one line here."""

from __future__ import annotations

import importlib
from typing import Any

from core.errors import UnknownGameKind
from core.game import Game

#: game id -> "module:attribute" of its Game object.
GAMES: dict[str, str] = {
    "monster-derby": "core.monster_derby:GAME",
    "villainous": "core.villainous:GAME",
}

_loaded: dict[str, Game[Any, Any]] = {}


def get(game_id: str) -> Game[Any, Any]:
    """The game registered under ``game_id`` (raises :class:`UnknownGameKind`)."""
    if game_id not in GAMES:
        raise UnknownGameKind(
            f"unknown game {game_id!r}; arbiter knows: {', '.join(sorted(GAMES))}"
        )
    if game_id not in _loaded:
        module, attr = GAMES[game_id].split(":")
        _loaded[game_id] = getattr(importlib.import_module(module), attr)
    return _loaded[game_id]


def all_games() -> list[Game[Any, Any]]:
    return [get(g) for g in sorted(GAMES)]


def register(game: Game[Any, Any]) -> None:
    """Register a game object directly (tests use this for their toy game)."""
    GAMES[game.id] = f"{type(game).__module__}:<registered>"
    _loaded[game.id] = game
