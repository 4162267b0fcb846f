"""The operator is told when its table is closed (disabled) or reopened: a notification
queued with the event, signed as in the wallet protocol, delivered to the reference wallet
(a real process) at ``{url}/notifications/table-status``, sent again while the wallet fails
or is down, and recorded there once."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

import httpx

from russian_poker.service.availability.notices import NOTICE_PATH
from russian_poker.service.wallet.signing import HEADER, sign
from tests.operators.casino import ADMIN, Casino, staff
from tests.processes import eventually
from tests.rules.scenario import deck_for
from tests.wallet.reference import ReferenceWallet

DECK = list(deck_for(["5h 6c 7d 8s 9h"], "Ah Kc 9d 7s 4c"))
ACME = staff("operator", "acme", name="floor-manager")


async def recorded(wallet: ReferenceWallet) -> list[dict[str, Any]]:
    """The notifications the wallet recorded, oldest first."""
    async with httpx.AsyncClient(base_url=wallet.base, timeout=10) as client:
        r = await client.get("/_admin/notifications")
    assert r.status_code == 200, r.text
    return [row["notice"] for row in r.json()]


async def owed(casino: Casino, table_id: str) -> list[dict[str, Any]]:
    """The game's notifications of the table, oldest first."""
    rows = await casino.pool.fetch(
        "SELECT * FROM table_notifications WHERE table_id = $1 ORDER BY occurred_at", table_id
    )
    return [dict(r) for r in rows]


async def arrived(wallet: ReferenceWallet, count: int) -> list[dict[str, Any]]:
    async def enough() -> bool:
        return len(await recorded(wallet)) >= count

    await eventually(enough, timeout=30, message=f"{count} notifications at the wallet")
    return await recorded(wallet)


async def close(casino: Casino, table_id: str, reason: str) -> None:
    r = await casino.client.post(
        f"/v1/tables/{table_id}/close", json={"reason": reason}, headers=ACME
    )
    assert r.status_code == 200, r.text


async def reopen(casino: Casino, table_id: str, reason: str | None = None) -> None:
    body = {"reason": reason} if reason else None
    r = await casino.client.post(f"/v1/tables/{table_id}/reopen", json=body, headers=ACME)
    assert r.status_code == 200, r.text


async def test_a_closing_arrives_signed_at_the_operator_and_is_recorded_once(
    casino: Casino, reference_wallet: ReferenceWallet
) -> None:
    await casino.register("acme", reference_wallet)
    await casino.register("house")  # an internal wallet: nowhere to be called
    await casino.open_table("acme.acme-1", "russian", DECK, operator_id="acme")
    await casino.open_table("house.house-1", "russian", DECK, operator_id="house")

    await close(casino, "acme.acme-1", "dealer shuffler maintenance")
    (notice,) = await arrived(reference_wallet, 1)
    assert notice["operator_id"] == "acme" and notice["table_id"] == "acme.acme-1"
    assert notice["status"] == "closed"
    assert notice["reason"] == "dealer shuffler maintenance"
    assert notice["actor"] == {"role": "operator", "id": "floor-manager"}
    assert datetime.fromisoformat(notice["time"]).tzinfo is not None
    (row,) = await owed(casino, "acme.acme-1")
    assert row["notification_id"] == notice["notification_id"]
    assert (row["state"], row["attempts"], row["http_status"]) == ("delivered", 1, 200)

    # Reopened by an admin: the operator hears of that too, in order.
    r = await casino.client.post(
        "/v1/tables/acme.acme-1/reopen", json={"reason": "fixed"}, headers=ADMIN
    )
    assert r.status_code == 200, r.text
    first, second = await arrived(reference_wallet, 2)
    assert first == notice
    assert (second["status"], second["reason"], second["actor"]["role"]) == (
        "open",
        "fixed",
        "admin",
    )

    # The internal operator's table queued nothing.
    r = await casino.client.post(
        "/v1/tables/house.house-1/close",
        json={"reason": "closing time"},
        headers=staff("operator", "house"),
    )
    assert r.status_code == 200, r.text
    assert await owed(casino, "house.house-1") == []

    # The wallet verifies the signature: a forged one is refused and not recorded; the
    # game's exact bytes sent again are answered 200 and recorded no second time.
    body = dict(notice, notification_id=str(uuid.uuid4()), request_id="forged")
    raw = httpx.Request("POST", "/", json=body).content
    url = f"{reference_wallet.url}/{NOTICE_PATH}"
    async with httpx.AsyncClient(timeout=10) as client:
        forged = await client.post(
            url, content=raw, headers={HEADER: sign("not-the-secret", raw), **_json()}
        )
        assert forged.status_code == 401 and forged.json()["status"] == "invalid_signature"
        unsigned = await client.post(url, content=raw, headers=_json())
        assert unsigned.status_code == 401
        again = dict(notice, request_id="a-second-attempt")
        raw = httpx.Request("POST", "/", json=again).content
        repeat = await client.post(
            url, content=raw, headers={HEADER: sign(reference_wallet.secret, raw), **_json()}
        )
        assert repeat.status_code == 200 and repeat.json()["duplicate"] is True
    assert len(await recorded(reference_wallet)) == 2


async def test_a_notification_is_sent_again_until_the_operator_takes_it(
    casino: Casino, reference_wallet: ReferenceWallet
) -> None:
    await casino.register("acme", reference_wallet)
    await casino.open_table("acme.acme-2", "russian", DECK, operator_id="acme")

    # Two answers of 500, then the wallet takes it: three attempts, recorded once.
    await reference_wallet.fault("error_500", calls=["table_status"], times=2)
    await close(casino, "acme.acme-2", "suspected fault")
    (notice,) = await arrived(reference_wallet, 1)

    async def acknowledged() -> bool:
        rows = await owed(casino, "acme.acme-2")
        return bool(rows) and rows[-1]["state"] == "delivered"

    await eventually(acknowledged, timeout=30, message="the closing acknowledged")
    (row,) = await owed(casino, "acme.acme-2")
    assert row["attempts"] == 3 and row["notification_id"] == notice["notification_id"]

    # The connection broken off for a while ("down"): sent until it is back.
    await reference_wallet.fault("down", calls=["table_status"], for_s=1.5)
    await reopen(casino, "acme.acme-2", "all clear")
    await arrived(reference_wallet, 2)
    await eventually(acknowledged, timeout=30, message="the reopening acknowledged")
    rows = await owed(casino, "acme.acme-2")
    assert rows[-1]["attempts"] >= 2

    # The wallet's process gone altogether: the game keeps the notification and sends it
    # once the wallet is back; still recorded exactly once.
    await reference_wallet.stop()
    await close(casino, "acme.acme-2", "second look")

    async def tried_twice() -> bool:
        rows = await owed(casino, "acme.acme-2")
        return rows[-1]["state"] == "queued" and rows[-1]["attempts"] >= 2

    await eventually(tried_twice, timeout=30, message="attempts while the wallet is down")
    await reference_wallet.start_ready()
    notices = await arrived(reference_wallet, 3)
    await eventually(acknowledged, timeout=30, message="the last closing acknowledged")
    assert [n["status"] for n in notices] == ["closed", "open", "closed"]
    assert len({n["notification_id"] for n in notices}) == 3
    rows = await owed(casino, "acme.acme-2")
    assert [r["state"] for r in rows] == ["delivered"] * 3


def _json() -> dict[str, str]:
    return {"content-type": "application/json"}


async def test_a_shared_table_notifies_every_operator_with_a_wallet(
    casino: Casino, reference_wallet: ReferenceWallet
) -> None:
    await casino.register("acme", reference_wallet)
    await casino.register("beta", reference_wallet)
    await casino.register("house")  # internal: not called
    await casino.open_table("shared-1", "russian", DECK)  # opened by the admin, shared
    r = await casino.client.post(
        "/v1/tables/shared-1/close", json={"reason": "end of the tournament"}, headers=ADMIN
    )
    assert r.status_code == 200, r.text
    notices = await arrived(reference_wallet, 2)
    assert sorted(n["operator_id"] for n in notices) == ["acme", "beta"]
    assert {(n["table_id"], n["status"], n["actor"]["role"]) for n in notices} == {
        ("shared-1", "closed", "admin")
    }
    # One event, one id: each operator deduplicates its own copy by it.
    assert len({n["notification_id"] for n in notices}) == 1
