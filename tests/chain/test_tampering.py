"""An insider with SQL access changes, deletes, inserts or reorders events: verify-chain
names the event; a stream re-hashed throughout is caught by the signed checkpoint; a
checkpoint signed by another key, or altered, is refused."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

import asyncpg
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tests.chain.conftest import checkpoint, event, fill, first, verify

if TYPE_CHECKING:
    Pool: TypeAlias = asyncpg.Pool[asyncpg.Record]


async def _event_id(pool: Pool, stream: str, version: int) -> str:
    return str(
        await pool.fetchval(
            "SELECT event_id FROM events WHERE stream_id = $1 AND stream_version = $2",
            stream,
            version,
        )
    )


async def test_an_untouched_store_verifies(pool: Pool, key: Ed25519PrivateKey) -> None:
    await fill(pool, ["a", "b", "c"], 7)
    await checkpoint(pool, key)
    await fill(pool, ["d"], 3)
    report = await verify(pool, key)
    assert report.findings == []
    assert (report.events, report.streams, report.checkpoints, report.leaves) == (24, 4, 1, 3)
    assert report.uncovered == 3


async def test_a_changed_event_is_named(pool: Pool, key: Ed25519PrivateKey) -> None:
    await fill(pool, ["a", "b"], 6)
    await pool.execute(
        "UPDATE events SET data = jsonb_set(data, '{n}', '99') "
        "WHERE stream_id = 'b' AND stream_version = 4"
    )
    finding = first(await verify(pool, key))
    assert (finding.kind, finding.stream_id, finding.stream_version) == ("changed", "b", 4)
    assert finding.event_id == await _event_id(pool, "b", 4)


async def test_a_changed_time_or_type_is_named(pool: Pool, key: Ed25519PrivateKey) -> None:
    await fill(pool, ["a", "b"], 4)
    await pool.execute(
        "UPDATE events SET recorded_at = recorded_at + interval '1 microsecond' "
        "WHERE stream_id = 'a' AND stream_version = 2"
    )
    await pool.execute(
        "UPDATE events SET event_type = 'Other' WHERE stream_id = 'b' AND stream_version = 3"
    )
    report = await verify(pool, key)
    assert [(f.kind, f.stream_id, f.stream_version) for f in report.findings] == [
        ("changed", "a", 2),
        ("changed", "b", 3),
    ]


async def test_a_deleted_event_in_the_middle_is_named(pool: Pool, key: Ed25519PrivateKey) -> None:
    await fill(pool, ["a"], 6)
    await pool.execute("DELETE FROM events WHERE stream_id = 'a' AND stream_version = 3")
    finding = first(await verify(pool, key))
    assert (finding.kind, finding.stream_id, finding.stream_version) == ("deleted", "a", 3)


async def test_a_deletion_hidden_by_renumbering_is_named(
    pool: Pool, key: Ed25519PrivateKey
) -> None:
    await fill(pool, ["a"], 6)
    await pool.execute("DELETE FROM events WHERE stream_id = 'a' AND stream_version = 3")
    for version in (4, 5, 6):
        await pool.execute(
            "UPDATE events SET stream_version = stream_version - 1 "
            "WHERE stream_id = 'a' AND stream_version = $1",
            version,
        )
    await pool.execute("UPDATE streams SET version = 5 WHERE stream_id = 'a'")
    finding = first(await verify(pool, key))
    assert (finding.kind, finding.stream_id, finding.stream_version) == ("deleted", "a", 3)


async def test_a_deleted_last_event_is_named(pool: Pool, key: Ed25519PrivateKey) -> None:
    await fill(pool, ["a"], 5)
    await pool.execute("DELETE FROM events WHERE stream_id = 'a' AND stream_version = 5")
    finding = first(await verify(pool, key))
    assert (finding.kind, finding.stream_id, finding.stream_version) == ("deleted", "a", 5)


async def test_a_deleted_last_event_with_its_stream_row_fixed_is_caught_by_the_checkpoint(
    pool: Pool, key: Ed25519PrivateKey
) -> None:
    await fill(pool, ["a"], 5)
    made = await checkpoint(pool, key)
    await pool.execute("DELETE FROM events WHERE stream_id = 'a' AND stream_version = 5")
    await pool.execute("UPDATE streams SET version = 4 WHERE stream_id = 'a'")
    finding = first(await verify(pool, key))
    assert (finding.kind, finding.stream_id, finding.stream_version) == ("deleted", "a", 5)
    assert finding.checkpoint == made.seq


async def test_an_inserted_foreign_event_is_named(pool: Pool, key: Ed25519PrivateKey) -> None:
    """Renumbered to make room, then inserted through the trigger (so it links itself)."""
    await fill(pool, ["a"], 6)
    await pool.execute(
        "UPDATE events SET stream_version = stream_version + 1000 "
        "WHERE stream_id = 'a' AND stream_version >= 3"
    )
    await pool.execute(
        "UPDATE events SET stream_version = stream_version - 999 "
        "WHERE stream_id = 'a' AND stream_version > 1000"
    )
    foreign = event(42)
    await pool.execute(
        "INSERT INTO events (stream_id, stream_version, event_id, event_type, schema_version, "
        "data) VALUES ('a', 3, $1, 'Tested', 1, $2::jsonb)",
        foreign.event_id,
        foreign.data.decode(),
    )
    await pool.execute("UPDATE streams SET version = 7 WHERE stream_id = 'a'")
    finding = first(await verify(pool, key))
    assert (finding.kind, finding.stream_id, finding.stream_version) == ("inserted", "a", 3)
    assert finding.event_id == str(foreign.event_id)


async def test_an_event_appended_past_the_stream_head_is_named(
    pool: Pool, key: Ed25519PrivateKey
) -> None:
    await fill(pool, ["a"], 3)
    foreign = event(42)
    await pool.execute(
        "INSERT INTO events (stream_id, stream_version, event_id, event_type, schema_version, "
        "data) VALUES ('a', 4, $1, 'Tested', 1, $2::jsonb)",
        foreign.event_id,
        foreign.data.decode(),
    )
    finding = first(await verify(pool, key))
    assert (finding.kind, finding.stream_id, finding.stream_version) == ("inserted", "a", 4)


async def test_swapped_events_are_named(pool: Pool, key: Ed25519PrivateKey) -> None:
    await fill(pool, ["a", "b"], 6)
    for old, new in ((3, 1000), (4, 3), (1000, 4)):
        await pool.execute(
            "UPDATE events SET stream_version = $2 WHERE stream_id = 'b' AND stream_version = $1",
            old,
            new,
        )
    finding = first(await verify(pool, key))
    assert (finding.kind, finding.stream_id, finding.stream_version) == ("reordered", "b", 3)


async def test_a_stream_rewritten_consistently_is_caught_by_the_checkpoint(
    pool: Pool, key: Ed25519PrivateKey
) -> None:
    """The insider changes an event and recomputes every hash after it with the
    database's own function: every link holds, but the signed head no longer matches."""
    await fill(pool, ["a", "b"], 6)
    made = await checkpoint(pool, key)
    await fill(pool, ["c"], 2)
    await checkpoint(pool, key)
    await pool.execute(
        "UPDATE events SET data = jsonb_set(data, '{n}', '99') "
        "WHERE stream_id = 'a' AND stream_version = 2"
    )
    for version in range(2, 7):
        await pool.execute(
            """
            UPDATE events AS e SET
                prev_hash = p.hash,
                hash = event_chain_hash(p.hash, e.stream_id, e.stream_version, e.event_id,
                                        e.event_type, e.schema_version, e.data, e.metadata,
                                        e.recorded_at)
            FROM events AS p
            WHERE e.stream_id = 'a' AND e.stream_version = $1
              AND p.stream_id = 'a' AND p.stream_version = $1 - 1
            """,
            version,
        )
    report = await verify(pool, key)
    assert [(f.kind, f.stream_id, f.stream_version, f.checkpoint) for f in report.findings] == [
        ("rewritten", "a", 6, made.seq)
    ]


async def test_a_checkpoint_signed_by_another_key_is_refused(
    pool: Pool, key: Ed25519PrivateKey
) -> None:
    await fill(pool, ["a"], 2)
    await checkpoint(pool, key)
    await fill(pool, ["b"], 2)
    forged = await checkpoint(pool, Ed25519PrivateKey.generate())
    finding = first(await verify(pool, key))
    assert (finding.kind, finding.checkpoint) == ("forged", forged.seq)
    # With the forger's key trusted instead, it is the first one that fails.
    finding = first(await verify(pool, Ed25519PrivateKey.generate()))
    assert (finding.kind, finding.checkpoint) == ("forged", 1)


async def test_an_altered_checkpoint_is_refused(pool: Pool, key: Ed25519PrivateKey) -> None:
    await fill(pool, ["a", "b"], 2)
    await checkpoint(pool, key)
    await pool.execute("UPDATE chain_checkpoints SET upto_position = upto_position + 1")
    finding = first(await verify(pool, key))
    assert (finding.kind, finding.checkpoint) == ("forged", 1)


async def test_a_removed_leaf_or_checkpoint_is_refused(pool: Pool, key: Ed25519PrivateKey) -> None:
    await fill(pool, ["a", "b"], 2)
    await checkpoint(pool, key)
    await fill(pool, ["c"], 2)
    await checkpoint(pool, key)
    await fill(pool, ["d"], 2)
    await checkpoint(pool, key)
    await pool.execute("DELETE FROM chain_checkpoint_leaves WHERE seq = 1 AND stream_id = 'b'")
    finding = first(await verify(pool, key))
    assert (finding.kind, finding.checkpoint) == ("invalid", 1)
    await pool.execute("DELETE FROM chain_checkpoint_leaves WHERE seq = 2")
    await pool.execute("DELETE FROM chain_checkpoints WHERE seq = 2")
    report = await verify(pool, key)
    assert [(f.kind, f.checkpoint) for f in report.findings] == [("invalid", 1), ("invalid", 3)]
    assert "checkpoint 2 is missing" in report.findings[1].detail
