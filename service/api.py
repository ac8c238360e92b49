"""The HTTP/JSON API of ``arbiter serve`` (Litestar, served by uvicorn).

Every request names itself with a bearer token: a seat's token acts only as that seat and
sees only that seat's view; the referee's token (and the server's admin token) sees all.
Errors are RFC 9457 problem details; an illegal move carries its rule id and section.
"""

from __future__ import annotations

import asyncio
import logging
import pathlib
from http import HTTPStatus
from typing import Annotated, Any, AsyncIterator

import msgspec
from litestar import Litestar, Request, Response, get, post
from litestar.exceptions import HTTPException, ValidationException
from litestar.openapi import OpenAPIConfig, ResponseSpec
from litestar.params import FromPath, FromQuery, HeaderParameter, JSONBody, QueryParameter
from litestar.openapi.plugins import JsonRenderPlugin
from litestar.response import Stream
from litestar.static_files import create_static_files_router
from litestar.response.sse import ServerSentEventMessage

from arbiter.core.errors import ArbiterError
from arbiter.service import tokens
from arbiter.service.problems import problem
from arbiter.service.tables import Tables

#: Where a server error's traceback goes (the server's log; never the response). Litestar's
#: own request logger is off: the app has no logging config, so arbiter's logging stands.
log = logging.getLogger("arbiter.service")

# -- bodies ---------------------------------------------------------------------------------


class NewGame(msgspec.Struct, forbid_unknown_fields=True):
    """A game to create."""

    kind: str
    players: list[str] | None = None
    options: dict[str, str | int | bool] = {}
    bots: dict[str, str] = {}
    seed: int | None = None
    dice: str = "seeded"


class SeatAccess(msgspec.Struct):
    token: str
    url: str


class Created(msgspec.Struct):
    game_id: str
    kind: str
    seats: dict[str, SeatAccess]
    referee: SeatAccess


class Command(msgspec.Struct, forbid_unknown_fields=True):
    """A command as the player writes it (the same grammar as the command line)."""

    text: str
    command_id: str | None = None
    #: the faces of physical dice as rolled, for a game created with ``"dice": "manual"``
    faces: str | None = None


class BotTurn(msgspec.Struct, forbid_unknown_fields=True):
    """Let a bot decide for the bearer's seat until it is no longer that seat's decision."""

    bot: str | None = None  # the game's own bot that plays to win, unless named


class ShownEvent(msgspec.Struct):
    seq: int
    actor: str | None
    type: str
    text: str
    event: dict[str, Any]


class GameState(msgspec.Struct):
    game_id: str
    kind: str
    title: str
    seq: int
    seat: str
    seats: list[str]
    to_act: list[str]
    decision: str
    prompt: str
    turn: str
    status: str
    winners: list[str]
    result: str
    view: dict[str, Any]
    legal: list[str]
    board: str
    #: the game is over for good: its seed is revealed, so no undo can take its end back (a
    #: finished game recorded without a seed commitment, by an older release, may still be
    #: undone, and its stream stays open)
    final: bool = False
    #: the seat's side panels in words, {"yours": [[term, words], ...], "table": [...]};
    #: empty for a game the page lays out from ``view`` itself
    panels: dict[str, list[list[str]]] = {}


class Applied(msgspec.Struct):
    receipt: str
    seq: int
    events: list[ShownEvent]


class EventPage(msgspec.Struct):
    seq: int
    events: list[ShownEvent]
    #: whether the seat's log holds events this page left out for its ``limit``: before its
    #: first (a page asked for with ``before``), or after its last
    more: bool = False


class Ended(msgspec.Struct):
    """The stream's message (``event: over``) once the game is over: its result. When the end
    is ``final`` the stream then closes and a client need not come back for more; otherwise
    (an undo may still take the end back) the stream goes on, and an undo comes as events."""

    seq: int
    winners: list[str]
    result: str
    final: bool = True


class Verdict(msgspec.Struct):
    game_id: str
    ok: bool
    checked: str
    events: int
    commands: int
    draws: int
    problems: list[str]


class Listing(msgspec.Struct):
    game_id: str
    kind: str
    seats: list[str]
    status: str
    winner: str | None


class ProblemDoc(msgspec.Struct):
    """An RFC 9457 problem document; an illegal move adds its rule id and rulebook section."""

    type: str
    title: str
    status: int
    detail: str
    rule_id: str | None = None
    section: str | None = None
    faces_needed: bool | None = None
    #: the command a seat's bot chose that needs the faces of physical dice: sent again as a
    #: command with them (``faces``), it is played
    command: str | None = None


def problems(*codes: int) -> dict[int, ResponseSpec]:
    said = {400: "the body is not what this route takes", 401: "no token, or a token of no seat",
            403: "a token of another game or seat", 404: "no such game", 409: "an illegal move (with its rule)",
            413: "the body is too large", 422: "not a command, or bad input"}
    return {c: ResponseSpec(data_container=ProblemDoc, description=said[c], generate_examples=False,
                            media_type="application/problem+json") for c in codes}


SEAT = problems(400, 401, 403, 404)

#: The largest request body the server reads (a command is at most 2,000 characters).
MAX_BODY = 64 * 1024


# -- plumbing -------------------------------------------------------------------------------


def _tables(request: Request[Any, Any, Any]) -> Tables:
    return request.app.state.tables


def _token(request: Request[Any, Any, Any]) -> str | None:
    return tokens.bearer(request.headers.get("authorization"))


def what_was_wrong(exc: ValidationException) -> str:
    """A body or parameter that does not fit the route, said with the field it concerns
    (Litestar's own detail names only the route)."""
    said = []
    for e in exc.extra if isinstance(exc.extra, list) else []:
        if isinstance(e, dict) and e.get("message"):
            where = e.get("key") or e.get("source") or ""
            where = "the body" if where in ("data", "body") else where
            if where == "the body" and e["message"] == "'data'":  # Litestar's word for "no body at all"
                said.append("the body is empty; this route takes a JSON object")
                continue
            said.append(f"{where}: {e['message']}" if where else str(e["message"]))
    if not said:
        return str(exc.detail)
    return "; ".join(said)


def problem_response(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    """Every refusal as a problem document (RFC 9457); never a traceback, never a secret."""
    if isinstance(exc, ArbiterError):
        status, title, detail, extra = problem(exc)
        if status >= 500:
            log.exception("%s", title)
    elif isinstance(exc, ValidationException):
        status, title, detail, extra = 400, "bad request", what_was_wrong(exc), {}
    elif isinstance(exc, HTTPException):
        status, detail, extra = exc.status_code, str(exc.detail), {}
        title = HTTPStatus(status).phrase.lower() if status in HTTPStatus._value2member_map_ else "bad request"
        if detail in ROUTING_WORDS:
            detail = ROUTING_WORDS[detail](request)
        elif status == 400:  # the body could not be read as JSON at all
            detail = f"the body is not JSON: {detail}"
        headers = {k: v for k, v in (exc.headers or {}).items() if k.lower() == "allow"}
        return problem_doc(status, title, detail, headers=headers)
    else:
        log.exception("unexpected error")
        status, title, detail, extra = 500, "internal error", "the server failed; nothing was written", {}
    return problem_doc(status, title, detail, **extra)


def problem_doc(status: int, title: str, detail: str, headers: dict[str, str] | None = None,
                **extra: Any) -> Response[Any]:
    body = {"type": "about:blank", "title": title, "status": status, "detail": detail, **extra}
    return Response(content=body, status_code=status, media_type="application/problem+json", headers=headers)


#: Litestar's own words for a request that reached no handler, said the API's way.
ROUTING_WORDS = {
    "Not Found": lambda r: f"no route {r.url.path} here (the API is described at /openapi.json)",
    "Method Not Allowed": lambda r: f"{r.method} is not a method of {r.url.path}",
    "Request Entity Too Large": lambda r: f"the body is larger than this server takes ({MAX_BODY // 1024} KiB)",
}


async def problems_only(response: Any) -> Any:
    """Every error as a problem document: Litestar answers a one-segment path it does not
    know (beside the OpenAPI document at ``/``) with an HTML page of its own, before any
    exception handler sees it."""
    if not isinstance(response, Response) or (response.status_code or 200) < 400 \
            or response.media_type == "application/problem+json":
        return response
    status = response.status_code
    title = HTTPStatus(status).phrase.lower() if status in HTTPStatus._value2member_map_ else "error"
    detail = "no such route here (the API is described at /openapi.json)" if status == 404 else title
    return problem_doc(status, title, detail)


# -- handlers -------------------------------------------------------------------------------


@post("/games", status_code=201, summary="Create a game; tokens are shown once", responses=problems(400, 401, 413, 422))
async def create_game(request: Request[Any, Any, Any], data: JSONBody[NewGame]) -> Created:
    t = _tables(request)
    t.require_admin(_token(request))
    return await t.run(t.create, data)


@get("/games", summary="The games in the store (admin)", responses=problems(401))
async def list_games(request: Request[Any, Any, Any]) -> list[Listing]:
    t = _tables(request)
    t.require_admin(_token(request))
    return await t.run(t.listing)


@get("/games/{game_id:str}", summary="The game as the bearer's seat sees it", responses=SEAT)
async def game_state(request: Request[Any, Any, Any], game_id: FromPath[str], seat: FromQuery[str | None] = None) -> GameState:
    t = _tables(request)
    who = await t.who(game_id, _token(request), seat or None)
    return await t.get_state(who)


@post("/games/{game_id:str}/commands", status_code=200, summary="Act as the bearer's seat",
      responses=problems(400, 401, 403, 404, 409, 413, 422))
async def post_command(request: Request[Any, Any, Any], game_id: FromPath[str], data: JSONBody[Command]) -> Applied:
    t = _tables(request)
    who = await t.who(game_id, _token(request), None)
    return await t.act(who, data.text, data.command_id, data.faces)


@post("/games/{game_id:str}/bot", status_code=200, summary="Let a bot play the bearer's routine turn",
      responses=problems(400, 401, 403, 404, 409, 422))
async def post_bot_turn(request: Request[Any, Any, Any], game_id: FromPath[str],
                        data: JSONBody[BotTurn | None] = None) -> Applied:
    t = _tables(request)
    who = await t.who(game_id, _token(request), None)
    return await t.run(t.bot_turn, game_id, who, data.bot if data is not None else None)


@post("/games/{game_id:str}/undo", status_code=200, summary="Retract the last move",
      responses=problems(400, 401, 403, 404, 409))
async def post_undo(request: Request[Any, Any, Any], game_id: FromPath[str]) -> Applied:
    t = _tables(request)
    who = await t.who(game_id, _token(request), None)
    return await t.run(t.undo, game_id, who)


@post("/games/{game_id:str}/seats/{seat:str}/link", status_code=201,
      summary="A new link for a seat (the referee's); the seat's old token stops working",
      responses=problems(400, 401, 403, 404, 409))
async def post_new_link(request: Request[Any, Any, Any], game_id: FromPath[str], seat: FromPath[str]) -> SeatAccess:
    t = _tables(request)
    who = await t.who(game_id, _token(request), None)
    return await t.run(t.relink, game_id, who, seat)


#: The most events one page of the log holds when its ``limit`` is given.
PAGE_MAX = 1000


@get("/games/{game_id:str}/events", summary="The log as the bearer's seat may see it", responses=SEAT)
async def game_events(
        request: Request[Any, Any, Any], game_id: FromPath[str],
        after: Annotated[int, QueryParameter(ge=0, description="only the events after this seq")] = 0,
        before: Annotated[int | None, QueryParameter(
            ge=1, description="only the events below this seq; with limit, the newest of them"
                              " (page back through a long log: the first seq of one page is"
                              " the next page's before)")] = None,
        limit: Annotated[int | None, QueryParameter(
            ge=1, le=PAGE_MAX, description="at most this many events: the newest below before,"
                                           " else the oldest after after; `more` says whether"
                                           " the log holds others past them")] = None) -> EventPage:
    t = _tables(request)
    who = await t.who(game_id, _token(request), None)
    return await t.read(who.game_id, t.events, who.game_id, who, after, before, limit)


#: Seconds between keep-alive comments on an idle stream (proxies close silent connections).
KEEP_STREAM = 15


def sse_comment(text: str) -> bytes:
    """A comment line alone (Litestar's comment message adds an empty ``data:`` line, which a
    client reading data lines takes for an event)."""
    return f": {text}\r\n\r\n".encode()


@get("/games/{game_id:str}/stream", summary="The log as server-sent events, live", responses=SEAT,
     media_type="text/event-stream",
     description="Each event of the seat's log as it is written (`event: event`, its seq as the id, a"
                 " ShownEvent as data), with a keep-alive comment on a quiet line (the first comment"
                 " says how often: `keep-alive every 15 s`). Once the game is"
                 " over, its last events are followed by `event: over` (the result: seq, winners,"
                 " result, final); a final end closes the stream, while an end an undo may still"
                 " take back (a game recorded without a seed commitment) keeps it open, and the"
                 " undo and the play after it come as events.")
async def game_stream(request: Request[Any, Any, Any], game_id: FromPath[str],
                      after: Annotated[int, QueryParameter(ge=0)] = 0,
                      last_event_id: Annotated[int, HeaderParameter(
                          name="Last-Event-ID", ge=0,
                          description="the seq of the last event a reconnecting client had (the id of"
                                      " each event); the stream goes on after it")] = 0) -> Stream:
    t = _tables(request)
    who = await t.who(game_id, _token(request), None)
    gid = who.game_id
    start = max(after, last_event_id)

    token = _token(request) or ""

    async def feed() -> AsyncIterator[bytes]:
        seen = start
        # first, how often a quiet stream still says something: a client that hears nothing
        # for much longer knows its connection died unnoticed (a laptop that slept, a network
        # that changed) and opens it again
        sent = [sse_comment(f"keep-alive every {KEEP_STREAM} s")]
        told = None  # the end this stream has said
        while not t.ending and t.still_valid(token):  # a replaced link's stream ends
            waiter = t.waiter(gid)
            page, ended = await t.read(gid, t.stream_page, gid, who, seen)
            # a page goes out as one write: written event by event, a page could meet a
            # connection the client had just dropped and write on into it (asyncio then
            # says "socket.send() raised exception." for each write past the fifth)
            sent += [ServerSentEventMessage(data=msgspec.json.encode(ev).decode(), event="event",
                                            id=str(ev.seq)).encode() for ev in page.events]
            if ended is not None and ended != told:
                told = ended
                sent.append(ServerSentEventMessage(data=msgspec.json.encode(ended).decode(), event="over",
                                                   id=str(ended.seq)).encode())
                if ended.final:  # nothing more will come
                    yield b"".join(sent)
                    return
            if sent:
                yield b"".join(sent)
                sent = []
            seen = max(seen, page.seq)
            if t.ending:
                return
            try:
                await asyncio.wait_for(waiter.wait(), timeout=KEEP_STREAM)
            except asyncio.TimeoutError:
                yield sse_comment("keep-alive")

    return Stream(feed(), media_type="text/event-stream",
                  headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@get("/games/{game_id:str}/verify", summary="Audit the game (chain; dice and decisions for the referee)",
     responses=SEAT)
async def game_verify(request: Request[Any, Any, Any], game_id: FromPath[str]) -> Verdict:
    t = _tables(request)
    who = await t.who(game_id, _token(request), None)
    return await t.run(t.verify, game_id, who)


STATIC = pathlib.Path(__file__).parent / "static"


@get("/table/{game_id:str}", include_in_schema=False, media_type="text/html")
async def table_page(game_id: FromPath[str]) -> Response[bytes]:
    """A seat's web table; its token travels in the URL fragment, never to the server."""
    return Response(content=(STATIC / "table.html").read_bytes(), media_type="text/html",
                    headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer",
                             "Content-Security-Policy": "default-src 'self'; style-src 'self';"
                                                        " img-src 'self' data:; frame-ancestors 'none'"})


ROUTES = [create_game, list_games, game_state, post_command, post_bot_turn, post_undo, post_new_link, game_events,
          game_stream,
          game_verify, table_page,
          create_static_files_router(path="/static", directories=[STATIC], include_in_schema=False)]


def create_app(tables: Tables, *, extra_routes: list[Any] | None = None) -> Litestar:
    from arbiter.core.match import release

    app = Litestar(
        route_handlers=[*ROUTES, *(extra_routes or [])],
        exception_handlers={Exception: problem_response},
        openapi_config=OpenAPIConfig(title="arbiter", version=release(), path="/",
                                     render_plugins=[JsonRenderPlugin()]),
        request_max_body_size=MAX_BODY,
        after_request=problems_only,
        logging_config=None,  # arbiter's own logging stands; no request lines on the console
        on_startup=[tables.started],
        on_shutdown=[tables.stopped],
        debug=False,
    )
    app.state.tables = tables
    return app
