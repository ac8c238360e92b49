"""My Little Scythe, refereed: two to six players race to four trophies in Pomme."""

from __future__ import annotations

from typing import Any

from arbiter.core.dice import Rng
from arbiter.core.errors import BadContent, RuleViolation
from arbiter.core.game import Game, Option
from arbiter.core.my_little_scythe import commands as cm
from arbiter.core.my_little_scythe import rules
from arbiter.core.my_little_scythe.board import BASE, CASTLE, Board, board_of
from arbiter.events import my_little_scythe as ev
from arbiter.events.base import Event, GameCreated
from arbiter.projections.my_little_scythe import PROJECTION, MSState, stock

TROPHIES = ("friendship-8", "power-ups-2", "spells-3", "quests-2", "apple-delivery", "gem-delivery",
            "pie-fight", "pies-8")


class MyLittleScythe(Game[MSState, Any]):
    id = "my-little-scythe"
    short = "ms"
    title = "My Little Scythe"
    rules_version = "1"
    projection = PROJECTION
    min_seats = 2
    max_seats = 6
    syntax = cm.SYNTAX
    options = (
        Option(name="round_limit", default=0, minimum=0, maximum=200, rule="MS-H-ROUND-LIMIT",
               doc="house, off by default (0): if no grand finale has begun after this many rounds"
                   " the game ends (most trophies, then friendship); the rulebook's only ending is"
                   " the grand finale"),
        Option(name="delivery_extras", default="stay-behind", choices=("stay-behind", "refuse"),
               rule="MS-H-DELIVERY-EXTRAS",
               doc="a Seeker carrying more than the delivery needs: the extras stay on their"
                   " space (rulebook 'extras stay behind') or the move is refused ('exactly four')"),
        Option(name="section_name", default="make", choices=("make", "craft"), rule="MS-H-SECTION-NAME",
               doc="the rulebook calls the third mat section both 'Make' and 'Craft'; both words"
                   " are accepted, this picks the one shown"),
        Option(name="pie_fight_timing", default="after-moving", choices=("after-moving", "immediate"),
               rule="MS-H-FIGHT-TIMING",
               doc="a Seeker stopping on an opponent's Seeker fights once both Seekers have moved"
                   " ('once I finish moving, and dealing with any pie fights') or at once"),
        Option(name="quest_draw", default="choose", choices=("choose", "automatic"), rule="MS-H-QUEST-AUTO",
               doc="a quest token under a Seeker after moving: the player may grab it or leave it"
                   " ('I can grab the token') or a single one is drawn at once"),
        Option(name="low_friendship_blocks_pie_fight", default=True, rule="MS-H-LOW-FRIENDSHIP-PIE-FIGHT",
               doc="friendship below 3 also blocks the Pie Fight Victory trophy ('any trophies')"),
    )

    def __init__(self) -> None:
        super().__init__()
        from arbiter.core.my_little_scythe.bots import smart_bot
        self.bots = {"smart": smart_bot}

    # -- content ------------------------------------------------------------------------

    def check_content(self, content: dict[str, Any]) -> None:  # noqa: C901 - one check a line
        def need(cond: bool, msg: str) -> None:
            if not cond:
                raise BadContent(f"my-little-scythe content: {msg}")

        need(isinstance(content, dict), "must be a JSON object")
        for key in ("dice", "regions", "spaces", "base_camps", "camps_by_players", "setup_tile", "supply",
                    "tracks", "mat", "trophies", "personalities", "spells", "power_ups", "quests",
                    "dial_max", "trophies_per_player", "trophy_min_friendship"):
            need(key in content, f"missing the {key!r} table")
        regions = [r.get("id") for r in content["regions"]]
        for kind in ("apple", "gem", "quest", "orientation"):
            need(kind in content["dice"], f"dice must include a {kind!r} die")
        for kind in ("apple", "gem", "quest"):
            need(sorted(content["dice"][kind]) == sorted(regions), f"the {kind} die's faces must be the regions {regions}")
        ids = [s.get("id") for s in content["spaces"]]
        need(len(ids) == len(set(ids)), "space ids must differ")
        need("castle" in ids, "the map needs the castle space")
        for s in content["spaces"]:
            need(s.get("kind") in ("region", "portal", "castle"), f"space {s.get('id')}: kind must be region, portal or castle")
            need(isinstance(s.get("q"), int) and isinstance(s.get("r"), int), f"space {s.get('id')}: needs integer q and r")
            if s["kind"] == "region":
                need(s.get("region") in regions, f"space {s['id']}: unknown region {s.get('region')!r}")
        camps = {c.get("id") for c in content["base_camps"]}
        for c in content["base_camps"]:
            for f in c.get("front", []):
                need(f in ids and f != "castle", f"base camp {c.get('id')}: front space {f!r} is not on the map")
        for n in range(2, 7):
            got = content["camps_by_players"].get(str(n))
            need(isinstance(got, list) and len(got) == n and set(got) <= camps,
                 f"camps_by_players[{n}] must list {n} base camps")
        need(len(content["setup_tile"].get("sides", [])) == int(len(content["dice"]["orientation"])),
             "the setup tile needs one side per orientation face")
        need({t.get("id") for t in content["trophies"]} == set(TROPHIES), f"trophies must be exactly {', '.join(TROPHIES)}")
        for p in content["personalities"]:
            need(p.get("trophy") in TROPHIES, f"personality {p.get('id')}: unknown trophy {p.get('trophy')!r}")
            need(isinstance(p.get("requirement"), int), f"personality {p.get('id')}: requirement must be a number")
        spell_ids = [s.get("id") for s in content["spells"]]
        need(len(spell_ids) == len(set(spell_ids)), "spell ids must differ")
        need(all(isinstance(s.get("value"), int) and s["value"] >= 0 for s in content["spells"]), "spell values must be whole numbers")
        for t in content["power_ups"]:
            need(t.get("pile") in ("move", "make"), f"power-up {t.get('id')}: pile must be move or make")
            if t["pile"] == "move":
                need(t.get("effect") in ("carry-range", "unladen-range", "portal-entry", "move-friendship"),
                     f"power-up {t.get('id')}: unknown effect {t.get('effect')!r}")
            else:
                need(isinstance(t.get("action"), dict) and "id" in t["action"], f"power-up {t.get('id')}: needs an action")
        for q in content["quests"]:
            need(len(q.get("options", [])) == 2, f"quest {q.get('id')}: needs exactly 2 options")
        need(len(content["personalities"]) >= 6, "at least 6 personality cards (one a player)")
        need(len(content["spells"]) >= 6, "at least 6 magic spells (one a player)")
        kinds = {a.get("kind") for a in content["mat"]}
        need({"move", "seek", "exchange", "power-up"} <= kinds, "the mat needs move, seek, exchange and power-up actions")

    # -- setup --------------------------------------------------------------------------

    def setup(self, created: GameCreated, rng: Rng) -> list[Event]:
        """Setting up: decks shuffled, setup tile, personalities and one spell each, a
        random first player ("Now, let's get set up!")."""
        c = created.content
        out: list[Event] = []
        out.append(rng.shuffle("quests", [q["id"] for q in c["quests"]]))
        spells = rng.shuffle("spells", [s["id"] for s in c["spells"]])
        out.append(spells)
        for pile in ("move", "make"):
            out.append(rng.shuffle(f"power-ups-{pile}", [t["id"] for t in c["power_ups"] if t["pile"] == pile]))
        roll = rng.roll(["orientation"], purpose="setup tile")
        out.append(roll)
        o = int(roll.faces[0])
        sides = c["setup_tile"]["sides"]
        fronts = {b["id"]: b["front"] for b in c["base_camps"]}
        placed: dict[str, dict[str, int]] = {}
        for camp in c["camps_by_players"][str(len(created.seats))]:
            side = sides[(camp - 1 + o) % len(sides)]
            for space, res in zip(fronts[camp], side):
                placed[space] = {k: int(n) for k, n in res.items() if n}
        out.append(ev.SetupTilePlaced(orientation=o, placed=placed))
        people = rng.shuffle("personalities", [p["id"] for p in c["personalities"]])
        out.append(people)
        for i, seat in enumerate(created.seats):
            out.append(ev.PersonalityDealt(seat=seat, card=people.order[i]))
        for i, seat in enumerate(created.seats):
            out.append(ev.SpellDrawn(seat=seat, card=spells.order[i], reason="setup"))
        tokens = rng.shuffle("action-tokens", list(created.seats))
        out.append(tokens)
        first = tokens.order[0]
        i = created.seats.index(first)
        order = created.seats[i:] + created.seats[:i]
        out.append(ev.FirstPlayerChosen(seat=first, order=order))
        out.append(ev.TurnStarted(seat=first, turn=1))
        return out

    # -- commands -----------------------------------------------------------------------

    def parse(self, state: MSState, seat: str, text: str) -> Any:
        return cm.parse(state.content, text)

    def command_text(self, command: Any) -> str:
        return cm.command_text(command)

    def decide(self, state: MSState, seat: str, command: Any, rng: Rng) -> list[Event]:
        return rules.decide(state, seat, command, rng)

    def out_of_turn(self, state: MSState, seat: str, command: Any) -> Any:
        """A trophy named when it is not this player's moment cites the Trophy Limit."""
        if isinstance(command, cm.ClaimTrophy):
            return RuleViolation(
                "MS-TROPHY-NOT-NOW",
                f"{seat} may place a trophy only at the end of their own turn (or on winning a pie fight)",
            )
        return None

    def legal_commands(self, state: MSState, seat: str) -> list[Any]:
        out = []
        rng = Rng(0, 0, {k: tuple(v) for k, v in state.content["dice"].items()})
        for c in candidates(state, seat):
            try:
                rules.decide(state, seat, c, rng)
            except RuleViolation:
                continue
            rng = Rng(0, 0, {k: tuple(v) for k, v in state.content["dice"].items()})
            out.append(c)
        return out

    def summary(self, state: MSState) -> dict[str, Any]:
        return {"turns": state.turn, "finale": state.finale,
                "trophies": sum(len(p.trophies) for p in state.players.values())}


def paths(state: MSState, seat: str, start: str, reach: int) -> dict[str, tuple[str, ...]]:
    """One shortest legal path to each space within ``reach`` (not the castle; stopping on opponents)."""
    b: Board = board_of(state.content)
    p = state.players[seat]
    portal_entry = "portal-entry" in rules.move_effects(state, seat)
    found: dict[str, tuple[str, ...]] = {}
    frontier: list[tuple[str, tuple[str, ...]]] = [(start, ())]
    for _ in range(reach):
        nxt = []
        for here, path in frontier:
            for step in b.neighbours(here, p.camp, portal_entry):
                if step == CASTLE or step == start or step in found:
                    continue
                found[step] = path + (step,)
                if not rules.owner_of(state, step, seat):
                    nxt.append((step, path + (step,)))
        frontier = nxt
    return found


def menu_rank(s: MSState, seat: str, c: Any) -> tuple[int, int, int]:
    """Moves in the order a player looks for them (the menu shows the first few): deliveries,
    staying put, pie fights, carrying, stepping onto quests or resources, then the rest;
    both Seekers interleaved, shorter paths first."""
    end = c.path[-1] if isinstance(c, (cm.Go, cm.Carry)) else ""
    if isinstance(c, cm.Carry) and end == CASTLE:
        kind = 0
    elif isinstance(c, cm.Stay):
        kind = 1
    elif end and rules.owner_of(s, end, seat):
        kind = 2
    elif isinstance(c, cm.Carry):
        kind = 3
    elif end and any(s.board.get(end, {}).values()):
        kind = 4
    else:
        kind = 5
    return kind, len(getattr(c, "path", ())), c.seeker


def candidates(state: MSState, seat: str) -> list[Any]:  # noqa: C901 - one phase a branch
    s = state
    if s.fight is not None:
        p = s.players[seat]
        top = min(s.content["dial_max"], p.pies)
        # the menu shows the plain dials first, then with every spell, then with one spell
        out: list[Any] = [cm.Dial(n) for n in range(top + 1)]
        if p.spells:
            out += [cm.Dial(n, p.spells) for n in range(top + 1)]
        if len(p.spells) > 1:
            out += [cm.Dial(n, (x,)) for x in p.spells for n in range(top + 1)]
        return out
    if s.rejuv:
        return [cm.Rejuvenate("spell"), cm.Rejuvenate("pies")]
    if s.trophy_seat:
        if seat != s.trophy_seat:
            return []
        claims = [cm.ClaimTrophy(t, (), t in s.trophy_reveal) for t in s.trophy_choices]
        return claims + ([cm.ClaimTrophy("none")] if s.trophy_optional else [])
    if s.seek:
        kind, region = s.seek[0]
        return [cm.Place(x) for x in rules.placement_spaces(s, kind, region)]
    if s.look:
        return [cm.Keep(t) for t in s.look]
    if s.moving:
        p = s.players[seat]
        out = []
        if s.delivery is not None:
            kind = s.delivery.kind
            full, lowered = rules.delivery_need(s, seat, kind)
            needs = [(full, False)] + ([(lowered, True)] if lowered is not None and not p.personality_revealed else [])
            for i in s.moving:
                have = stock(s, p.seekers[i - 1], kind) if p.seekers[i - 1] != BASE else 0
                for need, reveal in needs:
                    rest = need - s.delivery.count
                    for n in sorted({have, min(have, rest)}):
                        for path in rules.castle_paths(s, seat, p.seekers[i - 1]) if n > 0 else []:
                            a = n if kind == "apple" else 0
                            out.append(cm.Carry(i, path, a, n - a, reveal))
            return out
        for i in s.moving:
            start = p.seekers[i - 1]
            out.append(cm.Stay(i))
            reach = 3 if "unladen-range" in rules.move_effects(s, seat) else 2
            for _dest, path in sorted(paths(s, seat, start, reach).items()):
                out.append(cm.Go(i, path))
            if start == BASE:
                continue
            apples, gems = stock(s, start, "apple"), stock(s, start, "gem")
            if not apples and not gems:
                continue
            loads = {(apples, gems), (apples, 0), (0, gems)} - {(0, 0)}
            creach = 2 if "carry-range" in rules.move_effects(s, seat) else 1
            for _dest, path in sorted(paths(s, seat, start, creach).items()):
                for a, g in sorted(loads):
                    out.append(cm.Carry(i, path, a, g))
            for path in rules.castle_paths(s, seat, start):
                for kind, n in (("apple", apples), ("gem", gems)):
                    full, lowered = rules.delivery_need(s, seat, kind)
                    revealed = s.players[seat].personality_revealed
                    for need, reveal in [(full, False)] + ([(lowered, not revealed)] if lowered is not None else []):
                        for k in sorted({n, min(n, need)} - {0}):
                            out.append(cm.Carry(i, path, k if kind == "apple" else 0,
                                                k if kind == "gem" else 0, reveal))
        return sorted(out, key=lambda c: menu_rank(s, seat, c))
    if s.quest_card:
        card = rules.quest_card(s, s.quest_card)
        p = s.players[seat]
        spaces = rules.seeker_spaces(p)
        targets = [x for x in board_of(s.content).ids if rules.owner_of(s, x, seat)]
        out = []
        for n, opt in enumerate(card["options"], start=1):
            ons = spaces if any(opt.get("gain", {}).get(k) for k in rules.KINDS) else [""]
            tos = targets if opt.get("give") else [""]
            for on in ons:
                for to in tos:
                    out.append(cm.QuestOption(n, "", on, to))
        out.append(cm.NoThanks())
        return out
    if s.quest_spaces:
        return [cm.Explore(x) for x in s.quest_spaces] + [cm.LeaveQuests()]
    out = []
    for a in rules.mat_actions(s, seat):
        if a["kind"] == "power-up":
            out += [cm.ChooseAction(a["id"], pile) for pile in ("move", "make")]
        else:
            out.append(cm.ChooseAction(a["id"]))
    return out


GAME = MyLittleScythe()
