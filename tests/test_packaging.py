"""Installing arbiter adds one top-level package, ``arbiter``, and the ``arbiter`` command.

``core``, ``events`` and ``fixtures`` are names other projects use on the package index; an
install that put them at the top of site-packages would overwrite those projects.
"""

import importlib.metadata
import pathlib
import subprocess
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_the_distribution_installs_only_the_arbiter_package():
    installed = [p for p in sys.path if p.endswith("site-packages")]
    dist = next(iter(importlib.metadata.distributions(name="arbiter-referee", path=installed)))
    tops = set()
    for f in dist.files or ():
        first = f.parts[0]
        if first.endswith((".dist-info", ".data")) or first in ("..", "__pycache__"):
            continue
        if f.suffix == ".pth" or first.startswith(("__editable__", "__editable___")):
            continue  # an editable install's finder, which maps only ``arbiter``
        tops.add(first)
    assert tops <= {"arbiter"}, f"top-level names installed besides arbiter: {sorted(tops - {'arbiter'})}"
    assert any(ep.name == "arbiter" and ep.value == "arbiter.cli.app:main"
               for ep in dist.entry_points if ep.group == "console_scripts")


def test_every_package_folder_is_declared():
    """A subpackage left out of pyproject.toml would be missing from a real install."""
    declared = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {"arbiter"}
    for init in ROOT.rglob("__init__.py"):
        rel = init.parent.relative_to(ROOT)
        if rel.parts and rel.parts[0] in ("tests", ".venv", ".git", "build"):
            continue
        if rel.parts:
            found.add("arbiter." + ".".join(rel.parts))
    assert found == declared


def test_the_old_top_level_names_are_not_importable_from_the_install(tmp_path):
    code = ("import importlib.util, sys\n"
            "print([n for n in ('core', 'cli', 'events', 'projections', 'fixtures')"
            " if importlib.util.find_spec(n) is not None])\n"
            "import arbiter.cli.app\n")
    out = subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, text=True,
                         cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
