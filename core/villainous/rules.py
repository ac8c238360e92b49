"""The rules of Villainous: one function a rule, each citing the rulebook section.

``decide`` runs a command on a scratch :class:`Table` and returns the events it emitted.
"""

from __future__ import annotations

from typing import Any

from arbiter.core.dice import Rng
from arbiter.core.errors import RuleViolation
from arbiter.events import villainous as ev
from arbiter.core.villainous import commands as C
from arbiter.core.villainous.effects import (NONE, does_something, enter, feasible, happened, hero_beaten, item, leave,
                                            progress_by_state, progress_of, resume, reveal_fate, run,
                                            turn_abilities)
from arbiter.core.villainous.table import DEEP_SPACE, MOVER, Table, passed
from arbiter.projections.villainous import VState


# -- whose decision ---------------------------------------------------------------------


def decide(state: VState, seat: str, cmd: Any, rng: Rng) -> list[Any]:
    t = Table(state, rng)
    d = t.d
    if d["pending"]:
        answer_choice(t, seat, cmd)
    elif d["fate"] is not None:
        if not isinstance(cmd, C.FatePlay):
            raise RuleViolation("SV-FATE-PLAY", "play one of the two revealed Fate cards first (fate-play CARD ...)")
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


def not_now(t: Table, seat: str, cmd: Any) -> None:
    if isinstance(cmd, (C.Choose,)):
        raise RuleViolation("SV-CHOICE", "there is no choice to make now")
    if isinstance(cmd, C.FatePlay):
        raise RuleViolation("SV-FATE-PLAY", "no Fate cards have been revealed; use a Fate action first")
    if isinstance(cmd, (C.Pass, C.PlayCondition)):
        raise RuleViolation("SV-CONDITION-TIMING", "Conditions are played only during an opponent's turn, when their condition is met")
    raise RuleViolation("SV-ACTION-VISIBLE", "that is not something you can do now")


def in_act_phase(t: Table, seat: str) -> None:
    """On Your Turn, 2: the mover must move before any action."""
    if t.d["phase"] == "move":
        raise RuleViolation("SV-MOVE-FIRST", "move your mover to another location before performing actions")
    passed("SV-MOVE-FIRST")


# -- choices and reactions ---------------------------------------------------------------


def answer_choice(t: Table, seat: str, cmd: Any) -> None:
    """A card's ability waits on this choice."""
    p = t.d["pending"][-1]
    if seat != p["seat"]:
        raise RuleViolation("SV-CHOICE", f"{p['seat']} must choose first")
    if isinstance(cmd, C.Pass):
        if NONE not in p["options"]:
            raise RuleViolation("SV-CHOICE", "this effect is not optional: choose one of the options")
        resume(t, seat, NONE)
        return
    if not isinstance(cmd, C.Choose):
        raise RuleViolation("SV-CHOICE", f"answer the open choice first: {p['prompt']}")
    if cmd.option not in p["options"]:
        raise RuleViolation("SV-CHOICE", f"{cmd.option} is not one of the options ({', '.join(p['options'])})")
    resume(t, seat, cmd.option)


def react_with_condition(t: Table, seat: str, cmd: Any) -> None:
    """Conditions (Villain cards): played only during an opponent's turn, when met."""
    w = t.d["window"]
    if seat != w["queue"][0]:
        raise RuleViolation("SV-CONDITION-TIMING", f"{w['queue'][0]} may play a Condition or pass first")
    if isinstance(cmd, C.Hunt):
        if t.d["options"].get("hunt_turns", "own") != "any":
            raise RuleViolation("SV-HUNT-ANY-TURN", "a Hunt is paid during your own turn (option hunt_turns=any "
                                "allows it on an opponent's turn too)")
        hunt(t, seat, cmd)
        return
    if isinstance(cmd, C.Pass):
        t.emit(ev.WindowPassed(seat=seat))
        return
    if not isinstance(cmd, C.PlayCondition):
        raise RuleViolation("SV-CONDITION-TIMING", "play a Condition card or pass")
    card = cmd.card
    if card not in t.d["hand"][seat]:
        raise RuleViolation("SV-NOT-IN-HAND", f"{card} is not in your hand")
    if t.ctype(card) != "condition":
        raise RuleViolation("SV-CONDITION-TIMING", f"{t.card(card)['name']} is not a Condition card")
    if card not in t.conditions_for(seat, w["trigger"]):
        raise RuleViolation("SV-CONDITION-MET", f"the condition of {t.card(card)['name']} is not met now")
    c = t.card(card)
    cost, kind = t.cost_of(seat, card)
    if t.d[kind][seat] < cost:
        raise RuleViolation("SV-COST", f"{c['name']} costs {cost} {kind}; you have {t.d[kind][seat]}")
    if cost:
        ch = ev.CreditsChanged if kind == "credits" else ev.AmbitionChanged
        t.emit(ch(seat=seat, amount=-cost, why=f"pays for {c['name']}"))
    passed("SV-CONDITION-TIMING", "SV-CONDITION-MET", "SV-COST")
    t.emit(ev.ConditionPlayed(seat=seat, card=card, trigger=w["trigger"]))
    ctx = {"seat": seat, "actor": seat, "card": card, "loc": None, "opp": w["by"]}
    for a in c.get("abilities", []):
        if a.get("when") == "condition":
            t.pushed += [item(e, ctx) for e in a["effects"]]


# -- 2. Move your mover -----------------------------------------------------------------


def move_mover(t: Table, seat: str, cmd: C.MoveMover) -> None:
    """On Your Turn, 2: move the mover to another location of your sector; moving onto an
    Ally Vehicle triggers its ability before any action (Ally Vehicles)."""
    if t.d["phase"] != "move":
        raise RuleViolation("SV-MOVER-ONCE", "your mover has already moved this turn; use a Move action to move cards (move CARD to LOCATION)")
    places = t.mover_places(seat)
    if cmd.to not in places:
        raise RuleViolation("SV-MOVER-PLACE", f"{cmd.to} is not a location of your sector (you may go to: {', '.join(places)})")
    if cmd.to == t.d["mover"][seat]:
        raise RuleViolation("SV-MOVER-DIFFERENT", "your mover may not stay in the same place")
    passed("SV-MOVER-ONCE", "SV-MOVER-PLACE", "SV-MOVER-DIFFERENT")
    t.emit(ev.MoverMoved(seat=seat, to=cmd.to))
    if cmd.to in t.in_sector(seat):
        ctx = {"seat": seat, "actor": seat, "card": cmd.to, "loc": cmd.to}
        for a in t.card(cmd.to).get("abilities", []):
            if a.get("when") == "move_in":
                t.pushed += [item(e, ctx) for e in a["effects"]]


# -- 3. Actions ---------------------------------------------------------------------------


def collect_credits(t: Table, seat: str, cmd: C.Collect) -> None:
    """Collect Credits: take as many Credits as the symbol shows."""
    in_act_phase(t, seat)
    t.check_hook(seat, "collect", "collecting Credits")
    sym = t.use_action(seat, "credits")
    n = max(0, int(sym.split(":")[1]) + t.collect_bonus(seat))
    if n:
        t.emit(ev.CreditsChanged(seat=seat, amount=n, why="Collect Credits"))
    happened(t, seat, ("collect",))


def pay(t: Table, seat: str, card: str) -> tuple[int, str]:
    """Pay a card's cost; without enough tokens the card cannot be played."""
    c = t.card(card)
    cost, kind = t.cost_of(seat, card)
    have = t.d[kind][seat]
    if have < cost:
        word = "Credits" if kind == "credits" else "Ambition"
        raise RuleViolation("SV-COST", f"{c['name']} costs {cost} {word}; you have {have}")
    passed("SV-COST")
    if cost:
        ch = ev.CreditsChanged if kind == "credits" else ev.AmbitionChanged
        t.emit(ch(seat=seat, amount=-cost, why=f"pays for {c['name']}"))
    return cost, kind


def play_card(t: Table, seat: str, cmd: C.Play) -> None:
    """Play a Credits Card / Play an Ambition Card: one card per symbol, paying its cost,
    to a place its type allows (Allies, Items, Vehicles, Bounties and Contacts)."""
    in_act_phase(t, seat)
    card = cmd.card
    if card not in t.d["hand"][seat]:
        raise RuleViolation("SV-NOT-IN-HAND", f"you have no {card} in your hand")
    c = t.card(card)
    typ = c["type"]
    if typ == "condition":
        raise RuleViolation("SV-CONDITION-TIMING", f"{c['name']} is a Condition: it is played only during an opponent's turn, never with a Play action")
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
    if not feasible(t, effects, ctx):
        raise RuleViolation("SV-CANNOT-FOLLOW", f"{c['name']} cannot be played: you cannot follow its instructions now")
    passed("SV-NOT-IN-HAND", "SV-CONDITION-TIMING", "SV-PLACE", "SV-CANNOT-FOLLOW")
    enter(t, seat, seat, card, loc, on=on, cost=cost, cost_kind=kind)
    if typ == "ally_vehicle" and cmd.engage:
        t.emit(ev.Engaged(sector=seat, ally_vehicle=card, hero_vehicle=cmd.engage))


def where_it_goes(t: Table, seat: str, card: str, cmd: C.Play) -> tuple[str, str | None]:
    """Where a Villain card may be played (Allies; Items; Vehicles; Bounties; Contacts)."""
    c = t.card(card)
    typ = c["type"]
    locs = t.location_ids(seat)
    if typ in ("ally", "contact"):
        if cmd.on or cmd.engage:
            raise RuleViolation("SV-PLACE", f"{c['name']} is played at a location: play CARD at LOCATION")
        if cmd.at is None:
            raise RuleViolation("SV-PLACE", f"say where {c['name']} goes: at one of {', '.join(locs)}")
        if cmd.at in t.ally_vehicles(seat) or cmd.at == DEEP_SPACE:
            if typ == "ally":
                hook_src = t.allowed(seat, "ally_on_vehicle")
                if hook_src and cmd.at != DEEP_SPACE:
                    t.check_hook(seat, "ally_on_vehicle", "playing an Ally on a Vehicle")
                    return cmd.at, None
            raise RuleViolation("SV-ALLY-NOT-ON-VEHICLE", "you may not play an Ally on a Vehicle (only your mover can be there)")
        if cmd.at not in locs:
            raise RuleViolation("SV-PLACE", f"{cmd.at} is not a location of your sector")
        return cmd.at, None
    if typ == "item":
        if c.get("attach"):
            allies = t.all_of(seat, ("ally",))
            if not allies:
                raise RuleViolation("SV-ITEM-ATTACH", f"{c['name']} must be attached to an Ally, and you have no Ally in play")
            if cmd.on not in allies:
                raise RuleViolation("SV-ITEM-ATTACH", f"{c['name']} must be attached to one of your Allies: play CARD on ALLY")
            return t.in_sector(seat)[cmd.on]["loc"], cmd.on
        if cmd.on:
            raise RuleViolation("SV-ITEM-ATTACH", f"{c['name']} is not attached: play it at a location")
        if cmd.at not in locs:
            raise RuleViolation("SV-PLACE", f"say at which location of your sector {c['name']} goes")
        return cmd.at, None
    if typ == "bounty":
        contacts = t.all_of(seat, ("contact",))
        if not contacts:
            raise RuleViolation("SV-BOUNTY-CONTACT", "a Bounty is played only attached to a Contact, and you have none in play")
        if cmd.on not in contacts:
            raise RuleViolation("SV-BOUNTY-CONTACT", "play the Bounty on one of your Contacts: play BOUNTY on CONTACT")
        used = [b for b, i in t.in_sector(seat).items() if i.get("on") == cmd.on and t.ctype(b) == "bounty"]
        limit = int(t.card(cmd.on).get("limit", 1))
        if len(used) >= limit:
            raise RuleViolation("SV-CONTACT-LIMIT", f"{t.card(cmd.on)['name']} already holds {limit} Bounty(ies), its limit")
        return t.in_sector(seat)[cmd.on]["loc"], cmd.on
    if typ == "ally_vehicle":
        if cmd.at not in (None, DEEP_SPACE) or cmd.on:
            raise RuleViolation("SV-VEHICLE-DEEP-SPACE", "Vehicles are played only in Deep Space")
        if cmd.engage is not None:
            hvs = [h for h in t.hero_vehicles(seat) if not t.in_sector(seat)[h]["engaged"]]
            if cmd.engage not in hvs:
                raise RuleViolation("SV-ENGAGE", f"{cmd.engage} is not an unengaged Hero Vehicle in your Deep Space")
        return DEEP_SPACE, None
    if typ == "effect":
        if cmd.at or cmd.on or cmd.engage:
            raise RuleViolation("SV-PLACE", "an Effect is not placed anywhere: just play it")
        return "", None
    raise RuleViolation("SV-PLACE", f"{c['name']} cannot be played from your hand")


def activate_ability(t: Table, seat: str, cmd: C.Activate) -> None:
    """Activate an Ability / Activate an Ambition Card: pay the activation cost (Credits or
    Ambition), then use the card's ability; once per action symbol."""
    in_act_phase(t, seat)
    card = cmd.card
    if card not in t.in_sector(seat) or t.in_sector(seat)[card]["side"] != "lower":
        raise RuleViolation("SV-ACTIVATE", f"{card} is not one of your cards in play")
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
    if t.d[kind][seat] < cost:
        raise RuleViolation("SV-COST", f"activating {t.card(card)['name']} costs {cost} {kind}; you have {t.d[kind][seat]}")
    ctx = {"seat": seat, "actor": seat, "card": card, "loc": t.in_sector(seat)[card]["loc"]}
    if not feasible(t, a["effects"], ctx):
        raise RuleViolation("SV-CANNOT-FOLLOW", f"{t.card(card)['name']}'s ability cannot be followed now")
    if cost:
        ch = ev.CreditsChanged if kind == "credits" else ev.AmbitionChanged
        t.emit(ch(seat=seat, amount=-cost, why=f"activates {t.card(card)['name']}"))
    t.pushed += [item(e, ctx) for e in a["effects"]]
    happened(t, seat, ("activate",), card=card, loc=ctx["loc"])


def move_card(t: Table, seat: str, cmd: C.MoveCard) -> None:
    """Move: move one of your cards (lower part) to another location; an attached Item
    moves only with its Ally."""
    in_act_phase(t, seat)
    info = t.in_sector(seat).get(cmd.card)
    if info is None or info["side"] != "lower":
        raise RuleViolation("SV-MOVE-CARD", f"{cmd.card} is not one of your cards in play (only cards in the lower part of your sector can be moved)")
    if info.get("on"):
        raise RuleViolation("SV-MOVE-ATTACHED", "an Item attached to an Ally moves only with that Ally, never on its own")
    typ = t.ctype(cmd.card)
    if typ in ("ally_vehicle", "bounty"):
        raise RuleViolation("SV-MOVE-CARD", f"a {typ.replace('_', ' ')} is not moved with a Move action")
    if cmd.to not in t.location_ids(seat):
        if cmd.to in t.ally_vehicles(seat) and typ == "ally":
            raise RuleViolation("SV-ALLY-NOT-ON-VEHICLE", "no card may be moved onto a Vehicle (only your mover can be there)")
        raise RuleViolation("SV-MOVE-CARD", f"{cmd.to} is not a location of your sector")
    if cmd.to == info["loc"]:
        raise RuleViolation("SV-MOVE-CARD", f"{cmd.card} is already at {cmd.to}")
    passed("SV-MOVE-CARD", "SV-MOVE-ATTACHED")
    t.check_hook(seat, "move_card", "moving cards")
    t.use_action(seat, "move")
    t.emit(ev.CardMoved(sector=seat, card=cmd.card, to=cmd.to))
    happened(t, seat, ("move_card",), card=cmd.card, loc=cmd.to)


def maneuver(t: Table, seat: str, cmd: C.Maneuver) -> None:
    """Maneuvering Vehicles: disengage an Ally Vehicle, or engage it against a Hero Vehicle."""
    in_act_phase(t, seat)
    av = cmd.vehicle
    if av not in t.ally_vehicles(seat):
        raise RuleViolation("SV-MANEUVER", f"{av} is not one of your Ally Vehicles")
    engaged = t.in_sector(seat)[av]["engaged"]
    if cmd.engage is None:
        if not engaged:
            raise RuleViolation("SV-MANEUVER", f"{t.card(av)['name']} is not engaged: say which Hero Vehicle to engage")
        t.use_action(seat, "move")
        t.emit(ev.Disengaged(sector=seat, ally_vehicle=av, hero_vehicle=engaged))
        return
    if engaged:
        raise RuleViolation("SV-ENGAGE-ONE", "a Vehicle may be engaged with one single other Vehicle")
    if cmd.engage not in t.hero_vehicles(seat) or t.in_sector(seat)[cmd.engage]["engaged"]:
        raise RuleViolation("SV-ENGAGE-ONE", f"{cmd.engage} is not an unengaged Hero Vehicle in your Deep Space")
    t.use_action(seat, "move")
    t.emit(ev.Engaged(sector=seat, ally_vehicle=av, hero_vehicle=cmd.engage))


def discard_cards(t: Table, seat: str, cmd: C.Discard) -> None:
    """Discard Cards: discard as many cards as you wish; you do not draw until the end of
    your turn."""
    in_act_phase(t, seat)
    hand = list(t.d["hand"][seat])
    for c in cmd.cards:
        if c not in hand:
            raise RuleViolation("SV-NOT-IN-HAND", f"{c} is not in your hand")
        hand.remove(c)
    passed("SV-NOT-IN-HAND")
    t.use_action(seat, "discard")
    for c in cmd.cards:
        t.emit(ev.CardDiscarded(owner=seat, card=c, pile="villain", source="hand"))
    happened(t, seat, ("discard",))


def vanquish(t: Table, seat: str, cmd: C.Vanquish) -> None:
    """Vanquish: Allies at the Hero's location whose total Strength is at least the Hero's;
    the Hero goes to the Fate discard, the Allies used to the Villain discard (0-strength
    rules: a 0-strength Ally used is always discarded; against a 0-strength Hero the Allies
    stay)."""
    in_act_phase(t, seat)
    target = cmd.target
    info = t.in_sector(seat).get(target)
    if info is None:
        raise RuleViolation("SV-VANQUISH-TARGET", f"{target} is not in your sector")
    typ = t.ctype(target)
    if typ == "hero_vehicle":
        vanquish_vehicle(t, seat, cmd)
        return
    if typ != "hero":
        raise RuleViolation("SV-VANQUISH-TARGET", f"only Heroes and engaged Hero Vehicles can be vanquished, not {t.card(target)['name']}")
    if not cmd.allies:
        raise RuleViolation("SV-VANQUISH-ALLIES", "name the Allies that vanquish: vanquish HERO with ALLY [ALLY ...]")
    if len(set(cmd.allies)) != len(cmd.allies):
        raise RuleViolation("SV-VANQUISH-ALLIES", "each Ally counts once")
    for a in cmd.allies:
        ai = t.in_sector(seat).get(a)
        if ai is None or t.ctype(a) != "ally":
            raise RuleViolation("SV-VANQUISH-ALLIES", f"{a} is not one of your Allies in play")
        if ai["loc"] != info["loc"]:
            raise RuleViolation("SV-VANQUISH-SAME-LOCATION", f"{t.card(a)['name']} is not at {t.location_name(seat, info['loc'])} with {t.card(target)['name']}")
    t.check_hook(seat, "vanquish", "vanquishing")
    hero_str = t.strength(seat, target)
    strengths = {a: t.strength(seat, a) for a in cmd.allies}
    total = sum(strengths.values())
    if total < hero_str:
        raise RuleViolation("SV-VANQUISH-STRENGTH", f"your Allies' total Strength {total} is less than {t.card(target)['name']}'s {hero_str}")
    passed("SV-VANQUISH-TARGET", "SV-VANQUISH-ALLIES", "SV-VANQUISH-SAME-LOCATION", "SV-VANQUISH-STRENGTH")
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


def vanquish_vehicle(t: Table, seat: str, cmd: C.Vanquish) -> None:
    """Discarding and Vanquishing Vehicles: only an engaged Hero Vehicle, never while your
    mover stands on the Ally Vehicle engaged with it; both Vehicles are discarded."""
    hv = cmd.target
    if cmd.allies:
        raise RuleViolation("SV-VANQUISH-VEHICLE", "Vehicles have no Strength: a Hero Vehicle is vanquished by the Ally Vehicle engaged with it, not by Allies")
    av = t.in_sector(seat)[hv]["engaged"]
    if not av:
        raise RuleViolation("SV-VANQUISH-UNENGAGED", "you may not vanquish an unengaged Hero Vehicle: engage it with an Ally Vehicle first")
    if t.d["mover"][seat] == av:
        raise RuleViolation("SV-VANQUISH-MOVER", "your mover is on the Ally Vehicle engaged with it: you may not discard that Vehicle")
    passed("SV-VANQUISH-TARGET", "SV-VANQUISH-VEHICLE", "SV-VANQUISH-UNENGAGED", "SV-VANQUISH-MOVER")
    t.check_hook(seat, "vanquish", "vanquishing")
    t.use_action(seat, "vanquish")
    t.emit(ev.Vanquished(seat=seat, hero=hv, allies=(av,), loc=DEEP_SPACE, hero_strength=0, ally_strength=0))
    leave(t, seat, hv, "vanquish")
    leave(t, seat, av, "discard")
    happened(t, seat, ("vanquish_vehicle",), card=hv, loc=DEEP_SPACE, window="vanquish")


def fate_action(t: Table, seat: str, cmd: C.Fate) -> None:
    """Fate: choose an opponent and reveal the top two cards of their Fate deck (or engage
    one of their Ally Vehicles with a Hero Vehicle instead)."""
    in_act_phase(t, seat)
    opp = cmd.opponent
    if opp == seat or opp not in t.d["seats"]:
        raise RuleViolation("SV-FATE-OPPONENT", "choose an opponent for a Fate action")
    passed("SV-FATE-OPPONENT")
    t.check_hook(seat, "fate", "Fate actions")
    if cmd.ally_vehicle:
        avs = [a for a in t.ally_vehicles(opp) if not t.in_sector(opp)[a]["engaged"]]
        hvs = [h for h in t.hero_vehicles(opp) if not t.in_sector(opp)[h]["engaged"]]
        if cmd.ally_vehicle not in avs or cmd.hero_vehicle not in hvs:
            raise RuleViolation("SV-FATE-ENGAGE", f"{opp} has no such unengaged Ally Vehicle and Hero Vehicle to engage")
        t.use_action(seat, "fate")
        t.emit(ev.Engaged(sector=opp, ally_vehicle=cmd.ally_vehicle, hero_vehicle=cmd.hero_vehicle))
    else:
        if not t.d["fate_deck"][opp] and not t.d["fate_discard"][opp]:
            raise RuleViolation("SV-FATE-EMPTY", f"{opp} has no Fate cards left to reveal")
        t.use_action(seat, "fate")
        reveal_fate(t, seat, opp)
    happened(t, seat, ("fate",))


def play_fate_card(t: Table, seat: str, cmd: C.FatePlay) -> None:
    """Fate: play one revealed card at once and discard the other (Heroes at a location,
    never on a Vehicle; Hero Vehicles in Deep Space, engaged with an Ally Vehicle there;
    Conditions under the mover; a card that cannot be played is discarded without effect)."""
    f = t.d["fate"]
    if seat != f["by"]:
        raise RuleViolation("SV-FATE-PLAY", f"{f['by']} plays the revealed Fate card")
    card = cmd.card
    if card not in f["cards"]:
        raise RuleViolation("SV-FATE-PLAY", f"{card} is not one of the revealed cards ({', '.join(f['cards'])})")
    opp = f["target"]
    c = t.card(card)
    typ = c["type"]
    locs = t.location_ids(opp)
    loc, on, engage, effectless = "", None, None, False
    live = [x for x in f["cards"] if fate_card_takes_effect(t, seat, opp, x)]
    if card not in live:
        if live:
            names = " or ".join(t.card(x)["name"] for x in live)
            raise RuleViolation("SV-FATE-NO-EFFECT",
                                f"{c['name']} cannot be played or would have no effect, while {names} can: "
                                "a card is played without its effect only when none of the revealed cards can be played")
        if cmd.at or cmd.on or cmd.engage:
            raise RuleViolation("SV-FATE-NO-EFFECT", f"none of the revealed cards can be played: {c['name']} is "
                                "played without its effect and discarded (just fate-play it)")
        effectless = True
    elif typ == "hero":
        if cmd.at is None or cmd.on or cmd.engage:
            raise RuleViolation("SV-FATE-HERO-PLACE", f"play the Hero at a location of {opp}'s sector: fate-play CARD at LOCATION")
        if cmd.at not in locs:
            if cmd.at in t.ally_vehicles(opp) or cmd.at == DEEP_SPACE:
                raise RuleViolation("SV-FATE-HERO-PLACE", "you may not play a Hero on a Vehicle")
            raise RuleViolation("SV-FATE-HERO-PLACE", f"{cmd.at} is not a location of {opp}'s sector")
        loc = cmd.at
    elif typ == "item":
        heroes = t.all_of(opp, ("hero",))
        if c.get("attach"):
            if cmd.on not in heroes:
                raise RuleViolation("SV-FATE-ITEM", f"attach {c['name']} to a Hero in {opp}'s sector: fate-play CARD on HERO")
            else:
                on, loc = cmd.on, t.in_sector(opp)[cmd.on]["loc"]
        else:
            if cmd.at not in locs:
                raise RuleViolation("SV-FATE-ITEM", f"play {c['name']} at a location of {opp}'s sector")
            loc = cmd.at
    elif typ == "hero_vehicle":
        if cmd.at not in (None, DEEP_SPACE) or cmd.on:
            raise RuleViolation("SV-VEHICLE-DEEP-SPACE", "a Hero Vehicle is played in Deep Space")
        free = [a for a in t.ally_vehicles(opp) if not t.in_sector(opp)[a]["engaged"]]
        if free:
            if cmd.engage is None and len(free) == 1:
                engage = free[0]
            elif cmd.engage in free:
                engage = cmd.engage
            else:
                raise RuleViolation("SV-HERO-VEHICLE-ENGAGE", "there is an unengaged Ally Vehicle: the Hero Vehicle must be played engaged against it (fate-play CARD engage ALLY-VEHICLE)")
        elif cmd.engage:
            raise RuleViolation("SV-HERO-VEHICLE-ENGAGE", f"{opp} has no unengaged Ally Vehicle to engage")
        loc = DEEP_SPACE
    elif typ == "condition":
        if cmd.at or cmd.on or cmd.engage:
            raise RuleViolation("SV-FATE-CONDITION", "a Fate Condition is placed under the mover: just fate-play it")
        loc = MOVER
    elif typ == "effect":
        if cmd.at or cmd.on or cmd.engage:
            raise RuleViolation("SV-PLACE", "an Effect is not placed anywhere: just fate-play it")
    passed("SV-FATE-PLAY", "SV-FATE-NO-EFFECT", {"hero": "SV-FATE-HERO-PLACE", "item": "SV-FATE-ITEM", "condition": "SV-FATE-CONDITION",
                            "hero_vehicle": "SV-HERO-VEHICLE-ENGAGE"}.get(typ, "SV-PLACE"))
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


def fate_card_takes_effect(t: Table, by: str, opp: str, card: str) -> bool:
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


def hunt(t: Table, seat: str, cmd: C.Hunt) -> None:
    """Bounties (Hunt): pay the Hunt cost at any time on your turn, without an action."""
    b = cmd.bounty
    if b not in t.in_sector(seat) or t.ctype(b) != "bounty":
        raise RuleViolation("SV-HUNT", f"{b} is not one of your Bounties in play")
    limit = int(t.d["options"].get("hunts_per_turn", 0))
    if limit and t.d["hunted"].count(b) >= limit:
        times = "once" if limit == 1 else f"{limit} times"
        raise RuleViolation("SV-HUNT-ONCE", f"you have already hunted {t.card(b)['name']} {times} this turn "
                            "(option hunts_per_turn)")
    h = t.card(b).get("hunt") or {}
    cost = int(h.get("cost", 0))
    if t.d["credits"][seat] < cost:
        raise RuleViolation("SV-COST", f"the Hunt costs {cost} Credits; you have {t.d['credits'][seat]}")
    ctx = {"seat": seat, "actor": seat, "card": b, "loc": t.in_sector(seat)[b]["loc"]}
    passed("SV-HUNT", "SV-HUNT-ONCE", "SV-COST")
    t.emit(ev.HuntPaid(seat=seat, bounty=b, cost=cost))
    if cost:
        t.emit(ev.CreditsChanged(seat=seat, amount=-cost, why=f"Hunt: {t.card(b)['name']}"))
    t.pushed += [item(e, ctx) for e in h.get("effects", [])]
    happened(t, seat, ("hunt",), bounty=b)


# -- 4. Draw cards, next player -----------------------------------------------------------


def end_turn(t: Table, seat: str, cmd: C.EndTurn) -> None:
    """On Your Turn, 4: draw until the hand limit (4, less one per unengaged Hero Vehicle);
    then the next player gains 1 Ambition and moves."""
    in_act_phase(t, seat)
    turn_abilities(t, seat, "turn_end")
    t.pushed.append(item({"do": "_draw_and_pass"}, {"seat": seat, "actor": seat, "card": None, "loc": None}))


def check_objectives(t: Table) -> None:
    """Objective / End of the Game: as soon as a Villain achieves their Objective they win."""
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
