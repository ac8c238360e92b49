"""The card-effect language: each card ability is a list of effects, each a small dict
``{"do": VERB, ...}`` run by this interpreter. Verbs follow the rulebook's Card Actions
glossary (play, place, free, find, defeat, swap, choose, reveal, remove, look) plus gain,
lose, draw, discard, move, strength, target, engage. ``"may": true`` makes an effect
optional ("may" / "playable"); otherwise it is applied as far as possible.

A verb that needs a choice with more than one answer opens a ``ChoiceOpened`` frame; the
``choose`` command resumes it. Everything a choice may need is in the frame (plain data).
"""

from __future__ import annotations

from typing import Any, Callable

from arbiter.core.errors import require
from arbiter.events import villainous as ev
from arbiter.core.villainous.board import DEEP_SPACE, MOVER, Emitter, def_id

Item = dict[str, Any]
NONE = "none"


class Need:
    def __init__(self, options: list[str], prompt: str, chooser: str, secret: bool = False) -> None:
        self.options, self.prompt, self.chooser, self.secret = options, prompt, chooser, secret


def item(eff: dict[str, Any], ctx: dict[str, Any]) -> Item:
    return {"eff": eff, "ctx": ctx}


# -- the runner --------------------------------------------------------------------------


def run(t: Emitter, queue: list[Item]) -> None:
    """Apply queued effects in order until done or until one waits on a choice."""
    queue = list(queue) + t.pushed
    t.pushed = []
    while queue:
        if t.d["winners"]:
            return
        it = queue.pop(0)
        res = step(t, it["eff"], it["ctx"], None)
        if isinstance(res, Need):
            t.emit(ev.ChoiceOpened(seat=res.chooser, prompt=res.prompt, options=tuple(res.options),
                                   frame={"item": it, "queue": queue + t.pushed}, secret=res.secret))
            t.pushed = []
            return
        queue = res + t.pushed + queue
        t.pushed = []


def resume(t: Emitter, seat: str, choice: str) -> None:
    frame = t.d["pending"][-1]
    t.emit(ev.ChoiceMade(seat=seat, choice=choice))
    it = frame["frame"]["item"]
    res = step(t, it["eff"], it["ctx"], choice)
    # cannot fail for a listed option; a refusal keeps the choice waiting
    require(not isinstance(res, Need), "SV-HOUSE-CHOICE", f"{choice} is not a choice open now")
    run(t, res + frame["frame"]["queue"])


def step(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any], choice: str | None) -> list[Item] | Need:
    verb = eff["do"]
    fn = VERBS.get(verb)
    if fn is None:
        return []
    if choice is None and ("if" in eff or "for_each" in eff):
        eff = counted(t, eff, ctx)
        if eff is None:
            return []
    opts_fn = OPTIONS.get(verb)
    if opts_fn is not None and choice is None:
        opts = opts_fn(t, eff, ctx)
        if opts is not None:
            if not opts:
                return []
            if eff.get("may"):
                return Need(opts + [NONE], prompt(t, eff), chooser(eff, ctx), secret=_secret(verb, eff))
            if len(opts) == 1:
                choice = opts[0]
            else:
                return Need(opts, prompt(t, eff), chooser(eff, ctx), secret=_secret(verb, eff))
    if choice == NONE:
        return []
    return fn(t, eff, ctx, choice)


def _secret(verb: str, eff: dict[str, Any]) -> bool:
    return verb in ("discard", "_look_discard", "find", "swap") or (verb in ("choose", "play", "place", "reveal") and eff.get("from") in ("hand", "deck"))


def chooser(eff: dict[str, Any], ctx: dict[str, Any]) -> str:
    return ctx["seat"] if eff["do"] == "discard" else ctx["actor"]


def with_article(kind: str) -> str:
    """A card kind said with its article: ``ally_vehicle`` is "an ally vehicle"."""
    w = str(kind).replace("_", " ")
    return ("an " if w[:1] in "aeiou" else "a ") + w


def prompt(t: Emitter, eff: dict[str, Any]) -> str:
    verb = eff["do"]
    what = with_article(eff.get("target", "card"))
    kind = with_article(eff.get("type", "card"))
    texts = {
        "target": "choose a Hero to put a Target on",
        "defeat": f"choose {what} to defeat",
        "remove": f"choose {what} to remove",
        "move": f"choose {what} to move",
        "_move_to": f"choose where {_name(t, eff.get('card'))} moves",
        "strength": f"choose {with_article(eff.get('target', 'card'))} to get a Strength token",
        "discard": "choose a card to discard from your hand",
        "choose": f"choose {kind} from your {str(eff.get('from', 'discard')).replace('_', ' ')}",
        "play": f"choose {kind} to play",
        "place": f"choose {kind} to place",
        "_enter": f"choose where {_name(t, eff.get('card'))} goes",
        "engage": "choose an Ally Vehicle/Hero Vehicle pair to engage",
        "_look_discard": "you may discard one of the cards you looked at",
        "reveal": f"choose {kind} in your hand to reveal",
        "find": f"choose which {str(eff.get('type', 'card')).replace('_', ' ')} you find",
        "swap": f"choose the {str(eff.get('type', 'card')).replace('_', ' ')} to swap in",
    }
    return texts.get(verb, f"choose for {str(verb).strip('_').replace('_', ' ')}")


AMOUNTS = ("credits", "ambition", "n", "amount")


def counted(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any] | None:
    """An effect under ``"if"`` applies only while its condition holds; ``"for_each"``
    multiplies its amounts by a count (none counted: nothing happens). The condition is
    judged when the effect is reached, so an earlier effect of the card can meet it."""
    here = ctx.get("loc") or t.d["mover"].get(ctx["seat"])
    if not t.holds(ctx["seat"], eff.get("if"), here):
        return None
    if "for_each" in eff:
        n = t.count(ctx["seat"], eff["for_each"], here)
        if n <= 0:
            return None
        eff = {k: v for k, v in eff.items() if k != "for_each"}
        for k in AMOUNTS:
            if k in eff:
                eff[k] = int(eff[k]) * n
    return {k: v for k, v in eff.items() if k != "if"}


def feasible(t: Emitter, effects: list[dict[str, Any]], ctx: dict[str, Any]) -> bool:
    """A card you cannot follow cannot be played (Villain Cards, note): every effect that is
    not optional and needs a target must have one (an effect whose "if" fails is skipped)."""
    for eff in effects:
        if "if" in eff or "for_each" in eff:
            eff = counted(t, eff, ctx)
            if eff is None:
                continue
        fn = OPTIONS.get(eff["do"])
        if fn is None or eff.get("may"):
            continue
        opts = fn(t, eff, ctx)
        if opts is not None and not opts:
            return False
    return True


def does_something(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any]) -> bool:
    """Would this effect change anything now? (Fate: a card that "has any effect".)"""
    verb = eff["do"]
    seat = ctx["seat"]
    if verb in ("lose", "pay"):
        return any(int(eff.get(k, 0)) and t.d[k][seat] > 0 for k in ("credits", "ambition"))
    if verb == "gain":
        return any(int(eff.get(k, 0)) for k in ("credits", "ambition"))
    if verb == "draw":
        return bool(t.d["deck"][seat] or t.d["discard"][seat])
    fn = OPTIONS.get(verb)
    if fn is not None:
        opts = fn(t, eff, ctx)
        return opts is None or bool(opts)
    return True


# -- sector operations shared with the actions ------------------------------------------


def enter(t: Emitter, actor: str, sector: str, card: str, loc: str, *, on: str | None = None,
          how: str = "played", source: str = "hand", cost: int = 0, cost_kind: str = "",
          ctx_extra: dict[str, Any] | None = None) -> None:
    """A card enters a sector; if played (not placed) its on-play abilities are queued."""
    c = t.card(card)
    side = "upper" if c["_deck"] == "fate" else "lower"
    t.emit(ev.CardPlayed(seat=actor, sector=sector, card=card, loc=loc, side=side, on=on, how=how,
                         source=source, cost=cost, cost_kind=cost_kind))
    ctx = {"seat": sector, "actor": actor, "card": card, "loc": loc, **(ctx_extra or {})}
    if how == "played":
        for a in c.get("abilities", []):
            if a.get("when") == "play":
                t.pushed += [item(e, ctx) for e in a["effects"]]
    if c["type"] == "effect":
        t.pushed.append(item({"do": "_discard_self"}, ctx))
    if how != "played":
        return
    if c["_deck"] == "villain" and actor == sector == t.d["active"]:
        happened(t, sector, (PLAYED[c["type"]],), card=card, loc=loc)
    elif c["_deck"] == "fate" and actor != sector:
        happened(t, sector, (PLAYED_FATE[c["type"]],), card=card, loc=loc, window=False)


def leave(t: Emitter, sector: str, card: str, reason: str) -> None:
    """A card leaves a sector (Defeat, Remove, Vanquish): its attached cards go with it;
    Targets on a Hero are collected; a Rebel leaves the game for good."""
    info = t.in_sector(sector).get(card)
    if info is None:
        return
    for other, oi in sorted(t.in_sector(sector).items(), key=lambda kv: kv[1]["at"]):
        if oi.get("on") == card:
            leave(t, sector, other, "discard")
    c = t.card(card)
    objective = t.villain(sector)["objective"]["kind"]
    counts = reason in ("vanquish", "defeat")
    if c["type"] == "hero" and counts and info["targets"] and objective == "targets":
        t.emit(ev.TargetsCollected(seat=sector, hero=card, count=info["targets"]))
    if c["type"] == "hero" and counts and objective == "rebels" and "rebel" in c.get("keywords", []):
        t.emit(ev.CardRemovedFromGame(owner=sector, card=card, source="sector"))
        t.emit(ev.RebelRemoved(seat=sector, hero=card))
        return
    owner, pile = t.owner(card)
    t.emit(ev.CardDiscarded(owner=owner, card=card, pile=pile, source="sector"))


#: the happening a card played in its owner's sector is, by card type (Villain cards played
#: by the Villain; Fate cards played against them)
PLAYED = {"ally": "play_ally", "item": "play_item", "effect": "play_effect", "condition": "play_condition",
          "ally_vehicle": "play_vehicle", "contact": "play_contact", "bounty": "play_bounty"}
PLAYED_FATE = {"hero": "play_hero", "item": "fate_item", "effect": "fate_effect", "condition": "fate_condition",
               "hero_vehicle": "play_hero_vehicle"}


def hero_beaten(t: Emitter, seat: str, hero: str, base: int, *, by_card: bool = False, loc: str | None = None) -> None:
    """What follows a Hero vanquished or defeated in a villain's own sector. A Hero defeated
    by the Villain's card counts as vanquished unless the option card_defeat_is_vanquish says
    otherwise (house reading SV-HOUSE-DEFEAT-IS-VANQUISH of "Defeat", SV-DEFEAT). A Fate
    Condition it meets is discarded at once, on any turn; Bounty Progress and "whenever"
    abilities count it on the Villain's own turn only (SV-HOUSE-OWN-TURN)."""
    kinds: tuple[str, ...] = ("vanquish", "defeat")
    if by_card and not t.d["options"].get("card_defeat_is_vanquish", True):
        kinds = ("defeat",)
    if seat != t.d["active"]:
        t.discard_fate_conditions(seat, kinds)
        return
    happened(t, seat, kinds, card=hero, loc=loc, strength=base)


def happened(t: Emitter, seat: str, kinds: tuple[str, ...], *, card: str | None = None, loc: str | None = None,
             strength: int = 0, bounty: str | None = None, window: bool | str = True) -> None:
    """Something cards may answer happened in ``seat``'s sector: the Bounties' Progress,
    the Fate Conditions it discards, the cards in play that say "whenever ...", and a
    reaction window for the opponents' Conditions (on ``seat``'s own turn only)."""
    bounty_progress(t, seat, kinds, strength=strength, bounty=bounty, card=card)
    t.discard_fate_conditions(seat, kinds)
    whenever(t, seat, kinds, card, loc)
    if window:
        t.trigger(window if isinstance(window, str) else kinds[0], seat)


def matches(t: Emitter, spec: dict[str, Any], card: str | None, strength: int) -> bool:
    """The filters a Progress requirement, a Condition or a "whenever" may add to a
    happening: the card's type, name, keyword, or its printed Strength (``min``)."""
    if card is None:
        return not any(k in spec for k in ("type", "named", "keyword"))
    c = t.card(card)
    if spec.get("type") and c["type"] != spec["type"]:
        return False
    if spec.get("named") and def_id(card) != spec["named"]:
        return False
    if spec.get("keyword") and spec["keyword"] not in c.get("keywords", []):
        return False
    if "min" in spec and strength < int(spec["min"]):
        return False
    return True


def whenever(t: Emitter, seat: str, kinds: tuple[str, ...], card: str | None, loc: str | None) -> None:
    """Triggered abilities of cards in play: ``{"when": "whenever", "event": K}`` answers a
    happening of kind K in its sector (``"where": "here"``: at its own location; ``"others"``:
    not itself)."""
    for src, info in sorted(t.in_sector(seat).items(), key=lambda kv: kv[1]["at"]):
        for a in t.card(src).get("abilities", []):
            if a.get("when") != "whenever" or a.get("event") not in kinds:
                continue
            if a.get("others", True) and src == card:
                continue
            if a.get("where") == "here" and loc != info["loc"]:
                continue
            strength = int(t.card(card).get("strength") or 0) if card else 0
            if not matches(t, a, card, strength):
                continue
            ctx = {"seat": seat, "actor": seat, "card": src, "loc": info["loc"]}
            t.pushed += [item(e, ctx) for e in a["effects"]]


def turn_abilities(t: Emitter, seat: str, when: str) -> None:
    """At the start / end of ``seat``'s turn: every card in their sector that says so
    (their own cards and the Fate cards played against them)."""
    for src, info in sorted(t.in_sector(seat).items(), key=lambda kv: kv[1]["at"]):
        for a in t.card(src).get("abilities", []):
            if a.get("when") == when:
                ctx = {"seat": seat, "actor": seat, "card": src, "loc": info["loc"]}
                t.pushed += [item(e, ctx) for e in a["effects"]]


def bounty_progress(t: Emitter, seat: str, kinds: tuple[str, ...] | str, *, strength: int = 0,
                    bounty: str | None = None, card: str | None = None) -> None:
    """Bounties (Progress): a requirement met marks every Bounty in play that shares it;
    the last one completes the Bounty and the Contact's Reward follows at once."""
    if isinstance(kinds, str):
        kinds = (kinds,)
    for b in t.all_of(seat, ("bounty",)):
        if bounty is not None and b != bounty:
            continue
        info = t.in_sector(seat)[b]
        reqs = t.card(b).get("progress", [])
        # one token a Bounty; the most demanding requirement a happening meets is marked first
        order = sorted(range(len(reqs)), key=lambda i: -demand(reqs[i]))
        for i in order:
            r = reqs[i]
            if i in info["progress"]:
                continue
            if requirement_met(t, seat, r, kinds, card, strength):
                t.emit(ev.BountyProgressed(seat=seat, bounty=b, requirement=i))
                break
        complete_if_done(t, seat, b)


def demand(r: dict[str, Any]) -> int:
    return int(r.get("kind") == "vanquish_strong") * 10 + sum(1 for k in ("type", "named", "keyword", "min") if k in r)


def requirement_met(t: Emitter, seat: str, r: dict[str, Any], kinds: tuple[str, ...], card: str | None,
                    strength: int) -> bool:
    rk = r.get("kind")
    if rk == "have":
        return False  # judged on the state (progress_by_state), not on a happening
    if rk == "vanquish_strong":
        return "vanquish" in kinds and strength >= int(r.get("min", 4))
    if rk not in kinds:
        return False
    return matches(t, {k: v for k, v in r.items() if k != "kind"}, card, strength)


def complete_if_done(t: Emitter, seat: str, b: str) -> None:
    reqs = t.card(b).get("progress", [])
    if b not in t.in_sector(seat) or not reqs or len(t.in_sector(seat)[b]["progress"]) < len(reqs):
        return
    contact = t.in_sector(seat)[b]["on"] or ""
    t.emit(ev.BountyCompleted(seat=seat, bounty=b, contact=contact))
    if contact:
        ctx = {"seat": seat, "actor": seat, "card": contact, "loc": t.in_sector(seat)[contact]["loc"]}
        for a in t.card(contact).get("abilities", []):
            if a.get("when") == "reward":
                t.pushed += [item(e, ctx) for e in a["effects"]]
    happened(t, seat, ("complete_bounty",), card=b)


def progress_by_state(t: Emitter, seat: str) -> None:
    """Progress requirements that are a state ("have": have 3 Allies in play): met, on the
    Villain's turn, as soon as the state holds; one token a Bounty at a time."""
    if seat != t.d["active"] or t.d["winners"]:
        return
    for b in t.all_of(seat, ("bounty",)):
        reqs = t.card(b).get("progress", [])
        for i, r in enumerate(reqs):
            if r.get("kind") == "have" and i not in t.in_sector(seat)[b]["progress"] \
                    and t.holds(seat, r, t.in_sector(seat)[b]["loc"]):
                t.emit(ev.BountyProgressed(seat=seat, bounty=b, requirement=i))
                break
        complete_if_done(t, seat, b)


def places_for(t: Emitter, seat: str, card: str) -> list[str]:
    """Where a Villain card may be played in its own sector (Allies, Items, Vehicles...)."""
    c = t.card(card)
    typ = c["type"]
    if typ in ("ally", "contact"):
        locs = t.location_ids(seat)
        if typ == "ally" and t.allowed(seat, "ally_on_vehicle") and not t.forbidden(seat, "ally_on_vehicle"):
            locs = locs + t.ally_vehicles(seat)
        return locs
    if typ == "item":
        if c.get("attach"):
            return [f"on:{a}" for a in t.all_of(seat, ("ally",))]
        return t.location_ids(seat)
    if typ == "bounty":
        out = []
        for k in t.all_of(seat, ("contact",)):
            used = len([b for b, i in t.in_sector(seat).items() if i.get("on") == k and t.ctype(b) == "bounty"])
            if used < int(t.card(k).get("limit", 1)):
                out.append(f"on:{k}")
        return out
    if typ == "ally_vehicle":
        return [DEEP_SPACE]
    if typ == "effect":
        return [""]
    return []


# -- verbs -------------------------------------------------------------------------------


def _name(t: Emitter, card: str | None) -> str:
    return t.card(card)["name"] if card else ""


def v_gain(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any], choice: str | None) -> list[Item]:
    who = ctx.get("opp") if eff.get("who") == "opponent" else ctx["seat"]
    if not who:
        return []
    sign = -1 if eff["do"] == "lose" else 1
    why = _name(t, ctx.get("card"))
    if eff.get("credits"):
        n = int(eff["credits"])
        n = n if sign > 0 else min(n, t.d["credits"][who])
        if n:
            t.emit(ev.CreditsChanged(seat=who, amount=sign * n, why=why))
    if eff.get("ambition"):
        n = int(eff["ambition"])
        n = n if sign > 0 else min(n, t.d["ambition"][who])
        if n:
            t.emit(ev.AmbitionChanged(seat=who, amount=sign * n, why=why))
    return []


def v_draw(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any], choice: str | None) -> list[Item]:
    t.draw(ctx["seat"], int(eff.get("n", 1)))
    return []


def o_discard(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any]) -> list[str]:
    return list(t.d["hand"][ctx["seat"]])


def v_discard(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any], choice: str | None) -> list[Item]:
    assert choice is not None
    t.emit(ev.CardDiscarded(owner=ctx["seat"], card=choice, pile="villain", source="hand"))
    n = int(eff.get("n", 1))
    return [item({**eff, "n": n - 1}, ctx)] if n > 1 else []


def _targets_left(t: Emitter, seat: str) -> int:
    on = sum(i["targets"] for i in t.in_sector(seat).values())
    return int(t.content.get("target_markers", 10)) - on - t.d["targets"].get(seat, 0)


def o_target(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any]) -> list[str]:
    seat = ctx["seat"]
    if _targets_left(t, seat) <= 0:
        return []
    heroes = t.all_of(seat, ("hero",))
    if eff.get("where") == "here":
        heroes = [h for h in heroes if t.in_sector(seat)[h]["loc"] == ctx.get("loc")]
    return [h for h in heroes if t.in_sector(seat)[h]["targets"] < int(t.content.get("targets_per_hero", 1))]


def v_target(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any], choice: str | None) -> list[Item]:
    assert choice is not None
    t.emit(ev.TargetPlaced(sector=ctx["seat"], hero=choice))
    return []


TYPES = {"hero": ("hero",), "ally": ("ally",), "hero_vehicle": ("hero_vehicle",),
         "ally_vehicle": ("ally_vehicle",), "item": ("item",), "vehicle": ("hero_vehicle", "ally_vehicle"),
         "condition": ("condition",)}


def o_defeat(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any]) -> list[str]:
    seat = ctx["seat"]
    out = []
    for c in t.all_of(seat, TYPES.get(eff.get("target", "hero"), ("hero",))):
        info = t.in_sector(seat)[c]
        if "max_strength" in eff and t.strength(seat, c) > int(eff["max_strength"]):
            continue
        where = eff.get("where", "any")
        if where == "here" and info["loc"] != ctx.get("loc"):
            continue
        if where == "with_ally" and not t.cards_at(seat, info["loc"], ("ally",)):
            continue
        # Discarding and Vanquishing Vehicles: "If your mover is on an Ally Vehicle, you may not
        # discard that Vehicle, nor vanquish or discard the Hero Vehicle engaged against it."
        mover = t.d["mover"].get(seat)
        if mover and (c == mover or (t.ctype(c) == "hero_vehicle" and info.get("engaged") == mover)):
            continue
        out.append(c)
    return out


def v_defeat(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any], choice: str | None) -> list[Item]:
    assert choice is not None
    seat = ctx["seat"]
    base = int(t.card(choice).get("strength") or 0)
    is_hero = t.ctype(choice) == "hero"
    loc = t.in_sector(seat)[choice]["loc"]
    if eff["do"] == "defeat":  # Card Actions: to "remove" a card is only to discard it, not to defeat it
        t.emit(ev.Defeated(seat=seat, card=choice, by=ctx.get("card") or ""))
    leave(t, seat, choice, "defeat" if eff["do"] == "defeat" else "remove")
    if is_hero and eff["do"] == "defeat" and ctx["actor"] == seat:
        hero_beaten(t, seat, choice, base, by_card=True, loc=loc)
    return []


def o_move(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any]) -> list[str]:
    seat = ctx["seat"]
    typ = eff.get("target", "hero")
    out = []
    for c in t.all_of(seat, TYPES.get(typ, (typ,))):
        info = t.in_sector(seat)[c]
        if info.get("on") or info["loc"] in (DEEP_SPACE, MOVER):
            continue
        if eff.get("to") == "here" and info["loc"] == ctx.get("loc"):
            continue
        out.append(c)
    return out


def v_move(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any], choice: str | None) -> list[Item]:
    assert choice is not None
    if eff.get("to") == "here" and ctx.get("loc"):
        t.emit(ev.CardMoved(sector=ctx["seat"], card=choice, to=ctx["loc"]))
        return []
    return [item({"do": "_move_to", "card": choice}, ctx)]


def o_move_to(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any]) -> list[str]:
    here = t.in_sector(ctx["seat"])[eff["card"]]["loc"] if eff["card"] in t.in_sector(ctx["seat"]) else None
    return [l for l in t.location_ids(ctx["seat"]) if l != here]


def v_move_to(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any], choice: str | None) -> list[Item]:
    assert choice is not None
    if eff["card"] in t.in_sector(ctx["seat"]):
        t.emit(ev.CardMoved(sector=ctx["seat"], card=eff["card"], to=choice))
    return []


def o_strength(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any]) -> list[str] | None:
    if eff.get("target") == "self":
        return None
    return t.all_of(ctx["seat"], TYPES.get(eff.get("target", "ally"), ("ally",)))


def v_strength(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any], choice: str | None) -> list[Item]:
    card = ctx.get("card") if eff.get("target") == "self" else choice
    if card and card in t.in_sector(ctx["seat"]):
        t.emit(ev.StrengthTokenPlaced(sector=ctx["seat"], card=card, amount=int(eff.get("amount", 1))))
    return []


def v_free_action(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any], choice: str | None) -> list[Item]:
    if ctx["seat"] == t.d["active"] == ctx["actor"]:
        t.emit(ev.BonusActionGranted(seat=ctx["seat"], symbol=eff["symbol"]))
    return []


def _pile(t: Emitter, seat: str, where: str) -> list[str]:
    return list({"discard": t.d["discard"], "hand": t.d["hand"], "deck": t.d["deck"]}[where][seat])


def _fits(t: Emitter, card: str, eff: dict[str, Any]) -> bool:
    c = t.card(card)
    if eff.get("type") and c["type"] != eff["type"]:
        return False
    if eff.get("name") and def_id(card) != eff["name"]:
        return False
    if "max_cost" in eff and int(c.get("cost", 0)) > int(eff["max_cost"]):
        return False
    return True


def o_choose(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any]) -> list[str]:
    seat = ctx["seat"]
    out = [c for c in _pile(t, seat, eff.get("from", "discard")) if _fits(t, c, eff)]
    if eff["do"] in ("play", "place") or eff.get("then") in ("play", "place"):
        out = [c for c in out if places_for(t, seat, c)]
        if eff["do"] == "play" and not eff.get("free"):
            out = [c for c in out if _affordable(t, seat, c)]
    return sorted(set(out), key=out.index)


def _affordable(t: Emitter, seat: str, card: str) -> bool:
    cost, kind = t.cost_of(seat, card)
    return t.d[kind][seat] >= cost


def v_choose(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any], choice: str | None) -> list[Item]:
    assert choice is not None
    then = eff.get("then", "hand") if eff["do"] == "choose" else eff["do"]
    src = eff.get("from", "discard")
    if then == "hand":
        t.emit(ev.CardToHand(seat=ctx["seat"], card=choice, source=src))
        return []
    return [item({"do": "_enter", "card": choice, "how": "placed" if then == "place" else "played",
                  "free": bool(eff.get("free")) or then == "place", "source": src}, ctx)]


def o_enter(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any]) -> list[str]:
    return places_for(t, ctx["seat"], eff["card"])


def v_enter(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any], choice: str | None) -> list[Item]:
    assert choice is not None
    seat, card = ctx["seat"], eff["card"]
    c = t.card(card)
    cost, kind = t.cost_of(seat, card)
    if not eff.get("free"):
        if t.d[kind][seat] < cost:
            return []
        if cost:
            ch = ev.CreditsChanged if kind == "credits" else ev.AmbitionChanged
            t.emit(ch(seat=seat, amount=-cost, why=f"pays for {c['name']}"))
    on = choice[3:] if choice.startswith("on:") else None
    loc = t.in_sector(seat)[on]["loc"] if on else choice
    enter(t, seat, seat, card, loc, on=on, how=eff.get("how", "played"), source=eff.get("source", "hand"),
          cost=0 if eff.get("free") else cost, cost_kind=kind)
    return []


def _find_places(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any]) -> tuple[str, list[str]]:
    """Find: the first place holding a fitting card (your sector, then your hand, then the
    discard pile, then the deck) and the fitting cards there."""
    seat = ctx["seat"]
    here = [c for c in sorted(t.in_sector(seat), key=lambda c: t.in_sector(seat)[c]["at"])
            if _fits(t, c, eff) and c != ctx.get("card")]
    if here:
        return "sector", here
    for w in ("hand", "discard", "deck"):
        hit = [c for c in _pile(t, seat, w) if _fits(t, c, eff)]
        if hit:
            # copies of one card in a pile are alike: offer one of each
            seen: dict[str, str] = {}
            for c in hit:
                seen.setdefault(def_id(c), c)
            return w, list(seen.values())
    return "", []


def o_find(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any]) -> list[str] | None:
    where, cards = _find_places(t, eff, ctx)
    return cards if len(cards) > 1 else None


def v_find(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any], choice: str | None) -> list[Item]:
    """Find: look in the sector, then the hand, then the discard pile, then the deck (and
    reshuffle the deck); when several cards fit there, the player chooses which."""
    seat = ctx["seat"]
    where, cards = _find_places(t, eff, ctx)
    if not cards:
        return []
    found = choice if choice in cards else cards[0]
    if where == "deck":
        t.emit(ev.CardsRevealed(seat=seat, cards=(found,), source="villain-deck"))
    then = eff.get("then", "hand")
    if then == "hand":
        t.emit(ev.CardToHand(seat=seat, card=found, source=where))
        out: list[Item] = []
    else:
        out = [item({"do": "_enter", "card": found, "how": "placed" if then == "place" else "played",
                     "free": bool(eff.get("free")) or then == "place", "source": where}, ctx)]
    if where == "deck":
        t.pushed.append(item({"do": "_reshuffle"}, ctx))
    return out


def v_reshuffle(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any], choice: str | None) -> list[Item]:
    """Find: "look for it in the deck, then reshuffle the deck" (Card Actions) - the deck
    alone; the discard pile is shuffled in only after a Reveal."""
    t.reshuffle(ctx["seat"], "villain", with_deck=True, with_discard=False)
    return []


def o_reveal(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any]) -> list[str] | None:
    """Reveal from the hand: which fitting card to show (from a deck there is no choice)."""
    if eff.get("from") != "hand":
        return None
    return [c for c in dict.fromkeys(t.d["hand"][ctx["seat"]]) if _fits(t, c, eff)]


def v_reveal(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any], choice: str | None) -> list[Item]:
    """Reveal: a card from the hand is shown to everyone and goes back to the hand; from a
    deck, turn cards over one by one until the one wanted; the others go to the discard
    pile, then discard pile and deck are shuffled together."""
    seat = ctx["seat"]
    if eff.get("from") == "hand":
        if choice is not None and choice in t.d["hand"][seat]:
            t.emit(ev.CardsRevealed(seat=seat, cards=(choice,), source="hand"))
        return []
    if not t.d["deck"][seat]:
        t.reshuffle(seat, "villain")
    shown: list[str] = []
    hit = None
    for c in list(t.d["deck"][seat]):
        shown.append(c)
        if _fits(t, c, eff):
            hit = c
            break
    if not shown:
        return []
    t.emit(ev.CardsRevealed(seat=seat, cards=tuple(shown), source="villain-deck"))
    for c in shown:
        if c != hit:
            t.emit(ev.CardDiscarded(owner=seat, card=c, pile="villain", source="revealed"))
    out: list[Item] = []
    if hit is not None:
        then = eff.get("then", "hand")
        if then == "hand":
            t.emit(ev.CardToHand(seat=seat, card=hit, source="deck"))
        else:
            out.append(item({"do": "_enter", "card": hit, "how": "placed" if then == "place" else "played",
                             "free": bool(eff.get("free")) or then == "place", "source": "deck"}, ctx))
    t.reshuffle(seat, "villain", with_deck=True)
    return out


def v_look(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any], choice: str | None) -> list[Item]:
    """Look: secretly look at the top cards of a deck (an empty deck is reshuffled first)."""
    seat = ctx["seat"]
    kind = eff.get("deck", "villain")
    key = "deck" if kind == "villain" else "fate_deck"
    if not t.d[key][seat]:
        t.reshuffle(seat, kind)
    cards = tuple(t.d[key][seat][: int(eff.get("n", 1))])
    if not cards:
        return []
    t.emit(ev.CardsLooked(seat=ctx["actor"], cards=cards, deck=kind))
    if eff.get("discard_one"):
        return [item({"do": "_look_discard", "cards": list(cards), "deck": kind, "may": True}, ctx)]
    return []


def o_look_discard(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any]) -> list[str]:
    return list(eff["cards"])


def v_look_discard(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any], choice: str | None) -> list[Item]:
    assert choice is not None
    t.emit(ev.CardDiscarded(owner=ctx["seat"], card=choice, pile=eff["deck"], source="deck"))
    return []


def _swap_places(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any]) -> tuple[str, list[str]]:
    for w in ("hand", "discard", "deck"):
        hit = [c for c in _pile(t, ctx["seat"], w) if _fits(t, c, eff)]
        if hit:
            seen: dict[str, str] = {}
            for c in hit:
                seen.setdefault(def_id(c), c)
            return w, list(seen.values())
    return "", []


def o_swap(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any]) -> list[str] | None:
    me = ctx.get("card")
    if not me or me not in t.in_sector(ctx["seat"]):
        return None
    cards = _swap_places(t, eff, ctx)[1]
    return cards if len(cards) > 1 else None


def v_swap(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any], choice: str | None) -> list[Item]:
    """Swap: find the named card and put it where this card stands; this card goes to the
    hand or the discard pile as it says."""
    seat, me = ctx["seat"], ctx.get("card")
    if not me or me not in t.in_sector(seat):
        return []
    where, cards = _swap_places(t, eff, ctx)
    if not cards:
        return []
    found = choice if choice in cards else cards[0]
    loc = t.in_sector(seat)[me]["loc"]
    if eff.get("original", "discard") == "hand":
        t.emit(ev.CardToHand(seat=seat, card=me, source="sector"))
    else:
        leave(t, seat, me, "discard")
    enter(t, seat, seat, found, loc, how=eff.get("how", "placed"), source=where)
    if where == "deck":  # located as a Find: "then reshuffle the deck" (Card Actions)
        t.reshuffle(seat, "villain", with_deck=True, with_discard=False)
    return []


def o_engage(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any]) -> list[str]:
    seat = ctx["seat"]
    avs = [a for a in t.ally_vehicles(seat) if not t.in_sector(seat)[a]["engaged"]]
    hvs = [h for h in t.hero_vehicles(seat) if not t.in_sector(seat)[h]["engaged"]]
    return [f"{a}/{h}" for a in avs for h in hvs]


def v_engage(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any], choice: str | None) -> list[Item]:
    assert choice is not None
    a, h = choice.split("/")
    t.emit(ev.Engaged(sector=ctx["seat"], ally_vehicle=a, hero_vehicle=h))
    return []


def v_discard_self(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any], choice: str | None) -> list[Item]:
    card = ctx.get("card")
    if card and card in t.in_sector(ctx["seat"]):
        owner, pile = t.owner(card)
        t.emit(ev.CardDiscarded(owner=owner, card=card, pile=pile, source="sector"))
    return []


def o_pay(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any]) -> list[str] | None:
    seat = ctx["seat"]
    ok = t.d["credits"][seat] >= int(eff.get("credits", 0)) and t.d["ambition"][seat] >= int(eff.get("ambition", 0))
    return None if ok else []


def v_pay(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any], choice: str | None) -> list[Item]:
    """Pay: a cost inside an ability (a card that cannot pay it cannot be played)."""
    return v_gain(t, {**eff, "do": "lose"}, ctx, choice)


def v_vanquish(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any], choice: str | None) -> list[Item]:
    """Vanquish (free): a Vanquish action without using a symbol."""
    return v_free_action(t, {"symbol": "vanquish"}, ctx, choice)


def v_fate_self(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any], choice: str | None) -> list[Item]:
    """Fate against yourself: reveal your own top two Fate cards; you play one of them in
    your own sector as if an opponent had (Fate)."""
    seat = ctx["seat"]
    if seat != t.d["active"] or t.d["fate"] is not None:
        return []
    reveal_fate(t, seat, seat)
    return []


def v_draw_and_pass(t: Emitter, eff: dict[str, Any], ctx: dict[str, Any], choice: str | None) -> list[Item]:
    draw_and_pass(t, ctx["seat"])
    return []


# -- turns and Fate reveals (shared by the actions and the card effects) -------------------


def reveal_fate(t: Emitter, seat: str, opp: str) -> None:
    """Reveal the first two Fate cards; an exhausted Fate deck is reshuffled from its discard."""
    need = 2
    while need:
        deck = t.d["fate_deck"][opp]
        if not deck and not t.reshuffle(opp, "fate"):
            break
        take = t.d["fate_deck"][opp][:need]
        t.emit(ev.FateRevealed(by=seat, target=opp, cards=tuple(take)))
        need -= len(take)


def draw_and_pass(t: Emitter, seat: str) -> None:
    """On Your Turn, 4 (after any "at the end of your turn" abilities): draw, then the
    next player's turn begins."""
    limit = t.hand_limit(seat)
    short = limit - len(t.d["hand"][seat])
    if short > 0:
        t.draw(seat, short)
    t.emit(ev.TurnEnded(seat=seat))
    begin_next_turn(t, seat)


def begin_next_turn(t: Emitter, seat: str) -> None:
    order = t.d["order"]
    i = order.index(seat)
    nxt = order[(i + 1) % len(order)]
    rnd = t.d["round"] + (1 if i + 1 == len(order) else 0)
    limit = int(t.d["options"].get("round_limit", 0))
    if limit and rnd > limit:
        round_limit_reached(t)
        return
    t.emit(ev.TurnBegan(seat=nxt, round=rnd))
    t.emit(ev.AmbitionChanged(seat=nxt, amount=1, why="start of turn"))
    turn_abilities(t, nxt, "turn_start")


def round_limit_reached(t: Emitter) -> None:
    """House: after the round limit the Villain nearest to their Objective wins."""
    best: list[str] = []
    top = -1.0
    for s in t.d["order"]:
        obj = t.villain(s)["objective"]
        frac = progress_of(t, s) / int(obj["count"])
        if frac > top:
            best, top = [s], frac
        elif frac == top:
            best.append(s)
    t.emit(ev.GameWon(winners=tuple(best), reason=f"round limit reached; nearest to their Objective ({top:.0%})"))


def progress_of(t: Emitter, seat: str) -> int:
    kind = t.villain(seat)["objective"]["kind"]
    return {"targets": t.d["targets"][seat], "rebels": t.d["rebels"][seat],
            "bounties": len(t.d["bounties"][seat])}.get(kind, 0)



VERBS: dict[str, Callable[..., Any]] = {
    "pay": v_pay, "vanquish": v_vanquish, "fate_self": v_fate_self,
    "gain": v_gain, "lose": v_gain, "draw": v_draw, "discard": v_discard, "target": v_target,
    "defeat": v_defeat, "remove": v_defeat, "move": v_move, "_move_to": v_move_to,
    "strength": v_strength, "free_action": v_free_action, "choose": v_choose, "play": v_choose,
    "place": v_choose, "_enter": v_enter, "find": v_find, "reveal": v_reveal, "look": v_look,
    "_look_discard": v_look_discard, "swap": v_swap, "engage": v_engage,
    "_discard_self": v_discard_self, "_reshuffle": v_reshuffle, "_draw_and_pass": v_draw_and_pass,
}
OPTIONS: dict[str, Callable[..., Any]] = {
    "pay": o_pay,
    "discard": o_discard, "target": o_target, "defeat": o_defeat, "remove": o_defeat,
    "move": o_move, "_move_to": o_move_to, "strength": o_strength, "choose": o_choose,
    "play": o_choose, "place": o_choose, "_enter": o_enter, "engage": o_engage,
    "_look_discard": o_look_discard, "reveal": o_reveal, "find": o_find, "swap": o_swap,
}
