"""The service's API contract: every status code, seats acting only as themselves, and no
response that shows a seat another seat's secret."""

from __future__ import annotations

import json
import socket
import threading
import time

import pytest

litestar = pytest.importorskip("litestar", reason="the server extra (litestar) is not installed")
httpx = pytest.importorskip("httpx")

from litestar.testing import TestClient  # noqa: E402

from arbiter.service.api import create_app  # noqa: E402
from arbiter.service.load import Running  # noqa: E402
from arbiter.service.tables import Tables  # noqa: E402


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def client(tmp_path):
    app = create_app(Tables(str(tmp_path / "served.duckdb")))
    with TestClient(app) as c:
        yield c


@pytest.fixture
def derby(client):
    """A two-seat Monster Derby game, both agendas still to keep (a secret choice)."""
    r = client.post("/games", json={"kind": "monster-derby", "players": ["ann", "bob"]})
    assert r.status_code == 201, r.text
    return r.json()


def secrets_part(doc) -> str:
    """A response without the game's published content (the card list every seat may read)."""
    if isinstance(doc, dict):
        return json.dumps({k: secrets_part(v) for k, v in doc.items() if k != "content"})
    if isinstance(doc, list):
        return json.dumps([secrets_part(v) for v in doc])
    return json.dumps(doc)


def state(client, game, seat):
    r = client.get(f"/games/{game['game_id']}", headers=bearer(game["seats"][seat]["token"]))
    assert r.status_code == 200, r.text
    return r.json()


def test_create_returns_a_token_and_url_per_seat_and_the_referee(derby):
    assert set(derby["seats"]) == {"ann", "bob"}
    tokens = [s["token"] for s in derby["seats"].values()] + [derby["referee"]["token"]]
    assert len(set(tokens)) == 3 and all(len(t) >= 40 for t in tokens)
    assert derby["seats"]["ann"]["url"].endswith(f"/table/{derby['game_id']}#{derby['seats']['ann']['token']}")


def test_tokens_are_stored_hashed(tmp_path):
    with TestClient(create_app(Tables(str(tmp_path / "t.duckdb")))) as c:
        game = c.post("/games", json={"kind": "monster-derby", "players": ["ann", "bob"]}).json()
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    assert game["referee"]["token"]
    for s in [*game["seats"].values(), game["referee"]]:
        assert s["token"].encode() not in raw


def test_state_is_the_seats_view_with_its_legal_commands(client, derby):
    ann = state(client, derby, "ann")
    assert ann["seat"] == "ann" and ann["decision"] == "simultaneous"
    assert sorted(ann["to_act"]) == ["ann", "bob"]
    assert ann["legal"] and all(c.startswith("keep agenda-") for c in ann["legal"])
    bob = state(client, derby, "bob")
    # each seat is dealt its own agendas; neither sees the other's
    for card in bob["legal"]:
        assert card.split()[-1] not in secrets_part(ann)
    for card in ann["legal"]:
        assert card.split()[-1] not in secrets_part(bob)


def test_a_command_acts_as_the_bearers_seat_and_secrets_stay_secret(client, derby):
    gid = derby["game_id"]
    bob_pick = state(client, derby, "bob")["legal"][0]
    r = client.post(f"/games/{gid}/commands", headers=bearer(derby["seats"]["bob"]["token"]),
                    json={"text": bob_pick})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["receipt"].startswith(f"{gid}:") and body["events"]
    kept = bob_pick.split()[-1]
    # ann sees that bob kept an agenda, never which
    for path in (f"/games/{gid}", f"/games/{gid}/events"):
        shown = client.get(path, headers=bearer(derby["seats"]["ann"]["token"])).json()
        assert kept not in secrets_part(shown)
    assert kept in client.get(f"/games/{gid}/events", headers=bearer(derby["seats"]["bob"]["token"])).text


def test_retrying_with_the_same_command_id_is_idempotent(client, derby):
    gid = derby["game_id"]
    tok = derby["seats"]["ann"]["token"]
    pick = state(client, derby, "ann")["legal"][0]
    first = client.post(f"/games/{gid}/commands", headers=bearer(tok), json={"text": pick, "command_id": "c-1"})
    again = client.post(f"/games/{gid}/commands", headers=bearer(tok), json={"text": pick, "command_id": "c-1"})
    assert first.status_code == again.status_code == 200
    assert first.json()["receipt"] == again.json()["receipt"]
    seq = client.get(f"/games/{gid}/events", headers=bearer(tok)).json()["seq"]
    assert seq == first.json()["seq"]


def test_an_illegal_command_is_409_with_its_rule(client, derby):
    gid = derby["game_id"]
    r = client.post(f"/games/{gid}/commands", headers=bearer(derby["seats"]["ann"]["token"]),
                    json={"text": "keep agenda-99"})
    assert r.status_code in (409, 422)
    problem = r.json()
    assert r.headers["content-type"].startswith("application/problem+json")
    assert problem["status"] == r.status_code and problem["title"] and problem["detail"]
    if r.status_code == 409:
        assert problem["rule_id"].startswith("MD-")


def test_a_move_out_of_turn_is_409_citing_the_rule(client, derby):
    gid = derby["game_id"]
    pick = state(client, derby, "ann")["legal"][0]
    ann = bearer(derby["seats"]["ann"]["token"])
    assert client.post(f"/games/{gid}/commands", headers=ann, json={"text": pick}).status_code == 200
    r = client.post(f"/games/{gid}/commands", headers=ann, json={"text": pick})
    assert r.status_code == 409
    assert r.json()["rule_id"] == "ARB-TURN" and r.json()["section"]


def test_a_command_that_does_not_parse_is_422(client, derby):
    r = client.post(f"/games/{derby['game_id']}/commands", headers=bearer(derby["seats"]["ann"]["token"]),
                    json={"text": "xyzzy plugh"})
    assert r.status_code == 422
    assert r.json()["title"] == "not a command"


def test_bad_bodies_are_refused_without_writing(client, derby):
    gid = derby["game_id"]
    tok = bearer(derby["seats"]["ann"]["token"])
    before = client.get(f"/games/{gid}/events", headers=tok).json()["seq"]
    assert client.post(f"/games/{gid}/commands", headers=tok, json={"txt": "roll"}).status_code == 400
    assert client.post(f"/games/{gid}/commands", headers=tok, content=b"{not json").status_code == 400
    big = client.post(f"/games/{gid}/commands", headers=tok, json={"text": "x" * 200_000})
    assert big.status_code == 413
    assert client.post(f"/games/{gid}/commands", headers=tok, json={"text": "   "}).status_code == 422
    assert client.get(f"/games/{gid}/events", headers=tok).json()["seq"] == before


def test_tokens_401_and_403(client, derby):
    gid = derby["game_id"]
    assert client.get(f"/games/{gid}").status_code == 401
    assert client.get(f"/games/{gid}", headers=bearer("not-a-token")).status_code == 401
    assert client.get(f"/games/{gid}", headers={"Authorization": "Basic abc"}).status_code == 401
    other = client.post("/games", json={"kind": "monster-derby", "players": ["cy", "di"]}).json()
    r = client.get(f"/games/{gid}", headers=bearer(other["seats"]["cy"]["token"]))
    assert r.status_code == 403
    r = client.get(f"/games/{gid}?seat=bob", headers=bearer(derby["seats"]["ann"]["token"]))
    assert r.status_code == 403
    # the referee may look as any seat, but acts for nobody
    ref = bearer(derby["referee"]["token"])
    assert client.get(f"/games/{gid}?seat=bob", headers=ref).json()["seat"] == "bob"
    r = client.post(f"/games/{gid}/commands", headers=ref, json={"text": "keep agenda-01"})
    assert r.status_code == 403


def test_unknown_game_and_bad_creation(client, derby):
    assert client.get("/games/zz-000000", headers=bearer(derby["seats"]["ann"]["token"])).status_code == 403
    r = client.post("/games", json={"kind": "chess"})
    assert r.status_code == 422 and "chess" in r.json()["detail"]
    r = client.post("/games", json={"kind": "monster-derby", "options": {"boards": "many"}})
    assert r.status_code == 422
    r = client.post("/games", json={"kind": "monster-derby", "players": ["ann", "bob"], "bots": {"cy": "random"}})
    assert r.status_code == 422


def test_undo_only_ones_own_move_or_by_the_referee(client, derby):
    gid = derby["game_id"]
    ann, bob = (bearer(derby["seats"][s]["token"]) for s in ("ann", "bob"))
    pick = state(client, derby, "ann")["legal"][0]
    client.post(f"/games/{gid}/commands", headers=ann, json={"text": pick})
    assert client.post(f"/games/{gid}/undo", headers=bob).status_code == 403
    r = client.post(f"/games/{gid}/undo", headers=ann)
    assert r.status_code == 200, r.text
    assert pick in state(client, derby, "ann")["legal"]
    assert client.post(f"/games/{gid}/undo", headers=bearer(derby["referee"]["token"])).status_code == 409


def test_events_after_a_seq(client, derby):
    gid = derby["game_id"]
    tok = bearer(derby["seats"]["ann"]["token"])
    page = client.get(f"/games/{gid}/events", headers=tok).json()
    assert [e["seq"] for e in page["events"]] == list(range(1, page["seq"] + 1)) or page["events"]
    tail = client.get(f"/games/{gid}/events?after={page['seq'] - 2}", headers=tok).json()
    assert all(e["seq"] > page["seq"] - 2 for e in tail["events"])


def test_a_long_log_is_paged_back_with_before_and_limit(client):
    """A seat pages back through its log from the newest events: each page the newest
    ``limit`` below the last page's first seq, ``more`` while the log goes further back;
    together the pages are the seat's whole log, in order, each event once."""
    game = client.post("/games", json={"kind": "villainous", "players": ["ann", "bob"],
                                       "bots": {"bob": "random"}}).json()
    gid, ann = game["game_id"], bearer(game["seats"]["ann"]["token"])
    for _ in range(6):
        assert client.post(f"/games/{gid}/bot", headers=ann).status_code == 200
    whole = client.get(f"/games/{gid}/events", headers=ann).json()
    assert whole["more"] is False and len(whole["events"]) > 40
    seqs = [e["seq"] for e in whole["events"]]
    pages, before = [], whole["seq"] + 1
    while True:
        page = client.get(f"/games/{gid}/events?before={before}&limit=17", headers=ann).json()
        assert page["seq"] == whole["seq"]
        got = [e["seq"] for e in page["events"]]
        assert got == sorted(got) and len(got) <= 17 and all(s < before for s in got)
        pages.append(got)
        if not page["more"]:
            break
        assert len(got) == 17
        before = got[0]
    assert [s for p in reversed(pages) for s in p] == seqs
    # forward with a limit: the oldest after the cursor, more while there are others
    first = client.get(f"/games/{gid}/events?after=3&limit=5", headers=ann).json()
    assert [e["seq"] for e in first["events"]] == [s for s in seqs if s > 3][:5] and first["more"]
    last = client.get(f"/games/{gid}/events?after={seqs[-3]}&limit=5", headers=ann).json()
    assert [e["seq"] for e in last["events"]] == seqs[-2:] and not last["more"]
    # between two cursors
    mid = client.get(f"/games/{gid}/events?after=10&before=20", headers=ann).json()
    assert [e["seq"] for e in mid["events"]] == [s for s in seqs if 10 < s < 20] and not mid["more"]
    for bad in ("before=0", "limit=0", "limit=1001", "before=x"):
        r = client.get(f"/games/{gid}/events?{bad}", headers=ann)
        assert r.status_code == 400 and r.headers["content-type"].startswith("application/problem+json"), bad
        assert bad.split("=")[0] in r.json()["detail"], r.json()


def test_verify_for_the_referee_and_for_a_seat(client, derby):
    gid = derby["game_id"]
    r = client.get(f"/games/{gid}/verify", headers=bearer(derby["referee"]["token"]))
    assert r.status_code == 200 and r.json()["ok"] is True
    r = client.get(f"/games/{gid}/verify", headers=bearer(derby["seats"]["ann"]["token"]))
    assert r.status_code == 200 and r.json()["ok"] is True


def test_the_openapi_document_lists_every_route(client):
    doc = client.get("/openapi.json").json()
    assert doc["openapi"].startswith("3.")
    for path in ("/games", "/games/{game_id}", "/games/{game_id}/commands", "/games/{game_id}/events",
                 "/games/{game_id}/stream", "/games/{game_id}/undo", "/games/{game_id}/verify"):
        assert path in doc["paths"], path
    # the release a client reads is the one `arbiter --version` names first, not the engine's
    from importlib.metadata import version
    assert doc["info"]["version"] == version("arbiter-referee")


def test_an_admin_token_guards_creating_and_listing(tmp_path):
    app = create_app(Tables(str(tmp_path / "guarded.duckdb"), admin_token="s3cret-admin"))
    with TestClient(app) as c:
        assert c.post("/games", json={"kind": "monster-derby"}).status_code == 401
        assert c.post("/games", json={"kind": "monster-derby"}, headers=bearer("nope")).status_code == 401
        assert c.get("/games").status_code == 401
        r = c.post("/games", json={"kind": "monster-derby"}, headers=bearer("s3cret-admin"))
        assert r.status_code == 201
        listed = c.get("/games", headers=bearer("s3cret-admin")).json()
        assert [g["game_id"] for g in listed] == [r.json()["game_id"]]
        # the admin token is the referee of every game
        assert c.get(f"/games/{r.json()['game_id']}", headers=bearer("s3cret-admin")).json()["seat"] == "referee"


def test_bots_sitting_at_a_served_game_play_their_turns(client):
    r = client.post("/games", json={"kind": "monster-derby", "players": ["ann", "bot"],
                                    "bots": {"bot": "agenda"}})
    game = r.json()
    assert set(game["seats"]) == {"ann"}
    ann = bearer(game["seats"]["ann"]["token"])
    gid = game["game_id"]
    for _ in range(60):
        st = client.get(f"/games/{gid}", headers=ann).json()
        if st["status"] == "over" or not st["legal"]:
            break
        assert st["to_act"] == ["ann"] or "ann" in st["to_act"]
        client.post(f"/games/{gid}/commands", headers=ann, json={"text": st["legal"][-1]})
    events = client.get(f"/games/{gid}/events", headers=ann).json()["events"]
    assert any(e["actor"] == "bot" for e in events)


# -- a real server: the live stream ------------------------------------------------------


@pytest.fixture
def live_server(tmp_path):
    with Running(str(tmp_path / "live.duckdb")) as srv:
        yield srv.url


def test_the_stream_sends_new_events_live_and_redacted(live_server):
    with httpx.Client(base_url=live_server, timeout=10) as c:
        game = c.post("/games", json={"kind": "monster-derby", "players": ["ann", "bob"]}).json()
        gid = game["game_id"]
        ann, bob = (bearer(game["seats"][s]["token"]) for s in ("ann", "bob"))
        seq = c.get(f"/games/{gid}/events", headers=ann).json()["seq"]
        bob_pick = c.get(f"/games/{gid}", headers=bob).json()["legal"][0]
        got: list[dict] = []

        def listen() -> None:
            with httpx.stream("GET", f"{live_server}/games/{gid}/stream?after={seq}", headers=ann,
                              timeout=10) as r:
                assert r.status_code == 200
                for line in r.iter_lines():
                    if line.startswith("data:"):
                        got.append(json.loads(line[5:]))
                        return

        t = threading.Thread(target=listen)
        t.start()
        time.sleep(0.5)
        assert c.post(f"/games/{gid}/commands", headers=bob, json={"text": bob_pick}).status_code == 200
        t.join(timeout=10)
        assert got and got[0]["seq"] == seq + 1 and got[0]["actor"] == "bob"
        assert bob_pick.split()[-1] not in secrets_part(got)


def test_slow_and_dead_clients_never_block_the_others(live_server):
    """Clients that open streams and never read them, and one that sends half a request and
    goes silent, leave every other seat's commands answered promptly."""
    host, port = live_server.removeprefix("http://").split(":")
    with httpx.Client(base_url=live_server, timeout=10) as c:
        game = c.post("/games", json={"kind": "monster-derby", "players": ["ann", "bob"]}).json()
        gid = game["game_id"]
        ann, bob = (bearer(game["seats"][s]["token"]) for s in ("ann", "bob"))
        stalled = []
        for _ in range(20):  # streams opened and never read
            s = socket.create_connection((host, int(port)))
            token = game["seats"]["ann"]["token"]
            s.sendall(f"GET /games/{gid}/stream HTTP/1.1\r\nHost: {host}\r\n"
                      f"Authorization: Bearer {token}\r\n\r\n".encode())
            stalled.append(s)
        half = socket.create_connection((host, int(port)))  # a request that never finishes
        half.sendall(f"POST /games/{gid}/commands HTTP/1.1\r\nHost: {host}\r\n"
                     f"Content-Length: 500\r\n\r\n{{\"text\": ".encode())
        stalled.append(half)
        try:
            for who in (ann, bob):
                pick = c.get(f"/games/{gid}", headers=who).json()["legal"][0]
                t0 = time.perf_counter()
                r = c.post(f"/games/{gid}/commands", headers=who, json={"text": pick})
                assert r.status_code == 200, r.text
                assert time.perf_counter() - t0 < 5
            assert c.get(f"/games/{gid}/events", headers=ann).json()["seq"] > 0
        finally:
            for s in stalled:
                s.close()


def test_the_service_serves_a_postgresql_store(pg_url):
    """The same API over the server store: tokens stored hashed there, seats act as themselves."""
    with TestClient(create_app(Tables(pg_url))) as c:
        r = c.post("/games", json={"kind": "monster-derby", "players": ["ann", "bob"]})
        assert r.status_code == 201, r.text
        game = r.json()
        gid = game["game_id"]
        ann = bearer(game["seats"]["ann"]["token"])
        pick = c.get(f"/games/{gid}", headers=ann).json()["legal"][0]
        assert c.post(f"/games/{gid}/commands", headers=ann, json={"text": pick}).status_code == 200
        assert c.get(f"/games/{gid}", headers=bearer("not-a-token")).status_code == 401
        assert c.get(f"/games/{gid}?seat=bob", headers=ann).status_code == 403
        new = c.post(f"/games/{gid}/seats/ann/link", headers=bearer(game["referee"]["token"]))
        assert new.status_code == 201, new.text
        assert c.get(f"/games/{gid}", headers=ann).status_code == 401
        assert c.get(f"/games/{gid}", headers=bearer(new.json()["token"])).status_code == 200
    from arbiter.events.store import open_store

    with open_store(pg_url, read_only=True) as store:
        cols, rows = store.query("SELECT seat, token_hash FROM seat_access WHERE game_id = ?", [gid])
        assert sorted(r[0] for r in rows) == ["ann", "bob", "referee"]
        assert game["seats"]["ann"]["token"] not in {r[1] for r in rows}


def test_refused_commands_are_kept_in_refusals_like_the_command_lines(tmp_path):
    tables = Tables(str(tmp_path / "refused.duckdb"))
    with TestClient(create_app(tables)) as c:
        game = c.post("/games", json={"kind": "monster-derby", "players": ["ann", "bob"]}).json()
        gid, ann = game["game_id"], bearer(game["seats"]["ann"]["token"])
        assert c.post(f"/games/{gid}/commands", headers=ann, json={"text": "keep agenda-99"}).status_code in (409, 422)
        assert c.post(f"/games/{gid}/commands", headers=ann, json={"text": "dance a jig"}).status_code == 422
        cols, rows = tables.store().query(
            "SELECT seat, text, source, exit_code FROM refusals WHERE game_id = ? ORDER BY refused_at", [gid])
    assert [r[:3] for r in rows] == [("ann", "keep agenda-99", "service"), ("ann", "dance a jig", "service")]
    assert rows[1][3] == 2


def test_a_body_or_parameter_that_does_not_fit_is_400_naming_what_is_wrong(client, derby):
    gid = derby["game_id"]
    tok = bearer(derby["seats"]["ann"]["token"])
    said = {}
    for name, r in {"int text": client.post(f"/games/{gid}/commands", headers=tok, json={"text": 5}),
                    "a list": client.post(f"/games/{gid}/commands", headers=tok, json=["roll"]),
                    "unknown key": client.post(f"/games/{gid}/commands", headers=tok, json={"txt": "roll"}),
                    "after=abc": client.get(f"/games/{gid}/events?after=abc", headers=tok)}.items():
        assert r.status_code == 400 and r.headers["content-type"].startswith("application/problem+json"), name
        said[name] = r.json()["detail"]
    assert said["int text"] == "text: Expected `str`, got `int`"
    assert said["a list"].startswith("the body: Expected `object`")
    assert "txt" in said["unknown key"] and said["after=abc"].startswith("after: ")


def test_the_villainous_board_draws_every_villains_locations_and_the_mover(client):
    game = client.post("/games", json={"kind": "villainous", "players": ["ann", "bob"], "seed": 4}).json()
    board = state(client, game, "bob")["board"]
    # Cad Bane's and the Seventh Sister's locations with their action symbols, before any card is played
    for words in ("Cad Bane", "Coruscant", "Credits 2, Fate", "Play, Discard", "Seventh Sister", "Malachor"):
        assert words in board, words
    assert "(mover)" not in board
    r = client.post(f"/games/{game['game_id']}/commands", headers=bearer(game["seats"]["ann"]["token"]),
                    json={"text": "move coruscant"})
    assert r.status_code == 200, r.text
    assert "Coruscant (mover)" in state(client, game, "bob")["board"]
    # a Hero played by Fate reads as one, apart from the Villain's own Allies
    ref = bearer(game["referee"]["token"])
    for _ in range(200):
        st = client.get(f"/games/{game['game_id']}", headers=ref).json()
        if st["status"] == "over" or "Hero: " in st["board"]:
            break
        seat = st["to_act"][0]
        assert client.post(f"/games/{game['game_id']}/bot", headers=bearer(game["seats"][seat]["token"])).status_code == 200
    assert "Hero: " in st["board"]


def test_grid_boards_carry_the_coordinates_a_player_types(client):
    """The squares of `place scott b5`, `move c3`, `move 4c 5c` can be read off the drawing,
    the rows in the terminal's order (row 1 at the bottom)."""
    import re

    for kind, first_column, top_row in (("scott-pilgrim", "a", "8"), ("funkoverse-jaws", "a", "8"),
                                        ("monster-derby", "1", "a")):
        game = client.post("/games", json={"kind": kind, "players": ["ann", "bob"], "seed": 7}).json()
        axis = re.findall(r'class="axis">([^<]*)<', state(client, game, "ann")["board"])
        assert axis and axis[0] == first_column, (kind, axis)
        columns = axis.index(top_row)  # the column labels, then the row labels from the top down
        assert axis[columns:][-1] == ("e" if kind == "monster-derby" else "1"), (kind, axis)


def test_side_panels_say_in_words_what_the_seat_holds_and_nothing_of_the_others(client):
    sp = client.post("/games", json={"kind": "scott-pilgrim", "players": ["ann", "bob"], "seed": 7}).json()
    ann, bob = state(client, sp, "ann"), state(client, sp, "bob")
    mine = dict(map(tuple, ann["panels"]["yours"]))
    names = {it["id"]: it["name"] for it in ann["view"]["content"]["items"]}
    held = [names[t.split(":", 1)[1]] for t in ann["view"]["hand"]]
    assert held and mine["Good Guys' items"] == ", ".join(held)  # by name, not `item:tea`
    assert "Scott Pilgrim" in mine and "Matthew Patel (bob)" in dict(map(tuple, ann["panels"]["table"]))
    bobs = json.dumps(bob["panels"])
    assert dict(map(tuple, bob["panels"]["table"]))["Good Guys' items"] == f"{len(held)} hidden"
    assert not any(name in bobs for name in held)

    md = client.post("/games", json={"kind": "monster-derby", "players": ["ann", "bob"], "seed": 7}).json()
    ann, bob = state(client, md, "ann"), state(client, md, "bob")
    dealt = dict(map(tuple, ann["panels"]["yours"]))
    assert sorted(dealt) == sorted(f"dealt {a}" for a in ann["view"]["dealt"]["ann"])
    first = ann["view"]["dealt_points"]["ann"][0]
    colour, pts = next(iter(first.items()))
    assert dealt[f"dealt {ann['view']['dealt']['ann'][0]}"].startswith(
        f"{colour} {pts[0] if len(set(pts)) == 1 else '/'.join(map(str, pts))}")
    assert "(" not in json.dumps(ann["panels"]) and "[" not in "".join(dealt.values())
    assert not any(a in json.dumps(bob["panels"]) for a in ann["view"]["dealt"]["ann"])
    assert dict(map(tuple, bob["panels"]["table"]))["ann — agenda"] == "choosing in secret"

    vi = client.post("/games", json={"kind": "villainous", "players": ["ann", "bob"], "seed": 4}).json()
    hand = dict(map(tuple, state(client, vi, "ann")["panels"]["yours"]))["your hand"]
    import re

    cards = hand.split(", ")
    assert len(cards) == 4 and all(re.fullmatch(r"[A-Z][^-<]* \(\d+ (Credits?|Ambition)\)", c) for c in cards), hand
    assert dict(map(tuple, state(client, vi, "bob")["panels"]["table"]))["ann — hand"] == "4 cards"


def test_my_little_scythe_and_funkoverse_panels_keep_spells_personalities_and_dials_secret(client):
    ms = client.post("/games", json={"kind": "my-little-scythe", "players": ["ann", "bob"], "seed": 11}).json()
    ann = state(client, ms, "ann")
    me = ann["view"]["players"]["ann"]
    mine = dict(map(tuple, ann["panels"]["yours"]))
    assert me["spells"][0] in mine["spells"] and mine["personality"].endswith(", secret")
    assert me["personality"] not in mine["personality"]  # the card's name, not its id
    bob = state(client, ms, "bob")
    theirs = dict(map(tuple, bob["panels"]["table"]))
    assert theirs["ann — spells"] == "1 hidden" and theirs["ann — personality"] == "hidden"
    assert me["spells"][0] not in json.dumps(bob["panels"])
    assert mine["personality"].split(" (")[0] not in json.dumps(bob["panels"])
    # the seats' bots play on until one has set a pie fight dial: its own panel says how
    # many pies, the other's only that it is set (the bots choose at random: a game that
    # ends without a pie fight is played again with another seed)
    fight: dict = {}
    for seed in range(11, 21):
        if seed != 11:
            ms = client.post("/games", json={"kind": "my-little-scythe", "players": ["ann", "bob"], "seed": seed}).json()
        for _ in range(300):
            st = state(client, ms, "ann")
            fight = st["view"].get("fight") or {}
            if any(v >= 0 for v in (fight.get("pies") or {}).values()) or st["status"] == "over":
                break
            seat = st["to_act"][0]
            r = client.post(f"/games/{ms['game_id']}/bot", headers=bearer(ms["seats"][seat]["token"]), json={})
            assert r.status_code == 200, r.text
        if any(v >= 0 for v in (fight.get("pies") or {}).values()):
            break
    assert fight.get("pies"), "no pie fight in ten bot games"
    setter = next(s for s, v in fight["pies"].items() if v >= 0)
    other = "bob" if setter == "ann" else "ann"
    dial = next(t for t, w in map(tuple, state(client, ms, setter)["panels"]["yours"]) if t.startswith("pie fight dial"))
    said = dict(map(tuple, state(client, ms, setter)["panels"]["yours"]))[dial]
    assert said.startswith(f"{fight['pies'][setter]} pies")
    assert dict(map(tuple, state(client, ms, other)["panels"]["table"]))[f"{setter} — {dial}"] == "set, secret"

    fj = client.post("/games", json={"kind": "funkoverse-jaws", "players": ["ann", "bob"], "seed": 4}).json()
    yours = dict(map(tuple, state(client, fj, "ann")["panels"]["yours"]))
    assert yours["light side (ann)"].startswith("0 points; pool: ") and yours["Quint"].startswith("off the map")
    assert "The Shark" in dict(map(tuple, state(client, fj, "ann")["panels"]["table"]))


def test_the_referee_asking_for_a_seat_the_game_has_not_is_404(client, derby):
    ref = bearer(derby["referee"]["token"])
    r = client.get(f"/games/{derby['game_id']}?seat=zed", headers=ref)
    assert r.status_code == 404 and "zed" in r.json()["detail"] and "view" not in r.json()
    assert client.get(f"/games/{derby['game_id']}?seat=bob", headers=ref).status_code == 200


def test_a_bot_turn_needs_no_body(client, derby):
    gid = derby["game_id"]
    r = client.post(f"/games/{gid}/bot", headers=bearer(derby["seats"]["ann"]["token"]))
    assert r.status_code == 200, r.text
    assert r.json()["events"][0]["type"] == "AgendaKept"
    r = client.post(f"/games/{gid}/bot", headers=bearer(derby["seats"]["bob"]["token"]), json={"bott": "random"})
    assert r.status_code == 400 and "bott" in r.json()["detail"]


def test_an_unknown_route_or_method_is_a_problem_titled_by_its_status(client, derby):
    r = client.delete(f"/games/{derby['game_id']}", headers=bearer(derby["seats"]["ann"]["token"]))
    assert r.status_code == 405 and r.json()["title"] == "method not allowed"
    r = client.get("/static/nothing.js")
    assert r.status_code == 404 and r.json()["title"] == "not found"


def test_a_face_the_physical_die_does_not_show_is_named_in_the_refusal(client):
    game = client.post("/games", json={"kind": "monster-derby", "players": ["ann", "bob"], "dice": "manual",
                                       "seed": 3}).json()
    gid = game["game_id"]
    for seat in ("ann", "bob"):
        first = state(client, game, seat)["legal"][0]
        assert client.post(f"/games/{gid}/commands", headers=bearer(game["seats"][seat]["token"]),
                           json={"text": first}).status_code == 200
    seat = state(client, game, "ann")["to_act"][0]
    tok = bearer(game["seats"][seat]["token"])
    r = client.post(f"/games/{gid}/commands", headers=tok, json={"text": "roll", "faces": "9"})
    assert r.status_code == 422 and r.json()["faces_needed"] and "'9' is not a face" in r.json()["detail"]
    r = client.post(f"/games/{gid}/commands", headers=tok, json={"text": "roll"})
    assert r.status_code == 422 and "not a face" not in r.json()["detail"]
    assert client.post(f"/games/{gid}/commands", headers=tok, json={"text": "roll", "faces": "4"}).status_code == 200


def test_bots_cannot_sit_at_a_manual_dice_game_and_a_seats_bot_asks_it_for_the_faces(client):
    """A bot at a manual-dice table could never roll (no one holds its link): the game would
    stop at its first roll, for everyone. A seat's own bot turn there asks the seat to roll
    for the move it chose."""
    before = client.get("/games").json()
    r = client.post("/games", json={"kind": "monster-derby", "players": ["ann", "bob"], "dice": "manual",
                                    "bots": {"bob": "agenda"}})
    assert r.status_code == 422 and "physical dice" in r.json()["detail"] and "bob" in r.json()["detail"]
    assert client.get("/games").json() == before  # nothing stored
    game = client.post("/games", json={"kind": "monster-derby", "players": ["ann", "bob"], "dice": "manual",
                                       "seed": 3}).json()
    gid = game["game_id"]
    for seat in ("ann", "bob"):  # the agendas, kept in secret: no dice
        tok = bearer(game["seats"][seat]["token"])
        assert client.post(f"/games/{gid}/bot", headers=tok).status_code == 200
    seat = state(client, game, "ann")["to_act"][0]
    tok = bearer(game["seats"][seat]["token"])
    seq = state(client, game, seat)["seq"]
    r = client.post(f"/games/{gid}/bot", headers=tok)
    assert r.status_code == 422 and r.json()["faces_needed"] and r.json()["command"] == "roll", r.json()
    assert "the bot would play `roll`" in r.json()["detail"] and state(client, game, seat)["seq"] == seq
    done = client.post(f"/games/{gid}/commands", headers=tok, json={"text": r.json()["command"], "faces": "4"})
    assert done.status_code == 200 and done.json()["seq"] > seq


def test_the_log_names_the_options_as_a_transcript_writes_them(client):
    game = client.post("/games", json={"kind": "villainous", "players": ["ann", "bob"], "seed": 4}).json()
    events = client.get(f"/games/{game['game_id']}/events", headers=bearer(game["seats"]["ann"]["token"])).json()
    created = events["events"][0]["text"]
    assert "card defeat is vanquish on" in created and "True" not in created and "_" not in created
    assert "villains" not in created  # an option left unset is not listed
    texts = [e["text"] for e in events["events"]]
    assert "shuffled ann's villain deck (30 cards) [draw 0]" in texts and not any("villain:" in t for t in texts)


def test_every_error_is_a_problem_document_with_its_status(client, derby):
    """No route, no such method, a body too large, not JSON or empty, a parameter out of
    range: each the API's problem document (never Litestar's HTML page) with its status."""
    gid, tok = derby["game_id"], bearer(derby["seats"]["ann"]["token"])
    as_json = {**tok, "content-type": "application/json"}
    cases = {
        "unknown route": (client.get("/nothing"), 404),
        "unknown route in a game": (client.get(f"/games/{gid}/nothing", headers=tok), 404),
        "wrong method": (client.delete("/games"), 405),
        "wrong method on a game": (client.put(f"/games/{gid}/commands", headers=tok, json={"text": "roll"}), 405),
        "too large": (client.post(f"/games/{gid}/commands", headers=as_json,
                                  content=b'{"text": "' + b"x" * 70_000 + b'"}'), 413),
        "not JSON": (client.post(f"/games/{gid}/commands", headers=as_json, content=b'{"text": '), 400),
        "empty body": (client.post(f"/games/{gid}/commands", headers=as_json, content=b""), 400),
        "negative after": (client.get(f"/games/{gid}/events?after=-5", headers=tok), 400),
    }
    for name, (r, code) in cases.items():
        assert r.status_code == code, (name, r.status_code, r.text)
        assert r.headers["content-type"].startswith("application/problem+json"), (name, r.headers)
        doc = r.json()
        assert doc["status"] == code and doc["title"] and doc["detail"], (name, doc)
    assert set(cases["wrong method"][0].headers["allow"].replace(" ", "").split(",")) >= {"GET", "POST"}
    assert cases["empty body"][0].json()["detail"] == "the body is empty; this route takes a JSON object"
    assert cases["unknown route"][0].json()["detail"].startswith("no such route")
    # an empty ?seat= (a form left blank) asks for the bearer's own seat, not a seat named ""
    own = client.get(f"/games/{gid}?seat=", headers=tok)
    assert own.status_code == 200 and own.json()["seat"] == "ann"


def test_a_server_failure_is_a_500_problem_document_that_says_nothing_of_it(tmp_path):
    tables = Tables(str(tmp_path / "broken.duckdb"))

    def broken():
        raise RuntimeError("/srv/secret/path exploded")

    tables.listing = broken
    with TestClient(create_app(tables), raise_server_exceptions=False) as c:
        r = c.get("/games")
    assert r.status_code == 500 and r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["detail"] == "the server failed; nothing was written" and "secret" not in r.text


def test_a_command_id_used_in_another_game_is_refused_without_naming_that_game(client, derby):
    """A seat learns nothing of which other games exist from a command id it reuses."""
    other = client.post("/games", json={"kind": "monster-derby", "players": ["cy", "dee"]}).json()
    tok = other["seats"]["cy"]["token"]
    pick = state(client, other, "cy")["legal"][0]
    first = client.post(f"/games/{other['game_id']}/commands", headers=bearer(tok),
                        json={"text": pick, "command_id": "shared-1"})
    assert first.status_code == 200, first.text
    gid = derby["game_id"]
    before = client.get(f"/games/{gid}/events", headers=bearer(derby["referee"]["token"])).json()["seq"]
    pick = state(client, derby, "ann")["legal"][0]
    r = client.post(f"/games/{gid}/commands", headers=bearer(derby["seats"]["ann"]["token"]),
                    json={"text": pick, "command_id": "shared-1"})
    assert r.status_code == 409, r.text
    assert other["game_id"] not in r.text and "another command" in r.json()["detail"]
    assert client.get(f"/games/{gid}/events", headers=bearer(derby["referee"]["token"])).json()["seq"] == before


def test_new_game_refusals_store_nothing(client, derby):
    """An empty players list is refused (it used to mean the default seats), and so are bots
    for seats the game has not: before the game is stored, so nothing is left behind."""
    for body in ({"kind": "monster-derby", "players": []},
                 {"kind": "monster-derby", "bots": {"bob": "random"}}):
        r = client.post("/games", json=body)
        assert r.status_code == 422, (body, r.text)
        assert r.headers["content-type"].startswith("application/problem+json")
    assert "players is empty" in client.post("/games", json={"kind": "monster-derby", "players": []}).json()["detail"]
    assert [g["game_id"] for g in client.get("/games").json()] == [derby["game_id"]]


def test_the_app_serves_again_after_it_was_stopped_and_started(tmp_path):
    """A stop used to leave the reader threads shut for good: the same app started again (a
    test client, an embedding) answered every read with a 500."""
    app = create_app(Tables(str(tmp_path / "again.duckdb")))
    with TestClient(app) as c:
        game = c.post("/games", json={"kind": "monster-derby", "players": ["ann", "bob"]}).json()
    with TestClient(app) as c:
        r = c.get(f"/games/{game['game_id']}", headers=bearer(game["seats"]["ann"]["token"]))
        assert r.status_code == 200, r.text
        assert c.get(f"/games/{game['game_id']}/events", headers=bearer(game["seats"]["bob"]["token"])).status_code == 200


def test_the_referee_gives_a_seat_a_new_link_and_the_old_one_stops_working(client, derby):
    """A link shared by mistake (posted to the group chat, left on a shared screen) would
    act as that seat for good; the referee replaces it, and the old token is refused."""
    gid = derby["game_id"]
    ann_old, bob = derby["seats"]["ann"]["token"], derby["seats"]["bob"]["token"]
    referee = bearer(derby["referee"]["token"])
    assert client.get(f"/games/{gid}", headers=bearer(ann_old)).status_code == 200
    r = client.post(f"/games/{gid}/seats/ann/link", headers=referee)
    assert r.status_code == 201, r.text
    new = r.json()
    assert new["url"].endswith(f"/table/{gid}#{new['token']}") and new["token"] != ann_old
    refused = client.get(f"/games/{gid}", headers=bearer(ann_old))
    assert refused.status_code == 401 and refused.json()["title"] == "wrong token"
    assert client.post(f"/games/{gid}/commands", headers=bearer(ann_old), json={"text": "keep agenda-01"}).status_code == 401
    st = client.get(f"/games/{gid}", headers=bearer(new["token"]))
    assert st.status_code == 200 and st.json()["seat"] == "ann"
    # only the referee gives links; bob's own token still works
    assert client.post(f"/games/{gid}/seats/ann/link", headers=bearer(bob)).status_code == 403
    assert client.post(f"/games/{gid}/seats/zed/link", headers=referee).status_code == 404
    assert client.get(f"/games/{gid}", headers=bearer(bob)).status_code == 200


def test_a_bots_seat_gets_no_link(client):
    game = client.post("/games", json={"kind": "monster-derby", "players": ["ann", "bob"], "bots": {"bob": "agenda"}}).json()
    r = client.post(f"/games/{game['game_id']}/seats/bob/link", headers=bearer(game["referee"]["token"]))
    assert r.status_code == 409 and "bot" in r.json()["detail"]


def test_a_seat_playing_bots_takes_back_its_move_and_the_bots_answers(client):
    """The bots answer at once, so the move on top is always a bot's: a seat's undo takes
    back its own last move and the bots' moves after it, all in one; when one of them showed
    a seat a card nobody had seen (ARB-UNDO-HIDDEN) none is undone; without a move of its
    own under them it is refused and nothing is undone."""
    def ann_until_the_bot_answers(kind: str) -> tuple[str, dict, dict, dict]:
        game = client.post("/games", json={"kind": kind, "players": ["ann", "bob"],
                                           "bots": {"bob": "random"}}).json()
        gid, ann = game["game_id"], bearer(game["seats"]["ann"]["token"])
        referee = bearer(game["referee"]["token"])
        for _ in range(60):  # ann's commands until one is answered by bob's bot at once
            before = client.get(f"/games/{gid}?seat=ann", headers=referee).json()
            assert before["legal"], "ann has no move"
            r = client.post(f"/games/{gid}/commands", headers=ann, json={"text": before["legal"][-1]})
            assert r.status_code == 200, r.text
            log = client.get(f"/games/{gid}/events?after={r.json()['seq']}", headers=referee).json()["events"]
            if any(e["actor"] == "bob" for e in log):
                return gid, ann, referee, before
        raise AssertionError("bob's bot never answered")

    gid, ann, referee, before = ann_until_the_bot_answers("funkoverse-jaws")  # nothing hidden
    undone = client.post(f"/games/{gid}/undo", headers=ann)
    assert undone.status_code == 200, undone.text
    now = client.get(f"/games/{gid}?seat=ann", headers=referee).json()
    assert now["view"] == before["view"] and now["legal"] == before["legal"]
    assert client.get(f"/games/{gid}/verify", headers=referee).json()["ok"]
    # a Villainous turn that ends by drawing stands: bob's bot saw its new cards
    game = client.post("/games", json={"kind": "villainous", "players": ["ann", "bob"],
                                       "bots": {"bob": "random"}}).json()
    vid, vann = game["game_id"], bearer(game["seats"]["ann"]["token"])
    vref = bearer(game["referee"]["token"])
    for _ in range(80):
        legal = client.get(f"/games/{vid}?seat=ann", headers=vref).json()["legal"]
        r = client.post(f"/games/{vid}/commands", headers=vann, json={"text": legal[-1]})
        assert r.status_code == 200, r.text
        seq = client.get(f"/games/{vid}", headers=vref).json()["seq"]
        undone = client.post(f"/games/{vid}/undo", headers=vann)
        if undone.status_code == 409:
            assert undone.json()["rule_id"] == "ARB-UNDO-HIDDEN", undone.text
            assert client.get(f"/games/{vid}", headers=vref).json()["seq"] == seq  # none undone
            break
        assert undone.status_code == 200, undone.text
        r = client.post(f"/games/{vid}/commands", headers=vann, json={"text": legal[-1]})
        assert r.status_code == 200, r.text  # the same move again, and on
    else:
        raise AssertionError("no undo met a card drawn")
    # bob's bot moved first in no game of ann's making: nothing of ann's under it, refused whole
    first = client.post("/games", json={"kind": "monster-derby", "players": ["ann", "bob"],
                                        "bots": {"bob": "agenda"}}).json()
    fid, fann = first["game_id"], bearer(first["seats"]["ann"]["token"])
    seq = client.get(f"/games/{fid}", headers=fann).json()["seq"]
    refused = client.post(f"/games/{fid}/undo", headers=fann)
    assert refused.status_code in (403, 409), refused.text
    assert client.get(f"/games/{fid}", headers=fann).json()["seq"] == seq


def test_my_little_scythe_seekers_leave_the_spaces_names_in_sight_and_never_hide_each_other(client):
    """A player types a space's name (`move R3`): a Seeker on it must not cover it, nor
    another Seeker on the same space."""
    from xml.etree import ElementTree

    game = client.post("/games", json={"kind": "my-little-scythe", "players": ["ann", "bob", "cyd"], "seed": 3}).json()
    for _ in range(60):  # the Seekers start at home, off the map: play until most are out
        board = ElementTree.fromstring(state(client, game, "ann")["board"].replace('xmlns="http://www.w3.org/2000/svg"', ""))
        pieces = [(float(c.get("cx")), float(c.get("cy")), float(c.get("r"))) for c in board.iter("circle")]
        if len(pieces) >= 5:
            break
        seat = state(client, game, "ann")["to_act"][0]
        client.post(f"/games/{game['game_id']}/bot", headers=bearer(game["seats"][seat]["token"]))
    assert len(pieces) >= 5
    names = {sp["id"] for sp in state(client, game, "ann")["view"]["content"]["spaces"]}
    labels = [(float(t.get("x")), float(t.get("y")) - 4) for t in board.iter("text") if t.text in names]
    assert len(labels) == len(names)
    for x, y, r in pieces:
        for lx, ly in labels:  # the middle of the name's line of text, 10 px high and as wide
            assert abs(lx - x) > r + 8 or abs(ly - y) > r + 5, ("a Seeker covers a name", (x, y), (lx, ly))
    at = sorted((x, y) for x, y, _r in pieces)
    for (x1, y1), (x2, y2) in zip(at, at[1:]):
        assert (x1, y1) != (x2, y2) and (x2 - x1) ** 2 + (y2 - y1) ** 2 >= (2 * 8.5) ** 2 - 1e-6


class Cycle:
    """Garbage the young collection frees: an object that holds itself."""

    def __init__(self) -> None:
        self.me = self


def test_a_game_the_server_loads_leaves_the_young_garbage_of_its_other_threads_young(tmp_path):
    """A fold relaxes the collector, and on the main thread (the command line's) moves what
    it made to the oldest generation at the end (gc.freeze). A server loads games on a thread
    of its own while its others answer requests: the freeze would move their young garbage
    cycles too, to wait for a full collection. A cycle made on another thread before a
    server's load is still freed by a young collection after it, and the collector's settings
    are back."""
    import gc
    import weakref

    db = str(tmp_path / "served.duckdb")
    with Running(db) as srv:
        game = httpx.post(f"{srv.url}/games", json={"kind": "monster-derby", "players": ["ann", "bob"]}).json()
    with Running(db) as srv:  # a fresh server: the game is cold, its first read loads it
        gc.collect()
        usual = gc.get_threshold()
        refs: list = []
        gc.disable()  # no collection but the ones asked for
        try:
            made = threading.Thread(target=lambda: refs.append(weakref.ref(Cycle())))
            made.start()
            made.join()
            assert refs[0]() is not None
            r = httpx.get(f"{srv.url}/games/{game['game_id']}", headers=bearer(game["seats"]["ann"]["token"]))
            assert r.status_code == 200
            assert gc.get_freeze_count() == 0 and gc.get_threshold() == usual
            gc.collect(1)
            assert refs[0]() is None, "a young cycle of another thread was moved to the oldest generation"
        finally:
            gc.enable()


def test_folds_on_two_threads_at_once_put_the_collectors_thresholds_back():
    """Two threads' folds overlap (a server's writer loads a game while a reader reads one's
    older events): the thresholds are put back when the last ends, not left relaxed by the
    one that began second and saved the relaxed ones as the usual."""
    import gc

    from arbiter.projections.fold import FOLD_GC, few_collections

    usual = gc.get_threshold()
    assert usual != FOLD_GC
    entered, first_left = threading.Event(), threading.Event()

    def second() -> None:
        with few_collections():
            entered.set()
            assert first_left.wait(30)

    with few_collections():
        other = threading.Thread(target=second)
        other.start()
        assert entered.wait(30)
    assert gc.get_threshold() == FOLD_GC  # the other fold is still on
    first_left.set()
    other.join(30)
    assert gc.get_threshold() == usual
