"""The RTP simulator: N rounds by the production rules, fast, reproducible, on every core.

- ``lookup``: the core's hand strengths from lookup tables, one hand or whole arrays;
- ``game``: a ruleset compiled for simulation (payout tables from the core's ``paid_for``);
- ``engine``: one round of any strategy on card ints; ``vector``: batches of play-or-fold
  rounds with numpy; both settle exactly as ``decide``/``evolve`` (tests/simulation);
- ``actions``, ``strategies``, ``basic``, ``features``: what a box can do and how the
  built-in strategies decide;
- ``runner`` (chunks, seeds, processes), ``stats`` (exact tallies, statistics), ``report``;
- ``exact`` (complete enumeration of the play-or-fold strategies) and ``derive`` (the EV
  comparisons behind ``basic``), both run by hand; see docs/game-math.md.
"""
