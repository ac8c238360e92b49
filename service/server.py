"""Running the service: uvicorn serving the app over one store."""

from __future__ import annotations

import ipaddress
import sys
from typing import Any


#: What the service runs on (and its clients, `play --server` and the load run, talk
#: through), installed by the ``server`` extra.
NEEDS = ("litestar", "uvicorn")
CLIENT_NEEDS = ("httpx",)


def missing(needs: tuple[str, ...] = NEEDS, what: str = "the service") -> str | None:
    """Why ``what`` cannot run here (a sentence naming the extra), or None."""
    import importlib.util

    def absent_(name: str) -> bool:
        try:
            return importlib.util.find_spec(name) is None
        except ValueError:  # put out of reach in sys.modules (None there)
            return True

    absent = [name for name in needs if absent_(name)]
    if not absent:
        return None
    return (f"{what} needs {', '.join(absent)}, which arbiter installs with its server extra:"
            " pip install 'arbiter-referee[server]'")


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


def server(tables: Any, *, host: str, port: int, log_level: str = "warning") -> Any:
    """A uvicorn server for ``tables`` that, when told to stop (Ctrl-C, SIGTERM or
    ``should_exit``), first ends the live streams: uvicorn waits for every open response to
    finish, and a seat's stream never does on its own, so one open table page used to keep
    the server from stopping at all."""
    import uvicorn

    from arbiter.service.api import create_app

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: Any = None) -> None:
            tables.end_streams()
            await super().shutdown(sockets)

    return Server(uvicorn.Config(create_app(tables), host=host, port=port, log_level=log_level,
                                 access_log=False, timeout_keep_alive=KEEP_ALIVE))


def serve(db: str, *, host: str, port: int, admin_token: str | None) -> None:
    from arbiter.service.tables import Tables

    base = f"http://{'[' + host + ']' if ':' in host else host}:{port}"
    print(f"arbiter serving {db} at {base} (API: {base}/openapi.json; Ctrl-C stops)", file=sys.stderr)
    try:
        server(Tables(db, admin_token=admin_token, base_url=base), host=host, port=port).run()
    except KeyboardInterrupt:  # uvicorn stops on Ctrl-C, then raises it again: a stop, not an error
        pass
