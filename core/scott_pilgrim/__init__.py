"""Scott Pilgrim Miniatures The World: Scott and friends against Matthew Patel and his
Demon Hipster Chicks at the Rockit.

Seats: the last seat plays the Bad Guys (Matthew and the three Chicks); the seats before it
play the Good Guys (one seat: all of them; two seats: two each, in roster order).
"""

from __future__ import annotations

from typing import Any

from arbiter.core.dice import Rng
from arbiter.core.errors import BadContent, BadOption, ParseError, RuleViolation
from arbiter.core.game import Game, Option
from arbiter.core.scott_pilgrim import board as B
from arbiter.core.scott_pilgrim import rules as R
from arbiter.core.scott_pilgrim.commands import FACES, SYNTAX, Cmd, command_text, parse
from arbiter.events.base import Event, GameCreated
from arbiter.events.scott_pilgrim import ItemDrawn, ReactionOpened, TurnBegan
from arbiter.projections.scott_pilgrim import SPProjection, SPState, good_roster

GOOD = ("scott", "ramona", "knives", "stephen", "kim")


class ScottPilgrim(Game[SPState, Cmd]):
    id = "scott-pilgrim"
    short = "sp"
    title = "Scott Pilgrim Miniatures The World"
    rules_version = "2"
    projection = SPProjection()
    min_seats = 2
    max_seats = 3
    syntax = SYNTAX
    options = (
        Option(name="good_guys", default="scott,ramona,knives,stephen",
               doc="the Good Guys in play, one to four of scott, ramona, knives, stephen, kim"
                   " (the rulebook's default is four; which four is a house default)",
               rule="SP-OPT-GOOD-GUYS"),
        Option(name="difficulty", default="normal", choices=("easy", "normal", "hard"),
               doc="the starting Health table (Matthew starts at 35)", house=False,
               rule="SP-SETUP-HEALTH"),
        Option(name="shadow_kick_knockback", default=1, minimum=0, maximum=9,
               doc="Scott's Shadow Kick knockback (the board's [?], read as 1)",
               rule="SP-OPT-SCOTT-BOARD"),
        Option(name="judo_throw_knockback", default=5, minimum=0, maximum=9,
               doc="Scott's Judo Throw knockback (the rulebook's example says 5)",
               rule="SP-OPT-SCOTT-BOARD"),
        Option(name="ko_punch_knockback", default=3, minimum=0, maximum=9,
               doc="Scott's K.O. Punch knockback (the rulebook's example says 3)",
               rule="SP-OPT-SCOTT-BOARD"),
        Option(name="head_butt_damage", default=2, minimum=0, maximum=9,
               doc="Scott's Head Butt combo damage (the board's [?])", rule="SP-OPT-SCOTT-BOARD"),
        Option(name="head_butt_knockback", default=2, minimum=0, maximum=9,
               doc="Scott's Head Butt combo knockback (the board's [?])",
               rule="SP-OPT-SCOTT-BOARD"),
        Option(name="reaction_window", default="always", choices=("always", "when-able", "never"),
               doc="when a Bad Guy uses an ability, the Good Guys get a window to Pause or"
                   " Reverse it: always (so the window does not betray a hidden Pause card),"
                   " only when they can, or never", rule="SP-REACTION-WINDOW"),
        Option(name="chicks_fight", default=True,
               doc="the Chicks may punch, kick and grab objects with the Bad Guys' dice"
                   " (they move only with Matthew)", rule="SP-CHICK-ACTIONS"),
        Option(name="placement", default="choose", choices=("choose", "fixed"),
               doc="setup: each side places its characters behind its start line (choose; 'place"
                   " default' takes the content's suggested spaces), or the content's spaces are"
                   " used at once (fixed)", rule="SP-PLACE-START-LINE"),
        Option(name="max_rounds", default=0, minimum=0, maximum=200,
               doc="house, for bots and tests only: if Matthew still stands after this many"
                   " rounds, the battle ends and the team keeping the larger share of its"
                   " starting Health wins (a tie goes to the Bad Guys); 0 (the default) = no"
                   " limit, as the rulebook: repeat until a team wins", rule="SP-ROUND-LIMIT"),
        Option(name="turn_end", default="dice-spent", choices=("dice-spent", "chosen"),
               doc="\"A turn ends when the team has spent all of their dice or chooses not to"
                   " take any more actions\": dice-spent (the rulebook's first ending: once the"
                   " last die is spent the team takes no more actions, only ends its turn and"
                   " equips items), or chosen (actions that cost no dice -- throws, items,"
                   " boosters, combos -- may follow the last die until the team ends the turn)",
               rule="SP-TURN-END"),
        Option(name="cancelled_xp", default=True,
               doc="a Bad Guy whose ability is paused or reversed still gains the XP for using"
                   " it (XP comes from using an ability; Pause cancels only its effect)",
               rule="SP-HOUSE-CANCELLED-XP"),
    )
    random_play_options = {"max_rounds": 12}

    # -- content and options --------------------------------------------------------------

    def check_content(self, content: dict[str, Any]) -> None:
        super().check_content(content)
        for key in ("venue", "characters", "abilities", "items", "team_dice", "health", "move",
                    "xp_to_level", "boosters_max"):
            if key not in content:
                raise BadContent(f"content lacks the {key!r} table")
        for kind, faces in content["dice"].items():
            bad = [f for f in faces if f not in FACES]
            if bad:
                raise BadContent(f"die {kind!r} has unknown faces {bad} (known: {', '.join(FACES)})")
        for team in ("good", "bad"):
            for k in content["team_dice"].get(team, []):
                if k not in content["dice"]:
                    raise BadContent(f"team_dice.{team} names die {k!r}, which 'dice' lacks")
        v = content["venue"]
        try:
            w, h = int(v["columns"]), int(v["rows"])
        except (KeyError, TypeError, ValueError):
            raise BadContent("venue needs whole-number 'columns' and 'rows'") from None
        if not (3 <= w <= 26 and 3 <= h <= 40):
            raise BadContent("the venue must be 3-26 columns and 3-40 rows")

        def space(pos: Any, what: str) -> None:
            ok = isinstance(pos, str) and len(pos) >= 2 and pos[0].isalpha() and pos[1:].isdigit()
            if not ok or not (0 <= ord(pos[0]) - 97 < w and 1 <= int(pos[1:]) <= h):
                raise BadContent(f"{what}: {pos!r} is not a space of the venue")

        used: dict[str, str] = {}
        for o in v.get("objects", []):
            if "id" not in o or "at" not in o or "kind" not in o:
                raise BadContent("each venue object needs id, kind and at")
            space(o["at"], f"object {o['id']}")
            if o["at"] in used:
                raise BadContent(f"objects {used[o['at']]} and {o['id']} share {o['at']}")
            used[o["at"]] = o["id"]
        for pos in v.get("item_spaces", []):
            space(pos, "item space")
        abilities = content["abilities"]
        for cid, c in content["characters"].items():
            space(c.get("start"), f"{cid}'s start")
            if c["start"] in used:
                raise BadContent(f"{cid} starts on {c['start']}, where {used[c['start']]} stands")
            used[c["start"]] = cid
            for a in c.get("starter", []) + c.get("advanced", []) + c.get("combos", []):
                if a not in abilities:
                    raise BadContent(f"{cid}'s board names ability {a!r}, which 'abilities' lacks")
        if sum(1 for c in content["characters"].values() if c.get("evil_ex")) != 1:
            raise BadContent("exactly one character must be the Evil Ex (evil_ex: true)")
        for aid, a in abilities.items():
            if a.get("target") not in ("adjacent", "range", "each-range", "sight", "each-sight",
                                       "self", "chicks", "reaction"):
                raise BadContent(f"ability {aid} has unknown target kind {a.get('target')!r}")
            for f in a.get("cost", []):
                if f != "any" and f not in FACES:
                    raise BadContent(f"ability {aid} costs unknown face {f!r}")
        option_names = {o.name for o in self.options}
        for aid, a in abilities.items():
            for k in ("damage", "knockback", "move", "range", "heal"):
                v = a.get(k, 0)
                if isinstance(v, str):
                    if not (v.startswith("option:") and v[7:] in option_names):
                        raise BadContent(f"ability {aid}: {k} must be a number or option:NAME, not {v!r}")
                elif not isinstance(v, int) or v < 0:
                    raise BadContent(f"ability {aid}: {k} must be a whole number, not {v!r}")
        for cid in GOOD:
            if cid not in content["characters"] or content["characters"][cid].get("team") != "good":
                raise BadContent(f"the content must define the Good Guy {cid!r}")
        for cid, c in content["characters"].items():
            if c.get("team") not in ("good", "bad"):
                raise BadContent(f"character {cid}: team must be 'good' or 'bad'")
        needs = {"weapon": ("bonus_for", "bonus_damage", "throw_damage"), "heal": ("heal",),
                 "booster": ("boosters",), "xp": ("xp",), "throwable": ("throw_damage",),
                 "armor": ("armor",), "speed": ("speed",)}
        for i in content["items"]:
            for k in needs.get(i.get("kind", ""), ()):
                if k not in i:
                    raise BadContent(f"item {i.get('id')} ({i.get('kind')}) needs {k!r}")
        ids = [i.get("id") for i in content["items"]]
        if len(set(ids)) != len(ids) or not ids:
            raise BadContent("item ids must be present and distinct")
        for i in content["items"]:
            if i.get("kind") not in ("weapon", "pause", "level-up", "heal", "booster", "xp",
                                     "throwable", "armor", "speed"):
                raise BadContent(f"item {i.get('id')} has unknown kind {i.get('kind')!r}")

    def resolve_options(self, given: Any) -> dict[str, Any]:
        opts = super().resolve_options(given)
        roster = good_roster(opts)
        if not 1 <= len(roster) <= 4:
            raise BadOption("good_guys takes one to four of scott, ramona, knives, stephen, kim")
        for g in roster:
            if g not in GOOD:
                raise BadOption(f"good_guys: {g!r} is not a Good Guy ({', '.join(GOOD)})")
        if len(set(roster)) != len(roster):
            raise BadOption("good_guys: each Good Guy at most once")
        opts["good_guys"] = ",".join(roster)
        return opts

    # -- setup ----------------------------------------------------------------------------

    def setup(self, created: GameCreated, rng: Rng) -> list[Event]:
        """Setup: shuffle the 33 items; the Good Guys draw one per Good Guy in play."""
        roster = good_roster(created.options)
        if len(created.seats) == 3 and len(roster) < 2:
            raise BadOption("with three players the two Good Guy players need two Good Guys or more")
        tokens = ["item:" + i["id"] for i in created.content["items"]]
        sh = rng.shuffle("items", tokens)
        events: list[Event] = [sh]
        for tok in sh.order[: len(roster)]:
            events.append(ItemDrawn(by="setup", card=tok))
        if created.options.get("placement") != "choose":
            events.append(TurnBegan(team="bad", round=1))
        return events

    # -- commands -------------------------------------------------------------------------

    def parse(self, state: SPState, seat: str, text: str) -> Cmd:
        chars = {c: v for c, v in state.chars.items()}
        things = set(state.chars) | set(state.objects)
        items = {i["id"] for i in state.content["items"]}
        return parse(text, chars, state.content["abilities"], items, things,
                     state.content["characters"])

    def command_text(self, command: Cmd) -> str:
        return command_text(command)

    def _parse_any(self, state: SPState) -> Any:
        return lambda text: self.parse(state, "", text)

    def decide(self, state: SPState, seat: str, command: Cmd, rng: Rng) -> list[Event]:
        p = R.Play(state, rng)
        events = self._decide(p, state, seat, command)
        if not any(isinstance(e, ReactionOpened) for e in events):
            R.check_choices_used(p)
        return events

    def _decide(self, p: R.Play, state: SPState, seat: str, command: Cmd) -> list[Event]:
        v = command.verb
        s = state
        if v in ("allow", "pause", "reversal"):
            if seat not in s.good_seats:
                raise RuleViolation("SP-NO-WINDOW", "only the Good Guys react to a Bad Guy's ability")
            R.react(p, seat, command, self._parse_any(state))
            return p.events
        p.choose(command)
        R.check_drop_owner(s, command)
        if s.pending is not None and s.pending.kind == "reaction":
            R.check_phase_act(s)
        if R.team_of_seat(s, seat) != s.team and s.phase != "place":
            raise RuleViolation("SP-TEAM-TURN", f"it is the {s.team} guys' turn")
        if s.pending is not None and s.pending.kind == "ex-throw" and v != "throw-item":
            R.check_phase_act(s)
        if v not in ("throw-item", "allow", "pause", "reversal") and s.pending is None:
            R.check_chicks_followed(s, command)
        if v == "place":
            R.place_character(p, seat, command)
        elif v == "roll":
            R.roll_dice(p, seat)
        elif v == "reroll":
            R.reroll(p, command.face)
        elif v == "end":
            R.end_turn(p, seat, command)
        elif v == "equip":
            R.equip(p, seat, command)
        elif v == "use":
            R.use_item(p, seat, command)
        elif v == "throw-item":
            R.ex_throw(p, seat, command)
        else:
            R.check_phase_act(s)
            if not (v == "move" and command.who in s.follow):
                R.check_dice_left(s)
            if v == "move":
                R.move(p, seat, command)
            elif v in ("punch", "kick"):
                R.punch_or_kick(p, seat, command)
            elif v == "grab":
                R.grab_object(p, seat, command)
            elif v == "recover":
                R.recover(p, seat, command)
            elif v == "throw":
                R.throw(p, seat, command)
            else:
                R.special_ability(p, seat, command)
        return p.events

    # -- legal commands -------------------------------------------------------------------

    def _ok(self, state: SPState, seat: str, cmd: Cmd) -> bool:
        try:
            dice = {k: tuple(v) for k, v in state.content["dice"].items()}
            self.decide(state, seat, cmd, Rng(0, 0, dice))
            return True
        except (RuleViolation, ParseError):
            return False

    def candidates(self, s: SPState, seat: str) -> list[Cmd]:
        if s.winner:
            return []
        if s.pending is not None and s.pending.kind == "reaction":
            if seat not in s.good_seats:
                return []
            return [Cmd(verb="allow"), Cmd(verb="pause"), Cmd(verb="reversal")]
        if s.phase == "place":
            return self._place_candidates(s, seat)
        if R.team_of_seat(s, seat) != s.team:
            return []
        if s.pending is not None and s.pending.kind == "ex-throw":
            return [Cmd(verb="throw-item", who=s.pending.who, direction=d) for d in B.DIRS]
        if s.phase == "roll":
            return [Cmd(verb="roll")]
        owed = R.chicks_to_follow(s) if s.team == "bad" else []
        if owed:  # the Chicks finish Matthew's move first: offer the first one's paths
            return self._move_candidates(s, owed[0], [])
        out: list[Cmd] = [Cmd(verb="end")]
        free = [d for d in s.dice if not d.spent]
        if not s.rerolled:
            out += [Cmd(verb="reroll", face=f) for f in sorted({d.face for d in free})]
        occ = B.occupants(s)
        for cid, c in s.chars.items():
            if s.control.get(cid) != seat or c.pos is None:
                continue
            out += self._move_candidates(s, cid, free)
            adj = [t for pos, t in occ.items() if B.adjacent(c.pos, pos)]
            for t in sorted(adj):
                if t in s.objects or R.enemies(s, cid, t):
                    for verb in ("punch", "kick"):
                        out.append(Cmd(verb=verb, who=cid, target=t))
                        out.append(Cmd(verb=verb, who=cid, target=t, power=True))
                        if c.boosters:
                            out.append(Cmd(verb=verb, who=cid, target=t, pay=("booster",)))
                if t in s.objects:
                    out.append(Cmd(verb="grab", who=cid, target=t))
            out.append(Cmd(verb="recover", who=cid))
            if c.holding:
                out += [Cmd(verb="throw", who=cid, direction=d) for d in B.DIRS]
            if c.team == "good":
                throwable = [t for t in s.hand if R.item_def(s, t)["kind"] == "throwable"][:1]
                throwable += [t for t in s.equipped.get(cid, ()) if "throw_damage" in R.item_def(s, t)][:1]
                for tok in throwable:
                    out += [Cmd(verb="throw", who=cid, card=tok[5:], direction=d) for d in B.DIRS]
            if c.chick:
                continue
            abil = R.unlocked(s, cid) + (R.combos(s, cid) if c.combo else [])
            for aid in abil:
                out += self._ability_candidates(s, cid, aid)
        if s.team == "good":
            for tok in sorted(set(s.hand)):
                it = R.item_def(s, tok)
                for g in R.good_order(s):
                    if s.control.get(g) != seat or s.chars[g].out:
                        continue
                    verb = "equip" if it["kind"] in ("weapon", "armor", "speed") else "use"
                    if it["kind"] in ("pause", "throwable"):
                        continue
                    out.append(Cmd(verb=verb, card=tok[5:], who=g))
        return sorted(out, key=menu_rank)

    def _place_candidates(self, s: SPState, seat: str) -> list[Cmd]:
        out = [Cmd(verb="place")]
        mine = sorted((c for c, v in s.chars.items()
                       if s.control.get(c) == seat and v.pos is None and not v.out),
                      key=lambda c: (s.chars[c].chick, c))
        w, h = B.size(s)
        for who in mine[:1]:
            for x in range(w):
                for y in range(h):
                    at = B.name(x, y)
                    if R.placement_problem(s, who, at) is None:
                        out.append(Cmd(verb="place", who=who, target=at))
        return out

    def _move_candidates(self, s: SPState, cid: str, free: list[Any]) -> list[Cmd]:
        c = s.chars[cid]
        assert c.pos
        out = []
        if c.chick:
            left = s.follow.get(cid, 0)
            if left <= 0:
                return out
            for d in B.DIRS.values():
                first = B.step(s, c.pos, d)
                if first is None:
                    continue
                # straight on as far as the walls allow, then back and forth
                path = [first]
                while len(path) < left:
                    nxt = B.step(s, path[-1], d)
                    if nxt is None:
                        break
                    path.append(nxt)
                while len(path) < left:
                    path.append(path[-2] if len(path) >= 2 else c.pos)
                out.append(Cmd(verb="move", who=cid, path=tuple(path)))
                bounce = tuple(first if i % 2 == 0 else c.pos for i in range(left))
                if bounce != tuple(path):
                    out.append(Cmd(verb="move", who=cid, path=bounce))
            return out
        pays: dict[int, tuple[str, ...]] = {}
        wild = R.wild_faces(s, cid)
        for f in sorted({d.face for d in free}, key=lambda f: (f in wild, f)):
            fake = R.DiceSpent(who=cid, purpose="move", dice=("x",), faces=(f,))
            n = R.move_allowance(s, cid, fake)
            pays.setdefault(n, (f,))
        if c.boosters:
            pays.setdefault(2, ("booster",))
        if not pays:
            return out
        top = max(pays)
        for d in B.DIRS.values():
            path = []
            cur = c.pos
            for i in range(top):
                nxt = B.step(s, cur, d)
                if nxt is None:
                    break
                path.append(nxt)
                cur = nxt
                pay = pays[min(n for n in pays if n >= len(path))]
                out.append(Cmd(verb="move", who=cid, path=tuple(path), pay=pay))
        return out

    def _ability_candidates(self, s: SPState, cid: str, aid: str) -> list[Cmd]:
        a = R.ability(s, aid)
        kind = a["target"]
        c = s.chars[cid]
        assert c.pos
        out = []
        foes = [f for f, v in s.chars.items() if v.pos and v.team != c.team]
        if kind == "adjacent":
            ts = [f for f in foes if B.adjacent(c.pos, s.chars[f].pos or "")]
        elif kind == "range":
            ts = [f for f in foes if B.dist(c.pos, s.chars[f].pos or "") <= int(a.get("range", 1))]
        elif kind == "sight":
            seen = B.in_sight(s, c.pos, ignore=cid)
            ts = [t for t in sorted(seen) if t in foes]
        elif kind == "reaction":
            return []
        else:
            ts = [""]
        for t in sorted(ts):
            out.append(Cmd(verb=aid, who=cid, target=t))
            if a.get("extra"):
                out.append(Cmd(verb=aid, who=cid, target=t, extra=1))
        if a.get("move") and kind == "adjacent":
            # move first, then hit: toward each opponent within reach
            for f in foes:
                fp = s.chars[f].pos or ""
                if 1 < B.dist(c.pos, fp) <= int(a["move"]) + 1:
                    d = B.direction(c.pos, fp)
                    path, cur = [], c.pos
                    for _ in range(int(a["move"])):
                        nxt = B.step(s, cur, d)
                        if nxt is None or nxt in B.occupants(s):
                            break
                        path.append(nxt)
                        cur = nxt
                        if B.adjacent(cur, fp):
                            break
                    if path and B.adjacent(cur, fp):
                        out.append(Cmd(verb=aid, who=cid, target=f, path=tuple(path)))
        return out

    def legal_commands(self, state: SPState, seat: str) -> list[Cmd]:
        return [c for c in self.candidates(state, seat) if self._ok(state, seat, c)]

    def summary(self, state: SPState) -> dict[str, Any]:
        return {"winner": state.winner or "", "rounds": state.round,
                "damage": state.log_damage}


MENU = {"end": 0, "punch": 2, "kick": 2, "throw": 3, "grab": 4, "equip": 5, "use": 5,
        "recover": 6, "move": 7, "reroll": 8}


def menu_rank(c: Cmd) -> int:
    """The order of the numbered menu: end, abilities and attacks, items, moves, rerolls."""
    return MENU.get(c.verb, 1)


GAME = ScottPilgrim()

from arbiter.core.scott_pilgrim.bots import smart  # noqa: E402

GAME.bots = {"smart": smart}
