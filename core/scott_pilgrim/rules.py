"""The rules of a battle, one rule a function, named after the rulebook's words.

Every function takes an :class:`Emitter` (the state as it changes while a command resolves,
and the events emitted so far) and emits facts; each check goes through ``require`` (so
``arbiter why`` lists the rules a command met), a bare ``RuleViolation`` only where a
branch decides between two rules.
"""

from __future__ import annotations

from typing import Any

import msgspec

from arbiter.core import game
from arbiter.core.dice import Rng
from arbiter.core.errors import RuleViolation, gate, require
from arbiter.core.scott_pilgrim import board as B
from arbiter.core.scott_pilgrim.commands import (
    REACTIONS, Ability, Allow, Cmd, End, Equip, Grab, Move, Pause, Place, Recover, Reroll, Reversal,
    Roll, Strike, Throw, ThrowItem, Use, choices_of, command_text, parse,
)
from arbiter.events.base import Event
from arbiter.events.scott_pilgrim import (
    AbilityRerolled, AbilityUsed, BattleOver, BoosterGained, ChickMoved, ChicksFollow,
    Damaged, DiceRerolled, DiceSpent, ExThrowPending, HealthRecovered, ItemDiscarded,
    ItemDrawn, ItemEquipped, ItemsTransferred, ItemUsed, KnockedBack, KnockedOut, LeveledUp,
    Moved, Placed, ObjectFlipped, ObjectGrabbed, ObjectRemoved, Poofed, PoolRolled, Pushed,
    ReactionOpened, ReactionTaken, ShieldedBy, Summoned, Thrown, TurnBegan, TurnEnded,
    XPGained,
)
from arbiter.projections.scott_pilgrim import (
    SPProjection, SPState, card_id, seats_in_fight, unplaced_seats,
)

PROJ = SPProjection()
BASIC = ("move", "punch", "kick", "grab")


class Emitter(game.Emitter[SPState]):
    """A command being resolved: the state so far, the events that made it, and the
    scratch of the effect under way (Chicks to poof, things knocked back, choices)."""

    def __init__(self, state: SPState, rng: Rng | None = None) -> None:
        super().__init__(state, PROJ, rng)
        self.poof: list[str] = []
        self.knocked: list[str] = []
        self.displaced: dict[str, str] = {}
        self.walled: list[str] = []  # things already stopped against a wall in this effect
        self.by = ""
        # the acting player's choices: (kind, thing) -> direction or space; and those used
        self.choices: dict[tuple[str, str], str] = {}
        self.used: set[tuple[str, str]] = set()
        # choices checked when the Bad Guys declared them, not asked of the Good Guys' answer
        self.declared: set[tuple[str, str]] = set()

    def choose(self, cmd: Cmd, reflected: bool = False) -> None:
        """Take the command's knock/land/drop choices (later commands override earlier).
        ``reflected``: the Bad Guys' choices for an ability Scott turns back on them keep
        everything but the direction of a Bad Guy's knockback, which Scott now deals."""
        for kind, thing, value in choices_of(cmd):
            if reflected and kind == "knock" and thing in self.state.chars \
                    and self.state.chars[thing].team == "bad":
                continue
            self.choices[(kind, thing)] = value
            self.declared.discard((kind, thing))

    def chosen(self, kind: str, thing: str, options: list[str], default: str, rule: str,
               what: str) -> str:
        """The acting player's pick among ``options`` (the default when none was named)."""
        key = (kind, thing)
        if key not in self.choices:
            return default
        self.used.add(key)
        pick = self.choices[key]
        require(pick in options, rule,
                f"{what}: {pick} is not one of the choices ({', '.join(options)})")
        return pick


def check_choices_used(p: Emitter) -> None:
    """A knock, land or drop choice must name something the effect left open."""
    if not p.choices:  # the command named none: the rule has nothing to check
        return
    unused = [f"{k} {t}@{v}" for (k, t), v in p.choices.items()
              if (k, t) not in p.used and (k, t) not in p.declared]
    require(not unused, "SP-CHOICE",
            f"nothing in this effect needs the choice {', '.join(unused)}"
            " (knock: an unclear knockback direction; land: a second"
            " thing against the same wall; drop: a shielding object; items: a knocked-out"
            " Good Guy's equipped items)")


def check_drop_owner(s: SPState, cmd: Cmd) -> None:
    """Held objects shield you, and you drop the object where you choose: a Good Guy hit on
    the Bad Guys' turn names the space in the Good Guys' answer, not the Bad Guys' (with no
    window, reaction_window=never, the house default places it: SP-HOUSE-SHIELD-DROP; and a
    knocked-out Good Guy's items go to the first teammate: SP-HOUSE-ITEMS-TRANSFER)."""
    if s.team != "bad":
        return
    for kind, obj, _ in choices_of(cmd):
        require(kind != "items", "SP-ITEMS-TRANSFER",
                "the Good Guys choose who takes a knocked-out Good Guy's items: they answer"
                f" 'allow items {obj}@MATE' (with no window to answer in, the first teammate"
                " in the fight takes them)")
        holder = next((c for c in s.chars.values() if c.holding == obj), None)
        require(not (kind == "drop" and holder is not None and holder.team == "good"), "SP-HELD-SHIELD",
                f"{holder.id if holder else 'the holder'}'s player chooses where the {obj} drops:"
                f" the Good Guys answer 'allow drop {obj}@SPACE' (with no window to answer in,"
                " it drops on the first empty space in board order)")


# -- content helpers --------------------------------------------------------------------

def ability(s: SPState, aid: str) -> dict[str, Any]:
    return s.content["abilities"][aid]


def num(s: SPState, value: Any) -> int:
    """A number on a board, or the option that fills a rulebook ``[?]``."""
    if isinstance(value, str) and value.startswith("option:"):
        return int(s.options[value.split(":", 1)[1]])
    return int(value or 0)


def item_def(s: SPState, token: str) -> dict[str, Any]:
    cid = card_id(token)
    for it in s.content["items"]:
        if it["id"] == cid:
            return it
    raise KeyError(cid)


def unlocked(s: SPState, who: str) -> list[str]:
    """The special abilities a character may use: starters plus the advanced unlocked."""
    d = s.content["characters"][who]
    return list(d["starter"]) + list(d["advanced"][: s.chars[who].level])


def combos(s: SPState, who: str) -> list[str]:
    return list(s.content["characters"][who]["combos"])


def enemies(s: SPState, a: str, b: str) -> bool:
    return b in s.chars and s.chars[a].team != s.chars[b].team


def on_board(s: SPState, thing: str) -> bool:
    return B.where(s, thing) is not None


def team_of_seat(s: SPState, seat: str) -> str:
    return "bad" if seat == s.bad_seat else "good"


def out_of_fight(s: SPState, seat: str) -> RuleViolation | None:
    """House reading: a Good Guys' player whose Good Guys are all knocked out ("Remove their
    miniature from the board permanently") has no one left to play, so takes no more of the
    team's decisions -- not its actions, its reroll, its items or the end of its turn."""
    if seat not in s.good_seats or seat in seats_in_fight(s):
        return None
    return RuleViolation("SP-HOUSE-OUT-OF-FIGHT",
                         f"{seat}'s Good Guys are all knocked out: {', '.join(seats_in_fight(s))}"
                         " now take the Good Guys' decisions")


# -- setup: placing the characters ------------------------------------------------------

def start_columns(s: SPState, team: str) -> list[str]:
    return list(s.content["venue"][f"{team}_start_columns"])


def placement_problem(s: SPState, who: str, at: str) -> tuple[str, str] | None:
    """Why ``who`` may not be placed on ``at`` (rule id, message), or None."""
    c = s.chars[who]
    if not B.is_space(s, at):
        return "SP-PLACE-START-LINE", f"{at} is not a space of the Rockit"
    if at[0] not in start_columns(s, c.team):
        side = "Rockit stage" if c.team == "good" else "Rockit seating"
        cols = "-".join(start_columns(s, c.team)[:: max(1, len(start_columns(s, c.team)) - 1)])
        return "SP-PLACE-START-LINE", f"{who} starts behind the start line on the {side} side (columns {cols})"
    if at in B.occupants(s):
        return "SP-PLACE-EMPTY", f"{at} is taken: characters cannot share a space with characters or objects"
    if c.chick:
        ex = next(x for x in s.chars.values() if x.evil_ex)
        if ex.pos is None:
            return "SP-PLACE-CHICKS", "place Matthew Patel first; his Chicks go within two spaces of him"
        if B.dist(ex.pos, at) > 2:
            return "SP-PLACE-CHICKS", f"{at} is not within two spaces of Matthew Patel"
    return None


def place_character(p: Emitter, seat: str, cmd: Any) -> None:
    """Setup: Good Guys behind the stage-side start line, then Matthew behind the seating
    side's, then his Chicks within two spaces of him; no two on one space."""
    s = p.state
    require(s.phase == "place", "SP-PLACE-SETUP", "the characters were placed at setup")
    require(seat in unplaced_seats(s), "SP-PLACE-ORDER",
            "the Good Guys place their characters first")
    mine = [c for c, v in s.chars.items() if s.control.get(c) == seat and v.pos is None and not v.out]
    mine.sort(key=lambda c: (s.chars[c].chick, c))
    if cmd.who:
        require(cmd.who not in s.chars or s.control.get(cmd.who) == seat, "SP-YOUR-CHARACTERS",
                f"{cmd.who} is not one of your characters")
        require(cmd.who in mine, "SP-PLACE-ONCE",
                f"{cmd.who} is not one of your characters still to place")
        why = placement_problem(s, cmd.who, cmd.target)
        if why:
            raise RuleViolation(*why)
        p.emit(Placed(who=cmd.who, at=cmd.target))
    else:
        for who in mine:
            want = p.state.content["characters"][who]["start"]
            if placement_problem(p.state, who, want):
                w, h = B.size(p.state)
                spots = sorted((B.name(x, y) for x in range(w) for y in range(h)),
                               key=lambda q: (B.dist(q, want), q))
                want = next((q for q in spots if placement_problem(p.state, who, q) is None), "")
                require(want, "SP-PLACE-EMPTY", f"there is no space left to place {who}")
            p.emit(Placed(who=who, at=want))
    if all(v.pos is not None or v.out for v in p.state.chars.values()):
        p.emit(TurnBegan(team="bad", round=1))


# -- checks shared by actions -----------------------------------------------------------

def check_phase_act(s: SPState) -> None:
    """Phase Two: actions come after the team has rolled its dice."""
    if s.pending is not None:
        require(s.pending.kind != "reaction", "SP-REACTION-WINDOW",
                "the Good Guys must first answer the Bad Guys' ability")
        raise RuleViolation("SP-HOUSE-EX-THROW-AFTER", "the Evil Ex must first throw the item he drew")
    gate(s.phase != "place", "SP-PLACE-SETUP",
         "place every character before the first round (place WHO SPACE, or place default)")
    gate(s.phase != "roll", "SP-ROLL-FIRST", "roll your team's dice first")


def check_dice_left(s: SPState) -> None:
    """Phase Two: "A turn ends when the team has spent all of their dice or chooses not to
    take any more actions." With turn_end=dice-spent, spending the last die ends the
    team's actions: only ending the turn (and equipping items) remains."""
    if s.options.get("turn_end", "dice-spent") != "dice-spent" or not s.dice:
        return
    require(any(not d.spent for d in s.dice), "SP-TURN-END",
            "your team has spent all of its dice, so its turn is over: end it"
            + (" (equipping items is still allowed)" if s.team == "good" else ""))


def check_controls(s: SPState, seat: str, who: str) -> None:
    """Each player acts only with the characters they play."""
    require(who in s.chars, "SP-NOT-IN-PLAY", f"{who} is not in this battle")
    require(s.control.get(who) == seat, "SP-YOUR-CHARACTERS",
            f"{who} is not one of your characters")
    c = s.chars[who]
    require(not c.out, "SP-KNOCKED-OUT", f"{who} has been knocked out")
    require(not (c.poofed or c.pos is None), "SP-KNOCKED-OUT", f"{who} is not on the board")


def check_not_holding(s: SPState, who: str, what: str) -> None:
    """Held objects are awkward: no punch, kick, grab or special ability while holding."""
    c = s.chars[who]
    require(not c.holding, "SP-HELD-AWKWARD",
            f"{who} cannot {what} while holding the {s.objects[c.holding].kind if c.holding else ''}")


# -- dice -------------------------------------------------------------------------------

def wild_faces(s: SPState, who: str) -> tuple[str, ...]:
    """Health dice are wild for Good Guys; Matthew's Magic dice are wild for the Bad Guys."""
    return ("health",) if s.chars[who].team == "good" else ("magic",)


def pay(p: Emitter, who: str, cost: list[str], given: tuple[str, ...], purpose: str,
        basic: bool) -> DiceSpent:
    """Spend dice (or boosters, for basic abilities) that cover ``cost``."""
    s = p.state
    c = s.chars[who]
    wild = wild_faces(s, who)
    free = [d for d in s.dice if not d.spent]
    if given:
        require(len(given) == len(cost), "SP-DICE-COST",
                f"{purpose} costs {len(cost)} dice ({' '.join(cost)}), not {len(given)}")
        boosters = sum(1 for f in given if f == "booster")
        require(not (boosters and (not basic or c.team != "good")), "SP-BOOSTER-USE",
                "a booster token only moves 2 spaces or pays for a punch, kick or grab")
        require(boosters <= c.boosters, "SP-BOOSTER-USE",
                f"{who} has only {c.boosters} booster token{'' if c.boosters == 1 else 's'}")
        faces = [f for f in given if f != "booster"]
        require(_covers(faces, cost, wild, boosters), "SP-DICE-COST",
                f"{' '.join(given)} does not pay for {purpose} ({' '.join(cost)})")
        chosen = []
        for f in faces:
            d = next((d for d in free if d.face == f and d.id not in chosen), None)
            require(d is not None, "SP-DICE-NONE", f"your team has no unspent {f} die left")
            chosen.append(d.id)
        ev = DiceSpent(who=who, purpose=purpose, dice=tuple(chosen), faces=tuple(faces),
                       boosters=boosters)
    else:
        chosen_d = auto_pay(s, cost, wild, free)
        if chosen_d is not None and ("any" in cost or any(d.face in wild for d in chosen_d)):
            require(True, "SP-HOUSE-AUTO-PAY", "")  # the referee chose among the team's dice
        if chosen_d is None:
            if basic and c.team == "good" and c.boosters >= len(cost):
                ev = DiceSpent(who=who, purpose=purpose, dice=(), faces=(), boosters=len(cost))
                p.emit(ev)
                return ev
            raise RuleViolation("SP-DICE-NONE", f"your team's unspent dice cannot pay for {purpose} ({' '.join(cost)})")
        ev = DiceSpent(who=who, purpose=purpose, dice=tuple(d.id for d in chosen_d),
                       faces=tuple(d.face for d in chosen_d))
    p.emit(ev)
    return ev


def sorted_cost(cost: list[str]) -> list[str]:
    return sorted(cost, key=lambda f: (f == "any", f))


def _covers(faces: list[str], cost: list[str], wild: tuple[str, ...], boosters: int) -> bool:
    """Whether the faces (plus boosters, which pay for anything basic) cover the cost."""
    need = sorted_cost(cost)
    pool = list(faces)
    for req in need:
        pick = None
        for f in pool:
            if f == req:
                pick = f
                break
        if pick is None and req == "any" and pool:
            pick = pool[0]
        if pick is None:
            pick = next((f for f in pool if f in wild), None)
        if pick is None:
            if boosters:
                boosters -= 1
                continue
            return False
        pool.remove(pick)
    return not pool


def auto_pay(s: SPState, cost: list[str], wild: tuple[str, ...], free: list[Any]) -> list[Any] | None:
    """House (SP-HOUSE-AUTO-PAY): the referee's choice of dice when none are named: exact
    faces first; an "any die" from the face the team has most of; wild dice last."""
    pool = list(free)
    chosen = []
    for req in sorted_cost(cost):
        pick = None
        if req != "any":
            pick = next((d for d in pool if d.face == req), None)
        else:
            counts: dict[str, int] = {}
            for d in pool:
                if d.face not in wild:
                    counts[d.face] = counts.get(d.face, 0) + 1
            if counts:
                best = sorted(counts, key=lambda f: (-counts[f], f))[0]
                pick = next(d for d in pool if d.face == best)
        if pick is None:
            pick = next((d for d in pool if d.face in wild), None)
        if pick is None:
            return None
        pool.remove(pick)
        chosen.append(pick)
    return chosen


def roll_dice(p: Emitter, seat: str) -> None:
    """Phase One: the Bad Guys roll 2 blue and 3 red, the Good Guys 2 blue and 3 yellow."""
    s = p.state
    gate(s.phase != "place", "SP-PLACE-SETUP",
         "place every character before the first round (place WHO SPACE, or place default)")
    require(s.phase == "roll", "SP-ROLL-ONCE", "your team has already rolled this turn")
    kinds = list(s.content["team_dice"][s.team])
    assert p.rng is not None
    ev = p.rng.roll(kinds, purpose=f"{s.team} turn")
    p.emit(ev)
    ids = tuple(f"{k[0]}{i + 1}" for i, k in enumerate(kinds))
    p.emit(PoolRolled(team=s.team, dice=ids, faces=tuple(ev.faces)))


def reroll(p: Emitter, face: str) -> None:
    """Reroll: once per turn a team may reroll all unspent dice showing the same icon."""
    s = p.state
    check_phase_act(s)
    require(not s.rerolled, "SP-REROLL-ONCE", "your team has already rerolled this turn")
    dice = [d for d in s.dice if not d.spent and d.face == face]
    require(dice, "SP-REROLL-FACE", f"no unspent die shows {face}")
    assert p.rng is not None
    ev = p.rng.roll([d.kind for d in dice], purpose=f"reroll {face}")
    p.emit(ev)
    p.emit(DiceRerolled(face=face, dice=tuple(d.id for d in dice), faces=tuple(ev.faces)))


# -- damage, knockback, walls -----------------------------------------------------------

def damage_bonus(s: SPState, who: str) -> int:
    """Items equipped on their own character add to that character's ability damage."""
    bonus = 0
    for tok in s.equipped.get(who, ()):
        it = item_def(s, tok)
        if it.get("bonus_for") == who:
            bonus += int(it.get("bonus_damage", 0))
    return bonus


def armor(s: SPState, who: str) -> int:
    return sum(int(item_def(s, t).get("armor", 0)) for t in s.equipped.get(who, ()))


def deal_damage(p: Emitter, target: str, amount: int, source: str, by: str = "") -> None:
    """Damage: characters lose Health, Chicks poof, objects flip or leave."""
    s = p.state
    if amount <= 0 or not on_board(s, target):
        return
    if target in s.objects:
        damage_object(p, target, amount, source, by)
        return
    c = s.chars[target]
    if by and by in s.chars and s.chars[by].team == c.team and source != "wall":
        return  # you cannot damage a teammate
    if c.holding:
        held_object_shields(p, target, amount, source, by)
        return
    if c.chick:
        p.emit(Damaged(target=target, amount=amount, source=source, by=by))
        if target not in p.poof:
            p.poof.append(target)
        return
    amount = max(0, amount - armor(s, target))
    if amount <= 0:
        return
    p.emit(Damaged(target=target, amount=amount, source=source, by=by))
    if p.state.chars[target].health <= 0:
        knock_out(p, target)


def damage_object(p: Emitter, obj: str, amount: int, source: str, by: str) -> None:
    """Flip a damaged object; a damaged one (or the Mic Stand at once) leaves the board."""
    s = p.state
    o = s.objects[obj]
    p.emit(Damaged(target=obj, amount=amount, source=source, by=by))
    fragile = any(d["id"] == obj and d.get("fragile") for d in s.content["venue"]["objects"])
    if o.damaged or fragile:
        p.emit(ObjectRemoved(obj=obj))
    else:
        p.emit(ObjectFlipped(obj=obj))


def held_object_shields(p: Emitter, holder: str, amount: int, source: str, by: str) -> None:
    """Held objects shield you: the object takes the damage and drops next to you."""
    s = p.state
    c = s.chars[holder]
    obj = c.holding
    assert obj and c.pos
    occ = B.occupants(s)
    spots = [n for n in B.neighbours(s, c.pos) if n not in occ]
    if spots:
        at = p.chosen("drop", obj, spots, spots[0], "SP-HELD-SHIELD",
                      f"the {s.objects[obj].kind} drops into an empty space next to {holder}")
        p.emit(ShieldedBy(holder=holder, obj=obj, at=at))
        damage_object(p, obj, amount, source, by)
    else:
        p.emit(Damaged(target=obj, amount=amount, source=source, by=by))
        p.emit(ObjectRemoved(obj=obj))


def knock_out(p: Emitter, who: str) -> None:
    """A character at 0 Health is knocked out; a Good Guy's equipped items pass on."""
    s = p.state
    c = s.chars[who]
    p.emit(KnockedOut(who=who))
    if c.holding:
        pass  # the held object drops where the character stood (see evolve)
    if c.team == "good" and s.equipped.get(who):
        mates = [m for m in good_order(s) if m != who and not s.chars[m].out]
        if mates:
            to = p.chosen("items", who, mates, mates[0], "SP-ITEMS-TRANSFER",
                          f"{who}'s equipped items go to a teammate still in the fight")
            p.emit(ItemsTransferred(frm=who, to=to, cards=tuple(s.equipped[who])))


def good_order(s: SPState) -> list[str]:
    return [c for c in s.chars if s.chars[c].team == "good"]


def knockback(p: Emitter, what: str, d: tuple[int, int], n: int) -> None:
    """Knockback: a straight line away from the hit; things in the path are knocked too."""
    s = p.state
    start = B.where(s, what)
    if start is None or n <= 0 or what in p.walled:
        return
    if what not in p.knocked:
        p.knocked.append(what)
    cur = start
    for i in range(n):
        nxt = B.step(p.state, cur, d)
        if nxt is None:
            knockback_into_wall(p, what, start, cur)
            return
        ahead = B.occupants(p.state).get(nxt)
        if ahead and ahead != what:
            if cur != start:
                p.emit(KnockedBack(what=what, frm=start, to=cur))
                start = cur
            knockback(p, ahead, d, n - i)
            if B.occupants(p.state).get(nxt) not in (None, what):
                knockback_pile_up(p, what, cur, nxt, d)
                return
        cur = nxt
    if cur != start:
        p.emit(KnockedBack(what=what, frm=start, to=cur))


def knockback_into_wall(p: Emitter, what: str, start: str, cur: str) -> None:
    """Knocking into the wall: 1 damage (only 1) and stop on the space touching it."""
    require(what not in p.walled, "SP-KNOCKBACK-WALL",
            f"{what} already hit the wall: they still only take 1 damage")
    p.emit(KnockedBack(what=what, frm=start, to=cur, wall=True))
    p.walled.append(what)
    deal_damage(p, what, 1, "wall", p.by)


def knockback_pile_up(p: Emitter, what: str, cur: str, blocked: str, d: tuple[int, int]) -> None:
    """Several things into one wall: each beyond the first ends on an adjacent empty space
    touching the wall (else next to something just knocked back) and takes 1 damage."""
    s = p.state
    occ = B.occupants(s)
    spots = [n for n in B.neighbours(s, blocked)
             if n not in occ and B.step(s, n, d) is None]
    if not spots:
        near = set()
        for k in p.knocked:
            kp = B.where(s, k)
            if kp:
                near |= {n for n in B.neighbours(s, kp) if n not in occ}
        spots = sorted(near)
    spots.sort(key=lambda n: (B.dist(n, cur), n))
    dest = spots[0] if spots else cur
    if spots:
        dest = p.chosen("land", what, spots, dest, "SP-KNOCKBACK-WALL",
                        f"{what} ends on an empty space touching the wall next to {blocked}"
                        " (or next to something just knocked back)")
    p.emit(KnockedBack(what=what, frm=cur, to=dest, wall=True))
    p.walled.append(what)
    if dest != blocked:
        p.displaced[what] = blocked
    deal_damage(p, what, 1, "wall", p.by)


def finish_effect(p: Emitter) -> None:
    """After an effect: damaged Chicks poof, then things displaced at a wall settle into
    the space a poofed Chick left (the rulebook's Judo Throw example)."""
    for chick in p.poof:
        if p.state.chars[chick].pos is not None:
            p.emit(Poofed(chick=chick))
    p.poof = []
    occ = B.occupants(p.state)
    for what, spot in p.displaced.items():
        at = B.where(p.state, what)
        if at and spot not in occ:
            p.emit(KnockedBack(what=what, frm=at, to=spot))
            occ = B.occupants(p.state)
    p.displaced = {}
    p.knocked = []
    p.walled = []
    check_win(p)


def check_win(p: Emitter) -> None:
    """Winning the Game: "The Good Guys win if Matthew Patel ... is knocked out. The Bad Guys
    win if all the Good Guys are knocked out." Checked once the effect is finished; when it
    knocked out both, the Good Guys win (house reading, SP-HOUSE-BOTH-OUT)."""
    s = p.state
    if s.winner:
        return
    ex_out = any(c.evil_ex and c.out for c in s.chars.values())
    goods_out = all(c.out for c in s.chars.values() if c.team == "good")
    if ex_out or goods_out:
        require(True, "SP-WIN", "")
    if ex_out and goods_out:
        require(True, "SP-HOUSE-BOTH-OUT", "")
        p.emit(BattleOver(winner="good", reason="Matthew Patel is knocked out, by the same effect"
                          " as the last Good Guy (house reading: the Good Guys win)"))
    elif ex_out:
        p.emit(BattleOver(winner="good", reason="Matthew Patel is knocked out"))
    elif goods_out:
        p.emit(BattleOver(winner="bad", reason="all the Good Guys are knocked out"))


def hit(p: Emitter, user: str, target: str, damage: int, kb: int, source: str,
        d: tuple[int, int] | None = None) -> None:
    """Deal damage, then knockback away from the user."""
    s = p.state
    upos, tpos = s.chars[user].pos, B.where(s, target)
    if tpos is None:
        return
    p.by = user
    deal_damage(p, target, damage, source, user)
    if kb and on_board(p.state, target):
        direction = d or knockback_direction(p, upos or tpos, target, tpos)
        knockback(p, target, direction, kb)


def knockback_direction(p: Emitter, frm: str, target: str, tpos: str) -> tuple[int, int]:
    """Knockback goes straight away from the hit; when that is unclear (not along a row,
    column or diagonal) the player dealing the knockback chooses between the two nearest."""
    options = B.directions_away(frm, tpos)
    default = B.DIR_NAMES[B.direction(frm, tpos)]
    pick = p.chosen("knock", target, options, default, "SP-KNOCKBACK-DIRECTION",
                    f"{target} is knocked straight away from the hit")
    return B.DIRS[pick]


# -- XP ---------------------------------------------------------------------------------

def gain_xp(p: Emitter, who: str, amount: int = 1) -> None:
    """Gaining XP: abilities, power-ups and thrown objects; level up at the fifth space."""
    c = p.state.chars[who]
    if c.chick or c.out:
        return
    p.emit(XPGained(who=who, amount=amount))
    if p.state.chars[who].xp >= int(p.state.content["xp_to_level"]):
        level_up(p, who)


def level_up(p: Emitter, who: str) -> None:
    """Level Up: star back to the bottom, a combo cube, unlock the next advanced ability."""
    c = p.state.chars[who]
    adv = p.state.content["characters"][who]["advanced"]
    nxt = adv[c.level] if c.level < len(adv) else ""
    p.emit(LeveledUp(who=who, unlocked=nxt))


# -- movement ---------------------------------------------------------------------------

def move_allowance(s: SPState, who: str, spent: DiceSpent) -> int:
    """Move: "For each Speed die you spend, you can move up to 3 spaces. For each other die
    (Guts, Will, Health, Magic) you spend, you can move up to 2 spaces." A wild die (Health,
    Magic) is one of the other dice here; bonuses add to their icon."""
    mv = s.content["move"]
    bonus = s.content["characters"][who].get("bonus", {})
    speed_items = sum(int(item_def(s, t).get("speed", 0)) for t in s.equipped.get(who, ()))
    total = 0
    for f in spent.faces:
        if f == "speed":
            total += int(mv["speed"]) + int(bonus.get("speed", 0)) + speed_items
        else:
            total += int(mv["other"]) + int(bonus.get(f, 0))
    return total + spent.boosters * int(mv["booster"])


def auto_move_pay(s: SPState, who: str, n: int) -> tuple[str, ...]:
    """The dice (Speed first, wild last, then boosters) the referee spends for an unpaid
    move of ``n`` spaces (house, SP-HOUSE-AUTO-PAY)."""
    free = [d for d in s.dice if not d.spent]
    wild = wild_faces(s, who)
    order = sorted(free, key=lambda d: (0 if d.face == "speed" else 2 if d.face in wild else 1, d.id))
    faces: list[str] = []
    total = 0
    for d in order:
        if total >= n:
            break
        faces.append(d.face)
        total = move_allowance(s, who, DiceSpent(who=who, purpose="move", dice=(), faces=tuple(faces)))
    boosters = s.chars[who].boosters if s.chars[who].team == "good" else 0
    while total < n and boosters:
        faces.append("booster")
        boosters -= 1
        total += int(s.content["move"]["booster"])
    require(total >= n, "SP-MOVE-SPACES",
            f"your team's unspent dice give {who} only {total} spaces of movement, not {n}")
    require(True, "SP-HOUSE-AUTO-PAY", "")  # the referee chose which dice move
    return tuple(faces)


def walk(p: Emitter, who: str, path: tuple[str, ...], *, grab_items: bool, max_steps: int,
         throw_dir: str = "") -> bool:
    """Move step by step to adjacent spaces, pushing what stands in the way."""
    s = p.state
    require(len(path) <= max_steps, "SP-MOVE-SPACES",
            f"{who} may move only {max_steps} spaces here, not {len(path)}")
    cur = s.chars[who].pos
    assert cur
    thrown = False
    for nxt in path:
        require(B.is_space(p.state, nxt), "SP-MOVE-WALL",
                f"{nxt} is not a space of the Rockit (walls are permanent)")
        require(B.adjacent(cur, nxt), "SP-MOVE-ADJACENT", f"{nxt} is not adjacent to {cur}")
        d = (B.xy(nxt)[0] - B.xy(cur)[0], B.xy(nxt)[1] - B.xy(cur)[1])
        push(p, who, nxt, d)
        p.emit(Moved(who=who, path=(nxt,)))
        cur = nxt
        if grab_items:
            grab_an_item(p, who, nxt)
            pend = p.state.pending
            if throw_dir and pend is not None and pend.kind == "ex-throw" and pend.who == who:
                throw_drawn_item(p, throw_dir)  # at once, from the item space
                thrown = True
    return thrown


def push(p: Emitter, mover: str, into: str, d: tuple[int, int]) -> None:
    """Pushing: what is in the space moves one space on; no squishing into a wall."""
    occ = B.occupants(p.state)
    chain = []
    pos = into
    while pos in occ and occ[pos] != mover:
        chain.append((occ[pos], pos))
        nxt = B.step(p.state, pos, d)
        # the rulebook's "No squishing!" names characters; an object is the house reading's
        require(nxt is not None, "SP-PUSH-SQUISH" if occ[pos] in p.state.chars else "SP-HOUSE-SQUISH-OBJECT",
                f"no squishing: moving into {into} would push {occ[pos]} into the wall")
        pos = nxt
    for thing, at in reversed(chain):
        to = B.step(p.state, at, d)
        assert to
        p.emit(Pushed(what=thing, frm=at, to=to))


def grab_an_item(p: Emitter, who: str, pos: str) -> None:
    """Grab an Item: a Good Guy moving onto an item space draws (once per turn each);
    the Evil Ex draws and must throw it (once per turn)."""
    s = p.state
    if pos not in s.content["venue"]["item_spaces"] or not s.deck:
        return
    c = s.chars[who]
    if c.team == "good" and who not in s.drew:
        p.emit(ItemDrawn(by=who, card=s.deck[0]))
    elif c.evil_ex and not s.ex_threw and s.pending is None:
        card = s.deck[0]
        p.emit(ItemDrawn(by=who, card=card))
        p.emit(ExThrowPending(who=who, card=card, origin=pos))


def move(p: Emitter, seat: str, cmd: Cmd) -> None:
    """Move: spend dice or boosters for spaces of movement."""
    s = p.state
    check_controls(s, seat, cmd.who)
    c = s.chars[cmd.who]
    if c.chick:
        chick_follows(p, cmd)
        return
    given = cmd.pay or auto_move_pay(s, cmd.who, len(cmd.path))
    spent = pay(p, cmd.who, ["any"] * len(given), given, "move", basic=True)
    allowance = move_allowance(p.state, cmd.who, spent)
    thrown = walk(p, cmd.who, cmd.path, grab_items=True, max_steps=allowance, throw_dir=cmd.direction)
    if cmd.direction:  # a move that throws nothing has nothing to ask of the rule
        require(thrown, "SP-EX-THROW", f"{cmd.who} draws no item on this move: there is nothing to throw")
    if c.evil_ex:
        chicks = tuple(k for k, v in p.state.chars.items() if v.chick and v.pos)
        if chicks:
            p.emit(ChicksFollow(spaces=len(cmd.path), chicks=chicks))


def chick_follows(p: Emitter, cmd: Cmd) -> None:
    """Whenever Matthew moves, each Chick on the board moves the same number of spaces
    (not fewer), in a direction the Bad Guys choose; each space is any adjacent space."""
    left = p.state.follow.get(cmd.who, 0)
    if left <= 0:
        owed = chicks_to_follow(p.state)
        raise RuleViolation("SP-CHICK-MOVE", f"{cmd.who} moves only when Matthew moves, the same"
                            " number of spaces, and has no move of his left to follow"
                            + (f"; {', '.join(owed)} still to follow him first (SP-HOUSE-CHICK-MOVE)"
                               if owed else ""))
    require(not cmd.pay, "SP-CHICK-MOVE", "a Chick following Matthew spends no dice")
    gate(not cmd.direction, "SP-EX-THROW", "only the Evil Ex grabs and throws items")
    require(len(cmd.path) == left, "SP-CHICK-MOVE",
            f"{cmd.who} moves the same number of spaces as Matthew: exactly {left},"
            f" not {len(cmd.path)} (she may step back and forth)")
    walk(p, cmd.who, cmd.path, grab_items=False, max_steps=left)
    p.emit(ChickMoved(who=cmd.who, path=cmd.path))


def can_step(s: SPState, who: str) -> bool:
    """Whether a character can take one space of movement (into an empty space, or pushing
    a line of things that does not end at a wall)."""
    pos = s.chars[who].pos
    if pos is None:
        return False
    occ = B.occupants(s)
    for d in B.DIRS.values():
        cur = B.step(s, pos, d)
        while cur is not None and cur in occ:
            cur = B.step(s, cur, d)
        if cur is not None:
            return True
    return False


def chicks_to_follow(s: SPState) -> list[str]:
    """The Chicks that still owe Matthew's move (a boxed-in Chick that cannot step stays)."""
    return sorted(c for c, n in s.follow.items()
                  if n > 0 and c in s.chars and s.chars[c].pos and can_step(s, c))


def check_chicks_followed(s: SPState, cmd: Cmd) -> None:
    """House reading (SP-HOUSE-CHICK-MOVE): the Chicks' move is part of Matthew's, so it is
    finished before the Bad Guys do anything else ("Matthew Patel and the Demon Hipster
    Chicks" says only that they move whenever he does)."""
    if s.team != "bad" or (isinstance(cmd, Move) and cmd.who in s.chars and s.chars[cmd.who].chick):
        return  # a Chick's own move is judged by the book's rule (SP-CHICK-MOVE)
    owed = chicks_to_follow(s)
    if owed:
        def spaces(n: int) -> str:
            return f"{n} space" + ("s" if n != 1 else "")
        raise RuleViolation("SP-HOUSE-CHICK-MOVE",
                            "first the Chicks follow Matthew's move: " + ", ".join(
                                f"{c} {spaces(s.follow[c])}" for c in owed)
                            + f" (write {owed[0]} move SPACE ..., one space a step)")


# -- basic abilities --------------------------------------------------------------------

def check_target_adjacent(s: SPState, who: str, target: str) -> None:
    require(target, "SP-TARGET", "name the target")
    tpos = B.where(s, target)
    require(tpos is not None, "SP-TARGET", f"{target} is not on the board")
    require(B.adjacent(s.chars[who].pos or "", tpos), "SP-ADJACENT",
            f"{target} is not adjacent to {who}")


def punch_or_kick(p: Emitter, seat: str, cmd: Cmd) -> None:
    """Punch (Will) or kick (Speed): 1 damage to an adjacent character or object;
    power up with a second die for +1 damage and 1 XP."""
    s = p.state
    check_controls(s, seat, cmd.who)
    c = s.chars[cmd.who]
    require(not (c.chick and not s.options["chicks_fight"]), "SP-CHICK-ACTIONS",
            "the Demon Hipster Chicks only fight through Matthew's abilities")
    check_not_holding(s, cmd.who, cmd.verb)
    check_target_adjacent(s, cmd.who, cmd.target)
    require(not (cmd.target in s.chars and not enemies(s, cmd.who, cmd.target)), "SP-NO-TEAM-DAMAGE",
            f"{cmd.who} cannot damage a teammate")
    require(not cmd.extra, "SP-DICE-COST",
            "a punch or kick takes no extra dice; power it up instead")
    face = "will" if cmd.verb == "punch" else "speed"
    cost = [face, face] if cmd.power else [face]
    pay(p, cmd.who, cost, cmd.pay, cmd.verb + (" powered up" if cmd.power else ""), basic=True)
    if s.chars[cmd.who].team == "bad" and s.options["reaction_window"] != "never" and cmd.choose:
        trial = Emitter(p.state)
        trial.choices = dict(p.choices)
        resolve_punch_or_kick(trial, cmd)
        check_choices_used(trial)
    if open_reaction(p, cmd):
        return
    resolve_punch_or_kick(p, cmd)


def resolve_punch_or_kick(p: Emitter, cmd: Cmd, user: str | None = None, target: str | None = None) -> None:
    user = user or cmd.who
    target = target or cmd.target
    p.emit(AbilityUsed(who=user, ability=cmd.verb, targets=(target,),
                       detail="powered up" if cmd.power else ""))
    dmg = 1 + (1 if cmd.power else 0) + damage_bonus(p.state, user)
    hit(p, user, target, dmg, 0, cmd.verb)
    if cmd.power:
        gain_xp(p, user)
    finish_effect(p)


def grab_object(p: Emitter, seat: str, cmd: Cmd) -> None:
    """Grab an Object: spend a Will die (or booster) to take an adjacent object."""
    s = p.state
    check_controls(s, seat, cmd.who)
    require(not (s.chars[cmd.who].chick and not s.options["chicks_fight"]), "SP-CHICK-ACTIONS",
            "the Demon Hipster Chicks do not grab objects")
    check_not_holding(s, cmd.who, "grab another object")
    require(cmd.target in s.objects, "SP-GRAB-OBJECT", f"{cmd.target or 'that'} is not an object")
    check_target_adjacent(s, cmd.who, cmd.target)
    pay(p, cmd.who, ["will"], cmd.pay, "grab", basic=True)
    if open_reaction(p, cmd):  # a basic ability: Pause answers it too
        return
    p.emit(ObjectGrabbed(who=cmd.who, obj=cmd.target))


def recover(p: Emitter, seat: str, cmd: Cmd) -> None:
    """Recover Health: a Health die (or Matthew's Magic) for 2 Health, up to the start."""
    s = p.state
    check_controls(s, seat, cmd.who)
    c = s.chars[cmd.who]
    require(not c.chick, "SP-RECOVER", "a Demon Hipster Chick has no Health to recover")
    require(c.health < c.start_health, "SP-RECOVER-CAP",
            f"{cmd.who} is already at starting Health")
    allowed = ("health", "magic") if c.evil_ex else ("health",)
    free = [d for d in s.dice if not d.spent and d.face in allowed]
    given = cmd.pay
    require(not (given and (len(given) != 1 or given[0] not in allowed)), "SP-RECOVER",
            f"recovering Health costs one {' or '.join(allowed)} die")
    face = given[0] if given else (free[0].face if free else "")
    d = next((x for x in free if x.face == face), None)
    require(d is not None, "SP-DICE-NONE", f"your team has no unspent {' or '.join(allowed)} die")
    p.emit(DiceSpent(who=cmd.who, purpose="recover", dice=(d.id,), faces=(d.face,)))
    p.emit(HealthRecovered(who=cmd.who, amount=min(2, c.start_health - c.health)))


# -- throwing ---------------------------------------------------------------------------

def throw(p: Emitter, seat: str, cmd: Cmd) -> None:
    """Throw an Object or Item: along a line until it hits a character, object or wall."""
    s = p.state
    check_controls(s, seat, cmd.who)
    require(not cmd.pay, "SP-THROW", "throwing costs no dice")
    d = B.DIRS[cmd.direction]
    c = s.chars[cmd.who]
    origin = c.pos
    assert origin
    if not cmd.card:
        require(c.holding, "SP-THROW", f"{cmd.who} is not holding an object")
        obj = c.holding
        target, last = B.ray(s, origin, d)
        landed = last
        p.by = cmd.who
        p.emit(Thrown(who=cmd.who, what=obj, direction=cmd.direction, hit=target or "wall",
                      landed=""))
        if target:
            tpos = B.where(p.state, target)
            deal_damage(p, target, 1, "thrown " + s.objects[obj].kind, cmd.who)
            if on_board(p.state, target):
                knockback(p, target, d, 1)
            landed = tpos if tpos and tpos not in B.occupants(p.state) else last
        # the thrown object takes 1 damage; if it survives it lands
        place_thrown_object(p, obj, landed)
        gain_xp(p, cmd.who)
        finish_effect(p)
        return
    tok = "item:" + cmd.card
    it = item_def(s, tok)
    require("throw_damage" in it, "SP-ITEM-THROW", f"{it['name']} cannot be thrown")
    if it["kind"] == "weapon":
        require(tok in s.equipped.get(cmd.who, ()), "SP-ITEM-THROW",
                f"{it['name']} must be equipped on {cmd.who} to be thrown")
    elif tok not in s.hand:
        raise RuleViolation("SP-ITEM-HELD", f"the Good Guys do not hold {it['name']}")
    target, last = B.ray(s, origin, d)
    p.by = cmd.who
    p.emit(Thrown(who=cmd.who, what=tok, direction=cmd.direction, hit=target or "wall"))
    p.emit(ItemUsed(who=cmd.who, card=tok, effect="thrown"))
    if target:
        deal_damage(p, target, int(it["throw_damage"]), "thrown item", cmd.who)
    p.emit(ItemDiscarded(card=tok))
    finish_effect(p)


def place_thrown_object(p: Emitter, obj: str, landed: str) -> None:
    """The thrown object takes 1 damage and, if not destroyed, lands where the hit thing was."""
    o = p.state.objects[obj]
    fragile = any(d["id"] == obj and d.get("fragile") for d in p.state.content["venue"]["objects"])
    if o.damaged or fragile:
        p.emit(ObjectRemoved(obj=obj))
        return
    occ = B.occupants(p.state)
    spot = landed if landed not in occ else next(
        (n for n in B.neighbours(p.state, landed) if n not in occ), None)
    if spot is None:
        p.emit(ObjectRemoved(obj=obj))
        return
    p.emit(Pushed(what=obj, frm="thrown", to=spot))
    p.emit(ObjectFlipped(obj=obj))


def ex_throw(p: Emitter, seat: str, cmd: Cmd) -> None:
    """Grab and Throw Item (Evil Ex): throw the drawn card; 1 damage whatever it says."""
    s = p.state
    pend = s.pending
    require(not (pend is None or pend.kind != "ex-throw"), "SP-EX-THROW",
            "there is no drawn item to throw")
    require(cmd.who == pend.who, "SP-EX-THROW", f"{pend.who} must throw the item he drew")
    throw_drawn_item(p, cmd.direction)


def throw_drawn_item(p: Emitter, direction: str) -> None:
    """The Evil Ex throws the card he drew from the item space: 1 damage, then discard."""
    pend = p.state.pending
    assert pend is not None
    d = B.DIRS[direction]
    target, _ = B.ray(p.state, pend.origin, d, ignore=pend.who)
    p.by = pend.who
    p.emit(Thrown(who=pend.who, what=pend.card, direction=direction, hit=target or "wall"))
    if target:
        deal_damage(p, target, 1, "thrown item", pend.who)
    p.emit(ItemDiscarded(card=pend.card))
    finish_effect(p)


# -- special abilities ------------------------------------------------------------------

def check_special(s: SPState, seat: str, cmd: Cmd) -> dict[str, Any]:
    check_controls(s, seat, cmd.who)
    c = s.chars[cmd.who]
    require(not c.chick, "SP-CHICK-ACTIONS",
            "the Demon Hipster Chicks have no abilities of their own")
    if cmd.verb in combos(s, cmd.who):
        require(c.combo, "SP-COMBO-EMPTY", f"{cmd.who}'s Combo box is empty")
    elif cmd.verb not in unlocked(s, cmd.who):
        board = s.content["characters"][cmd.who]
        require(cmd.verb not in board["advanced"], "SP-ABILITY-LOCKED",
                f"{cmd.who} has not unlocked {cmd.verb} yet")
        raise RuleViolation("SP-ABILITY-NOT-YOURS", f"{cmd.verb} is not on {cmd.who}'s player board")
    a = ability(s, cmd.verb)
    require(a["target"] != "reaction", "SP-REVERSAL",
            "Reversal is used only when a Bad Guy uses an ability on Scott")
    check_not_holding(s, cmd.who, "use a special ability")
    require(not cmd.power, "SP-POWER-UP", "only a punch or kick can be powered up")
    ex = a.get("extra")
    require(not (cmd.extra and (not ex or cmd.extra > int(ex["max"]))), "SP-EXTRA-DICE",
            f"{a['name']} takes at most {ex['max'] if ex else 0} extra dice")
    require(not (cmd.path and not a.get("move")), "SP-ABILITY-MOVE", f"{a['name']} does not move")
    return a


def special_ability(p: Emitter, seat: str, cmd: Cmd) -> None:
    """Use a Special Ability: spend the dice it lists (combos: the Combo cube)."""
    s = p.state
    a = check_special(s, seat, cmd)
    # check targets from where the user will stand
    check_ability_targets(s, cmd, a, after_move=bool(cmd.path))
    if cmd.verb in combos(s, cmd.who):
        p.emit(DiceSpent(who=cmd.who, purpose=cmd.verb, dice=(), faces=(), combo=True))
    else:
        cost = list(a["cost"])
        if cmd.extra:
            cost += [a["extra"]["face"]] * cmd.extra
        pay(p, cmd.who, cost, cmd.pay, cmd.verb, basic=False)
    if s.chars[cmd.who].team == "bad" and s.options["reaction_window"] != "never":
        dry_run(p, cmd)
    if open_reaction(p, cmd):
        return
    resolve_ability(p, cmd)


def dry_run(p: Emitter, cmd: Cmd) -> None:
    """Check a Bad Guy's ability resolves before the Good Guys' window opens on it. Its
    choices are the Bad Guys' for a Reversal too ("the player taking their turn chooses
    where each thing goes"), so a choice is needed if the ability or its Reversal needs it."""
    dice = {k: tuple(v) for k, v in p.state.content["dice"].items()}
    used: set[tuple[str, str]] = set()
    for scott in ("", *reversers(p.state, cmd)):
        trial = Emitter(p.state, Rng(0, 0, dice))
        trial.choose(cmd, reflected=bool(scott))
        resolve_ability(trial, cmd, reflect_from=scott)
        used |= trial.used
    trial.choices, trial.used = dict(p.choices), used
    check_choices_used(trial)


def targets_of(s: SPState, who: str, a: dict[str, Any], target: str, pos: str) -> list[str]:
    """What an ability hits from ``pos``: adjacent, ranged (within N) or in sight."""
    kind = a["target"]
    foes = [c for c, v in s.chars.items() if v.pos and v.team != s.chars[who].team]
    if kind == "adjacent":
        return [target]
    if kind == "range":
        return [target]
    if kind == "each-range":
        rng = int(a.get("range", 1))
        return sorted(f for f in foes if B.dist(pos, s.chars[f].pos or "") <= rng)
    if kind == "sight":
        return [target]
    if kind == "each-sight":
        seen = B.in_sight(s, pos, ignore=who)
        return sorted(t for t in seen if t in s.objects or enemies(s, who, t))
    return []


def check_ability_targets(s: SPState, cmd: Cmd, a: dict[str, Any], after_move: bool) -> None:
    """Targets: adjacent Bad Guys, within N spaces, or the first thing in sight."""
    kind = a["target"]
    pos = s.chars[cmd.who].pos or ""
    if after_move:
        pos = cmd.path[-1]
    if kind in ("adjacent", "range", "sight"):
        t = cmd.target
        require(t, "SP-TARGET", f"{a['name']} needs a target")
        if t not in s.chars or not enemies(s, cmd.who, t):
            if kind == "sight" and t in s.objects:
                pass
            else:
                raise RuleViolation("SP-TARGET-ENEMY", f"{a['name']} targets an opponent, not {t}")
        tpos = B.where(s, t)
        require(tpos is not None, "SP-TARGET", f"{t} is not on the board")
        require(not (kind == "adjacent" and not after_move and not B.adjacent(pos, tpos)), "SP-ADJACENT",
                f"{t} is not adjacent to {cmd.who}")
        require(not (kind == "range" and B.dist(pos, tpos) > int(a.get("range", 1))), "SP-RANGE",
                f"{t} is not within {a.get('range', 1)} spaces of {cmd.who}")
        require(kind != "sight" or after_move or t in B.in_sight(s, pos, ignore=cmd.who),
                "SP-LINE-OF-SIGHT",
                f"{t} is not the first thing in {cmd.who}'s sight along any line")
    elif cmd.target:
        raise RuleViolation("SP-TARGET", f"{a['name']} picks its own targets; name none")
    chick_spec = a.get("chicks")
    require(not (cmd.assign and not chick_spec), "SP-CHICK-TARGET",
            f"{a['name']} gives the Chicks nothing to do")
    for chick, t in cmd.assign:
        c = s.chars.get(chick)
        require(not (c is None or not c.chick or c.pos is None), "SP-CHICK-TARGET",
                f"{chick} is not a Chick on the board")
        require(not (chick_spec and t not in chick_candidates(s, chick, chick_spec)), "SP-CHICK-TARGET",
                f"{t} is not a Good Guy {chick} can reach ({(chick_spec or {}).get('target')})")


def chick_candidates(s: SPState, chick: str, spec: dict[str, Any]) -> list[str]:
    pos = s.chars[chick].pos
    if pos is None:
        return []
    goods = [c for c, v in s.chars.items() if v.team == "good" and v.pos]
    if spec["target"] == "adjacent":
        return sorted(g for g in goods if B.adjacent(pos, s.chars[g].pos or ""))
    seen = B.in_sight(s, pos, ignore=chick)
    return sorted(g for g in goods if g in seen)


def resolve_ability(p: Emitter, cmd: Cmd, reflect_from: str = "") -> None:
    """Resolve a special ability's effect (damage, knockback, rerolls, the Chicks' part)."""
    s = p.state
    who = cmd.who
    a = ability(s, cmd.verb)
    if cmd.path:
        walk(p, who, cmd.path, grab_items=True, max_steps=int(a["move"]))
        if s.chars[who].evil_ex:
            chicks = tuple(k for k, v in p.state.chars.items() if v.chick and v.pos)
            if chicks:
                p.emit(ChicksFollow(spaces=len(cmd.path), chicks=chicks))
        check_ability_targets(p.state, msgspec.structs.replace(cmd, path=()),
                              a, after_move=False)
    s = p.state
    pos = s.chars[who].pos or ""
    dmg = num(s, a.get("damage", 0))
    kb = num(s, a.get("knockback", 0))
    if cmd.extra and a.get("extra"):
        dmg += int(a["extra"]["damage"]) * cmd.extra
    if a.get("reroll"):
        dmg += reroll_ability(p, cmd.verb, a["reroll"])
    if dmg:
        dmg += damage_bonus(s, who)
    targets = targets_of(s, who, a, cmd.target, pos)
    p.emit(AbilityUsed(who=who, ability=cmd.verb, targets=tuple(targets),
                       detail=f"extra {cmd.extra}" if cmd.extra else ""))
    if a["target"] == "self":
        c = p.state.chars[who]
        amt = min(int(a.get("heal", 0)), c.start_health - c.health)
        if amt > 0:
            p.emit(HealthRecovered(who=who, amount=amt))
    for t in targets:
        if reflect_from and t == reflect_from:
            continue
        if B.where(p.state, t) is None:
            continue
        if a["target"] == "each-sight":
            hit(p, who, t, dmg if (t in p.state.objects or enemies(p.state, who, t)) else 0, kb, cmd.verb)
        else:
            hit(p, who, t, dmg, kb, cmd.verb)
    if a.get("chicks"):
        chicks_attack(p, cmd, a["chicks"], reflect_from)
    if reflect_from and reflect_from in targets:
        reversal_reflects(p, who, reflect_from, dmg, kb, cmd.verb)
        xp_for_cancelled(p, cmd)
    elif not p.state.chars[who].out:
        gain_xp(p, who)
    finish_effect(p)


def chicks_attack(p: Emitter, cmd: Cmd, spec: dict[str, Any], reflect_from: str) -> None:
    """Abilities with the Chick icon let each Demon Hipster Chick deal damage too."""
    chosen = dict(cmd.assign)
    for chick in sorted(c for c, v in p.state.chars.items() if v.chick):
        if p.state.chars[chick].pos is None:
            continue
        cands = chick_candidates(p.state, chick, spec)
        t = chosen.get(chick) or (cands[0] if cands else "")
        if not t or t not in cands:
            continue
        if reflect_from and t == reflect_from:
            reversal_reflects(p, chick, reflect_from, int(spec.get("damage", 1)),
                              int(spec.get("knockback", 0)), cmd.verb)
            continue
        hit(p, chick, t, int(spec.get("damage", 1)), int(spec.get("knockback", 0)), cmd.verb)


def reroll_ability(p: Emitter, aid: str, spec: dict[str, Any]) -> int:
    """Reroll Abilities: mark the dice tracker, reroll the team's dice, count the icon
    (Health counts as it), then reset the unspent dice to their tracked faces."""
    assert p.rng is not None
    kinds = list(p.state.content["team_dice"][p.state.team])
    ev = p.rng.roll(kinds, purpose=aid)
    p.emit(ev)
    counted = sum(1 for f in ev.faces if f in (spec["face"], "health"))
    p.emit(AbilityRerolled(ability=aid, faces=tuple(ev.faces), counted=counted))
    return counted * int(spec["damage"])


# -- the reaction window (Pause, Reversal) ----------------------------------------------

def reaction_targets(s: SPState, cmd: Cmd) -> tuple[str, ...]:
    if isinstance(cmd, (Strike, Grab)):
        return (cmd.target,)
    a = ability(s, cmd.verb)
    pos = s.chars[cmd.who].pos or ""
    ts = targets_of(s, cmd.who, a, cmd.target, pos) if not cmd.path else [cmd.target] if cmd.target else []
    ts = list(ts)
    if a.get("chicks"):
        chosen = dict(cmd.assign)
        for chick in sorted(c for c, v in s.chars.items() if v.chick and v.pos):
            cands = chick_candidates(s, chick, a["chicks"])
            t = chosen.get(chick) or (cands[0] if cands else "")
            if t and t not in ts:
                ts.append(t)
    return tuple(ts)


def can_reverse(s: SPState, who: str) -> bool:
    """Whether ``who`` has Reversal with a full Combo box."""
    return who in s.chars and not s.chars[who].out and s.chars[who].combo and "reversal" in combos(s, who)


def reversers(s: SPState, cmd: Cmd) -> list[str]:
    """The targets of a Bad Guy's ability who could turn it back with Reversal now."""
    return [t for t in reaction_targets(s, cmd) if can_reverse(s, t) and not s.chars[t].holding]


def can_react(s: SPState, targets: tuple[str, ...]) -> bool:
    if any(item_def(s, t)["kind"] == "pause" for t in s.hand):
        return True
    if any(item_def(s, t)["kind"] == "pause" for v in s.equipped.values() for t in v):
        return True
    return any(can_reverse(s, t) for t in targets)


def open_reaction(p: Emitter, cmd: Cmd) -> bool:
    """"When a Bad Guy uses an ability" (Pause) -- a special ability or a basic one (punch,
    kick, grab an object) -- the Good Guys get a window to Pause or Reverse it."""
    s = p.state
    if s.chars[cmd.who].team != "bad":
        return False
    mode = s.options["reaction_window"]
    if mode == "never":
        return False
    targets = reaction_targets(s, cmd)
    if mode == "when-able" and not can_react(s, targets):
        return False
    p.emit(ReactionOpened(who=cmd.who, command=command_text(msgspec.structs.replace(cmd, pay=())),
                          targets=targets))
    return True


def check_answer_choices(s: SPState, cmd: Cmd) -> None:
    """The Good Guys' answer names only the choices that are theirs in the Bad Guys' turn:
    where a thing against a wall ends is the Bad Guys' ("the player taking their turn
    chooses where each thing goes"), and a knockback's direction is its dealer's ("the
    player dealing the knockback chooses"): the Bad Guys', unless Scott turns it back; and
    where a shielding object drops is its holder's ("an adjacent empty space of your
    choice"): a Bad Guy's is the Bad Guys'."""
    for kind, thing, value in choices_of(cmd):
        if kind == "land":
            raise RuleViolation("SP-KNOCKBACK-WALL",
                                "the player taking their turn chooses where each thing goes: the Bad"
                                f" Guys name it with their ability (... land {thing}@{value}),"
                                " for a Reversal too")
        if kind == "drop":
            holder = next((c.id for c in s.chars.values() if c.holding == thing), "")
            require(not (holder and s.chars[holder].team == "bad"), "SP-HELD-SHIELD",
                    f"{holder}'s player chooses where the {thing} drops: the Bad Guys name it"
                    f" with their ability (... drop {thing}@{value}), for a Reversal too")
        if kind == "knock":
            require(isinstance(cmd, Reversal) and thing in s.chars and s.chars[thing].team == "bad",
                    "SP-KNOCKBACK-DIRECTION",
                    "the player dealing the knockback chooses its direction: the Bad Guys name"
                    " it with their ability (Scott, only for a knockback his Reversal deals)")


def pause_cards(s: SPState) -> list[tuple[str, str]]:
    """(holder or '' for the shared hand, card) of every Pause item the Good Guys have."""
    out = [("", t) for t in s.hand if item_def(s, t)["kind"] == "pause"]
    for who, cards in s.equipped.items():
        out += [(who, t) for t in cards if item_def(s, t)["kind"] == "pause"]
    return out


def react(p: Emitter, seat: str, cmd: Cmd, parse_pending: Any) -> None:
    """The Good Guys answer a Bad Guy's ability: allow it, Pause it, or Reversal."""
    s = p.state
    pend = s.pending
    require(not (pend is None or pend.kind != "reaction"), "SP-NO-WINDOW",
            "there is no Bad Guy ability to react to now")
    declared: Cmd = parse_pending(pend.command)
    check_answer_choices(s, cmd)
    # the Bad Guys' choices stand, checked when they declared the ability; under a Reversal
    # Scott deals the knockback turned back on them, so its direction is his to choose
    p.choose(declared, reflected=isinstance(cmd, Reversal))
    p.declared = {(k, t) for k, t, _ in choices_of(declared)}
    p.choose(cmd)  # the Good Guys' own choices (drop, items, or Scott's knock for a Reversal)
    if isinstance(cmd, Allow):
        p.emit(ReactionTaken(kind="allow"))
        resolve_declared(p, declared)
    elif isinstance(cmd, Pause):
        cards = pause_cards(s)
        require(cards, "SP-PAUSE", "the Good Guys hold no Video Game Controller of Pause")
        _holder, card = cards[0]
        p.emit(ReactionTaken(kind="pause"))
        p.emit(ItemUsed(who="", card=card, effect="cancels " + declared.verb))
        p.emit(ItemDiscarded(card=card))
        xp_for_cancelled(p, declared)
    else:
        scott = next((t for t in pend.targets if t in s.chars and "reversal" in combos(s, t)), "")
        require(scott, "SP-REVERSAL", "Reversal answers only an ability used on Scott")
        require(s.control.get(scott) == seat, "SP-YOUR-CHARACTERS",
                f"{scott} is not one of your characters")
        require(s.chars[scott].combo, "SP-COMBO-EMPTY", f"{scott}'s Combo box is empty")
        check_not_holding(s, scott, "use Reversal")
        p.emit(ReactionTaken(kind="reversal", by=scott))
        p.emit(DiceSpent(who=scott, purpose="reversal", dice=(), faces=(), combo=True))
        resolve_declared(p, declared, reflect_from=scott)


def earns_xp(s: SPState, cmd: Cmd) -> bool:
    """Gaining XP: "each time you use a special ability (one on your player board), power up
    a punch or kick, or throw an object"."""
    if isinstance(cmd, Strike):
        return cmd.power
    return cmd.verb in s.content["abilities"]


def xp_for_cancelled(p: Emitter, declared: Cmd) -> None:
    """House reading (option cancelled_xp): a paused or reversed ability was still used --
    its dice are spent, only its effect is cancelled or turned back -- so its user still
    gains the XP for using it."""
    if p.state.options.get("cancelled_xp", True) and earns_xp(p.state, declared):
        if B.where(p.state, declared.who) is not None:
            gain_xp(p, declared.who)


def resolve_declared(p: Emitter, declared: Cmd, reflect_from: str = "") -> None:
    if isinstance(declared, Grab):
        p.emit(ObjectGrabbed(who=declared.who, obj=declared.target))
        return
    if isinstance(declared, Strike):
        if reflect_from and declared.target == reflect_from:
            p.emit(AbilityUsed(who=declared.who, ability=declared.verb, targets=(reflect_from,),
                               detail="reversed"))
            dmg = 1 + (1 if declared.power else 0)
            reversal_reflects(p, declared.who, reflect_from, dmg, 0, declared.verb)
            xp_for_cancelled(p, declared)
            finish_effect(p)
        else:
            resolve_punch_or_kick(p, declared)
        return
    resolve_ability(p, declared, reflect_from=reflect_from)


def reversal_reflects(p: Emitter, attacker: str, scott: str, dmg: int, kb: int, source: str) -> None:
    """Reversal: Scott ignores it, and the Bad Guy suffers it as if Scott had used it."""
    if B.where(p.state, attacker) is None or B.where(p.state, scott) is None:
        return
    hit(p, scott, attacker, dmg, kb, "reversal of " + source)
    gain_xp(p, scott)


# -- items ------------------------------------------------------------------------------

def equip(p: Emitter, seat: str, cmd: Cmd) -> None:
    """Equip an Item: place it by a Good Guy; equipped items are forever. Equipping is one
    of the actions ("Phase Two: Take Actions"), so it comes after the roll ("roll dice, then
    take actions"); it stays open once the dice are spent."""
    s = p.state
    require(s.team == "good" and seat in s.good_seats, "SP-ITEM-GOOD",
            "only the Good Guys equip items, on their turn")
    check_phase_act(s)
    require(cmd.who in s.chars and s.chars[cmd.who].team == "good" and not s.chars[cmd.who].out,
            "SP-ITEM-GOOD",
            f"{cmd.who} is not a Good Guy in the fight")
    tok = "item:" + cmd.card
    require(tok in s.hand, "SP-ITEM-HELD", f"the Good Guys hold no unequipped {cmd.card}")
    it = item_def(s, tok)
    require(it["kind"] in ("weapon", "armor", "speed"), "SP-ITEM-EQUIP",
            f"{it['name']} is used, not equipped")
    p.emit(ItemEquipped(who=cmd.who, card=tok))


def use_item(p: Emitter, seat: str, cmd: Cmd) -> None:
    """Use an Item: resolve its effect, then discard it."""
    s = p.state
    require(s.team == "good" and seat in s.good_seats, "SP-ITEM-GOOD",
            "only the Good Guys use items, on their turn")
    check_phase_act(s)
    require(s.phase != "ended", "SP-TURN-OVER",
            "after the turn ends the only thing you can do is equip items")
    check_dice_left(s)
    check_controls(s, seat, cmd.who)
    tok = "item:" + cmd.card
    require(tok in s.hand, "SP-ITEM-HELD", f"the Good Guys hold no unequipped {cmd.card}")
    it = item_def(s, tok)
    c = s.chars[cmd.who]
    kind = it["kind"]
    if kind == "heal":
        amt = min(int(it["heal"]), c.start_health - c.health)
        require(amt > 0, "SP-RECOVER-CAP", f"{cmd.who} is already at starting Health")
        p.emit(ItemUsed(who=cmd.who, card=tok, effect=f"+{amt} Health"))
        p.emit(HealthRecovered(who=cmd.who, amount=amt))
    elif kind == "booster":
        room = int(s.content["boosters_max"]) - c.boosters
        require(room > 0, "SP-BOOSTER-MAX", f"{cmd.who} already has the most booster tokens")
        p.emit(ItemUsed(who=cmd.who, card=tok, effect="boosters"))
        for _ in range(min(room, int(it["boosters"]))):
            p.emit(BoosterGained(who=cmd.who))
    elif kind == "xp":
        p.emit(ItemUsed(who=cmd.who, card=tok, effect=f"+{it['xp']} XP"))
        gain_xp(p, cmd.who, int(it["xp"]))
    elif kind == "level-up":
        p.emit(ItemUsed(who=cmd.who, card=tok, effect="level up"))
        level_up(p, cmd.who)
    elif kind == "pause":
        raise RuleViolation("SP-PAUSE", "Pause is used when a Bad Guy uses an ability")
    elif kind == "throwable":
        raise RuleViolation("SP-ITEM-THROW", f"throw it: {cmd.who} throw {cmd.card} DIR")
    else:
        raise RuleViolation("SP-ITEM-EQUIP", f"{it['name']} must be equipped to be used")
    p.emit(ItemDiscarded(card=tok))


# -- turns ------------------------------------------------------------------------------

def end_turn(p: Emitter, seat: str, cmd: Cmd) -> None:
    """A turn ends when the team chooses: Bad Guys summon Chicks; Good Guys gain boosters."""
    s = p.state
    check_phase_act(s)
    if s.team == "bad":
        summon_chicks(p, cmd)
        p.emit(TurnEnded(team="bad"))
        p.emit(TurnBegan(team="good", round=s.round))
    else:
        require(not cmd.summon, "SP-SUMMON",
                "only Matthew summons Chicks, at the end of the Bad Guys' turn")
        gain_boosters(p)
        p.emit(TurnEnded(team="good"))
        limit = int(s.options["max_rounds"])
        if limit and s.round >= limit:
            round_limit(p, limit)
        else:
            p.emit(TurnBegan(team="bad", round=s.round + 1))


def health_share(s: SPState, team: str) -> tuple[int, int]:
    """A team's remaining Health and starting Health (the Chicks have none to count)."""
    cs = [c for c in s.chars.values() if c.team == team and not c.chick]
    return sum(0 if c.out else c.health for c in cs), sum(c.start_health for c in cs)


def round_limit(p: Emitter, limit: int) -> None:
    """House: after max_rounds rounds the team keeping the larger share of its starting
    Health wins; an exact tie goes to the Bad Guys (Matthew was not knocked out)."""
    g, g0 = health_share(p.state, "good")
    b, b0 = health_share(p.state, "bad")
    good_pct, bad_pct = 100 * g / max(1, g0), 100 * b / max(1, b0)
    winner = "good" if g * b0 > b * g0 else "bad"
    p.emit(BattleOver(winner=winner, reason=(
        f"round limit {limit} (house rule): the Good Guys keep {g}/{g0} Health ({good_pct:.0f}%),"
        f" Matthew {b}/{b0} ({bad_pct:.0f}%); the larger share wins"
        + ("; a tie goes to the Bad Guys" if g * b0 == b * g0 else ""))))


def summon_chicks(p: Emitter, cmd: Cmd) -> None:
    """Summoning: poofed Chicks return to empty spaces within two spaces of Matthew."""
    s = p.state
    ex = next(c for c in s.chars.values() if c.evil_ex)
    poofed = sorted(c for c, v in s.chars.items() if v.chick and v.poofed)
    chosen = dict(cmd.summon)
    for chick in chosen:
        require(chick in poofed, "SP-SUMMON", f"{chick} has not poofed")
    if ex.pos is None:
        return
    for chick in poofed:
        occ = B.occupants(p.state)
        spot = chosen.get(chick)
        if spot:
            require(B.is_space(p.state, spot) and B.dist(spot, ex.pos) <= 2 and spot not in occ,
                    "SP-SUMMON",
                    f"{spot} is not an empty space within two spaces of Matthew")
        else:
            free = [B.name(x, y) for x in range(B.size(p.state)[0]) for y in range(B.size(p.state)[1])]
            free = [f for f in free if f not in occ and 0 < B.dist(f, ex.pos) <= 2]
            free.sort(key=lambda f: (B.dist(f, ex.pos or f), f))
            if not free:
                continue
            spot = free[0]
        p.emit(Summoned(chick=chick, at=spot))


def gain_boosters(p: Emitter) -> None:
    """Booster Tokens: each Good Guy who did not act this round gains one (up to four)."""
    s = p.state
    for cid in good_order(s):
        c = s.chars[cid]
        if c.out or cid in s.acted or c.boosters >= int(s.content["boosters_max"]):
            continue
        p.emit(BoosterGained(who=cid))


# -- deciding a command -----------------------------------------------------------------

def parse_pending(state: SPState) -> Any:
    """Read back the Bad Guys' declared command held by a reaction window."""
    return lambda text: parse(state, "", text)


def decide(state: SPState, seat: str, command: Cmd, rng: Rng) -> list[Event]:
    """What ``command`` by ``seat`` does now, or raise ``RuleViolation``."""
    p = Emitter(state, rng)
    events = decide_command(p, state, seat, command)
    if not any(isinstance(e, ReactionOpened) for e in events):
        check_choices_used(p)
    return events


def out_of_turn(s: SPState, seat: str, command: Cmd) -> RuleViolation | None:
    """Why a seat that may not act now is refused, in the rulebook's words: at setup "the
    Good Guys place their miniatures first" (SP-PLACE-ORDER); in play "the Bad Guys take
    their turn first, then the Good Guys" (SP-TEAM-TURN); a reaction is taken only in a
    window a Bad Guy's ability opened (SP-NO-WINDOW). While the Good Guys answer in a
    window, or a teammate is to act, it is simply not this seat's decision (None: the
    kernel's ARB-TURN)."""
    if s.winner:
        return None
    if s.phase != "place" and (s.team == "good" or (s.pending is not None and s.pending.kind == "reaction")):
        ruling = out_of_fight(s, seat)
        if ruling is not None:
            return ruling
    if s.pending is not None and s.pending.kind == "reaction":
        return None
    if s.phase == "place":
        return RuleViolation("SP-PLACE-ORDER", "the Good Guys place their characters first, then the Bad Guys")
    if isinstance(command, REACTIONS):
        return RuleViolation("SP-NO-WINDOW", "reactions are taken only when a Bad Guy's ability opens a window")
    if team_of_seat(s, seat) != s.team:
        return RuleViolation("SP-TEAM-TURN", f"it is the {'Bad' if s.team == 'bad' else 'Good'} Guys' turn"
                             " (each round the Bad Guys take their turn first, then the Good Guys)")
    return None


def check_in_fight(s: SPState, seat: str) -> None:
    ruling = out_of_fight(s, seat)
    if ruling is not None:
        raise ruling


def decide_command(p: Emitter, state: SPState, seat: str, command: Cmd) -> list[Event]:
    """Check the command against the turn, then hand it to the rule it invokes."""
    s = state
    if isinstance(command, REACTIONS):
        require(seat in s.good_seats, "SP-NO-WINDOW",
                "only the Good Guys react to a Bad Guy's ability")
        check_in_fight(s, seat)
        react(p, seat, command, parse_pending(state))
        return p.events
    p.choose(command)
    check_drop_owner(s, command)
    if s.pending is not None and s.pending.kind == "reaction":
        check_phase_act(s)
    if s.phase != "place":  # at setup the placing order is the rule (SP-PLACE-ORDER)
        require(team_of_seat(s, seat) == s.team, "SP-TEAM-TURN",
                f"it is the {'Bad' if s.team == 'bad' else 'Good'} Guys' turn")
        check_in_fight(s, seat)
    if s.pending is not None and s.pending.kind == "ex-throw" and not isinstance(command, ThrowItem):
        check_phase_act(s)
    if not isinstance(command, ThrowItem) and s.pending is None:
        check_chicks_followed(s, command)
    if isinstance(command, Place):
        place_character(p, seat, command)
    elif isinstance(command, Roll):
        roll_dice(p, seat)
    elif isinstance(command, Reroll):
        reroll(p, command.face)
    elif isinstance(command, End):
        end_turn(p, seat, command)
    elif isinstance(command, Equip):
        equip(p, seat, command)
    elif isinstance(command, Use):
        use_item(p, seat, command)
    elif isinstance(command, ThrowItem):
        ex_throw(p, seat, command)
    else:
        check_phase_act(s)
        if not (isinstance(command, Move) and command.who in s.chars and s.chars[command.who].chick):
            check_dice_left(s)  # a Chick's move spends no dice: SP-CHICK-MOVE judges it
        if isinstance(command, Move):
            move(p, seat, command)
        elif isinstance(command, Strike):
            punch_or_kick(p, seat, command)
        elif isinstance(command, Grab):
            grab_object(p, seat, command)
        elif isinstance(command, Recover):
            recover(p, seat, command)
        elif isinstance(command, Throw):
            throw(p, seat, command)
        else:
            assert isinstance(command, Ability)
            special_ability(p, seat, command)
    return p.events
