"""State of a Funkoverse Strategy Game: Jaws 100 match, and how each event changes it."""

from __future__ import annotations

from typing import Any

import msgspec

from arbiter.events.base import KERNEL_EVENTS, Event, GameCreated
from arbiter.events import funkoverse_jaws as E
from arbiter.projections.kernel import Base, Decision, Outcome, by_type, describe_event, handlers

r = msgspec.structs.replace


class Board(msgspec.Struct, frozen=True):
    """One map side: grid, obstructions and the scenario squares (house layouts)."""

    id: str
    name: str
    columns: int
    rows: int
    filled: tuple[str, ...]
    walls: tuple[tuple[str, str], ...]
    posts: tuple[tuple[int, int], ...]
    start: dict[str, tuple[str, ...]]
    point_squares: dict[str, str]
    control_areas: dict[str, tuple[str, ...]]
    flags: dict[str, str]


class Char(msgspec.Struct, frozen=True, gc=False):
    # gc=False: plain data, as the state that holds it
    id: str
    name: str
    side: str
    seat: str
    basic: bool
    defense: int
    square: str | None = None
    standing: bool = True
    out: bool = False  # knocked out (on the cooldown track)
    exhausted: bool = False
    statuses: tuple[str, ...] = ()
    item: str | None = None
    emerged: bool | None = None  # the Shark status card: False Submerged, True Emerged


class Side(msgspec.Struct, frozen=True, gc=False):
    # gc=False: plain data, as the state that holds it
    name: str
    seats: tuple[str, ...]
    pool: tuple[str, ...]
    cooldown: dict[str, int]  # "token:might" / "char:quint" / "item:harpoon-gun" / "point:A" -> 1..4
    points: int = 0


class FJState(msgspec.Struct, frozen=True, gc=False):
    # plain data, never in a reference cycle: the cyclic collector need not follow it (a fold
    # makes one an event, and a collection's cost grows with the objects it follows)
    mode: str
    board: Board
    chars: dict[str, Char]
    sides: dict[str, Side]
    side_order: tuple[str, str]
    options: dict[str, Any]
    content: dict[str, Any]  # the rule tables from GameCreated (characters, dice, scenarios)
    first: str = ""
    round: int = 1
    phase: str = "setup"
    turn_side: str = ""
    active: str | None = None
    actions_left: int = 0
    target: str | None = None  # the Jaws! target waiting to be placed
    pending_place: tuple[str, ...] = ()
    point_markers: dict[str, str | None] = {}
    control: dict[str, tuple[str, str]] = {}  # area -> (side showing, square)
    flag_done: tuple[str, ...] = ()
    winner: str | None = None
    drawn: bool = False
    reason: str = ""


def other(state: FJState, side: str) -> str:
    a, b = state.side_order
    return b if side == a else a


def seat_sides(seats: tuple[str, ...], first_seat_side: str) -> dict[str, tuple[str, ...]]:
    """Seats 1 and 3 play one side, seats 2 and 4 the other (house)."""
    a = first_seat_side
    b = "dark" if a == "light" else "light"
    return {a: tuple(seats[0::2]), b: tuple(seats[1::2])}


def captain(state: FJState, side: str) -> str:
    return state.sides[side].seats[0]


def board_from(content: dict[str, Any], map_id: str) -> Board:
    m = content["maps"][map_id]
    return Board(
        id=map_id, name=m["name"], columns=m["columns"], rows=m["rows"],
        filled=tuple(m["filled"]), walls=tuple(tuple(w) for w in m["walls"]),
        posts=tuple(tuple(p) for p in m["posts"]),
        start={k: tuple(v) for k, v in m["start"].items()},
        point_squares=dict(m["point_markers"]),
        control_areas={k: tuple(v) for k, v in m["control_areas"].items()},
        flags=dict(m["flags"]),
    )


def resolved_map(options: dict[str, Any]) -> str:
    m = options.get("map", "auto")
    if m == "auto":
        return "orca" if options.get("mode", "first-game") == "first-game" else "south-beach"
    return m


#: the content whose names were asked for last, and its names (a log asks once an event);
#: one slot, read once, so that threads asking for two games never get each other's
_LAST_NAMES: list[tuple[dict[str, Any], dict[str, str]] | None] = [None]


def content_names(content: dict[str, Any]) -> dict[str, str]:
    """The printed names of one game's characters, abilities, items and status cards (their
    ids are fixed by the rules; a content file may rename them): how its log says an id.
    Only that game's content is asked, never another game's loaded in the same process."""
    last = _LAST_NAMES[0]
    if last is not None and last[0] is content:
        return last[1]
    names: dict[str, str] = {}
    for cid, c in content.get("characters", {}).items():
        names[cid] = str(c.get("name", cid))
        names.update({aid: str(a.get("name", aid)) for aid, a in c.get("abilities", {}).items()})
    names.update({iid: str(i.get("name", iid)) for iid, i in content.get("items", {}).items()})
    names.update({sid: str(c.get("name", sid)) for sid, c in content.get("status_cards", {}).items()})
    _LAST_NAMES[0] = (content, names)
    return names


def named(ident: str, names: dict[str, str]) -> str:
    """An id said as the rulebook names it (``names``: the game's :func:`content_names`):
    ``tiger-shark`` is "Tiger Shark", ``jaws`` "Jaws!", ``barrel-light`` (the light side's
    Barrel) "Barrel", ``item:quint:harpoon-gun`` "Quint's Harpoon Gun"; a basic action in
    plain words (``basic-challenge`` is "basic challenge")."""
    if ident in names:
        return names[ident]
    if ident.startswith("item:") and ident.count(":") == 2:  # a held item on the cooldown track
        _, holder, item = ident.split(":")
        return f"{named(holder, names)}'s {named(item, names)}"
    track, _, what = ident.partition(":")  # the other keys of the cooldown track
    if what and track == "token":
        return f"a {named(what, names)} token"
    if what and track == "point":
        return f"point {what}"
    if what and track in ("char", "item"):
        return named(what, names)
    base, _, side = ident.rpartition("-")
    if side in ("light", "dark") and base in names:
        return names[base]
    return ident.replace("-", " ")


def count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


class FJProjection(Base[FJState]):
    events = E.ALL
    sql_views = (
        ("fj_challenges",
         "SELECT game_id, seq, payload->>'$.challenger' AS challenger, payload->>'$.target' AS target,"
         " payload->>'$.kind' AS kind,"
         " json_array_length(payload->'$.challenger_faces') AS challenger_dice,"
         " json_array_length(payload->'$.defender_faces') AS defender_dice,"
         " CAST(payload->'$.challenger_faces' AS VARCHAR) AS challenger_faces,"
         " CAST(payload->'$.defender_faces' AS VARCHAR) AS defender_faces,"
         " CAST(payload->>'$.challenger_successes' AS INTEGER) AS challenger_successes,"
         " CAST(payload->>'$.defender_successes' AS INTEGER) AS defender_successes,"
         " CAST(payload->>'$.won' AS BOOLEAN) AS won, payload->>'$.result' AS outcome"
         " FROM events WHERE type = 'ChallengeResolved'"),
        ("fj_points",
         "SELECT game_id, seq, payload->>'$.side' AS side,"
         " CAST(payload->>'$.points' AS INTEGER) AS points, payload->>'$.why' AS why"
         " FROM events WHERE type = 'PointsGained'"),
    )

    def initial(self, created: GameCreated) -> FJState:
        content, opts = created.content, created.options
        board = board_from(content, resolved_map(opts))
        sides_seats = seat_sides(created.seats, opts.get("first-seat-side", "light"))
        chars: dict[str, Char] = {}
        sides: dict[str, Side] = {}
        for side in ("light", "dark"):
            spec = content["sides"][side]
            seats = sides_seats[side]
            pool: list[str] = []
            for i, cid in enumerate((spec["character"], spec["basic"])):
                c = content["characters"][cid]
                seat = seats[i % len(seats)] if len(seats) > 1 else seats[0]
                item = None
                hg = opts.get("harpoon-gun", "off")
                if not c["basic"] and (hg == "both" or hg == cid):
                    item = "harpoon-gun"
                chars[cid] = Char(id=cid, name=c["name"], side=side, seat=seat, basic=c["basic"],
                                  defense=c["defense"], item=item,
                                  emerged=False if cid == "shark" else None)
                pool += c.get("dots", [])
            sides[side] = Side(name=side, seats=seats, pool=tuple(pool), cooldown={})
        scen = content["scenarios"][opts.get("mode", "first-game")]
        points = dict(board.point_squares) if scen.get("point_markers") else {}
        return FJState(mode=opts.get("mode", "first-game"), board=board, chars=chars, sides=sides,
                       side_order=("light", "dark"), options=dict(opts), point_markers=points,
                       content={k: content[k] for k in ("characters", "scenarios", "successes", "items", "status_cards", "dice")})

    # -- evolve ------------------------------------------------------------------------

    @staticmethod
    def _char(state: FJState, cid: str, **kw: Any) -> FJState:
        return r(state, chars={**state.chars, cid: r(state.chars[cid], **kw)})

    @staticmethod
    def _side(state: FJState, side: str, **kw: Any) -> FJState:
        return r(state, sides={**state.sides, side: r(state.sides[side], **kw)})

    def _on_FirstPlayerChosen(self, s: FJState, e: E.FirstPlayerChosen) -> FJState:
        o = other(s, e.side)
        order = [c.id for c in s.chars.values() if c.side == e.side] + \
                [c.id for c in s.chars.values() if c.side == o]
        return r(s, first=e.side, turn_side=e.side, pending_place=tuple(order))

    def _on_PhaseChanged(self, s: FJState, e: E.PhaseChanged) -> FJState:
        if e.phase == "choose":
            return r(s, phase=e.phase, turn_side=e.side, active=None, actions_left=0, target=None)
        return r(s, phase=e.phase, turn_side=e.side, target=e.char if e.phase == "jaws" else None)

    def _on_CharacterPlaced(self, s: FJState, e: E.CharacterPlaced) -> FJState:
        s = self._char(s, e.char, square=e.square, out=False,
                       standing=True if e.why in ("setup", "return") else s.chars[e.char].standing)
        return r(s, pending_place=tuple(c for c in s.pending_place if c != e.char))

    def _on_CharacterChosen(self, s: FJState, e: E.CharacterChosen) -> FJState:
        return r(s, active=e.char, actions_left=0 if e.empty else 2, phase="act")

    def _on_ActionDone(self, s: FJState, e: E.ActionDone) -> FJState:
        return r(s, actions_left=e.left)

    def _on_CharacterMoved(self, s: FJState, e: E.CharacterMoved) -> FJState:
        chars = s.chars  # as _char does (the most frequent event: no keywords to gather)
        return r(s, chars={**chars, e.char: r(chars[e.char], square=e.path[-1])})

    def _on_SharkSurfaced(self, s: FJState, e: E.SharkSurfaced) -> FJState:
        chars = s.chars
        return r(s, chars={**chars, e.char: r(chars[e.char], emerged=e.emerged)})

    def _on_TokenSpent(self, s: FJState, e: E.TokenSpent) -> FJState:
        side = s.sides[e.side]
        pool = list(side.pool)
        pool.remove(e.token)
        return self._side(s, e.side, pool=tuple(pool), cooldown={**side.cooldown, f"token:{e.token}": e.slot})

    def _on_KnockedDown(self, s: FJState, e: E.KnockedDown) -> FJState:
        return self._char(s, e.char, standing=False)

    def _on_KnockedOut(self, s: FJState, e: E.KnockedOut) -> FJState:
        c = s.chars[e.char]
        s = self._char(s, e.char, square=None, out=True, standing=True)
        side = s.sides[c.side]
        return self._side(s, c.side, cooldown={**side.cooldown, f"char:{c.id}": 1})

    def _on_StoodUp(self, s: FJState, e: E.StoodUp) -> FJState:
        return self._char(s, e.char, standing=True)

    def _on_Exhausted(self, s: FJState, e: E.Exhausted) -> FJState:
        chars = s.chars
        return r(s, chars={**chars, e.char: r(chars[e.char], exhausted=True)}, actions_left=0)

    def _on_StatusGiven(self, s: FJState, e: E.StatusGiven) -> FJState:
        chars = dict(s.chars)
        for cid, c in chars.items():  # a status card in play is moved, never duplicated
            if e.card in c.statuses:
                chars[cid] = r(c, statuses=tuple(x for x in c.statuses if x != e.card))
        t = chars[e.char]
        chars[e.char] = r(t, statuses=t.statuses + (e.card,))
        return r(s, chars=chars)

    def _on_StatusDiscarded(self, s: FJState, e: E.StatusDiscarded) -> FJState:
        c = s.chars[e.char]
        return self._char(s, e.char, statuses=tuple(x for x in c.statuses if x != e.card))

    def _on_ItemCooled(self, s: FJState, e: E.ItemCooled) -> FJState:
        side = s.sides[e.side]
        return self._side(s, e.side, cooldown={**side.cooldown, f"item:{e.char}:{e.item}": e.slot})

    def _on_PointsGained(self, s: FJState, e: E.PointsGained) -> FJState:
        return self._side(s, e.side, points=s.sides[e.side].points + e.points)

    def _on_PointMarkerTaken(self, s: FJState, e: E.PointMarkerTaken) -> FJState:
        side = s.sides[e.side]
        s = self._side(s, e.side, cooldown={**side.cooldown, f"point:{e.letter}": 4})
        return r(s, point_markers={**s.point_markers, e.letter: None})

    def _on_ControlMarkerPlaced(self, s: FJState, e: E.ControlMarkerPlaced) -> FJState:
        return r(s, control={**s.control, e.area: (e.side, e.square)})

    def _on_ControlMarkerFlipped(self, s: FJState, e: E.ControlMarkerFlipped) -> FJState:
        return r(s, control={**s.control, e.area: (e.side, s.control[e.area][1])})

    def _on_HuntedShift(self, s: FJState, e: E.HuntedShift) -> FJState:
        side = s.sides[e.side]
        cd, pool = dict(side.cooldown), list(side.pool)
        for tok in e.tokens:
            key = f"token:{tok}"
            if cd[key] <= 1:
                del cd[key]
                pool.append(tok)
            else:
                cd[key] -= 1
        return self._side(s, e.side, cooldown=cd, pool=tuple(pool))

    def _on_CooldownShifted(self, s: FJState, e: E.CooldownShifted) -> FJState:
        side = s.sides[e.side]
        cd = {k: v - 1 for k, v in side.cooldown.items() if v > 1}
        if not e.returned:  # nothing comes back: only the track moves on
            return r(s, sides={**s.sides, e.side: r(side, cooldown=cd)})
        pool = list(side.pool)
        pending = list(s.pending_place)
        points = dict(s.point_markers)
        for thing in e.returned:
            kind, _, name = thing.partition(":")
            if kind == "token":
                pool.append(name)
            elif kind == "char":
                pending.append(name)
            elif kind == "point":
                points[name] = s.board.point_squares[name]
        s = self._side(s, e.side, cooldown=cd, pool=tuple(pool))
        return r(s, pending_place=tuple(pending), point_markers=points)

    def _on_FlagReturned(self, s: FJState, e: E.FlagReturned) -> FJState:
        s = self._char(s, e.char, square=None)
        return r(s, pending_place=s.pending_place + (e.char,))

    def _on_RoundEnded(self, s: FJState, e: E.RoundEnded) -> FJState:
        chars = {k: r(c, exhausted=False) if c.exhausted else c for k, c in s.chars.items()}
        return r(s, chars=chars, first=e.first, round=e.round + 1, active=None, actions_left=0,
                 flag_done=())

    def _on_GameWon(self, s: FJState, e: E.GameWon) -> FJState:
        return r(s, winner=e.side, reason=e.reason, phase="over")

    def _on_GameDrawn(self, s: FJState, e: E.GameDrawn) -> FJState:
        return r(s, drawn=True, reason=e.reason, phase="over")

    #: each event folded by the method above named after its type, looked up by the type
    evolve = by_type(handlers(locals(), "_on_", KERNEL_EVENTS + E.ALL), methods=True)

    # -- questions ---------------------------------------------------------------------

    def to_act(self, state: FJState) -> Decision:
        p = state.phase
        if p == "over":
            return Decision("over", ())
        if p == "place":
            side = state.chars[state.pending_place[0]].side
            return Decision("turn", (captain(state, side),), f"{side}: place a character in your starting area")
        if p == "choose":
            return Decision("turn", (captain(state, state.turn_side),), f"{state.turn_side}: choose a character")
        if p in ("act", "jaws"):
            c = state.chars[state.active or ""]
            what = "place the target or leave it" if p == "jaws" else f"{count(state.actions_left, 'action')} left"
            return Decision("turn", (c.seat,), f"{c.name}: {what}")
        if p == "veteran":
            return Decision("turn", (state.chars["quint"].seat,), "Veteran Hunter: hunt a rival or not")
        if p == "flags":
            return Decision("turn", (captain(state, state.turn_side),), "Flags: return characters or done")
        return Decision("turn", (captain(state, state.turn_side or state.side_order[0]),), p)

    def outcome(self, state: FJState) -> Outcome | None:
        if state.winner is None and not state.drawn:
            return None
        scores = {seat: float(sd.points) for sd in state.sides.values() for seat in sd.seats}
        winners = state.sides[state.winner].seats if state.winner else ()
        return Outcome(tuple(winners), scores, state.reason)

    def describe(self, event: Event, state: FJState | None = None) -> str:
        e: Any = event
        names = content_names(state.content) if state is not None else {}

        def said(ident: str) -> str:
            return named(ident, names)

        n = type(event).__name__
        c = said(e.char) if hasattr(e, "char") and isinstance(e.char, str) else ""
        if n == "ChallengeResolved":
            return (f"{said(e.challenger)}'s {said(e.kind)} on {said(e.target)}: {' '.join(e.challenger_faces)} vs "
                    f"{' '.join(e.defender_faces)} = {e.challenger_successes}-{e.defender_successes}, "
                    + (f"{said(e.target)} {e.result.replace('-', ' ')}" if e.won else "ties and losses go to the defender"))
        if n == "CharacterMoved":
            squares = ((e.start,) if e.start else ()) + tuple(e.path)
            return (f"{c} moves" + ("" if e.how == "move" else f" ({said(e.how)})") + f": {' > '.join(squares)}"
                    + f" ({count(len(e.path), 'square')}" + (f", {e.route})" if e.route else ")"))
        if n == "CharacterPlaced":
            return f"{c} placed on {e.square} ({e.why})"
        if n == "PointsGained":
            return f"{e.side} gains {count(e.points, 'point')}: {e.why}"
        if n == "PhaseChanged":
            what = {"place": "places a character in its starting area", "choose": "chooses a character",
                    "act": f"acts with {c}", "jaws": f"may place {c} next to the Shark (Jaws!)",
                    "veteran": "may give or move the Hunted card (Veteran Hunter)",
                    "flags": "may return characters from the rival flag"}.get(e.phase, e.phase)
            return f"now: {e.side} {what}"
        if n == "CooldownShifted":
            return f"{e.side} shifts its cooldown track" + (f"; back in play: {', '.join(map(said, e.returned))}" if e.returned else "")
        simple = {
            "FirstPlayerChosen": lambda: f"the First Player marker lands {e.side}",
            "CharacterChosen": lambda: f"{c} takes " + ("an empty turn (knocked out)" if e.empty else "a turn"),
            "ActionDone": lambda: f"{c}: {said(e.action)} ({count(e.left, 'action')} left)",
            "SharkSurfaced": lambda: f"{c} " + ("emerges" if e.emerged else "submerges"),
            "TokenSpent": lambda: f"{e.side} spends a {e.token} token on {said(e.ability)}: cooldown {e.slot}",
            "ChallengeDeclared": lambda: f"{said(e.challenger)} challenges {said(e.target)} ({said(e.kind)}): {e.dice} dice"
            + (f" ({e.dice - e.extra} + {e.extra} for your status cards on {said(e.target)})" if e.extra else "")
            + f" against defense {e.defense}",
            "KnockedDown": lambda: f"{c} is knocked down",
            "KnockedOut": lambda: f"{c} is knocked out" + (f" by {said(e.by)}" if e.by else "") + ": cooldown 1",
            "StoodUp": lambda: f"{c} stands up ({said(e.how)}" + (f" by {said(e.by)})" if e.by else ")"),
            "Exhausted": lambda: f"{c} is exhausted",
            "StatusGiven": lambda: f"{c} gets the {said(e.card)} status card (from {said(e.by)})",
            "StatusDiscarded": lambda: f"{c} discards the {said(e.card)} status card",
            "ItemCooled": lambda: f"{c}'s {said(e.item)} goes on cooldown {e.slot}",
            "PointMarkerTaken": lambda: f"{c} takes point marker {e.letter}: cooldown 4",
            "ControlMarkerPlaced": lambda: f"{c} places a {e.side} control marker on {e.square} (area {e.area})",
            "ControlMarkerFlipped": lambda: f"{c} flips the control marker of area {e.area} to {e.side}",
            "HuntedShift": lambda: f"Hunted resolves: {e.side} shifts its {', '.join(e.tokens) or 'no'} "
                                   f"{'token' if len(e.tokens) == 1 else 'tokens'} down the cooldown track by 1",
            "FlagReturned": lambda: f"{c} returns from the rival flag to the {e.side} starting area",
            "RoundEnded": lambda: f"round {e.round} ends; the First Player marker passes to {e.first}",
            "GameWon": lambda: f"{e.side} wins: {e.reason}",
            "GameDrawn": lambda: f"the game is drawn: {e.reason}",
            "DiceRolled": lambda: f"roll #{e.n} ({e.purpose or 'dice'}): {' '.join(e.faces)}" + (" [physical dice]" if e.manual else ""),
        }
        if n in simple:
            return simple[n]()
        return describe_event(event)
