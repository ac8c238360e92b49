"""The root of arbiter's errors, and the errors of the facts layer (the stores and codecs).

Every error arbiter raises on purpose is an :class:`ArbiterError`, so the edges catch one
class. The errors carry no exit code or HTTP status: what a refusal means to a shell or to a
browser is said once at each edge (``cli/common.py``, ``service/api.py``). The root lives
here, at the bottom layer, because this layer imports nothing else of arbiter's and every
other layer may import it; ``arbiter.core.errors`` re-exports it.
"""

from __future__ import annotations


class ArbiterError(Exception):
    """Base of every error arbiter raises on purpose; raised as it is, it is bad input."""


# -- codecs and folds ---------------------------------------------------------------------


class UnknownEventType(ArbiterError, ValueError):
    """A stored event names a type (or a version) this game's codec does not know.

    Still a ValueError: a snapshot written by another build is skipped as one."""


class DeeperFold(ArbiterError):
    """An undo reaches below the frames a snapshot kept: fold from further back.

    Raised by the projections' fold and caught by the engine, which folds again from an older
    snapshot or from the start; it reaches a person only through a bug."""


# -- stores -------------------------------------------------------------------------------


class StoreError(ArbiterError):
    """Base of every storage problem (as it is: the store could not do what was asked)."""


class StoreLocked(StoreError):
    """Another process holds the database file."""


class Conflict(StoreError):
    """Someone else appended first: the expected seq was taken. Nothing was written."""


class StoreDamaged(StoreError):
    """The file is not an arbiter store, is corrupt, or has the wrong schema version."""


class OldStore(StoreDamaged):
    """A store written under an older schema: ``arbiter migrate`` brings it up to date."""


class ChainMismatch(StoreError):
    """Imported events whose hashes are not the ones their source recorded."""


class UnknownGame(StoreError):
    """No game of that id (or of that prefix) is in the store, or the prefix names several."""


class StorageFailed(StoreError):
    """The store could not be written (a full disk, a file size limit, an I/O error)."""


class QueryRefused(StoreError):
    """SQL that `query` does not run: bad SQL, a write, or a reach outside the store."""


class StoreUnavailable(StoreError):
    """The PostgreSQL server cannot be reached or refused the connection."""
