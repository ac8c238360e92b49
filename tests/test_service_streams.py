"""The live stream as a player's device meets it: a page of events in one write, a reconnect
that goes on from the last event it had (``Last-Event-ID`` or ``?after``), and a server that
stops when told to even while seats are watching."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time

import pytest

pytest.importorskip("litestar", reason="the server extra (litestar) is not installed")
import httpx  # noqa: E402
from litestar.testing import AsyncTestClient  # noqa: E402

from arbiter.service.api import create_app  # noqa: E402
from arbiter.service.load import Running  # noqa: E402
from arbiter.service.tables import Tables  # noqa: E402


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_page_of_events_goes_out_in_one_write(tmp_path):
    """Written event by event, a page could meet a connection its client had just dropped and
    write on into it (asyncio's "socket.send() raised exception." at the end of load runs);
    a page is one body message, so at most one write finds a connection gone."""

    async def go() -> tuple[list[dict], int]:
        app = create_app(Tables(str(tmp_path / "s.duckdb")))
        async with AsyncTestClient(app) as c:
            game = (await c.post("/games", json={"kind": "monster-derby", "players": ["ann", "bob"]})).json()
            gid, token = game["game_id"], game["seats"]["ann"]["token"]
            shown = len((await c.get(f"/games/{gid}/events", headers=bearer(token))).json()["events"])
            sent: list[dict] = []
            first = asyncio.Event()

            async def receive() -> dict:
                await first.wait()  # the client goes away once the first page has come
                return {"type": "http.disconnect"}

            async def send(message: dict) -> None:
                sent.append(message)
                if message["type"] == "http.response.body" and message.get("body"):
                    first.set()

            scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
                     "scheme": "http", "path": f"/games/{gid}/stream", "raw_path": f"/games/{gid}/stream".encode(),
                     "query_string": b"after=0", "root_path": "", "server": ("127.0.0.1", 80),
                     "client": ("127.0.0.1", 5000),
                     "headers": [(b"host", b"x"), (b"authorization", f"Bearer {token}".encode())]}
            await asyncio.wait_for(app(scope, receive, send), timeout=30)
            return sent, shown

    sent, shown = asyncio.run(go())
    bodies = [m["body"] for m in sent if m["type"] == "http.response.body" and m.get("body")]
    assert shown >= 5, "too short a page to tell one write from many"
    assert len(bodies) == 1, f"{len(bodies)} writes for one page of {shown} events"
    assert bodies[0].count(b"event: event") == shown


def first_seqs(url: str, path: str, headers: dict[str, str], n: int) -> list[int]:
    """The seqs of the first ``n`` events a stream sends."""
    seqs: list[int] = []
    with httpx.stream("GET", url + path, headers=headers, timeout=30) as r:
        assert r.status_code == 200, r.read()
        for line in r.iter_lines():
            if line.startswith("data:"):
                seqs.append(json.loads(line[5:])["seq"])
                if len(seqs) == n:
                    break
    return seqs


def test_a_reconnecting_stream_goes_on_after_the_last_event_id_it_had(tmp_path):
    with Running(str(tmp_path / "s.duckdb")) as srv, httpx.Client(base_url=srv.url, timeout=30) as c:
        game = c.post("/games", json={"kind": "monster-derby", "players": ["ann", "bob"]}).json()
        gid, ann = game["game_id"], bearer(game["seats"]["ann"]["token"])
        seqs = [e["seq"] for e in c.get(f"/games/{gid}/events", headers=ann).json()["events"]]
        had = seqs[len(seqs) // 2]
        rest = [s for s in seqs if s > had]
        # an EventSource sends the id of the last event it had when it reconnects
        assert first_seqs(srv.url, f"/games/{gid}/stream", {**ann, "Last-Event-ID": str(had)}, len(rest)) == rest
        assert first_seqs(srv.url, f"/games/{gid}/stream?after={had}", ann, len(rest)) == rest
        # both given: the later one
        assert first_seqs(srv.url, f"/games/{gid}/stream?after=0", {**ann, "Last-Event-ID": str(had)}, 1) == rest[:1]
        bad = c.get(f"/games/{gid}/stream", headers={**ann, "Last-Event-ID": "yesterday"})
        assert bad.status_code == 400 and bad.headers["content-type"].startswith("application/problem+json")
        assert "Last-Event-ID" in bad.json()["detail"] or "last" in bad.json()["detail"].lower()


def test_the_server_stops_while_seats_are_watching_and_their_streams_end(tmp_path):
    """uvicorn waits for every open response before it stops, and a stream never ends on its
    own: one open table page kept ``arbiter serve`` from stopping on Ctrl-C or SIGTERM."""
    ended: list[str] = []
    srv = Running(str(tmp_path / "s.duckdb"))
    with srv, httpx.Client(base_url=srv.url, timeout=30) as c:
        game = c.post("/games", json={"kind": "monster-derby", "players": ["ann", "bob"]}).json()
        gid = game["game_id"]
        opened = threading.Barrier(3)

        def watch(seat: str) -> None:
            with httpx.stream("GET", f"{srv.url}/games/{gid}/stream",
                              headers=bearer(game["seats"][seat]["token"]), timeout=60) as r:
                opened.wait(timeout=30)
                for _line in r.iter_lines():
                    pass
            ended.append(seat)  # the server ended the stream: the page reconnects on its own

        watchers = [threading.Thread(target=watch, args=(s,)) for s in ("ann", "bob")]
        for w in watchers:
            w.start()
        opened.wait(timeout=30)
    assert not srv.thread.is_alive()  # Running raises "the server did not stop" otherwise
    for w in watchers:
        w.join(timeout=30)
    assert sorted(ended) == ["ann", "bob"]


def test_a_replaced_links_open_stream_ends(tmp_path):
    """The old token's stream was let in before the link was replaced: it must not go on
    showing the seat's log to whoever holds the old link."""
    with Running(str(tmp_path / "s.duckdb")) as srv, httpx.Client(base_url=srv.url, timeout=30) as c:
        game = c.post("/games", json={"kind": "monster-derby", "players": ["ann", "bob"]}).json()
        gid = game["game_id"]
        opened, ended = threading.Event(), threading.Event()

        def watch() -> None:
            with httpx.stream("GET", f"{srv.url}/games/{gid}/stream",
                              headers=bearer(game["seats"]["ann"]["token"]), timeout=60) as r:
                for line in r.iter_lines():
                    if line.startswith("data:"):
                        opened.set()
            ended.set()

        watcher = threading.Thread(target=watch)
        watcher.start()
        assert opened.wait(30)
        assert c.post(f"/games/{gid}/seats/ann/link", headers=bearer(game["referee"]["token"])).status_code == 201
        assert ended.wait(30), "the replaced link's stream went on"
        watcher.join(timeout=30)


def test_arbiter_serve_stops_on_ctrl_c_while_a_seat_watches(tmp_path):
    """The host presses Ctrl-C with a table page open: the server stops, exit 0, no
    traceback (it used to wait for the page's stream for ever)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from arbiter.service.load import free_port

    port = free_port()
    env = {**os.environ, "ARBITER_HOME": str(tmp_path / "home")}
    proc = subprocess.Popen([sys.executable, "-c", "from arbiter.cli.app import main; main()", "--db",
                             str(tmp_path / "s.duckdb"), "serve", "--port", str(port)],
                            stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # as at a terminal
    try:
        url = f"http://127.0.0.1:{port}"
        for _ in range(300):
            try:
                httpx.get(f"{url}/openapi.json")
                break
            except httpx.TransportError:
                time.sleep(0.1)
        game = httpx.post(f"{url}/games", json={"kind": "monster-derby", "players": ["ann", "bob"]}).json()
        seen = threading.Event()

        def watch() -> None:
            with contextlib.suppress(httpx.HTTPError), httpx.stream(
                    "GET", f"{url}/games/{game['game_id']}/stream",
                    headers=bearer(game["seats"]["ann"]["token"]), timeout=60) as r:
                for line in r.iter_lines():
                    seen.set()

        threading.Thread(target=watch, daemon=True).start()
        assert seen.wait(30)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0
        assert "Traceback" not in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def sse_messages(url: str, path: str, headers: dict[str, str], got: list[tuple[str, dict]]) -> None:
    """(event, data) of every message a stream sends, until the server closes it."""
    kind = "message"
    with httpx.stream("GET", url + path, headers=headers, timeout=60) as r:
        assert r.status_code == 200, r.read()
        for line in r.iter_lines():
            if line.startswith("event:"):
                kind = line[6:].strip()
            elif line.startswith("data:"):
                got.append((kind, json.loads(line[5:])))
                kind = "message"


def watched(url: str, path: str, headers: dict[str, str]) -> tuple[threading.Thread, list[tuple[str, dict]]]:
    got: list[tuple[str, dict]] = []
    watcher = threading.Thread(target=sse_messages, args=(url, path, headers, got), daemon=True)
    watcher.start()
    return watcher, got


def test_a_finished_games_stream_sends_the_last_events_and_the_result_then_closes(tmp_path):
    """A seat's stream open when the game ends: the last events come, then `event: over` with
    the result, and the server closes the stream (it used to send keep-alives for ever). A
    stream opened on a finished game says the result and closes at once."""
    with Running(str(tmp_path / "s.duckdb")) as srv, httpx.Client(base_url=srv.url, timeout=60) as c:
        game = c.post("/games", json={"kind": "funkoverse-jaws", "players": ["ann", "bob"],
                                      "bots": {"bob": "smart"}}).json()
        gid, ann = game["game_id"], bearer(game["seats"]["ann"]["token"])
        seq = c.get(f"/games/{gid}", headers=ann).json()["seq"]
        watcher, got = watched(srv.url, f"/games/{gid}/stream?after={seq}", ann)
        for _ in range(500):
            assert c.post(f"/games/{gid}/bot", headers=ann).status_code == 200
            state = c.get(f"/games/{gid}", headers=ann).json()
            if state["status"] == "over":
                break
        assert state["status"] == "over"
        watcher.join(timeout=30)
        assert not watcher.is_alive(), "the stream of a finished game stayed open"
        log = c.get(f"/games/{gid}/events?after={seq}", headers=ann).json()["events"]
        assert [k for k, _d in got] == ["event"] * len(log) + ["over"]
        assert [d["seq"] for k, d in got if k == "event"] == [e["seq"] for e in log]
        assert got[-1][1] == {"seq": state["seq"], "winners": state["winners"], "result": state["result"],
                              "final": True}
        assert state["final"] is True  # its seed is revealed: no undo can take the end back
        # opened on the finished game (a reconnect, a late page): the result, and closed
        late, said = watched(srv.url, f"/games/{gid}/stream?after={state['seq']}", ann)
        late.join(timeout=30)
        assert not late.is_alive() and said == [got[-1]]


def wait_for(got: list, check, timeout: float = 30.0) -> None:
    deadline = time.time() + timeout
    while not check(got):
        assert time.time() < deadline, got
        time.sleep(0.02)


def test_an_end_an_undo_may_take_back_keeps_the_stream_open_and_the_undo_comes_to_every_seat(tmp_path):
    """A served game recorded without a seed commitment reveals no seed at its end, so a seat
    may still take the end back: every seat's stream says `over` (not final) and stays open,
    and the undo comes down each of them as events (only the undoing seat's page used to
    follow the game again: the server had closed every stream at the end)."""
    from servehelp import uncommitted_game

    db = str(tmp_path / "s.duckdb")
    with Running(db) as srv, httpx.Client(base_url=srv.url, timeout=60) as c:
        game, (mover, last) = uncommitted_game(db, srv.url)
        gid = game["game_id"]
        tok = {s: bearer(a["token"]) for s, a in game["seats"].items()}
        seq = c.get(f"/games/{gid}", headers=tok["ann"]).json()["seq"]
        streams = {s: watched(srv.url, f"/games/{gid}/stream?after={seq}", h) for s, h in tok.items()}
        assert c.post(f"/games/{gid}/commands", headers=tok[mover], json={"text": last}).status_code == 200
        over = c.get(f"/games/{gid}", headers=tok["ann"]).json()
        assert over["status"] == "over" and over["final"] is False
        for _watcher, got in streams.values():
            wait_for(got, lambda g: any(k == "over" for k, _d in g))
        time.sleep(0.5)
        assert all(w.is_alive() for w, _g in streams.values()), "a stream closed on an end that can be undone"
        ended = [d for k, d in streams["ann"][1] if k == "over"]
        assert ended == [{"seq": over["seq"], "winners": over["winners"], "result": over["result"], "final": False}]
        # a stream opened on such an end (a reconnect, a late page) says it once and stays open
        late, said = watched(srv.url, f"/games/{gid}/stream?after={over['seq']}", tok["bob"])
        wait_for(said, lambda g: g)
        time.sleep(0.5)
        assert late.is_alive() and said == [("over", ended[0])]
        undone = c.post(f"/games/{gid}/undo", headers=tok[mover])
        assert undone.status_code == 200, undone.json()
        for _watcher, got in [*streams.values(), (late, said)]:
            wait_for(got, lambda g: g[-1][0] == "event" and g[-1][1]["type"] == "Undone")
        assert c.get(f"/games/{gid}", headers=tok["ann"]).json()["status"] == "playing"
    for watcher, _got in [*streams.values(), (late, said)]:
        watcher.join(timeout=30)  # the server stopping ends them
        assert not watcher.is_alive()


def test_a_terminal_waiting_on_a_game_that_ended_goes_on(tmp_path):
    """``play --server`` waits on the stream for the others; when the game ends meanwhile,
    the wait ends (it used to block on the keep-alives of a stream that never closed)."""
    from arbiter.cli.remote import Remote

    with Running(str(tmp_path / "s.duckdb")) as srv, httpx.Client(base_url=srv.url, timeout=60) as c:
        game = c.post("/games", json={"kind": "funkoverse-jaws", "players": ["ann", "bob"],
                                      "bots": {"ann": "smart", "bob": "smart"}}).json()
        gid, referee = game["game_id"], game["referee"]["token"]
        final = c.get(f"/games/{gid}", headers=bearer(referee)).json()
        assert final["status"] == "over"
        waiting = threading.Thread(target=Remote(srv.url, referee).wait, args=(gid, final["seq"]), daemon=True)
        waiting.start()
        waiting.join(timeout=30)
        assert not waiting.is_alive(), "the terminal waits for ever on a finished game"


def test_a_quiet_stream_says_how_often_it_keeps_alive_and_its_keep_alives_carry_no_data(tmp_path, monkeypatch):
    """The first line says how often a quiet stream speaks (a client that hears nothing for
    much longer opens it again); the keep-alives are comments alone: a client that takes any
    data line for news (the terminal's wait) must not wake on them."""
    from arbiter.service import api as served

    monkeypatch.setattr(served, "KEEP_STREAM", 1)
    with Running(str(tmp_path / "s.duckdb")) as srv, httpx.Client(base_url=srv.url, timeout=30) as c:
        game = c.post("/games", json={"kind": "monster-derby", "players": ["ann", "bob"]}).json()
        gid, ann = game["game_id"], bearer(game["seats"]["ann"]["token"])
        seq = c.get(f"/games/{gid}", headers=ann).json()["seq"]
        lines: list[str] = []
        with httpx.stream("GET", f"{srv.url}/games/{gid}/stream?after={seq}", headers=ann, timeout=30) as r:
            for line in r.iter_lines():
                lines.append(line)
                if line == ": keep-alive" and lines.count(line) == 2:
                    break
    assert lines[0] == ": keep-alive every 1 s"
    assert not [x for x in lines if x.startswith(("data", "event"))], lines
