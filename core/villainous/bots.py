"""A bot that plays sensibly: works towards its Objective and plays Fate on the leader."""

from __future__ import annotations

import random
from typing import Any, Sequence

from arbiter.core.villainous import commands as C
from arbiter.core.villainous.effects import places_for
from arbiter.core.villainous.board import Table
from arbiter.projections.villainous import progress


def smart(state: Any, seat: str, legal: Sequence[Any], rng: random.Random) -> Any:
    t = Table(state)
    kind = t.villain(seat)["objective"]["kind"]

    def leader() -> str:
        others = [s for s in state.seats if s != seat]
        return max(others, key=lambda s: (progress(state, s) / t.villain(s)["objective"]["count"], -others.index(s)))

    def score(cmd: Any) -> float:
        if isinstance(cmd, C.Choose):
            if cmd.option == "none":
                return 0
            return 5 if cmd.option in t.d["sector"].get(seat, {}) else 3
        if isinstance(cmd, C.PlayCondition):
            return 10
        if isinstance(cmd, C.Pass):
            return 1
        if isinstance(cmd, C.FatePlay):
            opp = t.d["fate"]["target"]
            typ = t.ctype(cmd.card)
            base = int(t.card(cmd.card).get("strength") or 0)
            if opp == seat:  # a card of your own Fate deck played on yourself: the least harm
                wanted = typ == "hero" and (kind == "targets" or (kind == "rebels" and "rebel" in t.card(cmd.card).get("keywords", [])))
                return 15 - base / 10 if wanted else {"effect": 4, "hero": 3}.get(typ, 2)
            if typ == "hero" and t.villain(opp)["objective"]["kind"] == "rebels" \
                    and "rebel" in t.card(cmd.card).get("keywords", []):
                return 2 + base / 10  # a Rebel is what the Seventh Sister hunts: do not hand her one
            return {"hero": 10 + base, "hero_vehicle": 8, "condition": 7, "effect": 6, "item": 5}.get(typ, 1)
        if isinstance(cmd, C.Vanquish):
            info = t.in_sector(seat).get(cmd.target, {})
            bonus = 0
            if kind == "targets":
                bonus = 30 * info.get("targets", 0) - 18
            if kind == "rebels" and "rebel" in t.card(cmd.target).get("keywords", []):
                bonus = 30
            return 40 + bonus - len(cmd.allies)
        if isinstance(cmd, C.Activate):
            abil = [a for a in t.card(cmd.card).get("abilities", [])
                    if a.get("when") == ("ambition" if cmd.ambition else "activate")]
            cost = int(abil[0].get("cost", 0)) if abil else 0
            effects = abil[0]["effects"] if abil else []
            if effects and all(e["do"] == "gain" and not e.get("credits") for e in effects) and t.d["ambition"][seat] >= 3:
                return 2  # Credits into Ambition the Villain does not need
            return 25 - 4 * cost if cmd.ambition is False else 25
        if isinstance(cmd, C.Hunt):
            # hunt when it advances a Bounty; never spend the Credits a card needs
            info = t.in_sector(seat).get(cmd.bounty, {})
            reqs = t.card(cmd.bounty).get("progress", [])
            wants = any(r.get("kind") == "hunt" and i not in info.get("progress", []) for i, r in enumerate(reqs))
            return 21 if wants and t.d["phase"] == "act" else 3
        if isinstance(cmd, C.Play):
            c = t.card(cmd.card)
            v = {"bounty": 35, "contact": 30, "ally": 27, "item": 20, "effect": 20, "ally_vehicle": 12}.get(c["type"], 10)
            if cmd.at:  # prefer a location with a Hero to fight
                v += 3 if t.cards_at(seat, cmd.at, ("hero",)) else 0
            return v
        if isinstance(cmd, C.Collect):
            return 26
        if isinstance(cmd, C.Fate):
            return 21 if cmd.opponent == leader() else 14
        if isinstance(cmd, C.MoveMover):
            return place_value(t, seat, cmd.to)
        if isinstance(cmd, C.MoveCard):
            return 8 + (4 if t.cards_at(seat, cmd.to, ("hero",)) else 0)
        if isinstance(cmd, C.Maneuver):
            return 6 if cmd.engage else 2
        if isinstance(cmd, C.Discard):
            if all(dead(t, seat, c) for c in cmd.cards):
                return 5 + len(cmd.cards)  # cards that cannot be played: make room for better ones
            return 3 if len(cmd.cards) == 1 else 0
        if isinstance(cmd, C.EndTurn):
            return 4
        return 1

    if len(legal) == 1:
        return legal[0]
    best = max(score(c) for c in legal)
    top = [c for c in legal if score(c) == best]
    return top[rng.randrange(len(top))]


def place_value(t: Table, seat: str, loc: str) -> float:
    """How useful the visible actions at ``loc`` are now: the Credits collected there pay
    for the cards played there."""
    avail = t.symbols_at(seat, loc)
    hidden = t.covered(seat, loc)
    vis = [s for i, s in enumerate(avail) if i not in hidden]
    hand = [c for c in t.d["hand"][seat] if c != "?"]
    credits, ambition = t.d["credits"][seat], t.d["ambition"][seat]
    credits += sum(int(s.split(":")[1]) for s in vis if s.startswith("credits:"))
    playable = sorted((c for c in hand if t.ctype(c) != "condition" and not dead(t, seat, c)
                       and places_for(t, seat, c)),
                      key=lambda c: -card_value(t, seat, c))

    def best(kind: str, money: int) -> str | None:
        for c in playable:
            if t.card(c).get("cost_kind", "credits") == kind and int(t.card(c).get("cost", 0)) <= money:
                return c
        return None

    v = 0.0
    for sym in vis:
        if sym.startswith("credits:"):
            n = int(sym.split(":")[1])
            have = t.d["credits"][seat]
            wanted = [int(t.card(c).get("cost", 0)) for c in playable
                      if t.card(c).get("cost_kind", "credits") == "credits" and int(t.card(c).get("cost", 0)) > have]
            v += 1.5 * n + (4 if wanted and min(wanted) <= have + n else 0) + (2 if have < 2 else 0)
        elif sym == "play":
            c = best("credits", credits)
            if c is not None:
                v += 4 + card_value(t, seat, c) / 10
                credits -= int(t.card(c).get("cost", 0))
                playable.remove(c)
            else:
                v += 0.3
        elif sym == "ambition":
            c = best("ambition", ambition)
            abil = any(a.get("when") == "ambition" and int(a.get("cost", 0)) <= ambition
                       for c2 in t.in_sector(seat) for a in t.card(c2).get("abilities", []))
            if c is not None:
                v += 4 + card_value(t, seat, c) / 10
                playable.remove(c)
            elif abil:
                v += 4
            else:
                v += 0.3
        elif sym == "vanquish":
            v += 9 if can_vanquish(t, seat) else 0.5
        elif sym == "activate":
            abil = any(a.get("when") == "activate" and int(a.get("cost", 0)) <= credits
                       for c in t.in_sector(seat) for a in t.card(c).get("abilities", []))
            v += 3 if abil else 0.3
        elif sym == "move":
            v += 2.5 if t.all_of(seat, ("ally",)) and t.all_of(seat, ("hero",)) else 0.3
        elif sym == "fate":
            v += 0 if t.forbidden(seat, "fate") else 2
        elif sym == "discard":
            v += 2 if any(dead(t, seat, c) for c in hand) else 0.3
        else:
            v += 0.3
    return v


def card_value(t: Table, seat: str, card: str) -> float:
    c = t.card(card)
    return {"bounty": 35, "contact": 30, "ally": 27, "item": 20, "effect": 20, "ally_vehicle": 18}.get(c["type"], 10)


def can_vanquish(t: Table, seat: str) -> bool:
    for h in t.all_of(seat, ("hero",)):
        loc = t.in_sector(seat)[h]["loc"]
        allies = t.cards_at(seat, loc, ("ally",))
        if allies and sum(t.strength(seat, a) for a in allies) >= t.strength(seat, h):
            return True
    return any(t.in_sector(seat)[h]["engaged"] for h in t.hero_vehicles(seat))


def dead(t: Table, seat: str, card: str) -> bool:
    """A card in hand that the Villain cannot use as things stand."""
    from arbiter.core.villainous.effects import feasible
    c = t.card(card)
    typ = c["type"]
    if typ == "condition":
        return len(t.d["hand"][seat]) >= t.hand_limit(seat)  # it blocks the draw
    if typ == "bounty":
        hand_contacts = [h for h in t.d["hand"][seat] if h != "?" and t.ctype(h) == "contact"]
        return not t.all_of(seat, ("contact",)) and not hand_contacts
    if c.get("cost_kind") == "ambition" and t.forbidden(seat, "play_ambition"):
        return True
    if typ == "effect":
        ctx = {"seat": seat, "actor": seat, "card": card, "loc": None}
        effects = [e for a in c.get("abilities", []) if a.get("when") == "play" for e in a["effects"]]
        return not feasible(t, effects, ctx)
    if typ == "item" and c.get("attach") and not t.all_of(seat, ("ally",)):
        return not any(h != "?" and t.ctype(h) == "ally" for h in t.d["hand"][seat])
    if typ == "ally_vehicle" and t.ally_vehicles(seat) and not t.hero_vehicles(seat):
        return True  # a second Vehicle with nothing to engage
    return False
