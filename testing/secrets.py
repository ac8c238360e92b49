"""Secret tokens derived from the referee's state, not from what a game says it hides.

A game's own ``hidden_from`` and ``view`` are the code under test: a game that under-declares
would pass a leak check built on them. This module finds the secrets another way, from the
referee's full state:

* **zones**: for each of the five games, the places in its state that the rulebook keeps
  from a seat (other seats' hands, face-down decks, dealt agendas, a pending secret choice's
  options, a hidden dial). A game's own tests may pass zones of their own.
* **the views themselves**: whatever the referee's state holds and a seat's view does not is
  hidden from that seat; whatever only one seat's view holds (and a spectator's does not) is
  that seat's private knowledge, and no other seat's view may hold it.
* **the seed**: the referee's seed, salt, entropy and dice seed, while the game is on.

A token is a text value in the state (card ids, faces, names); tokens that also appear in a
public part of the state (a copy of a card face up on the table, the box's catalogue is left
out) are public by rule and never count as secret.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Sequence

import msgspec

from arbiter.core.match import plain_state, tokens

#: A zone: a path into the referee's state (as plain builtins), e.g. ("hand", "bob").
Path = tuple[Any, ...]
#: Zones secret from ``seat`` in ``state`` (plain builtins of the referee's state).
Zones = Callable[[dict[str, Any], str | None], list[Path]]


#: A state or event as builtins, without the box's catalogue (a top-level ``content`` lists
#: every component, which every seat may know): the kernel's own reading.
plain = plain_state


def texts(obj: Any, keys: bool = True) -> set[str]:
    """Every text value in a plain structure (and its dict keys, with ``keys``); "?" and the
    empty string (what a redaction leaves) are no token."""
    return set(tokens(obj, keys=keys))


def get(obj: Any, path: Path) -> Any:
    for key in path:
        if isinstance(obj, dict):
            if key not in obj:
                return None
            obj = obj[key]
        elif isinstance(obj, (list, tuple)) and isinstance(key, int) and key < len(obj):
            obj = obj[key]
        else:
            return None
    return obj


def without(obj: Any, paths: Sequence[Path]) -> Any:
    """``obj`` with every zone in ``paths`` cut out (a copy; plain builtins)."""
    if not paths:
        return obj
    heads: dict[Any, list[Path]] = {}
    cut = set()
    for p in paths:
        if len(p) == 1:
            cut.add(p[0])
        elif p:
            heads.setdefault(p[0], []).append(p[1:])
    if isinstance(obj, dict):
        return {k: without(v, heads.get(k, [])) for k, v in obj.items() if k not in cut}
    if isinstance(obj, (list, tuple)):
        return [without(v, heads.get(i, [])) for i, v in enumerate(obj) if i not in cut]
    return obj


class Secrets(msgspec.Struct, frozen=True):
    """What one seat may not know now: text tokens, and zones whose whole value is secret
    (for zones holding numbers, such as a hidden dial)."""

    tokens: frozenset[str]
    zones: tuple[tuple[Path, Any], ...] = ()


def from_zones(state: dict[str, Any], seat: str | None, zones: list[Path]) -> Secrets:
    public = texts(without(state, zones))
    secret: set[str] = set()
    valued = []
    for path in zones:
        value = get(state, path)
        found = texts(value, keys=False)
        secret |= found
        if not found and value not in (None, -1, 0, [], {}, "", ()):
            valued.append((path, value))
    return Secrets(frozenset(secret - public), tuple(valued))


def leaked(secrets: Secrets, shown_view: dict[str, Any]) -> list[str]:
    """What of ``secrets`` a seat's view shows: tokens, and number zones shown as they are."""
    found = sorted(secrets.tokens & texts(shown_view))
    for path, value in secrets.zones:
        if get(shown_view, path) == value:
            found.append("/".join(map(str, path)) + f" = {value!r}")
    return found


def seed_tokens(created: Any) -> set[str]:
    """The referee's seed, salt, entropy and dice seed as they would appear in text (numbers
    long enough not to be mistaken for a count)."""
    out: set[str] = set()
    sealed = getattr(created, "sealed", None)
    numbers = [created.seed]
    if sealed is not None:
        numbers.append(sealed.seed)
        out.add(sealed.salt)
        out.update(t for t in sealed.entropy.values() if len(t) >= 6)
    out.update(str(n) for n in numbers if n is not None and n >= 10**6)
    return out


# -- the five games' zones, read from their states as the rulebooks describe them ---------------

def others(state: dict[str, Any], seat: str | None) -> Iterator[str]:
    return (s for s in state.get("seats", ()) if s != seat)


def monster_derby(state: dict[str, Any], seat: str | None) -> list[Path]:
    """Agendas are dealt and kept face down ("keep one secretly")."""
    return [(k, s) for s in others(state, seat) for k in ("dealt", "kept", "dealt_points", "kept_points")]


def scott_pilgrim(state: dict[str, Any], seat: str | None) -> list[Path]:
    """The item deck is face down; the Good Guys' unequipped items are theirs alone."""
    zones: list[Path] = [("deck",)]
    if seat not in state.get("good_seats", ()):
        zones.append(("hand",))
    return zones


def my_little_scythe(state: dict[str, Any], seat: str | None) -> list[Path]:
    """Spell cards in hand, an unrevealed personality card, the pie-fight dials, the power-up
    tiles only the active seat looked at, and every face-down deck and pile."""
    zones: list[Path] = [("quest_deck",), ("spell_deck",), ("piles",)]
    for s in others(state, seat):
        zones.append(("players", s, "spells"))
        if not state["players"][s].get("personality_revealed"):
            zones.append(("players", s, "personality"))
        if state.get("fight"):
            zones += [("fight", "pies", s), ("fight", "spells", s)]
    if state.get("active") != seat:
        zones.append(("look",))
    if state.get("trophy_seat") != seat:
        zones.append(("trophy_reveal",))
    return zones


def villainous(state: dict[str, Any], seat: str | None) -> list[Path]:
    """Hands and what a seat alone has looked at, every deck and Fate deck (face down), and
    the options of another seat's secret choice."""
    zones: list[Path] = []
    for s in state.get("seats", ()):
        zones += [("deck", s), ("fate_deck", s)]
    for s in others(state, seat):
        zones += [("hand", s), ("known", s)]
    for i, p in enumerate(state.get("pending", ())):
        if p.get("secret") and p.get("seat") != seat:
            zones += [("pending", i, "options"), ("pending", i, "frame")]
    return zones


ZONES: dict[str, Zones] = {
    "monster-derby": monster_derby,
    "scott-pilgrim": scott_pilgrim,
    "my-little-scythe": my_little_scythe,
    "villainous": villainous,
}
