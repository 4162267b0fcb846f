"""How a broken stream is classified, on stored rows alone (no database)."""

from __future__ import annotations

import hashlib
import uuid

import msgspec

from russian_poker.service.chain.findings import StoredRow, classify
from russian_poker.service.chain.hashing import GENESIS


def _chain(n: int) -> list[StoredRow]:
    rows, prev = [], GENESIS
    for version in range(1, n + 1):
        digest = hashlib.sha256(prev + bytes([version])).digest()
        rows.append(StoredRow(version, uuid.uuid4(), prev, digest, True))
        prev = digest
    return rows


def _at(rows: list[StoredRow], version: int, **changes: object) -> list[StoredRow]:
    return [msgspec.structs.replace(r, **changes) if r.version == version else r for r in rows]


def test_an_intact_stream_has_no_finding() -> None:
    assert classify("s", _chain(5)) is None
    assert classify("s", []) is None


def test_a_re_hashed_event_is_named_by_the_link_after_it() -> None:
    rows = _at(_chain(5), 3, hash=b"\x01" * 32)  # changed, and its own hash recomputed
    found = classify("s", rows)
    assert found is not None
    assert (found.kind, found.stream_version) == ("changed", 3)
    assert found.event_id == str(rows[2].event_id)


def test_a_former_first_event_moved_later_is_reordered() -> None:
    rows = _chain(4)
    moved = [
        StoredRow(1, rows[1].event_id, rows[1].prev_hash, rows[1].hash, False),
        StoredRow(2, rows[0].event_id, rows[0].prev_hash, rows[0].hash, False),
        *rows[2:],
    ]
    found = classify("s", moved)
    assert found is not None and (found.kind, found.stream_version) == ("reordered", 1)


def test_a_window_starting_after_a_missing_event() -> None:
    rows = [r for r in _chain(6) if r.version != 3]
    found = classify("s", rows, first=4, before=None)
    assert found is not None and (found.kind, found.stream_version) == ("deleted", 3)
    assert classify("s", _chain(6), first=4, before=_chain(6)[2].hash) is None


def test_several_missing_versions_are_spanned() -> None:
    rows = [r for r in _chain(8) if r.version not in (3, 4, 5)]
    found = classify("s", rows)
    assert found is not None and found.kind == "deleted" and found.stream_version == 3
    assert "3..5" in found.detail
