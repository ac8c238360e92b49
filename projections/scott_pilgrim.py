"""Scott Pilgrim Miniatures The World: the battle state and how each fact changes it."""

from __future__ import annotations

from typing import Any

import msgspec

from arbiter.events.base import KERNEL_EVENTS, DiceRolled, Event, GameCreated, Shuffled
from arbiter.events.scott_pilgrim import (
    EVENTS, AbilityRerolled, AbilityUsed, BattleOver, BoosterGained, ChickMoved, ChicksFollow,
    Damaged, DiceRerolled, DiceSpent, ExThrowPending, HealthRecovered, ItemDiscarded,
    ItemDrawn, ItemEquipped, ItemsTransferred, ItemUsed, KnockedBack, KnockedOut, LeveledUp,
    Moved, ObjectFlipped, ObjectGrabbed, ObjectRemoved, Poofed, PoolRolled, Pushed,
    Placed, ReactionOpened, ReactionTaken, ShieldedBy, Summoned, Thrown, TurnBegan, TurnEnded,
    XPGained,
)
from arbiter.projections.kernel import REFEREE, Base, Decision, Outcome, by_type, handlers

r = msgspec.structs.replace
COLS = "abcdefghijklmnopqrstuvwxyz"


class Char(msgspec.Struct, frozen=True):
    id: str
    team: str  # "good" | "bad"
    pos: str | None
    health: int
    start_health: int
    chick: bool = False
    evil_ex: bool = False
    xp: int = 0
    level: int = 0  # advanced abilities unlocked
    combo: bool = False  # a tracking cube sits in the Combo box
    boosters: int = 0
    holding: str | None = None
    out: bool = False  # knocked out (never comes back)
    poofed: bool = False  # a Chick off the board until summoned


class Obj(msgspec.Struct, frozen=True):
    id: str
    kind: str
    pos: str | None
    damaged: bool = False
    gone: bool = False
    held_by: str | None = None


class Die(msgspec.Struct, frozen=True):
    id: str
    kind: str
    face: str
    spent: bool = False


class Pending(msgspec.Struct, frozen=True):
    """Something the game waits on before play goes on."""

    kind: str  # "reaction" | "ex-throw"
    who: str
    command: str = ""
    targets: tuple[str, ...] = ()
    card: str = ""
    origin: str = ""


class SPState(msgspec.Struct, frozen=True):
    seats: tuple[str, ...]
    control: dict[str, str]  # character id -> seat
    good_seats: tuple[str, ...]
    bad_seat: str
    options: dict[str, Any]
    content: dict[str, Any]
    chars: dict[str, Char]
    objects: dict[str, Obj]
    round: int = 0
    team: str = "bad"
    phase: str = "roll"  # place | roll | act
    dice: tuple[Die, ...] = ()
    rerolled: bool = False
    deck: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()  # the Good Guys' unequipped items (hidden from the Bad Guys)
    discard: tuple[str, ...] = ()
    equipped: dict[str, tuple[str, ...]] = {}
    acted: tuple[str, ...] = ()  # characters who acted this round
    drew: tuple[str, ...] = ()  # Good Guys who grabbed an item this turn
    ex_threw: bool = False
    follow: dict[str, int] = {}  # Chick -> spaces she may still move with Matthew
    pending: Pending | None = None
    winner: str | None = None
    reason: str = ""
    log_damage: int = 0


def card_id(token: str) -> str:
    """The content id of an item token (``item:garlic-bread`` -> ``garlic-bread``)."""
    return token.split(":", 1)[1] if ":" in token else token


def starting_health(content: dict[str, Any], options: dict[str, Any], n_good: int) -> int:
    table = content["health"]["good"][options["difficulty"]]
    return int(table[min(n_good, len(table)) - 1])


def unplaced_seats(s: SPState) -> tuple[str, ...]:
    """Setup: the Good Guys place first, then the Bad Guys."""
    goods = tuple(seat for seat in s.good_seats
                  if any(c.pos is None and s.control[c.id] == seat and not c.out
                         for c in s.chars.values() if c.team == "good"))
    return goods or (s.bad_seat,)


def seats_in_fight(s: SPState) -> tuple[str, ...]:
    """The Good Guys' players who still play a Good Guy ("each playing two Good Guys"): a
    player whose Good Guys are all knocked out has no one left to act with, so no longer
    takes the team's decisions (house reading SP-HOUSE-OUT-OF-FIGHT)."""
    return tuple(seat for seat in s.good_seats
                 if any(s.control.get(cid) == seat and not c.out
                        for cid, c in s.chars.items() if c.team == "good"))


def good_roster(options: dict[str, Any]) -> list[str]:
    return [c.strip() for c in str(options["good_guys"]).split(",") if c.strip()]


class SPProjection(Base[SPState]):
    events = EVENTS
    sql_views = (
        ("sp_damage",
         "SELECT game_id, seq, payload->>'$.by' AS dealt_by, payload->>'$.target' AS target,"
         " CAST(payload->>'$.amount' AS INTEGER) AS amount, payload->>'$.source' AS source"
         " FROM events WHERE type = 'Damaged'"),
        ("sp_knockouts",
         "SELECT game_id, seq, payload->>'$.who' AS who FROM events WHERE type = 'KnockedOut'"),
        ("sp_dice_spent",
         "SELECT game_id, seq, payload->>'$.who' AS who, payload->>'$.purpose' AS purpose,"
         " unnest(from_json(payload->'$.faces', '[\"VARCHAR\"]')) AS face"
         " FROM events WHERE type = 'DiceSpent'"),
    )

    # -- building -------------------------------------------------------------------------

    def initial(self, created: GameCreated) -> SPState:
        content, options, seats = created.content, created.options, created.seats
        roster = good_roster(options)
        health = starting_health(content, options, len(roster))
        choose = options.get("placement") == "choose"
        chars: dict[str, Char] = {}
        control: dict[str, str] = {}
        good_seats = tuple(seats[:-1])
        bad_seat = seats[-1]
        for i, cid in enumerate(roster):
            d = content["characters"][cid]
            chars[cid] = Char(cid, "good", None if choose else d["start"], health, health)
            control[cid] = good_seats[0] if len(good_seats) == 1 else good_seats[min(i * len(good_seats) // len(roster), len(good_seats) - 1)]
        for cid, d in content["characters"].items():
            if d["team"] != "bad":
                continue
            start = None if choose else d["start"]
            if d.get("chick"):
                chars[cid] = Char(cid, "bad", start, 1, 1, chick=True)
            else:
                hp = int(content["health"]["matthew"])
                chars[cid] = Char(cid, "bad", start, hp, hp, evil_ex=bool(d.get("evil_ex")))
            control[cid] = bad_seat
        objects = {o["id"]: Obj(o["id"], o["kind"], o["at"]) for o in content["venue"]["objects"]}
        return SPState(seats=tuple(seats), control=control, good_seats=good_seats,
                       bad_seat=bad_seat, options=dict(options), content=content, chars=chars,
                       objects=objects, equipped={c: () for c in roster},
                       phase="place" if choose else "roll")

    # -- per event ------------------------------------------------------------------------

    def _Shuffled(self, s: SPState, e: Shuffled) -> SPState:
        return r(s, deck=tuple(e.order)) if e.deck == "items" else s

    def _ItemDrawn(self, s: SPState, e: ItemDrawn) -> SPState:
        deck = tuple(c for c in s.deck if c != e.card)
        if e.by in s.chars and s.chars[e.by].team == "bad":
            return r(s, deck=deck)
        drew = s.drew + ((e.by,) if e.by in s.chars else ())
        return r(s, deck=deck, hand=s.hand + (e.card,), drew=drew)

    def _Placed(self, s: SPState, e: Placed) -> SPState:
        return r(s, chars={**s.chars, e.who: r(s.chars[e.who], pos=e.at)})

    def _TurnBegan(self, s: SPState, e: TurnBegan) -> SPState:
        acted = () if e.team == "bad" else s.acted
        return r(s, team=e.team, round=e.round, phase="roll", dice=(), rerolled=False,
                 acted=acted, drew=(), ex_threw=False, follow={})

    def _PoolRolled(self, s: SPState, e: PoolRolled) -> SPState:
        kinds = s.content["team_dice"][e.team]
        dice = tuple(Die(i, k, f) for i, k, f in zip(e.dice, kinds, e.faces))
        return r(s, dice=dice, phase="act")

    def _DiceRerolled(self, s: SPState, e: DiceRerolled) -> SPState:
        new = dict(zip(e.dice, e.faces))
        return r(s, rerolled=True, follow={},
                 dice=tuple(r(d, face=new[d.id]) if d.id in new else d for d in s.dice))

    def _DiceSpent(self, s: SPState, e: DiceSpent) -> SPState:
        dice = tuple(r(d, spent=True) if d.id in e.dice else d for d in s.dice)
        chars = s.chars
        if e.boosters or e.combo:
            c = chars[e.who]
            chars = {**chars, e.who: r(c, boosters=c.boosters - e.boosters,
                                       combo=False if e.combo else c.combo)}
        acted = s.acted if e.who in s.acted else s.acted + (e.who,)
        follow = s.follow if e.purpose == "move" and e.who in s.chars and s.chars[e.who].evil_ex else {}
        return r(s, dice=dice, chars=chars, acted=acted, follow=follow)

    def _place(self, s: SPState, what: str, pos: str | None) -> SPState:
        if what in s.chars:
            return r(s, chars={**s.chars, what: r(s.chars[what], pos=pos)})
        return r(s, objects={**s.objects, what: r(s.objects[what], pos=pos)})

    def _Moved(self, s: SPState, e: Moved) -> SPState:
        return self._place(s, e.who, e.path[-1]) if e.path else s

    def _Pushed(self, s: SPState, e: Pushed) -> SPState:
        return self._place(s, e.what, e.to)

    def _KnockedBack(self, s: SPState, e: KnockedBack) -> SPState:
        return self._place(s, e.what, e.to)

    def _ChicksFollow(self, s: SPState, e: ChicksFollow) -> SPState:
        return r(s, follow={c: e.spaces for c in e.chicks})

    def _ChickMoved(self, s: SPState, e: ChickMoved) -> SPState:
        s = self._place(s, e.who, e.path[-1]) if e.path else s
        left = s.follow.get(e.who, 0) - len(e.path)
        follow = {k: v for k, v in s.follow.items() if k != e.who}
        if left > 0:
            follow[e.who] = left
        return r(s, follow=follow)

    def _AbilityUsed(self, s: SPState, e: AbilityUsed) -> SPState:
        acted = s.acted if e.who in s.acted else s.acted + (e.who,)
        return r(s, acted=acted)

    def _Damaged(self, s: SPState, e: Damaged) -> SPState:
        if e.target in s.chars:
            c = s.chars[e.target]
            return r(s, chars={**s.chars, e.target: r(c, health=max(0, c.health - e.amount))},
                     log_damage=s.log_damage + e.amount)
        return s

    def _ShieldedBy(self, s: SPState, e: ShieldedBy) -> SPState:
        c = s.chars[e.holder]
        o = s.objects[e.obj]
        return r(s, chars={**s.chars, e.holder: r(c, holding=None)},
                 objects={**s.objects, e.obj: r(o, pos=e.at, held_by=None)})

    def _ObjectFlipped(self, s: SPState, e: ObjectFlipped) -> SPState:
        return r(s, objects={**s.objects, e.obj: r(s.objects[e.obj], damaged=True)})

    def _ObjectRemoved(self, s: SPState, e: ObjectRemoved) -> SPState:
        o = s.objects[e.obj]
        chars = s.chars
        if o.held_by:
            chars = {**chars, o.held_by: r(chars[o.held_by], holding=None)}
        return r(s, chars=chars,
                 objects={**s.objects, e.obj: r(o, pos=None, gone=True, held_by=None)})

    def _Poofed(self, s: SPState, e: Poofed) -> SPState:
        c = s.chars[e.chick]
        return r(s, chars={**s.chars, e.chick: r(c, pos=None, poofed=True, health=1)})

    def _KnockedOut(self, s: SPState, e: KnockedOut) -> SPState:
        c = s.chars[e.who]
        objects = s.objects
        if c.holding:  # the held object drops where its holder stood
            objects = {**objects, c.holding: r(objects[c.holding], pos=c.pos, held_by=None)}
        return r(s, objects=objects,
                 chars={**s.chars, e.who: r(c, pos=None, out=True, health=0, holding=None)})

    def _Summoned(self, s: SPState, e: Summoned) -> SPState:
        c = s.chars[e.chick]
        return r(s, chars={**s.chars, e.chick: r(c, pos=e.at, poofed=False)})

    def _XPGained(self, s: SPState, e: XPGained) -> SPState:
        c = s.chars[e.who]
        return r(s, chars={**s.chars, e.who: r(c, xp=c.xp + e.amount)})

    def _LeveledUp(self, s: SPState, e: LeveledUp) -> SPState:
        c = s.chars[e.who]
        level = c.level + 1 if e.unlocked else c.level
        # the star returns to the bottom: XP beyond the fifth space is lost (SP-HOUSE-LEVEL)
        return r(s, chars={**s.chars, e.who: r(c, xp=0, level=level, combo=True)})

    def _HealthRecovered(self, s: SPState, e: HealthRecovered) -> SPState:
        c = s.chars[e.who]
        return r(s, chars={**s.chars, e.who: r(c, health=c.health + e.amount)})

    def _BoosterGained(self, s: SPState, e: BoosterGained) -> SPState:
        c = s.chars[e.who]
        return r(s, chars={**s.chars, e.who: r(c, boosters=c.boosters + 1)})

    def _ObjectGrabbed(self, s: SPState, e: ObjectGrabbed) -> SPState:
        c = s.chars[e.who]
        return r(s, chars={**s.chars, e.who: r(c, holding=e.obj)},
                 objects={**s.objects, e.obj: r(s.objects[e.obj], pos=None, held_by=e.who)})

    def _Thrown(self, s: SPState, e: Thrown) -> SPState:
        chars = s.chars
        c = chars[e.who]
        if c.holding == e.what:
            chars = {**chars, e.who: r(c, holding=None)}
        objects = s.objects
        if e.what in objects:
            objects = {**objects, e.what: r(objects[e.what], held_by=None,
                                            pos=e.landed or None)}
        acted = s.acted if e.who in s.acted else s.acted + (e.who,)
        return r(s, chars=chars, objects=objects, acted=acted)

    def _ItemEquipped(self, s: SPState, e: ItemEquipped) -> SPState:
        eq = dict(s.equipped)
        eq[e.who] = eq.get(e.who, ()) + (e.card,)
        return r(s, hand=tuple(c for c in s.hand if c != e.card), equipped=eq)

    def _ItemUsed(self, s: SPState, e: ItemUsed) -> SPState:
        acted = s.acted if e.who in s.acted or not e.who else s.acted + (e.who,)
        return r(s, acted=acted)

    def _ItemDiscarded(self, s: SPState, e: ItemDiscarded) -> SPState:
        eq = {k: tuple(c for c in v if c != e.card) for k, v in s.equipped.items()}
        return r(s, hand=tuple(c for c in s.hand if c != e.card), equipped=eq,
                 discard=s.discard + (e.card,),
                 pending=None if s.pending and s.pending.card == e.card else s.pending)

    def _ItemsTransferred(self, s: SPState, e: ItemsTransferred) -> SPState:
        eq = dict(s.equipped)
        eq[e.frm] = ()
        eq[e.to] = eq.get(e.to, ()) + e.cards
        return r(s, equipped=eq)

    def _ExThrowPending(self, s: SPState, e: ExThrowPending) -> SPState:
        return r(s, ex_threw=True,
                 pending=Pending("ex-throw", e.who, card=e.card, origin=e.origin))

    def _ReactionOpened(self, s: SPState, e: ReactionOpened) -> SPState:
        return r(s, pending=Pending("reaction", e.who, command=e.command, targets=e.targets))

    def _ReactionTaken(self, s: SPState, e: ReactionTaken) -> SPState:
        acted = s.acted
        if e.by and e.by not in acted:
            acted = acted + (e.by,)
        return r(s, pending=None, acted=acted)

    def _AbilityRerolled(self, s: SPState, e: AbilityRerolled) -> SPState:
        return s  # the dice tracker restores the unspent dice: the pool is unchanged

    def _TurnEnded(self, s: SPState, e: TurnEnded) -> SPState:
        return r(s, phase="ended", follow={})

    def _BattleOver(self, s: SPState, e: BattleOver) -> SPState:
        return r(s, winner=e.winner, reason=e.reason, pending=None)

    #: each event folded by the method above named after its type, looked up by the type
    evolve = by_type(handlers(locals(), "_", KERNEL_EVENTS + EVENTS), methods=True)

    # -- whose decision -------------------------------------------------------------------

    def to_act(self, s: SPState) -> Decision:
        if s.winner:
            return Decision("over", ())
        if s.pending and s.pending.kind == "reaction":
            return Decision("reaction", seats_in_fight(s),
                            f"the Bad Guys declare {s.pending.command}: allow, pause or reversal")
        if s.pending and s.pending.kind == "ex-throw":
            return Decision("turn", (s.bad_seat,), "the Evil Ex throws the item he drew")
        if s.phase == "place":
            waiting = unplaced_seats(s)
            return Decision("turn", waiting, "place your characters behind your start line")
        if s.team == "bad":
            if s.follow and s.phase == "act":
                return Decision("turn", (s.bad_seat,), "Bad Guys' turn: the Chicks follow Matthew's move")
            return Decision("turn", (s.bad_seat,), "Bad Guys' turn")
        return Decision("turn", seats_in_fight(s), "Good Guys' turn")

    def outcome(self, s: SPState) -> Outcome | None:
        if not s.winner:
            return None
        winners = s.good_seats if s.winner == "good" else (s.bad_seat,)
        # the battle keeps no score (BattleOver names a side and why): no scores to report
        return Outcome(tuple(winners), {}, s.reason)

    # -- hidden information ---------------------------------------------------------------

    def view(self, s: SPState, seat: str | None) -> SPState:
        deck = ("?",) * len(s.deck)
        hand = s.hand if seat in s.good_seats else ("?",) * len(s.hand)
        return r(s, deck=deck, hand=hand)

    def redact(self, e: Event, seat: str | None, s: SPState) -> Event | None:
        if isinstance(e, ItemDrawn) and seat not in s.good_seats and seat != REFEREE:
            if e.card in s.hand or e.card in s.deck:
                return r(e, card="?")
        return e

    def hidden_from(self, s: SPState, seat: str | None) -> set[str]:
        if seat == REFEREE:
            return set()
        hidden = set(s.deck)
        if seat not in s.good_seats:
            hidden |= set(s.hand)
        return hidden

    def describe(self, e: Event, state: SPState | None = None) -> str:
        return describe(e)


TEAM = {"good": "the Good Guys", "bad": "the Bad Guys"}


def spaces(n: int) -> str:
    return f"{n} space" + ("" if n == 1 else "s")


def describe(e: Event) -> str:
    """One line a player reads about a fact (the words the rulebook uses)."""
    n = type(e).__name__
    f = msgspec.structs.asdict(e)
    if isinstance(e, DiceRolled):
        return f"rolled {' '.join(e.faces)} ({e.purpose})"
    if isinstance(e, GameCreated):
        opts = ", ".join(f"{k}={v}" for k, v in e.options.items())
        return f"a battle at the Rockit ({opts})"
    if isinstance(e, DiceSpent):
        tokens = {0: "", 1: "a booster token", 2: "two booster tokens"}.get(
            e.boosters, f"{e.boosters} booster tokens")
        paid = [x for x in (" ".join(e.faces), tokens, "the combo cube" if e.combo else "") if x]
        return f"{e.who} spends {' and '.join(paid) or 'nothing'} to {e.purpose}"
    if isinstance(e, ItemDrawn):
        who = "the Good Guys" if e.by == "setup" else e.by
        return f"{who} draw{'' if e.by == 'setup' else 's'} an item" \
            f" ({'hidden' if e.card == '?' else card_id(e.card)})"
    if isinstance(e, (TurnBegan, PoolRolled, TurnEnded)):
        team = TEAM[e.team]
        if isinstance(e, TurnBegan):
            return f"round {e.round}: {team}' turn"
        if isinstance(e, PoolRolled):
            return f"{team} roll {' '.join(e.faces)}"
        return f"{team} end their turn"
    if isinstance(e, ChicksFollow):
        return f"each Chick on the board follows Matthew {spaces(e.spaces)}: {', '.join(e.chicks)}"
    if isinstance(e, Pushed) and e.frm == "thrown":
        return f"the {e.what} lands on {e.to}"
    if isinstance(e, AbilityUsed):
        on = f" on {', '.join(e.targets)}" if e.targets else ""
        return f"{e.who} uses {e.ability}{on}" + (f" ({e.detail})" if e.detail else "")
    if isinstance(e, LeveledUp):
        unlock = f" and unlocks {e.unlocked}" if e.unlocked else ""
        return f"{e.who} levels up: a cube in the Combo box{unlock}"
    if isinstance(e, ReactionTaken):
        return {"allow": "the Good Guys let it happen", "pause": "the Good Guys pause it",
                "reversal": f"{e.by} reverses it"}.get(e.kind, e.kind)
    if isinstance(e, ItemUsed):
        who = e.who or "the Good Guys"
        return f"{who} use{'s' if e.who else ''} {card_id(e.card)}: {e.effect}"
    if isinstance(e, BattleOver):
        return f"{TEAM.get(e.winner, e.winner)} win: {e.reason}"
    texts = {
        "Placed": "{who} is placed on {at}",
        "DiceRerolled": "reroll every {face}: now {faces}",
        "Moved": "{who} moves to {path}",
        "Pushed": "{what} is pushed from {frm} to {to}",
        "ChickMoved": "{who} follows Matthew ({path})",
        "AbilityRerolled": "{ability} rerolls: {faces} ({counted} counted); the dice tracker"
                           " restores the pool",
        "Damaged": "{target} takes {amount} damage ({source})",
        "ShieldedBy": "the {obj} shields {holder} and drops to {at}",
        "KnockedBack": "{what} is knocked back from {frm} to {to}",
        "ObjectFlipped": "the {obj} flips over, damaged",
        "ObjectRemoved": "the {obj} is destroyed",
        "Poofed": "{chick} poofs!",
        "KnockedOut": "{who} is knocked out!",
        "Summoned": "Matthew summons {chick} to {at}",
        "XPGained": "{who} gains {amount} XP",
        "HealthRecovered": "{who} recovers {amount} Health",
        "BoosterGained": "{who} gains a booster token",
        "ObjectGrabbed": "{who} grabs the {obj}",
        "Thrown": "{who} throws {what} {direction}: it hits {hit}",
        "ItemEquipped": "{who} equips {card}",
        "ItemDiscarded": "{card} is discarded",
        "ItemsTransferred": "{frm}'s equipped items go to {to}: {cards}",
        "ExThrowPending": "{who} draws {card} at {origin} and must throw it",
        "ReactionOpened": "the Bad Guys declare: {command}; the Good Guys may react",
    }
    if n in texts:
        for k in ("card", "what", "cards"):  # item tokens read as their card ids
            v = f.get(k)
            if isinstance(v, str) and v.startswith("item:"):
                f[k] = card_id(v)
            elif isinstance(v, (tuple, list)):
                f[k] = [card_id(x) if str(x).startswith("item:") else x for x in v]
        f = {k: (" ".join(map(str, v)) if isinstance(v, (tuple, list)) else v) for k, v in f.items()}
        text = texts[n].format(**f)
        if isinstance(e, KnockedBack) and e.wall:
            # against the wall already: it does not move ("from a6 to a6" said nothing)
            text = (f"{e.what} is knocked back into the wall and does not move (stays on {e.frm})" if e.frm == e.to
                    else text + " into the wall")
        return text
    return n
