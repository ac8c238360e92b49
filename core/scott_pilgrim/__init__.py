"""Scott Pilgrim Miniatures The World: Scott and friends against Matthew Patel and his
Demon Hipster Chicks at the Rockit.

Seats: the last seat plays the Bad Guys (Matthew and the three Chicks); the seats before it
play the Good Guys (one seat: all of them; two seats: two each, in roster order).

The package: ``game`` (the Game class, options, setup), ``commands`` (command forms and
their parsing), ``rules`` (one function a rule), ``legal`` (what a seat may do), ``bots``,
``board`` (the Rockit's geometry). House content (the venue's layout, four of the five
Good Guys' boards and Matthew's, 29 item cards, the dice face counts) is in
``fixtures/scott-pilgrim/content.json``, marked ``source = "house"``, with its rules in
``fixtures/scott-pilgrim/rules.toml``.
"""

from arbiter.core.scott_pilgrim.game import GAME

__all__ = ["GAME"]
