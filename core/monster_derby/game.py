"""The Game of Monster Derby: its options, content checks and setup; the rules and the
decider are in :mod:`.rules`, the commands in :mod:`.commands`, what may be done now in
:mod:`.legal`."""

from __future__ import annotations

import re
from typing import Any

from arbiter.core.dice import Rng
from arbiter.core.errors import BadContent, RuleViolation
from arbiter.core.game import Game, Option, Traits
from arbiter.core.monster_derby import commands as C
from arbiter.core.monster_derby import legal as L
from arbiter.core.monster_derby import rules as R
from arbiter.core.monster_derby.board import LANES, name, parse_space
from arbiter.core.monster_derby.bots import agenda_bot
from arbiter.events.base import Event, GameCreated
from arbiter.events.monster_derby import AgendasDealt, MonsterPlaced, StartingPlayerChosen, TrackLaid
from arbiter.projections.monster_derby import MDState

WACKY_FACES = ("sword", "shield", "both", "blank")
_WACKY = re.compile(r"^\d-\d-\d-\d$")
SPECIALS = {"none", "flies", "double_move", "attack_360", "attack_again", "attack_dice_hp", "blast",
            "brushwalker", "call", "charge", "copy", "counter_strike", "minus_one", "plus_one", "half_damage"}
WACKY_ATTACKS = {"none", "plus_one", "rage", "poison", "webs", "curse", "stun", "attack_again"}
WACKY_DEFENSES = {"none", "minus_one", "half_damage", "dodge", "stun", "counter_strike"}
TERRAINS = {"path", "rock", "brush", "water", "desert", "impassable"}


#: the commands that use the controlled monster's own ability (Flies, Call, Copy)
ABILITY_VERBS = ("fly", "call", "copy")


def starting_blocks(start: dict[str, Any], lanes: int) -> list[str]:
    """The 8 numbered starting blocks; with narrower lanes (option lanes) the blocks that no
    longer fit move to the free spaces of the starting board, front column first."""
    blocks = [b for b in start["blocks"] if (parse_space(b) or (0, 99))[1] < lanes]
    cols = len(start["rows"][0])
    free = [name((c, lane)) for c in range(cols - 1, -1, -1) for lane in range(lanes)
            if name((c, lane)) not in blocks]
    return (blocks + free)[:8]


def agenda_points(card: dict[str, Any]) -> dict[str, tuple[int, ...]]:
    """A race card's points per colour for finishing 1st, 2nd and 3rd (one number: any place)."""
    return {c: (tuple(v) if isinstance(v, list) else (v, v, v)) for c, v in card["points"].items()}


class MonsterDerby(Game[MDState, Any]):
    id = "monster-derby"
    traits = Traits(hidden_information=True, simultaneous=True, dice=True, shuffles=True)
    short = "md"
    title = "Monster Derby"
    # 2: a monster the poison kills as it is controlled is not said to be able to attack
    rules_version = "2"
    projection = R.PROJ
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
    syntax = C.SYNTAX
    short_syntax = C.SHORT_SYNTAX

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

    # -- text, rules, legal commands: see commands.py, rules.py, legal.py -------------------

    def parse(self, state: MDState, seat: str, text: str) -> C.Command:
        return C.parse(state, text)

    def command_text(self, command: C.Command) -> str:
        return C.command_text(command)

    def manual_faces(self, text: str) -> tuple[str, list[str]] | None:
        return C.manual_faces(text)

    def decide(self, state: MDState, seat: str, command: C.Command, rng: Rng) -> list[Event]:
        return R.decide(state, seat, command, rng)

    def legal_commands(self, state: MDState, seat: str) -> list[C.Command]:
        return L.legal_commands(state, seat)

    def out_of_turn(self, state: MDState, seat: str, command: C.Command) -> RuleViolation | None:
        return R.turn_already_ended(state, seat, command)

    def menu_label(self, state: MDState, seat: str, text: str) -> str:
        """The monsters a menu entry names (an ability's verb names first the monster using
        it), labelled as the board labels them: "control kraken  (Kraken, house)", "fly 4b
        (Griffin, house numbers)"; a kept agenda card is a house card. An entry with no
        house content is the command alone."""
        words = text.split()
        if not words:
            return text
        if words[0] == "keep" and "house" in state.agendas_source:
            return f"{text}  (house agenda card)"
        named = [w for w in words[1:] if w in state.monsters]
        if words[0] in ABILITY_VERBS and state.control is not None:
            named.insert(0, state.control.monster)
        notes = []
        for mid in dict.fromkeys(named):
            source = state.sources.get(mid, "")
            label = ", house" if source == "house" else ", house numbers" if "house" in source else ""
            notes.append(state.monsters[mid].name + label)
        return f"{text}  ({'; '.join(notes)})" if any("house" in n for n in notes) else text

    def summary(self, state: MDState) -> dict[str, Any]:
        return {"round": state.round, "finished": len(state.finishes), "dead": len(state.graves),
                "attacks": state.attacks}


GAME = MonsterDerby()
