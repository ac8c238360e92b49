"""Secret seeds: committed at creation, revealed when the game ends, checkable by any seat.

The referee draws its seed from the operating system (:mod:`secrets`) unless the game's
creator typed one (``--seed``: a *practice* game). Every seat sees only commitments while
the game is on::

    seed commitment      = SHA-256("arbiter-seed-v1/{seed}/{salt}")            (hex)
    entropy commitment   = SHA-256("arbiter-entropy-v1/{seat}/{text}")          (hex)
    dice seed            = seed, when no seat added entropy; otherwise
                           first 8 bytes, big-endian, of
                           SHA-256("arbiter-mix-v1/{seed}" + "/{seat}={SHA-256(text)}" ...)
                           (seats in sorted order), shifted right by one bit (0 to 2^63-1)

``salt`` is 32 hex digits from :mod:`secrets` (in a practice game it is derived from the
typed seed, so that the same seed and commands give the same log byte for byte). The dice
and shuffles of :mod:`core.dice` use the dice seed. When the outcome is reached the kernel
appends :class:`SeedRevealed` with seed, salt and entropy texts, and from then on a seat
checks the commitments and recomputes every draw (:func:`check_reveal`).
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Mapping

import msgspec

from arbiter.core.errors import BadOption
from arbiter.events.base import Commitment, GameCreated, Sealed, SeedRevealed

MAX_SEED = 2**63
MAX_ENTROPY = 1000  # characters of one seat's entropy text


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def seed_commitment(seed: int, salt: str) -> str:
    return _sha(f"arbiter-seed-v1/{seed}/{salt}")


def entropy_commitment(seat: str, text: str) -> str:
    return _sha(f"arbiter-entropy-v1/{seat}/{text}")


def dice_seed(seed: int, entropy: Mapping[str, str]) -> int:
    """The seed the dice use: the referee's, mixed with every seat's entropy."""
    if not entropy:
        return seed
    data = f"arbiter-mix-v1/{seed}" + "".join(f"/{s}={_sha(entropy[s])}" for s in sorted(entropy))
    return int.from_bytes(hashlib.sha256(data.encode()).digest()[:8], "big") >> 1


def draw_seed() -> int:
    """A referee seed nobody chose."""
    return secrets.randbelow(MAX_SEED)


def practice_salt(seed: int) -> str:
    return _sha(f"arbiter-practice-salt-v1/{seed}")[:32]


def check_entropy(entropy: Mapping[str, str], seats: tuple[str, ...]) -> None:
    for seat, text in entropy.items():
        if seat not in seats:
            raise BadOption(f"--entropy {seat}=...: no player {seat!r} (players: {', '.join(seats)})")
        if not text:
            raise BadOption(f"--entropy {seat}= gives no text: add some words or digits only {seat} knows")
        if len(text) > MAX_ENTROPY:
            raise BadOption(f"--entropy for {seat} is longer than {MAX_ENTROPY} characters")


def seal(seed: int, *, practice: bool, entropy: Mapping[str, str] | None = None,
         salt: str | None = None) -> tuple[int, Commitment, Sealed]:
    """(dice seed, what the seats see, what the referee keeps) for a new game."""
    entropy = dict(entropy or {})
    if salt is None:
        salt = practice_salt(seed) if practice else secrets.token_hex(16)
    commitment = Commitment(seed=seed_commitment(seed, salt),
                            entropy={s: entropy_commitment(s, t) for s, t in sorted(entropy.items())},
                            practice=practice)
    return dice_seed(seed, entropy), commitment, Sealed(seed=seed, salt=salt, entropy=entropy)


def reveal(created: GameCreated) -> SeedRevealed | None:
    """The reveal event of a game that committed to its seed (None for older games)."""
    s = created.sealed
    if s is None or created.commitment is None or created.seed is None:
        return None
    return SeedRevealed(seed=s.seed, salt=s.salt, entropy=dict(s.entropy), dice_seed=created.seed)


def check_reveal(commitment: Commitment, revealed: SeedRevealed) -> list[str]:
    """What is wrong with a reveal, checked against the commitment a seat saw at creation."""
    problems = []
    if seed_commitment(revealed.seed, revealed.salt) != commitment.seed:
        problems.append(f"the revealed seed {revealed.seed} and salt do not match the commitment"
                        f" {commitment.seed[:16]}… made when the game was created")
    if set(revealed.entropy) != set(commitment.entropy):
        problems.append(f"entropy was committed for {', '.join(sorted(commitment.entropy)) or 'nobody'}"
                        f" but revealed for {', '.join(sorted(revealed.entropy)) or 'nobody'}")
    for seat, text in sorted(revealed.entropy.items()):
        if seat in commitment.entropy and entropy_commitment(seat, text) != commitment.entropy[seat]:
            problems.append(f"{seat}'s revealed entropy does not match its commitment")
    mixed = dice_seed(revealed.seed, revealed.entropy)
    if mixed != revealed.dice_seed:
        problems.append(f"the dice seed {revealed.dice_seed} is not the mix of the revealed seed"
                        f" and entropy ({mixed})")
    return problems


def redact_created(created: GameCreated) -> GameCreated:
    """GameCreated as a seat sees it while the game is on: the commitment, never the seed."""
    return msgspec.structs.replace(created, seed=None, sealed=None)
