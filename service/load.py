"""A load run against the service: many games, a client per seat, all through HTTP.

Used by the load test and by ``arbiter bench``. It starts a real server on a loopback port
over a fresh store, creates the games, and lets every seat's client play random legal
commands until each game has taken its share (or ended). Nothing here goes beyond loopback,
and every loop is bounded in count and time.
"""

from __future__ import annotations

import asyncio
import random
import socket
import statistics
import threading
import time
from typing import Any

import msgspec



class LoadResult(msgspec.Struct):
    games: int
    clients: int
    commands: int
    refused: int
    server_errors: int
    seconds: float
    per_second: float
    p50_ms: float
    p95_ms: float
    p99_ms: float
    receipts: list[str]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Running:
    """A server on a loopback port, in a thread of this process."""

    def __init__(self, db: str, admin_token: str | None = None, port: int | None = None) -> None:
        from arbiter.service.server import server
        from arbiter.service.tables import Tables

        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.tables = Tables(db, admin_token=admin_token, base_url=self.url)
        self.server = server(self.tables, host="127.0.0.1", port=self.port, log_level="error")
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> "Running":
        self.thread.start()
        deadline = time.time() + 20
        while not self.server.started:
            if time.time() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)
        if self.thread.is_alive() and exc[0] is None:
            raise RuntimeError("the server did not stop")


async def _send(client: Any, method: str, path: str, **kw: Any) -> Any:
    """One request, tried again once if the connection dropped under it (commands carry a
    command id, so a retry never applies a move twice)."""
    import httpx

    try:
        return await client.request(method, path, **kw)
    except httpx.TransportError:
        return await client.request(method, path, **kw)


async def _wait(client: Any, gid: str, headers: dict[str, str], seq: int) -> None:
    """Wait on the live stream until the game moves past ``seq`` (no polling), at most a
    second at a time, so that a seat notices when its game has taken its share."""
    import httpx

    async def moved() -> None:
        async with client.stream("GET", f"/games/{gid}/stream?after={seq}", headers=headers) as r:
            async for line in r.aiter_lines():
                if line.startswith("data:"):
                    return

    try:
        await asyncio.wait_for(moved(), timeout=1.0)
    except (asyncio.TimeoutError, httpx.TransportError):
        pass


async def _seat(url: str, gid: str, token: str, quota: list[int], rng: random.Random,
                latencies: list[float], counts: dict[str, int], receipts: list[str], deadline: float,
                tls: Any = None) -> None:
    """One seat's client, with connections of its own as a player's device has (one shared
    pool of hundreds of connections costs the load run more than the server it measures:
    httpx checks every pooled connection on each request)."""
    import httpx

    async with httpx.AsyncClient(base_url=url, timeout=60, limits=httpx.Limits(max_connections=4),
                                 verify=tls if tls is not None else True) as client:
        await _play_seat(client, gid, token, quota, rng, latencies, counts, receipts, deadline)


async def _play_seat(client: Any, gid: str, token: str, quota: list[int], rng: random.Random,
                     latencies: list[float], counts: dict[str, int], receipts: list[str], deadline: float) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    while quota[0] > 0 and time.perf_counter() < deadline:
        r = await _send(client, "GET", f"/games/{gid}", headers=headers)
        if r.status_code >= 500:
            counts["errors"] += 1
            return
        st = r.json()
        if st["status"] == "over":
            return
        if not st["legal"]:
            await _wait(client, gid, headers, st["seq"])
            continue
        text = rng.choice(st["legal"])
        quota[0] -= 1
        t0 = time.perf_counter()
        r = await _send(client, "POST", f"/games/{gid}/commands", headers=headers,
                        json={"text": text, "command_id": f"{gid}-{rng.getrandbits(64):x}"})
        latencies.append(time.perf_counter() - t0)
        if r.status_code >= 500:
            counts["errors"] += 1
        elif r.status_code == 200:
            counts["ok"] += 1
            receipts.append(r.json()["receipt"])
        else:
            counts["refused"] += 1  # another seat moved first: a fair refusal, nothing lost


async def _run(url: str, kinds: list[str], games: int, per_game: int, seed: int, limit: float) -> LoadResult:
    import httpx

    import ssl

    rng = random.Random(seed)
    tls = ssl.create_default_context()  # one for every seat's client: making one costs ~20 ms
    latencies: list[float] = []
    counts = {"ok": 0, "refused": 0, "errors": 0}
    receipts: list[str] = []
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        tasks = []
        for i in range(games):
            kind = kinds[i % len(kinds)]
            seats = [f"s{j}" for j in range(2 + i % 3)]
            r = await client.post("/games", json={"kind": kind, "players": seats})
            if r.status_code != 201:  # a kind with fewer seats: take its own count
                r = await client.post("/games", json={"kind": kind})
            created = r.json()
            quota = [per_game]
            deadline = time.perf_counter() + limit
            for seat, access in created["seats"].items():
                tasks.append(_seat(url, created["game_id"], access["token"], quota,
                                   random.Random(rng.random()), latencies, counts, receipts, deadline, tls))
        t0 = time.perf_counter()
        await asyncio.gather(*tasks)
        secs = time.perf_counter() - t0
    lat = sorted(latencies) or [0.0]
    return LoadResult(games=games, clients=len(tasks), commands=counts["ok"], refused=counts["refused"],
                      server_errors=counts["errors"], seconds=secs, per_second=counts["ok"] / secs if secs else 0,
                      p50_ms=statistics.median(lat) * 1000, p95_ms=_pct(lat, 0.95), p99_ms=_pct(lat, 0.99),
                      receipts=receipts)


def _pct(ordered: list[float], q: float) -> float:
    """The ``q`` quantile of sorted seconds, in milliseconds."""
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000


def run_load(db: str, *, kinds: list[str], games: int = 50, per_game: int = 20, seed: int = 0,
             limit: float = 300.0) -> LoadResult:
    """Start a server over ``db`` and play ``games`` games of ``per_game`` commands each."""
    with Running(db) as server:
        return asyncio.run(_run(server.url, kinds, games, per_game, seed, limit))
