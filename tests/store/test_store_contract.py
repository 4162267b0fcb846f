"""The event store's contract, on PostgreSQL."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import msgspec
import pytest

from russian_poker.events.postgres.store import EventStore
from russian_poker.events.records import (
    DuplicateCommand,
    DuplicateEvent,
    NewEvent,
    Position,
    RecordedEvent,
    StreamAppend,
    WrongExpectedVersion,
)


def _event(n: int = 0, *, event_id: uuid.UUID | None = None) -> NewEvent:
    return NewEvent(
        event_id=event_id or uuid.uuid4(),
        event_type="Happened",
        schema_version=1,
        data=msgspec.json.encode({"n": n, "nested": {"cards": ["As", "Kd"]}}),
        metadata=msgspec.json.encode({"actor": "tester"}),
    )


def _to(stream_id: str, expected: int | None, *events: NewEvent) -> StreamAppend:
    return StreamAppend(stream_id=stream_id, expected_version=expected, events=events)


def _json(raw: bytes) -> Any:
    return msgspec.json.decode(raw)


def _values(events: list[RecordedEvent]) -> list[tuple[Any, ...]]:
    # The store promises the same JSON values back, not the same bytes: jsonb re-renders.
    return [
        (*msgspec.structs.astuple(e)[:7], _json(e.data), _json(e.metadata), e.recorded_at)
        for e in events
    ]


async def _streams(store: EventStore, *stream_ids: str) -> list[tuple[Any, ...]]:
    """Everything stored in the given streams: the probe for "nothing was appended"."""
    return _values([e for s in stream_ids for e in await store.read_stream(s)])


async def _read_all(store: EventStore, count: int, *, limit: int = 1000) -> list[RecordedEvent]:
    """Page through ``read_all`` until ``count`` events arrived.

    ``read_all`` stops below the oldest transaction running anywhere on the server, so a
    concurrent session (another xdist worker) may hold back even our own committed events
    for a moment. The timeout only turns a hang into a failure.
    """
    seen: list[RecordedEvent] = []
    position = Position.start()
    async with asyncio.timeout(30):
        while len(seen) < count:
            page = await store.read_all(position, limit=limit)
            assert len(page) <= limit
            seen.extend(page)
            position = page[-1].position if page else position
            await asyncio.sleep(0 if page else 0.01)
    return seen


async def test_appended_events_read_back_unchanged(store: EventStore) -> None:
    sent = [_event(1), _event(2)]

    recorded = await store.append([_to("round-1", 0, *sent)])
    read = await store.read_stream("round-1")

    assert _values(read) == _values(recorded)
    assert [(r.stream_id, r.stream_version) for r in read] == [("round-1", 1), ("round-1", 2)]
    assert [(r.event_id, r.event_type, r.schema_version) for r in read] == [
        (e.event_id, e.event_type, e.schema_version) for e in sent
    ]
    # jsonb may re-render the text; the JSON value is what must survive.
    assert [(_json(r.data), _json(r.metadata)) for r in read] == [
        (_json(e.data), _json(e.metadata)) for e in sent
    ]
    assert read[0].position < read[1].position
    assert await store.stream_version("round-1") == 2


async def test_missing_stream_is_empty_at_version_zero(store: EventStore) -> None:
    assert await store.read_stream("nobody") == []
    assert await store.stream_version("nobody") == 0


async def test_expected_version_zero_only_creates(store: EventStore) -> None:
    await store.append([_to("s", 0, _event())])

    with pytest.raises(WrongExpectedVersion) as raised:
        await store.append([_to("s", 0, _event())])

    assert (raised.value.stream_id, raised.value.expected, raised.value.actual) == ("s", 0, 1)
    assert await store.stream_version("s") == 1


async def test_expected_version_none_appends_at_any_version(store: EventStore) -> None:
    first = await store.append([_to("wallet", None, _event(1))])
    second = await store.append([_to("wallet", None, _event(2), _event(3))])

    assert [r.stream_version for r in first + second] == [1, 2, 3]
    assert await store.stream_version("wallet") == 3


async def test_exact_expected_version_appends_after_it(store: EventStore) -> None:
    await store.append([_to("s", 0, _event(1), _event(2))])

    recorded = await store.append([_to("s", 2, _event(3))])

    assert [r.stream_version for r in recorded] == [3]


@pytest.mark.parametrize(("expected", "actual_before"), [(1, 2), (3, 2), (4, 0)])
async def test_wrong_expected_version_appends_nothing(
    store: EventStore, expected: int, actual_before: int
) -> None:
    if actual_before:
        await store.append([_to("s", 0, *(_event(i) for i in range(actual_before)))])
    before = await _streams(store, "s", "other")
    rejected = _event(99)

    with pytest.raises(WrongExpectedVersion) as raised:
        await store.append([_to("s", expected, rejected)])

    assert (raised.value.stream_id, raised.value.expected, raised.value.actual) == (
        "s",
        expected,
        actual_before,
    )
    assert await _streams(store, "s", "other") == before
    assert await store.stream_version("s") == actual_before
    # The rejected event left no trace, not even its id.
    await store.append([_to("other", 0, rejected)])


@pytest.mark.parametrize("conflicting", ["a-first", "z-last"])
async def test_multi_stream_append_is_all_or_nothing(store: EventStore, conflicting: str) -> None:
    # The conflict sorts before or after the healthy stream, so the healthy one is locked
    # and advanced either before or after the check fails.
    await store.append([_to(conflicting, 0, _event())])
    before = await _streams(store, conflicting, "m-healthy")

    with pytest.raises(WrongExpectedVersion) as raised:
        await store.append([_to("m-healthy", 0, _event()), _to(conflicting, 0, _event())])

    assert raised.value.stream_id == conflicting
    assert await _streams(store, conflicting, "m-healthy") == before
    assert await store.stream_version("m-healthy") == 0


async def test_multi_stream_append_records_every_stream(store: EventStore) -> None:
    await store.append([_to("wallet-1", None, _event(0))])

    recorded = await store.append(
        [_to("round-1", 0, _event(1), _event(2)), _to("wallet-1", 1, _event(3))]
    )

    assert sorted((r.stream_id, r.stream_version) for r in recorded) == [
        ("round-1", 1),
        ("round-1", 2),
        ("wallet-1", 2),
    ]
    assert [r.event_id for r in await _read_all(store, 4)][1:] == [
        r.event_id for r in sorted(recorded, key=lambda r: r.position)
    ]


async def test_duplicate_command_appends_once_and_returns_stored_result(
    store: EventStore,
) -> None:
    result = msgspec.json.encode({"status": "accepted", "version": 1})
    first = await store.append([_to("s", 0, _event(1))], command_id="cmd-1", command_result=result)
    before = await _streams(store, "s")

    # Once as a retry that would now conflict, once as one that would otherwise succeed.
    for retry in (_to("s", 0, _event(1)), _to("s", None, _event(2))):
        with pytest.raises(DuplicateCommand) as raised:
            await store.append([retry], command_id="cmd-1", command_result=b"{}")
        assert raised.value.command_id == "cmd-1"
        assert _json(raised.value.result) == _json(result)

    assert await _streams(store, "s") == before == _values(first)
    stored = await store.lookup_command("cmd-1")
    assert stored is not None
    assert _json(stored) == _json(result)


async def test_command_without_result_is_recorded_as_null(store: EventStore) -> None:
    await store.append([_to("s", 0, _event())], command_id="cmd-2")

    with pytest.raises(DuplicateCommand) as raised:
        await store.append([_to("s", None, _event())], command_id="cmd-2")

    assert raised.value.result == b"null"
    assert await store.lookup_command("cmd-2") == b"null"
    assert await store.lookup_command("never-seen") is None


async def test_duplicate_command_check_comes_before_version_check(
    store: EventStore,
) -> None:
    await store.append([_to("s", 0, _event())], command_id="cmd-3")

    # A conflicting version on a *retry* must still be reported as the duplicate it is.
    with pytest.raises(DuplicateCommand):
        await store.append([_to("s", 7, _event())], command_id="cmd-3")


async def test_event_id_is_unique_across_streams(store: EventStore) -> None:
    taken = _event(1)
    await store.append([_to("s", 0, taken)])
    before = await _streams(store, "s", "t")

    with pytest.raises(DuplicateEvent) as raised:
        await store.append(
            [_to("t", 0, _event(2), _event(3, event_id=taken.event_id))], command_id="cmd-4"
        )

    assert raised.value.event_id == taken.event_id
    assert await _streams(store, "s", "t") == before
    assert await store.stream_version("t") == 0
    # The command rolled back with the events, so it can run again.
    assert await store.lookup_command("cmd-4") is None


async def test_event_id_repeated_within_one_append_is_rejected(store: EventStore) -> None:
    twice = _event()

    with pytest.raises(DuplicateEvent):
        await store.append([_to("s", 0, twice), _to("t", 0, twice)])

    assert await _streams(store, "s", "t") == []


async def test_read_stream_range(store: EventStore) -> None:
    await store.append([_to("s", 0, *(_event(i) for i in range(5)))])

    def versions(events: list[RecordedEvent]) -> list[int]:
        return [e.stream_version for e in events]

    assert versions(await store.read_stream("s", from_version=3)) == [3, 4, 5]
    assert versions(await store.read_stream("s", to_version=2)) == [1, 2]
    assert versions(await store.read_stream("s", from_version=2, to_version=4)) == [2, 3, 4]
    assert versions(await store.read_stream("s", from_version=6)) == []


async def test_read_all_pages_through_every_event_once(store: EventStore) -> None:
    for i in range(4):
        await store.append([_to(f"s{i}", 0, _event(1), _event(2)), _to("shared", None, _event())])

    seen = await _read_all(store, 12, limit=3)

    assert len(seen) == 12
    assert len({e.event_id for e in seen}) == 12
    assert [e.position for e in seen] == sorted(e.position for e in seen)
    assert [e.stream_version for e in seen if e.stream_id == "shared"] == [1, 2, 3, 4]


@pytest.mark.parametrize(
    "appends",
    [
        [_to("s", 0)],
        [_to("s", -1, _event())],
        [_to("s", 0, _event()), _to("s", 1, _event())],
    ],
    ids=["no-events", "negative-version", "stream-twice"],
)
async def test_ambiguous_appends_are_refused(
    store: EventStore, appends: list[StreamAppend]
) -> None:
    with pytest.raises(ValueError):
        await store.append(appends)

    assert await _streams(store, "s") == []
