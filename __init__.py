"""arbiter: a referee for tabletop games that keeps a tamper-evident ledger of every move.

The repository's top-level folders are this package's layers (``arbiter.events`` ←
``arbiter.projections`` ← ``arbiter.core`` ← ``arbiter.cli``) plus ``arbiter.fixtures``;
pyproject.toml maps the repository root onto the package ``arbiter``.
"""
