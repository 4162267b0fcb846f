"""The simulator's report as text for people (``--json`` prints the summary itself)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["format_report"]


def _pct(value: float) -> str:
    return f"{100 * value:.3f}%"


def _interval(bounds: list[float]) -> str:
    low, high = bounds
    return f"95% CI {_pct(low)} .. {_pct(high)}"


def _frequencies(title: str, values: Mapping[str, float]) -> str:
    shown = ", ".join(f"{name} {100 * v:.4g}%" for name, v in values.items() if v)
    return f"{title:<18}{shown}"


def format_report(summary: Mapping[str, Any]) -> list[str]:
    """The lines of the human-readable report of one simulation."""
    lines = [
        f"{summary['ruleset']} ({summary['game']}), strategy {summary['strategy']}: "
        f"{summary['rounds']:,} rounds, seed {summary['seed']}, "
        f"ante {summary['ante']}, {summary['engine']} engine, "
        f"{summary['seconds']:.1f} s ({summary['rounds_per_second']:,.0f} rounds/s)",
        f"{'house edge':<18}{_pct(summary['house_edge']):>9}   "
        f"{_interval(summary['house_edge_ci95'])}   (per initial ante)",
        f"{'element of risk':<18}{_pct(summary['element_of_risk']):>9}   "
        f"{_interval(summary['element_of_risk_ci95'])}   (per amount wagered)",
        f"{'RTP':<18}{_pct(summary['rtp']):>9}   {_interval(summary['rtp_ci95'])}",
        f"{'std deviation':<18}{summary['std_dev']:>9.4f}   antes per round",
        f"{'average wager':<18}{summary['average_wager']:>9.4f}   antes per round",
        _frequencies("outcomes", summary["outcomes"]),
        _frequencies("final hands", summary["final_hands"]),
        _frequencies("dealer hands", summary["dealer_hands"]),
        _frequencies("draws", summary["draws"]),
        f"{'insured':<18}{100 * summary['insured']:.4g}% of rounds; "
        f"dealer draw asked in {100 * summary['dealer_draws']:.4g}%",
    ]
    if summary["capped"]:
        lines.append(f"{'capped':<18}{summary['capped']:,} (max_payout)")
    bonus = summary.get("bonus")
    if bonus:
        lines.append(
            f"{'bonus RTP':<18}{_pct(bonus['rtp']):>9}   {_interval(bonus['rtp_ci95'])}   "
            f"(stake {bonus['stake']}, house edge {_pct(bonus['house_edge'])}, "
            f"std deviation {bonus['std_dev']:.3f} stakes)"
        )
    return lines
