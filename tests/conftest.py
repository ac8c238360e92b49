import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

os.environ.setdefault("ARBITER_LOCK_TIMEOUT", "10")

from arbiter.core import registry  # noqa: E402

import toygame  # noqa: E402

registry.register(toygame.GAME)
