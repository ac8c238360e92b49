"""The layout is the architecture: imports point only downwards."""

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
ORDER = ["events", "projections", "core", "cli"]
OURS = set(ORDER) | {"fixtures", "service", "testing"}
#: what each layer may import (fixtures is data, read by the rules layer and above)
ALLOWED = {
    "events": {"events"},
    "projections": {"events", "projections"},
    "core": {"events", "projections", "core", "fixtures"},
    "cli": {"events", "projections", "core", "cli", "fixtures", "service"},
    # the service is another way in for people, beside cli: it never imports cli
    "service": {"events", "projections", "core", "fixtures", "service"},
    "fixtures": {"fixtures"},
    # the conformance harness drives games as their tests do: never through cli or service
    "testing": {"events", "projections", "core", "testing"},
}


def layer_of(module: str, names: list[str] = ()) -> set[str]:
    """The layers a module path names: ``arbiter.core.x`` -> core; ``from arbiter import
    fixtures`` -> fixtures; a bare top-level ``core`` (the old layout) -> core too, so that
    it is caught by the namespace test below."""
    parts = module.split(".")
    if parts[0] == "arbiter":
        return {parts[1]} if len(parts) > 1 else set(names)
    return {parts[0]}


def imports(path: pathlib.Path) -> set[str]:
    tree = ast.parse(path.read_text())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                found |= layer_of(a.name)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found |= layer_of(node.module, [a.name for a in node.names])
    return found & OURS


def bare_imports(path: pathlib.Path) -> set[str]:
    """Our layers imported by their old top-level names instead of through ``arbiter``."""
    tree = ast.parse(path.read_text())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found & OURS


def test_imports_point_only_downwards():
    wrong = []
    for layer, allowed in ALLOWED.items():
        for path in (ROOT / layer).rglob("*.py"):
            for name in imports(path) - allowed:
                wrong.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not wrong, "upward imports:\n" + "\n".join(wrong)


def test_layer_check_catches_an_upward_import(tmp_path):
    bad = tmp_path / "x.py"
    bad.write_text("from arbiter.core.match import Match\nimport arbiter.cli.app\n"
                   "from arbiter import fixtures\n")
    assert imports(bad) == {"core", "cli", "fixtures"}


def test_everything_is_imported_through_the_arbiter_namespace():
    wrong = []
    for path in ROOT.rglob("*.py"):
        if ".venv" in path.parts or ".git" in path.parts:
            continue
        for name in bare_imports(path):
            wrong.append(f"{path.relative_to(ROOT)} imports {name} (write arbiter.{name})")
    assert not wrong, "\n".join(wrong)


def test_the_service_never_touches_the_storage_engine():
    """The service reaches the store only through the engine, whatever store it is."""
    wrong = []
    for path in (ROOT / "service").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                if name.split(".")[0] in ("duckdb", "psycopg") or name == "arbiter.events.store":
                    wrong.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not wrong, "\n".join(wrong)
