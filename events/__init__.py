"""Facts: what happened. Event types, the envelope that stores them, and the DuckDB store.

This layer imports nothing else of arbiter's.
"""
