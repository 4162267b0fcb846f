"""An operator's wallet secret never leaves the service: not in a view, an error or a log.

A real ``russian-poker serve`` process logs at debug level while an admin registers a
seamless operator (the reference wallet, a process of its own), a session is launched, a
round is played and one bet's answer comes back with a wrong signature (an error path that
logs). Everything the service answered and wrote is then searched for the secret and for
the session's token.
"""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.operators.casino import ADMIN, staff
from tests.races.instances import instance
from tests.rules.scenario import deck_for
from tests.security.conftest import fresh_database
from tests.wallet.conftest import reference_wallet, reference_wallet_factory
from tests.wallet.reference import ReferenceWallet

__all__ = ["reference_wallet", "reference_wallet_factory"]


async def test_the_wallet_secret_is_never_shown_or_logged(
    database_url: str, tmp_path: Path, reference_wallet: ReferenceWallet
) -> None:
    await fresh_database(database_url)
    secret = reference_wallet.secret
    await reference_wallet.set_player("alice", "EUR", 10_000)
    answers: list[str] = []
    async with (
        instance(database_url, tmp_path, "secret", log_level="debug") as served,
        httpx.AsyncClient(base_url=served.url, timeout=30) as client,
    ):

        async def call(method: str, path: str, **kwargs: object) -> httpx.Response:
            response = await client.request(method, path, **kwargs)  # type: ignore[arg-type]
            answers.append(response.text)
            return response

        wallet = {"mode": "seamless", "url": reference_wallet.url, "secret": secret}
        body = {"operator_id": "acme", "name": "Acme", "currencies": ["EUR"], "wallet": wallet}
        assert (await call("POST", "/v1/operators", json=body, headers=ADMIN)).is_success
        # Refused registrations must not echo the secret either.
        bad = {**body, "operator_id": "Not Valid"}
        assert (await call("POST", "/v1/operators", json=bad, headers=ADMIN)).status_code == 422
        short = {**body, "operator_id": "short", "wallet": {**wallet, "secret": "tiny"}}
        assert (await call("POST", "/v1/operators", json=short, headers=ADMIN)).is_client_error
        shown = await call("GET", "/v1/operators/acme", headers=ADMIN)
        assert shown.json()["wallet"]["secret_set"] is True
        await call("GET", "/v1/operators", headers=ADMIN)

        acme = staff("operator", "acme")
        deck = deck_for(["Qs Qd Qh 5c 7d"], "9s 9c Ah Kd 2h")
        table = {"table_id": "t1", "preset": "oasis", "test_deck": list(deck)}
        assert (await call("POST", "/v1/tables", json=table, headers=acme)).is_success
        launched = (
            await call(
                "POST",
                "/v1/sessions",
                json={"player_id": "alice", "currency": "EUR"},
                headers=acme,
            )
        ).json()
        token = launched["session_token"]
        alice = {"Authorization": f"Bearer {token}"}

        async def send(key: str, **command: object) -> httpx.Response:
            return await call(
                "POST",
                "/v1/tables/acme.t1/commands",
                json=command,
                headers={**alice, "Idempotency-Key": key},
            )

        assert (await send("sit", type="SitDown")).is_success
        await reference_wallet.fault("bad_signature", calls=["bet"])
        assert (await send("ante", type="PlaceAnte", box=1, ante=100)).status_code == 503
        assert (await send("ante", type="PlaceAnte", box=1, ante=100)).is_success
        assert (await send("deal", type="Deal")).is_success
        assert (await send("play", type="Play", box=1)).is_success
    logged = served.log_text()
    # The error path ran and said why, without the secret.
    assert '"outcome":"wallet_unavailable"' in logged and "answer refused" in logged
    for text in [logged, *answers]:
        assert secret not in text
    assert token not in logged
