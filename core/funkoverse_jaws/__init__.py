"""Funkoverse Strategy Game: Jaws 100 — Quint and the Swimmer against The Shark and the
Tiger Shark, on the Orca or South Beach, in the first game or the Control and Flags scenarios.

The rulebook is ``shared/rulebooks/funkoverse-jaws.txt``; the house content (the two maps, the
die, the ability dots) and the house readings are in ``fixtures/funkoverse-jaws/`` (content.json,
rules.toml with ``source = "house"``, HOUSE.md).
"""

from arbiter.core.funkoverse_jaws.game import GAME

__all__ = ["GAME"]
