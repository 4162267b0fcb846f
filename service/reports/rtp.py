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
from typing import Annotated, Any, Final, Literal

import msgspec

from russian_poker.events.codec import decode_event
from russian_poker.events.postgres.store import AnyConnection
from russian_poker.events.ruleset import Ruleset
from russian_poker.events.streams import table_stream
from russian_poker.service.reports.theory import Theory, TheoryCache
from russian_poker.service.tenancy import DEFAULT_OPERATOR

__all__ = [
    "MIN_ROUNDS",
    "Z99",
    "Estimate",
    "RtpFigure",
    "RtpReport",
    "RtpRow",
    "Sums",
    "estimate",
    "rtp_report",
    "rtp_sums",
    "ruleset_of",
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
    game: Annotated[str | None, msgspec.Meta(description="`russian` or `oasis`.")]
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


# Per box: the bonus's stake and payout apart from the rest (a won bonus pays its stake back
# besides its winnings); per round: the operator's boxes summed (the sampling unit); per
# group: the integer sums the estimator needs.
_SUMS: Final = """
WITH boxes AS (
    SELECT b.table_id, b.round, (r.settled_at AT TIME ZONE 'UTC')::date AS day,
           coalesce(r.ruleset_fingerprint, '') AS fingerprint,
           coalesce((b.detail->>'bonus')::bigint, 0) AS bonus_staked,
           CASE WHEN coalesce(b.detail->'result'->'bonus'->>'outcome',
                              CASE WHEN coalesce((b.detail->>'bonus_won')::bigint, 0) > 0
                                   THEN 'won' END) = 'won'
                THEN coalesce((b.detail->>'bonus')::bigint, 0)
                     + coalesce((b.detail->>'bonus_won')::bigint, 0)
                ELSE 0 END AS bonus_paid,
           b.staked, b.paid_back
    FROM round_boxes b JOIN rounds r USING (table_id, round)
    WHERE ($1::timestamptz IS NULL OR r.settled_at >= $1)
      AND ($2::timestamptz IS NULL OR r.settled_at < $2)
      AND ($3::text IS NULL OR b.table_id = $3)
      AND ($4::text IS NULL
           OR CASE WHEN $4 = $5 THEN strpos(b.player, ':') = 0
                   ELSE starts_with(b.player, $4 || ':') END)
), per_round AS (
    SELECT table_id, round, day, fingerprint,
           sum(staked - bonus_staked)::numeric AS s, sum(paid_back - bonus_paid)::numeric AS p,
           sum(bonus_staked)::numeric AS bs, sum(bonus_paid)::numeric AS bp
    FROM boxes GROUP BY table_id, round, day, fingerprint
)
SELECT pr.table_id, pr.fingerprint, pr.day, t.game, t.currency,
       count(*) FILTER (WHERE s > 0) AS n, sum(s) AS s, sum(p) AS p,
       sum(s * s) AS ss, sum(p * p) AS pp, sum(p * s) AS ps,
       count(*) FILTER (WHERE bs > 0) AS bn, sum(bs) AS bs, sum(bp) AS bp,
       sum(bs * bs) AS bss, sum(bp * bp) AS bpp, sum(bp * bs) AS bps
FROM per_round pr LEFT JOIN table_states t USING (table_id)
GROUP BY pr.table_id, pr.fingerprint, pr.day, t.game, t.currency
ORDER BY pr.day, pr.table_id, pr.fingerprint
"""


@dataclass(frozen=True)
class GroupSums:
    table_id: str
    fingerprint: str
    day: date
    game: str | None
    currency: str | None
    main: Sums
    bonus: Sums


def _int(value: Any) -> int:
    return int(value or 0)


async def rtp_sums(
    conn: AnyConnection,
    *,
    start: datetime | None = None,
    end: datetime | None = None,
    table_id: str | None = None,
    operator_id: str | None = None,
) -> list[GroupSums]:
    """The integer sums of every (table, ruleset, day) group in the window."""
    rows = await conn.fetch(_SUMS, start, end, table_id, operator_id, DEFAULT_OPERATOR)
    return [
        GroupSums(
            table_id=r["table_id"],
            fingerprint=r["fingerprint"],
            day=r["day"],
            game=r["game"],
            currency=r["currency"],
            main=Sums(*(_int(r[k]) for k in ("n", "s", "p", "ss", "pp", "ps"))),
            bonus=Sums(*(_int(r[k]) for k in ("bn", "bs", "bp", "bss", "bpp", "bps"))),
        )
        for r in rows
    ]


_RULESETS: Final = """
SELECT event_type, schema_version, data::text AS data FROM events
WHERE stream_id = $1 AND data ? 'ruleset' ORDER BY stream_version DESC
"""
_KNOWN_RULESETS: dict[str, Ruleset] = {}


async def ruleset_of(conn: AnyConnection, table_id: str, fingerprint: str) -> Ruleset | None:
    """The ruleset with ``fingerprint`` the table was opened (or changed) with, from its
    events: any event carrying a ``ruleset``. Kept per fingerprint (a fingerprint names one
    ruleset for good)."""
    known = _KNOWN_RULESETS.get(fingerprint)
    if known is not None:
        return known
    for row in await conn.fetch(_RULESETS, table_stream(table_id)):
        try:
            event = decode_event(row["event_type"], row["schema_version"], row["data"])
        except Exception:  # an event we cannot read names no ruleset
            continue
        rules = getattr(event, "ruleset", None)
        if isinstance(rules, Ruleset):
            _KNOWN_RULESETS.setdefault(rules.fingerprint, rules)
            if rules.fingerprint == fingerprint:
                return rules
    return None


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
    conn: AnyConnection, groups: Iterable[GroupSums], cache: TheoryCache
) -> dict[str, Theory | None]:
    """The theoretical figures of the groups' rulesets (None: a ruleset not found)."""
    found: dict[str, Theory | None] = {}
    for group in groups:
        if group.fingerprint in found:
            continue
        rules = await ruleset_of(conn, group.table_id, group.fingerprint)
        found[group.fingerprint] = None if rules is None else await cache.get(rules, conn)
    return found


async def rtp_report(
    conn: AnyConnection,
    cache: TheoryCache,
    *,
    start: datetime | None = None,
    end: datetime | None = None,
    table_id: str | None = None,
    operator_id: str | None = None,
) -> RtpReport:
    """The report over the window."""
    groups = await rtp_sums(conn, start=start, end=end, table_id=table_id, operator_id=operator_id)
    known = await theories(conn, groups, cache)
    rows = []
    for group in groups:
        (main_rtp, main_source), (bonus_rtp, bonus_source) = _theory_figures(
            known.get(group.fingerprint)
        )
        rows.append(
            RtpRow(
                table_id=group.table_id,
                ruleset_fingerprint=group.fingerprint,
                game=group.game,
                day=group.day,
                currency=group.currency,
                main=figure(group.main, main_rtp, main_source),
                bonus=figure(group.bonus, bonus_rtp, bonus_source),
            )
        )
    return RtpReport(since=start, until=end, operator_id=operator_id, rows=rows)
