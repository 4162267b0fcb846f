"""The day's RTP per ruleset as Prometheus gauges, refreshed by the serve process every
``rtp_refresh_s``.

The gauges are labelled by ruleset fingerprint, game and wager — never by table, so their
number grows with the rulesets in use, not with the tables (tests/api/
test_metrics_cardinality.py). Each refresh covers the current UTC day over every table and
operator, and replaces the previous label sets (yesterday's rulesets drop out).
A ruleset played in several currencies is summed in minor units across them; the per-table
report (``GET /v1/audit/rtp``) keeps one currency per row.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime, time, timedelta
from typing import Final

import structlog
from prometheus_client import Gauge

from russian_poker.service.background import BackgroundLoop
from russian_poker.service.reports.rtp import GroupSums, RtpSource, Sums, figure, theories
from russian_poker.service.reports.theory import TheoryCache

__all__ = [
    "RTP",
    "RTP_OUTSIDE_BAND",
    "RTP_ROUNDS",
    "RTP_THEORETICAL",
    "refresh_rtp",
    "RtpMonitor",
]

_log = structlog.get_logger("russian_poker.service.reports")
_LABELS: Final = ["ruleset", "game", "wager"]

RTP: Final = Gauge("russian_poker_rtp", "Actual RTP today (UTC), paid back / staked", _LABELS)
RTP_THEORETICAL: Final = Gauge(
    "russian_poker_rtp_theoretical", "The ruleset's theoretical RTP (docs/audit.md)", _LABELS
)
RTP_ROUNDS: Final = Gauge(
    "russian_poker_rtp_rounds", "Settled rounds today (UTC) with a stake on the wager", _LABELS
)
RTP_OUTSIDE_BAND: Final = Gauge(
    "russian_poker_rtp_outside_band",
    "1 when today's 99% RTP interval excludes the theoretical RTP (enough rounds), else 0",
    _LABELS,
)
_GAUGES: Final = (RTP, RTP_THEORETICAL, RTP_ROUNDS, RTP_OUTSIDE_BAND)


def _add(a: Sums, b: Sums) -> Sums:
    return Sums(
        n=a.n + b.n,
        staked=a.staked + b.staked,
        paid=a.paid + b.paid,
        staked_sq=a.staked_sq + b.staked_sq,
        paid_sq=a.paid_sq + b.paid_sq,
        cross=a.cross + b.cross,
    )


def per_ruleset(groups: list[GroupSums]) -> list[GroupSums]:
    """The groups summed over tables, one per ruleset (rounds are distinct, sums add)."""
    merged: dict[str, GroupSums] = {}
    for group in groups:
        seen = merged.get(group.fingerprint)
        merged[group.fingerprint] = (
            group
            if seen is None
            else replace(
                seen, main=_add(seen.main, group.main), bonus=_add(seen.bonus, group.bonus)
            )
        )
    return list(merged.values())


async def refresh_rtp(rounds: RtpSource, cache: TheoryCache, now: datetime | None = None) -> int:
    """Set the gauges from today's rounds; how many label sets were set."""
    now = now or datetime.now(UTC)
    start = datetime.combine(now.date(), time(), tzinfo=UTC)
    groups = per_ruleset(await rounds.sums(start=start, end=start + timedelta(days=1)))
    known = await theories(rounds, groups, cache)
    values = []
    for group in groups:
        theory = known.get(group.fingerprint)
        for wager, sums, target, source in (
            ("main", group.main, theory.main_rtp if theory else None, "main"),
            ("bonus", group.bonus, theory.bonus_rtp if theory else None, "exact"),
        ):
            found = figure(sums, target, source)
            if found is not None:
                values.append(((group.fingerprint, group.game or "", wager), found))
    # No await from here on: a scrape never sees the gauges half-replaced.
    for gauge in _GAUGES:
        gauge.clear()
    for labels, found in values:
        RTP.labels(*labels).set(float(found.rtp))
        RTP_ROUNDS.labels(*labels).set(found.rounds)
        if found.theoretical is not None:
            RTP_THEORETICAL.labels(*labels).set(float(found.theoretical))
            RTP_OUTSIDE_BAND.labels(*labels).set(1 if found.outside_band else 0)
    return len(values)


class RtpMonitor(BackgroundLoop):
    """Refreshes the gauges every ``every_s`` seconds."""

    name = "rtp-gauges"

    def __init__(self, rounds: RtpSource, cache: TheoryCache, *, every_s: float) -> None:
        self._rounds = rounds
        self._cache = cache
        self._every_s = every_s

    async def _run(self) -> None:
        while True:
            try:
                await refresh_rtp(self._rounds, self._cache)
            except Exception:  # a failed refresh is logged; the next one retries
                _log.exception("rtp_refresh_failed")
            await asyncio.sleep(self._every_s)
