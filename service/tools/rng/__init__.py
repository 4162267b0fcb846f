"""The RNG certification report: the production shuffle run many times, statistically tested.

``generate`` reproduces :func:`service.rules.deck.shuffled` (and the exchange's
:meth:`~service.rules.deck.Deck.reinsert`) for a batch of seeds at once with numpy, ``biased``
holds two deliberately broken shuffles the report must catch, ``tally`` reduces a batch to the
counts the tests need, ``run`` spreads batches over every core, ``stats`` holds the tests,
``report`` the verdict and the Markdown/JSON writers, ``plots`` the PNG figures, ``certify`` all of
it end to end (the ``rng-report`` command). See docs/rng.md.
"""

from __future__ import annotations

__all__: list[str] = []
