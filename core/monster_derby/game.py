"""Monster Derby's Game object and decider (the command forms are in commands.py): a turn
is ``roll``, then ``take-marker`` or ``control <monster>``, then steps (``move``, ``fly``,
``attack``, ``recover``, ``call``, ``copy``) and ``end``; a curse that strikes waits for the
player's ``curse`` way back before the attack goes on."""

from __future__ import annotations

import re
from typing import Any

from arbiter.core.dice import Rng
from arbiter.core.errors import BadContent, ManualDiceError, ParseError, RuleViolation, require
from arbiter.core.game import Game, Option, Traits
from arbiter.core.monster_derby import rules as R
from arbiter.core.monster_derby.bots import agenda_bot
from arbiter.core.monster_derby.board import FINISH, LANES, Pos, along, name, parse_space
from arbiter.core.monster_derby.commands import (
    Attack, Call, ControlMonster, Copy, Curse, End, Fly, Keep, Move, Recover, Roll, TakeMarker,
)
from arbiter.events.base import Event, GameCreated
from arbiter.events.monster_derby import (
    AbilityCopied, AgendaKept, AgendasDealt, EffectSpent, MarkerTaken, MonsterControlled,
    MonsterFinished, MonsterMoved, MonsterPlaced, MovementRolled, Recovered, RoundBegan,
    StartingPlayerChosen, TrackLaid, ControlEnded,
)
from arbiter.projections.monster_derby import MDState, MonsterDerbyProjection

WACKY_FACES = ("sword", "shield", "both", "blank")
_WACKY = re.compile(r"^\d-\d-\d-\d$")
SPECIALS = {"none", "flies", "double_move", "attack_360", "attack_again", "attack_dice_hp", "blast",
            "brushwalker", "call", "charge", "copy", "counter_strike", "minus_one", "plus_one", "half_damage"}
WACKY_ATTACKS = {"none", "plus_one", "rage", "poison", "webs", "curse", "stun", "attack_again"}
WACKY_DEFENSES = {"none", "minus_one", "half_damage", "dodge", "stun", "counter_strike"}
TERRAINS = {"path", "rock", "brush", "water", "desert", "impassable"}


def starting_blocks(start: dict[str, Any], lanes: int) -> list[str]:
    """The 8 numbered starting blocks; with narrower lanes (option lanes) the blocks that no
    longer fit move to the free spaces of the starting board, front column first."""
    blocks = [b for b in start["blocks"] if (parse_space(b) or (0, 99))[1] < lanes]
    cols = len(start["rows"][0])
    free = [name((c, lane)) for c in range(cols - 1, -1, -1) for lane in range(lanes)
            if name((c, lane)) not in blocks]
    return (blocks + free)[:8]


# the checks each accepted command passed (listed by `arbiter why`)
PASSED: dict[str, tuple[str, ...]] = {
    "Keep": ("MD-AGENDA-KEEP",),
    "Roll": ("MD-ROLL-FIRST",),
    "TakeMarker": ("MD-ROLL-FIRST", "MD-CONTROL-ONE", "MD-MARKER-CLAIMED"),
    "ControlMonster": ("MD-ROLL-FIRST", "MD-CONTROL-ONE", "MD-CONTROL-RACING", "MD-CONTROL-ONCE",
                       "MD-RED-RECOVER", "MD-RED-NO-MOVE"),
    "Move": ("MD-CONTROL-FIRST", "MD-STUNNED", "MD-RED-NO-MOVE", "MD-FLY-MUST", "MD-MOVE-AHEAD",
             "MD-MOVE-IMPASSABLE", "MD-MOVE-BLOCKED", "MD-MOVE-POINTS"),
    "Fly": ("MD-CONTROL-FIRST", "MD-STUNNED", "MD-RED-NO-MOVE", "MD-FLY-ONLY", "MD-FLY-ONCE",
            "MD-FLY-LAND", "MD-FLY-SPEND", "MD-FLY-STOPOVER"),
    "Attack": ("MD-CONTROL-FIRST", "MD-STUNNED", "MD-RED-RECOVER", "MD-ACTION-ONE", "MD-ATTACK-FRONT",
               "MD-ATTACK-DICE", "MD-WACKY", "MD-DAMAGE-ORDER"),
    "Recover": ("MD-CONTROL-FIRST", "MD-ACTION-ONE", "MD-RECOVER"),
    "Call": ("MD-CONTROL-FIRST", "MD-ABILITY-CALL"),
    "Copy": ("MD-CONTROL-FIRST", "MD-HOUSE-COPY"),
    "Curse": ("MD-CURSE-PATH",),
    "End": ("MD-CONTROL-FIRST", "MD-MOVE-ALL", "MD-FLY-MUST", "MD-FLY-STOPOVER"),
}


def _menu_order(space: str) -> tuple[int, int]:
    """Destinations furthest along first (the finish line before any space)."""
    if space == FINISH:
        return (-10_000, 0)
    p = parse_space(space)
    assert p is not None
    return (-(2 * p[0] + p[1] % 2), p[1])


def agenda_points(card: dict[str, Any]) -> dict[str, tuple[int, ...]]:
    """A race card's points per colour for finishing 1st, 2nd and 3rd (one number: any place)."""
    return {c: (tuple(v) if isinstance(v, list) else (v, v, v)) for c, v in card["points"].items()}


class MonsterDerby(Game[MDState, Any]):
    id = "monster-derby"
    traits = Traits(hidden_information=True, simultaneous=True, dice=True, shuffles=True)
    short = "md"
    title = "Monster Derby"
    rules_version = "1"
    projection = MonsterDerbyProjection()
    min_seats = 2
    max_seats = 8
    options = (
        Option(name="boards", default=4, minimum=1, maximum=8, house=False, rule="MD-SETUP-BOARDS",
               doc="map boards after the starting board (fewer: shorter game, more: longer)"),
        Option(name="layout", default="random", rule="MD-HOUSE-LAYOUT",
               doc="'random' (boards and sides shuffled) or a list of board sides such as 1a,4b,2a,7b"),
        Option(name="wacky_die", default="2-2-1-1", rule="MD-HOUSE-WACKY",
               doc="faces of the wacky die: sword-shield-both-blank counts (six faces in all)"),
        Option(name="lanes", default=5, minimum=4, maximum=len(LANES), rule="MD-HOUSE-LANES",
               doc="lane width: how many lanes of the boards are used (the house boards have 5)"),
        Option(name="graves_block", default=False, rule="MD-HOUSE-GRAVES",
               doc="whether a grave marker blocks its space like a monster"),
        Option(name="tie_break", default="card", choices=("card", "best"), rule="MD-HOUSE-TIE-BREAK",
               doc="a tied player's 'first place monster': 'card' (the colour listed first on the agenda,"
                   " then the second) or 'best' (the best placed of the agenda's colours, then the next)"),
        Option(name="curse_terrain", default="free", choices=("free", "costs"), rule="MD-HOUSE-CURSE-TERRAIN",
               doc="a cursed monster's way back: 'free' (3 spaces whatever the terrain) or 'costs'"
                   " (at most 3 spaces, paying its walking costs out of 3 movement points)"),
        Option(name="curse_chooser", default="curser", choices=("curser", "straight"), rule="MD-HOUSE-CURSE-CHOOSER",
               doc="who picks a cursed monster's way back: 'curser' (the player controlling the cursing"
                   " monster) or 'straight' (nobody: straight back where it can, else towards lane a)"),
        Option(name="call_range", default=3, minimum=1, maximum=6, house=False, rule="MD-ABILITY-CALL",
               doc="how many spaces away Call reaches (the rulebook says 3)"),
    )
    syntax = (
        "\n  keep AGENDA          keep one of your 3 agenda cards (secret), e.g. keep agenda-07",
        "\n  roll                 roll the movement die first (with physical dice: roll 4)",
        "\n  take-marker          take the Starting Player Marker instead of controlling a monster",
        "\n  control MONSTER      control a monster not turned yet this round, e.g. control giant",
        "\n  move SPACE ...       walk ahead, e.g. move 4c or move 4c 5d 6d (move 11c finish crosses)",
        "\n  fly SPACE|finish     a flyer flies and lands, e.g. fly 7c (it lands short only to attack)",
        "\n  attack MONSTER       attack a monster in front, e.g. attack golem",
        "\n  attack MONSTER [..]  physical dice: attack dice, then wacky die: attack golem [1 0 1 sword]",
        "\n                       (any counter-strike's dice follow in the brackets; you are told how many)",
        "\n  recover              recover 1 hit point instead of attacking (automatic if you do not attack)",
        "\n  call MONSTER SPACE   the Siren's Call: bring a monster next to her, e.g. call giant 5c",
        "\n  curse SPACE ...      walk a cursed monster back 3 spaces, e.g. curse 4c 3c 2c (or: curse 2c)",
        "\n  copy MONSTER         the Doppelganger copies a neighbour's ability, e.g. copy griffin",
        "\n  end                  end the monster's turn once its movement points are spent",
    )
    short_syntax = ("keep AGENDA", "roll", "take-marker", "control MONSTER", "move SPACE [SPACE ...]",
                    "fly SPACE|finish", "attack MONSTER", "recover", "call MONSTER SPACE",
                    "curse SPACE [SPACE SPACE]", "copy MONSTER", "end")

    def __init__(self) -> None:
        super().__init__()
        self.bots = {"agenda": agenda_bot}

    # -- content and options -----------------------------------------------------------

    def dice(self, created: GameCreated) -> dict[str, tuple[str, ...]]:
        """The movement die, attack dice (content) and the wacky die (option), plus a
        "seat" die naming the players, used to choose the starting player at random."""
        dice = super().dice(created)
        counts = [int(x) for x in str(created.options.get("wacky_die", "2-2-1-1")).split("-")]
        dice["wacky"] = tuple(f for f, k in zip(WACKY_FACES, counts) for _ in range(k))
        dice["seat"] = tuple(created.seats)
        return dice

    def resolve_options(self, given: Any) -> dict[str, Any]:
        from arbiter.core.errors import BadOption

        out = super().resolve_options(given)
        w = out["wacky_die"]
        if not _WACKY.match(w) or sum(int(x) for x in w.split("-")) != 6:
            raise BadOption("option wacky_die takes four counts that add up to 6, as sword-shield-both-blank (e.g. 2-2-1-1)")
        lay = out["layout"]
        if lay != "random":
            sides = [s.strip() for s in lay.split(",") if s.strip()]
            if len(sides) != out["boards"]:
                raise BadOption(f"option layout lists {len(sides)} board sides but boards={out['boards']}")
            for s in sides:
                if not re.match(r"^[1-9]\d*[ab]$", s):
                    raise BadOption(f"option layout: {s!r} is not a board side such as 3a or 5b")
            if len({s[:-1] for s in sides}) != len(sides):
                raise BadOption("option layout uses a board twice (each board has two sides; use one)")
        return out

    def check_content(self, content: dict[str, Any]) -> None:
        super().check_content(content)
        for key in ("boards", "monsters", "agendas", "start_board", "terrain"):
            if key not in content:
                raise BadContent(f"monster-derby content needs a {key!r} entry")
        lanes = content.get("lanes", 5)
        if not isinstance(lanes, int) or not 2 <= lanes <= len(LANES):
            raise BadContent(f"lanes must be a whole number from 2 to {len(LANES)}")
        terrain = content["terrain"]
        if set(terrain.values()) - TERRAINS:
            raise BadContent(f"unknown terrain in 'terrain': {sorted(set(terrain.values()) - TERRAINS)}")
        start = content["start_board"]
        boards = [start["rows"]] + [side for b in content["boards"] for side in b["sides"].values()]
        for rows in boards:
            if len(rows) != lanes or len({len(x) for x in rows}) != 1:
                raise BadContent(f"every board needs {lanes} lanes of equal length")
            for row in rows:
                bad = set(row) - set(terrain)
                if bad:
                    raise BadContent(f"board row {row!r} uses unknown terrain letters {sorted(bad)}")
        if len(start.get("blocks", [])) != 8:
            raise BadContent("the starting board needs 8 numbered starting blocks")
        for blk in start["blocks"]:
            p = parse_space(blk)
            if p is None or p[1] >= lanes or p[0] >= len(start["rows"][0]):
                raise BadContent(f"starting block {blk!r} is not a space of the starting board")
        mons = content["monsters"]
        if len(mons) < 8:
            raise BadContent("at least 8 monster cards are needed (8 are turned up)")
        ids = [m.get("id") for m in mons]
        if len(set(ids)) != len(ids):
            raise BadContent("monster ids must differ")
        for m in mons:
            for f in ("id", "name", "hp", "attack", "natives", "ability", "wacky_attack", "wacky_defense"):
                if f not in m:
                    raise BadContent(f"monster {m.get('id', '?')!r} lacks {f!r}")
            if not re.match(r"^[a-z][a-z0-9-]*$", m["id"]):
                raise BadContent(f"monster id {m['id']!r} must be lower-case letters, digits or -")
            if not (isinstance(m["hp"], int) and 1 <= m["hp"] <= 30):
                raise BadContent(f"monster {m['id']!r}: hp must be 1 to 30")
            if not (isinstance(m["attack"], int) and 0 <= m["attack"] <= 20):
                raise BadContent(f"monster {m['id']!r}: attack must be 0 to 20 dice")
            natives = m["natives"]
            if not isinstance(natives, list) or set(natives) - (TERRAINS - {"path", "impassable"} | {"all"}):
                raise BadContent(f"monster {m['id']!r}: natives must list rock, brush, water, desert (or all)")
            if m["ability"] not in SPECIALS:
                raise BadContent(f"monster {m['id']!r}: unknown ability {m['ability']!r} (known: {', '.join(sorted(SPECIALS))})")
            if m["wacky_attack"] not in WACKY_ATTACKS:
                raise BadContent(f"monster {m['id']!r}: unknown wacky attack {m['wacky_attack']!r}")
            if m["wacky_defense"] not in WACKY_DEFENSES:
                raise BadContent(f"monster {m['id']!r}: unknown wacky defense {m['wacky_defense']!r}")
        colours = content.get("colours", [])
        if len(colours) != 8:
            raise BadContent("8 stand colours are needed")
        ags = content["agendas"]
        if len(ags) < 6:
            raise BadContent("at least 6 agenda cards are needed")
        for a in ags:
            if not re.match(r"^agenda-[a-z0-9-]+$", str(a.get("id", ""))):
                raise BadContent(f"agenda id {a.get('id')!r} must look like agenda-07")
            if not isinstance(a.get("points"), dict) or set(a["points"]) - set(colours):
                raise BadContent(f"agenda {a['id']}: points for unknown colours")
            for v in a["points"].values():
                if not (isinstance(v, int) or (isinstance(v, list) and len(v) == 3 and all(isinstance(x, int) for x in v))):
                    raise BadContent(f"agenda {a['id']}: points are a number, or three numbers for 1st, 2nd and 3rd place")

    def check_seats(self, seats: Any) -> None:
        super().check_seats(seats)

    # -- setup -------------------------------------------------------------------------

    def setup(self, created: GameCreated, rng: Rng) -> list[Event]:
        """Setup: lay the boards, turn up 8 monsters, deal 3 agendas each, random starter."""
        content, opts = created.content, created.options
        events: list[Event] = []
        boards = {b["id"]: b for b in content["boards"]}
        if opts["layout"] == "random":
            sh = rng.shuffle("boards", [f"{b}{s}" for b in boards for s in boards[b]["sides"]])
            events.append(sh)
            layout: list[str] = []
            for side in sh.order:
                if side[:-1] not in {x[:-1] for x in layout}:
                    layout.append(side)
            layout = layout[: opts["boards"]]
        else:
            layout = [s.strip() for s in opts["layout"].split(",")]
        if len(layout) < opts["boards"]:
            raise BadContent(f"the content has only {len(layout)} boards; boards={opts['boards']}")
        rows = list(content["start_board"]["rows"])
        for side in layout:
            b = boards.get(side[:-1])
            if b is None or side[-1] not in b["sides"]:
                raise BadContent(f"the content has no board side {side}")
            rows = [a + s for a, s in zip(rows, b["sides"][side[-1]])]
        lanes = opts.get("lanes", len(rows))
        if lanes > len(rows):
            raise BadContent(f"the boards are {len(rows)} lanes wide; option lanes={lanes} needs wider boards")
        rows = rows[:lanes]
        blocks = starting_blocks(content["start_board"], lanes)
        events.append(TrackLaid(layout=tuple(layout), rows=tuple(rows)))
        deck = rng.shuffle("monsters", [m["id"] for m in content["monsters"]])
        cards = {m["id"]: m for m in content["monsters"]}
        events.append(deck)
        for i, mid in enumerate(deck.order[:8]):
            m = cards[mid]
            events.append(MonsterPlaced(
                monster=mid, name=m["name"], colour=content["colours"][i],
                space=blocks[i], hp=m["hp"], attack=m["attack"],
                natives=tuple(m["natives"]), ability=m["ability"], wacky_attack=m["wacky_attack"],
                wacky_defense=m["wacky_defense"]))
        ags = {a["id"]: a for a in content["agendas"]}
        if len(ags) < 3 * len(created.seats):
            raise BadContent(f"{len(ags)} agendas are too few to deal 3 to {len(created.seats)} players")
        adeck = rng.shuffle("agendas", list(ags))
        events.append(adeck)
        for i, seat in enumerate(created.seats):
            hand = adeck.order[3 * i: 3 * i + 3]
            events.append(AgendasDealt(seat=seat, cards=hand,
                                       points=tuple(agenda_points(ags[c]) for c in hand)))
        roll = rng.roll(["seat"], purpose="starting player")
        events += [roll, StartingPlayerChosen(seat=roll.faces[0])]
        return events

    # -- text --------------------------------------------------------------------------

    def parse(self, state: MDState, seat: str, text: str) -> Any:
        words = text.lower().split()
        hint = "; ".join(self.short_syntax)
        if not words:
            raise ParseError("empty command", hint=hint)
        verb, args = words[0], words[1:]

        def monster(word: str) -> str:
            if word not in state.deck:
                raise ParseError(f"there is no monster called {word!r}",
                                 hint="monsters in this race: " + ", ".join(state.order))
            return word

        def space(word: str, finish_ok: bool) -> str:
            if word == FINISH and finish_ok:
                return word
            p = parse_space(word)
            if p is None or p[1] >= state.lanes or not 0 <= p[0] < max(state.columns, 1):
                raise ParseError(f"{word!r} is not a space of this track",
                                 hint=f"spaces are column 1-{state.columns} and lane a-{LANES[state.lanes - 1]}, e.g. 3b"
                                 + ("; 'finish' crosses the line" if finish_ok else ""))
            return word

        def arity(n: int, form: str) -> None:
            if len(args) != n:
                raise ParseError(f"{verb} takes {n} argument{'s' if n != 1 else ''}", hint=form)

        if verb == "keep":
            arity(1, "keep agenda-07")
            if not re.match(r"^agenda-[a-z0-9-]+$", args[0]):
                raise ParseError(f"{args[0]!r} is not an agenda card", hint="keep agenda-07")
            return Keep(args[0])
        if verb == "roll":
            arity(0, "roll")
            return Roll()
        if verb in ("take-marker", "take"):
            if verb == "take" and args != ["marker"]:
                raise ParseError("did you mean take-marker?", hint="take-marker")
            if verb == "take-marker":
                arity(0, "take-marker")
            return TakeMarker()
        if verb == "control":
            arity(1, "control giant")
            return ControlMonster(monster(args[0]))
        if verb == "move":
            if not args:
                raise ParseError("move needs at least one space", hint="move 4c 5c")
            return Move(tuple(space(a, True) for a in args))
        if verb == "fly":
            arity(1, "fly 7c  (or: fly finish)")
            return Fly(space(args[0], True))
        if verb == "attack":
            arity(1, "attack golem")
            return Attack(monster(args[0]))
        if verb == "recover":
            arity(0, "recover")
            return Recover()
        if verb == "call":
            arity(2, "call giant 5c")
            return Call(monster(args[0]), space(args[1], False))
        if verb == "curse":
            if not 1 <= len(args) <= 3:
                raise ParseError("curse takes the cursed monster's way back: 1 to 3 spaces", hint="curse 4c 3c 2c  (or just the last space: curse 2c)")
            return Curse(tuple(space(a, False) for a in args))
        if verb == "copy":
            arity(1, "copy griffin")
            return Copy(monster(args[0]))
        if verb == "end":
            arity(0, "end")
            return End()
        raise ParseError(f"{verb!r} is not a Monster Derby command", hint=hint)

    def command_text(self, c: Any) -> str:
        if isinstance(c, Keep):
            return f"keep {c.agenda}"
        if isinstance(c, Roll):
            return "roll"
        if isinstance(c, TakeMarker):
            return "take-marker"
        if isinstance(c, ControlMonster):
            return f"control {c.monster}"
        if isinstance(c, Move):
            return "move " + " ".join(c.spaces)
        if isinstance(c, Fly):
            return f"fly {c.space}"
        if isinstance(c, Attack):
            return f"attack {c.monster}"
        if isinstance(c, Recover):
            return "recover"
        if isinstance(c, Call):
            return f"call {c.monster} {c.space}"
        if isinstance(c, Copy):
            return f"copy {c.monster}"
        if isinstance(c, Curse):
            return "curse " + " ".join(c.spaces)
        return "end"

    def manual_faces(self, text: str) -> tuple[str, list[str]] | None:
        m = re.match(r"^roll\s+(\d)$", text.strip().lower())
        if m:
            return "roll", [m.group(1)]
        return None

    # -- deciding ----------------------------------------------------------------------

    def decide(self, state: MDState, seat: str, command: Any, rng: Rng) -> list[Event]:
        events = self._decide(state, seat, command, rng)
        for rule_id in PASSED.get(type(command).__name__, ()):  # for `arbiter why`
            require(True, rule_id, "")
        return events

    def _decide(self, state: MDState, seat: str, command: Any, rng: Rng) -> list[Event]:
        em = R.Emitter(state)
        if isinstance(command, Keep):
            self._keep(em, seat, command)
            return em.events
        if state.phase != "play":
            raise RuleViolation("MD-AGENDA-KEEP", "every player first keeps one of their three agenda cards")
        if isinstance(command, Roll):
            self._roll(em, seat, rng)
        elif isinstance(command, TakeMarker):
            self._take_marker(em, seat)
        elif isinstance(command, ControlMonster):
            self._control(em, seat, command.monster)
        else:
            c, m = R.require_control(state, seat)
            if state.curse is not None and not isinstance(command, Curse):
                cm = state.monsters[state.curse.monster]
                raise RuleViolation("MD-CURSE-PATH", f"first walk the cursed {cm.name} back 3 spaces from {cm.space}"
                                    f" (e.g. curse {' '.join(next(iter(R.curse_destinations(state, cm).values())))})")
            if isinstance(command, Curse):
                self._curse(em, rng, command.spaces)
            elif isinstance(command, Move):
                self._move(em, command.spaces)
            elif isinstance(command, Fly):
                self._fly(em, command.space)
            elif isinstance(command, Attack):
                self._attack(em, rng, command.monster)
            elif isinstance(command, Recover):
                self._recover(em)
            elif isinstance(command, Call):
                self._call(em, command.monster, command.space)
            elif isinstance(command, Copy):
                self._copy(em, command.monster)
            elif isinstance(command, End):
                self._end(em)
                return em.events
            self._auto_end(em)
        return em.events

    def _keep(self, em: R.Emitter, seat: str, cmd: Keep) -> None:
        """Each player selects one agenda card to keep and discards the rest (Setup)."""
        st = em.state
        if st.phase != "agendas":
            raise RuleViolation("MD-AGENDA-KEEP", "agendas were chosen at the start of the game")
        if seat in st.kept:
            raise RuleViolation("MD-AGENDA-KEEP", f"{seat} already kept an agenda")
        hand = st.dealt.get(seat, ())
        if cmd.agenda not in hand:
            raise RuleViolation("MD-AGENDA-KEEP", f"{cmd.agenda} is not one of the agenda cards dealt to {seat}")
        i = hand.index(cmd.agenda)
        em.emit(AgendaKept(seat=seat, agenda=cmd.agenda, discarded=tuple(c for c in hand if c != cmd.agenda),
                           points=dict(st.dealt_points[seat][i])))
        if all(s in em.state.kept for s in st.seats):
            em.emit(RoundBegan(round=1, starter=st.starter))

    def _roll(self, em: R.Emitter, seat: str, rng: Rng) -> None:
        """On Your Turn: roll the movement die (once)."""
        if em.state.die:
            raise RuleViolation("MD-ROLL-FIRST", f"{seat} already rolled {em.state.die} this turn")
        try:
            ev = rng.roll(["move"], purpose="movement")
        except ManualDiceError:
            raise ManualDiceError("roll the physical movement die and type what it shows",
                                  hint="roll 4  (or: roll [4]); the movement die shows 1 to 6") from None
        em.emit(ev, MovementRolled(seat=seat, value=int(ev.faces[0])))

    def _need_roll(self, em: R.Emitter) -> None:
        if em.state.control is not None:
            raise RuleViolation("MD-CONTROL-ONE", f"{em.state.current} is already controlling the {em.state.control.monster}")
        if not em.state.die:
            raise RuleViolation("MD-ROLL-FIRST", "roll the movement die first")

    def _take_marker(self, em: R.Emitter, seat: str) -> None:
        """Take the Starting Player Marker (if still unclaimed) instead of controlling a monster."""
        self._need_roll(em)
        if em.state.marker != "available":
            raise RuleViolation("MD-MARKER-CLAIMED", f"the Starting Player Marker was already taken this round by {em.state.marker_taker}")
        em.emit(MarkerTaken(seat=seat))
        R.pass_turn(em)

    def _control(self, em: R.Emitter, seat: str, mid: str) -> None:
        """Control a Monster: one not controlled yet this round; below 5 HP it must recover,
        and if still red it neither moves nor uses its ability; else it gets the die's points."""
        self._need_roll(em)
        st = em.state
        m = st.monsters.get(mid)
        if m is None or m.status != "racing":
            why = "is not in this race" if m is None else ("has finished" if m.status == "finished" else "is dead")
            left = [x.id for x in st.racing() if not x.turned]
            raise RuleViolation("MD-CONTROL-RACING", f"the {mid} {why}; monsters you may control: {', '.join(left)}")
        if m.turned:
            raise RuleViolation("MD-CONTROL-ONCE", f"the {m.name} was already controlled this round")
        hp = m.hp - (1 if "poison" in m.effects else 0)
        forced = 0 < hp <= R.RED_ZONE
        after = min(m.max_hp, hp + 1) if forced else hp
        can_move = after > R.RED_ZONE
        points = st.die * (2 if m.ability == "double_move" and can_move else 1)
        if "webs" in m.effects:
            points //= 2
        em.emit(MonsterControlled(seat=seat, monster=mid, points=points if can_move else 0,
                                  can_move=can_move, can_attack=not forced))
        if "poison" in m.effects:
            em.emit(EffectSpent(monster=mid, effect="poison"))
            R.apply_damage(em, em.state.monsters[mid], 1, "poison")
            if em.state.monsters[mid].status != "racing":
                em.emit(ControlEnded(monster=mid, reason="killed by poison"))
                R.pass_turn(em)
                return
        if "webs" in m.effects:
            em.emit(EffectSpent(monster=mid, effect="webs"))
        if forced:
            em.emit(Recovered(monster=mid, hp=after, forced=True))
        if not can_move:
            em.emit(ControlEnded(monster=mid, reason="unconscious: still in the red zone"))
            R.pass_turn(em)
            return
        self._auto_end(em)

    def _finish(self, em: R.Emitter, mid: str) -> None:
        """Crossing the finish line: exiting the last board."""
        em.emit(MonsterFinished(monster=mid, place=len(em.state.finishes) + 1))
        if R.check_game_end(em):
            return
        em.emit(ControlEnded(monster=mid, reason="crossed the finish line"))
        R.pass_turn(em)

    def _move(self, em: R.Emitter, spaces: tuple[str, ...]) -> None:
        """Walk into one of the three adjacent spaces ahead, paying its cost (Control a Monster)."""
        for i, sp in enumerate(spaces):
            st = em.state
            c = st.control
            if c is None or st.phase != "play":
                raise RuleViolation("MD-MOVE-FINISHED", "the monster's turn is already over; drop the extra spaces")
            m = st.monsters[c.monster]
            R.check_may_move(c, m)
            if R.flies(m):
                raise RuleViolation("MD-FLY-MUST", f"the {m.name} flies: it must fly (use fly SPACE), it cannot walk")
            here = R.pos_of(m)
            tr = R.track(st)
            target: Pos | None
            if sp == FINISH:
                target = next((q for q in R.ahead(here) if tr.off_end(q)), None)
                if target is None:
                    raise RuleViolation("MD-MOVE-AHEAD", f"the finish line is not next to the {m.name} on {m.space}")
            else:
                target = parse_space(sp)
                assert target is not None
                if target not in R.ahead(here):
                    raise RuleViolation("MD-MOVE-AHEAD", f"{sp} is not one of the three spaces ahead of the {m.name} on {m.space}; monsters never go backwards")
            if not tr.off_end(target):
                if tr.terrain(target) == "impassable":
                    raise RuleViolation("MD-MOVE-IMPASSABLE", f"{sp} is impassable terrain")
                occ = R.occupant(st, target)
                if occ is not None or R.blocked(st, target):
                    who = f"the {occ.name}" if occ else "a grave"
                    raise RuleViolation("MD-MOVE-BLOCKED", f"{sp} holds {who}: a space with another monster in it is impassable")
            cost = 1 if tr.off_end(target) else R.walking_cost(st, m, target)
            assert cost is not None
            if cost > c.points:
                raise RuleViolation("MD-MOVE-POINTS", f"entering {sp} costs {cost} but the {m.name} has {c.points} movement point{'s' if c.points != 1 else ''} left")
            em.emit(MonsterMoved(monster=m.id, frm=m.space, to=FINISH if tr.off_end(target) else name(target), cost=cost))
            if tr.off_end(target):
                if i != len(spaces) - 1:
                    raise RuleViolation("MD-MOVE-FINISHED", f"the {m.name} crossed the finish line; it cannot move on")
                self._finish(em, m.id)

    def _fly(self, em: R.Emitter, sp: str) -> None:
        """Flying: 1 point a space flown over, the landing space's cost to land, all points
        spent, and the flyer ends its movement landed (Control a Monster)."""
        st = em.state
        c = st.control
        assert c is not None
        m = st.monsters[c.monster]
        R.check_may_move(c, m)
        if not R.flies(m):
            raise RuleViolation("MD-FLY-ONLY", f"the {m.name} cannot fly")
        if c.flown:
            raise RuleViolation("MD-FLY-ONCE", f"the {m.name} has already flown and landed this turn")
        if c.stopover:
            raise RuleViolation("MD-FLY-STOPOVER", f"the {m.name} landed on {m.space} to attack: it attacks before flying on")
        if c.walked:
            raise RuleViolation("MD-FLY-MUST", f"the {m.name} has walked this turn; it cannot take off now")
        landings, can_finish = R.flight_options(st, m, c.points)
        stops = R.stopover_options(st, c, m)
        if sp == FINISH:
            if not can_finish:
                raise RuleViolation("MD-FLY-LAND", f"the {m.name} cannot reach the finish line with {c.points} points")
            em.emit(MonsterMoved(monster=m.id, frm=m.space, to=FINISH, cost=c.points, kind="fly"))
            self._finish(em, m.id)
            return
        target = parse_space(sp)
        assert target is not None
        if target not in landings and target in stops:
            em.emit(MonsterMoved(monster=m.id, frm=m.space, to=sp, cost=stops[target], kind="fly", stop=True))
            return
        if target not in landings:
            tr = R.track(st)
            if tr.terrain(target) == "impassable" or R.blocked(st, target):
                raise RuleViolation("MD-FLY-LAND", f"the {m.name} cannot land on {sp}: it must land on an empty space")
            raise RuleViolation("MD-FLY-SPEND", f"the {m.name} cannot land on {sp} spending all {c.points} movement points,"
                                " nor land there on its way to attack"
                                f" (it may land on: {', '.join(sorted(name(q) for q in {**landings, **stops})) or 'nowhere'})")
        em.emit(MonsterMoved(monster=m.id, frm=m.space, to=sp, cost=landings[target], kind="fly"))

    def _attack(self, em: R.Emitter, rng: Rng, target: str) -> None:
        """Attack a monster in front (Monster Actions)."""
        st = em.state
        c = st.control
        assert c is not None
        m = st.monsters[c.monster]
        t = st.monsters.get(target)
        if t is None:
            raise RuleViolation("MD-ATTACK-FRONT", f"the {target} is not in this race")
        R.check_attack(st, c, m, t)
        dice = R.PhysicalDice(rng, f"attack {t.id}", st, m.id, t.id)
        R.resolve_attack(em, dice, m.id, t.id, "attack")  # type: ignore[arg-type]
        dice.check_all_used("" if em.state.curse is None else
                            "the cursed monster's way back comes first: give any later dice with the curse command")
        self._after_attack(em)

    def _curse(self, em: R.Emitter, rng: Rng, spaces: tuple[str, ...]) -> None:
        """The curse: the controlling player walks the cursed monster backwards 3 spaces
        (Ability Summary), then the attack goes on (a counter-strike, the Blast's others)."""
        st = em.state
        pc = st.curse
        if pc is None:
            raise RuleViolation("MD-CURSE-PATH", "no monster is waiting to be cursed back")
        d = st.monsters[pc.monster]
        ways = R.curse_paths(st, d)
        dests = R.curse_destinations(st, d)
        path = dests[spaces[0]] if len(spaces) == 1 and spaces[0] in dests else spaces
        if path not in ways:
            raise RuleViolation("MD-CURSE-PATH", f"the cursed {d.name} on {d.space} goes back {len(ways[0])} spaces, each into"
                                f" a free space behind; it may end on {', '.join(sorted(dests))}"
                                f" (e.g. curse {' '.join(ways[0])})")
        R.curse_back(em, d, path)
        dice = R.PhysicalDice(rng, "curse " + " ".join(spaces), st)
        R.resume_after_curse(em, dice, pc)  # type: ignore[arg-type]
        dice.check_all_used("" if em.state.curse is None else
                            "the next cursed monster's way back comes first: give any later dice with that curse command")
        self._after_attack(em)

    def _after_attack(self, em: R.Emitter) -> None:
        """After an attack: the game may be over; a killed or stunned attacker's turn ends."""
        if em.state.curse is not None:
            return  # the player first walks the cursed monster back
        if R.check_game_end(em):
            return
        c = em.state.control
        assert c is not None
        m = em.state.monsters[c.monster]
        now = em.state.monsters[m.id]
        if now.status != "racing":
            em.emit(ControlEnded(monster=m.id, reason="killed"))
            R.pass_turn(em)
        elif em.state.control is not None and em.state.control.stunned:
            em.emit(ControlEnded(monster=m.id, reason="stunned: it loses the rest of its turn"))
            R.pass_turn(em)

    def _recover(self, em: R.Emitter) -> None:
        """Recover: hit points up one, unless at the top already (Monster Actions)."""
        c = em.state.control
        assert c is not None
        m = em.state.monsters[c.monster]
        if c.stopover:
            raise RuleViolation("MD-FLY-STOPOVER", f"the {m.name} landed on {m.space} to attack: it attacks, not recovers")
        if c.recovered:
            raise RuleViolation("MD-ACTION-ONE", f"the {m.name} already recovered this turn")
        if c.attacks:
            raise RuleViolation("MD-ACTION-ONE", f"the {m.name} attacked this turn; it recovers only if it does not attack")
        em.emit(Recovered(monster=m.id, hp=min(m.max_hp, m.hp + 1)))

    def _call(self, em: R.Emitter, target: str, sp: str) -> None:
        """Call: place any monster up to 3 spaces away in an empty space next to the caller."""
        st = em.state
        c = st.control
        assert c is not None
        m = st.monsters[c.monster]
        if not R.may_call(c, m):
            why = "has no Call ability" if m.ability != "call" else (
                "is in the red zone" if R.in_red_zone(m) else "already called (or is stunned) this turn")
            raise RuleViolation("MD-ABILITY-CALL", f"the {m.name} {why}")
        opts = R.call_options(st, m)
        t = st.monsters.get(target)
        if t is None or t.status != "racing" or t.id == m.id:
            raise RuleViolation("MD-ABILITY-CALL", f"the {target} cannot be called")
        if not any(o.id == t.id for o, _ in opts):
            raise RuleViolation("MD-ABILITY-CALL", f"the {t.name} is more than {st.options.get('call_range', 3)} spaces from the {m.name}")
        pos = parse_space(sp)
        if not any(o.id == t.id and q == pos for o, q in opts):
            raise RuleViolation("MD-ABILITY-CALL", f"{sp} is not an empty space next to the {m.name}")
        em.emit(MonsterMoved(monster=t.id, frm=t.space, to=sp, cost=0, kind="call"))

    def _copy(self, em: R.Emitter, target: str) -> None:
        """Copy (house ability of the Doppelganger): take an adjacent monster's special
        ability for the rest of this turn; a copied 2x move counts the die again."""
        st = em.state
        c = st.control
        assert c is not None
        m = st.monsters[c.monster]
        if m.ability != "copy":
            raise RuleViolation("MD-HOUSE-COPY", f"the {m.name} has no Copy ability")
        if R.in_red_zone(m):
            raise RuleViolation("MD-HOUSE-COPY", f"the {m.name} is in the red zone: no special ability")
        if c.copied:
            raise RuleViolation("MD-HOUSE-COPY", f"the {m.name} already copied an ability this turn")
        opts = R.copy_options(st, c, m)
        t = st.monsters.get(target)
        if t is None or not any(o.id == t.id for o in opts):
            who = f"the {t.name}" if t else f"the {target}"
            raise RuleViolation("MD-HOUSE-COPY", f"{who} is not a monster next to the {m.name} with a special ability to copy"
                                f" (next to it: {', '.join(o.id for o in opts) or 'none'})")
        gain = c.die if t.ability == "double_move" and c.can_move else 0
        em.emit(AbilityCopied(monster=m.id, source=t.id, ability=t.ability, points=gain))

    def _end(self, em: R.Emitter) -> None:
        """End Monster Turn: all movement points must be spent first (Control a Monster)."""
        st = em.state
        c = st.control
        assert c is not None
        m = st.monsters[c.monster]
        if c.stopover and not (c.stunned or "stun" in m.effects):
            raise RuleViolation("MD-FLY-STOPOVER", f"the {m.name} landed on {m.space} to attack: attack, then fly on")
        if R.can_still_move(st, c, m):
            if R.flies(m):
                raise RuleViolation("MD-FLY-MUST", f"the {m.name} must fly and land, spending its movement points")
            raise RuleViolation("MD-MOVE-ALL", f"the {m.name} must spend all of its movement points ({c.points} left) going forward")
        R.end_control(em)

    def _auto_end(self, em: R.Emitter) -> None:
        """A turn with nothing left to choose ends by itself (recovering if it did not attack)."""
        st = em.state
        c = st.control
        if c is None or st.phase != "play":
            return
        if self._control_options(st, include_end=False):
            return
        m = st.monsters[c.monster]
        R.end_control(em, "stunned: it loses the rest of its turn" if c.stunned or "stun" in m.effects else "")

    # -- legal commands ----------------------------------------------------------------

    def _control_options(self, st: MDState, include_end: bool = True) -> list[Any]:
        c = st.control
        assert c is not None
        m = st.monsters[c.monster]
        if st.curse is not None:
            return [Curse(path) for path in R.curse_destinations(st, st.monsters[st.curse.monster]).values()]
        out: list[Any] = []
        stunned = c.stunned or "stun" in m.effects
        if not stunned and c.can_move:
            if R.flies(m):
                if not c.flown and not c.walked and not c.stopover:
                    landings, fin = R.flight_options(st, m, c.points)
                    if fin:
                        out.append(Fly(FINISH))
                    out += [Fly(name(q)) for q in sorted(landings)]
                    out += [Fly(name(q)) for q in sorted(R.stopover_options(st, c, m)) if q not in landings]
            else:
                # one entry per destination (the whole move), then single steps for a monster
                # that wants to attack on a space along its way
                dests = R.walk_destinations(st, m, c.points)
                out += [Move(path) for _d, path in sorted(dests.items(), key=lambda kv: _menu_order(kv[0]))]
                for q, _cost in R.walk_steps(st, m, c.points):
                    step = (FINISH if R.track(st).off_end(q) else name(q),)
                    if Move(step) not in out:
                        out.append(Move(step))
        if not stunned and c.can_attack and not R.in_red_zone(m) and not c.recovered and c.attacks < R.max_attacks(c, m):
            out += [Attack(t.id) for t in R.attack_targets(st, m)]
        if R.may_call(c, m):
            # the menu offers, per monster, the empty space furthest ahead and the one furthest
            # back next to the caller; any other empty space next to it may be typed
            spaces: dict[str, list[Pos]] = {}
            for o, q in R.call_options(st, m):
                spaces.setdefault(o.id, []).append(q)
            for oid, qs in spaces.items():
                qs.sort(key=lambda q: (-along(q), q[1]))
                out += [Call(oid, name(q)) for q in dict.fromkeys([qs[0], qs[-1]])]
        out += [Copy(o.id) for o in R.copy_options(st, c, m)]
        if include_end:
            if not c.recovered and not c.attacks and out and not c.stopover:
                out.append(Recover())
            if not R.can_still_move(st, c, m) and not c.stopover:
                out.append(End())
        return out

    def legal_commands(self, state: MDState, seat: str) -> list[Any]:
        if state.phase == "agendas":
            if seat in state.kept:
                return []
            return [Keep(a) for a in state.dealt.get(seat, ())]
        if state.phase != "play" or seat != state.current:
            return []
        if state.control is not None:
            return self._control_options(state)
        if not state.die:
            return [Roll()]
        out: list[Any] = [TakeMarker()] if state.marker == "available" else []
        out += [ControlMonster(m.id) for m in state.racing() if not m.turned]
        return out

    def out_of_turn(self, state: MDState, seat: str, command: Any) -> Any:
        """A step for a monster whose turn already ended (stunned, unconscious, killed, across
        the line) is refused by the rule that ended that turn, not as a move out of turn."""
        if not isinstance(command, (Move, Fly, Attack, Recover, Call, Copy, End, Curse)):
            return None
        if len(state.ended) != 3 or state.ended[0] != seat:
            return None
        _seat, mid, reason = state.ended
        m = state.monsters.get(mid)
        what = m.name if m is not None else mid
        if reason.startswith("stunned"):
            return RuleViolation("MD-STUNNED", f"the {what} was stunned and has lost the rest of its turn")
        if reason.startswith("unconscious"):
            return RuleViolation("MD-RED-NO-MOVE", f"the {what} is still in the red zone after recovering:"
                                 " it is unconscious, does not move and its turn is over")
        if reason.startswith("killed"):
            return RuleViolation("MD-DEATH-GRAVE", f"the {what} died; its turn is over")
        if reason.startswith("crossed"):
            return RuleViolation("MD-MOVE-FINISHED", f"the {what} crossed the finish line; it moves no further")
        return None

    def summary(self, state: MDState) -> dict[str, Any]:
        return {"round": state.round, "finished": len(state.finishes), "dead": len(state.graves),
                "attacks": state.attacks}


GAME = MonsterDerby()
