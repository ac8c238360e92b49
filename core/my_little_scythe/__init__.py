"""My Little Scythe, refereed: two to six players race to four trophies in Pomme.

The rulebook is ``shared/rulebooks/my-little-scythe.txt``; the house content (the map, the mat,
the decks) and the house readings are in ``fixtures/my-little-scythe/`` (content.json,
rules.toml with ``source = "house"``, HOUSE.md).
"""

from arbiter.core.my_little_scythe.game import GAME, TROPHIES, MyLittleScythe

__all__ = ["GAME", "TROPHIES", "MyLittleScythe"]
