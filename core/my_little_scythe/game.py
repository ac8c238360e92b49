"""My Little Scythe: the Game object (options, content checks, setup, parsing, the decider,
legal commands, bots); the rules, commands, legal moves and bots live in their own modules."""

from __future__ import annotations

from typing import Any

from arbiter.core.dice import Rng
from arbiter.core.errors import BadContent, RuleViolation
from arbiter.core.game import Game, Option, Traits
from arbiter.core.my_little_scythe import commands as cm
from arbiter.core.my_little_scythe import legal, rules
from arbiter.core.my_little_scythe.bots import smart_bot
from arbiter.events import my_little_scythe as ev
from arbiter.events.base import Event, GameCreated
from arbiter.projections.my_little_scythe import PROJECTION, MSState

TROPHIES = ("friendship-8", "power-ups-2", "spells-3", "quests-2", "apple-delivery", "gem-delivery",
            "pie-fight", "pies-8")



def just_acted(state: MSState, seat: str) -> bool:
    """Whether ``seat`` took the turn just before the active player's: a second action from
    them is the one-action-a-turn rule's to refuse ("choose and do one action")."""
    order = state.order
    if not state.active or state.active not in order or seat == state.active:
        return False
    before = order[(order.index(state.active) - 1) % len(order)]
    return seat == before and state.players[seat].last_action is not None

class MyLittleScythe(Game[MSState, Any]):
    id = "my-little-scythe"
    traits = Traits(hidden_information=True, simultaneous=True, reactions=True, dice=True,
                    shuffles=True)
    short = "ms"
    title = "My Little Scythe"
    # 2: a Seeker still at base camp pays a Make action from the spaces in front of the camp
    # by default (base_camp_pays=front-spaces), as the "Your Turn" first-turn Bake does
    # 3: ... but not from a space in front of the camp where another player's Seeker stands
    # 4: a Make action that would gain nothing (Bake Pies at 10 pies) is refused (MS-H-BAKE-AT-TEN)
    rules_version = "4"
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
        Option(name="base_camp_pays", default="front-spaces", choices=("front-spaces", "no"),
               rule="MS-H-FIRST-TURN-BAKE",
               doc="a Seeker still at base camp pays a Make action from the spaces in front of it"
                   " (front-spaces: the 'Your Turn' example bakes pies on the first turn), or a Make"
                   " action pays only from spaces where the Seekers stand (no)"),
        Option(name="pie_fight_limit", default="exception", choices=("exception", "own-turn"),
               rule="MS-H-PIE-FIGHT-LIMIT",
               doc="the Pie Fight Victory never counts against one trophy a turn (exception), or a"
                   " fight won on your own turn is that turn's trophy (own-turn)"),
        Option(name="delivery_trophy", default="end-of-turn", choices=("end-of-turn", "at-once"),
               rule="MS-H-DELIVERY-TROPHY",
               doc="a delivery trophy is placed with the other trophies at the end of the turn, or"
                   " the moment the delivery completes (at-once)"),
        Option(name="attack_friendship", default="fight-start", choices=("fight-start", "on-moving"),
               rule="MS-H-ATTACK-FRIENDSHIP",
               doc="the attacker loses 1 friendship when the pie fight begins, or as its Seeker moves"
                   " onto the opponent (on-moving; the same under pie_fight_timing=immediate)"),
        Option(name="personality_trophy", default="optional", choices=("optional", "mandatory"),
               rule="MS-H-PERSONALITY-CHOICE",
               doc="a trophy met only through the secret personality card: the player may reveal the"
                   " card or keep it ('you can reveal'), or must ('you have to place')"),
        Option(name="quest_rebuild", default="on-draw", choices=("on-draw", "when-empty"),
               rule="MS-H-QUEST-REBUILD",
               doc="the empty quest deck is rebuilt when a draw finds it empty, or the moment its"
                   " last card is drawn (when-empty)"),
    )
    bots = {"smart": smart_bot}

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
        random first player ("Now, let's get set up!": "mix up the action tokens and randomly
        choose one", MS-FIRST-PLAYER); the others follow in the order they were named
        (MS-H-TURN-ORDER)."""
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
        if isinstance(command, cm.ChooseAction) and just_acted(state, seat):
            return RuleViolation(
                "MS-ONE-ACTION",
                f"{seat} has taken their one action this turn; it is {state.active}'s turn now",
            )
        return None

    def legal_commands(self, state: MSState, seat: str) -> list[Any]:
        return legal.legal_commands(state, seat)

    def summary(self, state: MSState) -> dict[str, Any]:
        return {"turns": state.turn, "finale": state.finale,
                "trophies": sum(len(p.trophies) for p in state.players.values())}



GAME = MyLittleScythe()
