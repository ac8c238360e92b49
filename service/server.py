"""Running the service: uvicorn serving the app over one store."""

from __future__ import annotations

import ipaddress
import sys


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


#: Seconds an idle client connection stays open (uvicorn's default of 5 s drops pooled
#: connections of clients that wait on other players).
KEEP_ALIVE = 60


def serve(db: str, *, host: str, port: int, admin_token: str | None) -> None:
    import uvicorn

    from arbiter.service.api import create_app
    from arbiter.service.tables import Tables

    base = f"http://{'[' + host + ']' if ':' in host else host}:{port}"
    app = create_app(Tables(db, admin_token=admin_token, base_url=base))
    print(f"arbiter serving {db} at {base} (API: {base}/openapi.json; Ctrl-C stops)", file=sys.stderr)
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_keep_alive=KEEP_ALIVE)
