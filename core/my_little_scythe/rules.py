"""My Little Scythe rules: one rule a function, named after the rulebook.

``decide`` checks a command against the rules and returns its events; after every command
``advance`` plays the automatic steps (reveals, skipped tokens, quests, trophies, the end of
the turn and the grand finale) until some seat owes a decision.
"""

from __future__ import annotations

from typing import Any

from arbiter.core.dice import Rng
from arbiter.core.errors import RuleViolation, require
from arbiter.core.game import Emitter as KernelEmitter
from arbiter.core.my_little_scythe.board import BASE, CASTLE, Board, board_of
from arbiter.core.my_little_scythe.commands import (
    Carry, ChooseAction, ClaimTrophy, Dial, Explore, Go, Keep, LeaveQuests, NoThanks, Place, QuestOption,
    Rejuvenate, Stay,
)
from arbiter.events import my_little_scythe as ev
from arbiter.events.base import Event
from arbiter.projections.my_little_scythe import PROJECTION, MSState, Player, region_name, stock

KINDS = ("apple", "gem")


class Emitter(KernelEmitter[MSState]):
    """The events one command decides, folded into ``state`` as they are emitted."""

    rng: Rng


# -- content helpers ---------------------------------------------------------------------

def board(s: MSState) -> Board:
    return board_of(s.content)


def spell_value(s: MSState, card: str) -> int:
    return next(c["value"] for c in s.content["spells"] if c["id"] == card)


def tile(s: MSState, tile_id: str) -> dict[str, Any]:
    return next(t for t in s.content["power_ups"] if t["id"] == tile_id)


def personality(s: MSState, card: str) -> dict[str, Any] | None:
    return next((c for c in s.content["personalities"] if c["id"] == card), None)


def trophy_requirement(s: MSState, trophy: str) -> int:
    return next(t["requirement"] for t in s.content["trophies"] if t["id"] == trophy)


def move_effects(s: MSState, seat: str) -> set[str]:
    t = s.players[seat].tiles.get("move")
    return {tile(s, t)["effect"]} if t else set()


def mat_actions(s: MSState, seat: str) -> list[dict[str, Any]]:
    """The action spaces on a player's mat, with a Make tile's action on the Make section.

    "If you decide to power up the Make section, your action token should be replaced with
    the Power Up action from your new tile" ("Craft"): the token moves from Power Up onto the
    tile's action, but Power Up stays on the mat, so the Move section can still be powered
    up ("To earn the 2 Power Ups trophy, you must have one Move Power Up tile and one Make
    Power Up tile"); house reading MS-H-MAKE-TILE, the mat not being printed."""
    out = list(s.content["mat"])
    make = s.players[seat].tiles.get("make")
    if make:
        t = tile(s, make)
        out.append({"id": t["action"]["id"], "section": "make", "name": t["name"], "kind": "exchange",
                    "pay": t["action"].get("pay", {}), "gain": t["action"].get("gain", {})})
    return out


def seeker_spaces(p: Player) -> list[str]:
    """The distinct spaces where a player's Seekers stand (base camp is not a space)."""
    out: list[str] = []
    for w in p.seekers:
        if w != BASE and w != CASTLE and w not in out:
            out.append(w)
    return out


def payment_spaces(s: MSState, seat: str) -> list[str]:
    """Where a Make action takes apples and gems from. "I snatch 2 apples from wherever my
    Seekers are hanging out" ("Craft"), yet the "Your Turn" example bakes on the first turn,
    when both Seekers are still at base camp: with base_camp_pays=front-spaces (the default)
    a Seeker at base camp reaches the spaces in front of it (which the setup tile filled),
    but not one where another player's Seeker stands: what lies there is in that Seeker's
    hands ("you might lose control over them", "Deliveries"; a resource placed there is a
    gift to that player, "Gaining Friendship")."""
    p = s.players[seat]
    out = seeker_spaces(p)
    if s.options.get("base_camp_pays", "no") == "front-spaces" and BASE in p.seekers:
        out += [x for x in board(s).neighbours(BASE, p.camp) if x not in out and not owner_of(s, x, seat)]
    return out


def owner_of(s: MSState, space: str, besides: str | None = None) -> str | None:
    """The opponent (not ``besides``) with a Seeker on ``space``."""
    for seat in s.seats:
        if seat != besides and space in s.players[seat].seekers:
            return seat
    return None


def clamp(s: MSState, track: str, value: int) -> int:
    t = s.content["tracks"][track]
    return max(t["min"], min(t["max"], value))


def move_track(c: Emitter, seat: str, track: str, delta: int, reason: str) -> None:
    """Tracks: pies stop at 10 ("the Pie Track, which can go up to 10", Craft), friendship never
    below 0 ("Quests")."""
    before = getattr(c.state.players[seat], track)
    after = clamp(c.state, track, before + delta)
    if after != before:
        c.emit(ev.TrackMoved(seat=seat, track=track, before=before, after=after, reason=reason))


# -- payments (Make and quests) ----------------------------------------------------------

def take_from_seekers(s: MSState, seat: str, cost: dict[str, int], source: str, rule: str,
                      what: str, make: bool = False) -> dict[str, dict[str, int]]:
    """Pay apples/gems "from any space where you have a Seeker" (``source`` first); a Make
    action may also pay from the spaces in front of the camp (option base_camp_pays)."""
    spaces = payment_spaces(s, seat) if make else seeker_spaces(s.players[seat])
    if source:
        require(source in spaces, "MS-PAY-FROM-SEEKER", f"{seat} has no Seeker on {source} to pay from")
        spaces = [source] + [x for x in spaces if x != source]
    taken: dict[str, dict[str, int]] = {}
    for kind in KINDS:
        need = cost.get(kind, 0)
        for space in spaces:
            if need <= 0:
                break
            n = min(need, stock(s, space, kind))
            if n:
                taken.setdefault(space, {})[kind] = n
                need -= n
        if need > 0:
            have = sum(stock(s, x, kind) for x in spaces)
            front = make and len(payment_spaces(s, seat)) > len(seeker_spaces(s.players[seat]))
            where = "their Seekers' spaces and those in front of their camp" if front else "their Seekers' spaces"
            raise RuleViolation(rule, f"{what} costs {cost[kind]} {kind}{'s' if cost[kind] != 1 else ''}"
                                     f" but {seat} has only {have} on {where}")
    return taken


def gain_rewards(c: Emitter, seat: str, gain: dict[str, int], on: str, reason: str) -> None:
    """Rewards: pies and friendship on the tracks, spells from the deck, apples and gems
    from the supply onto a space where the player has a Seeker (as many as remain)."""
    for track in ("pies", "friendship"):
        if gain.get(track):
            move_track(c, seat, track, gain[track], reason)
    for _ in range(gain.get("spell", 0)):
        if c.state.spell_deck:
            c.emit(ev.SpellDrawn(seat=seat, card=c.state.spell_deck[0], reason=reason))
    got = {k: min(gain.get(k, 0), c.state.supply.get(k, 0)) for k in KINDS if gain.get(k)}
    got = {k: n for k, n in got.items() if n}
    if got:
        c.emit(ev.ResourcesGained(seat=seat, space=on, gained=got, reason=reason))


# -- choosing an action ------------------------------------------------------------------

def choose_a_different_action(s: MSState, seat: str, action: str) -> dict[str, Any]:
    """"Put your action token on a different action than what you did last time" ("Your Turn")."""
    spaces = {a["id"]: a for a in mat_actions(s, seat)}
    if action not in spaces:
        raise RuleViolation("MS-ACTION-NOT-ON-MAT", f"{action} is not an action on {seat}'s mat")
    make = s.players[seat].tiles.get("make")
    tile_action = bool(make) and tile(s, make)["action"]["id"] == action
    require(s.players[seat].last_action != action, "MS-SAME-ACTION",
            f"{seat}'s action token is on {action} from their last turn; it must go on a different action"
            + (" (keeping a Make tile moves the token from Power Up onto the tile's action)" if tile_action else ""))
    return spaces[action]


def take_action(c: Emitter, seat: str, cmd: ChooseAction) -> None:
    s = c.state
    require(s.action is None, "MS-ONE-ACTION", f"{seat} has already taken an action this turn")
    a = choose_a_different_action(s, seat, cmd.action)
    require(not (cmd.pile and a["kind"] != "power-up"), "MS-ACTION-NOT-ON-MAT",
            f"{cmd.action} does not take a section")
    if a["kind"] == "move":
        require(not cmd.source, "MS-ACTION-NOT-ON-MAT", "Move costs nothing to pay from")
        c.emit(ev.ActionChosen(seat=seat, action=a["id"]))
    elif a["kind"] == "seek":
        require(not cmd.source, "MS-ACTION-NOT-ON-MAT", "Seek costs nothing to pay from")
        seek(c, seat, a)
    elif a["kind"] == "exchange":
        make_exchange(c, seat, a, cmd.source)
    else:
        power_up(c, seat, a, cmd.pile, cmd.source)


def seek(c: Emitter, seat: str, a: dict[str, Any]) -> None:
    """Seek: roll 4 dice; each die's face is the region where its token is found ("Seek")."""
    c.emit(ev.ActionChosen(seat=seat, action=a["id"]))
    c.emit(c.rng.roll(list(a["dice"]), purpose="seek"))


def gains_something(s: MSState, seat: str, gain: dict[str, int]) -> bool:
    """Whether an exchange would bring anything: a track not at its top ("the Pie Track,
    which can go up to 10"), a spell, or apples and gems left in the supply."""
    p = s.players[seat]
    return (any(gain.get(t) and getattr(p, t) < s.content["tracks"][t]["max"] for t in ("pies", "friendship"))
            or bool(gain.get("spell")) or any(gain.get(k) and s.supply.get(k, 0) for k in KINDS))


def make_exchange(c: Emitter, seat: str, a: dict[str, Any], source: str) -> None:
    """Make/Craft: Bake Pies (2 apples -> 2 pies), Spellcasting (2 gems -> 1 spell), or a
    Make tile's action ("Craft"). "I exchange resources to obtain something valuable": one that
    would gain nothing -- Bake Pies with the Pie Track at 10 -- is refused (house reading
    MS-H-BAKE-AT-TEN); at 9 the track goes to 10 and the second pie is lost."""
    s = c.state
    gain = a.get("gain", {})
    require(not (gain.get("spell") and len(s.spell_deck) < gain["spell"]), "MS-SPELL-DECK-EMPTY",
            "the magic spell deck is empty")
    top = s.content["tracks"]["pies"]["max"]
    full = f"{seat} has {s.players[seat].pies} pies and the Pie Track can go up to {top}: " if gain.get("pies") else ""
    require(gains_something(s, seat, gain), "MS-H-BAKE-AT-TEN", f"{full}{a['name']} would pay for nothing")
    taken = take_from_seekers(s, seat, a.get("pay", {}), source, "MS-PAY-NOT-ENOUGH", a["name"], make=True)
    c.emit(ev.ActionChosen(seat=seat, action=a["id"]))
    if taken:
        c.emit(ev.ResourcesPaid(seat=seat, taken=taken, reason=a["id"]))
    gain_rewards(c, seat, gain, "", a["id"])


def power_up(c: Emitter, seat: str, a: dict[str, Any], pile: str, source: str) -> None:
    """Power Up: pay 1 apple and 1 gem, look at the top 3 tiles of a pile ("Power Up")."""
    s = c.state
    require(pile in ("move", "make"), "MS-POWERUP-SECTION",
            "Seek cannot be powered up: power up the Move or the Make section")
    require(pile not in s.players[seat].tiles, "MS-POWERUP-ONE-PER-SECTION",
            f"{seat}'s {pile} section already has a power-up tile")
    require(s.piles.get(pile), "MS-POWERUP-PILE-EMPTY", f"the {pile} power-up pile is empty")
    taken = take_from_seekers(s, seat, a["pay"], source, "MS-PAY-NOT-ENOUGH", "Power Up", make=True)
    c.emit(ev.ActionChosen(seat=seat, action=a["id"]))
    c.emit(ev.ResourcesPaid(seat=seat, taken=taken, reason="power-up"))
    c.emit(ev.PowerUpLooked(seat=seat, pile=pile, tiles=c.state.piles[pile][:3]))


def keep_power_up(c: Emitter, seat: str, cmd: Keep) -> None:
    """Keep 1 of the tiles looked at; the rest go face down to the bottom ("Power Up")."""
    s = c.state
    require(s.look, "MS-POWERUP-KEEP", "no power-up tiles are being looked at")
    require(cmd.tile in s.look, "MS-POWERUP-KEEP", f"{cmd.tile} is not among the tiles {seat} looked at")
    c.emit(ev.PowerUpTaken(seat=seat, pile=s.look_pile, tile=cmd.tile, returned=len(s.look) - 1))


# -- Move --------------------------------------------------------------------------------

def check_seeker_may_move(s: MSState, seat: str, seeker: int) -> None:
    require(not (s.action != "move" or not s.moving and not s.delivery), "MS-MOVE-NOT-NOW",
            "Seekers move only during a Move action")
    require(seeker in s.moving, "MS-SEEKER-MOVED", f"{seat}'s Seeker {seeker} has already moved this turn")
    if s.delivery is not None:
        raise RuleViolation("MS-DELIVERY-SPLIT",
                            f"{seat} has {s.delivery.count} of {s.delivery.need} {s.delivery.kind}s at Castle"
                            f" Everfree: Seeker {seeker} must carry the rest there this turn")


def walk(s: MSState, seat: str, start: str, path: tuple[str, ...], reach: int, carrying: bool) -> None:
    """Each step goes to an adjacent space (portals are adjacent to each other); a Seeker
    stops on an opponent's Seeker ("Moving my Seekers", "Portals", "Pie Fight")."""
    b = board(s)
    p = s.players[seat]
    if not 1 <= len(path) <= reach:
        how = "carrying resources" if carrying else "without carrying"
        raise RuleViolation("MS-MOVE-RANGE", f"a Seeker {how} moves up to {reach} space{'s' if reach > 1 else ''}")
    here = start
    portal_entry = "portal-entry" in move_effects(s, seat)
    for i, step in enumerate(path):
        require(step != CASTLE, "MS-CASTLE-DELIVERY-ONLY",
                "Castle Everfree may be entered only to complete a delivery")
        if step not in b.neighbours(here, p.camp, portal_entry):
            where = "base camp" if here == BASE else here
            raise RuleViolation("MS-MOVE-ADJACENT", f"the Seeker is on {step} already; a step goes to an adjacent"
                                " space (`stay` keeps a Seeker where it is)" if step == here
                                else f"{step} is not adjacent to {where}")
        require(not (i < len(path) - 1 and owner_of(s, step, seat)), "MS-MOVE-STOP-OPPONENT",
                f"a Seeker moving onto {owner_of(s, step, seat)}'s Seeker on {step} must stop there")
        here = step


def move_without_carrying(c: Emitter, seat: str, cmd: Go) -> None:
    """Move up to 2 spaces without carrying ("Moving my Seekers", option 1)."""
    s = c.state
    check_seeker_may_move(s, seat, cmd.seeker)
    start = s.players[seat].seekers[cmd.seeker - 1]
    reach = 3 if "unladen-range" in move_effects(s, seat) else 2
    walk(s, seat, start, cmd.path, reach, False)
    c.emit(ev.SeekerMoved(seat=seat, seeker=cmd.seeker, path=(start,) + cmd.path))
    after_step(c, seat, cmd.path[-1])


def move_carrying(c: Emitter, seat: str, cmd: Carry) -> None:
    """Move 1 space carrying any apples/gems on the Seeker's space ("Moving my Seekers", option 2)."""
    s = c.state
    if s.delivery is not None and cmd.seeker in s.moving and cmd.path and cmd.path[-1] == CASTLE:
        return deliver(c, seat, cmd)
    check_seeker_may_move(s, seat, cmd.seeker)
    start = s.players[seat].seekers[cmd.seeker - 1]
    require(start != BASE, "MS-CARRY-NOTHING", "a Seeker at base camp has nothing to carry (use `go`)")
    require(cmd.apples + cmd.gems != 0, "MS-CARRY-NOTHING",
            "say what the Seeker carries, e.g. `2 apples`, or move with `go`")
    for kind, n in (("apple", cmd.apples), ("gem", cmd.gems)):
        require(n <= stock(s, start, kind), "MS-CARRY-NOT-THERE",
                f"there are only {stock(s, start, kind)} {kind}s on {start}")
    if cmd.path[-1] == CASTLE:
        return deliver(c, seat, cmd)
    reach = 2 if "carry-range" in move_effects(s, seat) else 1
    walk(s, seat, start, cmd.path, reach, True)
    carried = {k: n for k, n in (("apple", cmd.apples), ("gem", cmd.gems)) if n}
    c.emit(ev.SeekerMoved(seat=seat, seeker=cmd.seeker, path=(start,) + cmd.path, carried=carried))
    after_step(c, seat, cmd.path[-1])


def delivery_need(s: MSState, seat: str, kind: str) -> tuple[int, int | None]:
    """Exactly 4 apples or 4 gems ("Deliveries"); a personality card may lower it (house cards):
    returns (the rulebook's need, the card's need or None when the card does not apply)."""
    trophy = f"{kind}-delivery"
    need = trophy_requirement(s, trophy)
    card = personality(s, s.players[seat].personality)
    if card and card["trophy"] == trophy and trophy not in s.players[seat].trophies:
        return need, card["requirement"]
    return need, None


def castle_paths(s: MSState, seat: str, start: str) -> list[tuple[str, ...]]:
    """How a carrying Seeker enters Castle Everfree: one step from an inner space or a portal,
    or two steps with a carry-range tile (Supply Catapult), not through an opponent ("Deliveries")."""
    b = board(s)
    if start in (BASE, CASTLE):
        return []
    out: list[tuple[str, ...]] = [(CASTLE,)] if start in b.adjacent[CASTLE] else []
    if "carry-range" in move_effects(s, seat):
        for mid in b.adjacent[start]:
            if mid != CASTLE and CASTLE in b.adjacent[mid] and not owner_of(s, mid, seat):
                out.append((mid, CASTLE))
    return out


def deliver(c: Emitter, seat: str, cmd: Carry) -> None:
    """Deliveries: exactly 4 apples or 4 gems reach Castle Everfree in one turn, maybe split
    between both Seekers; the delivery happens at once, extras stay on their space ("Deliveries")."""
    s = c.state
    b = board(s)
    if cmd.seeker not in s.moving or s.action != "move":
        check_seeker_may_move(s, seat, cmd.seeker)
    start = s.players[seat].seekers[cmd.seeker - 1]
    require(start != BASE, "MS-CARRY-NOTHING", "a Seeker at base camp has nothing to deliver")
    for kind, n in (("apple", cmd.apples), ("gem", cmd.gems)):
        require(n <= stock(s, start, kind), "MS-CARRY-NOT-THERE",
                f"there are only {stock(s, start, kind)} {kind}s on {start}")
    require(not (cmd.apples and cmd.gems or not (cmd.apples or cmd.gems)), "MS-DELIVERY-ONE-KIND",
            "a delivery is of apples or of gems: carry one kind to the castle")
    require(tuple(cmd.path) in castle_paths(s, seat, start), "MS-MOVE-ADJACENT",
            f"a carrying Seeker reaches Castle Everfree in one step from the inner spaces and portals"
            f" (two with a carry-range tile); not by {' -> '.join((start,) + tuple(cmd.path))}")
    kind = "apple" if cmd.apples else "gem"
    count = cmd.apples or cmd.gems
    pending = s.delivery
    if pending is not None and pending.kind != kind:
        raise RuleViolation("MS-DELIVERY-ONE-KIND", f"the delivery under way is of {pending.kind}s")
    full, lowered = delivery_need(s, seat, kind)
    revealed = s.players[seat].personality_revealed
    require(not (cmd.reveal and lowered is None), "MS-PERSONALITY",
            f"{seat}'s personality card does not lower the {kind} delivery")
    forced = personality_mandatory(s) and (pending.count if pending else 0) + count < full
    use_card = lowered is not None and (revealed or cmd.reveal or forced)
    need = lowered if use_card and lowered is not None else full
    card = s.players[seat].personality if use_card else None
    least = lowered if lowered is not None else full  # what the other Seeker could still make up
    have = pending.count if pending else 0
    used = min(count, need - have)
    extras = count - used
    require(not (extras and s.options.get("delivery_extras") == "refuse"), "MS-DELIVERY-EXACT",
            f"a delivery is exactly {need} {kind}s; {have + count} would be too many")
    if have + used < need:
        other = 2 if cmd.seeker == 1 else 1
        ospace = s.players[seat].seekers[other - 1]
        # both Seekers on one space share its stock: what this one carries is gone from it
        left = stock(s, ospace, kind) - (used if ospace == start else 0)
        can_finish = (pending is None and other in s.moving and bool(castle_paths(s, seat, ospace))
                      and left >= min(need, least) - have - used)
        hint = (" (add `reveal` to play your personality card)"
                if lowered is not None and not use_card and have + used >= lowered else "")
        require(can_finish, "MS-DELIVERY-EXACT",
                f"a delivery is exactly {need} {kind}s in one turn; {have + used} would reach the castle{hint}")
    c.emit(ev.SeekerMoved(seat=seat, seeker=cmd.seeker, path=(start,) + tuple(cmd.path), carried={kind: used}))
    if have + used < need:
        c.emit(ev.DeliveryStarted(seat=seat, kind=kind, count=have + used, need=need if revealed else full,
                                  origin=start))
        return
    if card and not c.state.players[seat].personality_revealed:
        c.emit(ev.PersonalityRevealed(seat=seat, card=card, trophy=f"{kind}-delivery"))
    c.emit(ev.DeliveryMade(seat=seat, kind=kind, count=need, extras_left={start: {kind: extras}} if extras else {}))
    if c.state.options.get("delivery_trophy", "end-of-turn") == "at-once":
        delivery_trophy_at_once(c, seat, f"{kind}-delivery")
    teleport_home(c, seat)


def delivery_trophy_at_once(c: Emitter, seat: str, trophy: str) -> None:
    """"When you complete a delivery onto the Castle Everfree space, put one of your trophies
    on the corresponding level of the trophy track" ("Deliveries"), read as placing it then,
    within the one-trophy-a-turn limit and the friendship floor (option delivery_trophy)."""
    s = c.state
    met = dict(qualified_trophies(s, seat))
    if trophy in met and (s.trophies_this_turn == 0 or s.final):
        earn(c, seat, trophy, met[trophy])


def teleport_home(c: Emitter, seat: str) -> None:
    """After a delivery the Seekers at the castle return to base camp ("Deliveries")."""
    at = tuple(i + 1 for i, w in enumerate(c.state.players[seat].seekers) if w == CASTLE)
    c.emit(ev.SeekersSentHome(seat=seat, seekers=at, reason="delivery"))
    owe_rejuvenation(c, seat)


def owe_rejuvenation(c: Emitter, seat: str) -> None:
    """Back at base camp: rejuvenate once a turn ("Base Camps")."""
    p = c.state.players[seat]
    if not p.rejuvenated and seat not in c.state.rejuv:
        c.emit(ev.RejuvenationOwed(seat=seat))


def stay(c: Emitter, seat: str, cmd: Stay) -> None:
    """A Seeker may stay where it is during a Move action (house reading MS-H-STAY)."""
    check_seeker_may_move(c.state, seat, cmd.seeker)
    c.emit(ev.SeekerStayed(seat=seat, seeker=cmd.seeker))


def after_step(c: Emitter, seat: str, space: str) -> None:
    """Moving onto an opponent's Seeker means a pie fight: at once, or once both Seekers have
    moved (option pie_fight_timing; "Pie Fight", "Quests")."""
    defender = owner_of(c.state, space, seat)
    if defender is None:
        return
    if c.state.options.get("pie_fight_timing", "after-moving") == "after-moving":
        if space not in c.state.pending_fights:
            c.emit(ev.PieFightPending(attacker=seat, defender=defender, space=space))
            if friendship_lost_on_moving(c.state):
                move_track(c, seat, "friendship", -1, "attacking in a pie fight")
        return
    start_pie_fight(c, seat, space)


def friendship_lost_on_moving(s: MSState) -> bool:
    """"When I attack another player, I will lose 1 friendship point right away" ("Pie
    Fight"): by default when the fight begins (the first step of resolving it); with
    attack_friendship=on-moving as the Seeker moves onto the opponent, before the fight that
    waits for the other Seeker to move."""
    return (s.options.get("attack_friendship", "fight-start") == "on-moving"
            and s.options.get("pie_fight_timing", "after-moving") == "after-moving")


def start_pie_fight(c: Emitter, seat: str, space: str) -> None:
    """The pie fight begins: the attacker loses 1 friendship right away ("Pie Fight")."""
    defender = owner_of(c.state, space, seat)
    if defender is None or space not in c.state.players[seat].seekers:
        c.emit(ev.PieFightCalledOff(space=space))  # one side has already left the space
        return
    c.emit(ev.PieFightStarted(attacker=seat, defender=defender, space=space))
    if not friendship_lost_on_moving(c.state):
        move_track(c, seat, "friendship", -1, "attacking in a pie fight")


# -- Pie fights --------------------------------------------------------------------------

def set_dial(c: Emitter, seat: str, cmd: Dial) -> None:
    """Each side secretly dials 0-7 pies, no more than they hold, and may clip spells ("Pie
    Fight"): any number from their hand (house reading MS-H-DIAL-SPELLS)."""
    s = c.state
    f = s.fight
    require(not (f is None or seat not in (f.attacker, f.defender)), "MS-DIAL-NOT-NOW",
            f"{seat} is not in a pie fight")
    require(seat not in f.pies, "MS-DIAL-NOT-NOW", f"{seat} has already set the dial")
    top = s.content["dial_max"]
    p = s.players[seat]
    require(0 <= cmd.pies <= top, "MS-DIAL-RANGE", f"the pie fight dial runs from 0 to {top}")
    require(cmd.pies <= p.pies, "MS-DIAL-PIES", f"{seat} has only {p.pies} pies to throw")
    require(not (len(set(cmd.spells)) != len(cmd.spells) or any(x not in p.spells for x in cmd.spells)), "MS-DIAL-SPELL",
            f"{seat} may clip only magic spells in their own hand, each once")
    c.emit(ev.DialSet(seat=seat, pies=cmd.pies, spells=tuple(cmd.spells)))


def resolve_pie_fight(c: Emitter) -> None:
    """Reveal together; higher score wins, ties to the attacker; the loser goes home leaving
    resources; both pay their pies; spells are discarded ("Pie Fight")."""
    s = c.state
    f = s.fight
    assert f is not None
    scores = {x: f.pies[x] + sum(spell_value(s, k) for k in f.spells[x]) for x in (f.attacker, f.defender)}
    win, lose = ((f.attacker, f.defender) if scores[f.attacker] >= scores[f.defender]
                 else (f.defender, f.attacker))
    c.emit(ev.PieFightRevealed(attacker=f.attacker, defender=f.defender, space=f.space, pies=dict(f.pies),
                               spells=dict(f.spells), scores=scores, attacker_score=scores[f.attacker],
                               defender_score=scores[f.defender], winner=win, loser=lose))
    for x in (f.attacker, f.defender):
        if f.pies[x]:
            move_track(c, x, "pies", -f.pies[x], "pies thrown")
        if f.spells[x]:
            c.emit(ev.SpellsDiscarded(seat=x, cards=f.spells[x]))
    home = tuple(i + 1 for i, w in enumerate(c.state.players[lose].seekers) if w == f.space)
    c.emit(ev.SeekersSentHome(seat=lose, seekers=home, reason="pie-fight"))
    pie_fight_victory(c, win, None)
    owe_rejuvenation(c, lose)
    tie = scores[f.attacker] == scores[f.defender]
    card = personality(c.state, c.state.players[f.defender].personality)
    stubborn = bool(card and card["trophy"] == "pie-fight")
    if tie and lose == f.defender and may_win_pie_fight(c.state, lose):
        if c.state.players[lose].personality_revealed or personality_mandatory(c.state):
            if stubborn:
                pie_fight_victory(c, lose, card["id"] if card else None)
        else:
            # the defender "can reveal" a card that turns the tie into a trophy. Every defender
            # with a secret card who loses a tie is asked (most can only pass), so that the
            # question itself tells the other players nothing about the card.
            offer_trophies(c, lose, [("pie-fight", card["id"] if card else None)] if stubborn else [],
                           optional=True)


def may_earn_trophy(s: MSState, seat: str) -> bool:
    """Four trophies at most; none while friendship is below 3 ("Low Friendship")."""
    p = s.players[seat]
    return len(p.trophies) < s.content["trophies_per_player"] and p.friendship >= s.content["trophy_min_friendship"]


def may_win_pie_fight(s: MSState, seat: str) -> bool:
    """Not held yet, room on the mat, and friendship 3+ unless the option says otherwise."""
    p = s.players[seat]
    if "pie-fight" in p.trophies or len(p.trophies) >= s.content["trophies_per_player"]:
        return False
    low = p.friendship < s.content["trophy_min_friendship"]
    if low and s.options.get("low_friendship_blocks_pie_fight", True):
        return False
    return not (pie_fight_counts(s, seat) and s.trophies_this_turn >= 1 and not s.final)


def pie_fight_counts(s: MSState, seat: str) -> bool:
    """"On your turn, you can only earn one trophy ... The Pie Fight Victory trophy is an
    exception - you can earn it even outside of your turn" ("The Importance of Trophies"): by
    default it never counts against the limit; with pie_fight_limit=own-turn the exception is
    only its timing, and a fight won on your own turn is that turn's trophy."""
    return s.options.get("pie_fight_limit", "exception") == "own-turn" and seat == s.active


def pie_fight_victory(c: Emitter, seat: str, card: str | None) -> None:
    """The Pie Fight Victory trophy may be earned any time, also on another's turn ("Trophies")."""
    s = c.state
    if not may_win_pie_fight(s, seat):
        return
    p = s.players[seat]
    if card and not p.personality_revealed:
        c.emit(ev.PersonalityRevealed(seat=seat, card=card, trophy="pie-fight"))
    c.emit(ev.TrophyEarned(seat=seat, trophy="pie-fight", turn=s.turn, personality=card))


def rejuvenate(c: Emitter, seat: str, cmd: Rejuvenate) -> None:
    """Rejuvenate: 1 magic spell or 2 pies, and the action token leaves the mat ("Base Camps")."""
    s = c.state
    require(not (not s.rejuv or s.rejuv[0] != seat), "MS-REJUVENATE-NOT-NOW",
            f"{seat} has nothing to rejuvenate from now")
    if cmd.choice == "spell":
        require(s.spell_deck, "MS-SPELL-DECK-EMPTY", "the magic spell deck is empty: take 2 pies")
        c.emit(ev.SpellDrawn(seat=seat, card=s.spell_deck[0], reason="rejuvenate"))
    else:
        move_track(c, seat, "pies", 2, "rejuvenate")
    c.emit(ev.Rejuvenated(seat=seat, choice=cmd.choice))


# -- Seek placement ----------------------------------------------------------------------

def placement_spaces(s: MSState, kind: str, region: str) -> list[str]:
    """Apples and gems go anywhere in the region; quest tokens only on a space with no quest
    token and no Seekers; never on portals ("Seek")."""
    out = []
    for space in board(s).in_region.get(region, ()):
        if kind == "quest" and (stock(s, space, "quest") or owner_of(s, space)):
            continue
        out.append(space)
    return out


def place_token(c: Emitter, seat: str, cmd: Place) -> None:
    s = c.state
    require(s.seek, "MS-SEEK-NOT-NOW", "there is no token to place")
    kind, region = s.seek[0]
    b = board(s)
    require(not (b.is_portal(cmd.space) or cmd.space == CASTLE), "MS-SEEK-PORTAL",
            f"tokens are never placed on portals or the castle ({cmd.space})")
    require(b.region_of[cmd.space] == region, "MS-SEEK-REGION",
            f"the {kind} was found in the {region_name(region, s.content)}; {cmd.space} is in the"
            f" {region_name(b.region_of[cmd.space], s.content)}")
    who = [x for x in s.seats if cmd.space in s.players[x].seekers]
    why = "a quest token is already there" if stock(s, cmd.space, "quest") else f"{' and '.join(who)}'s Seeker stands there"
    require(cmd.space in placement_spaces(s, kind, region), "MS-SEEK-QUEST-SPACE",
            f"a quest token needs a space with no quest token and no Seekers, and on {cmd.space} {why}")
    friend = owner_of(s, cmd.space, seat) if kind in KINDS else None
    c.emit(ev.TokenPlaced(seat=seat, kind=kind, region=region, space=cmd.space, gift_to=friend))
    if friend:
        move_track(c, seat, "friendship", 1, f"a gift to {friend}")


def skip_unplaceable(c: Emitter) -> bool:
    """Exhausted supplies and full regions: the token is not placed ("Seek"); the tokens come
    up in the order of the dice (house MS-H-SEEK-ORDER), so a supply that runs out during the
    placing skips the later ones."""
    s = c.state
    kind, region = s.seek[0]
    if s.supply.get(kind, 0) <= 0:
        c.emit(ev.TokenSkipped(seat=s.active or "", kind=kind, region=region, reason=f"no {kind} tokens left in the supply",
                                      turn=s.turn))
        return True
    if not placement_spaces(s, kind, region):
        c.emit(ev.TokenSkipped(seat=s.active or "", kind=kind, region=region, reason="no space in the region may take it",
                                      turn=s.turn))
        return True
    return False


# -- Quests ------------------------------------------------------------------------------

def quest_spaces_after_moving(s: MSState, seat: str) -> tuple[str, ...]:
    """After moving and pie fights, quest tokens under the player's Seekers ("Quests")."""
    return tuple(x for x in seeker_spaces(s.players[seat]) if stock(s, x, "quest"))


def draw_quest(c: Emitter, seat: str, space: str) -> None:
    """Take the token and draw a quest; an empty deck is rebuilt from the quest cards of
    players holding the 2 Quests trophy ("Quests")."""
    c.emit(ev.QuestTokenTaken(seat=seat, space=space))
    if not c.state.quest_deck:
        rebuild_quest_deck(c, always=True)
    if c.state.quest_deck:
        c.emit(ev.QuestDrawn(seat=seat, card=c.state.quest_deck[0], space=space))
        if not c.state.quest_deck and c.state.options.get("quest_rebuild", "on-draw") == "when-empty":
            rebuild_quest_deck(c, always=False)


def rebuild_quest_deck(c: Emitter, always: bool) -> None:
    """"If the Quest deck is empty, I immediately gather quest cards from players who have
    completed the '2 Quests' trophy" ("Quests"): by default when a draw finds the deck empty
    (the drawing player gathers); with quest_rebuild=when-empty also the moment the last card is
    drawn (nothing is recorded then when no one holds the trophy)."""
    holders = tuple(x for x in c.state.seats if "quests-2" in c.state.players[x].trophies
                    and c.state.players[x].quests)
    cards = tuple(k for x in holders for k in c.state.players[x].quests)
    if not cards and not always:
        return
    c.emit(ev.QuestDeckRebuilt(cards=cards, taken_from=holders))
    if cards:
        c.emit(c.rng.shuffle("quests", cards))


def explore(c: Emitter, seat: str, cmd: Explore) -> None:
    """If both Seekers have quests, the player chooses which to look at first ("Quests")."""
    s = c.state
    require(not (s.quest_card or cmd.space not in s.quest_spaces), "MS-QUEST-NOT-NOW",
            f"there is no quest waiting for {seat} on {cmd.space}")
    draw_quest(c, seat, cmd.space)


def quest_card(s: MSState, card: str) -> dict[str, Any]:
    return next(q for q in s.content["quests"] if q["id"] == card)


def resolve_quest(c: Emitter, seat: str, cmd: QuestOption) -> None:
    """Pick option 1 or 2: pay from Seeker spaces, pay another player onto their Seeker's
    space, gain onto a Seeker's space; friendship stays at 0 at worst ("Quests"); pies are
    paid in full or the option is refused (house reading MS-H-QUEST-PIES)."""
    s = c.state
    require(s.quest_card, "MS-QUEST-NOT-NOW", "there is no quest card to resolve")
    card = quest_card(s, s.quest_card)
    require(1 <= cmd.option <= len(card["options"]), "MS-QUEST-OPTION",
            f"{card['name']} has options 1 and {len(card['options'])}, or say No Thanks")
    opt = card["options"][cmd.option - 1]
    p = s.players[seat]
    spaces = seeker_spaces(p)
    for track, n in opt.get("lose", {}).items():
        require(not (track == "pies" and p.pies < n), "MS-H-QUEST-PIES",
                f"{card['name']} option {cmd.option} costs {n} pies; {seat} has {p.pies}")
    pay = take_from_seekers(s, seat, opt.get("pay", {}), cmd.source, "MS-QUEST-CANNOT-PAY",
                            f"{card['name']} option {cmd.option}")
    give = opt.get("give", {})
    to_space, to_seat = "", ""
    if give:
        targets = [x for x in board(s).ids if owner_of(s, x, seat)]
        if cmd.to:
            require(cmd.to in targets, "MS-QUEST-PAY-OTHER", f"no other player's Seeker stands on {cmd.to}")
            to_space = cmd.to
        elif targets:
            to_space = targets[0]
        else:
            raise RuleViolation("MS-QUEST-PAY-OTHER", "no other player has a Seeker on the map to be paid")
        to_seat = owner_of(s, to_space, seat) or ""
        # what is paid to another player comes from the Seeker spaces too, after any "pay"
        after = s
        if pay:
            after = PROJECTION.evolve(s, ev.ResourcesPaid(seat=seat, taken=pay))
        gtaken = take_from_seekers(after, seat, give, cmd.source, "MS-QUEST-CANNOT-PAY",
                                   f"{card['name']} option {cmd.option}")
    elif cmd.to:
        raise RuleViolation("MS-QUEST-PAY-OTHER", f"{card['name']} option {cmd.option} pays no other player")
    on = cmd.on
    gains = opt.get("gain", {})
    if any(gains.get(k) for k in KINDS):
        require(not (on and on not in spaces), "MS-QUEST-PLACE-SEEKER",
                f"rewards go on a space where {seat} has a Seeker, not {on}")
        on = on or (spaces[0] if spaces else "")
        require(on, "MS-QUEST-PLACE-SEEKER", f"{seat} has no Seeker on the map to receive the reward")
    elif on:
        raise RuleViolation("MS-QUEST-PLACE-SEEKER", f"{card['name']} option {cmd.option} places no apples or gems")
    if pay:
        c.emit(ev.ResourcesPaid(seat=seat, taken=pay, reason=card["id"]))
    if give:
        c.emit(ev.ResourcesMoved(seat=seat, taken=gtaken, to_space=to_space, to_seat=to_seat, reason=card["id"]))
    for track, n in opt.get("lose", {}).items():
        move_track(c, seat, track, -n, card["id"])
    gain_rewards(c, seat, gains, on, card["id"])
    c.emit(ev.QuestResolved(seat=seat, card=card["id"], option=cmd.option))


def no_thanks(c: Emitter, seat: str) -> None:
    """"No Thanks": the quest is not resolved and goes to the bottom of the deck ("Quests")."""
    require(c.state.quest_card, "MS-QUEST-NOT-NOW", "there is no quest card to refuse")
    c.emit(ev.QuestDeclined(seat=seat, card=c.state.quest_card))


# -- Trophies ----------------------------------------------------------------------------

def qualified_trophies(s: MSState, seat: str) -> list[tuple[str, str | None]]:
    """Trophies the player meets now (with the personality card that lowers one), pie fight aside."""
    if not may_earn_trophy(s, seat):
        return []
    p = s.players[seat]
    card = personality(s, p.personality)
    value = {
        "friendship-8": p.friendship, "pies-8": p.pies, "spells-3": len(p.spells),
        "quests-2": len(p.quests), "power-ups-2": len(p.tiles),
    }
    out: list[tuple[str, str | None]] = []
    for t in s.content["trophies"]:
        tid = t["id"]
        if tid in p.trophies or tid == "pie-fight":
            continue
        if tid in ("apple-delivery", "gem-delivery"):
            if tid.split("-")[0] in s.delivered:
                used = card["id"] if card and card["trophy"] == tid and p.personality_revealed else None
                out.append((tid, used))
            continue
        v = value[tid]
        if tid == "power-ups-2":
            full = "move" in p.tiles and "make" in p.tiles
            if full:
                out.append((tid, None))
            elif card and card["trophy"] == tid and v >= card["requirement"]:
                out.append((tid, card["id"]))
            continue
        if v >= t["requirement"]:
            out.append((tid, None))
        elif card and card["trophy"] == tid and v >= card["requirement"]:
            out.append((tid, card["id"]))
    return out


def earn(c: Emitter, seat: str, trophy: str, card: str | None) -> None:
    if card and not c.state.players[seat].personality_revealed:
        c.emit(ev.PersonalityRevealed(seat=seat, card=card, trophy=trophy))
    c.emit(ev.TrophyEarned(seat=seat, trophy=trophy, turn=c.state.turn, personality=card))


def needs_reveal(s: MSState, seat: str, card: str | None) -> bool:
    """A trophy met only through a personality card still secret: the player "can reveal" it."""
    return card is not None and not s.players[seat].personality_revealed


def personality_mandatory(s: MSState) -> bool:
    """"If your personality card reduces the requirements for a specific trophy, you can reveal
    the card" ("Personality Cards") against "If you meet the requirements for a trophy ..., you
    have to place a trophy token" ("The Importance of Trophies"): by default the card is the
    player's to play (optional); personality_trophy=mandatory counts a requirement met through
    the card as met, so the card is revealed and the trophy placed."""
    return s.options.get("personality_trophy", "optional") == "mandatory"


def offer_trophies(c: Emitter, seat: str, q: list[tuple[str, str | None]], optional: bool) -> None:
    reveal = tuple(t for t, card in q if needs_reveal(c.state, seat, card))
    choices = tuple(t for t, _ in q if t not in reveal) + reveal  # the ones met outright first
    c.emit(ev.TrophyChoiceOffered(seat=seat, choices=choices, reveal=reveal, optional=optional))


def claim_trophy(c: Emitter, seat: str, cmd: ClaimTrophy) -> None:
    """Qualifying for several trophies, the player chooses one ("Trophy Limit"); a trophy met
    only through the personality card is taken by revealing it, or passed ("Personality Cards")."""
    s = c.state
    wanted = (cmd.trophy,) + cmd.more
    p = s.players[seat]
    require(len(set(wanted)) == len(wanted), "MS-TROPHY-ONCE",
            f"each trophy is earned once: {seat} names {', '.join(wanted)}")
    if s.trophy_seat != seat:
        first = next((t for t in wanted if t in p.trophies), None)
        require(first is None, "MS-TROPHY-NOT-QUALIFIED", f"{seat} already has the {first} trophy; each is earned once")
        require(p.friendship >= s.content["trophy_min_friendship"], "MS-TROPHY-LOW-FRIENDSHIP",
                f"{seat}'s friendship is {p.friendship}: below 3 no trophy can be earned")
        require(not (s.trophies_this_turn >= 1 and seat == s.active and not s.final), "MS-TROPHY-ONE-A-TURN",
                f"{seat} has already earned a trophy this turn; until the grand finale one trophy a turn")
        raise RuleViolation("MS-TROPHY-NOT-NOW",
                            "trophies are placed at the end of your own turn, when you qualify (the"
                            " Pie Fight Victory at once, when you win the fight)")
    if cmd.trophy == "none":
        require(s.trophy_optional, "MS-TROPHY-MANDATORY",
                f"{seat} meets {', '.join(t for t in s.trophy_choices if t not in s.trophy_reveal)} and must"
                " place a trophy (choose one)")
        c.emit(ev.TrophyDeclined(seat=seat, trophies=s.trophy_choices))
        return
    for t in wanted:
        require(t in s.trophy_choices, "MS-TROPHY-NOT-QUALIFIED",
                f"{seat} does not qualify for {t} now ("
                + (f"choices: {', '.join(s.trophy_choices)})" if s.trophy_choices else "nothing to claim: `trophy none`)"))
    slots = s.content["trophies_per_player"] - len(p.trophies)
    if len(wanted) > 1:
        require(s.final and seat == s.active, "MS-TROPHY-ONE-A-TURN",
                f"until the grand finale {seat} earns one trophy a turn: choose one of"
                f" {', '.join(wanted)}; the others wait for a later turn (if still met)")
        require(len(wanted) <= slots, "MS-TROPHY-FOUR",
                f"{seat} has room for {slots} more troph{'y' if slots == 1 else 'ies'} (four in all)")
    ptrophy = (personality(s, p.personality) or {}).get("trophy")
    require(not (cmd.reveal and ptrophy not in wanted), "MS-PERSONALITY",
            f"{seat}'s personality card lowers none of {', '.join(wanted)}")
    cards = dict(qualified_trophies(s, seat))
    for t in wanted:
        card = cards.get(t)
        if t == "pie-fight" or (cmd.reveal and t == ptrophy):
            card = p.personality
        if t == "pie-fight":
            pie_fight_victory(c, seat, card)
        else:
            earn(c, seat, t, card)


def trophies_at_end_of_turn(c: Emitter, seat: str) -> bool:
    """One trophy a turn (any number on a grand-finale final turn), mandatory when qualified,
    the player choosing among several; one met only through the secret personality card is the
    player's to take or pass; returns True when the player must decide ("Trophy Limit",
    "Personality Cards", "Grand Finale")."""
    s = c.state
    q = [(t, card) for t, card in qualified_trophies(s, seat) if t not in s.declined]
    if not q:
        return False
    mandatory = personality_mandatory(s)
    must = [(t, card) for t, card in q if mandatory or not needs_reveal(s, seat, card)]
    may = [(t, card) for t, card in q if not mandatory and needs_reveal(s, seat, card)]
    slots = s.content["trophies_per_player"] - len(s.players[seat].trophies)
    if s.final:
        if len(must) > slots:
            offer_trophies(c, seat, q, optional=False)
            return True
        for t, card in must:
            earn(c, seat, t, card)
        if not may or slots <= len(must):
            return False
        offer_trophies(c, seat, may, optional=True)
        return True
    if s.trophies_this_turn >= 1:
        return False
    if len(must) == 1 and not may:
        earn(c, seat, *must[0])
        return False
    offer_trophies(c, seat, q, optional=not must)
    return True


# -- the flow of a turn ------------------------------------------------------------------

def advance(c: Emitter) -> None:  # noqa: C901 - the order of a turn
    """Play the automatic steps until a seat owes a decision."""
    for _ in range(1000):
        s = c.state
        if s.ended:
            return
        if s.fight is not None:
            if len(s.fight.pies) == 2:
                resolve_pie_fight(c)
                continue
            return
        if s.trophy_seat and not s.rejuv:
            return
        if s.rejuv:
            seat = s.rejuv[0]
            if not s.spell_deck:
                move_track(c, seat, "pies", 2, "rejuvenate")
                c.emit(ev.Rejuvenated(seat=seat, choice="pies"))
                continue
            return
        if s.seek:
            if skip_unplaceable(c):
                continue
            return
        if s.look or s.moving or s.quest_card or s.trophy_seat:
            return
        a = s.active
        if a is None or s.action is None:
            return
        if s.pending_fights:
            start_pie_fight(c, a, s.pending_fights[0])
            continue
        if s.action == "move" and not s.quests_checked:
            if "move-friendship" in move_effects(s, a):
                move_track(c, a, "friendship", 1, "Friendly Parade power-up")
            c.emit(ev.QuestsPending(seat=a, spaces=quest_spaces_after_moving(s, a)))
            continue
        if s.quest_spaces:
            if len(s.quest_spaces) == 1 and s.options.get("quest_draw", "choose") == "automatic":
                draw_quest(c, a, s.quest_spaces[0])
                continue
            return
        if trophies_at_end_of_turn(c, a):
            return
        end_turn(c, a)
        return
    raise AssertionError("advance did not settle")


def end_turn(c: Emitter, seat: str) -> None:
    """"It's the next player's turn" ("Your Turn"): the next seat in the order the players were
    named, from the first player round (house reading MS-H-TURN-ORDER); the grand finale once
    someone has 4 trophies ("Grand Finale"): the final turns go to the players without 4
    trophies as it begins (house reading MS-H-FINAL-TURNS)."""
    s = c.state
    c.emit(ev.TurnEnded(seat=seat, turn=s.turn))
    s = c.state
    top = s.content["trophies_per_player"]
    order = s.order
    if s.finale:
        if s.finale_left:
            c.emit(ev.TurnStarted(seat=s.finale_left[0], turn=s.turn + 1, final=True))
        else:
            crown(c, "the grand finale is over")
        return
    crowned = tuple(x for x in order if len(s.players[x].trophies) >= top)
    if crowned:
        i = order.index(seat)
        after = order[i + 1:] + order[:i + 1]
        final = tuple(x for x in after if len(s.players[x].trophies) < top)
        c.emit(ev.GrandFinaleBegan(crowned=crowned, final_turns=final))
        if final:
            c.emit(ev.TurnStarted(seat=final[0], turn=s.turn + 1, final=True))
        else:
            crown(c, "every player has 4 trophies")
        return
    limit = s.options.get("round_limit", 0)
    if limit and s.turn >= limit * len(order):
        crown(c, f"the round limit ({limit} rounds) is reached")
        return
    nxt = order[(order.index(seat) + 1) % len(order)]
    c.emit(ev.TurnStarted(seat=nxt, turn=s.turn + 1))


def crown(c: Emitter, reason: str) -> None:
    """The most trophies wins; ties go to more friendship ("Resolving Ties")."""
    s = c.state
    trophies = {x: len(s.players[x].trophies) for x in s.seats}
    friendship = {x: s.players[x].friendship for x in s.seats}
    best = max(trophies.values())
    top = [x for x in s.seats if trophies[x] == best]
    most = max(friendship[x] for x in top)
    winners = tuple(x for x in top if friendship[x] == most)
    if len(top) > 1:
        reason += f"; {len(top)} players tie on {best} trophies, friendship decides"
    if len(winners) > 1:  # the rulebook stops at friendship: the house reading shares the win
        reason += " -- level on friendship too, they share the win (house: MS-H-TIE-SHARED)"
    c.emit(ev.GameEnded(winners=winners, reason=reason, trophies=trophies, friendship=friendship))


#: a command that belongs to a later step of a turn, given before any action: its rule, and why
NOT_NOW = {
    Go: ("MS-MOVE-NOT-NOW", "Seekers move during a Move action"),
    Carry: ("MS-MOVE-NOT-NOW", "Seekers move during a Move action"),
    Stay: ("MS-MOVE-NOT-NOW", "Seekers move (or stay) during a Move action"),
    Dial: ("MS-DIAL-NOT-NOW", "there is no pie fight now (one starts when a Seeker moves onto an opponent's)"),
    Rejuvenate: ("MS-REJUVENATE-NOT-NOW", "no Seeker has just returned to base camp"),
    Place: ("MS-SEEK-NOT-NOW", "there are no found tokens to place (a Seek finds them)"),
    Keep: ("MS-POWERUP-KEEP", "no power-up tiles are being looked at (Power Up shows them)"),
    Explore: ("MS-QUEST-NOT-NOW", "quests come after moving"),
    QuestOption: ("MS-QUEST-NOT-NOW", "there is no quest card to answer (quests come after moving)"),
    NoThanks: ("MS-QUEST-NOT-NOW", "there is no quest card to answer (quests come after moving)"),
    LeaveQuests: ("MS-QUEST-NOT-NOW", "quests come after moving"),
}


def decide(state: MSState, seat: str, cmd: Any, rng: Rng) -> list[Event]:  # noqa: C901
    c = Emitter(state, PROJECTION, rng)
    s = state
    if s.fight is not None:
        require(isinstance(cmd, Dial), "MS-DIAL-NOT-NOW", "a pie fight is under way: set your dial first")
        set_dial(c, seat, cmd)
    elif s.rejuv:
        require(isinstance(cmd, Rejuvenate), "MS-REJUVENATE-NOT-NOW",
                f"{s.rejuv[0]} must rejuvenate first (1 spell or 2 pies)")
        rejuvenate(c, seat, cmd)
    elif s.trophy_seat:
        require(isinstance(cmd, ClaimTrophy), "MS-TROPHY-NOT-NOW",
                f"{s.trophy_seat} must first choose a trophy: `trophy NAME`"
                + (" or `trophy none`" if s.trophy_optional else ""))
        claim_trophy(c, seat, cmd)
    elif s.seek:
        require(isinstance(cmd, Place), "MS-SEEK-NOT-NOW", "place the tokens found first")
        place_token(c, seat, cmd)
    elif s.look:
        require(isinstance(cmd, Keep), "MS-POWERUP-KEEP", "keep one of the power-up tiles first")
        keep_power_up(c, seat, cmd)
    elif s.moving:
        if isinstance(cmd, Go):
            move_without_carrying(c, seat, cmd)
        elif isinstance(cmd, Carry):
            move_carrying(c, seat, cmd)
        elif isinstance(cmd, Stay):
            stay(c, seat, cmd)
        else:
            raise RuleViolation("MS-MOVE-NOT-NOW", "finish moving your Seekers first (go, carry or stay)")
    elif s.quest_card:
        if isinstance(cmd, QuestOption):
            resolve_quest(c, seat, cmd)
        elif isinstance(cmd, NoThanks):
            no_thanks(c, seat)
        else:
            raise RuleViolation("MS-QUEST-NOT-NOW", "choose a quest option or say No Thanks first")
    elif s.quest_spaces:
        if isinstance(cmd, LeaveQuests):
            c.emit(ev.QuestsLeft(seat=seat, spaces=s.quest_spaces))
        else:
            require(isinstance(cmd, Explore), "MS-QUEST-NOT-NOW",
                    f"a quest token lies under your Seeker on {', '.join(s.quest_spaces)}:"
                    f" `explore {s.quest_spaces[0]}` or `leave quests`")
            explore(c, seat, cmd)
    elif isinstance(cmd, ChooseAction):
        take_action(c, seat, cmd)
    elif isinstance(cmd, ClaimTrophy):
        claim_trophy(c, seat, cmd)
    else:
        rule, why = NOT_NOW.get(type(cmd), ("MS-ONE-ACTION", ""))
        raise RuleViolation(rule, f"{why}{'; ' if why else ''}first choose an action on your mat (move, seek or make)")
    advance(c)
    return c.events
