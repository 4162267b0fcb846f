"""Provable fairness: a settled round's proof record, its checker, and the test vectors of
the deck construction (``docs/fairness.md``)."""
