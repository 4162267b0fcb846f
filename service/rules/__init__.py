"""The pure rules core: cards, deck, hand evaluation, rulesets and the table aggregate.

Nothing under this package performs I/O, reads a clock or draws randomness: every input
(including the round's secret seed) arrives in a command, so replay, simulation and the
live service run the same code.
"""
