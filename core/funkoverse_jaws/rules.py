"""The rules of Funkoverse Jaws 100 as functions named after the rulebook's words.

``decide`` turns one command into events. Every check goes through ``require(condition,
rule_id, message)`` with an id from ``fixtures/funkoverse-jaws/rules.toml``, so that a
refusal cites its rule and ``arbiter why`` lists the checks a command passed. Map geometry
lives in :mod:`.board`.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import msgspec

from arbiter.core.dice import Rng
from arbiter.core.errors import ManualDiceError, RuleViolation, require
from arbiter.core.funkoverse_jaws import commands as C
from arbiter.core.funkoverse_jaws.board import (Geometry, Sq, can_see, distance, geometry, neighbours,
                                                parse_square, square_name)
from arbiter.core.game import Emitter as KernelEmitter
from arbiter.events import funkoverse_jaws as E
from arbiter.events.base import Event
from arbiter.projections.funkoverse_jaws import Char, FJProjection, FJState, content_names, count, named, other

PROJECTION = FJProjection()


class Emitter(KernelEmitter[FJState]):
    """The events one command decides, folded into ``state`` as they are emitted."""

    @property
    def content(self) -> dict[str, Any]:
        """The rule tables recorded in GameCreated (characters, scenarios, successes)."""
        return self.state.content

    @property
    def active(self) -> Char:
        """The character taking the turn."""
        return self.state.chars[self.state.active or ""]


# -- who is where ------------------------------------------------------------------------

def on_map(state: FJState) -> dict[Sq, str]:
    return {parse_square(c.square): c.id for c in state.chars.values() if c.square is not None}


def standing_rivals(state: FJState, side: str) -> set[Sq]:
    """Squares of the standing characters that are rivals of ``side``."""
    return {parse_square(c.square) for c in state.chars.values()
            if c.square is not None and c.side != side and c.standing}


def geo(state: FJState) -> Geometry:
    return geometry(state.board)


def sees(state: FJState, side: str, a: Sq, b: Sq) -> bool:
    """"What Your Character Can See" for a character of ``side`` standing on ``a``."""
    return can_see(geo(state), standing_rivals(state, side), a, b)


def adjacent(state: FJState, side: str, a: Sq, b: Sq) -> bool:
    """"Adjacency": straight beside or diagonal to the character, and seen."""
    return distance(a, b) == 1 and sees(state, side, a, b)


def within(a: Sq, b: Sq, n: int) -> bool:
    """"Within a Number of Squares": counted as for movement, ignoring what blocks sight."""
    return distance(a, b) <= n


# -- moving --------------------------------------------------------------------------------

def reachable(state: FJState, char: Char, steps: int, *, toward: Sq | None = None,
              ignore_rivals: bool = False, ignore_corners: bool = False) -> dict[Sq, tuple[Sq, ...]]:
    """"How to Move Something", rules 1-6: every square ``char`` may end on within ``steps``,
    with a shortest path. ``toward``: each square entered must be nearer that square and
    seen from where the mover stands ("Toward")."""
    g = geo(state)
    start = parse_square(char.square or "a1")
    occupied = on_map(state)
    blockers = set() if ignore_rivals else standing_rivals(state, char.side)
    paths: dict[Sq, tuple[Sq, ...]] = {start: ()}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if len(paths[here]) >= steps:
            continue
        for nxt in neighbours(here):
            if nxt in paths or not g.on_board(nxt):
                continue
            if not g.step_open(here, nxt):
                diagonal = here[0] != nxt[0] and here[1] != nxt[1]
                post = (2 * max(here[0], nxt[0]), 2 * max(here[1], nxt[1])) in g.post_points
                if not (ignore_corners and diagonal and post and g.enterable(nxt)):
                    continue
            if nxt in blockers:  # rule 5
                continue
            if toward is not None:
                if distance(nxt, toward) >= distance(here, toward):
                    continue
                if not sees(state, char.side, here, nxt):
                    continue
            paths[nxt] = paths[here] + (nxt,)
            queue.append(nxt)
    return {sq: p for sq, p in paths.items() if p and sq not in occupied}  # rule 6


def move_allowance(char: Char, base: int) -> int:
    """Barrel: all of this character's moves are reduced by 1."""
    return max(0, base - (1 if any(s.startswith("barrel-") for s in char.statuses) else 0))


def check_move_destination(state: FJState, char: Char, dest: Sq, steps: int,
                           toward: Sq | None = None) -> tuple[Sq, ...]:
    """The path of a legal move to ``dest``, or the movement rule it breaks."""
    paths = reachable(state, char, steps, toward=toward)
    if dest in paths:
        return check_path(state, char, list(paths[dest]), steps, toward=toward)
    g = geo(state)
    name = square_name(dest)
    start = parse_square(char.square or "a1")
    require(g.on_board(dest), "FJ-MOVE-2", f"{name} is not on the map")
    require(dest != start, "FJ-MOVE-6", f"{char.name} is already on {name}")
    require(dest not in on_map(state), "FJ-MOVE-6", f"{char.name} cannot end a move on {name}: it is occupied")
    require(g.enterable(dest), "FJ-MOVE-2", f"an obstruction fills the centre of {name}: it cannot be entered")
    require(distance(start, dest) <= steps, "FJ-MOVE-RANGE", f"{name} is more than {count(steps, 'square')} from {char.name}")
    if distance(start, dest) == 1 and not g.step_open(start, dest):
        require(not (start[0] != dest[0] and start[1] != dest[1]), "FJ-MOVE-3", f"{char.name} cannot move diagonally through the obstructed corner to {name}")
        raise RuleViolation("FJ-MOVE-1", f"{char.name} cannot move through the wall to {name}")
    require(not (toward is not None and dest in reachable(state, char, steps)), "FJ-TOWARD", f"every square entered must be nearer the target and seen: {name} is not reachable that way")
    require(dest not in reachable(state, char, steps, ignore_rivals=True), "FJ-MOVE-5", f"{char.name} cannot move through a standing rival to reach {name}")
    require(dest not in reachable(state, char, steps, ignore_rivals=True, ignore_corners=True), "FJ-MOVE-3", f"{char.name} cannot move diagonally through an obstructed corner to reach {name}")
    raise RuleViolation("FJ-MOVE-1", f"{char.name} cannot move through obstructions to reach {name}")


def route_note(state: FJState, char: Char, path: tuple[Sq, ...], toward: Sq | None = None) -> str:
    """Why a move took a longer route than the direct one (so `try` says which way it went)."""
    if not path:
        return ""
    start, dest = parse_square(char.square or "a1"), path[-1]
    if len(path) <= distance(start, dest):
        return ""
    g = geo(state)
    a, b = square_name(start), square_name(dest)
    if distance(start, dest) == 1 and not g.step_open(start, dest):
        if start[0] != dest[0] and start[1] != dest[1]:
            return f"round the obstructed corner, not diagonally {a} > {b}: FJ-MOVE-3"
        return f"round the wall between {a} and {b}: FJ-MOVE-1"
    steps = len(path)
    for kw, why in (({"ignore_rivals": True}, "round a standing rival: FJ-MOVE-5"),
                    ({"ignore_corners": True}, "round an obstructed corner: FJ-MOVE-3")):
        p = reachable(state, char, steps, toward=toward, **kw).get(dest)
        if p is not None and len(p) < len(path):
            return why
    return "round an obstruction or an occupied square: FJ-MOVE-1, FJ-MOVE-6"


def check_path(state: FJState, char: Char, squares: list[Sq], steps: int,
               toward: Sq | None = None) -> tuple[Sq, ...]:
    """A move along ``squares``, one step at a time: "How to Move Something", rules 1-6
    (and "Toward": each square entered nearer ``toward`` and seen)."""
    g = geo(state)
    if squares and squares[0] == parse_square(char.square or "a1"):
        squares = squares[1:]  # "move b2 c3" from b2: the first square named is the start
    require(bool(squares), "FJ-MOVE-6", f"{char.name} is already there: name a square to move to")
    require(len(squares) <= steps, "FJ-MOVE-RANGE", f"{char.name} may move only {count(steps, 'square')} now, not {len(squares)}")
    occupied = on_map(state)
    rivals = standing_rivals(state, char.side)
    here = parse_square(char.square or "a1")
    for i, nxt in enumerate(squares):
        name = square_name(nxt)
        require(distance(here, nxt) == 1, "FJ-MOVE-RANGE", f"{name} is not next to {square_name(here)}: name every square entered")
        require(g.enterable(nxt), "FJ-MOVE-2", f"an obstruction fills the centre of {name}: it cannot be entered")
        diagonal = here[0] != nxt[0] and here[1] != nxt[1]
        require(not diagonal or g.step_open(here, nxt), "FJ-MOVE-3", f"{char.name} cannot move diagonally from {square_name(here)} to {name} through an obstructed corner")
        require(diagonal or g.step_open(here, nxt), "FJ-MOVE-1", f"{char.name} cannot move from {square_name(here)} to {name} through the wall")
        require(nxt not in rivals, "FJ-MOVE-5", f"{char.name} cannot move through {name}: a standing rival is there")
        if nxt in occupied and i < len(squares) - 1:
            through = state.chars[occupied[nxt]]
            require(through.side == char.side or not through.standing, "FJ-MOVE-4", f"{char.name} moves through {name}: only allies' squares (and knocked-down rivals') can be passed")
        if toward is not None:
            require(distance(nxt, toward) < distance(here, toward) and sees(state, char.side, here, nxt), "FJ-TOWARD",
                    f"every square entered must be nearer the target and seen: {name} is not")
        here = nxt
    require(here not in occupied, "FJ-MOVE-6", f"{char.name} cannot end a move on {square_name(here)}: it is occupied")
    return tuple(squares)


def moved(em: Emitter, c: Char, path: tuple[Sq, ...], how: str, toward: Any = None) -> None:
    """Record the route taken, square by square, with why it is not the direct one; then the
    cards that a move changes: Emerged ("If the Shark does an action that moves it, the Shark
    submerges") and Barrel ("Discard this card after this character ... does a move")."""
    if path:
        em.emit(E.CharacterMoved(char=c.id, path=tuple(square_name(p) for p in path), how=how, start=c.square or "",
                                 route=route_note(em.state, c, tuple(path), toward)))
    if c.emerged:
        em.emit(E.SharkSurfaced(char=c.id, emerged=False))
    for card in c.statuses:
        if card.startswith("barrel-"):
            em.emit(E.StatusDiscarded(card=card, char=c.id))


# -- challenges ----------------------------------------------------------------------------

def successes(content: dict[str, Any], role: str, faces: tuple[str, ...]) -> int:
    """"Resolving a Challenge": stars (challenger) or circles (defender) 1, double-exclamation 3."""
    table = content["successes"][role]
    return sum(table.get(f, 0) for f in faces)


def check_challenge_target(state: FJState, char: Char, target_id: str, *, range_: int | None = None) -> Char:
    """A challenge's target: a rival on the map, adjacent, or seen and within range."""
    target = state.chars[target_id]
    require(target.side != char.side, "FJ-CHALLENGE-ALLY", f"{char.name} cannot challenge an ally ({target.name})")
    require(target.square is not None, "FJ-TARGET-OFF-MAP", f"{target.name} is not on the map")
    a, b = parse_square(char.square or "a1"), parse_square(target.square or "a1")
    if range_ is None:
        if not adjacent(state, char.side, a, b):
            why = "not next to it" if distance(a, b) > 1 else "an obstruction blocks the view"
            raise RuleViolation("FJ-ADJACENT", f"{target.name} is not adjacent to {char.name} ({why})")
        require(distance(a, b) == 1, "FJ-ADJACENT", "")
        require(sees(state, char.side, a, b), "FJ-SIGHT", "")
    else:
        require(within(a, b, range_), "FJ-RANGE", f"{target.name} is not within {range_} squares of {char.name}")
        require(sees(state, char.side, a, b), "FJ-SIGHT", f"{char.name} cannot see {target.name}")
    return target


def check_not_submerged(char: Char, what: str) -> None:
    """Submerged: the Shark may not do assist, challenge or interact actions."""
    if char.emerged is None:  # only the Shark has the Submerged / Emerged card
        return
    require(char.emerged is not False, "FJ-SUBMERGED", f"the Shark is submerged and cannot {what}; it must emerge first")


def status_cards_of(state: FJState, side: str, target: Char) -> int:
    """Status cards the ``side`` put on ``target`` (Hunted is Quint's; a Barrel its gun's side's)."""
    n = 0
    for card in target.statuses:
        if card == "hunted" and state.chars["quint"].side == side:
            n += 1
        elif card == f"barrel-{side}":
            n += 1
    return n


def harpoon_available(state: FJState, char: Char) -> bool:
    """Harpoon Gun: held, not on the cooldown track, and its Barrel card not in play."""
    if char.item != "harpoon-gun":
        return False
    if f"item:{char.id}:harpoon-gun" in state.sides[char.side].cooldown:
        return False
    card = f"barrel-{char.side}"
    return not any(card in c.statuses for c in state.chars.values())


def check_harpoon(state: FJState, c: Char, harpoon: bool) -> bool:
    """Harpoon Gun: when its holder challenges a rival character, it may go on the 1."""
    if not harpoon:
        return False
    if not harpoon_available(state, c):
        why = ("does not hold a Harpoon Gun" if c.item != "harpoon-gun" else
               "has its Harpoon Gun on the cooldown track or its Barrel card in play")
        raise RuleViolation("FJ-HARPOON", f"{c.name} {why}")
    return True


def check_manual_dice(rng: Rng, c: Char, t: Char, dice: int) -> None:
    """With physical dice, ask for both rolls of a challenge at once, challenger first."""
    given = getattr(rng, "manual", None)
    if given is None:
        return
    left = len(given) - getattr(rng, "_used", 0)
    if left < dice + t.defense:
        example = " ".join(["star"] * dice + ["circle"] * t.defense)
        raise ManualDiceError(
            f"this challenge rolls {dice} dice for {c.name} and {t.defense} for {t.name}'s defense:"
            f" give all {dice + t.defense} faces in brackets, {c.name}'s first",
            hint=f"e.g. `... [{example}]` (faces: star, circle, crit)")


def resolve_challenge(em: Emitter, c: Char, t: Char, kind: str, dice: int, harpoon: bool,
                      rng: Rng, extra_per_status: bool = False) -> None:
    """Resolving a Challenge: both roll, more successes wins, ties to the defender."""
    if harpoon:
        em.emit(E.ItemCooled(side=c.side, item="harpoon-gun", char=c.id, slot=1))
        em.emit(E.StatusGiven(card=f"barrel-{c.side}", char=t.id, by=c.id))
        t = em.state.chars[t.id]
    extra = 0
    if extra_per_status:  # Can Crusher: one extra die per status card of yours on the target
        extra = status_cards_of(em.state, c.side, t)
        require(True, "FJ-CAN-CRUSHER", "")
    dice += extra
    check_manual_dice(rng, c, t, dice)
    em.emit(E.ChallengeDeclared(challenger=c.id, target=t.id, kind=kind, dice=dice, defense=t.defense, extra=extra))
    att = rng.roll(["funkoverse"] * dice, purpose=f"{c.id} challenges ({kind})")
    em.emit(att)
    dfn = rng.roll(["funkoverse"] * t.defense, purpose=f"{t.id} defends")
    em.emit(dfn)
    cs = successes(em.content, "challenger", att.faces)
    ds = successes(em.content, "defender", dfn.faces)
    won = cs > ds
    require(True, "FJ-RESOLVE", "")
    result = "none"
    if won:
        result = "knocked-down" if (t.standing and t.id != "shark") else "knocked-out"
        if t.standing and t.id == "shark":
            require(True, "FJ-UNDERWATER-PREDATOR", "")
    em.emit(E.ChallengeResolved(challenger=c.id, target=t.id, kind=kind, challenger_faces=att.faces,
                                defender_faces=dfn.faces, challenger_successes=cs,
                                defender_successes=ds, won=won, result=result))
    if result == "knocked-down":
        em.emit(E.KnockedDown(char=t.id))
    elif result == "knocked-out":
        knocked_out(em, t, c)


def knocked_out(em: Emitter, t: Char, by: Char) -> None:
    """Knocked Out: off the map onto the 1 of the cooldown track; Hunted and points resolve."""
    em.emit(E.KnockedOut(char=t.id, by=by.id))
    for card in t.statuses:
        if card.startswith("barrel-"):  # Barrel: discard after this character is knocked out
            em.emit(E.StatusDiscarded(card=card, char=t.id))
    if by.id == "quint" and "hunted" in t.statuses:  # Hunted
        require(True, "FJ-HUNTED", "")
        cd = em.state.sides[by.side].cooldown
        toks = tuple(sorted(k.split(":")[1] for k in cd if k in ("token:cunning", "token:might")))
        em.emit(E.HuntedShift(side=by.side, tokens=toks))
    if em.state.mode == "first-game":
        em.emit(E.GameWon(side=by.side, reason=f"{by.name} knocked out {t.name} (first-game victory)"))
        return
    pts = em.content["scenarios"][em.state.mode].get("knockout_points", 1)
    em.emit(E.PointsGained(side=by.side, points=pts, why=f"{by.name} knocked out {t.name}"))


# -- squares the abilities and scenarios offer ----------------------------------------------

def hunted_rival(state: FJState, side: str) -> Char | None:
    for c in state.chars.values():
        if c.side != side and "hunted" in c.statuses:
            return c
    return None


def flag_eligible(state: FJState, side: str) -> list[str]:
    """Flags: standing characters on or adjacent to the opponent's flag marker."""
    flag = parse_square(state.board.flags[other(state, side)])
    out = []
    for c in state.chars.values():
        if c.side == side and c.square is not None and c.standing:
            here = parse_square(c.square)
            if here == flag or adjacent(state, side, here, flag):
                out.append(c.id)
    return out


def placement_squares(state: FJState, side: str) -> list[str]:
    """Empty squares of the starting area (house: if all are taken, the nearest empty squares)."""
    occupied = on_map(state)
    start = [s for s in state.board.start[side] if parse_square(s) not in occupied]
    if start:
        return start
    g = geo(state)
    area = [parse_square(s) for s in state.board.start[side]]
    free = [(x, y) for y in range(state.board.rows) for x in range(state.board.columns)
            if g.enterable((x, y)) and (x, y) not in occupied]
    best = min(min(distance(f, a) for a in area) for f in free)
    return [square_name(f) for f in free if min(distance(f, a) for a in area) == best]


def blood_squares(s: FJState, c: Char, spec: dict[str, Any]) -> list[str]:
    """Blood in the Water: squares adjacent to a rival within 3, or to any knocked-down rival."""
    here = parse_square(c.square or "")
    occupied = on_map(s)
    g = geo(s)
    out: set[str] = set()
    for t in s.chars.values():
        if t.side == c.side or t.square is None:
            continue
        tp = parse_square(t.square)
        if not (within(here, tp, spec["range"]) or not t.standing):
            continue
        for n in neighbours(tp):
            if g.enterable(n) and n not in occupied and adjacent(s, c.side, n, tp):
                out.add(square_name(n))
    return sorted(out)


def jaws_squares(s: FJState) -> list[str]:
    """Jaws!: the empty squares adjacent to the Shark, where the target may be placed."""
    shark = s.chars["shark"]
    here = parse_square(shark.square or "")
    occupied = on_map(s)
    g = geo(s)
    return [square_name(n) for n in neighbours(here)
            if g.enterable(n) and n not in occupied and adjacent(s, shark.side, here, n)]


def veteran_targets(s: FJState) -> list[str]:
    """Veteran Hunter: the rival characters the Hunted card may be given or moved to."""
    q = s.chars["quint"]
    return [c.id for c in s.chars.values() if c.side != q.side and "hunted" not in c.statuses]


# -- deciding --------------------------------------------------------------------------------

PHASE_COMMANDS: dict[str, tuple[type, ...]] = {
    "place": (C.Place,), "choose": (C.Choose,), "jaws": (C.Put, C.Leave),
    "veteran": (C.Hunt, C.NoHunt), "flags": (C.Return, C.Done),
    "act": (C.Move, C.Challenge, C.Assist, C.Rally, C.Emerge, C.InteractPoint, C.InteractMark,
            C.InteractFlip, C.UseItem, C.End, C.Swim, C.BloodInTheWater, C.Jaws, C.FarewellAndAdieu,
            C.CanCrusher, C.CompareScars),
}


def decide(state: FJState, seat: str, command: C.Command, rng: Rng) -> list[Event]:
    """The events of ``command`` now, or a ``RuleViolation`` citing the rule it breaks."""
    require(isinstance(command, PHASE_COMMANDS.get(state.phase, ())), "FJ-PHASE",
            f"{command.verb} is not open now ({PROJECTION.to_act(state).prompt})")
    em = Emitter(state, PROJECTION, rng)
    RULES[type(command)](em, command, rng)
    return em.events


# -- setup placement ------------------------------------------------------------------------

def place_character(em: Emitter, cmd: C.Place, rng: Rng) -> None:
    """Setup 11 / Cooldown: characters go on empty squares of their starting area."""
    s = em.state
    cid, square = cmd.char, cmd.square
    side = s.chars[s.pending_place[0]].side
    if cid not in s.pending_place or s.chars[cid].side != side:
        mine = [c for c in s.pending_place if s.chars[c].side == side]
        waiting = " or ".join(s.chars[c].name for c in mine) + f" (e.g. `place {mine[0]} SQUARE`)"
        theirs = s.chars.get(cid)
        if theirs is not None and theirs.side != side:
            raise RuleViolation("FJ-PLACE-WHO", f"{theirs.name} is the {theirs.side} side's character ({theirs.seat}'s):"
                                f" each side places only its own, and the {side} side places {waiting}")
        who = theirs.name if theirs is not None else cid
        raise RuleViolation("FJ-PLACE-WHO", f"{who} is not waiting to be placed; waiting: {waiting}")
    require(square in placement_squares(s, side), "FJ-PLACE-START", f"{square} is not an empty square of the {side} starting area")
    em.emit(E.CharacterPlaced(char=cid, square=square, why="setup" if s.phase == "place" and s.round == 1 and not s.active else "return"))
    if em.state.pending_place:
        em.emit(E.PhaseChanged(phase="place", side=em.state.chars[em.state.pending_place[0]].side))
    else:
        em.emit(E.PhaseChanged(phase="choose", side=em.state.first))


# -- taking a turn --------------------------------------------------------------------------

def choose_a_character(em: Emitter, cmd: C.Choose, rng: Rng) -> None:
    """Taking a Turn 1: choose one of your characters without an exhausted marker."""
    s = em.state
    c = s.chars[cmd.char]
    require(c.side == s.turn_side, "FJ-CHOOSE", f"{c.name} is not on the {s.turn_side} side")
    require(not c.exhausted, "FJ-CHOOSE", f"{c.name} has an exhausted marker and cannot take another turn this round")
    em.emit(E.CharacterChosen(char=c.id, empty=c.out))
    if c.out:  # "Knocked Out": chosen, takes an empty turn, and is exhausted
        exhaust(em)


def spend_action(em: Emitter, action: str, n: int = 1) -> None:
    em.emit(E.ActionDone(char=em.active.id, action=action, left=em.state.actions_left - n))


BASIC_VERBS = {"move": "move", "basic-challenge": "challenge", "assist": "assist", "interact": "interact",
               "rally": "rally", "emerge": "emerge"}


def check_action(s: FJState, c: Char, action: str, n: int = 1) -> None:
    """Taking a Turn 2-3: up to two actions; a knocked-down character can only rally."""
    verb = BASIC_VERBS.get(action, f"do {named(action, content_names(s.content))}")
    require(s.actions_left >= n, "FJ-ACTIONS", f"{c.name} has {count(s.actions_left, 'action')} left, and it takes {n} to {verb}")
    require(not (not c.standing and action not in ("rally", "compare-scars")), "FJ-KNOCKED-DOWN", f"{c.name} is knocked down: it cannot {verb}, only rally (or be assisted)")


def after_action(em: Emitter) -> None:
    if em.state.phase != "act":
        return
    if em.state.actions_left <= 0:
        exhaust(em)


def end_turn(em: Emitter, cmd: C.End, rng: Rng) -> None:
    """Taking a Turn 4: exhaust your character (its remaining actions are given up)."""
    exhaust(em)


def exhaust(em: Emitter) -> None:
    """Taking a Turn 4-5: exhaust the character; Quint's Veteran Hunter may act now."""
    c = em.active
    em.emit(E.Exhausted(char=c.id))
    if c.id == "quint" and not c.basic and veteran_targets(em.state):
        em.emit(E.PhaseChanged(phase="veteran", side=c.side, char=c.id))
        return
    next_player(em)


def next_player(em: Emitter) -> None:
    """Taking a Turn 5: the other player takes a turn (or this one again, when the other has
    exhausted all its characters); when all are exhausted the round ends."""
    s = em.state
    if s.phase == "over":
        return
    cur = s.turn_side
    for side in (other(s, cur), cur):
        if any(not c.exhausted for c in s.chars.values() if c.side == side):
            em.emit(E.PhaseChanged(phase="choose", side=side))
            return
    ending_a_round(em)


# -- basic actions ----------------------------------------------------------------------------

def move(em: Emitter, cmd: C.Move, rng: Rng) -> None:
    """Basic action Move: up to 2 squares ("How to Move Something", rules 1-6)."""
    c = em.active
    check_action(em.state, c, "move")
    steps = move_allowance(c, 2)
    if len(cmd.squares) > 1:  # the player named every square entered
        path = check_path(em.state, c, [parse_square(a) for a in cmd.squares], steps)
    else:
        path = check_move_destination(em.state, c, parse_square(cmd.squares[0]), steps)
    spend_action(em, "move")
    moved(em, c, path, "move")
    after_action(em)


def rally(em: Emitter, cmd: C.Rally, rng: Rng) -> None:
    """Taking a Turn 3 (Rally): a knocked-down character stands up using both actions."""
    c = em.active
    require(not c.standing, "FJ-RALLY", f"{c.name} is standing; only a knocked-down character rallies")
    require(em.state.actions_left >= 2, "FJ-RALLY", f"rallying uses both actions and {c.name} has {em.state.actions_left} left")
    spend_action(em, "rally", 2)
    em.emit(E.StoodUp(char=c.id, how="rally"))
    after_action(em)


def assist(em: Emitter, cmd: C.Assist, rng: Rng) -> None:
    """Basic action Assist: stand up an adjacent ally that has been knocked down."""
    c = em.active
    check_action(em.state, c, "assist")
    check_not_submerged(c, "assist")
    t = em.state.chars[cmd.ally]
    require(not (t.side != c.side or t.id == c.id), "FJ-ASSIST", f"{t.name} is not an ally of {c.name}")
    require(not (t.square is None or t.standing), "FJ-ASSIST", f"{t.name} is not knocked down on the map")
    require(adjacent(em.state, c.side, parse_square(c.square or ""), parse_square(t.square or "")), "FJ-ADJACENT", f"{t.name} is not adjacent to {c.name}")
    spend_action(em, "assist")
    em.emit(E.StoodUp(char=t.id, how="assist", by=c.id))
    after_action(em)


def emerge(em: Emitter, cmd: C.Emerge, rng: Rng) -> None:
    """Submerged: as a basic action, the Shark may emerge."""
    c = em.active
    check_action(em.state, c, "emerge")
    require(c.emerged is not None, "FJ-EMERGE", f"only the Shark submerges and emerges, not {c.name}")
    require(c.emerged is False, "FJ-EMERGE", f"{c.name} is already emerged")
    spend_action(em, "emerge")
    em.emit(E.SharkSurfaced(char=c.id, emerged=True))
    after_action(em)


def basic_challenge(em: Emitter, cmd: C.Challenge, rng: Rng) -> None:
    """Basic Challenge: roll 2 dice against an adjacent rival."""
    c = em.active
    check_action(em.state, c, "challenge")
    check_not_submerged(c, "challenge")
    t = check_challenge_target(em.state, c, cmd.target)
    harpoon = check_harpoon(em.state, c, cmd.harpoon)
    spend_action(em, "basic-challenge")
    resolve_challenge(em, c, t, "basic-challenge", 2, harpoon, rng)
    after_action(em)


def use_item(em: Emitter, cmd: C.UseItem, rng: Rng) -> None:
    """Doing the Use-Item Action: only items with a number icon need it."""
    raise RuleViolation("FJ-ITEM-TRAIT", "the Harpoon Gun has no number icon: it works as a trait when its holder"
                        " challenges (add 'harpoon' to the challenge), not as a use-item action")


def interact_point_marker(em: Emitter, cmd: C.InteractPoint, rng: Rng) -> None:
    """Point Markers: on or adjacent to a point marker, interact to gain a point."""
    s = em.state
    c = em.active
    check_interact(s, c)
    here = parse_square(c.square or "")
    what = cmd.letter
    sq = s.point_markers.get(what)
    require(sq is not None, "FJ-POINT-MARKER", f"point marker {what} is not on the map")
    p = parse_square(sq or "")
    require(not (p != here and not adjacent(s, c.side, here, p)), "FJ-POINT-MARKER", f"{c.name} is neither on nor adjacent to point marker {what} ({sq})")
    spend_action(em, "interact")
    em.emit(E.PointMarkerTaken(letter=what, char=c.id, side=c.side))
    em.emit(E.PointsGained(side=c.side, points=1, why=f"point marker {what}"))
    after_action(em)


def check_interact(s: FJState, c: Char) -> None:
    """Interact: "not used in your first game"; an action; not while Submerged."""
    require(s.mode != "first-game", "FJ-INTERACT-FIRST-GAME", "the interact action is not used in the first game")
    check_action(s, c, "interact")
    check_not_submerged(c, "interact")


def interact_place_control_marker(em: Emitter, cmd: C.InteractMark, rng: Rng) -> None:
    """Control: in a control area, place a control marker in any square of it (one per area)."""
    s = em.state
    c = em.active
    check_interact(s, c)
    require(s.mode == "control", "FJ-CONTROL", "control markers are used only in the Control scenario")
    target = cmd.square
    area = next((a for a, sqs in s.board.control_areas.items() if c.square in sqs), None)
    require(area is not None, "FJ-CONTROL", f"{c.name} is not in a control area")
    require(target in s.board.control_areas[area or ""], "FJ-CONTROL", f"{target} is not in control area {area}")
    require(area not in s.control, "FJ-CONTROL", f"control area {area} already has a control marker")
    spend_action(em, "interact")
    em.emit(E.ControlMarkerPlaced(area=area or "", side=c.side, square=target, char=c.id))
    after_action(em)


def interact_flip_control_marker(em: Emitter, cmd: C.InteractFlip, rng: Rng) -> None:
    """Control: on or adjacent to a control marker, flip it over."""
    s = em.state
    c = em.active
    check_interact(s, c)
    require(s.mode == "control", "FJ-CONTROL", "control markers are used only in the Control scenario")
    here = parse_square(c.square or "")
    area = cmd.area
    require(area in s.control, "FJ-CONTROL", f"control area {area} has no control marker to flip")
    showing, sq = s.control[area]
    p = parse_square(sq)
    require(not (p != here and not adjacent(s, c.side, here, p)), "FJ-CONTROL", f"{c.name} is neither on nor adjacent to the control marker on {sq}")
    spend_action(em, "interact")
    em.emit(E.ControlMarkerFlipped(area=area, side=other(s, showing), char=c.id))
    after_action(em)


# -- abilities ---------------------------------------------------------------------------------

def ability(em: Emitter, c: Char, aid: str) -> dict[str, Any]:
    """Doing an Ability 1-2: the character has it and a token of its type is in the pool."""
    require(not c.basic, "FJ-BASIC-NO-ABILITIES", f"{c.name} is a basic character and has no abilities")
    spec = em.content["characters"][c.id]["abilities"].get(aid)
    require(spec is not None, "FJ-UNKNOWN-ABILITY", f"{c.name} has no ability {aid}")
    check_action(em.state, c, aid)
    require(spec["type"] in em.state.sides[c.side].pool, "FJ-TOKEN", f"no {spec['type']} ability token in the {c.side} pool: {spec['name']} cannot be used")
    return spec


def pay(em: Emitter, c: Char, aid: str, spec: dict[str, Any]) -> None:
    """Doing an Ability 2: the token goes on the cooldown track at the ability's cost."""
    spend_action(em, aid)
    em.emit(E.TokenSpent(side=c.side, token=spec["type"], slot=spec["cost"], ability=aid, char=c.id))


def swim(em: Emitter, cmd: C.Swim, rng: Rng) -> None:
    """Swim (2, finesse): move 3; the Shark may emerge."""
    c = em.active
    spec = ability(em, c, "swim")
    steps = move_allowance(c, spec["move"])
    if len(cmd.squares) > 1:
        path = check_path(em.state, c, [parse_square(a) for a in cmd.squares], steps)
    else:
        path = check_move_destination(em.state, c, parse_square(cmd.squares[0]), steps)
    pay(em, c, "swim", spec)
    moved(em, c, path, "swim")
    if cmd.emerge:
        em.emit(E.SharkSurfaced(char=c.id, emerged=True))
    after_action(em)


def blood_in_the_water(em: Emitter, cmd: C.BloodInTheWater, rng: Rng) -> None:
    """Blood in the Water (3, might): place the Shark next to a rival; it may emerge."""
    c = em.active
    spec = ability(em, c, "blood-in-the-water")
    require(cmd.square in blood_squares(em.state, c, spec), "FJ-BLOOD", f"{cmd.square} is not an empty square adjacent to a rival within " f"{spec['range']} squares or to a knocked-down rival")
    pay(em, c, "blood-in-the-water", spec)
    em.emit(E.CharacterPlaced(char=c.id, square=cmd.square, why="blood-in-the-water"))
    if em.state.options.get("placing-is-moving", False):  # the house reading FJ-HOUSE-PLACING
        require(True, "FJ-HOUSE-PLACING", "")
        if c.emerged:  # Emerged: "If the Shark does an action that moves it, the Shark submerges."
            em.emit(E.SharkSurfaced(char=c.id, emerged=False))
        for card in c.statuses:
            if card.startswith("barrel-"):  # Barrel: "Discard this card after ... does a move."
                em.emit(E.StatusDiscarded(card=card, char=c.id))
    if cmd.emerge and not em.state.chars[c.id].emerged:
        em.emit(E.SharkSurfaced(char=c.id, emerged=True))
    after_action(em)


def jaws(em: Emitter, cmd: C.Jaws, rng: Rng) -> None:
    """Jaws! (3, might, challenge): challenge 5; you may place the target next to the Shark."""
    c = em.active
    spec = ability(em, c, "jaws")
    check_not_submerged(c, "do Jaws!")
    t = check_challenge_target(em.state, c, cmd.target)
    harpoon = check_harpoon(em.state, c, cmd.harpoon)
    pay(em, c, "jaws", spec)
    resolve_challenge(em, c, t, "jaws", spec["dice"], harpoon, rng)
    if em.state.phase == "over":
        return
    if em.state.chars[t.id].square is not None and jaws_squares(em.state):
        em.emit(E.PhaseChanged(phase="jaws", side=c.side, char=t.id))
        return
    after_action(em)


def put_the_target(em: Emitter, cmd: C.Put, rng: Rng) -> None:
    """Jaws!: place the target in any square adjacent to the Shark."""
    require(cmd.square in jaws_squares(em.state), "FJ-JAWS-PLACE", f"{cmd.square} is not an empty square adjacent to the Shark")
    target = em.state.target or ""
    em.emit(E.CharacterPlaced(char=target, square=cmd.square, why="jaws"))
    em.emit(E.PhaseChanged(phase="act", side=em.state.turn_side, char=em.state.active))
    after_action(em)


def leave_the_target(em: Emitter, cmd: C.Leave, rng: Rng) -> None:
    """Jaws!: placing the target is optional ("you may")."""
    em.emit(E.PhaseChanged(phase="act", side=em.state.turn_side, char=em.state.active))
    after_action(em)


def farewell_and_adieu(em: Emitter, cmd: C.FarewellAndAdieu, rng: Rng) -> None:
    """Farewell and Adieu (4, might, challenge): move up to 4 toward the Hunted rival, challenge 2."""
    c = em.active
    spec = ability(em, c, "farewell-and-adieu")
    t = hunted_rival(em.state, c.side)
    require(not (t is None or t.square is None), "FJ-HUNTED-TARGET", "no rival with the Hunted status card is on the map")
    assert t is not None and t.square is not None
    here, tp, dest = parse_square(c.square or ""), parse_square(t.square), parse_square(cmd.square)
    require(sees(em.state, c.side, here, tp), "FJ-TOWARD", f"{c.name} must see {t.name} to move toward it")
    path: tuple[Sq, ...] = ()
    if dest != here:
        path = check_move_destination(em.state, c, dest, move_allowance(c, spec["move"]), toward=tp)
    there = msgspec.structs.replace(c, square=cmd.square)
    s2 = msgspec.structs.replace(em.state, chars={**em.state.chars, c.id: there})
    require(adjacent(s2, c.side, dest, tp), "FJ-HUNTED-TARGET", f"from {cmd.square} {c.name} would not be adjacent to {t.name}:" " the challenge would have no target")
    harpoon = check_harpoon(em.state, c, cmd.harpoon)
    pay(em, c, "farewell-and-adieu", spec)
    moved(em, c, path, "farewell-and-adieu", toward=tp)
    resolve_challenge(em, em.state.chars[c.id], em.state.chars[t.id], "farewell-and-adieu", spec["dice"], harpoon, rng)
    after_action(em)


def can_crusher(em: Emitter, cmd: C.CanCrusher, rng: Rng) -> None:
    """Can Crusher (3, cunning, challenge): range 3, challenge 2, +1 die per status card of yours on the target."""
    c = em.active
    spec = ability(em, c, "can-crusher")
    t = check_challenge_target(em.state, c, cmd.target, range_=spec["range"])
    harpoon = check_harpoon(em.state, c, cmd.harpoon)
    pay(em, c, "can-crusher", spec)
    resolve_challenge(em, c, t, "can-crusher", spec["dice"], harpoon, rng, extra_per_status=True)
    after_action(em)


def compare_scars(em: Emitter, cmd: C.CompareScars, rng: Rng) -> None:
    """Compare Scars (3, might, challenge): stand Quint up, then challenge 2; usable while knocked down."""
    c = em.active
    spec = ability(em, c, "compare-scars")
    t = check_challenge_target(em.state, c, cmd.target)
    harpoon = check_harpoon(em.state, c, cmd.harpoon)
    pay(em, c, "compare-scars", spec)
    if not c.standing:
        em.emit(E.StoodUp(char=c.id, how="compare-scars"))
    resolve_challenge(em, em.state.chars[c.id], t, "compare-scars", spec["dice"], harpoon, rng)
    after_action(em)


# -- Quint's trait ------------------------------------------------------------------------------

def veteran_hunter(em: Emitter, cmd: C.Hunt, rng: Rng) -> None:
    """Veteran Hunter: when Quint becomes exhausted, give or move Hunted to a rival character."""
    t = em.state.chars[cmd.rival]
    require(t.side != em.state.chars["quint"].side, "FJ-VETERAN", f"{t.name} is Quint's ally: the Hunted card goes to a rival character")
    require(t.id in veteran_targets(em.state), "FJ-VETERAN", f"{t.name} already has the Hunted card")
    em.emit(E.StatusGiven(card="hunted", char=t.id, by="quint"))
    next_player(em)


def no_hunt(em: Emitter, cmd: C.NoHunt, rng: Rng) -> None:
    """Veteran Hunter is optional ("you may")."""
    next_player(em)


# -- ending a round -------------------------------------------------------------------------------

def ending_a_round(em: Emitter) -> None:
    """Ending a Round: (Flags returns), scoring, cooldown (first player first), refresh, new first player."""
    s = em.state
    if s.mode == "flags":
        for side in (s.first, other(s, s.first)):
            if flag_eligible(s, side):
                em.emit(E.PhaseChanged(phase="flags", side=side))
                return
    finish_round(em)


def flags_return(em: Emitter, cmd: C.Return, rng: Rng) -> None:
    """Flags: a standing character on or adjacent to the rival flag returns home for 2 points."""
    s = em.state
    side = s.turn_side
    require(cmd.char in flag_eligible(s, side), "FJ-FLAGS", f"{cmd.char} is not a standing {side} character on or adjacent to the rival flag")
    em.emit(E.FlagReturned(char=cmd.char, side=side))
    pts = em.content["scenarios"]["flags"].get("flag_return_points", 2)
    em.emit(E.PointsGained(side=side, points=pts, why=f"{s.chars[cmd.char].name} returned from the rival flag"))
    if not flag_eligible(em.state, side):
        flags_next(em, side)


def flags_done(em: Emitter, cmd: C.Done, rng: Rng) -> None:
    """Flags: returning is a choice ("you may")."""
    flags_next(em, em.state.turn_side)


def flags_next(em: Emitter, side: str) -> None:
    s = em.state
    if side == s.first and flag_eligible(s, other(s, side)):
        em.emit(E.PhaseChanged(phase="flags", side=other(s, side)))
        return
    finish_round(em)


def finish_round(em: Emitter) -> None:
    """Ending a Round after Flags: scoring, the scenario win, cooldown, refresh, new first player."""
    s = em.state
    scen = em.content["scenarios"][s.mode]
    per_side = 2
    if s.mode == "control":
        shown = {side: sum(1 for v in s.control.values() if v[0] == side) for side in s.side_order}
        for side in s.side_order:
            if per_side >= scen.get("any_marker_point_min_chars", 3) and shown[side]:
                em.emit(E.PointsGained(side=side, points=1, why="a control marker shows your colour"))
        a, d = s.side_order
        if shown[a] != shown[d]:
            best = a if shown[a] > shown[d] else d
            em.emit(E.PointsGained(side=best, points=1, why="most control markers"))
    if s.mode != "first-game":
        if winning_a_scenario(em, scen.get("win", {}).get(str(per_side), 6)):
            return
    first = em.state.first
    for side in (first, other(em.state, first)):  # Cooldown: the first player shifts first
        cd = em.state.sides[side].cooldown
        back = tuple(sorted(k for k, v in cd.items() if v <= 1))
        em.emit(E.CooldownShifted(side=side, returned=back))
    em.emit(E.RoundEnded(round=s.round, first=other(em.state, first)))
    limit = s.options.get("round-limit", 0)
    if limit and s.round >= limit:
        round_limit_reached(em, limit)
        return
    if em.state.pending_place:
        em.emit(E.PhaseChanged(phase="place", side=em.state.chars[em.state.pending_place[0]].side))
    else:
        em.emit(E.PhaseChanged(phase="choose", side=em.state.first))


def round_limit_reached(em: Emitter, limit: int) -> None:
    """House rule FJ-HOUSE-ROUND-LIMIT (only when passed): after the last allowed round the
    game stops; in a scenario the side with more points wins (level points: a draw); a first
    game with no rival knocked out is a draw."""
    require(limit > 0, "FJ-HOUSE-ROUND-LIMIT", "")
    pts = {side: em.state.sides[side].points for side in em.state.side_order}
    a, d = em.state.side_order
    if em.state.mode == "first-game":
        em.emit(E.GameDrawn(reason=f"house round limit: {limit} rounds played and no rival knocked out (option round-limit)"))
    elif pts[a] != pts[d]:
        win = a if pts[a] > pts[d] else d
        em.emit(E.GameWon(side=win, reason=f"house round limit: {limit} rounds played, {win} leads "
                                           f"{max(pts.values())}-{min(pts.values())} on points (option round-limit)"))
    else:
        em.emit(E.GameDrawn(reason=f"house round limit: {limit} rounds played, points level at {pts[a]} (option round-limit)"))


def winning_a_scenario(em: Emitter, target: int) -> bool:
    """Winning a Scenario: at the end of a round, reach the target with more points; ties play on."""
    pts = {side: em.state.sides[side].points for side in em.state.side_order}
    a, d = em.state.side_order
    best = max(pts.values())
    if best >= target and pts[a] != pts[d]:
        win = a if pts[a] > pts[d] else d
        em.emit(E.GameWon(side=win, reason=f"{pts[win]} points at the end of round {em.state.round} (target {target})"))
        return True
    return False


RULES: dict[type, Any] = {
    C.Place: place_character, C.Choose: choose_a_character, C.End: end_turn,
    C.Move: move, C.Challenge: basic_challenge, C.Assist: assist, C.Rally: rally, C.Emerge: emerge,
    C.InteractPoint: interact_point_marker, C.InteractMark: interact_place_control_marker,
    C.InteractFlip: interact_flip_control_marker, C.UseItem: use_item,
    C.Swim: swim, C.BloodInTheWater: blood_in_the_water, C.Jaws: jaws, C.Put: put_the_target,
    C.Leave: leave_the_target, C.FarewellAndAdieu: farewell_and_adieu, C.CanCrusher: can_crusher,
    C.CompareScars: compare_scars, C.Hunt: veteran_hunter, C.NoHunt: no_hunt,
    C.Return: flags_return, C.Done: flags_done,
}
