"""``arbiter play --server URL --token TOKEN GAME_ID``: the terminal as a client of a served
game. The same board, menu and refusals as local play; everything comes from the server as
this seat may see it, and waiting for the others follows the live stream."""

from __future__ import annotations

import typing
from typing import Any

import msgspec

from arbiter.cli.common import console, err, escape, fail
from arbiter.cli.render import renderer
from arbiter.core import registry


def state_type(projection: Any) -> Any:
    """The state class of a projection (``Base[MDState]`` -> ``MDState``), or None."""
    for base in getattr(type(projection), "__orig_bases__", ()):
        args = typing.get_args(base)
        if args and isinstance(args[0], type):
            return args[0]
    return None


def draw(kind: str, view: dict[str, Any], seat: str) -> str:
    """The terminal board from the view JSON the server sent (decoded into the game's own
    state type); the plain JSON when this build does not know the game."""
    try:
        game = registry.get(kind)
        cls = state_type(game.projection)
        state = msgspec.convert(view, type=cls) if cls else view
        return renderer(kind)(state, seat)
    except Exception:  # noqa: BLE001 - a view from another version still shows, as JSON
        return msgspec.json.format(msgspec.json.encode(view), indent=2).decode()


#: How often the terminal asks for the game again once it was connected and lost touch (a
#: server restarting, a network drop), waiting a little longer each time: about 20 s in all.
RECONNECT_TRIES = 9


class Remote:
    def __init__(self, url: str, token: str) -> None:
        import httpx

        self.http = httpx.Client(base_url=url.rstrip("/"), timeout=30,
                                 headers={"Authorization": f"Bearer {token}"})

    def call(self, method: str, path: str, body: Any = None, *, tries: int = 1) -> tuple[int, Any]:
        """(status, JSON) of one request; ``tries``: how often to send it when no answer
        comes (only for a request the server takes once however often it comes)."""
        import time

        import httpx

        for attempt in range(1, tries + 1):
            try:
                r = self.http.request(method, path, json=body)
                break
            except httpx.HTTPError as exc:
                if attempt == tries:
                    fail(f"cannot reach the server: {exc}", 3)
                if attempt == 1:
                    err.print("lost touch with the server; trying again…")
                time.sleep(0.5 * attempt)
        try:
            return r.status_code, r.json()
        except ValueError:
            return r.status_code, {"detail": r.text[:200]}

    def command(self, gid: str, text: str) -> tuple[int, Any]:
        """Send one command under a command id of its own: when its answer is lost on the
        way, it is sent again under the same id, and the server answers with the receipt it
        gave the first time instead of taking the command twice."""
        import secrets

        body = {"text": text, "command_id": f"term-{secrets.token_hex(16)}"}
        return self.call("POST", f"/games/{gid}/commands", body, tries=3)

    def wait(self, gid: str, after: int) -> None:
        """Block until the game moves past ``after`` (or a quiet minute passes, or the stream
        closes: the game is over for good). The end the stream says first, when the game was
        already over at ``after``, is no news."""
        import json

        import httpx

        kind = ""
        try:
            with self.http.stream("GET", f"/games/{gid}/stream?after={after}", timeout=60) as r:
                for line in r.iter_lines():
                    if line.startswith("event:"):
                        kind = line[6:].strip()
                    elif line.startswith("data:"):
                        if kind != "over" or json.loads(line[5:]).get("seq", after + 1) > after:
                            return
        except httpx.HTTPError:
            return


def refusal(doc: dict[str, Any]) -> str:
    text = doc.get("detail") or doc.get("title") or "refused"
    if doc.get("rule_id"):
        text += f" ({doc['rule_id']}" + (f', "{doc["section"]}"' if doc.get("section") else "") + ")"
    return text


def play_remote(url: str, token: str, game_id: str, max_menu: int = 30) -> None:
    remote = Remote(url, token)
    seen = 0
    while True:
        # once connected, a server that restarts or a network that drops is waited for
        code, st = remote.call("GET", f"/games/{game_id}", tries=RECONNECT_TRIES if seen else 1)
        if code != 200:
            fail(refusal(st), 2 if code in (401, 403, 404) else 3)
        gid, seat = st["game_id"], st["seat"]
        _c, page = remote.call("GET", f"/games/{gid}/events?after={seen}")
        for ev in page.get("events", []):
            if seen:
                console.print(f"  [dim]•[/] {escape(ev['text'])}")
        seen = max(seen, page.get("seq", seen))
        console.print(draw(st["kind"], st["view"], seat))
        if st["status"] == "over":
            console.print(f"[bold green]game over — winner: {escape(', '.join(st['winners']) or 'nobody')}"
                          + (f" ({escape(st['result'])})" if st["result"] else "") + "[/]")
            if st.get("final", True):
                return
            # recorded without a seed commitment: a seat may still take the end back
            console.print("a move may still be taken back — following the game (Ctrl-C to leave)")
            remote.wait(gid, st["seq"])
            continue
        if not st["legal"]:
            console.print(f"{escape(', '.join(st['to_act']))} to act — waiting (Ctrl-C to leave; the game goes on)")
            remote.wait(gid, st["seq"])
            continue
        console.print(f"[bold]{escape(seat)}[/], your decision" + (f": {escape(st['prompt'])}" if st["prompt"] else ""))
        for i, text in enumerate(st["legal"][:max_menu], start=1):
            console.print(f"  {i:>2}. {escape(text)}")
        try:
            line = input(f"{seat}> ").strip()
        except EOFError:
            return
        if line in ("q", "quit", "exit"):
            return
        if not line:
            continue
        if line == "undo":
            code, doc = remote.call("POST", f"/games/{gid}/undo")
        else:
            if line.isdigit() and 1 <= int(line) <= min(len(st["legal"]), max_menu):
                line = st["legal"][int(line) - 1]
            code, doc = remote.command(gid, line)
        if code != 200:
            err.print(f"[bold red]refused:[/] {escape(refusal(doc))}")
        else:
            console.print(f"[dim]receipt {doc['receipt']}[/]")
