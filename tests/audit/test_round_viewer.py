"""What the back office's round viewer reads: a settled round step by step (the round after
each event, every card shown), and the proof its events are in a signed checkpoint, checked
here from the answer and the served public key alone. Neither exists for a round still in
play, nor for an operator's staff at another operator's table."""

from __future__ import annotations

import uuid
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from russian_poker.events.postgres.chain import ChainStore
from russian_poker.projections.shown import RecordedEventData
from russian_poker.service.app.auth import mint_token
from russian_poker.service.chain.checkpoints import checkpoint_digest, make_checkpoint
from russian_poker.service.chain.hashing import event_hash
from russian_poker.service.chain.keys import private_key_for
from russian_poker.service.chain.merkle import leaf_bytes, root_from_path
from tests.api.conftest import SECRET, bearer
from tests.chain.conftest import below_horizon
from tests.rules.scenario import deck_for

OPERATOR = bearer("operator", "op")
AUDITOR = bearer("auditor", "regulator")
ALICE = bearer("player", "alice")
OTHER = {"Authorization": f"Bearer {mint_token(SECRET, 'operator', 'b', operator='beta')}"}
STRAIGHT = "5h 6c 7d 8s 9h"
DEALER = "Ah Kc 9d 7s 4c"


async def _play_one_round(api: httpx.AsyncClient) -> None:
    assert (await api.post("/v1/wallets", json={"wallet_id": "alice"}, headers=OPERATOR)).is_success
    deposit = {"transfer_id": "d1", "amount": 10_000}
    assert (await api.post("/v1/wallets/alice/deposits", json=deposit, headers=OPERATOR)).is_success
    table = {"table_id": "t1", "test_deck": list(deck_for([STRAIGHT], DEALER))}
    assert (await api.post("/v1/tables", json=table, headers=OPERATOR)).status_code == 201
    for body in (
        {"type": "SitDown"},
        {"type": "PlaceAnte", "box": 1, "ante": 100},
        {"type": "Deal"},
        {"type": "Play", "box": 1},
    ):
        headers = {**ALICE, "Idempotency-Key": uuid.uuid4().hex}
        answer = await api.post("/v1/tables/t1/commands", json=body, headers=headers)
        assert answer.is_success, answer.text


async def test_a_settled_round_step_by_step(api: httpx.AsyncClient) -> None:
    await _play_one_round(api)
    answer = await api.get("/v1/audit/rounds/t1/1/steps", headers=AUDITOR)
    assert answer.status_code == 200, answer.text
    steps = answer.json()["steps"]
    kinds = [s["event_type"] for s in steps]
    assert kinds[0] == "RoundOpened" and kinds[-1] == "RoundSettled"
    assert "CardsDealt" in kinds and "BoxPlayed" in kinds
    dealt = steps[kinds.index("CardsDealt")]["round"]
    assert dealt["boxes"][0]["cards"] == STRAIGHT.split()
    assert dealt["dealer"] == DEALER.split()  # all five: the round is settled
    assert steps[-1]["round"]["boxes"][0]["bet"] == 200
    assert steps[-1]["round"]["phase"] == "settled" and steps[-1]["round"]["boxes"][0]["won"] > 0
    assert [s["stream_version"] for s in steps] == sorted(s["stream_version"] for s in steps)
    # Each step's event is one of the document's typed union, tagged on `type`.
    for step in steps:
        event = msgspec.convert(step["data"], RecordedEventData)
        assert type(event).__name__ == step["event_type"] == step["data"]["type"]
    # The round taking bets now has no steps (its deck is secret); another operator's
    # staff find no such table.
    assert (await api.get("/v1/audit/rounds/t1/2/steps", headers=AUDITOR)).status_code == 404
    assert (await api.get("/v1/audit/rounds/t1/1/steps", headers=OTHER)).status_code == 404
    assert (await api.get("/v1/audit/rounds/t1/1/steps", headers=OPERATOR)).status_code == 200


async def test_a_shared_tables_rounds_are_the_games_to_show(api: httpx.AsyncClient) -> None:
    """Its events name every operator's players: admins and the game's auditors see its
    steps and inclusion; an operator's staff, its own players there or not, do not."""
    await _play_one_round(api)
    admin = bearer("admin", "root")
    deck = list(deck_for([STRAIGHT], DEALER))
    opened = await api.post(
        "/v1/tables", json={"table_id": "lounge", "shared": True, "test_deck": deck}, headers=admin
    )
    assert opened.status_code == 201, opened.text
    for body in (
        {"type": "SitDown"},
        {"type": "PlaceAnte", "box": 1, "ante": 100},
        {"type": "Deal"},
        {"type": "Fold", "box": 1},
    ):
        headers = {**ALICE, "Idempotency-Key": uuid.uuid4().hex}
        answer = await api.post("/v1/tables/lounge/commands", json=body, headers=headers)
        assert answer.is_success, answer.text
    for route in ("steps", "inclusion"):
        path = f"/v1/audit/rounds/lounge/1/{route}"
        assert (await api.get(path, headers=AUDITOR)).status_code == 200
        assert (await api.get(path, headers=admin)).status_code == 200
        assert (await api.get(path, headers=OPERATOR)).status_code == 404
        assert (await api.get(path, headers=OTHER)).status_code == 404


async def test_a_rounds_inclusion_in_a_signed_checkpoint(
    api: httpx.AsyncClient, tmp_path: Path
) -> None:
    await _play_one_round(api)
    path = "/v1/audit/rounds/t1/1/inclusion"
    early = (await api.get(path, headers=AUDITOR)).json()  # no checkpoint covers it yet
    assert early["checkpoint"] is None and early["audit_path"] == []
    assert early["events"][-1]["stream_version"] == early["last_version"]
    assert (await api.get("/v1/audit/rounds/t1/2/inclusion", headers=AUDITOR)).status_code == 404
    pool = api.app.state.services.pool  # type: ignore[attr-defined]
    await below_horizon(pool)
    key = private_key_for(tmp_path / "checkpoint-key.pem", create=False)  # the service's own
    assert await make_checkpoint(ChainStore(pool), key) is not None

    answer = await api.get(path, headers=AUDITOR)
    assert answer.status_code == 200, answer.text
    proof: dict[str, Any] = answer.json()
    served = await api.get("/v1/audit/checkpoints/public-key", headers=OPERATOR)
    public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(served.json()["public_key"]))
    _check(proof, public)

    # The ante edited in its event: the chain no longer reaches the signed leaf.
    ante = next(e for e in proof["events"] if e["event_type"] == "AntePlaced")
    assert '"ante": 100' in ante["data"]
    ante["data"] = ante["data"].replace('"ante": 100', '"ante": 101')
    with pytest.raises(AssertionError, match="does not match its hash"):
        _check(proof, public)


def _check(proof: dict[str, Any], public: Ed25519PublicKey) -> None:
    """The proof's claims, recomputed from its own fields and the public key."""
    events = proof["events"]
    assert events[0]["stream_version"] == proof["first_version"]
    assert events[-1]["stream_version"] >= proof["last_version"]
    previous = bytes.fromhex(events[0]["prev_hash"])
    for e in events:
        assert bytes.fromhex(e["prev_hash"]) == previous, "broken link"
        previous = event_hash(
            previous,
            e["stream_id"],
            e["stream_version"],
            uuid.UUID(e["event_id"]),
            e["event_type"],
            e["schema_version"],
            e["data"],
            e["metadata"],
            int(e["recorded_at_us"]),
        )
        assert previous.hex() == e["hash"], "an event does not match its hash"
    c = proof["checkpoint"]
    leaf = leaf_bytes(events[-1]["stream_id"], events[-1]["stream_version"], previous)
    path = [bytes.fromhex(x) for x in proof["audit_path"]]
    root = root_from_path(leaf, proof["leaf_index"], c["leaf_count"], path)
    assert root.hex() == c["merkle_root"], "the leaf is not in the signed tree"
    digest = checkpoint_digest(
        seq=c["seq"],
        created_at=datetime.fromisoformat(c["created_at"]),
        upto_tx_id=int(c["upto_tx_id"]),
        upto_position=c["upto_position"],
        prev_digest=bytes.fromhex(c["prev_digest"]),
        leaf_count=c["leaf_count"],
        merkle_root=root,
        key_id=c["key_id"],
    )
    assert digest.hex() == c["digest"]
    public.verify(bytes.fromhex(c["signature"]), digest)
