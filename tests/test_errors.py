"""One root for arbiter's errors; what each means is said once at each edge.

Every error arbiter raises on purpose is an ``ArbiterError``; the command line gives each an
exit code from one table (``cli/common.EXIT_CODES``) and the service an HTTP status from one
table (``service/problems.STATUSES``). A new error class without an entry at both fails here.
"""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import arbiter
from arbiter.cli.common import EXIT_CODES, exit_code
from arbiter.core.errors import ArbiterError
from arbiter.events import errors as root_module


def _all_modules() -> None:
    for info in pkgutil.walk_packages(arbiter.__path__, "arbiter."):
        if ".tests" in info.name or info.name.startswith("arbiter.testing"):
            continue
        try:
            importlib.import_module(info.name)
        except ImportError:  # an optional dependency (the PostgreSQL driver) not installed
            pass


def _subclasses(root: type) -> set[type]:
    found, todo = set(), [root]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in found:
                found.add(sub)
                todo.append(sub)
    return found


def arbiters_errors() -> list[type[ArbiterError]]:
    """Every error class of arbiter's own (the tests' own are not arbiter's)."""
    _all_modules()
    own = [c for c in _subclasses(ArbiterError) | {ArbiterError} if c.__module__.startswith("arbiter.")]
    return sorted(own, key=lambda c: (c.__module__, c.__qualname__))


def unmapped(table: dict, classes: list[type]) -> list[str]:
    return [f"{c.__module__}.{c.__qualname__}" for c in classes if c not in table]


def test_the_root_is_one_class_that_every_layer_can_import():
    from arbiter.core import errors as core_errors
    from arbiter.events.codec import UnknownEventType
    from arbiter.events.store import StoreError
    from arbiter.projections.fold import DeeperFold

    assert core_errors.ArbiterError is root_module.ArbiterError
    for cls in (StoreError, UnknownEventType, DeeperFold, core_errors.RuleViolation, core_errors.ImportRefused):
        assert issubclass(cls, ArbiterError), cls
    assert issubclass(UnknownEventType, ValueError)  # a snapshot of another build is skipped as one


def test_there_are_errors_to_check():
    names = {c.__name__ for c in arbiters_errors()}
    assert {"RuleViolation", "ParseError", "StoreLocked", "Conflict", "UnknownGame", "CopyClash",
            "ImportRefused", "DeeperFold", "UnknownEventType", "Problem"} <= names


def test_every_error_has_an_exit_code_at_the_command_line():
    from arbiter.service.problems import Problem  # the service's own: it never leaves the service

    classes = [c for c in arbiters_errors() if c is not Problem]
    assert unmapped(EXIT_CODES, classes) == []
    assert set(EXIT_CODES.values()) == {1, 2, 3}


def test_every_error_has_an_http_status_at_the_service():
    from arbiter.service.problems import STATUSES

    assert unmapped(STATUSES, arbiters_errors()) == []
    assert all(400 <= status < 600 and title for status, title in STATUSES.values())


def test_a_new_error_without_an_entry_is_caught():
    class Unheard(ArbiterError):
        pass

    assert unmapped(EXIT_CODES, [Unheard]) == [f"{__name__}.{Unheard.__qualname__}"]
    assert exit_code(Unheard("x")) == 2  # at run time it is still bad input, never a traceback


def test_no_error_carries_its_own_number():
    """The rules and the stores say what went wrong, not what a shell or a browser makes of it."""
    carrying = [c.__name__ for c in arbiters_errors() if "exit_code" in vars(c) or "status" in vars(c)]
    assert carrying == []


@pytest.mark.parametrize("name, code, status", [
    ("RuleViolation", 1, 409), ("ParseError", 2, 422), ("ImportRefused", 1, 422),
    ("StoreLocked", 3, 503), ("Conflict", 3, 409), ("UnknownGame", 2, 404), ("CopyClash", 3, 409),
    ("StoreDamaged", 2, 500), ("QueryRefused", 2, 422),
])
def test_the_readme_s_exit_codes(name, code, status):
    from arbiter.service.problems import status as http_status

    cls = next(c for c in arbiters_errors() if c.__name__ == name)
    exc = cls("RULE-ID", "words") if name == "RuleViolation" else cls("words")
    assert exit_code(exc) == code
    assert http_status(exc)[0] == status


def test_a_new_games_content_that_would_act_on_a_terminal_is_refused_by_the_engine(tmp_path):
    """Not only the command line's files: content handed to the engine by any door is
    refused when a name holds a character that acts on a terminal, and nothing is stored."""
    import copy

    from arbiter.core import registry
    from arbiter.core.engine import Engine
    from arbiter.core.errors import BadContent

    content = copy.deepcopy(registry.get("villainous").default_content())
    villain = next(iter(content["villains"]))
    content["villains"][villain]["name"] = "Cad\u202eBane"
    eng = Engine(str(tmp_path / "c.duckdb"))
    with pytest.raises(BadContent, match=r"villains/.*/name holds \\u202e"):
        eng.new("villainous", seats=["ann", "bob"], content=content)
    assert not (tmp_path / "c.duckdb").exists()  # refused before the store was even made
