"""The board of Villainous: each Villain's sector (locations, action symbols, the cards in
play, Deep Space) read through a :class:`Table`, and the :class:`Emitter` a command is
decided on (the state so far, each event emitted applied to it as the fold applies it)."""

from __future__ import annotations

from typing import Any

from arbiter.core.dice import Rng
from arbiter.core.errors import RuleViolation, require
from arbiter.events import villainous as ev
from arbiter.events.base import Event
from arbiter.core.game import Emitter as KernelEmitter
from arbiter.projections.villainous import CONTENT, VillainousProjection, VState

_INDEX: dict[str, dict[str, Any]] = {}

#: what a Condition, a Bounty's Progress or a "whenever" ability answering one kind of
#: happening also answers: a Vanquish is also a defeat.
IMPLIED = {"vanquish": ("vanquish", "defeat")}
#: ``count`` words for tokens, and for the cards in a sector by type.
TOKENS = {"credits": "credits", "ambition": "ambition", "targets": "targets", "rebels": "rebels"}
COUNTABLE = {"allies": ("ally",), "heroes": ("hero",), "items": ("item",), "effects": ("effect",),
             "hero_vehicles": ("hero_vehicle",), "ally_vehicles": ("ally_vehicle",),
             "vehicles": ("hero_vehicle", "ally_vehicle"), "contacts": ("contact",),
             "bounties": ("bounty",), "conditions": ("condition",)}


def answers(kind: str) -> tuple[str, ...]:
    return IMPLIED.get(kind, (kind,))


NORMAL_SYMBOLS = ("ambition", "play", "move", "discard", "activate", "vanquish", "fate")
DEEP_SPACE = "deep-space"
PROJECTION = VillainousProjection()
MOVER = "mover"


def index(content_hash: str) -> dict[str, Any]:
    """Card definitions by id, with which villain's deck (villain or fate) holds them."""
    if content_hash not in _INDEX:
        content = CONTENT[content_hash]
        cards: dict[str, Any] = {}
        for vkey, v in content["villains"].items():
            for deck in ("villain_deck", "fate_deck"):
                for c in v[deck]:
                    cards[c["id"]] = {**c, "_villain": vkey, "_deck": "villain" if deck == "villain_deck" else "fate"}
        _INDEX[content_hash] = {"cards": cards, "content": content}
    return _INDEX[content_hash]


def def_id(card: str) -> str:
    return card.rsplit("-", 1)[0]


def instances(card_def: dict[str, Any]) -> list[str]:
    return [f"{card_def['id']}-{k}" for k in range(1, int(card_def.get("copies", 1)) + 1)]


class Fields:
    """A state's fields by name (``d["hand"]``), read-only: those of the state its owner
    holds now (an Emitter's changes with each event it emits)."""

    __slots__ = ("_owner",)

    def __init__(self, owner: "Table") -> None:
        self._owner = owner

    def __getitem__(self, key: str) -> Any:
        return getattr(self._owner.state, key)

    def __contains__(self, key: str) -> bool:
        return hasattr(self._owner.state, key)

    def get(self, key: str, default: Any = None) -> Any:
        return getattr(self._owner.state, key, default)


class Table:
    """What is on the table: the cards of every sector, looked up through the content
    (strength, covered actions, restrictions, Conditions a hand holds).

    ``d`` reads the state's fields by name: a :class:`VState`'s (shared with the state, so
    never changed in place), or the keys of a view the service decoded from JSON."""

    def __init__(self, state: VState | dict[str, Any]) -> None:
        self.state: Any = state
        self.d: Any = Fields(self) if isinstance(state, VState) else state
        ix = index(self.d["content_hash"])
        self.cards = ix["cards"]
        self.content = ix["content"]

    def deck_answers(self, seat: str, kind: str) -> bool:
        """Does ``seat``'s Villain deck hold any Condition played on ``kind``?"""
        return any(c["type"] == "condition" and any(a.get("when") == "condition" and a.get("trigger") in answers(kind)
                                                    for a in c.get("abilities", []))
                   for c in self.villain(seat)["villain_deck"])

    def conditions_for(self, seat: str, kind: str) -> list[str]:
        return [c for c in self.d["hand"][seat] if self.ctype(c) == "condition"
                and any(a.get("when") == "condition" and a.get("trigger") in answers(kind)
                        and self.holds(seat, a.get("if"), None)
                        for a in self.card(c).get("abilities", []))]

    # -- lookups -------------------------------------------------------------------------

    def card(self, card: str) -> dict[str, Any]:
        return self.cards[def_id(card)]

    def ctype(self, card: str) -> str:
        return self.card(card)["type"]

    def villain(self, seat: str) -> dict[str, Any]:
        return self.content["villains"][self.d["villain"][seat]]

    def seat_of_villain(self, vkey: str) -> str | None:
        for s, v in self.d["villain"].items():
            if v == vkey:
                return s
        return None

    def owner(self, card: str) -> tuple[str, str]:
        """(seat, pile) whose discard pile the card goes to."""
        c = self.card(card)
        return self.seat_of_villain(c["_villain"]) or self.d["active"], c["_deck"]

    def location_ids(self, seat: str) -> list[str]:
        return [loc["id"] for loc in self.villain(seat)["locations"]]

    def location_name(self, seat: str, loc: str) -> str:
        for l in self.villain(seat)["locations"]:
            if l["id"] == loc:
                return l["name"]
        if loc in self.d["sector"][seat]:
            return self.card(loc)["name"]
        return loc

    def in_sector(self, seat: str) -> dict[str, dict[str, Any]]:
        return self.d["sector"][seat]

    def cards_at(self, seat: str, loc: str, types: tuple[str, ...] | None = None) -> list[str]:
        out = [(i["at"], c) for c, i in self.in_sector(seat).items()
               if i["loc"] == loc and (types is None or self.ctype(c) in types)]
        return [c for _, c in sorted(out)]

    def all_of(self, seat: str, types: tuple[str, ...]) -> list[str]:
        out = [(i["at"], c) for c, i in self.in_sector(seat).items() if self.ctype(c) in types]
        return [c for _, c in sorted(out)]

    def ally_vehicles(self, seat: str) -> list[str]:
        return self.all_of(seat, ("ally_vehicle",))

    def hero_vehicles(self, seat: str) -> list[str]:
        return self.all_of(seat, ("hero_vehicle",))

    def mover_places(self, seat: str) -> list[str]:
        """The locations a mover may stand on: the four locations and the Ally Vehicles."""
        return self.location_ids(seat) + self.ally_vehicles(seat)

    # -- strength (Strength; Gaining and Losing Strength) ---------------------------------

    def passives(self, seat: str, kind: str) -> list[tuple[str, dict[str, Any]]]:
        """The passive abilities of ``kind`` in force in ``seat``'s sector (a passive with an
        ``if`` is in force only while its condition holds)."""
        out = []
        for c in sorted(self.in_sector(seat), key=lambda c: self.in_sector(seat)[c]["at"]):
            for a in self.card(c).get("abilities", []):
                if a.get("passive") == kind and self.holds(seat, a.get("if"), self.in_sector(seat)[c]["loc"]):
                    out.append((c, a))
        return out

    # -- conditions and counting ("if ...", "for each ...") ---------------------------------

    def count(self, seat: str, spec: dict[str, Any], here: str | None) -> int:
        """How many of a thing ``seat`` has: cards of a kind in its sector (optionally at
        ``here``, the location of the card asking), cards in hand, tokens, or progress."""
        what = spec.get("count", "")
        if what in TOKENS:
            return int(self.d[TOKENS[what]].get(seat, 0))
        if what == "hand":
            return len(self.d["hand"][seat])
        if what == "completed":
            return len(self.d["bounties"][seat])
        if what == "heroes_with_targets":
            return sum(1 for c in self.all_of(seat, ("hero",)) if self.in_sector(seat)[c]["targets"])
        if what == "locations_with_heroes":
            return len({self.in_sector(seat)[c]["loc"] for c in self.all_of(seat, ("hero",))})
        types = COUNTABLE[what]
        n = 0
        for c, info in self.in_sector(seat).items():
            if self.ctype(c) not in types:
                continue
            if spec.get("where") == "here" and info["loc"] != here:
                continue
            if spec.get("where") == "mover" and info["loc"] != self.d["mover"].get(seat):
                continue
            if spec.get("keyword") and spec["keyword"] not in self.card(c).get("keywords", []):
                continue
            if spec.get("named") and def_id(c) != spec["named"]:
                continue
            n += 1
        return n

    def holds(self, seat: str, cond: dict[str, Any] | None, here: str | None) -> bool:
        """``"if": {"count": ..., "min": N, "max": M}``: true while the count lies in range."""
        if not cond:
            return True
        n = self.count(seat, cond, here)
        return n >= int(cond.get("min", 1 if "max" not in cond else 0)) and n <= int(cond.get("max", n))

    def times(self, seat: str, spec: dict[str, Any] | None, here: str | None) -> int:
        """``"for_each": {...}``: how many times an amount applies (1 without one)."""
        return 1 if not spec else self.count(seat, spec, here)

    def cost_of(self, seat: str, card: str) -> tuple[int, str]:
        """A card's cost for ``seat`` after the cost modifiers in its sector ("costs 1 less"),
        never below 0; and whether it is paid in Credits or Ambition."""
        c = self.card(card)
        kind = c.get("cost_kind", "credits")
        cost = int(c.get("cost", 0))
        for src, a in self.passives(seat, "cost"):
            if a.get("type") and a["type"] != c["type"]:
                continue
            if a.get("named") and a["named"] != def_id(card):
                continue
            if a.get("cost_kind", kind) != kind:
                continue
            cost += int(a["amount"]) * self.times(seat, a.get("for_each"), self.in_sector(seat)[src]["loc"])
        return max(0, cost), kind

    def collect_bonus(self, seat: str) -> int:
        """Credits modifiers on the Collect Credits action ("collect 1 more")."""
        return sum(int(a["amount"]) * self.times(seat, a.get("for_each"), self.in_sector(seat)[src]["loc"])
                   for src, a in self.passives(seat, "collect"))

    def strength(self, seat: str, card: str) -> int:
        """Printed strength, plus Strength tokens, plus every card's modifier, never below 0."""
        info = self.in_sector(seat)[card]
        total = int(self.card(card).get("strength") or 0) + info["tokens"]
        kind = self.ctype(card)
        for src, a in self.passives(seat, "strength"):
            sinfo = self.in_sector(seat)[src]
            applies = a.get("applies")
            same_loc = sinfo["loc"] == info["loc"]
            ok = False
            if applies == "self":
                ok = src == card
            elif applies == "bearer":
                ok = sinfo.get("on") == card
            elif applies in ("allies_here", "heroes_here"):
                want = "ally" if applies == "allies_here" else "hero"
                ok = same_loc and kind == want and not (a.get("others") and src == card)
            elif applies in ("allies_all", "heroes_all"):
                ok = kind == ("ally" if applies == "allies_all" else "hero")
            if ok and a.get("named") and def_id(card) != a["named"]:
                ok = False
            if ok and a.get("with_card"):
                ok = any(def_id(c) == a["with_card"] and c != card
                         for c in self.cards_at(seat, info["loc"]))
            if ok:
                total += int(a["amount"]) * self.times(seat, a.get("for_each"), sinfo["loc"])
        return max(0, total)

    # -- actions (Actions; Blocked Actions) -------------------------------------------------

    def symbols_at(self, seat: str, loc: str | None) -> list[str]:
        if loc is None:
            return []
        for l in self.villain(seat)["locations"]:
            if l["id"] == loc:
                return list(l["actions"])
        if loc in self.in_sector(seat):
            return list(self.card(loc).get("actions", []))
        return []

    def covered(self, seat: str, loc: str) -> list[int]:
        """Indices of the symbols hidden by Fate cards at ``loc``: a Hero (or an Item standing
        on its own) covers the top two; an engaged Hero Vehicle covers all of a Vehicle's."""
        if loc in self.in_sector(seat) and self.ctype(loc) == "ally_vehicle":
            if self.in_sector(seat)[loc]["engaged"]:
                return list(range(len(self.symbols_at(seat, loc))))
            return []
        return [0, 1] if self.covers(seat, loc) else []

    def covers(self, seat: str, loc: str) -> list[str]:
        """The Fate cards covering a location's top symbols: its Heroes and lone Fate Items."""
        return [c for c in self.cards_at(seat, loc)
                if self.in_sector(seat)[c]["side"] == "upper"
                and (self.ctype(c) == "hero" or (self.ctype(c) == "item" and not self.in_sector(seat)[c]["on"]))]

    def covering(self, seat: str, loc: str) -> str:
        """What covers ``loc``'s symbols and until when, as a refusal says it (Blocked Actions:
        "until those cards have been moved, vanquished or discarded")."""
        if loc in self.in_sector(seat) and self.ctype(loc) == "ally_vehicle":
            hv = self.in_sector(seat)[loc]["engaged"]
            return f"{self.card(hv)['name']} (a Hero Vehicle engaged with it) until it is vanquished or maneuvered away"
        names = [self.card(c)["name"] for c in self.covers(seat, loc)]
        if len(names) == 1:
            return f"{names[0]} (a Fate card) until it is moved, vanquished or discarded"
        return f"{' and '.join(names)} (Fate cards) until they are all moved, vanquished or discarded"

    def available(self, seat: str) -> list[tuple[int, str]]:
        loc = self.d["mover"][seat]
        hidden = self.covered(seat, loc) if loc else []
        out = [(i, s) for i, s in enumerate(self.symbols_at(seat, loc))
               if i not in hidden and i not in self.d["used"]]
        out += [(-1, s) for s in self.d["bonus"]]
        return out

    def find_symbol(self, seat: str, kind: str) -> tuple[int, str] | None:
        """A visible, unused symbol of ``kind`` (free bonus actions first)."""
        opts = self.available(seat)
        opts = [o for o in opts if o[0] < 0] + [o for o in opts if o[0] >= 0]
        for i, s in opts:
            if s == kind or (kind == "credits" and s.startswith("credits:")):
                return i, s
        return None

    # -- restrictions ("the restriction wins") ---------------------------------------------

    def forbidden(self, seat: str, hook: str) -> str | None:
        """The card in ``seat``'s sector that forbids ``hook``, if any."""
        for src, a in self.passives(seat, "forbid"):
            if a.get("hook") == hook:
                return src
        return None

    def allowed(self, seat: str, hook: str) -> str | None:
        for src, a in self.passives(seat, "allow"):
            if a.get("hook") == hook:
                return src
        return None

    def check_hook(self, seat: str, hook: str, what: str) -> None:
        """A card forbidding ``hook`` wins, even over a card that allows it."""
        src = self.forbidden(seat, hook)
        if src is None:
            require(True, "SV-CARD-FORBIDS", "")
            return
        require(not self.allowed(seat, hook), "SV-RESTRICTION-WINS",
                f"{self.card(src)['name']} forbids {what}, and when two cards disagree the restriction wins")
        raise RuleViolation("SV-CARD-FORBIDS", f"{self.card(src)['name']} forbids {what}")

    # -- hand limit (Heroes Controlling Deep Space) -----------------------------------------

    def hand_limit(self, seat: str) -> int:
        base = int(self.content.get("hand_size", 4))
        unengaged = [h for h in self.hero_vehicles(seat) if not self.in_sector(seat)[h]["engaged"]]
        mod = sum(int(a["amount"]) for _, a in self.passives(seat, "hand_limit"))
        return max(0, base - len(unengaged) + mod)



class Emitter(Table, KernelEmitter[VState]):
    """The events one command decides, each applied at once to ``state`` as the fold applies
    it (``evolve``), so that each later rule sees what the earlier ones did (``d`` reads the
    state as it is now); ``pushed`` holds the card effects the last step queued."""

    def __init__(self, state: VState, rng: Rng | None = None) -> None:
        KernelEmitter.__init__(self, state, PROJECTION, rng)
        Table.__init__(self, state)
        self.pushed: list[dict[str, Any]] = []

    def trigger(self, kind: str, seat: str) -> None:
        """Conditions (Villain cards): something an opponent may answer happened on
        ``seat``'s turn; open a reaction window for the other seats."""
        if seat != self.d["active"] or self.d["winners"]:
            return
        if self.d["window"]:
            return
        mode = self.d["options"].get("condition_windows", "always")
        if mode == "never":
            return
        order = self.d["order"]
        i = order.index(seat)
        others = order[i + 1:] + order[:i]
        if mode == "holders":
            others = [s for s in others if self.conditions_for(s, kind)]
        else:
            # every opponent whose Villain deck holds a Condition for this trigger (public:
            # the deck lists are known), whether or not it is in their hand
            others = [s for s in others if self.deck_answers(s, kind)]
        if others:
            self.emit(ev.WindowOpened(seats=tuple(others), trigger=kind, by=seat))

    def discard_fate_conditions(self, seat: str, kinds: tuple[str, ...]) -> None:
        """Fate Conditions: "Discard the Condition as soon as the conditions mentioned on the
        card are met" - on whoever's turn they are met."""
        met = {k for kind in kinds for k in answers(kind)}
        for c in list(self.in_sector(seat)):
            if self.ctype(c) == "condition" and self.card(c).get("until") in met:
                owner, pile = self.owner(c)
                self.emit(ev.CardDiscarded(owner=owner, card=c, pile=pile, source="sector"))

    def use_action(self, seat: str, kind: str, rule: str = "SV-ACTION-VISIBLE") -> str:
        """Spend the action symbol a command needs, or say why it cannot be used."""
        found = self.find_symbol(seat, kind)
        if found is None:
            loc = self.d["mover"][seat]
            syms = self.symbols_at(seat, loc)
            label = "Collect Credits" if kind == "credits" else kind.capitalize()
            matching = [i for i, s in enumerate(syms) if s == kind or (kind == "credits" and s.startswith("credits:"))]
            require(bool(matching), "SV-ACTION-VISIBLE", f"there is no {label} symbol where your mover stands ({self.location_name(seat, loc) if loc else 'the portrait'})")
            hidden = self.covered(seat, loc)
            require(not all(i in hidden for i in matching), "SV-BLOCKED",
                    f"the {label} symbol at {self.location_name(seat, loc)} is covered by {self.covering(seat, loc)}")
            raise RuleViolation("SV-ACTION-ONCE", f"the {label} action at {self.location_name(seat, loc)} was already used this turn")
        i, s = found
        for rule in ("SV-ACTION-VISIBLE", "SV-BLOCKED", "SV-ACTION-ONCE"):
            require(True, rule, "")  # the symbol is there, uncovered and unused
        self.emit(ev.ActionUsed(seat=seat, symbol=s, index=i))
        return s

    def reshuffle(self, seat: str, kind: str, with_deck: bool = False, with_discard: bool = True) -> bool:
        """Shuffle the discard pile (and the deck, after a reveal) into a new deck; after a
        Find, the deck alone (``with_discard`` false)."""
        pile = self.d["discard" if kind == "villain" else "fate_discard"][seat] if with_discard else []
        deck = self.d["deck" if kind == "villain" else "fate_deck"][seat]
        items = list(pile) + (list(deck) if with_deck else [])
        if not items or self.rng is None:
            return False
        if not with_deck and deck:
            return False
        self.emit(self.rng.shuffle(f"{kind}:{seat}", items))
        return True

    def draw(self, seat: str, n: int) -> int:
        drawn = 0
        while drawn < n:
            deck = self.d["deck"][seat]
            if not deck and not self.reshuffle(seat, "villain"):
                break
            take = self.d["deck"][seat][: n - drawn]
            self.emit(ev.CardsDrawn(seat=seat, cards=tuple(take)))
            drawn += len(take)
        return drawn
