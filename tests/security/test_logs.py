"""The service's own output never carries a seed, a card or a token.

A real ``russian-poker serve`` process logs at debug level while two players play rounds to
settlement, an observer watches, and refusals, forged tokens and probes go by. Everything it
wrote (structlog lines, uvicorn's access log, tracebacks) is then searched for every seed of
the session, every card of the fixed deck and every bearer token that was sent.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import asyncpg
import httpx

from tests.races.instances import instance
from tests.security.conftest import (
    ALICE,
    AUDITOR,
    BOB,
    DEALT_DECK,
    OPERATOR,
    fresh_database,
    make_world,
)


async def test_logs_hold_no_seed_card_or_token(database_url: str, tmp_path: Path) -> None:
    await fresh_database(database_url)
    forged = "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJhbGljZSJ9."
    async with instance(database_url, tmp_path, "logged", log_level="debug") as served:
        async with httpx.AsyncClient(base_url=served.url, timeout=30) as client:
            await make_world(client)
            await client.get("/v1/tables/live", headers=BOB)
            async with client.stream("GET", "/v1/tables/live/stream", headers=BOB) as stream:
                assert stream.status_code == 200
            for key, (who, command) in enumerate(
                [
                    (ALICE, {"type": "Exchange", "box": 1, "cards": ["As", "Ac"]}),
                    (BOB, {"type": "Fold", "box": 1}),
                    (ALICE, {"type": "Exchange", "box": 1, "cards": ["Zz"]}),
                    (ALICE, {"type": "Fold", "box": 1}),
                    (BOB, {"type": "Fold", "box": 2}),
                ]
            ):
                await client.post(
                    "/v1/tables/live/commands",
                    json=command,
                    headers={**who, "Idempotency-Key": f"log-{key}"},
                )
            await client.get("/v1/wallets/alice", headers={"Authorization": forged})
            await client.get("/v1/audit/feed", headers=AUDITOR)
            settled = (await client.get("/v1/tables/live", headers=ALICE)).json()
            assert settled["previous_round"]["seed"] is not None
        seeds = await _round_secrets(database_url)
    text = served.log_text()
    logged = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
    commands = [line for line in logged if line.get("event") == "command"]
    assert commands and "/v1/tables/live" in text, "nothing was logged"
    assert "live" in {line["table_id"] for line in commands}
    for secret in seeds:
        assert secret not in text, "a seed is in the logs"
    cards = [c for c in DEALT_DECK if re.search(rf"[\"'\s\[]{c}[\"'\s\],]", text)]
    assert not cards, f"cards in the logs: {cards}"
    tokens = [h["Authorization"].split()[1] for h in (ALICE, BOB, OPERATOR, AUDITOR)]
    tokens.append(forged.split()[1])
    for token in tokens:
        signature = token.split(".")[2]
        assert token not in text, "a token is logged"
        assert not signature or signature[:16] not in text, "a token's signature is logged"


async def _round_secrets(database_url: str) -> list[str]:
    """Every seed the session drew, in hex and base64."""
    conn = await asyncpg.connect(database_url)
    try:
        rows = await conn.fetch("SELECT data FROM events WHERE event_type = 'RoundOpened'")
    finally:
        await conn.close()
    secrets = []
    for row in rows:
        encoded = json.loads(row["data"])["seed"]
        secrets += [encoded, base64.b64decode(encoded).hex()]
    assert len(secrets) >= 8
    return secrets
