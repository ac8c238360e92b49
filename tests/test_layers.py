"""The layout is the architecture: imports point only downwards."""

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
ORDER = ["events", "projections", "core", "cli"]
OURS = set(ORDER) | {"fixtures"}
#: what each layer may import (fixtures is data, read by the rules layer and above)
ALLOWED = {
    "events": {"events"},
    "projections": {"events", "projections"},
    "core": {"events", "projections", "core", "fixtures"},
    "cli": {"events", "projections", "core", "cli", "fixtures"},
    "fixtures": {"fixtures"},
}


def imports(path: pathlib.Path) -> set[str]:
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
    bad.write_text("from core.match import Match\nimport cli.app\n")
    assert imports(bad) == {"core", "cli"}
