"""The service against its own OpenAPI document: whatever a client sends that the document
allows, the server answers with a documented status and body, never a server error."""

from __future__ import annotations

import pytest

pytest.importorskip("litestar", reason="the server extra (litestar) is not installed")
schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from schemathesis.specs.openapi.checks import positive_data_acceptance  # noqa: E402

from arbiter.service.api import create_app  # noqa: E402
from arbiter.service.tables import Tables  # noqa: E402

ADMIN = "openapi-admin-token"


def operations(schema):
    for result in schema.get_all_operations():
        yield result.ok()


def test_every_route_keeps_its_document(tmp_path):
    app = create_app(Tables(str(tmp_path / "oa.duckdb"), admin_token=ADMIN))
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    seen = []
    for op in operations(schema):
        if op.path.endswith("/stream"):
            continue  # a stream never ends on its own: the service tests read it
        seen.append(f"{op.method.upper()} {op.path}")

        @given(case=op.as_strategy())
        @settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def check(case):
            # Commands and kinds are checked by the rules, not by the document's types: a
            # well-typed body may still be refused (422), so that one check does not apply.
            case.call_and_validate(headers={"Authorization": f"Bearer {ADMIN}"},
                                   excluded_checks=[positive_data_acceptance])

        check()
    assert "POST /games/{game_id}/commands" in seen and "POST /games" in seen
