"""/metrics labels requests by route template, so its size does not grow with the number of
tables, wallets or unknown paths."""

from __future__ import annotations

import httpx

from tests.api.conftest import bearer

OPERATOR = bearer("operator", "op")


async def touch(api: httpx.AsyncClient, start: int, stop: int) -> None:
    """The same routes, with the same outcomes, on tables and wallets ``start..stop``."""
    for n in range(start, stop):
        table, wallet, player = f"table-{n:03}", f"wallet-{n:03}", bearer("player", f"p-{n:03}")
        created = await api.post(
            "/v1/tables", json={"table_id": table, "preset": "russian"}, headers=OPERATOR
        )
        assert created.status_code == 201
        assert (await api.get(f"/v1/tables/{table}", headers=player)).status_code == 200
        refused = await api.post(
            f"/v1/tables/{table}/commands", json={"type": "SitDown"}, headers=player
        )
        assert refused.status_code == 428
        missing = await api.get(f"/v1/tables/missing-{n:03}", headers=player)
        assert missing.status_code == 404
        opened = await api.post(
            "/v1/wallets", json={"wallet_id": wallet, "currency": "EUR"}, headers=OPERATOR
        )
        assert opened.status_code == 201
        assert (await api.get(f"/v1/wallets/{wallet}", headers=OPERATOR)).status_code == 200
        assert (await api.get(f"/no/such/route/{n}")).status_code == 404


def series(text: str) -> list[str]:
    return [line for line in text.splitlines() if line and not line.startswith("#")]


async def test_series_do_not_grow_with_tables(api: httpx.AsyncClient) -> None:
    await api.get("/metrics")  # the scrape's own series, before counting
    await touch(api, 0, 3)
    after_3 = series((await api.get("/metrics")).text)
    await touch(api, 3, 30)
    text = (await api.get("/metrics")).text
    after_30 = series(text)
    assert len(after_30) == len(after_3)
    for leaked in ("table-017", "wallet-017", "missing-017", "/no/such/route"):
        assert leaked not in text
    # Requests are counted by route template.
    count = next(
        line
        for line in after_30
        if line.startswith("litestar_requests_total")
        and 'path="/v1/tables/{table_id}"' in line
        and 'status_code="404"' in line
    )
    assert float(count.rsplit(" ", 1)[1]) >= 30
