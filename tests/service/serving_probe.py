"""Run by tests/service/test_serving_footprint.py in a fresh interpreter: the real app and
its lifespan, a round at a table whose ruleset is not a preset, the RTP report and a few of
its gauges' refreshes; then what this serving process imported and which children it has.

``python -m tests.service.serving_probe DATABASE_URL DATA_DIR`` prints one JSON line.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import sys
from typing import Any

import psutil
from litestar.testing import AsyncTestClient

from russian_poker.service.app import create_app
from tests.api.conftest import bearer, fresh_settings
from tests.api.e2e import Harness, deck_for
from tests.processes import eventually

TOOLS = ("numpy", "scipy", "matplotlib")
WIN = deck_for(["7s 7h 7d Kc 2s"], "8s 8d Ah 4c 6h")


async def probe(database_url: str, data_dir: str) -> dict[str, Any]:
    settings = await fresh_settings(
        database_url, data_dir, clock=False, rate_limit=0, rtp_refresh_s=0.1
    )
    app = create_app(settings)
    async with AsyncTestClient(app=app) as client:
        h = Harness(client, app, "t1")
        await h.fund({"alice": 100_000})
        await h.open("oasis", WIN, ante_max=5_000)
        await h.send("alice", "SitDown")
        await h.send("alice", "PlaceAnte", box=1, ante=100, bonus=100)
        await h.send("alice", "Deal")
        await h.send("alice", "Play", box=1)
        report = await client.get("/v1/audit/rtp", headers=bearer("auditor", "aud"))
        [row] = report.json()["rows"]

        async def published() -> bool:
            metrics = (await client.get("/metrics")).text
            return "russian_poker_rtp_theoretical{" in metrics

        await eventually(published, timeout=30)
        return {
            "imported": [name for name in TOOLS if name in sys.modules],
            "children": [p.pid for p in psutil.Process().children(recursive=True)]
            + [p.pid for p in multiprocessing.active_children()],
            "main": row["main"]["theoretical"],
            "bonus": row["bonus"]["theoretical"],
        }


if __name__ == "__main__":
    print(json.dumps(asyncio.run(probe(sys.argv[1], sys.argv[2]))))
