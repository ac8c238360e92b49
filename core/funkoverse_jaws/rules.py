"""The rules of Funkoverse Jaws 100 as functions named after the rulebook's words.

Every check raises ``RuleViolation(rule_id, message)`` with an id from
``fixtures/funkoverse-jaws/rules.toml``. Geometry lives in :mod:`.geometry`.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from arbiter.core.errors import RuleViolation, require
from arbiter.core.funkoverse_jaws.geometry import (Geometry, Sq, can_see, distance, geometry, neighbours,
                                           parse_square, square_name)
from arbiter.projections.funkoverse_jaws import Char, FJState, other


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
        moving_rules_passed(toward is not None)
        return paths[dest]
    g = geo(state)
    name = square_name(dest)
    start = parse_square(char.square or "a1")
    require(g.on_board(dest), "FJ-MOVE-2", f"{name} is not on the map")
    require(dest != start, "FJ-MOVE-6", f"{char.name} is already on {name}")
    require(dest not in on_map(state), "FJ-MOVE-6", f"{char.name} cannot end a move on {name}: it is occupied")
    require(g.enterable(dest), "FJ-MOVE-2", f"an obstruction fills the centre of {name}: it cannot be entered")
    require(distance(start, dest) <= steps, "FJ-MOVE-RANGE", f"{name} is more than {steps} square(s) from {char.name}")
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


def check_path(state: FJState, char: Char, squares: list[Sq], steps: int) -> tuple[Sq, ...]:
    """A move along the squares a player named, one step at a time (rules 1-6)."""
    g = geo(state)
    if squares and squares[0] == parse_square(char.square or "a1"):
        squares = squares[1:]  # "move b2 c3" from b2: the first square named is the start
    require(bool(squares), "FJ-MOVE-6", f"{char.name} is already there: name a square to move to")
    require(len(squares) <= steps, "FJ-MOVE-RANGE", f"{char.name} may move only {steps} square(s) now, not {len(squares)}")
    occupied = on_map(state)
    rivals = standing_rivals(state, char.side)
    here = parse_square(char.square or "a1")
    for i, nxt in enumerate(squares):
        name = square_name(nxt)
        require(distance(here, nxt) == 1, "FJ-MOVE-RANGE", f"{name} is not next to {square_name(here)}: name every square entered")
        require(g.enterable(nxt), "FJ-MOVE-2", f"an obstruction fills the centre of {name}: it cannot be entered")
        if not g.step_open(here, nxt):
            require(not (here[0] != nxt[0] and here[1] != nxt[1]), "FJ-MOVE-3", f"{char.name} cannot move diagonally from {square_name(here)} to {name} through an obstructed corner")
            raise RuleViolation("FJ-MOVE-1", f"{char.name} cannot move from {square_name(here)} to {name} through the wall")
        require(nxt not in rivals, "FJ-MOVE-5", f"{char.name} cannot move through {name}: a standing rival is there")
        here = nxt
    require(here not in occupied, "FJ-MOVE-6", f"{char.name} cannot end a move on {square_name(here)}: it is occupied")
    moving_rules_passed(False)
    return tuple(squares)


def moving_rules_passed(toward: bool) -> None:
    """Record for `arbiter why` that a move was checked against rules 1-6 (and Toward)."""
    for rule_id in ("FJ-MOVE-RANGE", "FJ-MOVE-1", "FJ-MOVE-2", "FJ-MOVE-3", "FJ-MOVE-4", "FJ-MOVE-5", "FJ-MOVE-6") \
            + (("FJ-TOWARD",) if toward else ()):
        require(True, rule_id, "")


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
    a, b = parse_square(char.square or "a1"), parse_square(target.square)
    if range_ is None:
        if not adjacent(state, char.side, a, b):
            why = "not next to it" if distance(a, b) > 1 else "an obstruction blocks the view"
            raise RuleViolation("FJ-ADJACENT", f"{target.name} is not adjacent to {char.name} ({why})")
        require(True, "FJ-ADJACENT", "")
        require(True, "FJ-SIGHT", "")
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
