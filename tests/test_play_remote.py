"""``arbiter play --server URL --token TOKEN``: the terminal as a client of a served game."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytest.importorskip("litestar", reason="the server extra (litestar) is not installed")
import httpx  # noqa: E402

from arbiter.service.load import Running  # noqa: E402


def arbiter(tmp_path, *args, stdin=""):
    env = {**os.environ, "ARBITER_HOME": str(tmp_path / "home"), "ARBITER_DB": str(tmp_path / "local.duckdb"),
           "NO_COLOR": "1", "COLUMNS": "100"}
    return subprocess.run([sys.executable, "-c", "from arbiter.cli.app import main; main()", *args],
                          input=stdin, capture_output=True, text=True, env=env, timeout=120)


def test_a_seat_plays_a_served_game_from_the_terminal(tmp_path):
    with Running(str(tmp_path / "served.duckdb")) as server:
        # bob is a bot sitting at the served game, so ann's decisions keep coming back
        game = httpx.post(f"{server.url}/games", json={"kind": "monster-derby", "players": ["ann", "bob"],
                                                       "bots": {"bob": "agenda"}}).json()
        gid = game["game_id"]
        ann = game["seats"]["ann"]["token"]
        referee = {"Authorization": f"Bearer {game['referee']['token']}"}
        kept = [e for e in httpx.get(f"{server.url}/games/{gid}/events", headers=referee).json()["events"]
                if e["type"] == "AgendaKept"]
        bob_agenda = kept[0]["event"]["agenda"]
        out = arbiter(tmp_path, "play", gid, "--server", server.url, "--token", ann,
                      stdin="keep agenda-99\n1\nq\n")
        assert out.returncode == 0, out.stderr
        assert "ann, your decision" in out.stdout and " 1. keep agenda-" in out.stdout
        assert "refused:" in out.stderr
        assert "receipt " + gid in out.stdout
        # bob's kept agenda is his secret: ann's terminal never names it
        assert bob_agenda not in out.stdout  # bob's agenda is his secret
        state = httpx.get(f"{server.url}/games/{gid}", headers=referee).json()
        assert state["decision"] != "simultaneous"  # both agendas are kept


def test_wrong_token_and_half_flags_are_clear_errors(tmp_path):
    with Running(str(tmp_path / "served.duckdb")) as server:
        out = arbiter(tmp_path, "play", "md-000000", "--server", server.url, "--token", "nope")
        assert out.returncode == 2 and "token" in out.stderr and "Traceback" not in out.stderr
    out = arbiter(tmp_path, "play", "md-000000", "--server", "http://127.0.0.1:9")
    assert out.returncode == 2 and "--token" in out.stderr


def test_a_command_whose_answer_is_lost_is_sent_again_and_taken_once(tmp_path):
    """The server takes a command and its answer is lost on the way back: the terminal
    client sends it again under the same command id and gets the first receipt; the game
    moved once."""
    from arbiter.cli.remote import Remote

    class LosesFirstAnswer(httpx.BaseTransport):
        def __init__(self) -> None:
            self.inner, self.lost = httpx.HTTPTransport(), 0

        def handle_request(self, request):
            response = self.inner.handle_request(request)
            if request.method == "POST" and request.url.path.endswith("/commands") and not self.lost:
                response.read()
                self.lost += 1
                raise httpx.ReadError("connection reset", request=request)
            return response

    with Running(str(tmp_path / "served.duckdb")) as server:
        game = httpx.post(f"{server.url}/games", json={"kind": "monster-derby", "players": ["ann", "bob"]}).json()
        gid = game["game_id"]
        referee = {"Authorization": f"Bearer {game['referee']['token']}"}
        start = httpx.get(f"{server.url}/games/{gid}/events", headers=referee).json()["seq"]
        remote = Remote(server.url, game["seats"]["ann"]["token"])
        transport = LosesFirstAnswer()
        remote.http = httpx.Client(base_url=server.url, transport=transport, timeout=30,
                                   headers={"Authorization": f"Bearer {game['seats']['ann']['token']}"})
        legal = remote.call("GET", f"/games/{gid}")[1]["legal"]
        code, doc = remote.command(gid, legal[0])
        assert transport.lost == 1
        assert code == 200, doc
        events = httpx.get(f"{server.url}/games/{gid}/events", headers=referee).json()
        assert events["seq"] == doc["seq"] > start
        assert [e["seq"] for e in events["events"] if e["seq"] > start] == [e["seq"] for e in doc["events"]]


def test_a_seat_waiting_at_the_terminal_rides_out_a_server_restart(tmp_path):
    """ann waits for bob at her terminal; the server stops (its streams end) and starts again
    on the same port; bob moves there. ann's terminal says it lost touch, then carries on
    with her next decision (it used to exit: the server never stopped while she watched)."""
    import threading

    db = str(tmp_path / "served.duckdb")
    with Running(db) as server:
        port, url = server.port, server.url
        game = httpx.post(f"{url}/games", json={"kind": "monster-derby", "players": ["ann", "bob"]}).json()
        gid = game["game_id"]
        env = {**os.environ, "ARBITER_HOME": str(tmp_path / "home"), "NO_COLOR": "1", "COLUMNS": "100"}
        proc = subprocess.Popen([sys.executable, "-c", "from arbiter.cli.app import main; main()", "play", gid,
                                 "--server", url, "--token", game["seats"]["ann"]["token"]],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, env=env)
        said: list[str] = []
        waiting, decided = threading.Event(), threading.Event()

        def read() -> None:
            for line in proc.stdout:
                said.append(line)
                if "to act — waiting" in line:
                    waiting.set()
                if sum("ann, your decision" in x for x in said) >= 2:
                    decided.set()

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        proc.stdin.write("1\n")  # ann keeps an agenda, then waits for bob
        proc.stdin.flush()
        assert waiting.wait(60), "".join(said)
    try:
        with Running(db, port=port):
            bob = {"Authorization": f"Bearer {game['seats']['bob']['token']}"}
            pick = httpx.get(f"{url}/games/{gid}", headers=bob).json()["legal"][0]
            assert httpx.post(f"{url}/games/{gid}/commands", headers=bob, json={"text": pick}).status_code == 200
            while "ann" not in httpx.get(f"{url}/games/{gid}", headers=bob).json()["to_act"]:
                assert httpx.post(f"{url}/games/{gid}/bot", headers=bob, timeout=30).status_code == 200  # bob's turn
            assert decided.wait(60), "".join(said)
            proc.stdin.write("q\n")
            proc.stdin.flush()
            assert proc.wait(timeout=60) == 0, "".join(said)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert "lost touch with the server" in "".join(said)


def test_a_terminal_follows_a_finished_game_that_a_seat_undoes(tmp_path):
    """A game whose end an undo may still take back (recorded without a seed commitment):
    ann waits at her terminal, bob's move ends the game, then bob takes it back. ann's
    terminal says the game is over and that a move may still be taken back, then follows the
    game on (it used to stop at the end)."""
    import signal
    import threading

    from servehelp import uncommitted_game

    db = str(tmp_path / "served.duckdb")
    with Running(db) as server:
        game, (mover, last) = uncommitted_game(db, server.url)
        assert mover == "bob"
        gid, bob = game["game_id"], {"Authorization": f"Bearer {game['seats']['bob']['token']}"}
        env = {**os.environ, "ARBITER_HOME": str(tmp_path / "home"), "NO_COLOR": "1", "COLUMNS": "100"}
        proc = subprocess.Popen([sys.executable, "-c", "from arbiter.cli.app import main; main()", "play", gid,
                                 "--server", server.url, "--token", game["seats"]["ann"]["token"]],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, env=env)
        said: list[str] = []
        waiting, following, again = threading.Event(), threading.Event(), threading.Event()

        def read() -> None:
            for line in proc.stdout:
                said.append(line)
                if "to act — waiting" in line:
                    (again if following.is_set() else waiting).set()
                if "may still be taken back" in line:
                    following.set()

        threading.Thread(target=read, daemon=True).start()
        try:
            assert waiting.wait(60), "".join(said)
            assert httpx.post(f"{server.url}/games/{gid}/commands", headers=bob, json={"text": last}).status_code == 200
            assert following.wait(60), "".join(said)
            assert "game over — winner" in "".join(said)
            assert httpx.post(f"{server.url}/games/{gid}/undo", headers=bob).status_code == 200
            assert again.wait(60), "".join(said)
            assert proc.poll() is None
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
