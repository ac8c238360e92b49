"""Regenerate the golden transcripts (a deliberate rules change only):
``.venv/bin/python tests/funkoverse_jaws/make_golden.py``."""

from __future__ import annotations

import json
import os
import random
import sys

sys.path.insert(0, os.getcwd())

from arbiter.core import transcript  # noqa: E402
from arbiter.core.bots import autoplay  # noqa: E402
from arbiter.core.funkoverse_jaws import GAME  # noqa: E402
from arbiter.core.match import Match  # noqa: E402

HERE = os.path.join(os.path.dirname(__file__), "golden")

GAMES = {
    "first-game": dict(seed=4, seats=["ann", "bob"], options={"mode": "first-game"}),
    "flags-three-players": dict(seed=21, seats=["ann", "bob", "cy"],
                                options={"mode": "flags", "harpoon-gun": "both"}),
}


def final(match: Match) -> dict:
    out = match.outcome()
    return {"winners": list(out.winners) if out else None, "scores": out.scores if out else None,
            "reason": out.reason if out else None, "round": match.state.round, "events": match.seq}


def main() -> None:
    os.makedirs(HERE, exist_ok=True)
    smart = GAME.bots["smart"]
    for name, spec in GAMES.items():
        m = Match.new(GAME, **spec)
        autoplay(m, {s: smart for s in spec["seats"]}, random.Random(1), max_steps=600)
        with open(os.path.join(HERE, f"{name}.arb"), "w") as f:
            f.write(transcript.export(m))
        with open(os.path.join(HERE, f"{name}.json"), "w") as f:
            json.dump(final(m), f, indent=2, sort_keys=True)
            f.write("\n")


if __name__ == "__main__":
    main()
