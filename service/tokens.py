"""Bearer tokens: random, shown once, kept only as hashes."""

from __future__ import annotations

import hashlib
import hmac
import secrets

#: The seat name a referee token acts as: it sees everything and may undo any move.
REFEREE = "referee"


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What the store keeps: a token can be checked against it but not read back from it."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode("utf-8"), b.encode("utf-8"))


def bearer(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header, or None."""
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()
