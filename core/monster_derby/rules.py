"""Monster Derby's rules, one function a rule, named after the rulebook's words, and the
decider (``decide``): a turn is ``roll``, then ``take-marker`` or ``control <monster>``, then
steps (``move``, ``fly``, ``attack``, ``recover``, ``call``, ``copy``) and ``end``; a curse that
strikes waits for the player's ``curse`` way back before the attack goes on.

Every function takes the state (and what it needs) and either answers a question or checks
a rule with ``require`` (a ``RuleViolation`` with an id from ``fixtures/monster-derby/rules.toml``;
a passed check is listed by ``arbiter why``).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, Iterator

import msgspec

from arbiter.core.dice import Rng
from arbiter.core.game import Emitter as KernelEmitter
from arbiter.core.errors import ManualDiceError, RuleViolation, gate, require
from arbiter.core.monster_derby.board import FINISH, Pos, Track, adjacent, ahead, along, behind, distance, name, parse_space
from arbiter.events.base import Event
from arbiter.core.monster_derby.commands import (
    Attack, Call, ControlMonster, Copy, Curse, End, Fly, Keep, Move, Recover, Roll, TakeMarker,
)
from arbiter.events.monster_derby import (
    AbilityCopied, AgendaKept, Attacked, ControlEnded, CursePending, Damaged, EffectGained, EffectSpent,
    GameEnded, MarkerTaken, MonsterControlled, MonsterDied, MonsterFinished, MonsterMoved, MovementRolled,
    Recovered, RoundBegan, RoundEnded, TurnBegan,
)
from arbiter.projections.monster_derby import Control, MDState, Monster, MonsterDerbyProjection

PROJ = MonsterDerbyProjection()
RED_ZONE = 4  # "If a monster's hit points go to 4 or less ..." (Damage)


class Emitter(KernelEmitter[MDState]):
    """The events one command decides, folded into ``state`` as they are emitted."""

    def __init__(self, state: MDState, rng: Rng | None = None) -> None:
        super().__init__(state, PROJ, rng)


# -- the track and the monsters ---------------------------------------------------------


@lru_cache(maxsize=64)
def _track(rows: tuple[str, ...], terrain: tuple[tuple[str, str], ...]) -> Track:
    return Track(rows, dict(terrain))


#: (rows, terrain, Track) of the last state asked: a decision asks for the track of the same
#: state dozens of times, and a state's rows and terrain are shared by every state evolved
#: from it (held here, so their identities cannot be reused by other objects)
_last_track: tuple[Any, Any, Track | None] = ((), None, None)


def track(state: MDState) -> Track:
    global _last_track
    rows, terrain = state.rows, state.terrain
    last = _last_track
    if last[0] is rows and last[1] is terrain and last[2] is not None:
        return last[2]
    found = _track(rows, tuple(sorted(terrain.items())))
    _last_track = (rows, terrain, found)
    return found


def pos_of(m: Monster) -> Pos:
    p = parse_space(m.space)
    assert p is not None, m.space
    return p


def in_red_zone(m: Monster) -> bool:
    """Hit points of 4 or less are the red zone (Damage)."""
    return m.hp <= RED_ZONE


def ability_of(m: Monster) -> str:
    """The special ability in force: the card's own, or what the Doppelganger copied this
    turn (house ability "copy"); none while the hit point clip marks a red number."""
    if in_red_zone(m):
        return ""
    return m.copied if m.ability == "copy" and m.copied else m.ability


def has_ability(m: Monster, ability: str) -> bool:
    """A special ability works unless the hit point clip marks a red number (Monster Card Anatomy)."""
    return ability_of(m) == ability


def is_native(m: Monster, terrain: str) -> bool:
    """Terrain Nativity: path is nobody's terrain (house rule MD-HOUSE-PATH); "all" is
    native everywhere else."""
    if terrain in ("path", "impassable"):
        return False
    return "all" in m.natives or terrain in m.natives


#: (monsters, order, position -> the first racing monster there) of the last state asked
_last_places: tuple[Any, Any, dict[Pos, Monster]] = (None, None, {})


def occupant(state: MDState, pos: Pos) -> Monster | None:
    global _last_places
    monsters, order = state.monsters, state.order
    last = _last_places
    if last[0] is not monsters or last[1] is not order:
        places: dict[Pos, Monster] = {}
        for m in state.racing():
            places.setdefault(pos_of(m), m)
        last = _last_places = (monsters, order, places)
    return last[2].get(pos)


def grave_at(state: MDState, pos: Pos) -> bool:
    return any(parse_space(s) == pos for s in state.graves.values())


def blocked(state: MDState, pos: Pos) -> bool:
    """A space with another monster in it is impassable (Control a Monster); graves only
    block with the house option ``graves_block``."""
    if occupant(state, pos) is not None:
        return True
    return bool(state.options.get("graves_block")) and grave_at(state, pos)


def walking_cost(state: MDState, m: Monster, pos: Pos) -> int | None:
    """Cost to walk into a space: 1 for path or native terrain, 2 otherwise, 0 for brush
    with Brushwalker; None for impassable terrain (Control a Monster, Ability Summary)."""
    t = track(state).terrain(pos)
    if t == "impassable":
        return None
    if t == "path":
        return 1
    if t == "brush" and has_ability(m, "brushwalker"):
        return 0
    return 1 if is_native(m, t) else 2


def flies(m: Monster) -> bool:
    """"Flies" means it can fly (Monster Card Anatomy); a flying monster must fly (Example)."""
    return has_ability(m, "flies")


def walk_steps(state: MDState, m: Monster, points: int, frm: Pos | None = None) -> list[tuple[Pos, int]]:
    """The spaces ahead a walking monster may step into now (or from ``frm``), with their cost."""
    return list(_steps(state, m, points, pos_of(m) if frm is None else frm))


def may_step(state: MDState, m: Monster, points: int) -> bool:
    """Whether a walking monster may step anywhere now (:func:`walk_steps` not empty)."""
    return next(_steps(state, m, points, pos_of(m)), None) is not None


def _steps(state: MDState, m: Monster, points: int, here: Pos) -> Iterator[tuple[Pos, int]]:
    tr = track(state)
    for q in ahead(here):
        if not tr.in_lanes(q):
            continue
        if tr.off_end(q):
            if points >= 1:
                yield q, 1
            continue
        cost = walking_cost(state, m, q)
        if cost is None or cost > points or blocked(state, q):
            continue
        yield q, cost


def walk_destinations(state: MDState, m: Monster, points: int) -> dict[str, tuple[str, ...]]:
    """Every space where a walk that spends all it can may end (or ``finish``), with one path
    to it, straight on preferred: the menu lists destinations, not every path."""
    tr = track(state)
    order = {1: 0, 0: 1, 2: 2}  # straight on first, then diagonals

    out: dict[str, tuple[str, ...]] = {}
    seen: set[tuple[Pos, int]] = set()

    def walk(p: Pos, pts: int, path: tuple[str, ...]) -> None:
        if (p, pts) in seen:
            return
        seen.add((p, pts))
        steps = walk_steps(state, m, pts, p)
        if not steps and path:
            out.setdefault(path[-1], path)
            return
        for i in sorted(range(len(steps)), key=lambda j: order.get(j, j)):
            q, cost = steps[i]
            if tr.off_end(q):
                out.setdefault(FINISH, path + (FINISH,))
                continue
            walk(q, pts - cost, path + (name(q),))

    walk(pos_of(m), points, ())
    return out


def flight_options(state: MDState, m: Monster, points: int) -> tuple[dict[Pos, int], bool]:
    """Where a flyer may land (space -> points spent) and whether it can fly off the end.

    Flying over a space costs 1 whatever is in it; the landing space costs its walking cost
    and must be empty (Control a Monster). All points must be spent; if no landing spends
    them all, the flyer lands where it spends the most it can (house rule MD-HOUSE-FLY-SHORT)."""
    tr = track(state)
    frontier = {pos_of(m)}
    landings: dict[Pos, int] = {}
    can_finish = False
    for k in range(1, points + 1):
        nxt: set[Pos] = set()
        for p in frontier:
            for q in ahead(p):
                if not tr.in_lanes(q):
                    continue
                if tr.off_end(q):
                    can_finish = True
                    continue
                nxt.add(q)
        for q in nxt:
            cost = walking_cost(state, m, q)
            if cost is None or blocked(state, q):
                continue
            total = k - 1 + cost
            if total <= points:
                landings[q] = max(landings.get(q, -1), total)
        frontier = nxt
        if not frontier:
            break
    if landings:
        best = points if points in landings.values() else max(landings.values())
        landings = {q: t for q, t in landings.items() if t == best}
    return landings, can_finish


def stopover_options(state: MDState, c: Control, m: Monster) -> dict[Pos, int]:
    """Where a flyer may land short on its way to attack from there, with the points that
    costs (Monster Actions: attack "on any space along its movement"; Example: the Gargoyle
    "could land ... behind the Golem to attack it along the way"). Only spaces with a monster
    in front to attack; the flyer then flies on with the points left."""
    if c.stopover or c.flown or c.walked or c.recovered or not c.can_attack or c.attacks >= max_attacks(c, m):
        return {}
    tr = track(state)
    frontier = {pos_of(m)}
    out: dict[Pos, int] = {}
    for k in range(1, c.points):
        nxt = {q for p in frontier for q in ahead(p) if tr.on_map(q)}
        for q in nxt:
            cost = walking_cost(state, m, q)
            if cost is None or blocked(state, q) or k - 1 + cost >= c.points:
                continue
            if attack_targets(state, msgspec.structs.replace(m, space=name(q))):
                out[q] = min(out.get(q, c.points), k - 1 + cost)
        frontier = nxt
        if not frontier:
            break
    return out


# -- whose turn, the round, the end of the game -----------------------------------------


def next_seat(state: MDState, seat: str) -> str:
    """Play proceeds clockwise (Starting Play): the next seat in the players' order."""
    i = state.seats.index(seat)
    return state.seats[(i + 1) % len(state.seats)]


def round_is_over(state: MDState) -> bool:
    """A round ends when every living monster was controlled and the marker claimed."""
    return state.marker == "claimed" and all(m.turned for m in state.racing())


def race_key(state: MDState, m: Monster) -> tuple[int, int]:
    """How far along a monster is: finishers by order, then by distance (graves count)."""
    if m.status == "finished":
        return (0, state.finishes.index(m.id))
    space = state.graves.get(m.id, m.space)
    p = parse_space(space)
    return (1, -along(p) if p else 0)


def place_monsters(state: MDState, seat: str) -> list[Monster]:
    """A player's "first place monster", then "second place monster" (Game End), read as
    option ``tie_break`` says: ``card``, the colours in the order the agenda card lists them;
    ``best``, the agenda's monsters from the best placed on (house rule MD-HOUSE-TIE-BREAK).
    A game recorded before the option existed was decided by ``best``."""
    points = state.kept_points.get(seat, {})
    by_colour = {m.colour: m for m in state.monsters.values()}
    mine = [by_colour[c] for c in points if c in by_colour]
    if state.options.get("tie_break", "best") == "best":
        mine.sort(key=lambda m: race_key(state, m))
    return mine


def score_agendas(state: MDState) -> tuple[dict[str, int], tuple[str, ...]]:
    """Each player scores their agenda for the (up to three) finishing monsters. "If two
    players are tied for points, the one whose first place monster finished first or is
    closest to the finish line wins. If their first place monsters are the same distance
    along, compare their second place monsters" (Game End); equal still ("you have a
    defective copy of the game"), they share the win (house rule MD-HOUSE-SHARED-WIN)."""
    top = state.finishes[:3]
    colour = {m.id: m.colour for m in state.monsters.values()}
    scores = {s: sum(state.kept_points.get(s, {}).get(colour[m], (0, 0, 0))[place]
                     for place, m in enumerate(top)) for s in state.seats}
    best = max(scores.values()) if scores else 0
    tied = [s for s in state.seats if scores[s] == best]

    def ranks(seat: str) -> list[tuple[int, int]]:
        return [race_key(state, m) for m in place_monsters(state, seat)[:2]]

    top_rank = min(ranks(s) for s in tied)
    return scores, tuple(s for s in tied if ranks(s) == top_rank)


def check_game_end(em: Emitter) -> bool:
    """The game ends the moment the third monster finishes (Game End), or when no monster
    can still finish (Megacarnage)."""
    st = em.state
    if st.phase == "over":
        return True
    if len(st.finishes) >= 3:
        reason = "the third monster crossed the finish line"
    elif not st.racing():
        reason = f"Megacarnage: only {len(st.finishes)} monster(s) finished"
    else:
        return False
    scores, winners = score_agendas(st)
    em.emit(GameEnded(reason=reason, finishes=st.finishes, agendas=dict(st.kept), scores=scores,
                      winners=winners))
    return True


def pass_turn(em: Emitter) -> None:
    """After a turn: the next player's turn, or a new round started by the marker's taker."""
    if check_game_end(em):
        return
    st = em.state
    if round_is_over(st):
        em.emit(RoundEnded(round=st.round), RoundBegan(round=st.round + 1, starter=st.marker_taker))
        return
    em.emit(TurnBegan(seat=next_seat(st, st.current)))


def end_control(em: Emitter, reason: str = "") -> None:
    """End Monster Turn: a monster that did not attack must recover; then it is turned."""
    c = em.state.control
    assert c is not None
    m = em.state.monsters[c.monster]
    if m.status == "racing" and c.attacks == 0 and not c.recovered:
        em.emit(Recovered(monster=m.id, hp=min(m.max_hp, m.hp + 1)))
    em.emit(ControlEnded(monster=m.id, reason=reason))
    pass_turn(em)


# -- attacks ----------------------------------------------------------------------------


def attack_dice(state: MDState, a: Monster, d: Monster, die: int, kind: str) -> int:
    """Attack dice: the Attack value (or current hit points, or plus the movement die with
    Charge), one fewer if the defender is native to its terrain, one fewer if the attacker
    stands on non-native terrain (Terrain Effects, Ability Summary)."""
    tr = track(state)
    n = a.hp if has_ability(a, "attack_dice_hp") else a.attack
    if has_ability(a, "charge") and kind == "attack":
        n += die
    if is_native(d, tr.terrain(pos_of(d))):
        n -= 1
    t = tr.terrain(pos_of(a))
    if t != "path" and not is_native(a, t):
        n -= 1
    return max(0, n)


def in_front(state: MDState, a: Monster, d: Monster) -> bool:
    """"Select a monster that is in front of the attacking monster" (Monster Actions); with
    360 Attack any adjacent monster (Ability Summary)."""
    pa, pd = pos_of(a), pos_of(d)
    if has_ability(a, "attack_360"):
        return pd in adjacent(pa)
    return pd in ahead(pa)


def attack_targets(state: MDState, a: Monster) -> list[Monster]:
    return [d for d in state.racing() if d.id != a.id and in_front(state, a, d)]


def modify_damage(a: Monster, d: Monster, hits: int, wacky_attack: str, wacky_defense: str) -> int:
    """Total the hits, modify them by the attacker's abilities and effects (Rage), then by
    the defender's abilities and wacky defense (Monster Actions)."""
    dmg = hits
    if has_ability(a, "plus_one"):
        dmg += 1
    if "rage" in a.effects or wacky_attack == "rage":
        dmg += 1
    if wacky_attack == "plus_one":
        dmg += 1
    for effect in (ability_of(d), wacky_defense):
        if effect == "minus_one":
            dmg -= 1
        elif effect == "half_damage":
            dmg = math.ceil(max(dmg, 0) / 2)
    return max(0, dmg)


def curse_paths(state: MDState, d: Monster) -> list[tuple[str, ...]]:
    """The ways back for a cursed monster: "Move the cursed monster backwards 3 spaces using
    otherwise normal movement rules" (Ability Summary): each step into one of the three spaces
    behind, never into impassable terrain or another monster, never off the back of the track.

    Option ``curse_terrain`` (house rule MD-HOUSE-CURSE-TERRAIN): ``free``, 3 spaces whatever
    the terrain, fewer only when it cannot go on; ``costs``, at most 3 spaces paid out of 3
    movement points at the cursed monster's walking costs, stopping when it cannot pay the
    next step. Option ``curse_chooser`` (MD-HOUSE-CURSE-CHOOSER): ``straight`` leaves one way,
    straight back where it can, else the diagonal towards lane a. Straight back comes first."""
    tr = track(state)
    costs = state.options.get("curse_terrain", "free") == "costs"
    found: list[tuple[str, ...]] = []

    def walk(p: Pos, path: tuple[str, ...], points: int) -> None:
        back = behind(p)
        steps: list[tuple[Pos, int]] = []
        for q in (back[1], back[0], back[2]):
            cost = walking_cost(state, d, q) if tr.on_map(q) else None
            if cost is None or blocked(state, q) or (costs and cost > points):
                continue
            steps.append((q, cost))
        if len(path) == 3 or not steps or (costs and points <= 0):
            if path:
                found.append(path)
            return
        for q, cost in steps:
            walk(q, path + (name(q),), points - cost)

    walk(pos_of(d), (), 3)
    if not costs:
        longest = max((len(x) for x in found), default=0)
        found = [x for x in found if len(x) == longest]
    if state.options.get("curse_chooser", "curser") == "straight":
        return found[:1]
    return found


def has_way_back(state: MDState, d: Monster) -> bool:
    """Whether ``curse_paths`` finds any way back: one first step is enough, since every
    way that can start ends somewhere (its whole search is the menu's)."""
    tr = track(state)
    costs = state.options.get("curse_terrain", "free") == "costs"
    for q in behind(pos_of(d)):
        cost = walking_cost(state, d, q) if tr.on_map(q) else None
        if cost is not None and not blocked(state, q) and not (costs and cost > 3):
            return True
    return False


def curse_destinations(state: MDState, d: Monster,
                       paths: list[tuple[str, ...]] | None = None) -> dict[str, tuple[str, ...]]:
    """One way back per space the cursed monster may end on (the menu's entries), from
    ``paths`` when the caller has them already."""
    out: dict[str, tuple[str, ...]] = {}
    for path in curse_paths(state, d) if paths is None else paths:
        out.setdefault(path[-1], path)
    return out


def curse_back(em: Emitter, d: Monster, path: tuple[str, ...]) -> None:
    """Walk the cursed monster back along ``path`` (a way from ``curse_paths``)."""
    em.emit(MonsterMoved(monster=d.id, frm=d.space, to=path[-1], cost=0, kind="curse"))


def apply_damage(em: Emitter, d: Monster, amount: int, cause: str) -> None:
    if amount <= 0:
        return
    hp = d.hp - amount
    em.emit(Damaged(monster=d.id, amount=amount, hp=max(0, hp), cause=cause))
    if hp <= 0:
        em.emit(MonsterDied(monster=d.id, space=d.space))


Outer = tuple[str, tuple[str, ...], int, int, str]  # attacker, defenders left, dice, hits, wacky face


def resolve_attack(em: Emitter, rng: Rng, attacker: str, target: str, kind: str,
                   outer: Outer | None = None) -> None:
    """Attack: roll the wacky die with the attack dice; sword = wacky attack, shield = wacky
    defense, both = both, wacky attack first unless the defense is a dodge (Monster Actions)."""
    st = em.state
    a, d = st.monsters[attacker], st.monsters[target]
    die = st.control.die if st.control is not None else 0
    n = attack_dice(st, a, d, die, kind)
    roll = rng.roll(["attack"] * n + ["wacky"], purpose=f"{kind}: {a.id} on {d.id}")
    em.emit(roll)
    hits = sum(1 for f in roll.faces[:-1] if f == "1")
    face = roll.faces[-1]
    defenders = [d.id]
    if has_ability(a, "blast") and kind != "counter":
        defenders += [o.id for o in st.racing() if o.id not in (a.id, d.id) and pos_of(o) in adjacent(pos_of(a))]
    resolve_defenders(em, rng, a.id, tuple(defenders), n, hits, face, kind, outer)


def resolve_defenders(em: Emitter, rng: Rng, aid: str, ids: tuple[str, ...], n: int, hits: int,
                      face: str, kind: str, outer: Outer | None) -> None:
    """Blast: apply this attack (with its wackiness) to each defender in turn; a curse waits
    for the player's way back, keeping the defenders left (Ability Summary)."""
    for i, did in enumerate(ids):
        cont: Outer | None = outer if kind == "counter" else (aid, ids[i + 1:], n, hits, face)
        _resolve_on(em, rng, aid, did, n, hits, face, kind if i == 0 else "blast", cont)
        if em.state.curse is not None:
            return


def _resolve_on(em: Emitter, rng: Rng, aid: str, did: str, n: int, hits: int, face: str,
                kind: str, cont: Outer | None) -> None:
    st = em.state
    a, d = st.monsters[aid], st.monsters[did]
    if a.status != "racing" or d.status != "racing":
        return
    sword, shield = face in ("sword", "both"), face in ("shield", "both")
    wa = a.wacky_attack if sword and a.wacky_attack != "none" else ""
    wd = d.wacky_defense if shield and d.wacky_defense != "none" else ""
    if wd == "dodge":
        wa, dmg = "", 0  # the dodge is resolved first: the attack and its wackiness miss
    else:
        dmg = modify_damage(a, d, hits, wa, wd)
    em.emit(Attacked(attacker=a.id, defender=d.id, dice=n, hits=hits, wacky=face,
                     wacky_attack=wa, wacky_defense=wd, damage=dmg, kind=kind))
    apply_damage(em, d, dmg, "attack" if kind != "counter" else "counter-strike")
    rnd = em.state.round
    # the wacky attack
    if wa == "rage":
        em.emit(EffectGained(monster=a.id, effect="rage", until_round=rnd + 1))
    elif wa == "attack_again" and kind == "attack":
        em.emit(EffectGained(monster=a.id, effect="attack_again", until_round=rnd))
    alive = em.state.monsters[d.id].status == "racing"
    cursed = False
    if alive and wa in ("poison", "webs"):
        em.emit(EffectGained(monster=d.id, effect=wa, until_round=0))
    elif alive and wa == "stun":
        em.emit(EffectGained(monster=d.id, effect="stun", until_round=rnd))
    elif alive and wa == "curse":
        cursed = True
    # the wacky defense
    if wd == "stun" and em.state.monsters[a.id].status == "racing":
        em.emit(EffectGained(monster=a.id, effect="stun", until_round=rnd))
    if cursed:
        ways = curse_destinations(em.state, em.state.monsters[d.id])
        if len(ways) > 1:  # the controlling player chooses the way back
            c_att, c_rest, c_n, c_hits, c_face = cont or ("", (), 0, 0, "")
            em.emit(CursePending(monster=d.id, by=a.id, counter_by=d.id, counter_on=a.id, counter_kind=kind,
                                 counter_wacky=wd == "counter_strike", attacker=c_att, rest=c_rest,
                                 dice=c_n, hits=c_hits, wacky=c_face))
            return
        if ways:
            curse_back(em, em.state.monsters[d.id], next(iter(ways.values())))
    counter_strike(em, rng, a.id, d.id, kind, wd == "counter_strike", cont)


def counter_strike(em: Emitter, rng: Rng, aid: str, did: str, kind: str, wacky: bool,
                   outer: Outer | None = None) -> None:
    """Counter-Strike: if the defender is conscious and unstunned after the attack, it gets
    a free attack on its attacker if adjacent (Ability Summary). No counter to a counter."""
    st = em.state
    a, d = st.monsters[aid], st.monsters[did]
    if kind == "counter" or a.status != "racing" or d.status != "racing":
        return
    if not (wacky or has_ability(d, "counter_strike")):
        return
    if in_red_zone(d) or "stun" in d.effects or pos_of(a) not in adjacent(pos_of(d)):
        return
    resolve_attack(em, rng, did, aid, "counter", outer)


def resume_after_curse(em: Emitter, rng: Rng, pc: Any) -> None:
    """After the way back is walked: the counter-strike it held up, then the Blast's other
    defenders with the same roll."""
    outer: Outer = (pc.attacker, pc.rest, pc.dice, pc.hits, pc.wacky)
    counter_strike(em, rng, pc.counter_on, pc.counter_by, pc.counter_kind, pc.counter_wacky, outer)
    if em.state.curse is None and pc.rest:
        resolve_defenders(em, rng, pc.attacker, pc.rest, pc.dice, pc.hits, pc.wacky, "blast", None)


# -- physical dice ----------------------------------------------------------------------


def dice_words(kinds: list[str]) -> str:
    """"3 attack dice and the wacky die" for ["attack", "attack", "attack", "wacky"]."""
    n = sum(1 for k in kinds if k == "attack")
    parts = [f"{n} attack {'die' if n == 1 else 'dice'}"] if n else ["no attack dice"]
    if "wacky" in kinds:
        parts.append("the wacky die")
    return " and ".join(parts)


def sample_faces(kinds: list[str]) -> list[str]:
    """Example faces for a hint: 1 0 1 ... then sword."""
    return [("1" if i % 2 == 0 else "0") if k == "attack" else ("sword" if k == "wacky" else "4")
            for i, k in enumerate(kinds)]


def follow_ups(state: MDState, attacker: str, target: str) -> list[str]:
    """The rolls an attack may add after its own: a counter-strike from the target (or, with
    Blast, from every monster the blast hits) that has Counter-Strike as its ability or as its
    wacky defense (Ability Summary)."""
    a = state.monsters[attacker]
    d = state.monsters[target]
    hit = [d]
    if has_ability(a, "blast"):
        hit += [o for o in state.racing() if o.id not in (a.id, d.id) and pos_of(o) in adjacent(pos_of(a))]
    die = state.control.die if state.control is not None else 0
    out = []
    for o in hit:
        if pos_of(a) not in adjacent(pos_of(o)):
            continue
        n = attack_dice(state, o, a, die, "counter")
        kinds = ["attack"] * n + ["wacky"]
        if has_ability(o, "counter_strike"):
            out.append(f"if the {o.id} is still conscious and unstunned it counter-strikes: add {dice_words(kinds)}")
        elif o.wacky_defense == "counter_strike":
            out.append(f"if the wacky die shows shield or both, the {o.id} counter-strikes: add {dice_words(kinds)}")
    return out


def roll_purpose(purpose: str) -> str:
    """"attack: giant on golem" -> "the giant's attack on the golem"."""
    kind, _, rest = purpose.partition(": ")
    a, _, d = rest.partition(" on ")
    word = {"counter": "counter-strike", "attack": "attack"}.get(kind, kind)
    return f"the {a}'s {word} on the {d}" if d else purpose


class PhysicalDice:
    """The dice of one command in a game played with physical dice (``--dice manual``).

    An attack may roll more than once (a counter-strike answers it, and a Blast's defenders
    may each counter-strike); when the faces typed run short or do not fit, the referee names
    every roll the command made so far, in order, and the ones that may still follow."""

    def __init__(self, rng: Rng, command: str, state: MDState, attacker: str = "", target: str = "") -> None:
        self.rng = rng
        self.command = command
        self.state = state
        self.attacker, self.target = attacker, target
        self.done: list[tuple[list[str], str]] = []
        self.manual = rng.manual

    def _order(self, kinds: list[str], purpose: str) -> str:
        rolls = self.done + [(kinds, purpose)]
        return "; then ".join(f"{dice_words(k)} for {roll_purpose(p)}" for k, p in rolls)

    def roll(self, kinds: list[str], purpose: str = "") -> Any:
        try:
            ev = self.rng.roll(kinds, purpose=purpose)
        except ManualDiceError as exc:
            if self.manual is None:
                raise
            kinds = list(kinds)
            need = sum(len(k) for k, _ in self.done) + len(kinds)
            given = list(self.manual)
            missing = need - len(given)
            every = [k for ks, _ in self.done for k in ks] + kinds
            example = given[:need] + sample_faces(every)[len(given):need]
            if missing > 0:
                msg = (f"{self.command} rolls {self._order(kinds, purpose)}: {need} faces in this order,"
                       f" and {len(given)} {'was' if len(given) == 1 else 'were'} given")
            else:
                example = sample_faces(every)
                msg = f"{exc.args[0]}; {self.command} rolls {self._order(kinds, purpose)}, in this order"
            more = follow_ups(self.state, self.attacker, self.target) if not self.done and self.attacker else []
            hint = f"{self.command} [{' '.join(example)}]"
            if more:
                hint += " — and " + "; ".join(more) + " after those faces"
            raise ManualDiceError(msg, hint=hint) from None
        self.done.append((list(kinds), purpose))
        return ev

    def shuffle(self, deck: str, items: list[str]) -> Any:
        return self.rng.shuffle(deck, items)

    def check_all_used(self, note: str = "") -> None:
        """Too many faces: say what the command did roll (a counter-strike may not follow)."""
        if self.manual is None:
            return
        used = sum(len(k) for k, _ in self.done)
        if used >= len(self.manual):
            return
        rolled = "; then ".join(f"{dice_words(k)} for {roll_purpose(p)}" for k, p in self.done) or "no dice"
        extra = " ".join(self.manual[used:])
        raise ManualDiceError(
            f"{self.command} rolled {rolled}: {used} faces, but {len(self.manual)} were given"
            f" (left over: {extra}); " + (note or "no further roll followed this time"),
            hint=f"{self.command} [{' '.join(self.manual[:used])}]")


# -- checks shared by the decider and the legal-command list ----------------------------


def require_control(state: MDState, seat: str) -> tuple[Control, Monster]:
    """Moving, attacking and recovering need a monster under your control."""
    c = state.control
    require(c is not None, "MD-CONTROL-FIRST", f"{seat} is not controlling a monster now")
    assert c is not None
    return c, state.monsters[c.monster]


def stunned(c: Control, m: Monster) -> bool:
    """A stunned monster "lose[s] the rest of his turn" (Example)."""
    return c.stunned or "stun" in m.effects


def max_attacks(c: Control, m: Monster) -> int:
    """One action a turn; Attack Again (ability or wacky attack) allows one more attack."""
    return 1 + int(has_ability(m, "attack_again") or c.extra_attack)


def may_attack_now(c: Control, m: Monster) -> bool:
    """Whether the monster under control may still attack (any target in front aside)."""
    return (not stunned(c, m) and c.can_attack and not in_red_zone(m) and not c.recovered
            and c.attacks < max_attacks(c, m))


def check_attack(state: MDState, c: Control, m: Monster, target: Monster | None) -> None:
    require(not stunned(c, m), "MD-STUNNED", f"the {m.name} is stunned and has lost the rest of its turn")
    may = c.can_attack and not in_red_zone(m)
    require(may, "MD-RED-RECOVER", "" if may else
            f"the {m.name} was below 5 hit points when it was controlled: it takes the Recover action"
            " this round instead of attacking" if not c.can_attack else
            f"the {m.name} is down to {m.hp} hit points: at 4 or less a monster may only take Recover actions")
    require(not c.recovered, "MD-ACTION-ONE", f"the {m.name} already recovered this turn; it may either recover or attack")
    require(c.attacks < max_attacks(c, m), "MD-ACTION-ONE", f"the {m.name} has already attacked this turn")
    if target is None:
        return
    require(target.id != m.id, "MD-ATTACK-FRONT", f"the {m.name} cannot attack itself")
    require(target.status == "racing", "MD-ATTACK-FRONT", f"the {target.name} is not on the track")
    where = "adjacent to" if has_ability(m, "attack_360") else "in front of"
    require(in_front(state, m, target), "MD-ATTACK-FRONT", f"the {target.name} is not {where} the {m.name}")


def may_move_now(c: Control, m: Monster) -> bool:
    return not stunned(c, m) and c.can_move


def may_take_off(c: Control) -> bool:
    """A flyer flies once, not after walking, and flies on from a stopover only after attacking."""
    return not c.flown and not c.walked and not c.stopover


def check_may_move(c: Control, m: Monster) -> None:
    require(not stunned(c, m), "MD-STUNNED", f"the {m.name} is stunned and has lost the rest of its turn")
    require(c.can_move, "MD-RED-NO-MOVE", f"the {m.name} is still in the red zone after recovering: it does not move")


def can_still_move(state: MDState, c: Control, m: Monster) -> bool:
    """Whether movement is still owed: "A monster must spend all of its movement points going
    forward" (Control a Monster); house reading MD-HOUSE-FREE-STEP: that is met at 0 points,
    even where a free step (Brushwalker's brush) remains; such a step may still be taken,
    but it is not owed."""
    if stunned(c, m) or not c.can_move or m.status != "racing":
        return False
    if c.points <= 0 and not c.stopover:
        return False
    if flies(m):
        if c.flown or c.walked:
            return False
        if c.stopover:
            return True
        landings, fin = flight_options(state, m, c.points)
        return bool(landings) or fin
    return bool(walk_steps(state, m, c.points))


def call_options(state: MDState, m: Monster) -> list[tuple[Monster, Pos]]:
    """Call: any monster up to 3 spaces away, to any empty space next to the Siren."""
    tr = track(state)
    here = pos_of(m)
    empties = [q for q in adjacent(here) if tr.on_map(q) and tr.terrain(q) != "impassable"
               and not blocked(state, q)]
    rng = int(state.options.get("call_range", 3))
    out = []
    for o in state.racing():
        if o.id != m.id and distance(pos_of(o), here) <= rng:
            out += [(o, q) for q in empties]
    return out


def copy_options(state: MDState, c: Control, m: Monster) -> list[Monster]:
    """Copy (house ability of the Doppelganger): an adjacent monster whose special ability it
    takes for the rest of its turn, once a turn, not while stunned or in the red."""
    if m.ability != "copy" or in_red_zone(m) or c.copied or c.stunned or "stun" in m.effects:
        return []
    here = pos_of(m)
    return [o for o in state.racing() if o.id != m.id and pos_of(o) in adjacent(here)
            and o.ability not in ("none", "copy")]


def may_call(c: Control, m: Monster) -> bool:
    return has_ability(m, "call") and not c.called and not c.stunned and "stun" not in m.effects


def to_json(obj: Any) -> str:
    return msgspec.json.encode(obj).decode()


__all__ = ["FINISH"]


# -- the decider: one function a step of the turn ---------------------------------------


def decide(state: MDState, seat: str, command: Any, rng: Rng) -> list[Event]:
    """The events a command decides, or ``RuleViolation`` citing the rule it breaks."""
    em = Emitter(state, rng)
    if isinstance(command, Keep):
        keep_agenda(em, seat, command.agenda)
        return em.events
    gate(state.phase == "play", "MD-AGENDA-KEEP", "every player first keeps one of their three agenda cards")
    if isinstance(command, Roll):
        roll_movement_die(em, seat, rng)
    elif isinstance(command, TakeMarker):
        take_starting_player_marker(em, seat)
    elif isinstance(command, ControlMonster):
        control_a_monster(em, seat, command.monster)
    else:
        require_control(state, seat)
        if state.curse is not None:
            cm = state.monsters[state.curse.monster]
            # the example way back is searched for only when it is shown
            require(isinstance(command, Curse), "MD-CURSE-PATH", "" if isinstance(command, Curse) else
                    f"first walk the cursed {cm.name} back 3 spaces from"
                    f" {cm.space} (e.g. curse {' '.join(next(iter(curse_destinations(state, cm).values())))})")
        if isinstance(command, Curse):
            curse(em, rng, command.spaces)
        elif isinstance(command, Move):
            move(em, command.spaces)
        elif isinstance(command, Fly):
            fly(em, command.space)
        elif isinstance(command, Attack):
            attack(em, rng, command.monster)
        elif isinstance(command, Recover):
            recover(em)
        elif isinstance(command, Call):
            call(em, command.monster, command.space)
        elif isinstance(command, Copy):
            copy_ability(em, command.monster)
        elif isinstance(command, End):
            end_monster_turn(em)
            return em.events
        end_when_nothing_is_left(em)
    return em.events


def keep_agenda(em: Emitter, seat: str, agenda: str) -> None:
    """"Each player selects one agenda card to keep and discards the rest" (Setup)."""
    st = em.state
    require(st.phase == "agendas", "MD-AGENDA-KEEP", "agendas were chosen at the start of the game")
    require(seat not in st.kept, "MD-AGENDA-KEEP", f"{seat} already kept an agenda")
    hand = st.dealt.get(seat, ())
    require(agenda in hand, "MD-AGENDA-KEEP", f"{agenda} is not one of the agenda cards dealt to {seat}")
    i = hand.index(agenda)
    em.emit(AgendaKept(seat=seat, agenda=agenda, discarded=tuple(c for c in hand if c != agenda),
                       points=dict(st.dealt_points[seat][i])))
    if all(s in em.state.kept for s in st.seats):
        em.emit(RoundBegan(round=1, starter=st.starter))


def roll_movement_die(em: Emitter, seat: str, rng: Rng) -> None:
    """"Roll the movement die" (On Your Turn), once a turn."""
    require(not em.state.die, "MD-ROLL-FIRST", f"{seat} already rolled {em.state.die} this turn")
    try:
        ev = rng.roll(["move"], purpose="movement")
    except ManualDiceError as exc:  # faces given that the die does not show say which
        raise ManualDiceError(f"{exc.args[0]}; roll the physical movement die and type what it shows"
                              if getattr(rng, "manual", None) else "roll the physical movement die and type what it shows",
                              hint="roll 4  (or: roll [4]); the movement die shows 1 to 6") from None
    em.emit(ev, MovementRolled(seat=seat, value=int(ev.faces[0])))


def rolled_and_free(em: Emitter) -> None:
    """"Roll the movement die. Then either take the Starting Player Marker ... or control a
    monster" (On Your Turn): after the roll, and only one of the two."""
    st = em.state
    require(st.control is None, "MD-CONTROL-ONE", "" if st.control is None else
            f"{st.current} already controls the {st.monsters[st.control.monster].name} this turn:"
            " a turn takes the marker or controls one monster")
    require(bool(st.die), "MD-ROLL-FIRST", "roll the movement die first")


def take_starting_player_marker(em: Emitter, seat: str) -> None:
    """Take the Starting Player Marker "if it is still unclaimed" instead of controlling a
    monster (On Your Turn)."""
    rolled_and_free(em)
    require(em.state.marker == "available", "MD-MARKER-CLAIMED",
            f"the Starting Player Marker was already taken this round by {em.state.marker_taker}")
    em.emit(MarkerTaken(seat=seat))
    pass_turn(em)


def control_a_monster(em: Emitter, seat: str, mid: str) -> None:
    """Control a Monster: one not controlled yet this round; below 5 HP it must recover,
    and if still red it neither moves nor uses its ability; else it gets the die's points."""
    rolled_and_free(em)
    st = em.state
    m = st.monsters.get(mid)
    why = "is not in this race" if m is None else ("has finished" if m.status == "finished" else "is dead")
    require(m is not None and m.status == "racing", "MD-CONTROL-RACING",
            f"the {mid} {why}; monsters you may control: {', '.join(x.id for x in st.racing() if not x.turned)}")
    assert m is not None
    require(not m.turned, "MD-CONTROL-ONCE", f"the {m.name} was already controlled this round")
    hp = m.hp - (1 if "poison" in m.effects else 0)
    forced = 0 < hp <= RED_ZONE
    after = min(m.max_hp, hp + 1) if forced else hp
    can_move = after > RED_ZONE
    points = st.die * (2 if m.ability == "double_move" and can_move else 1)
    if "webs" in m.effects:
        points //= 2
    # a monster the poison kills on the spot neither moves nor attacks (MD-HOUSE-POISON)
    em.emit(MonsterControlled(seat=seat, monster=mid, points=points if can_move else 0,
                              can_move=can_move, can_attack=hp > 0 and not forced))
    if "poison" in m.effects:
        em.emit(EffectSpent(monster=mid, effect="poison"))
        apply_damage(em, em.state.monsters[mid], 1, "poison")
        if em.state.monsters[mid].status != "racing":
            em.emit(ControlEnded(monster=mid, reason="killed by poison"))
            pass_turn(em)
            return
    if "webs" in m.effects:
        em.emit(EffectSpent(monster=mid, effect="webs"))
    if forced:
        em.emit(Recovered(monster=mid, hp=after, forced=True))
    if not can_move:
        em.emit(ControlEnded(monster=mid, reason="unconscious: still in the red zone"))
        pass_turn(em)
        return
    end_when_nothing_is_left(em)


def cross_finish_line(em: Emitter, mid: str) -> None:
    """Crossing the finish line: "exiting the last map" (End Monster Turn)."""
    em.emit(MonsterFinished(monster=mid, place=len(em.state.finishes) + 1))
    if check_game_end(em):
        return
    em.emit(ControlEnded(monster=mid, reason="crossed the finish line"))
    pass_turn(em)


def spaces_ahead(tr: Track, here: Pos) -> str:
    """"3a, 3b or 3c": the adjacent spaces ahead that are on the track ("the finish line"
    past the last board)."""
    names = [FINISH if tr.off_end(q) else name(q) for q in ahead(here) if tr.in_lanes(q)]
    names = list(dict.fromkeys(names))
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]


def move(em: Emitter, spaces: tuple[str, ...]) -> None:
    """Walk into one of the three adjacent spaces ahead, paying its cost (Control a Monster)."""
    for i, sp in enumerate(spaces):
        st = em.state
        c = st.control
        require(c is not None and st.phase == "play", "MD-MOVE-FINISHED",
                "the monster's turn is already over; drop the extra spaces")
        assert c is not None
        m = st.monsters[c.monster]
        check_may_move(c, m)
        require(not flies(m), "MD-FLY-MUST", f"the {m.name} flies: it must fly (use fly SPACE), it cannot walk")
        here = pos_of(m)
        tr = track(st)
        target: Pos | None
        if sp == FINISH:
            target = next((q for q in ahead(here) if tr.off_end(q)), None)
            require(target is not None, "MD-MOVE-AHEAD", f"the finish line is not next to the {m.name} on {m.space}")
        else:
            target = parse_space(sp)
            forward = target in ahead(here)
            # the spaces it may step into are named only when the step is refused
            require(forward, "MD-MOVE-AHEAD", "" if forward else
                    f"{sp} is not one of the three spaces ahead of the {m.name} on {m.space}"
                    f" ({spaces_ahead(tr, here)}); monsters never go backwards")
        assert target is not None
        if not tr.off_end(target):
            require(tr.terrain(target) != "impassable", "MD-MOVE-IMPASSABLE", f"{sp} is impassable terrain")
            occ = occupant(st, target)
            who = f"the {occ.name}" if occ else "a grave"
            require(occ is None and not blocked(st, target), "MD-MOVE-BLOCKED",
                    f"{sp} holds {who}: a space with another monster in it is impassable")
        cost = 1 if tr.off_end(target) else walking_cost(st, m, target)
        assert cost is not None
        require(cost <= c.points, "MD-MOVE-POINTS",
                f"entering {sp} costs {cost} but the {m.name} has {c.points} movement point{'s' if c.points != 1 else ''} left")
        em.emit(MonsterMoved(monster=m.id, frm=m.space, to=FINISH if tr.off_end(target) else name(target), cost=cost))
        if tr.off_end(target):
            require(i == len(spaces) - 1, "MD-MOVE-FINISHED", f"the {m.name} crossed the finish line; it cannot move on")
            cross_finish_line(em, m.id)


def fly(em: Emitter, sp: str) -> None:
    """Flying: 1 point a space flown over, the landing space's cost to land, all points
    spent, and the flyer ends its movement landed (Control a Monster)."""
    st = em.state
    c = st.control
    assert c is not None
    m = st.monsters[c.monster]
    check_may_move(c, m)
    require(flies(m), "MD-FLY-ONLY", f"the {m.name} cannot fly")
    require(not c.flown, "MD-HOUSE-FLY-ONCE", f"the {m.name} has already flown and landed this turn")
    require(not c.stopover, "MD-HOUSE-FLY-STOPOVER", f"the {m.name} landed on {m.space} to attack: it attacks before flying on")
    require(not c.walked, "MD-FLY-MUST", f"the {m.name} has walked this turn; it cannot take off now")
    landings, can_finish = flight_options(st, m, c.points)
    stops = stopover_options(st, c, m)
    if sp == FINISH:
        require(can_finish, "MD-FLY-LAND", f"the {m.name} cannot reach the finish line with {c.points} points")
        em.emit(MonsterMoved(monster=m.id, frm=m.space, to=FINISH, cost=c.points, kind="fly"))
        cross_finish_line(em, m.id)
        return
    target = parse_space(sp)
    assert target is not None
    if target not in landings and target in stops:
        em.emit(MonsterMoved(monster=m.id, frm=m.space, to=sp, cost=stops[target], kind="fly", stop=True))
        return
    if target not in landings:
        impassable = track(st).terrain(target) == "impassable"
        free = not impassable and not blocked(st, target)
        occ = None if free or impassable else occupant(st, target)
        require(free, "MD-FLY-LAND", "" if free else
                f"the {m.name} cannot land on {sp}: "
                + ("it is impassable terrain, flown over but never landed on" if impassable else
                   f"it holds the {occ.name}" if occ else "it holds a grave")
                + "; a flyer lands on an empty space")
    require(target in landings, "MD-FLY-SPEND",
            f"the {m.name} cannot land on {sp} spending all {c.points} movement points,"
            " nor land there on its way to attack"
            f" (it may land on: {', '.join(sorted(name(q) for q in {**landings, **stops})) or 'nowhere'})")
    em.emit(MonsterMoved(monster=m.id, frm=m.space, to=sp, cost=landings[target], kind="fly"))


def attack(em: Emitter, rng: Rng, target: str) -> None:
    """"Select a monster that is in front of the attacking monster, then roll the Wacky die
    with a number of dice equal to the attacker's Attack value" (Monster Actions)."""
    st = em.state
    c = st.control
    assert c is not None
    m = st.monsters[c.monster]
    t = st.monsters.get(target)
    require(t is not None, "MD-ATTACK-FRONT", f"the {target} is not in this race")
    check_attack(st, c, m, t)
    assert t is not None
    dice = PhysicalDice(rng, f"attack {t.id}", st, m.id, t.id)
    resolve_attack(em, dice, m.id, t.id, "attack")  # type: ignore[arg-type]
    dice.check_all_used("" if em.state.curse is None else
                        "the cursed monster's way back comes first: give any later dice with the curse command")
    after_attack(em)


def curse(em: Emitter, rng: Rng, spaces: tuple[str, ...]) -> None:
    """The curse: "Move the cursed monster backwards 3 spaces using otherwise normal movement
    rules" (Ability Summary), then the attack goes on (a counter-strike, the Blast's others)."""
    st = em.state
    pc = st.curse
    require(pc is not None, "MD-CURSE-PATH", "no monster is waiting to be cursed back")
    assert pc is not None
    d = st.monsters[pc.monster]
    ways = curse_paths(st, d)
    dests = curse_destinations(st, d, ways)
    path = dests[spaces[0]] if len(spaces) == 1 and spaces[0] in dests else spaces
    require(path in ways, "MD-CURSE-PATH", f"the cursed {d.name} on {d.space} goes back {len(ways[0])} spaces, each into"
            f" a free space behind; it may end on {', '.join(sorted(dests))}"
            f" (e.g. curse {' '.join(ways[0])})")
    curse_back(em, d, path)
    dice = PhysicalDice(rng, "curse " + " ".join(spaces), st)
    resume_after_curse(em, dice, pc)  # type: ignore[arg-type]
    dice.check_all_used("" if em.state.curse is None else
                        "the next cursed monster's way back comes first: give any later dice with that curse command")
    after_attack(em)


def after_attack(em: Emitter) -> None:
    """After an attack: the game may be over; a killed or stunned attacker's turn ends."""
    if em.state.curse is not None:
        return  # the player first walks the cursed monster back
    if check_game_end(em):
        return
    c = em.state.control
    assert c is not None
    now = em.state.monsters[c.monster]
    if now.status != "racing":
        em.emit(ControlEnded(monster=now.id, reason="killed"))
        pass_turn(em)
    elif em.state.control is not None and em.state.control.stunned:
        em.emit(ControlEnded(monster=now.id, reason="stunned: it loses the rest of its turn"))
        pass_turn(em)


def recover(em: Emitter) -> None:
    """"Recover - Move the monster's hit point marker up one number on the track (unless it
    is at the top already)"; a monster either recovers or attacks (Monster Actions)."""
    c = em.state.control
    assert c is not None
    m = em.state.monsters[c.monster]
    require(not c.stopover, "MD-HOUSE-FLY-STOPOVER", f"the {m.name} landed on {m.space} to attack: it attacks, not recovers")
    require(not c.recovered, "MD-ACTION-ONE", f"the {m.name} already recovered this turn")
    require(not c.attacks, "MD-ACTION-ONE", f"the {m.name} attacked this turn; it recovers only if it does not attack")
    em.emit(Recovered(monster=m.id, hp=min(m.max_hp, m.hp + 1)))


def call(em: Emitter, target: str, sp: str) -> None:
    """Call: "Select any monster up to 3 spaces away (ahead or behind) and place it in any
    empty space next to Siren" (Ability Summary)."""
    st = em.state
    c = st.control
    assert c is not None
    m = st.monsters[c.monster]
    require(not (c.called and has_ability(m, "call")), "MD-HOUSE-CALL-ONCE", f"the {m.name} already called this turn")
    why = "has no Call ability" if m.ability != "call" else (
        "is in the red zone" if in_red_zone(m) else "is stunned")
    require(may_call(c, m), "MD-ABILITY-CALL", f"the {m.name} {why}")
    opts = call_options(st, m)
    t = st.monsters.get(target)
    require(t is not None and t.status == "racing" and t.id != m.id, "MD-ABILITY-CALL", f"the {target} cannot be called")
    assert t is not None
    require(any(o.id == t.id for o, _ in opts), "MD-ABILITY-CALL",
            f"the {t.name} is more than {st.options.get('call_range', 3)} spaces from the {m.name}")
    pos = parse_space(sp)
    require(any(o.id == t.id and q == pos for o, q in opts), "MD-ABILITY-CALL", f"{sp} is not an empty space next to the {m.name}")
    em.emit(MonsterMoved(monster=t.id, frm=t.space, to=sp, cost=0, kind="call"))


def copy_ability(em: Emitter, target: str) -> None:
    """Copy (house ability of the Doppelganger): take an adjacent monster's special
    ability for the rest of this turn; a copied 2x move counts the die again."""
    st = em.state
    c = st.control
    assert c is not None
    m = st.monsters[c.monster]
    require(m.ability == "copy", "MD-HOUSE-COPY", f"the {m.name} has no Copy ability")
    require(not in_red_zone(m), "MD-HOUSE-COPY", f"the {m.name} is in the red zone: no special ability")
    require(not c.copied, "MD-HOUSE-COPY", f"the {m.name} already copied an ability this turn")
    opts = copy_options(st, c, m)
    t = st.monsters.get(target)
    who = f"the {t.name}" if t else f"the {target}"
    require(t is not None and any(o.id == t.id for o in opts), "MD-HOUSE-COPY",
            f"{who} is not a monster next to the {m.name} with a special ability to copy"
            f" (next to it: {', '.join(o.id for o in opts) or 'none'})")
    assert t is not None
    gain = c.die if t.ability == "double_move" and c.can_move else 0
    em.emit(AbilityCopied(monster=m.id, source=t.id, ability=t.ability, points=gain))


def end_monster_turn(em: Emitter) -> None:
    """End Monster Turn: "A monster must spend all of its movement points going forward"
    (Control a Monster) first; a flyer "must attack and end their turn landed"."""
    st = em.state
    c = st.control
    assert c is not None
    m = st.monsters[c.monster]
    require(not c.stopover or stunned(c, m), "MD-HOUSE-FLY-STOPOVER",
            f"the {m.name} landed on {m.space} to attack: attack, then fly on")
    owed = can_still_move(st, c, m)
    require(not (owed and flies(m)), "MD-FLY-MUST", f"the {m.name} must fly and land, spending its movement points")
    require(not owed, "MD-MOVE-ALL", f"the {m.name} must spend all of its movement points ({c.points} left) going forward")
    end_control(em)


def choices_left(st: MDState) -> bool:
    """Whether the player still has anything to decide for the monster under control (the
    steps of ``legal.control_options`` before Recover and End)."""
    c = st.control
    assert c is not None
    m = st.monsters[c.monster]
    if st.curse is not None:
        return has_way_back(st, st.monsters[st.curse.monster])
    if may_move_now(c, m):
        if flies(m):
            if may_take_off(c):
                landings, fin = flight_options(st, m, c.points)
                if fin or landings or stopover_options(st, c, m):
                    return True
        # a first step is enough: every walk that can start ends somewhere (the whole
        # search for destinations is the menu's, and costs an audit most of its time)
        elif may_step(st, m, c.points):
            return True
    if may_attack_now(c, m) and attack_targets(st, m):
        return True
    if may_call(c, m) and call_options(st, m):
        return True
    return bool(copy_options(st, c, m))


def end_when_nothing_is_left(em: Emitter) -> None:
    """A turn with nothing left to choose ends by itself, recovering if it did not attack
    (house rule MD-HOUSE-AUTO-END)."""
    st = em.state
    c = st.control
    if c is None or st.phase != "play" or choices_left(st):
        return
    m = st.monsters[c.monster]
    end_control(em, "stunned: it loses the rest of its turn" if stunned(c, m) else "")


def turn_already_ended(state: MDState, seat: str, command: Any) -> RuleViolation | None:
    """A step for a monster whose turn already ended (stunned, unconscious, killed, across
    the line) is refused by the rule that ended that turn, not as a move out of turn."""
    if not isinstance(command, (Move, Fly, Attack, Recover, Call, Copy, End, Curse)):
        return None
    if len(state.ended) != 3 or state.ended[0] != seat:
        return None
    _seat, mid, reason = state.ended
    m = state.monsters.get(mid)
    what = m.name if m is not None else mid
    if reason.startswith("stunned"):
        return RuleViolation("MD-STUNNED", f"the {what} was stunned and has lost the rest of its turn")
    if reason.startswith("unconscious"):
        return RuleViolation("MD-RED-NO-MOVE", f"the {what} is still in the red zone after recovering:"
                             " it is unconscious, does not move and its turn is over")
    if reason.startswith("killed"):
        return RuleViolation("MD-DEATH-GRAVE", f"the {what} died; its turn is over")
    if reason.startswith("crossed"):
        return RuleViolation("MD-MOVE-FINISHED", f"the {what} crossed the finish line; it moves no further")
    return None
