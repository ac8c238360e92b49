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
            for control in ("command", "send", "bot"):  # a finished game takes no more commands
                assert page.is_hidden(f"[data-testid={control}]"), control
        assert typed and clicked
        assert api.get(f"/games/{game['game_id']}/verify",
                       headers={"Authorization": f"Bearer {game['referee']['token']}"}).json()["ok"]


def at_the_table(browser, url: str):
    """A seat's page at its link, once it offers a move."""
    page = browser.new_page()
    page.goto(url)
    page.wait_for_selector("#menu button")
    return page


def ann_at_the_table(api, browser):
    """A new two-seat Monster Derby game, and ann's page once it offers her a move."""
    game = api.post("/games", json={"kind": "monster-derby", "players": ["ann", "bob"]}).json()
    return game, at_the_table(browser, game["seats"]["ann"]["url"])


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


def test_a_page_whose_look_at_the_game_got_no_answer_looks_again(server, browser):
    """The network goes for a moment while the stream holds on: the stream tells of bob's
    move, the page's look at the game gets no answer. It looked only when the stream said
    something, so it showed the board from before the move, and "could not be reached",
    until the next move; it looks again, catches up and unsays it."""
    with httpx.Client(base_url=server, timeout=30) as api:
        game, page = ann_at_the_table(api, browser)
        bob = {"Authorization": f"Bearer {game['seats']['bob']['token']}"}
        page.context.set_offline(True)
        pick = api.get(f"/games/{game['game_id']}", headers=bob).json()["legal"][0]
        moved = api.post(f"/games/{game['game_id']}/commands", headers=bob, json={"text": pick}).json()["seq"]
        assert "could not be reached" in refusal(page)
        assert int(body(page, "seq")) < moved
        page.context.set_offline(False)
        wait_until(page, lambda: int(body(page, "seq")) == moved and page.is_hidden("[data-testid=refusal]"))


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


def play_on(api: httpx.Client, game: dict, pages: dict, tables, turns: int, *, click_every: int,
            check_every: int, line: str = "first") -> dict:
    """Up to ``turns`` turns on the seats' pages, each by the seat to act: the ``line`` of its
    menu every ``click_every``-th turn, else its bot button; every ``check_every``-th turn, no
    page shows what its seat may not know. Returns the game as the referee last saw it."""
    gid, ref = game["game_id"], {"Authorization": f"Bearer {game['referee']['token']}"}
    for step in range(turns):
        state = api.get(f"/games/{gid}", headers=ref).json()
        if state["status"] == "over":
            break
        page = pages[state["to_act"][0]]
        wait_until(page, lambda: int(body(page, "seq") or 0) >= state["seq"] and body(page, "my-turn") == "yes")
        if step % check_every == 0:
            for s, p in pages.items():
                shows_no_secret_of(p, tables, gid, s)
        if step % click_every == 0:
            getattr(page.locator("#menu button"), line).click()
        else:
            page.click("[data-testid=bot]")
        wait_until(page, lambda: int(body(page, "seq") or 0) > state["seq"])
        assert page.is_hidden("[data-testid=refusal]"), page.text_content("[data-testid=refusal]")
    return state


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
        play_on(api, game, pages, tables, 12, click_every=3, check_every=1)
        moved = api.get(f"/games/{gid}", headers=ref).json()["seq"]
        for s, p in pages.items():
            wait_until(p, lambda: int(body(p, "seq") or 0) >= moved)
            shows_no_secret_of(p, tables, gid, s)


def refusal(page) -> str:
    page.wait_for_selector("[data-testid=refusal]:not([hidden])")
    return page.text_content("[data-testid=refusal]") or ""


def test_a_link_without_its_key_or_with_a_wrong_one_says_so_in_a_players_words(server, browser):
    with httpx.Client(base_url=server, timeout=30) as api:
        game = api.post("/games", json={"kind": "monster-derby", "players": ["ann", "bob"]}).json()
        other = api.post("/games", json={"kind": "monster-derby", "players": ["ann", "bob"]}).json()
        url = game["seats"]["ann"]["url"]
        for link, says in ((url.split("#")[0], "needs your seat's own link"),
                           (url.split("#")[0] + "#not-a-key", "not a seat of this game"),
                           (url.split("#")[0] + "#" + other["seats"]["ann"]["token"], "not a seat of this game")):
            page = browser.new_page()
            page.goto(link)
            assert says in refusal(page), link
            assert body(page, "status") == "locked" and page.is_hidden("#command-form")
            assert "Bearer" not in refusal(page)  # the API's words are not a player's
            page.close()


def test_the_referees_page_watches_every_seat_and_undoes_any_move(server, browser):
    with httpx.Client(base_url=server, timeout=30) as api:
        game, ann = ann_at_the_table(api, browser)
        ann.locator("#menu button").first.click()
        wait_until(ann, lambda: body(ann, "my-turn") == "no")
        page = browser.new_page()
        page.goto(game["referee"]["url"])
        page.wait_for_selector("body[data-status=playing]")
        assert "referee" in page.text_content("[data-testid=who]")
        for control in ("command", "send", "bot"):
            assert page.is_hidden(f"[data-testid={control}]"), control
        seq = int(body(page, "seq"))
        page.click("[data-testid=undo]")
        wait_until(page, lambda: int(body(page, "seq") or 0) > seq)
        assert page.is_hidden("[data-testid=refusal]"), page.text_content("[data-testid=refusal]")
        wait_until(ann, lambda: body(ann, "my-turn") == "yes")  # ann's move is hers to make again


def test_two_tabs_of_one_seat_follow_each_other(server, browser):
    with httpx.Client(base_url=server, timeout=30) as api:
        game, first = ann_at_the_table(api, browser)
        second = at_the_table(browser, game["seats"]["ann"]["url"])
        move = first.locator("#menu button").first
        made = move.get_attribute("data-command")
        move.click()
        wait_until(second, lambda: body(second, "my-turn") == "no")
        assert body(second, "seq") == body(first, "seq")
        second.fill("#command", made)
        second.click("[data-testid=send]")  # the same move again from the other tab: refused there
        assert "ARB-" in refusal(second)


def test_text_typed_at_the_table_is_shown_as_text_never_as_markup(server, browser):
    with httpx.Client(base_url=server, timeout=30) as api:
        game, page = ann_at_the_table(api, browser)
        dialogs: list[str] = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        typed = '<img src=x onerror=alert(1)>keep "agenda-01" & <b>bold</b>'
        page.fill("#command", typed)
        page.click("[data-testid=send]")
        said = refusal(page)
        assert "'<img' is not a Monster Derby command" in said, said
        for sel in ("#refusal img", "#refusal b", "#log img", "#log b", "#menu img"):
            assert page.locator(sel).count() == 0, sel
        assert not dialogs


def test_a_long_games_page_loads_the_end_of_its_log_and_pages_back_on_request(server, browser):
    with httpx.Client(base_url=server, timeout=60) as api:
        for _ in range(5):  # bots' games differ by their ids: one that ends short is played again
            game = api.post("/games", json={"kind": "villainous", "players": ["ann", "bob"],
                                            "bots": {"bob": "random"}}).json()
            gid, ann = game["game_id"], {"Authorization": f"Bearer {game['seats']['ann']['token']}"}
            seq = 0
            while seq <= 400 and api.get(f"/games/{gid}", headers=ann).json()["status"] == "playing":
                seq = api.post(f"/games/{gid}/bot", headers=ann, json={}).json()["seq"]
            if api.get(f"/games/{gid}", headers=ann).json()["status"] == "playing":
                break
        assert api.get(f"/games/{gid}", headers=ann).json()["status"] == "playing", "every game ended short"
        asked: list[str] = []
        page = browser.new_page()
        page.on("request", lambda r: asked.append(r.url))
        page.goto(game["seats"]["ann"]["url"])
        page.wait_for_selector("[data-testid=earlier]:not([hidden])")
        wait_until(page, lambda: page.locator("#log li").count() > 150)
        assert page.locator("#log li").count() <= 201
        assert not [u for u in asked if "/events" in u and "limit=" not in u], asked  # never the whole log
        whole = [f"{e['seq']}. {e['text']}" for e in
                 api.get(f"/games/{gid}/events", headers=ann).json()["events"]]
        for _ in range(10):  # "show earlier" until the log goes back no further
            shown = page.locator("#log li").count()
            page.click("[data-testid=earlier]")
            wait_until(page, lambda: page.locator("#log li").count() > shown or page.is_hidden("[data-testid=earlier]"))
            if page.is_hidden("[data-testid=earlier]"):
                break
        assert page.is_hidden("[data-testid=earlier]")
        lines = page.locator("#log li").all_text_contents()
        assert list(reversed(lines))[:len(whole)] == whole  # every line of ann's own log, once, in order
        log_is_the_seats_own(page, api, game, "ann")
        assert page.is_hidden("[data-testid=refusal]")


def test_a_finished_games_page_shows_the_result_and_its_stream_ends(server, browser):
    """The game ends while a seat's page follows it: the page shows the result, and its
    stream, closed by the server, is not opened again; a page opened on a finished game
    opens none."""
    with httpx.Client(base_url=server, timeout=60) as api:
        game = api.post("/games", json={"kind": "funkoverse-jaws", "players": ["ann", "bob"],
                                        "bots": {"bob": "smart"}}).json()
        gid, ann = game["game_id"], {"Authorization": f"Bearer {game['seats']['ann']['token']}"}
        streams: list[str] = []
        ended: list[str] = []
        page = browser.new_page()
        page.on("request", lambda r: streams.append(r.url) if "/stream" in r.url else None)
        page.on("requestfinished", lambda r: ended.append(r.url) if "/stream" in r.url else None)
        page.goto(game["seats"]["ann"]["url"])
        page.wait_for_selector("#menu button")
        for _ in range(500):
            api.post(f"/games/{gid}/bot", headers=ann, json={})
            if api.get(f"/games/{gid}", headers=ann).json()["status"] == "over":
                break
        wait_until(page, lambda: body(page, "status") == "over")
        assert "game over — winner" in page.text_content("[data-testid=turn]")
        assert page.text_content("[data-testid=move-heading]") == "The game is over"  # not "Your move"
        wait_until(page, lambda: len(ended) == len(streams))  # the server closed it
        page.wait_for_timeout(2500)  # the page would be back within a second
        assert len(streams) == 1 and len(ended) == 1, (streams, ended)
        assert page.is_hidden("[data-testid=refusal]"), page.text_content("[data-testid=refusal]")
        late: list[str] = []
        again = browser.new_page()
        again.on("request", lambda r: late.append(r.url))
        again.goto(game["seats"]["ann"]["url"])
        wait_until(again, lambda: body(again, "status") == "over" and again.locator("#log li").count() > 0)
        again.wait_for_timeout(500)
        assert not [u for u in late if "/stream" in u], late


def test_every_seats_page_follows_a_finished_game_that_a_seat_undoes(tmp_path, browser):
    """A game whose end an undo may still take back (recorded without a seed commitment):
    the last move ends it while both seats' pages watch, and a page is opened on the finished
    game; the mover takes the move back from the API. Every page follows the game again, not
    only the undoing seat's (the others stayed on "game over": their streams had closed)."""
    from servehelp import uncommitted_game

    db = str(tmp_path / "undone.duckdb")
    with Running(db) as srv, httpx.Client(base_url=srv.url, timeout=30) as api:
        game, (mover, last) = uncommitted_game(db, srv.url)
        gid, auth = game["game_id"], {"Authorization": f"Bearer {game['seats'][mover]['token']}"}
        pages = open_pages(browser, game)
        assert api.post(f"/games/{gid}/commands", headers=auth, json={"text": last}).status_code == 200
        for page in pages.values():
            wait_until(page, lambda: body(page, "status") == "over")
            assert "game over — winner" in page.text_content("[data-testid=turn]")
        late = browser.new_page()
        late.goto(game["seats"]["ann"]["url"])
        wait_until(late, lambda: body(late, "status") == "over" and late.locator("#log li").count() > 0)
        undone = api.post(f"/games/{gid}/undo", headers=auth)
        assert undone.status_code == 200, undone.json()
        for page in [*pages.values(), late]:
            wait_until(page, lambda: body(page, "status") == "playing" and int(body(page, "seq")) == undone.json()["seq"])
            assert page.text_content("[data-testid=move-heading]") != "The game is over"
            assert f"undid {mover}'s move" in page.locator("#log li").first.text_content()


def seen(page, visible: bool) -> None:
    """The tab brought into sight or put out of it (another tab chosen, the window minimised),
    as the browser tells the page."""
    page.evaluate("""(visible) => {
        Object.defineProperty(document, "hidden", { configurable: true, get: () => !visible });
        Object.defineProperty(document, "visibilityState", { configurable: true,
                                                             get: () => visible ? "visible" : "hidden" });
        document.dispatchEvent(new Event("visibilitychange"));
    }""", visible)


def test_tabs_out_of_sight_let_their_streams_go_so_a_seventh_tab_of_one_browser_loads(server, browser):
    """A browser keeps at most six connections to a server and each open stream holds one: a
    host with six seat pages open in one browser could not load a seventh page, nor send a
    move from any of them. Tabs out of sight let their streams go; brought back, a tab
    follows the game again from the last event it had."""
    with httpx.Client(base_url=server, timeout=30) as api:
        context = browser.new_context()
        games = [api.post("/games", json={"kind": "monster-derby", "players": ["ann", "bob"]}).json()
                 for _ in range(3)]
        tabs = []
        for game in games:
            for seat in ("ann", "bob"):
                tab = context.new_page()
                tab.goto(game["seats"][seat]["url"])
                tab.wait_for_selector("#menu button")
                tabs.append(tab)
        for tab in tabs:
            seen(tab, False)
        seventh = context.new_page()
        seventh.goto(games[0]["referee"]["url"], timeout=15000)
        wait_until(seventh, lambda: body(seventh, "status") == "playing")
        ann = {"Authorization": f"Bearer {games[0]['seats']['ann']['token']}"}
        pick = api.get(f"/games/{games[0]['game_id']}", headers=ann).json()["legal"][0]
        moved = api.post(f"/games/{games[0]['game_id']}/commands", headers=ann, json={"text": pick}).json()["seq"]
        wait_until(seventh, lambda: int(body(seventh, "seq")) == moved)  # its stream follows the game
        back = tabs[1]  # bob's, at the game that moved
        seen(back, True)
        wait_until(back, lambda: int(body(back, "seq")) == moved
                   and back.locator("#log li").first.text_content().startswith(f"{moved}. "))
        assert back.is_hidden("[data-testid=refusal]"), back.text_content("[data-testid=refusal]")
        context.close()


def test_the_page_catches_up_after_the_server_restarts(tmp_path, browser):
    """The server stops and starts again (an update, a crash) while a seat's page is open;
    meanwhile the other seat moves. The page says it lost touch, then catches up on its own,
    no reload needed, and unsays it."""
    db = str(tmp_path / "restart.duckdb")
    with Running(db) as srv, httpx.Client(base_url=srv.url, timeout=30) as api:
        port = srv.port
        game, page = ann_at_the_table(api, browser)
    assert "lost touch" in refusal(page)
    with Running(db, port=port) as srv, httpx.Client(base_url=srv.url, timeout=30) as api:
        bob = {"Authorization": f"Bearer {game['seats']['bob']['token']}"}
        pick = api.get(f"/games/{game['game_id']}", headers=bob).json()["legal"][0]
        moved = api.post(f"/games/{game['game_id']}/commands", headers=bob, json={"text": pick}).json()["seq"]
        wait_until(page, lambda: int(body(page, "seq") or 0) >= moved)
        wait_until(page, lambda: page.is_hidden("[data-testid=refusal]"))


def test_a_page_whose_link_the_referee_replaced_stops_showing_the_seat(server, browser):
    with httpx.Client(base_url=server, timeout=30) as api:
        game, page = ann_at_the_table(api, browser)
        new = api.post(f"/games/{game['game_id']}/seats/ann/link",
                       headers={"Authorization": f"Bearer {game['referee']['token']}"}).json()
        assert "not a seat of this game" in refusal(page)  # its stream ended; the old key is refused
        assert body(page, "status") == "locked" and page.is_hidden("#command-form")
        fresh = at_the_table(browser, new["url"])
        assert "You are ann" in fresh.text_content("[data-testid=who]")


def test_a_waiting_seat_is_told_whom_for_its_tab_says_whose_move_and_a_number_picks_from_the_menu(server, browser):
    with httpx.Client(base_url=server, timeout=30) as api:
        game, ann = ann_at_the_table(api, browser)
        bob = at_the_table(browser, game["seats"]["bob"]["url"])
        assert ann.title().startswith("(your move) Monster Derby")
        ann.locator("#menu button").first.click()  # ann keeps her agenda; bob has yet to
        wait_until(ann, lambda: body(ann, "my-turn") == "no")
        assert ann.text_content("[data-testid=waiting]") == "Waiting for bob."
        assert ann.is_disabled("[data-testid=bot]")  # nothing for a bot to play meanwhile
        assert not ann.title().startswith("(your move)")
        seq = int(body(bob, "seq"))
        second = bob.locator("#menu button").nth(1).get_attribute("data-command")
        bob.fill("#command", "2")  # the second line of the menu, as at the terminal
        bob.click("[data-testid=send]")
        wait_until(bob, lambda: int(body(bob, "seq") or 0) > seq)
        assert bob.is_hidden("[data-testid=refusal]"), bob.text_content("[data-testid=refusal]")
        referee = {"Authorization": f"Bearer {game['referee']['token']}"}
        said = [e["text"] for e in api.get(f"/games/{game['game_id']}/events?after={seq}", headers=referee).json()["events"]]
        assert any(second.split()[-1] in t for t in said), (second, said)


def test_at_a_manual_dice_table_the_bot_button_asks_the_seat_to_roll_for_its_move(server, browser):
    with httpx.Client(base_url=server, timeout=30) as api:
        game = api.post("/games", json={"kind": "monster-derby", "players": ["ann", "bob"], "dice": "manual",
                                        "seed": 3}).json()
        gid = game["game_id"]
        for seat in ("ann", "bob"):
            api.post(f"/games/{gid}/bot", headers={"Authorization": f"Bearer {game['seats'][seat]['token']}"})
        referee = {"Authorization": f"Bearer {game['referee']['token']}"}
        seat = api.get(f"/games/{gid}", headers=referee).json()["to_act"][0]
        page = browser.new_page()
        asked: list[str] = []
        page.on("dialog", lambda d: (asked.append(d.message), d.accept("4")))
        page.goto(game["seats"][seat]["url"])
        page.wait_for_selector("#menu button")
        seq = int(body(page, "seq"))
        page.click("[data-testid=bot]")
        wait_until(page, lambda: int(body(page, "seq") or 0) > seq)
        assert asked and "the bot would play `roll`" in asked[0] and "Faces as rolled" in asked[0]
        assert page.is_hidden("[data-testid=refusal]"), page.text_content("[data-testid=refusal]")
        said = [e["text"] for e in api.get(f"/games/{gid}/events?after={seq}", headers=referee).json()["events"]]
        assert any("4" in t for t in said), said


def test_a_stream_that_goes_silent_is_opened_again(server, browser, monkeypatch):
    """A connection can die without a word (a laptop that slept, a network that changed):
    the page hears nothing, not even the keep-alives the stream said it would send, and opens
    the stream again, then follows the game as before (it used to wait for ever, its board
    stale)."""
    from arbiter.service import api as served

    monkeypatch.setattr(served, "KEEP_STREAM", 1)  # the stream says: keep-alive every 1 s
    with httpx.Client(base_url=server, timeout=30) as api:
        game = api.post("/games", json={"kind": "monster-derby", "players": ["ann", "bob"]}).json()
        streams: list[str] = []
        page = browser.new_page()
        page.on("request", lambda r: streams.append(r.url) if "/stream" in r.url else None)
        page.goto(game["seats"]["ann"]["url"])
        page.wait_for_selector("#menu button")
        wait_until(page, lambda: len(streams) == 1)
        page.wait_for_timeout(500)
        monkeypatch.setattr(served, "KEEP_STREAM", 3600)  # ...and then falls silent
        wait_until(page, lambda: len(streams) >= 2, timeout=20)
        bob = {"Authorization": f"Bearer {game['seats']['bob']['token']}"}
        pick = api.get(f"/games/{game['game_id']}", headers=bob).json()["legal"][0]
        moved = api.post(f"/games/{game['game_id']}/commands", headers=bob, json={"text": pick}).json()["seq"]
        wait_until(page, lambda: int(body(page, "seq") or 0) >= moved)
        wait_until(page, lambda: page.is_hidden("[data-testid=refusal]"))


@pytest.mark.parametrize("kind", ["monster-derby", "scott-pilgrim", "my-little-scythe", "funkoverse-jaws"])
def test_two_seats_play_each_other_game_to_the_end_in_the_browser(served, browser, kind):
    """The other four games, start to end, on two pages: each page keeps up with the game,
    never shows what its seat may not know, shows no refusal and no script error, and at the
    end shows the result, its stream closed by the server."""
    from arbiter.core import registry

    base, tables = served
    with httpx.Client(base_url=base, timeout=60) as api:
        game = api.post("/games", json={"kind": kind, "players": ["ann", "bob"],
                                        "options": dict(registry.get(kind).random_play_options)}).json()
        gid = game["game_id"]
        ref = {"Authorization": f"Bearer {game['referee']['token']}"}
        errors: list[str] = []
        streams: dict[str, list[str]] = {"ann": [], "bob": []}
        ended: dict[str, list[str]] = {"ann": [], "bob": []}
        pages = {}
        for seat in ("ann", "bob"):
            page = browser.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("request", lambda r, s=seat: streams[s].append(r.url) if "/stream" in r.url else None)
            page.on("requestfinished", lambda r, s=seat: ended[s].append(r.url) if "/stream" in r.url else None)
            page.goto(game["seats"][seat]["url"])
            page.wait_for_selector("body[data-status]", state="attached")
            pages[seat] = page
        play_on(api, game, pages, tables, 1500, click_every=4, check_every=10, line="last")
        assert api.get(f"/games/{gid}", headers=ref).json()["status"] == "over", f"{kind} not finished"
        for seat, page in pages.items():
            wait_until(page, lambda: body(page, "status") == "over" and len(ended[seat]) == len(streams[seat]))
            assert "game over — winner" in page.text_content("[data-testid=turn]")
            assert page.is_hidden("[data-testid=refusal]"), page.text_content("[data-testid=refusal]")
        assert not errors, errors


def test_on_a_phone_the_board_keeps_a_size_its_words_can_be_read_at_and_scrolls_sideways(server, browser):
    with httpx.Client(base_url=server, timeout=30) as api:
        game = api.post("/games", json={"kind": "villainous", "players": ["ann", "bob"]}).json()
        page = browser.new_page(viewport={"width": 390, "height": 800})
        page.goto(game["seats"]["ann"]["url"])
        page.wait_for_selector("svg.board")
        wide = float(re.search(r'viewBox="0 0 ([\d.]+)', page.inner_html("#board")).group(1))
        drawn = page.locator("svg.board").bounding_box()
        assert drawn["width"] >= 0.8 * wide - 1, (drawn, wide)  # it used to shrink to the screen's width
        area = page.locator("#board").bounding_box()
        assert area["width"] <= 390 and drawn["width"] > area["width"]  # the board scrolls, not the page
        assert page.locator("#menu").bounding_box()["width"] <= 390


def test_a_refusal_the_game_has_moved_past_says_it_was_about_before(server, browser):
    with httpx.Client(base_url=server, timeout=30) as api:
        game, ann = ann_at_the_table(api, browser)
        ann.locator("#menu button").first.click()
        wait_until(ann, lambda: body(ann, "my-turn") == "no")
        ann.fill("#command", "keep agenda-01")
        ann.click("[data-testid=send]")
        said = refusal(ann)
        assert not said.startswith("Before the last move")
        seq = int(body(ann, "seq"))
        bob = {"Authorization": f"Bearer {game['seats']['bob']['token']}"}
        assert api.post(f"/games/{game['game_id']}/bot", headers=bob).status_code == 200
        wait_until(ann, lambda: int(body(ann, "seq") or 0) > seq)
        wait_until(ann, lambda: (ann.text_content("[data-testid=refusal]") or "").startswith("Before the last move: "))
        assert ann.text_content("[data-testid=refusal]") == "Before the last move: " + said  # the words stay
        assert ann.get_attribute("[data-testid=refusal]", "data-stale") == "yes"
