"""Funkoverse Strategy Game: Jaws 100 — Quint and the Swimmer against The Shark and the
Tiger Shark, on the Orca or South Beach, in the first game or the Control and Flags scenarios.
"""

from __future__ import annotations

import difflib
from typing import Any

import msgspec

from arbiter.core.dice import Rng
from arbiter.core.errors import ManualDiceError
from arbiter.core.errors import BadContent, BadOption, ParseError, RuleViolation, require
from arbiter.core.funkoverse_jaws import rules as R
from arbiter.core.funkoverse_jaws.geometry import (all_squares, distance, is_square_name, neighbours,
                                           parse_square, square_name)
from arbiter.core.funkoverse_jaws.bots import smart_bot
from arbiter.core.game import Game, Option
from arbiter.events import funkoverse_jaws as E
from arbiter.events.base import Event, GameCreated
from arbiter.projections.funkoverse_jaws import Char, FJProjection, FJState, captain, other

PROJ = FJProjection()

ALIASES = {"tiger": "tiger-shark", "tigershark": "tiger-shark", "the-shark": "shark",
           "farewell": "farewell-and-adieu", "blood": "blood-in-the-water",
           "crusher": "can-crusher", "scars": "compare-scars", "jaws!": "jaws"}
ABILITY_VERBS = ("farewell-and-adieu", "can-crusher", "compare-scars", "swim", "blood-in-the-water", "jaws")


# `help` in `arbiter play`: every command form with an example (what it is for in brackets).
HELP = (
    ("place CHARACTER SQUARE", "place quint b2   (setup; back from cooldown)"),
    ("choose CHARACTER", "choose swimmer   (take a turn with it)"),
    ("move SQUARE", "move c3   (up to 2; the route is shown)"),
    ("move SQUARE SQUARE ...", "move b2 c3   (each square entered)"),
    ("challenge RIVAL [harpoon]", "challenge tiger-shark   (2 dice)"),
    ("assist ALLY", "assist swimmer   (stand up an adjacent ally)"),
    ("rally", "rally   (stand up, using both actions)"),
    ("emerge", "emerge   (the Shark, a basic action)"),
    ("interact A|B|C|D", "interact A   (an adjacent point marker)"),
    ("interact mark SQUARE", "interact mark e4   (Control: place)"),
    ("interact flip AREA", "interact flip 2   (Control: flip)"),
    ("swim SQUARE [SQUARE ...] [emerge]", "swim g4 emerge   (move 3, may emerge)"),
    ("blood-in-the-water SQUARE [emerge]", "blood c4   (place the Shark by a rival)"),
    ("jaws RIVAL [harpoon]", "jaws quint   (challenge 5, then put/leave)"),
    ("farewell-and-adieu SQUARE [harpoon]", "farewell d5   (toward Hunted, challenge 2)"),
    ("can-crusher RIVAL [harpoon]", "crusher shark   (range 3, challenge 2+)"),
    ("compare-scars RIVAL [harpoon]", "scars shark   (stand up, challenge 2)"),
    ("end", "end   (exhaust: unused actions are lost)"),
    ("put SQUARE | leave", "put e6   (after Jaws!: place the target)"),
    ("hunt RIVAL | no-hunt", "hunt shark   (Veteran Hunter)"),
    ("return CHARACTER | done", "return quint   (Flags: home for 2 points)"),
    ("COMMAND [FACES]", "challenge quint [star star circle circle]: you first"),
)

VERBS = ("place", "choose", "move", "challenge", "assist", "rally", "emerge", "interact", "swim",
         "blood-in-the-water", "jaws", "farewell-and-adieu", "can-crusher", "compare-scars", "use",
         "end", "put", "leave", "hunt", "no-hunt", "return", "done")


class Cmd(msgspec.Struct, frozen=True):
    """A command: a verb and its words (``move c4``, ``jaws quint harpoon``)."""

    verb: str
    args: tuple[str, ...] = ()


class Builder:
    """Collects a command's events, folding each into a working state as it goes."""

    def __init__(self, state: FJState, content: dict[str, Any]) -> None:
        self.s = state
        self.content = content
        self.events: list[Event] = []

    def __call__(self, ev: Event) -> Event:
        self.events.append(ev)
        self.s = PROJ.evolve(self.s, ev)
        return ev


class FunkoverseJaws(Game[FJState, Cmd]):
    id = "funkoverse-jaws"
    short = "fj"
    title = "Funkoverse Strategy Game: Jaws 100"
    projection = PROJ
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
               rule="FJ-ITEM-PARITY"),
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
    syntax = tuple(f"\n  {form:<35} e.g. {example}" for form, example in HELP)
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

    # -- text -----------------------------------------------------------------------------

    def _char_name(self, state: FJState, word: str) -> str:
        cid = ALIASES.get(word, word)
        if cid not in state.chars:
            raise ParseError(f"no character {word!r} in this game",
                             hint="characters: " + ", ".join(state.chars))
        return cid

    def _square(self, state: FJState, word: str) -> str:
        if not is_square_name(state.board, word):
            raise ParseError(f"{word!r} is not a square of the {state.board.name} map",
                             hint=f"squares run a1 to {square_name((state.board.columns - 1, state.board.rows - 1))}")
        return word

    def parse(self, state: FJState, seat: str, text: str) -> Cmd:
        words = text.lower().split()
        if not words:
            raise ParseError("empty command", hint="commands: " + ", ".join(VERBS) + " (help lists them with examples)")
        verb = ALIASES.get(words[0], words[0])
        rest = words[1:]

        def arity(lo: int, hi: int | None = None) -> None:
            hi = lo if hi is None else hi
            if not lo <= len(rest) <= hi:
                forms = [f"{form} (e.g. {ex.split('  ')[0].strip()})" for form, ex in HELP if form.split()[0] == verb]
                raise ParseError(f"{verb} takes {lo}{'' if hi == lo else f' to {hi}'} word(s)", hint="; ".join(forms))

        def flag(word: str, allowed: str) -> None:
            if word == allowed:
                return
            if word == "harpoon":  # the Harpoon Gun works only "when this character challenges"
                raise RuleViolation("FJ-HARPOON", f"{verb} is not a challenge: the Harpoon Gun is used only"
                                                  " when its holder challenges a rival")
            if word == "emerge":  # only the Shark's Swim and Blood in the Water say "may emerge"
                raise RuleViolation("FJ-EMERGE", f"{verb} does not let the Shark emerge: emerge is a basic"
                                                 " action of its own, and Swim and Blood in the Water may end with it")
            raise ParseError(f"unexpected {word!r} after {verb}", hint=f"only {allowed!r} may follow")

        if verb in ("rally", "emerge", "end", "leave", "no-hunt", "done"):
            arity(0)
            return Cmd(verb)
        if verb == "place":
            arity(2)
            return Cmd(verb, (self._char_name(state, rest[0]), self._square(state, rest[1])))
        if verb in ("choose", "assist", "hunt", "return"):
            arity(1)
            return Cmd(verb, (self._char_name(state, rest[0]),))
        if verb == "put":
            arity(1)
            return Cmd(verb, (self._square(state, rest[0]),))
        if verb == "move":
            if "emerge" in rest:
                raise RuleViolation("FJ-EMERGE", "a basic move cannot emerge: emerge is a basic action of its own;"
                                                 " swim SQUARE emerge and blood-in-the-water SQUARE emerge may end with it")
            if "harpoon" in rest:
                flag("harpoon", "")
            arity(1, 99)
            return Cmd(verb, tuple(self._square(state, w) for w in rest))
        if verb in ("challenge", "jaws", "can-crusher", "compare-scars"):
            arity(1, 99)
            if len(rest) > 1 and ALIASES.get(rest[1], rest[1]) in state.chars:
                raise RuleViolation("FJ-ONE-TARGET", f"{verb} challenges one target: \"Unless a rule says otherwise,"
                                                     " you challenge only one target at a time\"")
            arity(1, 2)
            if len(rest) == 2:
                flag(rest[1], "harpoon")
            return Cmd(verb, (self._char_name(state, rest[0]),) + tuple(rest[1:]))
        if verb == "swim":
            arity(1, 99)
            if "harpoon" in rest:
                flag("harpoon", "emerge")
            squares = rest[:-1] if rest[-1] == "emerge" else rest
            if not squares:
                raise ParseError("swim needs a square", hint="swim SQUARE [SQUARE ...] [emerge]")
            return Cmd(verb, tuple(self._square(state, w) for w in squares) + (("emerge",) if rest[-1] == "emerge" else ()))
        if verb in ("blood-in-the-water", "farewell-and-adieu"):
            arity(1, 2)
            if len(rest) == 2:
                flag(rest[1], "harpoon" if verb == "farewell-and-adieu" else "emerge")
            return Cmd(verb, (self._square(state, rest[0]),) + tuple(rest[1:]))
        if verb == "interact":
            if len(rest) == 1 and rest[0].upper() in "ABCD" and len(rest[0]) == 1:
                return Cmd(verb, (rest[0].upper(),))
            if len(rest) == 2 and rest[0] == "mark":
                return Cmd(verb, ("mark", self._square(state, rest[1])))
            if len(rest) == 2 and rest[0] == "flip":
                if rest[1] not in state.board.control_areas:
                    raise ParseError(f"no control area {rest[1]!r}", hint="areas: " + ", ".join(state.board.control_areas))
                return Cmd(verb, ("flip", rest[1]))
            raise ParseError("interact with a point marker or a control area", hint="interact A; interact mark c4; interact flip 2")
        if verb == "use":
            arity(1)
            if rest[0] not in ("harpoon-gun", "harpoon"):
                raise ParseError(f"no item {rest[0]!r} in this game", hint="items: harpoon-gun")
            return Cmd(verb, ("harpoon-gun",))
        if words[0].isdigit():
            raise ParseError(f"{words[0]} is not a number on the menu", hint="pick a number shown, or type a command (help)")
        close = difflib.get_close_matches(words[0], VERBS + tuple(ALIASES), n=1)
        raise ParseError(f"not a Funkoverse command: {text!r}",
                         hint=(f"did you mean {ALIASES.get(close[0], close[0])!r}? " if close else "")
                         + "commands: " + ", ".join(VERBS) + " (help lists them with examples)")

    def command_text(self, command: Cmd) -> str:
        return " ".join((command.verb,) + command.args)

    # -- deciding ---------------------------------------------------------------------------

    PHASE_VERBS = {
        "place": ("place",), "choose": ("choose",), "jaws": ("put", "leave"),
        "veteran": ("hunt", "no-hunt"), "flags": ("return", "done"),
        "act": ("move", "challenge", "assist", "rally", "emerge", "interact", "use", "end") + ABILITY_VERBS,
    }

    def decide(self, state: FJState, seat: str, command: Cmd, rng: Rng) -> list[Event]:
        verbs = self.PHASE_VERBS.get(state.phase, ())
        require(command.verb in verbs, "FJ-PHASE", f"{command.verb} is not open now ({self.projection.to_act(state).prompt})")
        b = Builder(state, state.content)
        getattr(self, "do_" + command.verb.replace("-", "_"))(b, command, rng)
        return b.events

    # -- setup placement ------------------------------------------------------------------

    def do_place(self, b: Builder, cmd: Cmd, rng: Rng) -> None:
        """Setup 11 / Cooldown: characters go on empty squares of their starting area."""
        s = b.s
        cid, square = cmd.args
        side = s.chars[s.pending_place[0]].side
        if cid not in s.pending_place or s.chars[cid].side != side:
            waiting = ", ".join(c for c in s.pending_place if s.chars[c].side == side)
            raise RuleViolation("FJ-PLACE-WHO", f"{cid} is not waiting to be placed (waiting: {waiting})")
        require(square in R.placement_squares(s, side), "FJ-PLACE-START", f"{square} is not an empty square of the {side} starting area")
        b(E.CharacterPlaced(char=cid, square=square, why="setup" if s.phase == "place" and s.round == 1 and not s.active else "return"))
        if b.s.pending_place:
            b(E.PhaseChanged(phase="place", side=b.s.chars[b.s.pending_place[0]].side))
        else:
            b(E.PhaseChanged(phase="choose", side=b.s.first))

    # -- taking a turn --------------------------------------------------------------------

    def do_choose(self, b: Builder, cmd: Cmd, rng: Rng) -> None:
        """Taking a Turn 1: choose one of your characters without an exhausted marker."""
        s = b.s
        c = s.chars[cmd.args[0]]
        require(c.side == s.turn_side, "FJ-CHOOSE", f"{c.name} is not on the {s.turn_side} side")
        require(not c.exhausted, "FJ-CHOOSE", f"{c.name} has an exhausted marker and cannot take another turn this round")
        b(E.CharacterChosen(char=c.id, empty=c.out))
        if c.out:  # "Knocked Out": chosen, takes an empty turn, and is exhausted
            self.end_turn(b)

    def active(self, b: Builder) -> Char:
        return b.s.chars[b.s.active or ""]

    def spend_action(self, b: Builder, action: str, n: int = 1) -> None:
        c = self.active(b)
        b(E.ActionDone(char=c.id, action=action, left=b.s.actions_left - n))

    def check_action(self, s: FJState, c: Char, action: str, n: int = 1) -> None:
        """Taking a Turn 2-3: up to two actions; a knocked-down character can only rally."""
        require(s.actions_left >= n, "FJ-ACTIONS", f"{c.name} has {s.actions_left} action(s) left, {action} needs {n}")
        require(not (not c.standing and action not in ("rally", "compare-scars")), "FJ-KNOCKED-DOWN", f"{c.name} is knocked down: it cannot {action}, only rally (or be assisted)")

    def after_action(self, b: Builder) -> None:
        if b.s.phase == "over" or b.s.phase != "act":
            return
        if b.s.actions_left <= 0:
            self.end_turn(b)

    def do_end(self, b: Builder, cmd: Cmd, rng: Rng) -> None:
        """Taking a Turn 4: exhaust your character (its remaining actions are given up)."""
        self.end_turn(b)

    def end_turn(self, b: Builder) -> None:
        """Taking a Turn 4-5: exhaust the character; Quint's Veteran Hunter may act now."""
        c = self.active(b)
        b(E.Exhausted(char=c.id))
        if c.id == "quint" and not c.basic and self.veteran_targets(b.s):
            b(E.PhaseChanged(phase="veteran", side=c.side, char=c.id))
            return
        self.after_exhaust(b)

    def after_exhaust(self, b: Builder) -> None:
        s = b.s
        if s.phase == "over":
            return
        cur = s.turn_side
        for side in (other(s, cur), cur):
            if any(not c.exhausted for c in s.chars.values() if c.side == side):
                b(E.PhaseChanged(phase="choose", side=side))
                return
        self.round_end(b)

    # -- basic actions ----------------------------------------------------------------------

    def do_move(self, b: Builder, cmd: Cmd, rng: Rng) -> None:
        """Basic action Move: up to 2 squares ("How to Move Something", rules 1-6)."""
        c = self.active(b)
        self.check_action(b.s, c, "move")
        steps = R.move_allowance(c, 2)
        if len(cmd.args) > 1:  # the player named every square entered
            path = R.check_path(b.s, c, [parse_square(a) for a in cmd.args], steps)
        else:
            path = R.check_move_destination(b.s, c, parse_square(cmd.args[0]), steps)
        self.spend_action(b, "move")
        self.moved(b, c, path, "move")
        self.after_action(b)

    def moved(self, b: Builder, c: Char, path: tuple, how: str, toward: Any = None) -> None:
        """Record the route taken, square by square, with why it is not the direct one."""
        if path:
            b(E.CharacterMoved(char=c.id, path=tuple(square_name(p) for p in path), how=how, start=c.square or "",
                               route=R.route_note(b.s, c, tuple(path), toward)))
        if c.emerged:  # Emerged: an action that moves the Shark submerges it
            b(E.SharkSurfaced(char=c.id, emerged=False))
        for card in c.statuses:
            if card.startswith("barrel-"):  # Barrel: discard after this character does a move
                b(E.StatusDiscarded(card=card, char=c.id))

    def do_rally(self, b: Builder, cmd: Cmd, rng: Rng) -> None:
        """Taking a Turn 3 (Rally): a knocked-down character stands up using both actions."""
        c = self.active(b)
        require(not c.standing, "FJ-RALLY", f"{c.name} is standing; only a knocked-down character rallies")
        require(b.s.actions_left >= 2, "FJ-RALLY", f"rallying uses both actions and {c.name} has {b.s.actions_left} left")
        self.spend_action(b, "rally", 2)
        b(E.StoodUp(char=c.id, how="rally"))
        self.after_action(b)

    def do_assist(self, b: Builder, cmd: Cmd, rng: Rng) -> None:
        """Basic action Assist: stand up an adjacent ally that has been knocked down."""
        c = self.active(b)
        self.check_action(b.s, c, "assist")
        R.check_not_submerged(c, "assist")
        t = b.s.chars[cmd.args[0]]
        require(not (t.side != c.side or t.id == c.id), "FJ-ASSIST", f"{t.name} is not an ally of {c.name}")
        require(not (t.square is None or t.standing), "FJ-ASSIST", f"{t.name} is not knocked down on the map")
        require(R.adjacent(b.s, c.side, parse_square(c.square or ""), parse_square(t.square)), "FJ-ADJACENT", f"{t.name} is not adjacent to {c.name}")
        self.spend_action(b, "assist")
        b(E.StoodUp(char=t.id, how="assist", by=c.id))
        self.after_action(b)

    def do_emerge(self, b: Builder, cmd: Cmd, rng: Rng) -> None:
        """Submerged: as a basic action, the Shark may emerge."""
        c = self.active(b)
        self.check_action(b.s, c, "emerge")
        require(c.emerged is not None, "FJ-EMERGE", f"only the Shark submerges and emerges, not {c.name}")
        require(c.emerged is False, "FJ-EMERGE", f"{c.name} is already emerged")
        self.spend_action(b, "emerge")
        b(E.SharkSurfaced(char=c.id, emerged=True))
        self.after_action(b)

    def do_challenge(self, b: Builder, cmd: Cmd, rng: Rng) -> None:
        """Basic Challenge: roll 2 dice against an adjacent rival."""
        c = self.active(b)
        self.check_action(b.s, c, "challenge")
        R.check_not_submerged(c, "challenge")
        t = R.check_challenge_target(b.s, c, cmd.args[0])
        harpoon = self.check_harpoon(b.s, c, cmd)
        self.spend_action(b, "basic-challenge")
        self.resolve_challenge(b, c, t, "basic-challenge", 2, harpoon, rng)
        self.after_action(b)

    def do_use(self, b: Builder, cmd: Cmd, rng: Rng) -> None:
        """Doing the Use-Item Action: only items with a number icon need it."""
        raise RuleViolation("FJ-ITEM-TRAIT", "the Harpoon Gun has no number icon: it works as a trait when its holder"
                            " challenges (add 'harpoon' to the challenge), not as a use-item action")

    def do_interact(self, b: Builder, cmd: Cmd, rng: Rng) -> None:
        """Interact: take an adjacent point marker; in Control, place or flip a control marker."""
        s = b.s
        c = self.active(b)
        require(s.mode != "first-game", "FJ-INTERACT-FIRST-GAME", "the interact action is not used in the first game")
        self.check_action(s, c, "interact")
        R.check_not_submerged(c, "interact")
        here = parse_square(c.square or "")
        what = cmd.args[0]
        if what in ("A", "B", "C", "D"):
            sq = s.point_markers.get(what)
            require(sq is not None, "FJ-POINT-MARKER", f"point marker {what} is not on the map")
            p = parse_square(sq)
            require(not (p != here and not R.adjacent(s, c.side, here, p)), "FJ-POINT-MARKER", f"{c.name} is neither on nor adjacent to point marker {what} ({sq})")
            self.spend_action(b, "interact")
            b(E.PointMarkerTaken(letter=what, char=c.id, side=c.side))
            b(E.PointsGained(side=c.side, points=1, why=f"point marker {what}"))
        elif s.mode != "control":
            raise RuleViolation("FJ-CONTROL", "control markers are used only in the Control scenario")
        elif what == "mark":
            target = cmd.args[1]
            area = next((a for a, sqs in s.board.control_areas.items() if c.square in sqs), None)
            require(area is not None, "FJ-CONTROL", f"{c.name} is not in a control area")
            require(target in s.board.control_areas[area], "FJ-CONTROL", f"{target} is not in control area {area}")
            require(area not in s.control, "FJ-CONTROL", f"control area {area} already has a control marker")
            self.spend_action(b, "interact")
            b(E.ControlMarkerPlaced(area=area, side=c.side, square=target, char=c.id))
        else:
            area = cmd.args[1]
            require(area in s.control, "FJ-CONTROL", f"control area {area} has no control marker to flip")
            showing, sq = s.control[area]
            p = parse_square(sq)
            require(not (p != here and not R.adjacent(s, c.side, here, p)), "FJ-CONTROL", f"{c.name} is neither on nor adjacent to the control marker on {sq}")
            self.spend_action(b, "interact")
            b(E.ControlMarkerFlipped(area=area, side=other(s, showing), char=c.id))
        self.after_action(b)

    # -- abilities -------------------------------------------------------------------------

    def ability(self, b: Builder, c: Char, aid: str) -> dict[str, Any]:
        """Doing an Ability 1-2: the character has it and a token of its type is in the pool."""
        require(not c.basic, "FJ-BASIC-NO-ABILITIES", f"{c.name} is a basic character and has no abilities")
        spec = b.content["characters"][c.id]["abilities"].get(aid)
        require(spec is not None, "FJ-UNKNOWN-ABILITY", f"{c.name} has no ability {aid}")
        self.check_action(b.s, c, aid)
        require(spec["type"] in b.s.sides[c.side].pool, "FJ-TOKEN", f"no {spec['type']} ability token in the {c.side} pool: {spec['name']} cannot be used")
        return spec

    def pay(self, b: Builder, c: Char, aid: str, spec: dict[str, Any]) -> None:
        self.spend_action(b, aid)
        b(E.TokenSpent(side=c.side, token=spec["type"], slot=spec["cost"], ability=aid, char=c.id))

    def do_swim(self, b: Builder, cmd: Cmd, rng: Rng) -> None:
        """Swim (2, finesse): move 3; the Shark may emerge."""
        c = self.active(b)
        spec = self.ability(b, c, "swim")
        squares = [a for a in cmd.args if a != "emerge"]
        steps = R.move_allowance(c, spec["move"])
        if len(squares) > 1:
            path = R.check_path(b.s, c, [parse_square(a) for a in squares], steps)
        else:
            path = R.check_move_destination(b.s, c, parse_square(squares[0]), steps)
        self.pay(b, c, "swim", spec)
        self.moved(b, c, path, "swim")
        if "emerge" in cmd.args[1:]:
            b(E.SharkSurfaced(char=c.id, emerged=True))
        self.after_action(b)

    def blood_squares(self, s: FJState, c: Char, spec: dict[str, Any]) -> list[str]:
        """Blood in the Water: squares adjacent to a rival within 3, or to any knocked-down rival."""
        here = parse_square(c.square or "")
        occupied = R.on_map(s)
        g = R.geo(s)
        out: set[str] = set()
        for t in s.chars.values():
            if t.side == c.side or t.square is None:
                continue
            tp = parse_square(t.square)
            if not (R.within(here, tp, spec["range"]) or not t.standing):
                continue
            for n in neighbours(tp):
                if g.enterable(n) and n not in occupied and R.adjacent(s, c.side, n, tp):
                    out.add(square_name(n))
        return sorted(out)

    def do_blood_in_the_water(self, b: Builder, cmd: Cmd, rng: Rng) -> None:
        """Blood in the Water (3, might): place the Shark next to a rival; it may emerge."""
        c = self.active(b)
        spec = self.ability(b, c, "blood-in-the-water")
        require(cmd.args[0] in self.blood_squares(b.s, c, spec), "FJ-BLOOD", f"{cmd.args[0]} is not an empty square adjacent to a rival within " f"{spec['range']} squares or to a knocked-down rival")
        self.pay(b, c, "blood-in-the-water", spec)
        b(E.CharacterPlaced(char=c.id, square=cmd.args[0], why="blood-in-the-water"))
        if b.s.options.get("placing-is-moving", False):  # the house reading FJ-HOUSE-PLACING
            require(True, "FJ-HOUSE-PLACING", "")
            if c.emerged:  # Emerged: "If the Shark does an action that moves it, the Shark submerges."
                b(E.SharkSurfaced(char=c.id, emerged=False))
            for card in c.statuses:
                if card.startswith("barrel-"):  # Barrel: "Discard this card after ... does a move."
                    b(E.StatusDiscarded(card=card, char=c.id))
        if "emerge" in cmd.args[1:] and not b.s.chars[c.id].emerged:
            b(E.SharkSurfaced(char=c.id, emerged=True))
        self.after_action(b)

    def do_jaws(self, b: Builder, cmd: Cmd, rng: Rng) -> None:
        """Jaws! (3, might, challenge): challenge 5; you may place the target next to the Shark."""
        c = self.active(b)
        spec = self.ability(b, c, "jaws")
        R.check_not_submerged(c, "do Jaws!")
        t = R.check_challenge_target(b.s, c, cmd.args[0])
        harpoon = self.check_harpoon(b.s, c, cmd)
        self.pay(b, c, "jaws", spec)
        self.resolve_challenge(b, c, t, "jaws", spec["dice"], harpoon, rng)
        if b.s.phase == "over":
            return
        if b.s.chars[t.id].square is not None and self.jaws_squares(b.s):
            b(E.PhaseChanged(phase="jaws", side=c.side, char=t.id))
            return
        self.after_action(b)

    def jaws_squares(self, s: FJState) -> list[str]:
        shark = s.chars["shark"]
        here = parse_square(shark.square or "")
        occupied = R.on_map(s)
        g = R.geo(s)
        return [square_name(n) for n in neighbours(here)
                if g.enterable(n) and n not in occupied and R.adjacent(s, shark.side, here, n)]

    def do_put(self, b: Builder, cmd: Cmd, rng: Rng) -> None:
        """Jaws!: place the target in any square adjacent to the Shark."""
        require(cmd.args[0] in self.jaws_squares(b.s), "FJ-JAWS-PLACE", f"{cmd.args[0]} is not an empty square adjacent to the Shark")
        target = b.s.target or ""
        b(E.CharacterPlaced(char=target, square=cmd.args[0], why="jaws"))
        b(E.PhaseChanged(phase="act", side=b.s.turn_side, char=b.s.active))
        self.after_action(b)

    def do_leave(self, b: Builder, cmd: Cmd, rng: Rng) -> None:
        """Jaws!: placing the target is optional."""
        b(E.PhaseChanged(phase="act", side=b.s.turn_side, char=b.s.active))
        self.after_action(b)

    def do_farewell_and_adieu(self, b: Builder, cmd: Cmd, rng: Rng) -> None:
        """Farewell and Adieu (4, might, challenge): move up to 4 toward the Hunted rival, challenge 2."""
        c = self.active(b)
        spec = self.ability(b, c, "farewell-and-adieu")
        t = R.hunted_rival(b.s, c.side)
        require(not (t is None or t.square is None), "FJ-HUNTED-TARGET", "no rival with the Hunted status card is on the map")
        here, tp, dest = parse_square(c.square or ""), parse_square(t.square), parse_square(cmd.args[0])
        require(R.sees(b.s, c.side, here, tp), "FJ-TOWARD", f"{c.name} must see {t.name} to move toward it")
        path: tuple = ()
        if dest != here:
            path = R.check_move_destination(b.s, c, dest, R.move_allowance(c, spec["move"]), toward=tp)
        moved = msgspec.structs.replace(c, square=cmd.args[0])
        s2 = msgspec.structs.replace(b.s, chars={**b.s.chars, c.id: moved})
        require(R.adjacent(s2, c.side, dest, tp), "FJ-HUNTED-TARGET", f"from {cmd.args[0]} {c.name} would not be adjacent to {t.name}:" " the challenge would have no target")
        harpoon = self.check_harpoon(b.s, c, cmd)
        self.pay(b, c, "farewell-and-adieu", spec)
        self.moved(b, c, path, "farewell-and-adieu", toward=tp)
        self.resolve_challenge(b, b.s.chars[c.id], b.s.chars[t.id], "farewell-and-adieu", spec["dice"], harpoon, rng)
        self.after_action(b)

    def do_can_crusher(self, b: Builder, cmd: Cmd, rng: Rng) -> None:
        """Can Crusher (3, cunning, challenge): range 3, challenge 2, +1 die per status card of yours on the target."""
        c = self.active(b)
        spec = self.ability(b, c, "can-crusher")
        t = R.check_challenge_target(b.s, c, cmd.args[0], range_=spec["range"])
        harpoon = self.check_harpoon(b.s, c, cmd)
        self.pay(b, c, "can-crusher", spec)
        self.resolve_challenge(b, c, t, "can-crusher", spec["dice"], harpoon, rng, extra_per_status=True)
        self.after_action(b)

    def do_compare_scars(self, b: Builder, cmd: Cmd, rng: Rng) -> None:
        """Compare Scars (3, might, challenge): stand Quint up, then challenge 2; usable while knocked down."""
        c = self.active(b)
        spec = self.ability(b, c, "compare-scars")
        t = R.check_challenge_target(b.s, c, cmd.args[0])
        harpoon = self.check_harpoon(b.s, c, cmd)
        self.pay(b, c, "compare-scars", spec)
        if not c.standing:
            b(E.StoodUp(char=c.id, how="compare-scars"))
        self.resolve_challenge(b, b.s.chars[c.id], t, "compare-scars", spec["dice"], harpoon, rng)
        self.after_action(b)

    # -- challenges ------------------------------------------------------------------------

    def check_harpoon(self, s: FJState, c: Char, cmd: Cmd) -> bool:
        """Harpoon Gun: when its holder challenges a rival character, it may go on the 1."""
        if "harpoon" not in cmd.args[1:]:
            return False
        if not R.harpoon_available(s, c):
            why = ("does not hold a Harpoon Gun" if c.item != "harpoon-gun" else
                   "has its Harpoon Gun on the cooldown track or its Barrel card in play")
            raise RuleViolation("FJ-HARPOON", f"{c.name} {why}")
        return True

    def resolve_challenge(self, b: Builder, c: Char, t: Char, kind: str, dice: int, harpoon: bool,
                          rng: Rng, extra_per_status: bool = False) -> None:
        """Resolving a Challenge: both roll, more successes wins, ties to the defender."""
        if harpoon:
            b(E.ItemCooled(side=c.side, item="harpoon-gun", char=c.id, slot=1))
            b(E.StatusGiven(card=f"barrel-{c.side}", char=t.id, by=c.id))
            t = b.s.chars[t.id]
        extra = 0
        if extra_per_status:  # Can Crusher: one extra die per status card of yours on the target
            extra = R.status_cards_of(b.s, c.side, t)
            require(True, "FJ-CAN-CRUSHER", "")
        dice += extra
        self.check_manual_dice(rng, c, t, dice)
        b(E.ChallengeDeclared(challenger=c.id, target=t.id, kind=kind, dice=dice, defense=t.defense, extra=extra))
        att = b(rng.roll(["funkoverse"] * dice, purpose=f"{c.id} challenges ({kind})"))
        dfn = b(rng.roll(["funkoverse"] * t.defense, purpose=f"{t.id} defends"))
        cs = R.successes(b.content, "challenger", att.faces)  # type: ignore[attr-defined]
        ds = R.successes(b.content, "defender", dfn.faces)  # type: ignore[attr-defined]
        won = cs > ds
        require(True, "FJ-RESOLVE", "")
        result = "none"
        if won:
            result = "knocked-down" if (t.standing and t.id != "shark") else "knocked-out"
            if t.standing and t.id == "shark":
                require(True, "FJ-UNDERWATER-PREDATOR", "")
        b(E.ChallengeResolved(challenger=c.id, target=t.id, kind=kind, challenger_faces=att.faces,  # type: ignore[attr-defined]
                              defender_faces=dfn.faces, challenger_successes=cs,  # type: ignore[attr-defined]
                              defender_successes=ds, won=won, result=result))
        if result == "knocked-down":
            b(E.KnockedDown(char=t.id))
        elif result == "knocked-out":
            self.knock_out(b, t, c)

    def check_manual_dice(self, rng: Rng, c: Char, t: Char, dice: int) -> None:
        """With physical dice, ask for both rolls of a challenge at once, challenger first."""
        given = getattr(rng, "manual", None)
        if given is None:
            return
        left = len(given) - getattr(rng, "_used", 0)
        if left < dice + t.defense:
            example = " ".join(["star"] * dice + ["circle"] * t.defense)
            raise ManualDiceError(
                f"this challenge rolls {dice} dice for {c.name} and {t.defense} for {t.name}'s defense:"
                f" give all {dice + t.defense} faces in brackets, {c.name}'s first",
                hint=f"e.g. `... [{example}]` (faces: star, circle, crit)")

    def knock_out(self, b: Builder, t: Char, by: Char) -> None:
        """Knocked Out: off the map onto the 1 of the cooldown track; Hunted and points resolve."""
        b(E.KnockedOut(char=t.id, by=by.id))
        for card in t.statuses:
            if card.startswith("barrel-"):  # Barrel: discard after this character is knocked out
                b(E.StatusDiscarded(card=card, char=t.id))
        if by.id == "quint" and "hunted" in t.statuses:  # Hunted
            require(True, "FJ-HUNTED", "")
            cd = b.s.sides[by.side].cooldown
            toks = tuple(sorted(k.split(":")[1] for k in cd if k in ("token:cunning", "token:might")))
            b(E.HuntedShift(side=by.side, tokens=toks))
        if b.s.mode == "first-game":
            b(E.GameWon(side=by.side, reason=f"{by.name} knocked out {t.name} (first-game victory)"))
            return
        pts = b.content["scenarios"][b.s.mode].get("knockout_points", 1)
        b(E.PointsGained(side=by.side, points=pts, why=f"{by.name} knocked out {t.name}"))

    # -- Quint's trait ------------------------------------------------------------------------

    def veteran_targets(self, s: FJState) -> list[str]:
        q = s.chars["quint"]
        return [c.id for c in s.chars.values() if c.side != q.side and "hunted" not in c.statuses]

    def do_hunt(self, b: Builder, cmd: Cmd, rng: Rng) -> None:
        """Veteran Hunter: when Quint becomes exhausted, give or move Hunted to a rival character."""
        t = b.s.chars[cmd.args[0]]
        require(t.side != b.s.chars["quint"].side, "FJ-VETERAN", f"{t.name} is Quint's ally: the Hunted card goes to a rival character")
        require(t.id in self.veteran_targets(b.s), "FJ-VETERAN", f"{t.name} already has the Hunted card")
        b(E.StatusGiven(card="hunted", char=t.id, by="quint"))
        self.after_exhaust(b)

    def do_no_hunt(self, b: Builder, cmd: Cmd, rng: Rng) -> None:
        """Veteran Hunter is optional ("you may")."""
        self.after_exhaust(b)

    # -- ending a round -------------------------------------------------------------------------

    def round_end(self, b: Builder) -> None:
        """Ending a Round: (Flags returns), scoring, cooldown (first player first), refresh, new first player."""
        s = b.s
        if s.mode == "flags":
            for side in (s.first, other(s, s.first)):
                if R.flag_eligible(s, side):
                    b(E.PhaseChanged(phase="flags", side=side))
                    return
        self.finish_round(b)

    def do_return(self, b: Builder, cmd: Cmd, rng: Rng) -> None:
        """Flags: a standing character on or adjacent to the rival flag returns home for 2 points."""
        s = b.s
        side = s.turn_side
        require(cmd.args[0] in R.flag_eligible(s, side), "FJ-FLAGS", f"{cmd.args[0]} is not a standing {side} character on or adjacent to the rival flag")
        b(E.FlagReturned(char=cmd.args[0], side=side))
        pts = b.content["scenarios"]["flags"].get("flag_return_points", 2)
        b(E.PointsGained(side=side, points=pts, why=f"{s.chars[cmd.args[0]].name} returned from the rival flag"))
        if not R.flag_eligible(b.s, side):
            self.flags_next(b, side)

    def do_done(self, b: Builder, cmd: Cmd, rng: Rng) -> None:
        """Flags: returning is a choice ("you may")."""
        self.flags_next(b, b.s.turn_side)

    def flags_next(self, b: Builder, side: str) -> None:
        s = b.s
        if side == s.first and R.flag_eligible(s, other(s, side)):
            b(E.PhaseChanged(phase="flags", side=other(s, side)))
            return
        self.finish_round(b)

    def finish_round(self, b: Builder) -> None:
        s = b.s
        scen = b.content["scenarios"][s.mode]
        per_side = 2
        if s.mode == "control":
            shown = {side: sum(1 for v in s.control.values() if v[0] == side) for side in s.side_order}
            for side in s.side_order:
                if per_side >= scen.get("any_marker_point_min_chars", 3) and shown[side]:
                    b(E.PointsGained(side=side, points=1, why="a control marker shows your colour"))
            a, d = s.side_order
            if shown[a] != shown[d]:
                best = a if shown[a] > shown[d] else d
                b(E.PointsGained(side=best, points=1, why="most control markers"))
        if s.mode != "first-game":
            if self.check_scenario_win(b, scen.get("win", {}).get(str(per_side), 6)):
                return
        first = b.s.first
        for side in (first, other(b.s, first)):  # Cooldown: the first player shifts first
            cd = b.s.sides[side].cooldown
            back = tuple(sorted(k for k, v in cd.items() if v <= 1))
            b(E.CooldownShifted(side=side, returned=back))
        b(E.RoundEnded(round=s.round, first=other(b.s, first)))
        limit = s.options.get("round-limit", 0)
        if limit and s.round >= limit:
            self.round_limit_reached(b, limit)
            return
        if b.s.pending_place:
            b(E.PhaseChanged(phase="place", side=b.s.chars[b.s.pending_place[0]].side))
        else:
            b(E.PhaseChanged(phase="choose", side=b.s.first))

    def round_limit_reached(self, b: Builder, limit: int) -> None:
        """House rule FJ-HOUSE-ROUND-LIMIT: after the last allowed round the game stops; in a
        scenario the side with more points wins (level points: a draw); a first game with
        no rival knocked out is a draw."""
        require(True, "FJ-HOUSE-ROUND-LIMIT", "")
        pts = {side: b.s.sides[side].points for side in b.s.side_order}
        a, d = b.s.side_order
        if b.s.mode == "first-game":
            b(E.GameDrawn(reason=f"house round limit: {limit} rounds played and no rival knocked out (option round-limit)"))
        elif pts[a] != pts[d]:
            win = a if pts[a] > pts[d] else d
            b(E.GameWon(side=win, reason=f"house round limit: {limit} rounds played, {win} leads "
                                         f"{max(pts.values())}-{min(pts.values())} on points (option round-limit)"))
        else:
            b(E.GameDrawn(reason=f"house round limit: {limit} rounds played, points level at {pts[a]} (option round-limit)"))

    def check_scenario_win(self, b: Builder, target: int) -> bool:
        """Winning a Scenario: at the end of a round, reach the target with more points; ties play on."""
        pts = {side: b.s.sides[side].points for side in b.s.side_order}
        a, d = b.s.side_order
        best = max(pts.values())
        if best >= target and pts[a] != pts[d]:
            win = a if pts[a] > pts[d] else d
            b(E.GameWon(side=win, reason=f"{pts[win]} points at the end of round {b.s.round} (target {target})"))
            return True
        return False

    # -- legal commands ---------------------------------------------------------------------

    def legal_commands(self, state: FJState, seat: str) -> list[Cmd]:
        if seat not in self.projection.to_act(state).seats:
            return []
        p = state.phase
        out: list[Cmd] = []
        if p == "place":
            side = state.chars[state.pending_place[0]].side
            sqs = R.placement_squares(state, side)
            return [Cmd("place", (c, sq)) for c in state.pending_place if state.chars[c].side == side for sq in sqs]
        if p == "choose":
            return [Cmd("choose", (c.id,)) for c in state.chars.values() if c.side == state.turn_side and not c.exhausted]
        if p == "jaws":
            return [Cmd("put", (sq,)) for sq in self.jaws_squares(state)] + [Cmd("leave")]
        if p == "veteran":
            return [Cmd("hunt", (c,)) for c in self.veteran_targets(state)] + [Cmd("no-hunt")]
        if p == "flags":
            return [Cmd("return", (c,)) for c in R.flag_eligible(state, state.turn_side)] + [Cmd("done")]
        if p != "act":
            return []
        content = state.content
        c = state.chars[state.active or ""]
        out.append(Cmd("end"))
        left = state.actions_left
        here = parse_square(c.square) if c.square else None
        if here is None or left < 1:
            return out
        pool = state.sides[c.side].pool
        rivals = [t for t in state.chars.values() if t.side != c.side and t.square is not None]
        hp = R.harpoon_available(state, c)

        def with_harpoon(verb: str, first: str) -> list[Cmd]:
            return [Cmd(verb, (first,))] + ([Cmd(verb, (first, "harpoon"))] if hp else [])

        abil = content["characters"][c.id].get("abilities", {})
        if not c.standing:
            if left >= 2:
                out.append(Cmd("rally"))
            if "compare-scars" in abil and abil["compare-scars"]["type"] in pool:
                for t in rivals:
                    if R.adjacent(state, c.side, here, parse_square(t.square or "")):
                        out += with_harpoon("compare-scars", t.id)
            return out
        by_move = R.reachable(state, c, R.move_allowance(c, 2))
        for sq in sorted(by_move):
            out.append(Cmd("move", (square_name(sq),)))
        if c.emerged is not False:
            adj_rivals = [t for t in rivals if R.adjacent(state, c.side, here, parse_square(t.square or ""))]
            for t in adj_rivals:
                out += with_harpoon("challenge", t.id)
            for a in state.chars.values():
                if a.side == c.side and a.id != c.id and a.square and not a.standing and \
                        R.adjacent(state, c.side, here, parse_square(a.square)):
                    out.append(Cmd("assist", (a.id,)))
            if state.mode != "first-game":
                for letter, sq in sorted(state.point_markers.items()):
                    if sq and (parse_square(sq) == here or R.adjacent(state, c.side, here, parse_square(sq))):
                        out.append(Cmd("interact", (letter,)))
                if state.mode == "control":
                    for area, sqs in state.board.control_areas.items():
                        if c.square in sqs and area not in state.control:
                            out += [Cmd("interact", ("mark", sq)) for sq in sqs]
                    for area, (_side, sq) in state.control.items():
                        if parse_square(sq) == here or R.adjacent(state, c.side, here, parse_square(sq)):
                            out.append(Cmd("interact", ("flip", area)))
        else:
            out.append(Cmd("emerge"))
        for aid, spec in abil.items():
            if spec["type"] not in pool:
                continue
            if aid == "swim":
                for sq in sorted(R.reachable(state, c, R.move_allowance(c, spec["move"]))):
                    if sq not in by_move:  # a plain Swim to where a basic move goes only spends a token
                        out.append(Cmd("swim", (square_name(sq),)))
                    out.append(Cmd("swim", (square_name(sq), "emerge")))
            elif aid == "blood-in-the-water":
                for sq in self.blood_squares(state, c, spec):
                    resurface = not c.emerged or state.options.get("placing-is-moving", False)
                    out += [Cmd("blood-in-the-water", (sq,))] + ([Cmd("blood-in-the-water", (sq, "emerge"))] if resurface else [])
            elif aid == "jaws" and c.emerged:
                for t in rivals:
                    if R.adjacent(state, c.side, here, parse_square(t.square or "")):
                        out += with_harpoon("jaws", t.id)
            elif aid == "can-crusher":
                for t in rivals:
                    tp = parse_square(t.square or "")
                    if R.within(here, tp, spec["range"]) and R.sees(state, c.side, here, tp):
                        out += with_harpoon("can-crusher", t.id)
            elif aid == "compare-scars":
                for t in rivals:
                    if R.adjacent(state, c.side, here, parse_square(t.square or "")):
                        out += with_harpoon("compare-scars", t.id)
            elif aid == "farewell-and-adieu":
                t = R.hunted_rival(state, c.side)
                if t is None or t.square is None:
                    continue
                tp = parse_square(t.square)
                if not R.sees(state, c.side, here, tp):
                    continue
                dests = [here] + sorted(R.reachable(state, c, R.move_allowance(c, spec["move"]), toward=tp))
                for d in dests:
                    moved = msgspec.structs.replace(c, square=square_name(d))
                    s2 = msgspec.structs.replace(state, chars={**state.chars, c.id: moved})
                    if R.adjacent(s2, c.side, d, tp):
                        out += with_harpoon("farewell-and-adieu", square_name(d))
        return sorted(out, key=self.menu_order)

    MENU = {"challenge": 0, "jaws": 0, "can-crusher": 0, "compare-scars": 0, "farewell-and-adieu": 0,
            "assist": 1, "interact": 1, "emerge": 1, "rally": 1, "end": 2, "move": 3,
            "swim": 4, "blood-in-the-water": 5}

    def menu_order(self, cmd: Cmd) -> tuple[int, int]:
        """`arbiter play` numbers the first 30: challenges and other targeted actions, then end,
        then moves, Swims beyond a basic move, Blood in the Water; variants that emerge last."""
        return self.MENU.get(cmd.verb, 9), int("emerge" in cmd.args)

    def summary(self, state: FJState) -> dict[str, Any]:
        return {"rounds": state.round, **{f"{s}_points": v.points for s, v in state.sides.items()}}


GAME = FunkoverseJaws()
