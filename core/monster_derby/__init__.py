"""Monster Derby: the Game object (commands, setup, the decider, legal commands, bots)."""

from arbiter.core.monster_derby.game import GAME, MonsterDerby

__all__ = ["GAME", "MonsterDerby"]
