"""Star Wars Villainous: Scum and Villainy (Cad Bane, Seventh Sister, Boba Fett), refereed.

The rulebook is ``shared/rulebooks/villainous.txt``; the house content (the three
Villains' decks and sectors) and the house readings are in ``fixtures/villainous/``
(content.json, CARDS.md, rules.toml with ``source = "house"``, HOUSE.md).
"""

from arbiter.core.villainous.game import GAME, Villainous

__all__ = ["GAME", "Villainous"]
