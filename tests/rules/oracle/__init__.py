"""An independent model of docs/rules.md §2-§7, written from the text of the rules alone.

It exists to check the engine (``service.rules``) from the outside: the model (``hands``,
``payout``, ``deck``) shares no code with it and imports nothing from ``service``; it reads
only the ruleset (``events.ruleset``) as input data and cards as text (``"As"``). Only the
test's ``strategies`` reach into ``service``, for the presets a ruleset is made from.
Small, slow and obvious on purpose: every function says which sentence of docs/rules.md it
follows, so a disagreement with the engine can be traced to a sentence.

- ``hands``: cards, the hand evaluator and its order (§1-§2), every combination a set of
  cards holds and the Bet's two combinations (§3).
- ``payout``: the deal (§5.2), the bonus (§5.3), draw fees and insurance limits (§5.4), the
  dealer draw (§5.5) and the settlement of one box (§5.5-§5.6, §7), all with ``max_payout``.
- ``deck``: which card may come off the deck next (stacked order, returned discards).
- ``strategies``: the Hypothesis strategies of ``tests/rules/test_payout_oracle.py``.
"""
