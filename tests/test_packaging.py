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
    assert any(ep.name == "arbiter" and ep.value == "arbiter.cli:main"
               for ep in dist.entry_points if ep.group == "console_scripts")


def test_every_package_folder_is_declared():
    """A subpackage left out of pyproject.toml would be missing from a real install; the
    other names declared are folders of data only (see the next test)."""
    declared = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {"arbiter"}
    for init in ROOT.rglob("__init__.py"):
        rel = init.parent.relative_to(ROOT)
        if rel.parts and rel.parts[0] in ("tests", ".venv", ".git", "build"):
            continue
        if rel.parts:
            found.add("arbiter." + ".".join(rel.parts))
    assert found <= declared
    for name in declared - found:
        folder = ROOT.joinpath(*name.split(".")[1:])
        assert folder.is_dir() and any(f.is_file() for f in folder.iterdir()), name


BUILD = """
import os, sys, warnings
from setuptools.dist import Distribution
from setuptools.config.pyprojecttoml import apply_configuration
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    dist = apply_configuration(Distribution(), "pyproject.toml")
    dist.script_name = "pyproject.toml"
    dist.script_args = ["build_py", "--build-lib", sys.argv[1]]
    dist.parse_command_line()
    dist.run_commands()
for w in caught:
    print("WARNING", str(w.message).strip().splitlines()[0], file=sys.stderr)
"""


def test_the_build_ships_every_fixture_and_static_file_and_says_nothing_of_packages(tmp_path):
    """A build warned that fixtures/villainous, fixtures/arbiter and service/static were
    absent from the packages (setuptools ships data under an importable folder name only
    as a package's, and will stop doing it otherwise). The build, as `pip install .` runs
    it, says nothing of packages and ships every file of the fixtures and the web table."""
    out = subprocess.run([sys.executable, "-c", BUILD, str(tmp_path / "lib")], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "packages" not in "".join(l for l in out.stderr.splitlines() if l.startswith("WARNING")), out.stderr
    built = tmp_path / "lib" / "arbiter"
    wanted = [f.relative_to(ROOT) for d in ("fixtures", "service/static") for f in (ROOT / d).rglob("*")
              if f.is_file() and f.suffix not in (".py", ".pyc")]
    assert any(w.parts[1] == "villainous" for w in wanted) and any(w.parts[0] == "service" for w in wanted)
    assert [w for w in wanted if not (built / w).is_file()] == []


def test_the_old_top_level_names_are_not_importable_from_the_install(tmp_path):
    code = ("import importlib.util, sys\n"
            "print([n for n in ('core', 'cli', 'events', 'projections', 'fixtures')"
            " if importlib.util.find_spec(n) is not None])\n"
            "import arbiter.cli.app\n")
    out = subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, text=True,
                         cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
