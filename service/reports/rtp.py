"""Actual RTP per table, ruleset and UTC day, with a confidence interval, beside the theory.

**Source**: the settled-round read models written by the settling command itself
(``rounds``, ``round_boxes``: projections/history.py), so a report never lags the game.
Each box's ``staked`` and ``paid_back`` are split by wager: the **bonus** (its stake, and
stake plus winnings when it won) and the **main** wager (everything else: ante, Bet,
insurance, draw fees). RTP = paid back / staked, per wager; sums are integers (minor units).

**The estimator**. Boxes of one round share the dealer's hand, so they are not independent:
the sampling unit is the round (its boxes summed, after any operator filter). With ``n``
rounds, stakes ``s_i`` and payouts ``p_i``, the RTP is the ratio estimator ``R = Σp / Σs``
and its standard error (delta method / linearisation, Cochran, *Sampling Techniques*, 6.3)::

    se(R) = sqrt( Σ (p_i - R s_i)² / (n (n - 1)) ) / s̄,   s̄ = Σs / n

computed from the integer sums ``Σs², Σp², Σps`` with exact fractions until the square root.
The interval is ``R ± z·se`` with ``z = 2.5758`` (99 %, normal approximation). It is
reported from 2 rounds on; the band flag needs :data:`MIN_ROUNDS`.

**The band**: ``outside_band`` is true when at least :data:`MIN_ROUNDS` rounds were played
and the 99 % interval excludes the theoretical figure (service/reports/theory.py). Null
while the theoretical figure is not known: a custom ruleset's main figure until
``russian-poker rtp-theory`` has stored it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction
from typing import Annotated, Final, Literal, Protocol, cast

import msgspec

from russian_poker.events.ruleset import Game, Ruleset
from russian_poker.service.reports.theory import Theory, TheoryCache, TheorySource

__all__ = [
    "MIN_ROUNDS",
    "Z99",
    "Estimate",
    "RtpFigure",
    "RtpReport",
    "RtpRow",
    "RtpSource",
    "Sums",
    "estimate",
    "rtp_report",
]

Z99: Final = 2.5758293035489004
"""The two-sided 99 % quantile of the standard normal distribution."""
MIN_ROUNDS: Final = 30
"""Rounds a day needs before its band flag is raised (the normal approximation's usual
floor); the figures themselves are reported for any number."""
_PLACES: Final = Decimal("0.000001")

Wager = Literal["main", "bonus"]


@dataclass(frozen=True)
class Sums:
    """Integer sums over ``n`` rounds of one group and wager."""

    n: int = 0
    staked: int = 0
    paid: int = 0
    staked_sq: int = 0
    paid_sq: int = 0
    cross: int = 0


@dataclass(frozen=True)
class Estimate:
    rtp: Fraction
    low: float | None
    high: float | None


def estimate(sums: Sums, z: float = Z99) -> Estimate | None:
    """The ratio estimator and its interval (None without stakes)."""
    if sums.n == 0 or sums.staked == 0:
        return None
    ratio = Fraction(sums.paid, sums.staked)
    if sums.n < 2:
        return Estimate(rtp=ratio, low=None, high=None)
    # Σ (p - R s)² = Σp² - 2R Σps + R² Σs², exact.
    residual = sums.paid_sq - 2 * ratio * sums.cross + ratio * ratio * sums.staked_sq
    mean_stake = Fraction(sums.staked, sums.n)
    variance = residual / (sums.n * (sums.n - 1)) / (mean_stake * mean_stake)
    error = z * math.sqrt(max(float(variance), 0.0))
    return Estimate(rtp=ratio, low=float(ratio) - error, high=float(ratio) + error)


def _decimal(value: Fraction | float | None) -> str | None:
    if value is None:
        return None
    if isinstance(value, Fraction):
        exact = Decimal(value.numerator) / Decimal(value.denominator)
    else:
        exact = Decimal(repr(value))
    return str(exact.quantize(_PLACES))


_Ratio = Annotated[
    str | None,
    msgspec.Meta(description="A ratio as a decimal string (6 places); null if not available."),
]


class RtpFigure(msgspec.Struct, frozen=True, kw_only=True):
    """One wager's actual RTP over a group's rounds, and the theoretical figure."""

    rounds: Annotated[int, msgspec.Meta(description="Settled rounds with a stake on this wager.")]
    staked: Annotated[int, msgspec.Meta(description="Total staked, in minor units.")]
    paid_back: Annotated[
        int, msgspec.Meta(description="Total paid back (stakes returned plus winnings).")
    ]
    rtp: Annotated[str, msgspec.Meta(description="`paid_back / staked`, 6 decimal places.")]
    rtp_exact: Annotated[
        str, msgspec.Meta(description="`paid_back / staked` as a reduced fraction `p/q`.")
    ]
    ci99_low: _Ratio
    ci99_high: _Ratio
    theoretical: _Ratio
    theoretical_source: Annotated[
        str | None,
        msgspec.Meta(
            description=(
                "Where `theoretical` comes from: `exact` (the bonus, by enumeration),"
                " `docs/game-math.md` (a preset's published simulation of the basic strategy)"
                " or `simulated` (the basic strategy, simulated for this ruleset by"
                " `russian-poker rtp-theory`); null until that has been run for the ruleset."
            )
        ),
    ]
    outside_band: Annotated[
        bool | None,
        msgspec.Meta(
            description=(
                f"The 99 % interval excludes `theoretical`, over at least {MIN_ROUNDS}"
                " rounds; null while the theoretical figure is not known."
            )
        ),
    ]


class RtpRow(msgspec.Struct, frozen=True, kw_only=True):
    """One table, ruleset and UTC day."""

    table_id: Annotated[str, msgspec.Meta(description="The table.")]
    ruleset_fingerprint: Annotated[
        str,
        msgspec.Meta(description="The ruleset the rounds were played under (its fingerprint)."),
    ]
    game: Annotated[Game | None, msgspec.Meta(description="`russian` or `oasis`.")]
    day: Annotated[date, msgspec.Meta(description="The UTC day the rounds were settled.")]
    currency: Annotated[str | None, msgspec.Meta(description="The table's currency.")]
    main: Annotated[
        RtpFigure | None,
        msgspec.Meta(description="Ante, Bet, insurance and draw fees; null without any stake."),
    ]
    bonus: Annotated[
        RtpFigure | None, msgspec.Meta(description="The bonus bet; null if none was placed.")
    ]


class RtpReport(msgspec.Struct, frozen=True, kw_only=True):
    """Actual RTP per table, ruleset and day over a window."""

    since: Annotated[
        datetime | None, msgspec.Meta(description="The window's start (inclusive).")
    ] = msgspec.field(name="from")
    until: Annotated[datetime | None, msgspec.Meta(description="The window's end (exclusive).")] = (
        msgspec.field(name="to")
    )
    operator_id: Annotated[
        str | None,
        msgspec.Meta(description="Only this operator's players' boxes; null: every operator's."),
    ]
    confidence: Annotated[
        str, msgspec.Meta(description="The intervals' confidence level (`0.99`).")
    ] = "0.99"
    rows: Annotated[
        list[RtpRow], msgspec.Meta(description="By day, table and ruleset fingerprint.")
    ]


@dataclass(frozen=True)
class GroupSums:
    table_id: str
    fingerprint: str
    day: date
    game: str | None
    currency: str | None
    main: Sums
    bonus: Sums


class RtpSource(TheorySource, Protocol):
    """What the report reads (the storage adapter's ``events.postgres.rtp``)."""

    async def sums(
        self,
        *,
        start: datetime | None = None,
        end: datetime | None = None,
        table_id: str | None = None,
        operator_id: str | None = None,
    ) -> list[GroupSums]: ...

    async def ruleset(self, table_id: str, fingerprint: str) -> Ruleset | None: ...


def figure(
    sums: Sums, theoretical: Fraction | float | None, source: str | None
) -> RtpFigure | None:
    """One wager's figure from its sums and the theoretical RTP (None: not known yet)."""
    found = estimate(sums)
    if found is None:
        return None
    outside: bool | None = None
    if theoretical is not None:
        target = float(theoretical)
        outside = (
            sums.n >= MIN_ROUNDS
            and found.low is not None
            and found.high is not None
            and not found.low <= target <= found.high
        )
    return RtpFigure(
        rounds=sums.n,
        staked=sums.staked,
        paid_back=sums.paid,
        rtp=_decimal(found.rtp) or "",
        rtp_exact=f"{found.rtp.numerator}/{found.rtp.denominator}",
        ci99_low=_decimal(found.low),
        ci99_high=_decimal(found.high),
        theoretical=_decimal(theoretical),
        theoretical_source=source if theoretical is not None else None,
        outside_band=outside,
    )


def _theory_figures(
    theory: Theory | None,
) -> tuple[tuple[Fraction | float | None, str | None], tuple[Fraction | None, str | None]]:
    if theory is None:
        return (None, None), (None, None)
    return (theory.main_rtp, theory.main_source), (theory.bonus_rtp, "exact")


async def theories(
    source: RtpSource, groups: Iterable[GroupSums], cache: TheoryCache
) -> dict[str, Theory | None]:
    """The theoretical figures of the groups' rulesets (None: a ruleset not found)."""
    found: dict[str, Theory | None] = {}
    for group in groups:
        if group.fingerprint in found:
            continue
        rules = await source.ruleset(group.table_id, group.fingerprint)
        found[group.fingerprint] = None if rules is None else await cache.get(rules, source)
    return found


async def rtp_report(
    source: RtpSource,
    cache: TheoryCache,
    *,
    start: datetime | None = None,
    end: datetime | None = None,
    table_id: str | None = None,
    operator_id: str | None = None,
) -> RtpReport:
    """The report over the window."""
    groups = await source.sums(start=start, end=end, table_id=table_id, operator_id=operator_id)
    known = await theories(source, groups, cache)
    rows = []
    for group in groups:
        (main_rtp, main_source), (bonus_rtp, bonus_source) = _theory_figures(
            known.get(group.fingerprint)
        )
        rows.append(
            RtpRow(
                table_id=group.table_id,
                ruleset_fingerprint=group.fingerprint,
                game=cast("Game | None", group.game),
                day=group.day,
                currency=group.currency,
                main=figure(group.main, main_rtp, main_source),
                bonus=figure(group.bonus, bonus_rtp, bonus_source),
            )
        )
    return RtpReport(since=start, until=end, operator_id=operator_id, rows=rows)
