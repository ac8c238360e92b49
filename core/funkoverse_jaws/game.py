"""The Game of Funkoverse Jaws 100: its options, content checks and setup; the rules are in
:mod:`.rules`, the commands in :mod:`.commands`, what may be done now in :mod:`.legal`."""

from __future__ import annotations

from typing import Any

from arbiter.core.dice import Rng
from arbiter.core.errors import BadContent, BadOption
from arbiter.core.funkoverse_jaws import commands as C
from arbiter.core.funkoverse_jaws import legal as L
from arbiter.core.funkoverse_jaws import rules as R
from arbiter.core.funkoverse_jaws.board import parse_square
from arbiter.core.funkoverse_jaws.bots import smart_bot
from arbiter.core.game import Game, Option, Traits
from arbiter.events import funkoverse_jaws as E
from arbiter.events.base import Event, GameCreated
from arbiter.projections.funkoverse_jaws import FJState


class FunkoverseJaws(Game[FJState, C.Command]):
    id = "funkoverse-jaws"
    traits = Traits(dice=True)
    short = "fj"
    title = "Funkoverse Strategy Game: Jaws 100"
    projection = R.PROJECTION
    min_seats = 2
    max_seats = 4
    options = (
        Option(name="mode", default="first-game", choices=("first-game", "control", "flags"),
               doc="first-game (knock a rival down, then out) or a scenario (points)",
               house=False, rule="FJ-MODE"),
        Option(name="map", default="auto", choices=("auto", "orca", "south-beach"),
               doc="map side; auto = Orca for the first game, South Beach for scenarios (house layouts)",
               rule="FJ-HOUSE-MAPS"),
        Option(name="harpoon-gun", default="off", choices=("off", "both", "quint", "shark"),
               doc="who holds a Harpoon Gun: off, both (a second copy, as with a friend's game), or one side only",
               rule="FJ-HOUSE-HARPOON"),
        Option(name="item-parity", default=True,
               doc="the rulebook's rule: items only when both sides have one (false allows a lone Harpoon Gun)",
               house=False, rule="FJ-ITEM-PARITY"),
        Option(name="first-seat-side", default="light", choices=("light", "dark"),
               doc="the side of the first seat: light (Quint and the Swimmer) or dark (the Shark and the Tiger Shark)",
               rule="FJ-HOUSE-SEATS"),
        Option(name="first-player", default="flip", choices=("flip", "light", "dark"),
               doc="flip the First Player marker (seeded), or record who won the flip at the table",
               rule="FJ-HOUSE-FIRST-PLAYER"),
        Option(name="placing-is-moving", default=False,
               doc="house reading: Blood in the Water's placing counts as the Shark moving (an emerged Shark"
                   " submerges, a Barrel is discarded); false = the glossary's \"placing is different from moving\"",
               rule="FJ-HOUSE-PLACING"),
        Option(name="round-limit", default=0, minimum=0, maximum=200,
               doc="house, off by default (0): stop after this many rounds (for bots and tests): in a"
                   " scenario more points wins, level points draw; a first game with no knock-out is drawn",
               rule="FJ-HOUSE-ROUND-LIMIT"),
    )
    syntax = C.SYNTAX
    bots = {"smart": smart_bot}

    # -- content and setup ------------------------------------------------------------

    def check_content(self, content: dict[str, Any]) -> None:
        """Validate a ``--content`` file: dice, characters, sides, maps."""
        super().check_content(content)
        for key in ("characters", "sides", "maps", "scenarios", "successes", "status_cards", "items"):
            if key not in content:
                raise BadContent(f"content needs a {key!r} table")
        faces = content["dice"].get("funkoverse")
        if not faces or not all(f in ("star", "circle", "crit", "blank") for f in faces):
            raise BadContent("the funkoverse die needs faces from star, circle, crit, blank")
        if sorted(content["dice"].get("first-player", [])) != ["dark", "light"]:
            raise BadContent("the first-player die has the faces light and dark")
        for cid in ("quint", "shark", "swimmer", "tiger-shark"):
            if cid not in content["characters"]:
                raise BadContent(f"the characters table needs {cid!r}: this game's rules are written for its four characters")
        for side in ("light", "dark"):
            spec = content["sides"].get(side)
            if not spec or spec.get("character") not in content["characters"] or spec.get("basic") not in content["characters"]:
                raise BadContent(f"side {side!r} needs a character and a basic character from 'characters'")
        for cid, c in content["characters"].items():
            if not isinstance(c.get("defense"), int) or c["defense"] < 0:
                raise BadContent(f"character {cid!r} needs a whole-number defense")
            for aid, a in c.get("abilities", {}).items():
                if a.get("cost") not in (1, 2, 3, 4) or a.get("type") not in ("finesse", "might", "cunning", "leadership"):
                    raise BadContent(f"ability {aid!r} of {cid!r} needs a cost 1-4 and a type")
        for mid in ("orca", "south-beach"):
            m = content["maps"].get(mid)
            if m is None:
                raise BadContent(f"content needs the map {mid!r}")
            cols, rows = m.get("columns"), m.get("rows")
            if not (isinstance(cols, int) and isinstance(rows, int) and 3 <= cols <= 26 and 3 <= rows <= 26):
                raise BadContent(f"map {mid!r}: columns and rows must be 3 to 26")
            def ok(sq: Any) -> bool:
                return isinstance(sq, str) and len(sq) >= 2 and sq[0].isalpha() and sq[1:].isdigit() \
                    and ord(sq[0]) - 97 < cols and 1 <= int(sq[1:]) <= rows
            squares = list(m.get("filled", [])) + [s for w in m.get("walls", []) for s in w] \
                + [s for v in m.get("start", {}).values() for s in v] + list(m.get("point_markers", {}).values()) \
                + [s for v in m.get("control_areas", {}).values() for s in v] + list(m.get("flags", {}).values())
            for sq in squares:
                if not ok(sq):
                    raise BadContent(f"map {mid!r}: {sq!r} is not a square of a {cols}x{rows} grid")
            for a, b in m.get("walls", []):
                (ax, ay), (bx, by) = parse_square(a), parse_square(b)
                if abs(ax - bx) + abs(ay - by) != 1:
                    raise BadContent(f"map {mid!r}: a wall lies between two side-by-side squares, not {a} and {b}")
            if sorted(m.get("point_markers", {})) != ["A", "B", "C", "D"]:
                raise BadContent(f"map {mid!r}: point markers A, B, C and D each need a setup square")
            for side in ("light", "dark"):
                if len(m.get("start", {}).get(side, [])) < 2:
                    raise BadContent(f"map {mid!r}: the {side} starting area needs at least 2 squares")
                if side not in m.get("flags", {}):
                    raise BadContent(f"map {mid!r}: a {side} flag square is needed")
            if set(m.get("filled", [])) & {s for v in m["start"].values() for s in v}:
                raise BadContent(f"map {mid!r}: a starting square is filled by an obstruction")

    def setup(self, created: GameCreated, rng: Rng) -> list[Event]:
        """Setup step 10-11: flip the First Player marker; the first player places first."""
        opts = created.options
        if opts.get("item-parity", True) and opts.get("harpoon-gun", "off") in ("quint", "shark"):
            raise BadOption("both players must have an item before you play with one (\"Play with Items\"):"
                            " use harpoon-gun=both, or item-parity=false for a lone Harpoon Gun")
        if opts.get("first-player", "flip") in ("light", "dark"):
            side = opts["first-player"]
            return [E.FirstPlayerChosen(side=side), E.PhaseChanged(phase="place", side=side)]
        flip = rng.roll(["first-player"], purpose="first player marker")
        side = flip.faces[0]
        return [flip, E.FirstPlayerChosen(side=side), E.PhaseChanged(phase="place", side=side)]

    # -- text, rules, legal commands: see commands.py, rules.py, legal.py -------------------

    def parse(self, state: FJState, seat: str, text: str) -> C.Command:
        return C.parse(state, seat, text)

    def command_text(self, command: C.Command) -> str:
        return C.command_text(command)

    def decide(self, state: FJState, seat: str, command: C.Command, rng: Rng) -> list[Event]:
        return R.decide(state, seat, command, rng)

    def legal_commands(self, state: FJState, seat: str) -> list[C.Command]:
        return L.legal_commands(state, seat)

    def menu_label(self, state: FJState, seat: str, text: str) -> str:
        """An ability whose token dots are house content says so: "can-crusher shark  (Can
        Crusher: house ability tokens)"; the house map is named on the board."""
        verb = text.split()[0] if text.split() else ""
        for c in state.content.get("characters", {}).values():
            a = c.get("abilities", {}).get(verb)
            if a is not None and "house" in str(c.get("dots_source", "")):
                return f"{text}  ({a.get('name', verb)}: house ability tokens)"
        return text

    def summary(self, state: FJState) -> dict[str, Any]:
        return {"rounds": state.round, **{f"{s}_points": v.points for s, v in state.sides.items()}}


GAME = FunkoverseJaws()
