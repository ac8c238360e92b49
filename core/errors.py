"""Precise exceptions for everything a player or a file can get wrong."""

from __future__ import annotations

import contextvars


class ArbiterError(Exception):
    """Base of the user-facing errors; ``exit_code`` follows DESIGN.md."""

    exit_code = 2


class ParseError(ArbiterError):
    """The command text is not a command of this game (bad input: exit 2)."""

    def __init__(self, message: str, *, hint: str = "") -> None:
        super().__init__(message)
        self.hint = hint

    def __str__(self) -> str:
        base = super().__str__()
        return f"{base}\n  hint: {self.hint}" if self.hint else base


class ManualDiceError(ParseError):
    """A manual-dice command did not give the faces it needs, or gave impossible ones."""


class RuleViolation(ArbiterError):
    """An illegal move, with the rule it breaks (exit 1).

    ``rule_id`` names an entry of the game's rule index (``fixtures/<game>/rules.toml``).
    """

    exit_code = 1

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
    """No registered game has that id."""


class CommandIdReused(ArbiterError):
    """A ``--command-id`` given again with another seat or command (bad input: exit 2)."""


class TranscriptError(ArbiterError):
    """A transcript that cannot be read (its line number is in the message)."""


_TRAIL: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar("rule_trail", default=None)


def require(condition: bool, rule_id: str, message: str) -> None:
    """Raise ``RuleViolation(rule_id, message)`` unless ``condition``; a passed check is
    remembered so that ``arbiter why`` can list the rules a command was checked against."""
    if not condition:
        raise RuleViolation(rule_id, message)
    trail = _TRAIL.get()
    if trail is not None and rule_id not in trail:
        trail.append(rule_id)




def trace_rules() -> tuple[list[str], contextvars.Token]:
    """Start recording the rule ids that :func:`require` sees pass; returns (trail, token)."""
    trail: list[str] = []
    return trail, _TRAIL.set(trail)


def stop_trace(token: contextvars.Token) -> None:
    _TRAIL.reset(token)
