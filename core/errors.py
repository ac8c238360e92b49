"""Precise exceptions for everything a player or a file can get wrong in the rules layer.

Their root, :class:`ArbiterError`, lives in ``arbiter.events.errors`` (the bottom layer, so
the stores' errors share it) and is re-exported here. No error carries an exit code or an
HTTP status: each edge maps the classes once (``cli/common.py``: ``EXIT_CODES``;
``service/api.py``: ``STATUSES``), and a test holds every class to a mapping at both.
"""

from __future__ import annotations

import contextvars

from arbiter.events.errors import ArbiterError

__all__ = ["ArbiterError", "BadContent", "BadOption", "CommandIdReused", "CopyClash", "ImportRefused",
           "ManualDiceError", "ParseError", "RuleViolation", "Stalled", "TranscriptError", "UnknownGameKind", "WorkerDied",
           "gate", "require", "stop_trace", "trace_rules"]


class ParseError(ArbiterError):
    """The command text is not a command of this game (bad input)."""

    def __init__(self, message: str, *, hint: str = "") -> None:
        super().__init__(message)
        self.hint = hint

    def __str__(self) -> str:
        base = super().__str__()
        return f"{base}\n  hint: {self.hint}" if self.hint else base


class ManualDiceError(ParseError):
    """A manual-dice command did not give the faces it needs, or gave impossible ones."""


class RuleViolation(ArbiterError):
    """An illegal move, with the rule it breaks.

    ``rule_id`` names an entry of the game's rule index (``fixtures/<game>/rules.toml``).
    """

    def __init__(self, rule_id: str, message: str) -> None:
        super().__init__(message)
        self.rule_id = rule_id
        self.message = message
        self.section = ""  # filled from the rule index when the kernel reports it

    def __str__(self) -> str:
        cite = f'{self.rule_id}, "{self.section}"' if self.section else self.rule_id
        return f"illegal: {self.message} ({cite})"


class BadOption(ArbiterError):
    """An unknown ``--option`` name or a value it does not take."""


class BadContent(ArbiterError):
    """A ``--content`` file that does not match the game's content schema."""


class UnknownGameKind(ArbiterError):
    """No registered game is of that kind."""


class CommandIdReused(ArbiterError):
    """A ``--command-id`` given again with another seat or command (bad input)."""


class TranscriptError(ArbiterError):
    """A transcript that cannot be read (its line number is in the message)."""


class ImportRefused(TranscriptError):
    """A file whose games do not hold up: a broken chain, a listing that contradicts its
    events, a command the rules decide otherwise. Nothing of the file was imported."""


class CopyClash(ArbiterError):
    """The destination holds a game of the same id whose log is not the source's (a storage
    conflict)."""


class Stalled(ArbiterError):
    """A seat was asked to act but had no legal command: a bug in a game's legal_commands."""


class WorkerDied(ArbiterError):
    """A worker process of an import or an audit died mid-task (killed, or out of memory):
    the work it held is lost, so the whole import or audit stops (an import stores nothing)."""


_TRAIL: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar("rule_trail", default=None)


def require(condition: bool, rule_id: str, message: str) -> None:
    """Raise ``RuleViolation(rule_id, message)`` unless ``condition``; a passed check is
    remembered so that ``arbiter why`` can list the rules a command was checked against."""
    if not condition:
        raise RuleViolation(rule_id, message)
    trail = _TRAIL.get()
    if trail is not None and rule_id not in trail:
        trail.append(rule_id)


def gate(condition: bool, rule_id: str, message: str) -> None:
    """Raise ``RuleViolation(rule_id, message)`` unless ``condition``, like :func:`require`,
    for a check that asks nothing of the command in hand: a stage of the game every command
    passes once it is over ("every player first keeps an agenda"), or a bar on something the
    command did not ask for. Refused, it is cited like any rule; passed, it found nothing to
    do, so it is no part of why the command was legal and the trail that ``arbiter why``
    and ``try`` read does not record it (else every command would list it)."""
    if not condition:
        raise RuleViolation(rule_id, message)


def trace_rules() -> tuple[list[str], contextvars.Token]:
    """Start recording the rule ids that :func:`require` sees pass; returns (trail, token)."""
    trail: list[str] = []
    return trail, _TRAIL.set(trail)


def stop_trace(token: contextvars.Token) -> None:
    _TRAIL.reset(token)
