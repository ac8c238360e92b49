"""What each of arbiter's errors is over HTTP: the service's one table of statuses.

The command line says the same errors with exit codes (``cli/common.py``: ``EXIT_CODES``);
neither the rules nor the stores know either number. tests/test_errors.py holds every error
class to an entry here and there.
"""

from __future__ import annotations

from typing import Any

from arbiter.core import errors as E
from arbiter.core.errors import ArbiterError
from arbiter.events import errors as S


class Problem(ArbiterError):
    """A refusal the service makes itself, with its HTTP status (401, 403, 404, 409, 422)."""

    def __init__(self, status: int, title: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.status, self.title, self.detail, self.extra = status, title, detail, extra


#: (status, title) of each error; an error takes the entry of the nearest class on its MRO.
#: A 5xx shows its title only, never the message (it may name the server's files).
STATUSES: dict[type[ArbiterError], tuple[int, str]] = {
    ArbiterError: (422, "bad input"),
    Problem: (400, "bad request"),  # each Problem carries its own status and title
    E.ParseError: (422, "not a command"),
    E.ManualDiceError: (422, "not a command"),
    E.RuleViolation: (409, "illegal move"),
    E.BadOption: (422, "bad input"),
    E.BadContent: (422, "bad input"),
    E.UnknownGameKind: (422, "bad input"),
    E.CommandIdReused: (422, "bad input"),
    E.TranscriptError: (422, "bad input"),
    E.ImportRefused: (422, "bad input"),
    E.CopyClash: (409, "conflict"),
    E.Stalled: (500, "internal error"),  # a game's legal_commands is wrong
    E.WorkerDied: (503, "store unavailable"),  # the service runs no worker pools
    S.UnknownEventType: (500, "store damaged"),
    S.DeeperFold: (500, "internal error"),
    S.StoreError: (503, "store unavailable"),
    S.StoreLocked: (503, "store unavailable"),
    S.StoreUnavailable: (503, "store unavailable"),
    S.StorageFailed: (503, "store unavailable"),
    S.Conflict: (409, "conflict"),
    S.StoreDamaged: (500, "store damaged"),
    S.OldStore: (500, "store damaged"),
    S.ChainMismatch: (500, "store damaged"),
    S.UnknownGame: (404, "no such game"),
    S.QueryRefused: (422, "bad input"),
}


def status(exc: ArbiterError) -> tuple[int, str]:
    """The HTTP status and title of one of arbiter's errors (see :data:`STATUSES`)."""
    if isinstance(exc, Problem):
        return exc.status, exc.title
    for klass in type(exc).__mro__:
        if klass in STATUSES:
            return STATUSES[klass]
    return STATUSES[ArbiterError]


def problem(exc: ArbiterError) -> tuple[int, str, str, dict[str, Any]]:
    """(status, title, detail, extra members) of the problem document for ``exc``."""
    code, title = status(exc)
    if isinstance(exc, Problem):
        return code, title, exc.detail, exc.extra
    if isinstance(exc, E.RuleViolation):
        return code, title, exc.message, {"rule_id": exc.rule_id, "section": exc.section}
    if code >= 500:
        return code, title, "the server failed; nothing was written", {}
    return code, title, str(exc), {}
