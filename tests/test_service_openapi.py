"""The service against its own OpenAPI document: whatever a client sends that the document
allows, the server answers with a documented status and body, never a server error. Every
route is called with each kind of bearer (a seat's token, the game's referee token, the
server's admin token, a token of no seat, none), at a game that exists as often as at one
that does not."""

from __future__ import annotations

import pytest

pytest.importorskip("litestar", reason="the server extra (litestar) is not installed")
schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from litestar.testing import TestClient  # noqa: E402
from schemathesis.specs.openapi.checks import positive_data_acceptance  # noqa: E402

from arbiter.service.api import create_app  # noqa: E402
from arbiter.service.tables import Tables  # noqa: E402

ADMIN = "openapi-admin-token"


def operations(schema):
    for result in schema.get_all_operations():
        yield result.ok()


def test_every_route_keeps_its_document_for_every_bearer(tmp_path):
    app = create_app(Tables(str(tmp_path / "oa.duckdb"), admin_token=ADMIN))
    with TestClient(app) as c:  # a game to aim at, and its tokens
        made = c.post("/games", headers={"Authorization": f"Bearer {ADMIN}"},
                      # a game with nothing hidden: an undo there is never refused for what
                      # it would leave known (ARB-UNDO-HIDDEN), so the route answers 200 too
                      json={"kind": "funkoverse-jaws", "players": ["ann", "bob"]})
        assert made.status_code == 201, made.text
        game = made.json()
    gid = game["game_id"]
    bearers = {"seat": game["seats"]["ann"]["token"], "other seat": game["seats"]["bob"]["token"],
               "referee": game["referee"]["token"], "admin": ADMIN, "no seat": "not-a-token", "none": None}
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    seen = []
    answered: dict[str, set[int]] = {}
    undo_op = None
    for op in operations(schema):
        streams = op.path.endswith("/stream")
        if op.path.endswith("/undo"):
            undo_op = op
        seen.append(f"{op.method.upper()} {op.path}")

        # mostly the game's own seats at the game itself: that is where the answers are
        @given(case=op.as_strategy(), who=st.sampled_from(["seat", "other seat", "referee", *sorted(bearers)]),
               here=st.sampled_from([True, True, True, False]))
        @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None,
                  derandomize=True)  # the same cases every run: CI never flickers on luck
        def check(case, who, here):
            if here and "game_id" in (case.path_parameters or {}):
                case.path_parameters["game_id"] = gid
            token = bearers[who]
            if streams and who not in ("no seat", "none"):
                token = "not-a-token"  # a stream a seat may open never ends: its refusals only
            headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
            # Commands and kinds are checked by the rules, not by the document's types: a
            # well-typed body may still be refused (422), so that one check does not apply.
            r = case.call_and_validate(headers=headers, excluded_checks=[positive_data_acceptance])
            answered.setdefault(f"{op.method.upper()} {op.path}", set()).add(r.status_code)

        check()
    if 200 not in answered.get("POST /games/{game_id}/undo", {200}):
        # the cases before may have left nothing to take back (every move undone, or none
        # made: the dice, which the seats' committed entropy mixes in, pick who starts and
        # so whose bot may move): one more move, and the referee's undo of it, as a document
        with TestClient(app) as c:
            acting = c.get(f"/games/{gid}", headers={"Authorization": f"Bearer {bearers['referee']}"}).json()["to_act"]
            moved = c.post(f"/games/{gid}/bot", json={},
                           headers={"Authorization": f"Bearer {game['seats'][acting[0]]['token']}"})
            assert moved.status_code == 200, moved.text
        r = undo_op.Case(path_parameters={"game_id": gid}).call_and_validate(
            headers={"Authorization": f"Bearer {bearers['referee']}"}, excluded_checks=[positive_data_acceptance])
        answered["POST /games/{game_id}/undo"].add(r.status_code)
    assert "POST /games/{game_id}/commands" in seen and "POST /games" in seen
    assert "GET /games/{game_id}/stream" in seen
    # not only refusals: the seats and the referee were answered at the game itself
    for route in ("GET /games", "GET /games/{game_id}", "GET /games/{game_id}/events",
                  "GET /games/{game_id}/verify", "POST /games/{game_id}/bot", "POST /games/{game_id}/undo"):
        assert 200 in answered[route], (route, answered[route])
    assert {401, 403}.issubset(answered["GET /games/{game_id}"])
