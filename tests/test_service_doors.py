"""One core, two doors: the service decides nothing the command line decides on its own,
and it reaches the store only through core."""

from __future__ import annotations

import ast
import pathlib

import pytest

pytest.importorskip("litestar", reason="the server extra (litestar) is not installed")

from litestar.testing import TestClient  # noqa: E402

from arbiter.service.api import create_app  # noqa: E402
from arbiter.service.tables import Tables  # noqa: E402

SERVICE = pathlib.Path(__file__).resolve().parent.parent / "service"
#: The storage engine and its drivers: the service reaches them only through core's Engine.
STORAGE = {"duckdb", "psycopg", "arbiter.events.store", "arbiter.events.postgres", "arbiter.events.interface"}
#: What core.explain decides for both doors; no door may decide it again.
DECIDED_IN_CORE = ("command_is_secret", "trace_rules", "describe_kernel", "suggestions", "blind_preview")


def imported(path: pathlib.Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names}
    return found


def test_the_service_never_imports_the_storage_engine():
    wrong = [f"{p.name} imports {m}" for p in SERVICE.rglob("*.py") for m in imported(p)
             if any(m == s or m.startswith(s + ".") for s in STORAGE)]
    assert not wrong, wrong


def test_the_check_catches_a_store_import(tmp_path):
    bad = tmp_path / "x.py"
    bad.write_text("from arbiter.events.store import open_store\nimport duckdb\n")
    assert {"arbiter.events.store", "duckdb"} <= imported(bad)


@pytest.mark.parametrize("door", ["service", "cli"])
def test_neither_door_decides_what_core_explain_decides(door):
    root = SERVICE.parent / door
    wrong = [f"{p.relative_to(root.parent)} calls {name}" for p in root.rglob("*.py")
             for name in DECIDED_IN_CORE if f"{name}(" in p.read_text()]
    assert not wrong, wrong


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def derby(tmp_path):
    with TestClient(create_app(Tables(str(tmp_path / "doors.duckdb")))) as c:
        game = c.post("/games", json={"kind": "monster-derby", "players": ["ann", "bob"]}).json()
        yield c, game


def test_an_undo_reads_as_the_move_it_took_back_and_keeps_its_secret(derby):
    client, game = derby
    gid = game["game_id"]
    ann, bob, ref = (bearer(t) for t in (game["seats"]["ann"]["token"], game["seats"]["bob"]["token"],
                                         game["referee"]["token"]))
    pick = client.get(f"/games/{gid}", headers=ann).json()["legal"][0]
    assert client.post(f"/games/{gid}/commands", headers=ann, json={"text": pick}).status_code == 200
    assert client.post(f"/games/{gid}/undo", headers=ann).status_code == 200

    def last(headers):
        return client.get(f"/games/{gid}/events", headers=headers).json()["events"][-1]["text"]

    assert last(ann) == f"undid ann's move `{pick}`"
    assert last(ref) == f"undid ann's move `{pick}`"
    assert last(bob) == "undid ann's move (a secret choice)"  # bob never learns which agenda
    assert "seq" not in last(bob)


def test_whose_turn_and_typo_hints_are_the_command_lines_words(derby):
    from arbiter.core import explain

    client, game = derby
    gid = game["game_id"]
    ann = bearer(game["seats"]["ann"]["token"])
    st = client.get(f"/games/{gid}", headers=ann).json()
    assert st["turn"].startswith("ann, bob choose in secret: ")
    pick = st["legal"][0]
    typo = "kep" + pick[len("keep"):]
    r = client.post(f"/games/{gid}/commands", headers=ann, json={"text": typo})
    assert r.status_code == 422
    assert f"did you mean: `{pick}`" in r.json()["detail"]
    assert explain.SECRET_CHOICE == "(a secret choice)"
