"""The game registry: every game kind arbiter knows (``monster-derby``), each a
:class:`Game`. Adding a game adds one line here. A *kind* is what ``new`` takes; a played
*game* has an id of its own (``md-3f9a1c``) and is in the store, never here."""

from __future__ import annotations

import importlib
from typing import Any

from arbiter.core.errors import UnknownGameKind
from arbiter.core.game import Game

#: kind -> "module:attribute" of its Game object.
GAMES: dict[str, str] = {
    "monster-derby": "arbiter.core.monster_derby:GAME",
    "scott-pilgrim": "arbiter.core.scott_pilgrim:GAME",
    "funkoverse-jaws": "arbiter.core.funkoverse_jaws:GAME",
    "my-little-scythe": "arbiter.core.my_little_scythe:GAME",
    "villainous": "arbiter.core.villainous:GAME",
}

_loaded: dict[str, Game[Any, Any]] = {}
_plugins_read = False
#: the games registered from Python (:func:`register`), which a worker process started
#: afresh (import's, verify's) does not have unless it is handed them
_registered: dict[str, Game[Any, Any]] = {}


def _plugins() -> None:
    """Extra games named in ARBITER_PLUGINS ("module:attribute,..."), e.g. a group's own."""
    import os

    global _plugins_read
    if _plugins_read:
        return
    _plugins_read = True
    for spec in filter(None, (p.strip() for p in os.environ.get("ARBITER_PLUGINS", "").split(","))):
        module, _, attr = spec.partition(":")
        try:
            game = getattr(importlib.import_module(module), attr or "GAME")
        except (ImportError, AttributeError) as exc:
            raise UnknownGameKind(f"ARBITER_PLUGINS names {spec!r}, which cannot be loaded: {exc}") from None
        GAMES.setdefault(game.id, spec)
        _loaded.setdefault(game.id, game)



def get(kind: str) -> Game[Any, Any]:
    """The game registered as ``kind`` (raises :class:`UnknownGameKind`)."""
    _plugins()
    if kind not in GAMES:
        import difflib

        near = difflib.get_close_matches(kind.lower(), sorted(GAMES), n=1, cutoff=0.6)
        raise UnknownGameKind(
            f"unknown game {kind!r}" + (f" (did you mean {near[0]!r}?)" if near else "")
            + f"; arbiter knows: {', '.join(sorted(GAMES))}"
        )
    if kind not in _loaded:
        module, attr = GAMES[kind].split(":")
        _loaded[kind] = getattr(importlib.import_module(module), attr)
    return _loaded[kind]


def all_games() -> list[Game[Any, Any]]:
    _plugins()
    return [get(kind) for kind in sorted(GAMES)]


def register(game: Game[Any, Any]) -> None:
    """Register a game object directly (tests use this for their toy game)."""
    GAMES[game.id] = f"{type(game).__module__}:<registered>"
    _loaded[game.id] = game
    _registered[game.id] = game


def registered_here() -> list[tuple[str, str]]:
    """Where a worker process started afresh (import's, verify's) finds each game registered
    from Python here, for :func:`register_again`: (module, name) of the module's own object
    (``toygame``, ``GAME``), else of the game's class, made anew (its games take no
    arguments). The game object itself is not sent: once used, it holds caches that do not
    pickle."""
    import sys

    out = []
    for game in _registered.values():
        module = type(game).__module__
        found = vars(sys.modules[module]) if module in sys.modules else {}
        name = next((n for n, v in found.items() if v is game), None)
        out.append((module, name or type(game).__qualname__))
    return out


def register_again(where: list[tuple[str, str]]) -> None:
    """Register the games :func:`registered_here` named in another process. One that cannot
    be found here is skipped: its kind stays unknown, and is refused as such."""
    for module, name in where:
        try:
            found = getattr(importlib.import_module(module), name)
            game = found() if isinstance(found, type) else found
        except Exception:
            continue
        register(game)


def available() -> list[Game[Any, Any]]:
    """The registered games whose modules are present (a game still being written is
    skipped, not an error)."""
    _plugins()
    out = []
    for kind in sorted(GAMES):
        module = GAMES[kind].split(":")[0]
        try:
            out.append(get(kind))
        except ModuleNotFoundError as exc:
            if exc.name and module.startswith(exc.name):
                continue
            raise
    return out


def known() -> list[str]:
    """Every registered kind, plugins included."""
    _plugins()
    return sorted(GAMES)
