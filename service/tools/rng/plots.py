"""The report's PNG figures: the position heat map and the p-value histograms."""

from __future__ import annotations

from pathlib import Path

import matplotlib as mpl

mpl.use("Agg")  # files only, no display

import matplotlib.pyplot as plt
import numpy as np

from russian_poker.service.tools.rng.stats import Tests
from russian_poker.service.tools.rng.tally import Tally

__all__ = ["heat_map", "p_value_histogram"]

_DPI = 80


def heat_map(path: Path, tally: Tally) -> None:
    """Each card's frequency at each position over the expected one (1.0 for a fair shuffle).

    The colour scale spans ±4 standard deviations of one cell, so noise looks like noise and a
    bias stands out."""
    expected = tally.shuffles / 52
    ratio = tally.positions / expected
    spread = 4 * np.sqrt((1 - 1 / 52) / expected)
    figure, axes = plt.subplots(figsize=(6.4, 5.2), dpi=_DPI)
    image = axes.imshow(ratio, cmap="RdBu_r", vmin=1 - spread, vmax=1 + spread, origin="upper")
    axes.set_xlabel("position in the deck (0 = top)")
    axes.set_ylabel("card (2♠..A♠, 2♥.., 2♦.., 2♣..A♣)")
    axes.set_title(f"observed / expected, {tally.shuffles:,} shuffles")
    figure.colorbar(image, ax=axes, shrink=0.85)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def p_value_histogram(path: Path, tests: Tests) -> None:
    """The 2704 per-cell p-values and the per-line ones (positions, cards, predecessors,
    exchange tests): flat histograms for a fair shuffle."""
    lines = np.concatenate([np.asarray(v) for v in tests.line_p_values.values()])
    figure, (cells, rows) = plt.subplots(1, 2, figsize=(8, 3.2), dpi=_DPI)
    bins = np.linspace(0, 1, 21)
    for axes, values, title in (
        (cells, np.asarray(tests.cell_p_values), "card × position cells"),
        (rows, lines, "positions, cards, predecessors, exchange"),
    ):
        axes.hist(values, bins=bins, color="#4878a8", edgecolor="white")
        axes.axhline(len(values) / 20, color="black", linewidth=1, linestyle="--")
        axes.set_xlabel("p-value")
        axes.set_title(f"{title} ({len(values)})", fontsize=9)
    cells.set_ylabel("count (dashed: expected)")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
