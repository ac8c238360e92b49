"""Commands of Villainous, their text and their parser."""

from __future__ import annotations

import re
from typing import Any

import msgspec

from arbiter.core.errors import ParseError
from arbiter.core.grammar import command_words
from arbiter.core.villainous.board import Table, def_id


class MoveMover(msgspec.Struct, frozen=True, tag=True):
    to: str


class Collect(msgspec.Struct, frozen=True, tag=True):
    pass


class Play(msgspec.Struct, frozen=True, tag=True):
    card: str
    at: str | None = None
    on: str | None = None
    engage: str | None = None


class Activate(msgspec.Struct, frozen=True, tag=True):
    card: str
    ambition: bool = False


class MoveCard(msgspec.Struct, frozen=True, tag=True):
    card: str
    to: str


class Maneuver(msgspec.Struct, frozen=True, tag=True):
    vehicle: str
    engage: str | None = None


class Discard(msgspec.Struct, frozen=True, tag=True):
    cards: tuple[str, ...]


class Vanquish(msgspec.Struct, frozen=True, tag=True):
    target: str
    allies: tuple[str, ...] = ()


class Fate(msgspec.Struct, frozen=True, tag=True):
    opponent: str
    ally_vehicle: str | None = None
    hero_vehicle: str | None = None


class FatePlay(msgspec.Struct, frozen=True, tag=True):
    card: str
    at: str | None = None
    on: str | None = None
    engage: str | None = None


class Hunt(msgspec.Struct, frozen=True, tag=True):
    bounty: str


class EndTurn(msgspec.Struct, frozen=True, tag=True):
    pass


class Choose(msgspec.Struct, frozen=True, tag=True):
    option: str


class Pass(msgspec.Struct, frozen=True, tag=True):
    pass


class PlayCondition(msgspec.Struct, frozen=True, tag=True):
    card: str


Command = Any

#: (form, example, what it does) for every command; ``help`` in ``arbiter play`` lists them.
FORMS = (
    ("move LOCATION", "move coruscant", "step 2: move your mover (or onto an Ally Vehicle)"),
    ("collect", "collect", "Collect Credits"),
    ("play CARD at LOCATION", "play aurra sing at bora vio", "play an Ally, Contact or Item (Credits or Ambition)"),
    ("play CARD on CARD", "play twin blasters on aurra sing", "an Item on an Ally; a Bounty on a Contact"),
    ("play CARD [engage HERO-VEHICLE]", "play slave i engage razor crest", "an Ally Vehicle (Deep Space) or an Effect"),
    ("activate CARD", "activate bounty droid", "Activate an Ability (pay its Credits)"),
    ("activate-ambition CARD", "activate-ambition moralo eval", "Activate an Ambition ability"),
    ("move CARD to LOCATION", "move embo to the box", "Move action: one of your cards"),
    ("maneuver ALLY-VEHICLE [engage HERO-VEHICLE]", "maneuver slave i engage razor crest", "Maneuver: disengage, or engage"),
    ("discard CARD [CARD ...]", "discard embo aurra sing", "Discard Cards (no draw until the end)"),
    ("vanquish HERO with ALLY [ALLY ...]", "vanquish obi-wan kenobi with embo aurra sing", "Vanquish a Hero"),
    ("vanquish HERO-VEHICLE", "vanquish razor crest", "Vanquish an engaged Hero Vehicle"),
    ("fate PLAYER", "fate bob", "Fate: reveal the top two of their Fate deck"),
    ("fate PLAYER engage ALLY-VEHICLE HERO-VEHICLE", "fate cy engage slave i razor crest", "Fate: engage instead"),
    ("fate-play CARD at LOCATION", "fate-play kanan jarrus at bilzen", "play a revealed Hero (or Item) there"),
    ("fate-play CARD on HERO", "fate-play rebel blaster on kanan jarrus", "attach a revealed Item to a Hero"),
    ("fate-play CARD [engage ALLY-VEHICLE]", "fate-play the ghost engage inquisitor tie", "a Hero Vehicle, Effect or Condition"),
    ("hunt BOUNTY", "hunt smuggler", "pay a Bounty's Hunt cost (no action)"),
    ("end", "end", "step 4: draw up to your hand limit; next player"),
    ("choose OPTION", "choose bora vio", "answer a card's choice (pass: decline a 'may')"),
    ("condition CARD", "condition double cross", "on an opponent's turn: play a Condition"),
    ("pass | p", "p", "play no Condition now (or decline a 'may' choice)"),
)

SYNTAX = tuple(f"\n  {form:<46} {what}\n      e.g. {example}" for form, example, what in FORMS)


def slug(text: str) -> str:
    text = text.lower().replace("'", "").replace("’", "")
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


def _hint(verb: str | None = None) -> str:
    """The forms of one command with examples; without a verb, the list of commands."""
    forms = [(f, e) for f, e, _ in FORMS if verb and f.split()[0] == verb]
    if forms:
        return "; ".join(f"{f} (e.g. {e})" for f, e in forms)
    verbs = dict.fromkeys(f.split()[0] for f, _, _ in FORMS)
    return "commands: " + ", ".join(verbs) + " ('help' in arbiter play shows every form with an example)"


class Parser:
    def __init__(self, state: Any) -> None:
        self.state = state
        self.t = Table(state)
        self.defs = self.t.cards
        self.by_slug: dict[str, str] = {}
        for did, c in self.defs.items():
            self.by_slug[did] = did
            self.by_slug[slug(c["name"])] = did
            if ":" in c["name"]:
                self.by_slug.setdefault(slug(c["name"].split(":", 1)[1]), did)
            short = did.split("-", 1)[1] if "-" in did else did
            self.by_slug.setdefault(short, did)
        self.locs: dict[str, str] = {}
        for v in self.t.content["villains"].values():
            for l in v["locations"]:
                self.locs[l["id"]] = l["id"]
                self.locs[slug(l["name"])] = l["id"]

    def all_instances(self) -> set[str]:
        s = self.state
        out: set[str] = set()
        for seat in s.seats:
            for pile in (s.hand, s.discard, s.fate_discard, s.deck, s.fate_deck):
                v = pile.get(seat, [])
                if isinstance(v, list):
                    out |= set(v)
            out |= set(s.sector.get(seat, {}))
        if s.fate:
            out |= set(s.fate["cards"])
        return out

    def card(self, word: str, pool: list[str]) -> str:
        w = slug(word)
        if not w:
            raise ParseError("a card name is missing", hint=_hint())
        if w in pool:
            return w
        did = self.by_slug.get(w)
        if did is None:
            m = re.match(r"^(.*)-(\d+)$", w)
            if m and m.group(1) in self.defs:
                return w
            # a unique part of a name among the cards at hand ("kanan" for Kanan Jarrus)
            part = [c for c in pool if w in slug(self.defs[def_id(c)]["name"]).split("-")
                    or slug(self.defs[def_id(c)]["name"]).startswith(w)]
            if len({def_id(c) for c in part}) == 1:
                return part[0]
            if pool and "?" not in pool:
                names = ", ".join(dict.fromkeys(f"{self.defs[def_id(c)]['name']} ({c})" for c in pool if def_id(c) in self.defs))
                raise ParseError(f"no card called {word!r} here", hint=f"you can name: {names}")
            raise ParseError(f"there is no card called {word!r} in this game",
                             hint="name a card by its name (e.g. 'aurra sing') or its id (e.g. cb-aurra-sing-1)")
        for c in pool:
            if def_id(c) == did:
                return c
        return did  # not where it must be: the rules will say so

    def known(self, word: str, pool: list[str] = ()) -> bool:  # type: ignore[assignment]
        w = slug(word)
        m = re.match(r"^(.*)-(\d+)$", w)
        if w in self.by_slug or w in pool or bool(m and m.group(1) in self.defs):
            return True
        part = [c for c in pool if w in slug(self.defs[def_id(c)]["name"]).split("-")
                or slug(self.defs[def_id(c)]["name"]).startswith(w)]
        return len({def_id(c) for c in part}) == 1

    def cards(self, words: list[str], pool: list[str]) -> tuple[str, ...]:
        """Several card names in a row (each one word or more), longest name first."""
        left = list(pool)
        out: list[str] = []
        i = 0
        while i < len(words):
            for j in range(len(words), i, -1):
                if self.known(" ".join(words[i:j]), left):
                    c = self.card(" ".join(words[i:j]), left)
                    if c in left:
                        left.remove(c)
                    out.append(c)
                    i = j
                    break
            else:
                self.card(words[i], left)  # raises the ParseError naming it
        return tuple(out)

    def loc(self, word: str, sector: str | None = None) -> str:
        w = slug(word)
        if w in self.locs:
            return self.locs[w]
        if w == "deep-space":
            return w
        try:
            return self.card(word, [c for sec in self.state.sector.values() for c in sec])
        except ParseError:
            if sector is not None and sector in self.state.villain:
                places = self.t.mover_places(sector)
                raise ParseError(f"there is no location called {word!r} in {sector}'s sector",
                                 hint="locations: " + ", ".join(places)) from None
            raise ParseError(f"there is no location called {word!r}",
                             hint="locations: " + ", ".join(sorted(set(self.locs.values())))) from None


def split_words(words: list[str], keys: tuple[str, ...]) -> tuple[list[str], dict[str, list[str]]]:
    head: list[str] = []
    parts: dict[str, list[str]] = {}
    cur = head
    for w in words:
        if w.lower() in keys:
            if w.lower() in parts:
                raise ParseError(f"{w!r} is given twice", hint=_hint())
            cur = parts[w.lower()] = []
        else:
            cur.append(w)
    return head, parts


def parse(state: Any, seat: str, text: str) -> Command:
    words = command_words(text, _hint(None))
    verb, rest = words[0].lower(), words[1:]
    P = Parser(state)
    hand = list(state.hand.get(seat, [])) if isinstance(state.hand.get(seat), list) else []
    mine = sorted(state.sector.get(seat, {}), key=lambda c: state.sector[seat][c]["at"])
    if verb == "collect" and not rest:
        return Collect()
    if verb in ("end", "end-turn") and not rest:
        return EndTurn()
    if verb in ("pass", "p") and not rest:
        return Pass()
    if verb == "move":
        head, parts = split_words(rest, ("to",))
        if "to" in parts:
            if not head or not parts["to"]:
                raise ParseError("say which card moves where: move CARD to LOCATION", hint=_hint(verb))
            return MoveCard(P.card(" ".join(head), mine), P.loc(" ".join(parts["to"]), seat))
        if not head:
            raise ParseError("say where the mover goes: move LOCATION", hint=_hint(verb))
        return MoveMover(P.loc(" ".join(head), seat))
    if verb in ("play", "fate-play"):
        head, parts = split_words(rest, ("at", "on", "engage"))
        if not head:
            raise ParseError(f"say which card to play: {verb} CARD", hint=_hint(verb))
        fate_pool = list(state.fate["cards"]) if state.fate else []
        target = state.fate["target"] if state.fate else seat
        tpool = sorted(state.sector.get(target, {}), key=lambda c: state.sector[target][c]["at"])
        pool = hand if verb == "play" else fate_pool
        card = P.card(" ".join(head), pool)
        at = P.loc(" ".join(parts["at"]), target) if parts.get("at") else None
        on = P.card(" ".join(parts["on"]), mine if verb == "play" else tpool) if parts.get("on") else None
        eng = P.card(" ".join(parts["engage"]), mine if verb == "play" else tpool) if parts.get("engage") else None
        cls = Play if verb == "play" else FatePlay
        return cls(card, at, on, eng)
    if verb in ("activate", "activate-ambition"):
        if not rest:
            raise ParseError(f"say which card to activate: {verb} CARD", hint=_hint(verb))
        return Activate(P.card(" ".join(rest), mine), verb == "activate-ambition")
    if verb == "maneuver":
        head, parts = split_words(rest, ("engage",))
        if not head:
            raise ParseError("say which Ally Vehicle maneuvers", hint=_hint(verb))
        eng = P.card(" ".join(parts["engage"]), mine) if parts.get("engage") else None
        return Maneuver(P.card(" ".join(head), mine), eng)
    if verb == "discard":
        if not rest:
            raise ParseError("say which cards to discard", hint=_hint(verb))
        return Discard(P.cards(rest, hand))
    if verb == "vanquish":
        head, parts = split_words(rest, ("with",))
        if not head:
            raise ParseError("say which Hero to vanquish", hint=_hint(verb))
        allies = P.cards(parts.get("with", []), mine)
        if "with" in parts and not allies:
            raise ParseError("name the Allies after 'with'", hint=_hint(verb))
        return Vanquish(P.card(" ".join(head), mine), allies)
    if verb == "fate":
        head, parts = split_words(rest, ("engage",))
        if len(head) != 1:
            raise ParseError("say which opponent: fate PLAYER", hint=_hint(verb))
        opp = head[0].lower()
        if opp not in state.seats:
            raise ParseError(f"no player {opp!r} in this game", hint="players: " + ", ".join(state.seats))
        if "engage" in parts:
            opool = sorted(state.sector.get(opp, {}))
            pair = P.cards(parts["engage"], opool)
            if len(pair) != 2:
                raise ParseError("fate PLAYER engage ALLY-VEHICLE HERO-VEHICLE", hint=_hint(verb))
            return Fate(opp, pair[0], pair[1])
        return Fate(opp)
    if verb == "hunt":
        if not rest:
            raise ParseError("say which Bounty to hunt", hint=_hint(verb))
        return Hunt(P.card(" ".join(rest), mine))
    if verb == "condition":
        if not rest:
            raise ParseError("say which Condition card to play", hint=_hint(verb))
        return PlayCondition(P.card(" ".join(rest), hand))
    if verb == "choose":
        if not rest:
            raise ParseError("say what you choose", hint=_hint(verb))
        word = " ".join(rest)
        opts = state.pending[-1]["options"] if state.pending else []
        w = slug(word) if "/" not in word and ":" not in word else word.lower()
        if w in opts:
            return Choose(w)
        cardopts = {o.split(":", 1)[-1]: o for o in opts if def_id(o.split(":", 1)[-1]) in P.defs}
        if cardopts:
            try:
                c = P.card(word, list(cardopts))
            except ParseError:
                c = ""
            if c in cardopts:
                return Choose(cardopts[c])
        if w in P.locs:
            return Choose(P.locs[w])
        return Choose(w)
    raise ParseError(f"not a Villainous command: {text!r}", hint=_hint(None))


def text(cmd: Command) -> str:
    t = type(cmd)
    if t is MoveMover:
        return f"move {cmd.to}"
    if t is Collect:
        return "collect"
    if t in (Play, FatePlay):
        s = ("play " if t is Play else "fate-play ") + cmd.card
        if cmd.at:
            s += f" at {cmd.at}"
        if cmd.on:
            s += f" on {cmd.on}"
        if cmd.engage:
            s += f" engage {cmd.engage}"
        return s
    if t is Activate:
        return ("activate-ambition " if cmd.ambition else "activate ") + cmd.card
    if t is MoveCard:
        return f"move {cmd.card} to {cmd.to}"
    if t is Maneuver:
        return f"maneuver {cmd.vehicle}" + (f" engage {cmd.engage}" if cmd.engage else "")
    if t is Discard:
        return "discard " + " ".join(cmd.cards)
    if t is Vanquish:
        return f"vanquish {cmd.target}" + (" with " + " ".join(cmd.allies) if cmd.allies else "")
    if t is Fate:
        s = f"fate {cmd.opponent}"
        if cmd.ally_vehicle:
            s += f" engage {cmd.ally_vehicle} {cmd.hero_vehicle}"
        return s
    if t is Hunt:
        return f"hunt {cmd.bounty}"
    if t is EndTurn:
        return "end"
    if t is Choose:
        return f"choose {cmd.option}"
    if t is Pass:
        return "pass"
    if t is PlayCondition:
        return f"condition {cmd.card}"
    raise ValueError(cmd)
