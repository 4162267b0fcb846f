"""The RTP report's reads: the integer sums of settled rounds per table, ruleset and UTC day
(from ``rounds`` and ``round_boxes``), the rulesets tables were opened or changed with, and
a custom ruleset's stored theoretical main figure (``ruleset_theory``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final

from russian_poker.events.codec import decode_event
from russian_poker.events.postgres.theory import stored_main
from russian_poker.events.ruleset import Ruleset
from russian_poker.events.streams import table_stream
from russian_poker.service.reports.rtp import GroupSums, Sums
from russian_poker.service.reports.theory import MainFigure
from russian_poker.service.tenancy import DEFAULT_OPERATOR

__all__ = ["RtpStore"]

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


_RULESETS: Final = """
SELECT event_type, schema_version, data::text AS data FROM events
WHERE stream_id = $1 AND data ? 'ruleset' ORDER BY stream_version DESC
"""
_MAIN: Final = ("n", "s", "p", "ss", "pp", "ps")
_BONUS: Final = ("bn", "bs", "bp", "bss", "bpp", "bps")


class RtpStore:
    """On a pool or one connection."""

    def __init__(self, db: Any) -> None:
        self._db = db
        # A fingerprint names one ruleset for good, so what was found is kept.
        self._rulesets: dict[str, Ruleset] = {}

    async def sums(
        self,
        *,
        start: datetime | None = None,
        end: datetime | None = None,
        table_id: str | None = None,
        operator_id: str | None = None,
    ) -> list[GroupSums]:
        """The integer sums of every (table, ruleset, day) group in the window."""
        rows = await self._db.fetch(_SUMS, start, end, table_id, operator_id, DEFAULT_OPERATOR)
        return [
            GroupSums(
                table_id=r["table_id"],
                fingerprint=r["fingerprint"],
                day=r["day"],
                game=r["game"],
                currency=r["currency"],
                main=Sums(*(int(r[k] or 0) for k in _MAIN)),
                bonus=Sums(*(int(r[k] or 0) for k in _BONUS)),
            )
            for r in rows
        ]

    async def ruleset(self, table_id: str, fingerprint: str) -> Ruleset | None:
        """The ruleset with ``fingerprint`` the table was opened (or changed) with, from its
        events: any event carrying a ``ruleset``."""
        known = self._rulesets.get(fingerprint)
        if known is not None:
            return known
        for row in await self._db.fetch(_RULESETS, table_stream(table_id)):
            try:
                event = decode_event(row["event_type"], row["schema_version"], row["data"])
            except Exception:  # an event we cannot read names no ruleset
                continue
            rules = getattr(event, "ruleset", None)
            if isinstance(rules, Ruleset):
                self._rulesets.setdefault(rules.fingerprint, rules)
                if rules.fingerprint == fingerprint:
                    return rules
        return None

    async def stored_main(self, fingerprint: str) -> MainFigure | None:
        """A custom ruleset's main figure as ``rtp-theory`` stored it."""
        row = await stored_main(self._db, fingerprint)
        if row is None:
            return None
        return MainFigure(row.rtp, (row.ci95_low, row.ci95_high), row.rounds, "simulated")
