"""The event and command vocabulary, and the PostgreSQL event store.

This package depends on nothing else of ours: the rules, projections and service all
depend on it.
"""
