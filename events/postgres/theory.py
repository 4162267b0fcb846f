"""The ``ruleset_theory`` table (migration 0017): a custom ruleset's theoretical main-wager
RTP, written by ``russian-poker rtp-theory`` and read by the server's RTP report, and the
rulesets the tables have been opened or changed with, which that command goes through.

Every query of the table is here, and nowhere else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from russian_poker.events.codec import decode_event
from russian_poker.events.ruleset import Ruleset
from russian_poker.events.streams import TABLE_PREFIX

if TYPE_CHECKING:
    from russian_poker.events.postgres.store import AnyConnection

__all__ = ["StoredTheory", "missing_theory", "store_main", "stored_main", "tables_rulesets"]


@dataclass(frozen=True)
class StoredTheory:
    fingerprint: str
    strategy: str
    rounds: int
    seed: int
    rtp: float
    ci95_low: float
    ci95_high: float


_READ: Final = """
SELECT fingerprint, strategy, rounds, seed, rtp, ci95_low, ci95_high
FROM ruleset_theory WHERE fingerprint = $1
"""
_WRITE: Final = """
INSERT INTO ruleset_theory (fingerprint, strategy, rounds, seed, rtp, ci95_low, ci95_high)
VALUES ($1, $2, $3, $4, $5, $6, $7)
ON CONFLICT (fingerprint) DO UPDATE SET
    strategy = EXCLUDED.strategy, rounds = EXCLUDED.rounds, seed = EXCLUDED.seed,
    rtp = EXCLUDED.rtp, ci95_low = EXCLUDED.ci95_low, ci95_high = EXCLUDED.ci95_high,
    computed_at = now()
"""
_KNOWN: Final = "SELECT fingerprint FROM ruleset_theory WHERE fingerprint = ANY($1::text[])"
# Every event that carries a ruleset (the opening, each change), of one table or of every
# table the read model knows; each table's through its stream's index.
_RULESETS: Final = """
SELECT e.event_type, e.schema_version, e.data::text AS data
FROM table_states t JOIN events e ON e.stream_id = $1 || t.table_id
WHERE ($2::text IS NULL OR t.table_id = $2) AND e.data ? 'ruleset'
ORDER BY e.global_position
"""


async def stored_main(conn: AnyConnection, fingerprint: str) -> StoredTheory | None:
    row = await conn.fetchrow(_READ, fingerprint)
    return None if row is None else StoredTheory(**dict(row))


async def store_main(conn: AnyConnection, figure: StoredTheory) -> None:
    await conn.execute(
        _WRITE,
        figure.fingerprint,
        figure.strategy,
        figure.rounds,
        figure.seed,
        figure.rtp,
        figure.ci95_low,
        figure.ci95_high,
    )


async def tables_rulesets(conn: AnyConnection, table_id: str | None = None) -> list[Ruleset]:
    """Every ruleset a table (or, without ``table_id``, any table) has been opened or changed
    with, each once, in the order they appeared."""
    found: dict[str, Ruleset] = {}
    for row in await conn.fetch(_RULESETS, TABLE_PREFIX, table_id):
        rules = getattr(
            decode_event(row["event_type"], row["schema_version"], row["data"]), "ruleset", None
        )
        if isinstance(rules, Ruleset):
            found.setdefault(rules.fingerprint, rules)
    return list(found.values())


async def missing_theory(conn: AnyConnection, rulesets: list[Ruleset]) -> list[Ruleset]:
    """Those of ``rulesets`` without a stored figure."""
    rows = await conn.fetch(_KNOWN, [rules.fingerprint for rules in rulesets])
    known = {row["fingerprint"] for row in rows}
    return [rules for rules in rulesets if rules.fingerprint not in known]
