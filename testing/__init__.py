"""arbiter's conformance harness, importable by any game's own tests.

:func:`~arbiter.testing.harness.simulate` plays a game with bots and runs checks after every
command; :func:`~arbiter.testing.harness.check_no_leaks` finds secrets in the referee's state
and fails on any that reaches a seat; :class:`~arbiter.testing.harness.TraitWatch` holds a game
to its declared :class:`~arbiter.core.game.Traits`; :mod:`arbiter.testing.golden` replays the
recorded golden playthroughs.
"""

from arbiter.testing.harness import (  # noqa: F401
    MAX_STEPS, Check, LeakWatch, TraitWatch, check_no_leaks, check_previews, menu_labels, new_match, secrets_of, simulate,
    smart_bots, undo_unless_hidden,
)
from arbiter.testing.secrets import ZONES  # noqa: F401
