"""The service joins the secrets property the conformance harness holds the engine to: for
each of the five games, every route a seat can call (its state with the board, the panels,
the menu and the turn line; the log; a command's answer; a refusal with its hint; the audit)
names nothing the referee's state hides from that seat, and never the secret seed.

The secrets come from the referee's state (``arbiter.testing``: the rulebooks' zones, what a
seat's view leaves out, what the game declares hidden), not from the service's own views, so
a route that says more than the view it was built from fails here.
"""

from __future__ import annotations

import json
import random
import re
from xml.etree import ElementTree

import msgspec
import pytest

pytest.importorskip("litestar", reason="the server extra (litestar) is not installed")
from litestar.testing import TestClient  # noqa: E402

from arbiter.core import registry  # noqa: E402
from arbiter.service.api import create_app  # noqa: E402
from arbiter.service.tables import Tables  # noqa: E402
from arbiter.testing import ZONES, secrets_of  # noqa: E402
from arbiter.testing import secrets as sec  # noqa: E402

KINDS = ["monster-derby", "scott-pilgrim", "my-little-scythe", "villainous", "funkoverse-jaws"]

#: Commands played per game, and every how many the whole set of routes is read.
STEPS, EVERY = 36, 4


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def forms(token: str) -> set[str]:
    """The ways an answer could print a hidden token: its id, without a kind prefix, in words."""
    bare = token.split(":", 1)[-1]
    return {token.lower(), bare.lower(), bare.replace("-", " ").lower()}


def without_box(doc):
    """An answer without the game's published content (the box's catalogue of every card,
    which every seat may read, in the log's first event)."""
    if isinstance(doc, dict):
        return {k: without_box(v) for k, v in doc.items() if k != "content"}
    if isinstance(doc, list):
        return [without_box(v) for v in doc]
    return doc


def named(text: str, secrets: set[str]) -> list[str]:
    """The secrets ``text`` names, each as a whole word."""
    low = text.lower()
    return sorted(s for s in secrets for f in forms(s)
                  if re.search(r"(?<![\w-])" + re.escape(f) + r"(?![\w-])", low))


def hidden(tables: Tables, gid: str, seat: str) -> set[str]:
    """What ``seat`` may not know now, read from the referee's state; the seed while the game
    is on."""
    m = tables.match(gid)
    out = secrets_of(m, seat, ZONES.get(m.game.id))
    if m.outcome() is None:
        out |= sec.seed_tokens(m.created)
    return out


def near_miss(text: str) -> str:
    """A command one letter off a legal one: refused with a "did you mean" hint."""
    words = text.split()
    i = max(range(len(words)), key=lambda k: len(words[k]))
    words[i] = words[i][:-1] + ("q" if words[i][-1] != "q" else "z")
    return " ".join(words)


def log_paged_back(c, gid: str, tok: str, seq: int, engine: list) -> list[dict]:
    """The seat's log read back page by page from its newest event (as the web table's "show
    earlier" does), held to the engine's redacted log for the seat: the same events, each once."""
    events: list[dict] = []
    before = seq + 1
    while True:
        page = c.get(f"/games/{gid}/events?before={before}&limit=25", headers=bearer(tok)).json()
        events = page["events"] + events
        if not page["more"]:
            break
        before = page["events"][0]["seq"]
    assert [(e["seq"], e["actor"], without_box(e["event"])) for e in events] == \
        [(q, a, without_box(json.loads(msgspec.json.encode(ev)))) for q, a, ev in engine]
    return events


@pytest.mark.parametrize("kind", KINDS)
def test_every_route_shows_a_seat_only_what_it_may_know(tmp_path, kind):
    game = registry.get(kind)
    tables = Tables(str(tmp_path / "secrets.duckdb"))
    rng = random.Random(kind)
    with TestClient(create_app(tables)) as c:
        made = c.post("/games", json={"kind": kind, "players": ["ann", "bob", "cyd"][:max(2, min(3, game.max_seats))],
                                      "options": dict(game.random_play_options)})
        assert made.status_code == 201, made.text
        created = made.json()
        gid = created["game_id"]
        tokens = {s: a["token"] for s, a in created["seats"].items()}
        referee = bearer(created["referee"]["token"])
        seen_log = {s: 0 for s in tokens}  # each seat's log is checked as it grows
        said: dict[str, dict[int, str]] = {s: {} for s in tokens}  # its events' words, when new
        checked = 0

        def must_not_name(what: str, seat: str, text: str, secrets: set[str]) -> None:
            found = named(text, secrets)
            at = text.lower().find(found[0].split(":", 1)[-1].lower()) if found else 0
            assert not found, f"{kind}: {what} shows {seat} {found}, hidden from it: ...{text[max(0, at - 700):at + 200]}"

        for step in range(STEPS):
            ref = c.get(f"/games/{gid}", headers=referee).json()
            if ref["status"] == "over":
                break
            before = {s: hidden(tables, gid, s) for s in tokens}
            if step % EVERY == 0:
                checked += 1
                for seat, tok in tokens.items():
                    st = c.get(f"/games/{gid}", headers=bearer(tok))
                    assert st.status_code == 200, st.text
                    doc = st.json()
                    ElementTree.fromstring(doc["board"])  # well-formed: every name in it escaped
                    doc.pop("view")  # the view itself is the engine's, held by the harness; here
                    # what the service draws and says from it: board, panels, menu, turn, prompt
                    must_not_name("the state", seat, json.dumps(doc), before[seat])
                    must_not_name("the audit", seat, c.get(f"/games/{gid}/verify", headers=bearer(tok)).text,
                                  before[seat])
                    # paged back later, an event reads as it did when it was new (which may
                    # name what the seat saw then and may not see now: a card played, then
                    # undone), or names nothing hidden now (what was hidden then may be public)
                    for e in log_paged_back(c, gid, tok, doc["seq"], tables.match(gid).log(seat)):
                        if e["text"] != said[seat].get(e["seq"]):
                            must_not_name("an earlier page of the log", seat, e["text"],
                                          before[seat] - sec.texts(e["event"]))
                    if doc["legal"]:
                        refused = c.post(f"/games/{gid}/commands", headers=bearer(tok),
                                         json={"text": near_miss(rng.choice(doc["legal"]))})
                        if refused.status_code != 200:  # a near miss may still be a legal command
                            must_not_name("a refusal", seat, refused.text, hidden(tables, gid, seat))
                    else:
                        other = next(s for s in ref["to_act"])
                        theirs = c.get(f"/games/{gid}?seat={other}", headers=referee).json()["legal"]
                        if theirs:
                            refused = c.post(f"/games/{gid}/commands", headers=bearer(tok),
                                             json={"text": rng.choice(theirs)})
                            assert refused.status_code in (409, 422), refused.text
                            must_not_name("a refusal out of turn", seat, refused.text, before[seat])
            seat = rng.choice(ref["to_act"])
            legal = c.get(f"/games/{gid}", headers=bearer(tokens[seat])).json()["legal"]
            assert legal, f"{seat} is to act with no legal command"
            if step % 3 == 2:  # the seat's bot plays its turn, inside the server
                answer = c.post(f"/games/{gid}/bot", headers=bearer(tokens[seat]))
            else:
                answer = c.post(f"/games/{gid}/commands", headers=bearer(tokens[seat]),
                                json={"text": rng.choice(legal), "command_id": f"{kind}-{step}"})
            assert answer.status_code == 200, answer.text
            answers = answer.json()["events"]
            after = {s: hidden(tables, gid, s) for s in tokens}
            # what was hidden before a move and still is after it: no word the service adds to
            # an event may name it, beyond what the event itself shows the seat (a quest it
            # drew and put back, a card it drew and undid: it saw them, by the rules)
            kept = {s: before[s] & after[s] for s in tokens}
            if step % 5 == 4:  # and takes it back
                undone = c.post(f"/games/{gid}/undo", headers=bearer(tokens[seat]))
                if undone.status_code == 200:
                    answers += undone.json()["events"]
                else:
                    must_not_name("an undo's refusal", seat, undone.text, after[seat])
                kept = {s: kept[s] & hidden(tables, gid, s) for s in tokens}
            for s, tok in tokens.items():
                page = c.get(f"/games/{gid}/events?after={seen_log[s]}", headers=bearer(tok)).json()
                # the events are the engine's redacted log for the seat, which the conformance
                # harness holds to the same secrets, and nothing more
                engine = tables.match(gid).log(s, after=seen_log[s])
                assert [(e["seq"], e["actor"], without_box(e["event"])) for e in page["events"]] == \
                    [(q, a, without_box(json.loads(msgspec.json.encode(ev)))) for q, a, ev in engine]
                for e in page["events"] + (answers if s == seat else []):
                    must_not_name("the log's words", s, e["text"], kept[s] - sec.texts(e["event"]))
                said[s].update((e["seq"], e["text"]) for e in page["events"])
                seen_log[s] = page["seq"]
        assert checked >= 3, f"{kind} ended after {step} commands: too few positions checked"
        m = tables.match(gid)
        assert any(hidden(tables, gid, s) for s in tokens) or m.outcome() is not None
