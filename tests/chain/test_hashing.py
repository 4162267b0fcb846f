"""The database's hash (the trigger) and the verifier's (Python) agree on any event, and
``jsonb_text`` renders PostgreSQL's canonical jsonb text from parsed JSON."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, TypeAlias

import asyncpg
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from russian_poker.service.chain.hashing import GENESIS, event_hash, jsonb_text, micros

if TYPE_CHECKING:
    Pool: TypeAlias = asyncpg.Pool[asyncpg.Record]

# PostgreSQL text has no NUL (and jsonb no \u0000); UTF-8 has no lone surrogates.
_text = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"))
_json: st.SearchStrategy[Any] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | _text,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(_text, inner, max_size=5),
    max_leaves=30,
)
_INSERT = """
INSERT INTO events (stream_id, stream_version, event_id, event_type, schema_version, data,
                    metadata, recorded_at)
VALUES ($1, 1, $2, $3, $4, $5::jsonb, $6::jsonb, $7)
RETURNING prev_hash, hash, data::text AS data, metadata::text AS metadata, recorded_at
"""


async def _stored(pool: Pool, *args: Any) -> asyncpg.Record:
    row = await pool.fetchrow(_INSERT, *args)
    assert row is not None
    return row


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    stream=_text.filter(bool),
    event_type=_text,
    schema_version=st.integers(min_value=-(2**31), max_value=2**31 - 1),
    data=_json,
    metadata=st.dictionaries(_text, _json, max_size=4),
    recorded_at=st.datetimes(
        min_value=datetime(1900, 1, 1), max_value=datetime(2200, 1, 1), timezones=st.just(UTC)
    ),
)
async def test_python_and_sql_hash_any_event_alike(
    pool: Pool,
    stream: str,
    event_type: str,
    schema_version: int,
    data: Any,
    metadata: dict[str, Any],
    recorded_at: datetime,
) -> None:
    event_id = uuid.uuid4()
    row = await _stored(
        pool,
        f"{stream}-{event_id}",
        event_id,
        event_type,
        schema_version,
        json.dumps(data, ensure_ascii=False),
        json.dumps(metadata),
        recorded_at,
    )
    assert row["data"] == jsonb_text(data)
    assert row["metadata"] == jsonb_text(metadata)
    assert row["recorded_at"] == recorded_at
    assert row["prev_hash"] == GENESIS
    ours = event_hash(
        GENESIS,
        f"{stream}-{event_id}",
        1,
        event_id,
        event_type,
        schema_version,
        jsonb_text(data),
        jsonb_text(metadata),
        recorded_at,
    )
    assert ours == row["hash"]


async def test_a_big_document_hashes_alike(pool: Pool) -> None:
    data = {f"k{i}": ["é" * 50, i, {"nested": [True, None, 1.5e-7, 10**20]}] for i in range(20_000)}
    event_id = uuid.uuid4()
    now = datetime.now(UTC)
    row = await _stored(pool, "big", event_id, "Big", 1, json.dumps(data), "{}", now)
    assert len(row["data"]) > 1_000_000
    assert row["data"] == jsonb_text(data)
    assert event_hash(GENESIS, "big", 1, event_id, "Big", 1, row["data"], "{}", now) == row["hash"]


def test_micros_are_exact_on_both_sides_of_the_epoch() -> None:
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    assert micros(epoch) == 0
    assert micros(epoch - timedelta(microseconds=1)) == -1
    assert micros(epoch + timedelta(days=20_000, microseconds=7)) == 20_000 * 86_400_000_000 + 7


def test_jsonb_text_follows_postgresql() -> None:
    assert jsonb_text({"bb": 1, "a": [1.0, -0.0, 1e16], "é": "x\n\x01"}) == (
        '{"a": [1.0, 0.0, 10000000000000000], "bb": 1, "é": "x\\n\\u0001"}'
    )
