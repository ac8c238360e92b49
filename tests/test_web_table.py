"""The web table in a real browser (Playwright driving Debian's Chromium): two seats on two
pages play a whole game, and neither page ever shows the other seat's secrets."""

from __future__ import annotations

import os
import re
import shutil
import time

import pytest

pytest.importorskip("litestar", reason="the server extra (litestar) is not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
import httpx  # noqa: E402

from arbiter.service.load import Running  # noqa: E402

CHROMIUM = os.environ.get("ARBITER_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                reason="no Chromium at /usr/bin/chromium (apt-get install chromium)")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]


@pytest.fixture
def served(tmp_path):
    """A real uvicorn on a loopback port, in a thread: (its URL, its tables)."""
    with Running(str(tmp_path / "web.duckdb")) as srv:
        yield srv.url, srv.tables


@pytest.fixture
def server(served):
    return served[0]


@pytest.fixture
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def body(page, name: str) -> str:
    return page.get_attribute("body", f"data-{name}") or ""


def wait_until(page, check, timeout: float = 30.0) -> None:
    """Poll the page from outside (its content security policy forbids evaluated scripts)."""
    deadline = time.time() + timeout
    while not check():
        if time.time() > deadline:
            raise AssertionError(f"timed out; page at seq {body(page, 'seq')} my-turn {body(page, 'my-turn')} refusal {page.text_content('#refusal')!r}: "
                                 f"{page.text_content('[data-testid=turn]')}")
        page.wait_for_timeout(50)


def hand_of(api: httpx.Client, game: dict, seat: str, viewer: str | None = None) -> list[str]:
    """The cards in ``seat``'s hand that ``viewer`` may not know (a card taken from a public
    discard pile is known to all); with no viewer, the whole hand, as the referee sees it."""
    ref = {"Authorization": f"Bearer {game['referee']['token']}"}
    hand = api.get(f"/games/{game['game_id']}", headers=ref).json()["view"]["hand"][seat]
    if viewer is None:
        return list(hand)
    seen = api.get(f"/games/{game['game_id']}?seat={viewer}", headers=ref).json()["view"]["hand"][seat]
    assert len(seen) == len(hand)
    return [c for c in hand if c not in seen]


def shows_none_of(page, cards: list[str]) -> None:
    """Neither the board, the panels, the menu nor the turn line names a card the page's seat
    may not know. (The log is checked line by line against the seat's redacted log: it may
    name a card that was public once, e.g. discarded face up before a reshuffle.)"""
    shown = "".join(page.inner_html(sel) for sel in ("#board", "#mine", "#table", "#menu", "#turn", "#who"))
    for card in cards:
        for form in (card, card.replace("-", " ")):
            at = shown.find(form)
            assert at < 0, f"{card} shown to the wrong seat: ...{shown[max(0, at - 300):at + 80]}..."


def log_is_the_seats_own(page, api: httpx.Client, game: dict, seat: str) -> None:
    events = api.get(f"/games/{game['game_id']}/events",
                     headers={"Authorization": f"Bearer {game['seats'][seat]['token']}"}).json()["events"]
    allowed = {f"{e['seq']}. {e['text']}" for e in events}
    for line in page.locator("#log li").all_text_contents():
        assert line in allowed, f"{seat}'s page logs a line its own log does not have: {line}"


def open_pages(browser, game: dict) -> dict:
    """One browser page per seat, each at its own link, loaded."""
    pages = {}
    for seat in game["seats"]:
        page = browser.new_page()
        page.goto(game["seats"][seat]["url"])
        page.wait_for_selector("body[data-status]", state="attached")
        pages[seat] = page
    return pages


def test_two_browsers_play_villainous_to_the_end_each_seeing_only_their_own_hand(server, browser):
    with httpx.Client(base_url=server, timeout=30) as api:
        game = api.post("/games", json={"kind": "villainous", "players": ["ann", "bob"]}).json()
        pages = open_pages(browser, game)
        # the token left the address bar as soon as the page read it
        assert game["seats"]["ann"]["token"] not in pages["ann"].url
        # each seat sees its own hand by the cards' names, and no name of the other's
        names = {}
        for seat in ("ann", "bob"):
            said = api.get(f"/games/{game['game_id']}",
                           headers={"Authorization": f"Bearer {game['seats'][seat]['token']}"}).json()
            hand = dict(map(tuple, said["panels"]["yours"]))["your hand"]
            names[seat] = {card.rsplit(" (", 1)[0] for card in hand.split(", ")}
            assert len(hand.split(", ")) == len(hand_of(api, game, seat)) and "-" not in hand
        for seat, other in (("ann", "bob"), ("bob", "ann")):
            wait_until(pages[seat], lambda: bool(pages[seat].text_content("#mine")))
            assert all(n in pages[seat].text_content("#mine") for n in names[seat])
            shows_none_of(pages[seat], hand_of(api, game, other, seat) + sorted(names[other] - names[seat]))
        typed = clicked = 0
        for step in range(400):
            state = api.get(f"/games/{game['game_id']}",
                            headers={"Authorization": f"Bearer {game['referee']['token']}"}).json()
            if state["status"] == "over":
                break
            seat = next(s for s in state["to_act"])
            page = pages[seat]
            wait_until(page, lambda: int(body(page, "seq") or 0) >= state["seq"] and body(page, "my-turn") == "yes")
            if step % 7 == 1 and typed < 3:
                first = page.locator("#menu button").first.get_attribute("data-command")
                page.fill("#command", first)
                page.click("[data-testid=send]")
                typed += 1
            elif step % 5 == 0:
                page.locator("#menu button").first.click()
                clicked += 1
            else:
                page.click("[data-testid=bot]")
            wait_until(page, lambda: int(body(page, "seq") or 0) > state["seq"])
            other = "bob" if seat == "ann" else "ann"
            shows_none_of(pages[seat], hand_of(api, game, other, seat))
            shows_none_of(pages[other], hand_of(api, game, seat, other))
            over = api.get(f"/games/{game['game_id']}", headers={
                "Authorization": f"Bearer {game['referee']['token']}"}).json()["status"] == "over"
            if step % 20 == 19 and not over:  # once over, the log shows everything to all
                wait_until(pages[other], lambda: int(body(pages[other], "seq") or 0) > state["seq"])
                for s, p in pages.items():
                    log_is_the_seats_own(p, api, game, s)
        final = api.get(f"/games/{game['game_id']}",
                        headers={"Authorization": f"Bearer {game['referee']['token']}"}).json()
        assert final["status"] == "over", f"not finished after 400 turns (seq {final['seq']})"
        for page in pages.values():
            wait_until(page, lambda: body(page, "status") == "over")
            assert "game over — winner" in page.text_content("[data-testid=turn]")  # the words of the terminal
        assert typed and clicked
        assert api.get(f"/games/{game['game_id']}/verify",
                       headers={"Authorization": f"Bearer {game['referee']['token']}"}).json()["ok"]


def ann_at_the_table(api, browser):
    """A new two-seat Monster Derby game, and ann's page once it offers her a move."""
    game = api.post("/games", json={"kind": "monster-derby", "players": ["ann", "bob"]}).json()
    page = browser.new_page()
    page.goto(game["seats"]["ann"]["url"])
    page.wait_for_selector("#menu button")
    return game, page


def test_a_refusal_shows_its_rule_on_the_page(server, browser):
    with httpx.Client(base_url=server, timeout=30) as api:
        game, page = ann_at_the_table(api, browser)
        first = page.locator("#menu button").first
        first.click()
        wait_until(page, lambda: body(page, "my-turn") == "no")
        page.fill("#command", "keep agenda-01")
        page.click("[data-testid=send]")
        page.wait_for_selector("[data-testid=refusal]:not([hidden])")
        assert "ARB-TURN" in page.text_content("[data-testid=refusal]")
        assert page.locator("svg.board").count() == 1


def test_a_command_the_server_never_got_is_said_on_the_page(server, browser):
    """The network drops under a command: the page says so (it used to show nothing)."""
    with httpx.Client(base_url=server, timeout=30) as api:
        game, page = ann_at_the_table(api, browser)
        page.route("**/commands", lambda route: route.abort())
        page.locator("#menu button").first.click()
        page.wait_for_selector("[data-testid=refusal]:not([hidden])")
        assert "could not be reached" in page.text_content("[data-testid=refusal]")
        assert body(page, "my-turn") == "yes"  # nothing moved


def test_a_command_sent_again_after_its_answer_was_lost_is_taken_once(server, browser):
    """The server takes a command but its answer never reaches the page; the player sends the
    same command again. It goes under the same command id, so the server answers with the
    first one's receipt: the move is made once, and no refusal is shown."""
    with httpx.Client(base_url=server, timeout=30) as api:
        game, page = ann_at_the_table(api, browser)
        referee = {"Authorization": f"Bearer {game['referee']['token']}"}
        start = api.get(f"/games/{game['game_id']}/events", headers=referee).json()["seq"]
        text = page.locator("#menu button").first.get_attribute("data-command")

        def lose_the_answer(route):
            route.fetch()  # the server gets it and answers...
            route.abort()  # ...and the answer is lost on the way back

        page.route("**/commands", lose_the_answer)
        page.locator("#menu button").first.click()
        page.wait_for_selector("[data-testid=refusal]:not([hidden])")
        page.unroute("**/commands")
        once = api.get(f"/games/{game['game_id']}/events", headers=referee).json()["seq"]
        assert once > start
        page.fill("#command", text)
        page.click("[data-testid=send]")
        wait_until(page, lambda: body(page, "my-turn") == "no")
        page.wait_for_timeout(300)
        assert page.is_hidden("[data-testid=refusal]"), page.text_content("[data-testid=refusal]")
        assert api.get(f"/games/{game['game_id']}/events", headers=referee).json()["seq"] == once


def secret_forms(token: str) -> set[str]:
    """The ways a page could print a hidden token: its id, without a kind prefix, in words."""
    bare = token.split(":", 1)[-1]
    return {token, bare, bare.replace("-", " ")}


def page_text(page) -> str:
    return "".join(page.inner_html(sel) for sel in
                   ("#board", "#mine", "#table", "#menu", "#turn", "#who", "#log", "#refusal")).lower()


def shows_no_secret_of(page, tables, game_id: str, seat: str) -> None:
    """Nothing on the page names what the referee's state hides from ``seat`` right now."""
    m = tables.match(game_id)
    hidden = m.game.projection.hidden_from(m.state, seat)
    shown = page_text(page)
    for token in hidden:
        for form in secret_forms(token):
            pattern = re.compile(r"(?<![\w-])" + re.escape(form.lower()) + r"(?![\w-])")
            found = pattern.search(shown)
            assert found is None, (f"{seat}'s page shows {token!r} hidden from it: "
                                   f"...{shown[max(0, found.start() - 200):found.end() + 60]}...")


@pytest.mark.parametrize("kind", ["monster-derby", "my-little-scythe", "scott-pilgrim"])
def test_the_opening_turns_of_each_hidden_information_game_keep_each_seats_secrets(served, browser, kind):
    base, tables = served
    with httpx.Client(base_url=base, timeout=30) as api:
        game = api.post("/games", json={"kind": kind, "players": ["ann", "bob"]}).json()
        gid = game["game_id"]
        ref = {"Authorization": f"Bearer {game['referee']['token']}"}
        m = tables.match(gid)
        assert any(m.game.projection.hidden_from(m.state, s) for s in ("ann", "bob")), \
            f"{kind} starts with nothing hidden: this test would prove nothing"
        pages = open_pages(browser, game)
        for step in range(12):
            state = api.get(f"/games/{gid}", headers=ref).json()
            if state["status"] == "over":
                break
            seat = state["to_act"][0]
            page = pages[seat]
            wait_until(page, lambda: int(body(page, "seq") or 0) >= state["seq"] and body(page, "my-turn") == "yes")
            for s, p in pages.items():
                shows_no_secret_of(p, tables, gid, s)
            if step % 3 == 0:
                page.locator("#menu button").first.click()
            else:
                page.click("[data-testid=bot]")
            wait_until(page, lambda: int(body(page, "seq") or 0) > state["seq"])
        moved = api.get(f"/games/{gid}", headers=ref).json()["seq"]
        for s, p in pages.items():
            wait_until(p, lambda: int(body(p, "seq") or 0) >= moved)
            shows_no_secret_of(p, tables, gid, s)
