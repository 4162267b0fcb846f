"""The round history (written by each settling command) agrees with the regulator's record
(the audit trail's fold of the same events), round by round and box by box; and
``projections rebuild history`` finds and repairs a history that drifted from the events."""

from __future__ import annotations

from typing import Any

import msgspec

from russian_poker.events.postgres.audit import AuditStore
from russian_poker.events.postgres.projections import ProjectionStore
from russian_poker.events.postgres.rebuild import RebuildStore
from russian_poker.projections.audit import AuditProjection
from russian_poker.projections.game_record import GameBox
from russian_poker.projections.rebuild import rebuild
from russian_poker.projections.runner import ProjectionRunner
from tests.audit.conftest import Played, catch_up_fully
from tests.audit.tampering import rolled_back


def _paid_back(box: GameBox) -> int:
    settled = box.settlement
    main = settled.returned + settled.won if settled else 0
    bonus = box.bonus_result
    # A won bonus pays its stake back besides its winnings; a lost one pays nothing.
    return main + (bonus.stake + bonus.won if bonus and bonus.won else 0)


async def test_the_history_and_the_regulator_record_agree(played: Played) -> None:
    runner = ProjectionRunner(AuditProjection(), ProjectionStore(played.url, played.pool))
    await catch_up_fully(runner, played.pool)
    rows = await played.pool.fetch(
        "SELECT r.table_id, r.round, r.seed, r.staked, r.paid_back, r.dealer_cards,"
        " b.box, b.player, b.staked AS box_staked, b.paid_back AS box_paid,"
        " b.detail::text AS detail"
        " FROM rounds r JOIN round_boxes b USING (table_id, round) ORDER BY 1, 2, 7"
    )
    assert await played.pool.fetchval("SELECT count(*) FROM rounds") >= played.rounds
    assert len({(r["table_id"], r["round"]) for r in rows}) > played.rounds // 2
    trail = AuditStore(played.pool)
    records: dict[tuple[str, int], Any] = {}
    for row in rows:
        key = (row["table_id"], row["round"])
        if key not in records:
            records[key] = await trail.round(*key)
        audit = records[key]
        assert audit is not None and audit.seed == row["seed"], key
        record = audit.record
        assert record.dealer.cards == list(row["dealer_cards"]), key
        box = record.placement(row["box"])
        detail = msgspec.json.decode(row["detail"])
        assert box.player == row["player"] == detail["player"], key
        staked = box.ante + box.bonus + box.bet + box.insurance + box.fees
        assert (staked, _paid_back(box)) == (row["box_staked"], row["box_paid"]), key
        assert box.settlement is not None and box.settlement.outcome == detail["outcome"], key
        assert box.cards == detail["cards"], key
    for (table_id, number), audit in records.items():
        boxes = [b for b in audit.record.boxes if not b.cancelled]
        kept = [r for r in rows if (r["table_id"], r["round"]) == (table_id, number)]
        assert sorted(b.box for b in boxes) == [r["box"] for r in kept]
        assert sum(r["box_staked"] for r in kept) == kept[0]["staked"]
        assert sum(r["box_paid"] for r in kept) == kept[0]["paid_back"]


async def test_a_history_that_drifted_is_found_and_repaired(played: Played) -> None:
    async with rolled_back(played.pool) as conn:
        gone = await conn.fetchrow(
            "DELETE FROM round_boxes WHERE (table_id, round, box) IN"
            " (SELECT table_id, round, box FROM round_boxes ORDER BY 1, 2, 3 LIMIT 1)"
            " RETURNING table_id, round, box, detail::text AS detail"
        )
        edited = await conn.fetchrow(
            "UPDATE rounds SET paid_back = paid_back + 1 WHERE (table_id, round) IN"
            " (SELECT table_id, round FROM rounds ORDER BY 1 DESC, 2 DESC LIMIT 1)"
            " RETURNING table_id, round, paid_back"
        )
        assert gone is not None and edited is not None
        report = await rebuild(RebuildStore(conn), "history")
        key = f"table_id={gone['table_id']}, round={gone['round']}, box={gone['box']}"
        assert f"round_boxes [{key}]: missing from the live model" in report.details
        assert any(
            d.startswith(f"rounds [table_id={edited['table_id']}, round={edited['round']}]:")
            and "paid_back" in d
            for d in report.details
        ), report.details
        assert report.differences == 2
        # Replaced by the rebuild: the next one finds nothing.
        again = await rebuild(RebuildStore(conn), "history")
        assert not again.differed, again.details
        restored = await conn.fetchval(
            "SELECT detail::text FROM round_boxes WHERE table_id = $1 AND round = $2 AND box = $3",
            gone["table_id"],
            gone["round"],
            gone["box"],
        )
        assert msgspec.json.decode(restored) == msgspec.json.decode(gone["detail"])
