import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

os.environ.setdefault("ARBITER_LOCK_TIMEOUT", "10")
