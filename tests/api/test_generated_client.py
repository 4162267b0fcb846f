"""A client generated from the committed document plays a round: openapi-python-client
(the generator Python integrators use) generates it without a warning, and an operator and
a player drive a real service through it alone, a refusal read as a problem."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.processes import ServiceProcess, service_on_fresh_database, token_headers

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "rp_generated_client"


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    out = tmp_path_factory.mktemp("generated")
    bin_dir = Path(sys.executable).parent
    run = subprocess.run(
        [
            str(bin_dir / "openapi-python-client"),
            "generate",
            "--path",
            str(ROOT / "openapi" / "openapi.json"),
            "--meta",
            "none",
            "--output-path",
            str(out / PACKAGE),
        ],
        # The generator formats its output with ruff, which it looks for on PATH.
        env={**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "warning" not in (run.stdout + run.stderr).lower(), run.stdout + run.stderr
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(out))


@pytest.fixture(scope="module")
async def service(
    server_url: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[ServiceProcess]:
    async with service_on_fresh_database(
        server_url, "generated-client", tmp_path_factory.mktemp("service")
    ) as process:
        yield process


def _api(name: str) -> Any:
    return importlib.import_module(f"{PACKAGE}.{name}")


def _client(generated: ModuleType, service: ServiceProcess, role: str, subject: str) -> Any:
    token = token_headers(role, subject)["Authorization"].removeprefix("Bearer ")
    return generated.AuthenticatedClient(base_url=service.url, token=token)


def test_the_generator_types_every_operation(generated: ModuleType) -> None:
    send = _api("api.tables.send_command")
    models = _api("models")
    # The command body is the union of every player command, each its own model.
    for name in ("SitDown", "PlaceAnte", "Deal", "Play", "Fold", "BuyCard", "Exchange"):
        assert hasattr(models, name), name
    assert "idempotency_key" in send.sync_detailed.__code__.co_varnames


def test_a_round_through_the_generated_client(
    generated: ModuleType, service: ServiceProcess
) -> None:
    models = _api("models")
    create_table = _api("api.tables.create_table")
    open_wallet = _api("api.wallets.open_wallet")
    deposit = _api("api.wallets.deposit_to_wallet")
    get_wallet = _api("api.wallets.get_wallet")
    get_table = _api("api.tables.get_table")
    send = _api("api.tables.send_command")
    operator = _client(generated, service, "operator", "back-office")
    player = _client(generated, service, "player", "gen-alice")

    table = create_table.sync_detailed(
        client=operator,
        body=models.CreateTable(table_id="generated-1", preset=models.CreateTablePreset("russian")),
    )
    assert table.status_code == 201, table.content
    assert table.parsed.table_id == "generated-1"
    opened = open_wallet.sync_detailed(
        client=operator, body=models.CreateWallet(wallet_id="gen-alice", currency="EUR")
    )
    assert opened.status_code == 201, opened.content
    funded = deposit.sync_detailed(
        "gen-alice", client=operator, body=models.Transfer(transfer_id="gen-1", amount=1000)
    )
    assert funded.status_code == 200, funded.content

    sent = 0

    def command(body: Any) -> Any:
        nonlocal sent
        sent += 1
        return send.sync_detailed(
            "generated-1", client=player, body=body, idempotency_key=f"gen-{sent}"
        )

    assert command(models.SitDown(type_="SitDown", seat=1)).status_code == 200
    refused = command(models.PlaceAnte(type_="PlaceAnte", box=1, ante=1))
    assert refused.status_code == 422
    assert isinstance(refused.parsed, models.Problem)
    assert (refused.parsed.status, refused.parsed.type_) == (422, "/problems/ante_out_of_range")
    placed = command(models.PlaceAnte(type_="PlaceAnte", box=1, ante=100))
    assert placed.status_code == 200, placed.content
    dealt = command(models.Deal(type_="Deal"))
    assert dealt.status_code == 200, dealt.content
    folded = command(models.Fold(type_="Fold", box=1))
    assert folded.status_code == 200, folded.content

    # A folded box loses its ante whatever the cards: the round is settled, 100 gone.
    view = get_table.sync_detailed("generated-1", client=player).parsed
    assert view.previous_round.number == 1
    assert view.round_.number == 2  # `round` is a Python builtin: the generator adds _
    wallet = get_wallet.sync_detailed("gen-alice", client=player).parsed
    assert wallet.balance == 900
