"""Encoding and decoding events to the JSON text kept in the store, with upcasting."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Callable, Union

import msgspec

from arbiter.events.base import KERNEL_EVENTS, Event
from arbiter.events.errors import UnknownEventType  # noqa: F401 - re-exported

if TYPE_CHECKING:
    from arbiter.events.store import LogText

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]

# (type name, from version) -> function turning that version's payload into the next one's.
UPCASTERS: dict[tuple[str, int], Upcaster] = {}


def register_upcaster(type_name: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
    """Declare how a payload of ``type_name`` at ``from_version`` becomes the next version."""

    def wrap(fn: Upcaster) -> Upcaster:
        UPCASTERS[(type_name, from_version)] = fn
        return fn

    return wrap


class Codec:
    """Encodes and decodes one game's events (the kernel's plus the game's own)."""

    def __init__(self, game_events: tuple[type[Event], ...]) -> None:
        types = KERNEL_EVENTS + tuple(t for t in game_events if t not in KERNEL_EVENTS)
        self.types: dict[str, type[Event]] = {t.__name__: t for t in types}
        self._decoder = msgspec.json.Decoder(Union[types])  # type: ignore[valid-type]
        self._encoder = msgspec.json.Encoder()
        #: the payload version every type is at, when they all are at one (None: they are not)
        self.version = types[0].VERSION if len({t.VERSION for t in types}) == 1 else None

    @functools.cached_property
    def _log_decoders(self) -> tuple[msgspec.json.Decoder, msgspec.json.Decoder, msgspec.json.Decoder]:
        event = Union[tuple(self.types.values())]  # type: ignore[valid-type]
        return (msgspec.json.Decoder(list[tuple[int, str, event]]),  # type: ignore[valid-type]
                msgspec.json.Decoder(dict[int, Union[str, None]]),
                msgspec.json.Decoder(dict[str, tuple[Union[str, None], str]]))

    def encode(self, event: Event) -> str:
        """The exact JSON text stored and hashed for ``event``."""
        return self._encoder.encode(event).decode()

    def decode(self, type_name: str, version: int, payload: str | bytes) -> Event:
        """Decode a stored payload, upcasting it first if it was written by an older version."""
        cls = self.types.get(type_name)
        if cls is None:
            raise UnknownEventType(f"unknown event type {type_name!r}")
        if version == cls.VERSION:
            return self._decoder.decode(payload)
        raw = msgspec.json.decode(payload)
        while version < cls.VERSION:
            step = UPCASTERS.get((type_name, version))
            if step is None:
                raise UnknownEventType(f"no upcaster for {type_name} v{version}")
            raw = step(raw)
            version += 1
        if version != cls.VERSION:
            raise UnknownEventType(
                f"{type_name} v{version} was written by a newer arbiter (this one knows v{cls.VERSION})"
            )
        return msgspec.convert(raw, Union[tuple(self.types.values())])  # type: ignore[valid-type]

    def decode_log(self, log: "LogText") -> tuple[list[tuple[int, str, Event]], dict[int, str | None],
                                                  dict[str, tuple[str | None, str]]] | None:
        """(seq, command id, event) of every event of ``log``, seq -> actor, and command id ->
        (actor, text) of the commands that start among them: each in one decode. None when an
        event must be upcast first or does not decode: read them row by row then (with
        :meth:`decode`, which upcasts, or says what is wrong)."""
        if self.version is None or log.lowest != self.version or log.highest != self.version:
            return None
        items, actors, texts = self._log_decoders
        try:
            return items.decode(log.items), actors.decode(log.actors), texts.decode(log.texts)
        except msgspec.DecodeError:
            return None

    def to_builtins(self, event: Event) -> dict[str, Any]:
        return msgspec.to_builtins(event)
