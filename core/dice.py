"""Counter-based seeded dice and shuffles, and manual dice from the command.

The n-th random draw of a game (a roll of any number of dice, or a shuffle) is a pure
function of the game's seed and n::

    u64(seed, stream, n, i) = first 8 bytes, big-endian, of
        BLAKE2b(key=b"arbiter-dice-v1", data=f"{seed}/{stream}/{n}/{i}", digest_size=8)
    die i of roll n  = faces[u64(seed, "roll", n, i) mod len(faces)]
    shuffle n        = sort the items, then Fisher-Yates: for i = len-1 down to 1,
                       swap items[i] and items[u64(seed, "shuffle", n, i) mod (i + 1)]

n counts draws in the game's *effective* history (undone commands do not count), so a
retracted roll comes up the same when rolled again: undo never re-rolls.
"""

from __future__ import annotations

import hashlib
from typing import Mapping, Sequence

from arbiter.core.errors import ManualDiceError
from arbiter.events.base import DiceRolled, Shuffled

KEY = b"arbiter-dice-v1"


def u64(seed: int, stream: str, n: int, i: int) -> int:
    data = f"{seed}/{stream}/{n}/{i}".encode()
    return int.from_bytes(hashlib.blake2b(data, key=KEY, digest_size=8).digest(), "big")


def seeded_faces(seed: int, n: int, faces_of: Sequence[Sequence[str]]) -> tuple[str, ...]:
    """The faces of draw ``n`` for dice whose face lists are ``faces_of``, in order."""
    return tuple(f[u64(seed, "roll", n, i) % len(f)] for i, f in enumerate(faces_of))


def seeded_order(seed: int, n: int, items: Sequence[str]) -> tuple[str, ...]:
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = u64(seed, "shuffle", n, i) % (i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out)


class Rng:
    """The dice a decider may use. Each roll or shuffle is the game's next draw."""

    def __init__(self, seed: int, start: int, dice: Mapping[str, Sequence[str]],
                 manual: Sequence[str] | None = None) -> None:
        self.seed = seed
        self.n = start
        self.dice = dice
        self.manual = list(manual) if manual is not None else None
        self._used = 0

    def roll(self, kinds: Sequence[str], purpose: str = "") -> DiceRolled:
        """Roll one die of each kind in ``kinds``; returns the event to include."""
        for k in kinds:
            if k not in self.dice:
                raise KeyError(f"no die kind {k!r}")
        if self.manual is not None:
            need = len(kinds)
            given = self.manual[self._used : self._used + need]
            if len(given) < need:
                names = " ".join(kinds)
                raise ManualDiceError(
                    f"this game uses physical dice: this command rolls {need} ({names});"
                    f" give their faces in brackets after it",
                    hint="e.g. `... [" + " ".join(self.dice[k][0] for k in kinds) + "]`",
                )
            for k, f in zip(kinds, given):
                if f not in self.dice[k]:
                    raise ManualDiceError(
                        f"{f!r} is not a face of the {k} die (faces: {', '.join(dict.fromkeys(self.dice[k]))})"
                    )
            self._used += need
            ev = DiceRolled(n=self.n, dice=tuple(kinds), faces=tuple(given), manual=True,
                            purpose=purpose)
        else:
            faces = seeded_faces(self.seed, self.n, [self.dice[k] for k in kinds])
            ev = DiceRolled(n=self.n, dice=tuple(kinds), faces=faces, purpose=purpose)
        self.n += 1
        return ev

    def shuffle(self, deck: str, items: Sequence[str]) -> Shuffled:
        """Shuffle ``items`` (always seeded, also in manual-dice games).

        The items are sorted first, so the result depends only on which items there are,
        and an audit can recompute it from the order it produced."""
        ev = Shuffled(n=self.n, deck=deck, order=seeded_order(self.seed, self.n, sorted(items)))
        self.n += 1
        return ev

    def manual_left(self) -> int | None:
        """How many typed faces are still unused (None in a seeded game)."""
        return None if self.manual is None else len(self.manual) - self._used

    def check_all_used(self) -> None:
        if self.manual is not None and self._used < len(self.manual):
            extra = " ".join(self.manual[self._used :])
            raise ManualDiceError(f"this command does not roll that many dice (left over: {extra})")


def recompute(seed: int, event: DiceRolled | Shuffled, dice: Mapping[str, Sequence[str]]) -> bool:
    """Whether a stored seeded draw is what the seed gives (manual rolls always pass)."""
    if isinstance(event, DiceRolled):
        if event.manual:
            return all(k in dice and f in dice[k] for k, f in zip(event.dice, event.faces))
        if any(k not in dice for k in event.dice):
            return False
        return seeded_faces(seed, event.n, [dice[k] for k in event.dice]) == event.faces
    return seeded_order(seed, event.n, sorted(event.order)) == event.order
