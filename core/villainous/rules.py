"""The rules of Villainous: one function a rule, each citing the rulebook section.

``decide`` runs a command on a scratch :class:`Emitter` and returns the events it emitted.
"""

from __future__ import annotations

from typing import Any

from arbiter.core.dice import Rng
from arbiter.core.errors import RuleViolation, require
from arbiter.events import villainous as ev
from arbiter.core.villainous import commands as C
from arbiter.core.villainous.effects import (NONE, does_something, enter, feasible, happened, hero_beaten, item, leave,
                                            progress_by_state, progress_of, resume, reveal_fate, run,
                                            turn_abilities)
from arbiter.core.villainous.board import DEEP_SPACE, MOVER, Emitter, def_id
from arbiter.projections.villainous import VState


# -- whose decision ---------------------------------------------------------------------


def decide(state: VState, seat: str, cmd: Any, rng: Rng) -> list[Any]:
    t = Emitter(state, rng)
    d = t.d
    if d["pending"]:
        answer_choice(t, seat, cmd)
    elif d["fate"] is not None:
        require(isinstance(cmd, C.FatePlay), "SV-FATE-PLAY", "play one of the two revealed Fate cards first (fate-play CARD ...)")
        play_fate_card(t, seat, cmd)
    elif d["window"]:
        react_with_condition(t, seat, cmd)
    else:
        HANDLERS.get(type(cmd), not_now)(t, seat, cmd)
    run(t, [])
    progress_by_state(t, t.d["active"])
    run(t, [])
    check_objectives(t)
    return t.events


def not_now(t: Emitter, seat: str, cmd: Any) -> None:
    require(not isinstance(cmd, C.Choose), "SV-HOUSE-CHOICE", "there is no choice to make now")
    require(not isinstance(cmd, C.FatePlay), "SV-FATE-PLAY", "no Fate cards have been revealed; use a Fate action first")
    require(not isinstance(cmd, (C.Pass, C.PlayCondition)), "SV-CONDITION-TIMING", "Conditions are played only during an opponent's turn, when their condition is met")
    raise RuleViolation("SV-ACTION-VISIBLE", "that is not something you can do now")


def in_act_phase(t: Emitter, seat: str) -> None:
    """On Your Turn, 2: the mover must move before any action."""
    require(t.d["phase"] != "move", "SV-MOVE-FIRST", "move your mover to another location before performing actions")


# -- choices and reactions ---------------------------------------------------------------


def answer_choice(t: Emitter, seat: str, cmd: Any) -> None:
    """A card's ability waits on this choice."""
    p = t.d["pending"][-1]
    require(seat == p["seat"], "SV-HOUSE-CHOICE", f"{p['seat']} must choose first")
    if isinstance(cmd, C.Pass):
        require(NONE in p["options"], "SV-HOUSE-CHOICE", "this effect is not optional: choose one of the options")
        resume(t, seat, NONE)
        return
    require(isinstance(cmd, C.Choose), "SV-HOUSE-CHOICE", f"answer the open choice first: {p['prompt']}")
    require(cmd.option in p["options"], "SV-HOUSE-CHOICE", f"{cmd.option} is not one of the options ({', '.join(p['options'])})")
    resume(t, seat, cmd.option)


def react_with_condition(t: Emitter, seat: str, cmd: Any) -> None:
    """Conditions (Villain cards): played only during an opponent's turn, when met."""
    w = t.d["window"]
    require(seat == w["queue"][0], "SV-CONDITION-TIMING", f"{w['queue'][0]} may play a Condition or pass first")
    if isinstance(cmd, C.Hunt):
        require(t.d["options"].get("hunt_turns", "own") == "any", "SV-HOUSE-HUNT-TURNS",
                "a Hunt is paid during your own turn (option hunt_turns=any allows it on an "
                "opponent's turn too)")
        hunt(t, seat, cmd)
        return
    if isinstance(cmd, C.Pass):
        t.emit(ev.WindowPassed(seat=seat))
        return
    require(isinstance(cmd, C.PlayCondition), "SV-CONDITION-TIMING", "play a Condition card or pass")
    card = cmd.card
    require(card in t.d["hand"][seat], "SV-NOT-IN-HAND", f"{said(t, card)} is not in your hand")
    require(t.ctype(card) == "condition", "SV-CONDITION-TIMING", f"{t.card(card)['name']} is not a Condition card")
    require(card in t.conditions_for(seat, w["trigger"]), "SV-CONDITION-MET", f"the condition of {t.card(card)['name']} is not met now")
    c = t.card(card)
    cost, kind = t.cost_of(seat, card)
    require(t.d[kind][seat] >= cost, "SV-COST", f"{c['name']} costs {cost} {kind}; you have {t.d[kind][seat]}")
    if cost:
        ch = ev.CreditsChanged if kind == "credits" else ev.AmbitionChanged
        t.emit(ch(seat=seat, amount=-cost, why=f"pays for {c['name']}"))
    t.emit(ev.ConditionPlayed(seat=seat, card=card, trigger=w["trigger"]))
    ctx = {"seat": seat, "actor": seat, "card": card, "loc": None, "opp": w["by"]}
    for a in c.get("abilities", []):
        if a.get("when") == "condition":
            t.pushed += [item(e, ctx) for e in a["effects"]]


# -- 2. Move your mover -----------------------------------------------------------------


def move_mover(t: Emitter, seat: str, cmd: C.MoveMover) -> None:
    """On Your Turn, 2: move the mover to another location of your sector; moving onto an
    Ally Vehicle triggers its ability before any action (Ally Vehicles)."""
    require(t.d["phase"] == "move", "SV-MOVER-ONCE", "your mover has already moved this turn; use a Move action to move cards (move CARD to LOCATION)")
    places = t.mover_places(seat)
    require(cmd.to in places, "SV-MOVER-PLACE", f"{cmd.to} is not a location of your sector (you may go to: {', '.join(places)})")
    require(cmd.to != t.d["mover"][seat], "SV-MOVER-DIFFERENT", "your mover may not stay in the same place")
    t.emit(ev.MoverMoved(seat=seat, to=cmd.to))
    if cmd.to in t.in_sector(seat):
        ctx = {"seat": seat, "actor": seat, "card": cmd.to, "loc": cmd.to}
        for a in t.card(cmd.to).get("abilities", []):
            if a.get("when") == "move_in":
                t.pushed += [item(e, ctx) for e in a["effects"]]


# -- 3. Actions ---------------------------------------------------------------------------


def collect_credits(t: Emitter, seat: str, cmd: C.Collect) -> None:
    """Collect Credits: take as many Credits as the symbol shows."""
    in_act_phase(t, seat)
    t.check_hook(seat, "collect", "collecting Credits")
    sym = t.use_action(seat, "credits")
    n = max(0, int(sym.split(":")[1]) + t.collect_bonus(seat))
    if n:
        t.emit(ev.CreditsChanged(seat=seat, amount=n, why="Collect Credits"))
    happened(t, seat, ("collect",))


def pay(t: Emitter, seat: str, card: str) -> tuple[int, str]:
    """Pay a card's cost; without enough tokens the card cannot be played."""
    c = t.card(card)
    cost, kind = t.cost_of(seat, card)
    have = t.d[kind][seat]
    word = "Credits" if kind == "credits" else "Ambition"
    require(have >= cost, "SV-COST", f"{c['name']} costs {cost} {word}; you have {have}")
    if cost:
        ch = ev.CreditsChanged if kind == "credits" else ev.AmbitionChanged
        t.emit(ch(seat=seat, amount=-cost, why=f"pays for {c['name']}"))
    return cost, kind


def said(t: Emitter, card: str) -> str:
    """A card as a refusal names it: its name, as printed (the id when the content has none)."""
    found = t.cards.get(card) or t.cards.get(def_id(card))  # a card (cb-embo) or a copy of it (cb-embo-1)
    return found["name"] if found else card


def play_card(t: Emitter, seat: str, cmd: C.Play) -> None:
    """Play a Credits Card / Play an Ambition Card: one card per symbol, paying its cost,
    to a place its type allows (Allies, Items, Vehicles, Bounties and Contacts)."""
    in_act_phase(t, seat)
    card = cmd.card
    require(card in t.d["hand"][seat], "SV-NOT-IN-HAND", f"you have no {said(t, card)} in your hand")
    c = t.card(card)
    typ = c["type"]
    require(typ != "condition", "SV-CONDITION-TIMING", f"{c['name']} is a Condition: it is played only during an opponent's turn, never with a Play action")
    loc, on = where_it_goes(t, seat, card, cmd)
    ambition = c.get("cost_kind") == "ambition"
    if ambition:
        t.check_hook(seat, "play_ambition", "playing Ambition cards")
    else:
        t.check_hook(seat, "play_credits", "playing Credits cards")
    if typ == "ally":
        t.check_hook(seat, "play_ally", "playing Allies")
    ctx = {"seat": seat, "actor": seat, "card": card, "loc": loc}
    effects = [e for a in c.get("abilities", []) if a.get("when") == "play" for e in a["effects"]]
    t.use_action(seat, "ambition" if ambition else "play")
    cost, kind = pay(t, seat, card)
    require(feasible(t, effects, ctx), "SV-CANNOT-FOLLOW", f"{c['name']} cannot be played: you cannot follow its instructions now")
    enter(t, seat, seat, card, loc, on=on, cost=cost, cost_kind=kind)
    if typ == "ally_vehicle" and cmd.engage:
        t.emit(ev.Engaged(sector=seat, ally_vehicle=card, hero_vehicle=cmd.engage))


def where_it_goes(t: Emitter, seat: str, card: str, cmd: C.Play) -> tuple[str, str | None]:
    """Where a Villain card may be played (Allies; Items; Vehicles; Bounties; Contacts)."""
    c = t.card(card)
    typ = c["type"]
    locs = t.location_ids(seat)
    if typ in ("ally", "contact"):
        require(not (cmd.on or cmd.engage), "SV-PLACE", f"{c['name']} is played at a location: play CARD at LOCATION")
        require(cmd.at is not None, "SV-PLACE", f"say where {c['name']} goes: at one of {', '.join(locs)}")
        if cmd.at in t.ally_vehicles(seat) or cmd.at == DEEP_SPACE:
            if typ == "ally":
                hook_src = t.allowed(seat, "ally_on_vehicle")
                if hook_src and cmd.at != DEEP_SPACE:
                    t.check_hook(seat, "ally_on_vehicle", "playing an Ally on a Vehicle")
                    return cmd.at, None
            raise RuleViolation("SV-ALLY-NOT-ON-VEHICLE", "you may not play an Ally on a Vehicle (only your mover can be there)")
        require(cmd.at in locs, "SV-PLACE", f"{cmd.at} is not a location of your sector")
        return cmd.at, None
    if typ == "item":
        if c.get("attach"):
            allies = t.all_of(seat, ("ally",))
            require(bool(allies), "SV-ITEM-ATTACH", f"{c['name']} must be attached to an Ally, and you have no Ally in play")
            require(cmd.on in allies, "SV-ITEM-ATTACH", f"{c['name']} must be attached to one of your Allies: play CARD on ALLY")
            return t.in_sector(seat)[cmd.on]["loc"], cmd.on
        require(not cmd.on, "SV-ITEM-ATTACH", f"{c['name']} is not attached: play it at a location")
        require(cmd.at in locs, "SV-PLACE", f"say at which location of your sector {c['name']} goes")
        return cmd.at, None
    if typ == "bounty":
        contacts = t.all_of(seat, ("contact",))
        require(bool(contacts), "SV-BOUNTY-CONTACT", "a Bounty is played only attached to a Contact, and you have none in play")
        require(cmd.on in contacts, "SV-BOUNTY-CONTACT", "play the Bounty on one of your Contacts: play BOUNTY on CONTACT")
        used = [b for b, i in t.in_sector(seat).items() if i.get("on") == cmd.on and t.ctype(b) == "bounty"]
        limit = int(t.card(cmd.on).get("limit", 1))
        require(len(used) < limit, "SV-CONTACT-LIMIT", f"{t.card(cmd.on)['name']} already holds {limit} {'Bounty' if limit == 1 else 'Bounties'}, its limit")
        return t.in_sector(seat)[cmd.on]["loc"], cmd.on
    if typ == "ally_vehicle":
        require(not (cmd.at not in (None, DEEP_SPACE) or cmd.on), "SV-VEHICLE-DEEP-SPACE", "Vehicles are played only in Deep Space")
        if cmd.engage is not None:
            hvs = [h for h in t.hero_vehicles(seat) if not t.in_sector(seat)[h]["engaged"]]
            require(cmd.engage in hvs, "SV-ENGAGE", f"{said(t, cmd.engage)} is not an unengaged Hero Vehicle in your Deep Space")
        return DEEP_SPACE, None
    if typ == "effect":
        require(not (cmd.at or cmd.on or cmd.engage), "SV-PLACE", "an Effect is not placed anywhere: just play it")
        return "", None
    raise RuleViolation("SV-PLACE", f"{c['name']} cannot be played from your hand")


def activate_ability(t: Emitter, seat: str, cmd: C.Activate) -> None:
    """Activate an Ability / Activate an Ambition Card: pay the activation cost (Credits or
    Ambition), then use the card's ability; once per action symbol."""
    in_act_phase(t, seat)
    card = cmd.card
    require(not (card not in t.in_sector(seat) or t.in_sector(seat)[card]["side"] != "lower"), "SV-ACTIVATE", f"{said(t, card)} is not one of your cards in play")
    when = "ambition" if cmd.ambition else "activate"
    abil = [a for a in t.card(card).get("abilities", []) if a.get("when") == when]
    if not abil:
        other = "activate-ambition" if not cmd.ambition else "activate"
        has_other = any(a.get("when") == ("ambition" if not cmd.ambition else "activate") for a in t.card(card).get("abilities", []))
        raise RuleViolation("SV-ACTIVATE", f"{t.card(card)['name']} has no {'Ambition' if cmd.ambition else 'activated'} ability"
                            + (f" (use {other})" if has_other else ""))
    a = abil[0]
    t.check_hook(seat, "activate_ambition" if cmd.ambition else "activate", "activating abilities")
    t.use_action(seat, "ambition" if cmd.ambition else "activate")
    cost = int(a.get("cost", 0))
    kind = "ambition" if cmd.ambition else "credits"
    require(t.d[kind][seat] >= cost, "SV-COST", f"activating {t.card(card)['name']} costs {cost} {kind}; you have {t.d[kind][seat]}")
    ctx = {"seat": seat, "actor": seat, "card": card, "loc": t.in_sector(seat)[card]["loc"]}
    require(feasible(t, a["effects"], ctx), "SV-CANNOT-FOLLOW", f"{t.card(card)['name']}'s ability cannot be followed now")
    if cost:
        ch = ev.CreditsChanged if kind == "credits" else ev.AmbitionChanged
        t.emit(ch(seat=seat, amount=-cost, why=f"activates {t.card(card)['name']}"))
    t.pushed += [item(e, ctx) for e in a["effects"]]
    happened(t, seat, ("activate",), card=card, loc=ctx["loc"])


def move_card(t: Emitter, seat: str, cmd: C.MoveCard) -> None:
    """Move: move one of your cards (lower part) to another location; an attached Item
    moves only with its Ally."""
    in_act_phase(t, seat)
    info = t.in_sector(seat).get(cmd.card)
    require(not (info is None or info["side"] != "lower"), "SV-MOVE-CARD", f"{said(t, cmd.card)} is not one of your cards in play (only cards in the lower part of your sector can be moved)")
    typ = t.ctype(cmd.card)
    require(typ != "bounty", "SV-HOUSE-BOUNTY-WITH-CONTACT", "a Bounty cannot be moved to be attached to another "
            "Contact, nor on its own: it moves only with its Contact")
    require(not info.get("on"), "SV-MOVE-ATTACHED", "an Item attached to an Ally moves only with that Ally, never on its own")
    require(typ != "ally_vehicle", "SV-MOVE-CARD", "an Ally Vehicle is not moved with a Move action: it stays in Deep Space (a Maneuver engages or disengages it)")
    require(not (cmd.to in t.ally_vehicles(seat) and typ == "ally"), "SV-ALLY-NOT-ON-VEHICLE", "no card may be moved onto a Vehicle (only your mover can be there)")
    locs = t.location_ids(seat)
    where = "Deep Space is the play area for Vehicles" if cmd.to == DEEP_SPACE else f"{cmd.to} is not a location of your sector"
    require(cmd.to in locs, "SV-MOVE-CARD", f"{where}: cards move between {', '.join(t.location_name(seat, l) for l in locs)}")
    require(cmd.to != info["loc"], "SV-MOVE-CARD", f"{said(t, cmd.card)} is already at {t.location_name(seat, cmd.to)}")
    t.check_hook(seat, "move_card", "moving cards")
    t.use_action(seat, "move")
    t.emit(ev.CardMoved(sector=seat, card=cmd.card, to=cmd.to))
    happened(t, seat, ("move_card",), card=cmd.card, loc=cmd.to)


def maneuver(t: Emitter, seat: str, cmd: C.Maneuver) -> None:
    """Maneuvering Vehicles: disengage an Ally Vehicle, or engage it against a Hero Vehicle."""
    in_act_phase(t, seat)
    av = cmd.vehicle
    require(av in t.ally_vehicles(seat), "SV-MANEUVER", f"{said(t, av)} is not one of your Ally Vehicles in play")
    engaged = t.in_sector(seat)[av]["engaged"]
    if cmd.engage is None:
        require(bool(engaged), "SV-MANEUVER", f"{t.card(av)['name']} is not engaged: say which Hero Vehicle to engage")
        t.use_action(seat, "move")
        t.emit(ev.Disengaged(sector=seat, ally_vehicle=av, hero_vehicle=engaged))
        return
    require(not engaged, "SV-ENGAGE-ONE", "a Vehicle may be engaged with one single other Vehicle")
    require(not (cmd.engage not in t.hero_vehicles(seat) or t.in_sector(seat)[cmd.engage]["engaged"]), "SV-ENGAGE-ONE", f"{said(t, cmd.engage)} is not an unengaged Hero Vehicle in your Deep Space")
    t.use_action(seat, "move")
    t.emit(ev.Engaged(sector=seat, ally_vehicle=av, hero_vehicle=cmd.engage))


def discard_cards(t: Emitter, seat: str, cmd: C.Discard) -> None:
    """Discard Cards: discard as many cards as you wish; you do not draw until the end of
    your turn."""
    in_act_phase(t, seat)
    hand = list(t.d["hand"][seat])
    for c in cmd.cards:
        require(c in hand, "SV-NOT-IN-HAND", f"{said(t, c)} is not in your hand")
        hand.remove(c)
    t.use_action(seat, "discard")
    for c in cmd.cards:
        t.emit(ev.CardDiscarded(owner=seat, card=c, pile="villain", source="hand"))
    happened(t, seat, ("discard",))


def vanquish(t: Emitter, seat: str, cmd: C.Vanquish) -> None:
    """Vanquish: Allies at the Hero's location whose total Strength is at least the Hero's;
    the Hero goes to the Fate discard, the Allies used to the Villain discard (0-strength
    rules: a 0-strength Ally used is always discarded; against a 0-strength Hero the Allies
    stay)."""
    in_act_phase(t, seat)
    target = cmd.target
    info = t.in_sector(seat).get(target)
    require(info is not None, "SV-VANQUISH-TARGET", f"{said(t, target)} is not in your sector")
    typ = t.ctype(target)
    if typ == "hero_vehicle":
        vanquish_vehicle(t, seat, cmd)
        return
    require(typ == "hero", "SV-VANQUISH-TARGET", f"only Heroes and engaged Hero Vehicles can be vanquished, not {t.card(target)['name']}")
    require(bool(cmd.allies), "SV-VANQUISH-ALLIES", "name the Allies that vanquish: vanquish HERO with ALLY [ALLY ...]")
    require(len(set(cmd.allies)) == len(cmd.allies), "SV-VANQUISH-ALLIES", "each Ally counts once")
    for a in cmd.allies:
        ai = t.in_sector(seat).get(a)
        require(not (ai is None or t.ctype(a) != "ally"), "SV-VANQUISH-ALLIES", f"{said(t, a)} is not one of your Allies in play")
        require(ai["loc"] == info["loc"], "SV-VANQUISH-SAME-LOCATION", f"{t.card(a)['name']} is not at {t.location_name(seat, info['loc'])} with {t.card(target)['name']}")
    t.check_hook(seat, "vanquish", "vanquishing")
    hero_str = t.strength(seat, target)
    strengths = {a: t.strength(seat, a) for a in cmd.allies}
    total = sum(strengths.values())
    require(total >= hero_str, "SV-VANQUISH-STRENGTH", f"your Allies' total Strength {total} is less than {t.card(target)['name']}'s {hero_str}")
    t.use_action(seat, "vanquish")
    base = int(t.card(target).get("strength") or 0)
    t.emit(ev.Vanquished(seat=seat, hero=target, allies=tuple(cmd.allies), loc=info["loc"],
                         hero_strength=hero_str, ally_strength=total))
    leave(t, seat, target, "vanquish")
    for a in cmd.allies:
        if allies_discarded(hero_str, strengths[a]):
            leave(t, seat, a, "discard")
    hero_beaten(t, seat, target, base, loc=info["loc"])


def allies_discarded(hero_strength: int, ally_strength: int) -> bool:
    """Strength of an Ally or a Hero Reduced to 0: an Ally of Strength 0 used in a Vanquish
    is always discarded; the Allies used against a Hero of Strength 0 are not."""
    if ally_strength == 0:
        return True
    return hero_strength > 0


def vanquish_vehicle(t: Emitter, seat: str, cmd: C.Vanquish) -> None:
    """Discarding and Vanquishing Vehicles: only an engaged Hero Vehicle, never while your
    mover stands on the Ally Vehicle engaged with it; both Vehicles are discarded."""
    hv = cmd.target
    require(not cmd.allies, "SV-VANQUISH-VEHICLE", "Vehicles have no Strength: a Hero Vehicle is vanquished by the Ally Vehicle engaged with it, not by Allies")
    av = t.in_sector(seat)[hv]["engaged"]
    require(bool(av), "SV-VANQUISH-UNENGAGED", "you may not vanquish an unengaged Hero Vehicle: engage it with an Ally Vehicle first")
    require(t.d["mover"][seat] != av, "SV-VANQUISH-MOVER", "your mover is on the Ally Vehicle engaged with it: you may not discard that Vehicle")
    t.check_hook(seat, "vanquish", "vanquishing")
    t.use_action(seat, "vanquish")
    t.emit(ev.Vanquished(seat=seat, hero=hv, allies=(av,), loc=DEEP_SPACE, hero_strength=0, ally_strength=0))
    leave(t, seat, hv, "vanquish")
    leave(t, seat, av, "discard")
    happened(t, seat, ("vanquish_vehicle",), card=hv, loc=DEEP_SPACE, window="vanquish")


def fate_action(t: Emitter, seat: str, cmd: C.Fate) -> None:
    """Fate: choose an opponent and reveal the top two cards of their Fate deck (or engage
    one of their Ally Vehicles with a Hero Vehicle instead)."""
    in_act_phase(t, seat)
    opp = cmd.opponent
    require(not (opp == seat or opp not in t.d["seats"]), "SV-FATE-OPPONENT", "choose an opponent for a Fate action")
    t.check_hook(seat, "fate", "Fate actions")
    if cmd.ally_vehicle:
        avs = [a for a in t.ally_vehicles(opp) if not t.in_sector(opp)[a]["engaged"]]
        hvs = [h for h in t.hero_vehicles(opp) if not t.in_sector(opp)[h]["engaged"]]
        require(not (cmd.ally_vehicle not in avs or cmd.hero_vehicle not in hvs), "SV-FATE-ENGAGE", f"{opp} has no such unengaged Ally Vehicle and Hero Vehicle to engage")
        t.use_action(seat, "fate")
        t.emit(ev.Engaged(sector=opp, ally_vehicle=cmd.ally_vehicle, hero_vehicle=cmd.hero_vehicle))
    else:
        require(not (not t.d["fate_deck"][opp] and not t.d["fate_discard"][opp]), "SV-HOUSE-FATE-EMPTY", f"{opp} has no Fate cards left to reveal")
        t.use_action(seat, "fate")
        reveal_fate(t, seat, opp)
    happened(t, seat, ("fate",))


def play_fate_card(t: Emitter, seat: str, cmd: C.FatePlay) -> None:
    """Fate: play one revealed card at once and discard the other (Heroes at a location,
    never on a Vehicle; Hero Vehicles in Deep Space, engaged with an Ally Vehicle there;
    Conditions under the mover; a card that cannot be played is discarded without effect)."""
    f = t.d["fate"]
    require(seat == f["by"], "SV-FATE-PLAY", f"{f['by']} plays the revealed Fate card")
    card = cmd.card
    require(card in f["cards"], "SV-FATE-PLAY", f"{said(t, card)} is not one of the revealed cards ({', '.join(said(t, c) for c in f['cards'])})")
    opp = f["target"]
    c = t.card(card)
    typ = c["type"]
    locs = t.location_ids(opp)
    loc, on, engage, effectless = "", None, None, False
    live = [x for x in f["cards"] if fate_card_takes_effect(t, seat, opp, x)]
    require(card in live or not live, "SV-HOUSE-FATE-LIVE-CARD",
            f"{c['name']} cannot be played or would have no effect, while "
            f"{' or '.join(t.card(x)['name'] for x in live)} can: a card is played without its effect "
            "only when none of the revealed cards can be played")
    if card not in live:
        require(not (cmd.at or cmd.on or cmd.engage), "SV-FATE-NO-EFFECT",
                f"none of the revealed cards can be played: {c['name']} is played without its effect "
                "and discarded (just fate-play it)")
        effectless = True
    elif typ == "hero":
        require(not (cmd.at is None or cmd.on or cmd.engage), "SV-FATE-HERO-PLACE", f"play the Hero at a location of {opp}'s sector: fate-play CARD at LOCATION")
        require(not (cmd.at in t.ally_vehicles(opp) or cmd.at == DEEP_SPACE), "SV-FATE-HERO-PLACE", "you may not play a Hero on a Vehicle")
        require(cmd.at in locs, "SV-FATE-HERO-PLACE", f"{cmd.at} is not a location of {opp}'s sector")
        loc = cmd.at
    elif typ == "item":
        heroes = t.all_of(opp, ("hero",))
        if c.get("attach"):
            require(cmd.on in heroes, "SV-HOUSE-FATE-ITEM", f"attach {c['name']} to a Hero in {opp}'s sector: fate-play CARD on HERO")
            on, loc = cmd.on, t.in_sector(opp)[cmd.on]["loc"]
        else:
            require(cmd.at in locs, "SV-HOUSE-FATE-ITEM", f"play {c['name']} at a location of {opp}'s sector")
            loc = cmd.at
    elif typ == "hero_vehicle":
        require(not (cmd.at not in (None, DEEP_SPACE) or cmd.on), "SV-VEHICLE-DEEP-SPACE", "a Hero Vehicle is played in Deep Space")
        free = [a for a in t.ally_vehicles(opp) if not t.in_sector(opp)[a]["engaged"]]
        if free:
            if cmd.engage is None and len(free) == 1:
                engage = free[0]
            elif cmd.engage in free:
                engage = cmd.engage
            else:
                raise RuleViolation("SV-HERO-VEHICLE-ENGAGE", "there is an unengaged Ally Vehicle: the Hero Vehicle must be played engaged against it (fate-play CARD engage ALLY-VEHICLE)")
        require(bool(free) or not cmd.engage, "SV-HERO-VEHICLE-ENGAGE", f"{opp} has no unengaged Ally Vehicle to engage")
        loc = DEEP_SPACE
    elif typ == "condition":
        require(not (cmd.at or cmd.on or cmd.engage), "SV-FATE-CONDITION", "a Fate Condition is placed under the mover: just fate-play it")
        loc = MOVER
    elif typ == "effect":
        require(not (cmd.at or cmd.on or cmd.engage), "SV-PLACE", "an Effect is not placed anywhere: just fate-play it")
    t.emit(ev.FateResolved(by=seat, target=opp, played=card))
    for other in f["cards"]:
        if other != card:
            owner, pile = t.owner(other)
            t.emit(ev.CardDiscarded(owner=owner, card=other, pile=pile, source="revealed"))
    if effectless:
        owner, pile = t.owner(card)
        t.emit(ev.CardDiscarded(owner=owner, card=card, pile=pile, source="revealed"))
        return
    enter(t, seat, opp, card, loc, on=on, source="fate")
    if engage:
        t.emit(ev.Engaged(sector=opp, ally_vehicle=engage, hero_vehicle=card))


def fate_card_takes_effect(t: Emitter, by: str, opp: str, card: str) -> bool:
    """Fate: "If none of the cards you revealed can be played or has any effect, you must
    still choose one and play it without applying its effect". A Hero, a Hero Vehicle, a
    Condition or an Item standing on its own can always be played; an Item attached to a
    Hero needs a Hero; an Effect must be one the player can follow and that changes
    something (a Villain with no Credits loses none)."""
    c = t.card(card)
    typ = c["type"]
    if typ == "item" and c.get("attach"):
        return bool(t.all_of(opp, ("hero",)))
    if typ != "effect":
        return True
    ctx = {"seat": opp, "actor": by, "card": card, "loc": None}
    effects = [e for a in c.get("abilities", []) if a.get("when") == "play" for e in a["effects"]]
    return feasible(t, effects, ctx) and any(does_something(t, e, ctx) for e in effects)


def hunt(t: Emitter, seat: str, cmd: C.Hunt) -> None:
    """Bounties (Hunt): pay the Hunt cost at any time on your turn, without an action."""
    b = cmd.bounty
    require(not (b not in t.in_sector(seat) or t.ctype(b) != "bounty"), "SV-HUNT", f"{said(t, b)} is not one of your Bounties in play")
    limit = int(t.d["options"].get("hunts_per_turn", 0))
    times = "once" if limit == 1 else f"{limit} times"
    require(not limit or t.d["hunted"].count(b) < limit, "SV-HOUSE-HUNT-ONCE",
            f"you have already hunted {t.card(b)['name']} {times} this turn (option hunts_per_turn)")
    h = t.card(b).get("hunt") or {}
    cost = int(h.get("cost", 0))
    require(t.d["credits"][seat] >= cost, "SV-COST", f"the Hunt costs {cost} Credits; you have {t.d['credits'][seat]}")
    ctx = {"seat": seat, "actor": seat, "card": b, "loc": t.in_sector(seat)[b]["loc"]}
    t.emit(ev.HuntPaid(seat=seat, bounty=b, cost=cost))
    if cost:
        t.emit(ev.CreditsChanged(seat=seat, amount=-cost, why=f"Hunt: {t.card(b)['name']}"))
    t.pushed += [item(e, ctx) for e in h.get("effects", [])]
    happened(t, seat, ("hunt",), bounty=b)


# -- 4. Draw cards, next player -----------------------------------------------------------


def end_turn(t: Emitter, seat: str, cmd: C.EndTurn) -> None:
    """On Your Turn, 4: draw until the hand limit (4, less one per unengaged Hero Vehicle);
    then the next player gains 1 Ambition and moves."""
    in_act_phase(t, seat)
    turn_abilities(t, seat, "turn_end")
    t.pushed.append(item({"do": "_draw_and_pass"}, {"seat": seat, "actor": seat, "card": None, "loc": None}))


def check_objectives(t: Emitter) -> None:
    """Objective / End of the Game: as soon as a Villain achieves their Objective they win;
    Villains achieving theirs at once share the win (SV-HOUSE-SHARED-WIN)."""
    if t.d["winners"] or t.d["phase"] == "setup":
        return
    won = []
    for s in t.d["order"]:
        obj = t.villain(s)["objective"]
        if progress_of(t, s) >= int(obj["count"]):
            won.append(s)
    if won:
        names = ", ".join(t.villain(s)["name"] for s in won)
        t.emit(ev.GameWon(winners=tuple(won), reason=f"{names} achieved the Objective"))


HANDLERS = {
    C.MoveMover: move_mover, C.Collect: collect_credits, C.Play: play_card,
    C.Activate: activate_ability, C.MoveCard: move_card, C.Maneuver: maneuver,
    C.Discard: discard_cards, C.Vanquish: vanquish, C.Fate: fate_action, C.Hunt: hunt,
    C.EndTurn: end_turn,
}
