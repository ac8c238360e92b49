"""Writes the golden playthroughs: python -m tests.villainous.make_golden (a deliberate act:
the goldens change only when a ruling changes)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from arbiter.core import transcript
from arbiter.core.bots import autoplay
from arbiter.core.match import Match
from arbiter.core.villainous import GAME

HERE = Path(__file__).parent / "golden"
GAMES = {
    "two-smart": dict(seed=6, seats=["ann", "bob"], options={"villains": "boba-fett,seventh-sister"}, bot_seed=6),
    "three-smart": dict(seed=7, seats=["ann", "bob", "cy"], options={}, bot_seed=7),
}


def play(spec: dict) -> Match:
    m = Match.new(GAME, seed=spec["seed"], seats=spec["seats"], options=spec["options"])
    bots = {s: GAME.bots["smart"] for s in spec["seats"]}
    autoplay(m, bots, random.Random(spec["bot_seed"]), max_steps=2000)
    return m


def final(m: Match) -> dict:
    o = m.outcome()
    s = m.state
    return {"winners": list(o.winners), "reason": o.reason, "round": s.round,
            "credits": s.credits, "ambition": s.ambition, "targets": s.targets, "rebels": s.rebels,
            "bounties": s.bounties, "events": len(m.items)}


if __name__ == "__main__":
    HERE.mkdir(exist_ok=True)
    for name, spec in GAMES.items():
        m = play(spec)
        (HERE / f"{name}.arb").write_text(transcript.export(m))
        (HERE / f"{name}.json").write_text(json.dumps(final(m), indent=1, sort_keys=True) + "\n")
        print(name, len(m.items), m.outcome())
