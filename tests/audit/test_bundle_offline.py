"""The whole of an audit lab's day: rounds played by an internal operator's players (the
bots: exchanges, sixth cards, insurance, dealer draws, cancelled bets) and a seamless
operator's (the reference wallet, its own process; client seeds on every bet) on a server
of the test's own, one round abandoned, a signed checkpoint; the bundle written; then **the
database stopped**, and the bundle verified from its files alone with the auditor's copy of
the key. Then copies tampered with, each caught and named: an amount in an event, an event
deleted, two events swapped, a card in a proof, a paytable number, a file whose digest was
recomputed in a manifest nobody could sign again, and a manifest re-signed with another
key."""

from __future__ import annotations

import hashlib
import json
import shutil
import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import httpx
import msgspec
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from russian_poker.events.commands import SYSTEM, Actor, CompleteAbandonedRound, Deal, PlaceAnte
from russian_poker.events.postgres import tables
from russian_poker.events.postgres.bundle import BundleStore
from russian_poker.events.postgres.chain import ChainStore
from russian_poker.service.app import create_app
from russian_poker.service.audit.bundle import files as f
from russian_poker.service.audit.bundle.verify import verify_bundle
from russian_poker.service.audit.bundle.write import write_bundle
from russian_poker.service.bootstrap import (
    bundled_read_models_caught_up,
    command_service,
    transfer_service,
)
from russian_poker.service.chain.checkpoints import make_checkpoint
from russian_poker.service.chain.keys import signing_key
from russian_poker.service.software import installed
from tests.api.conftest import fresh_settings
from tests.api.live_server import serving
from tests.audit.bots import default_plans, fund_players, play_tables
from tests.audit.tampering import resign_bundle
from tests.chain.conftest import below_horizon
from tests.faults.load import Journal, Player
from tests.operators.casino import Casino, staff
from tests.processes import PrivatePostgres, create_database
from tests.wallet.conftest import reference_wallet, reference_wallet_factory
from tests.wallet.reference import ReferenceWallet

__all__ = ["reference_wallet", "reference_wallet_factory"]

SEAMLESS_TABLE = "acme.s1"
START = 1_000_000


@pytest.fixture
async def server(_embedded_server_root: Path) -> AsyncIterator[PrivatePostgres]:
    """A PostgreSQL of this test's own: it is stopped before the bundle is verified."""
    # The root is shared by the run's workers: a name of this test's own.
    own = PrivatePostgres(_embedded_server_root / f"bundle-{uuid.uuid4().hex[:12]}")
    own.setup()
    try:
        yield own
    finally:
        own.teardown()


async def _abandon_a_round(pool: object, table_id: str, player: str) -> None:
    """Bets and a deal at ``table_id``, then everyone gone: the interrupted-round timer."""
    commands = command_service(pool)  # type: ignore[arg-type]
    actor = Actor(role="player", id=player)
    await commands.execute(table_id, PlaceAnte(box=1, ante=100), actor, command_id="left-bet")
    await commands.execute(table_id, Deal(), actor, command_id="left-deal")
    async with pool.acquire() as conn:  # type: ignore[attr-defined]
        state, _ = await tables.load(conn, table_id)
    assert state.round is not None and state.round.phase != "betting"
    abandoned = CompleteAbandonedRound(round=state.round.number, activity=state.round.activity)
    await commands.execute(table_id, abandoned, SYSTEM, command_id="left-abandoned")


async def _play_a_day(client: httpx.AsyncClient, app: object, wallet: ReferenceWallet) -> None:
    casino = Casino(client, app)
    await casino.register("acme", wallet)
    r = await client.post(
        "/v1/tables",
        json={"table_id": "s1", "preset": "russian"},
        headers=staff("operator", "acme"),
    )
    assert r.status_code == 201, r.text
    journal = Journal()
    seamless = []
    for seed, name in enumerate(("ann", "ben")):
        await wallet.set_player(name, "EUR", START)
        launched = await casino.launch("acme", name)
        seamless.append(
            Player(
                launched.game_id,
                SEAMLESS_TABLE,
                [str(client.base_url).rstrip("/")],
                client,
                journal,
                300 + seed,
                headers=launched.headers,
            )
        )
    pool = casino.pool
    plans = default_plans(3)
    await fund_players(transfer_service(pool), plans)
    await play_tables(command_service(pool), pool, plans, 20)
    for bot in seamless:
        await bot.run(4)
    await _abandon_a_round(pool, plans[0].table_id, plans[0].players[0])
    await casino.delivered()


async def test_a_day_bundled_verifies_with_the_database_stopped(
    server: PrivatePostgres, reference_wallet: ReferenceWallet, tmp_path: Path
) -> None:
    url = await create_database(server.server_url, "bundle")
    settings = await fresh_settings(
        url, tmp_path, clock=False, rate_limit=0, wallet_backoff_max_s=0.2
    )
    key = signing_key(settings)  # the one the app signs its checkpoints with
    out = tmp_path / "bundle"
    app = create_app(settings)
    async with serving(app) as base, httpx.AsyncClient(base_url=base, timeout=30) as client:
        await _play_a_day(client, app, reference_wallet)
        pool = app.state.services.pool
        await below_horizon(pool)
        assert await make_checkpoint(ChainStore(pool), key) is not None
        await bundled_read_models_caught_up(url)
        summary = await write_bundle(
            BundleStore(pool), key, out, start=None, end=None, software=installed()
        )
        # Each proof in the bundle is exactly the record the API serves for its round.
        for line in (out / f.PROOFS).read_text().splitlines()[::17]:
            proof = json.loads(line)
            served = await client.get(
                f"/v1/tables/{proof['table_id']}/rounds/{proof['round']}/proof",
                headers=staff("auditor", name="lab"),
            )
            assert served.status_code == 200, served.text
            assert served.json() == proof
    server.stop()  # from here on there is no database to ask
    assert not await server.accepts_connections()

    report = await verify_bundle(out, [key.public_key()])
    assert report.findings == [], report.findings[:5]
    assert report.rounds == summary.rounds >= 60 and report.checkpoints == 1
    assert report.calls > 0 and report.boxes > report.rounds
    events = (out / f.EVENTS).read_text()
    for kind in (
        "CardsExchanged",
        "SixthCardBought",
        "DealerCardReplaced",
        "BoxFolded",
        "RoundAbandoned",
        "seamless-acme:ann",
        "wallet-tp0a",
    ):
        assert kind in events, kind
    proofs = [json.loads(line) for line in (out / f.PROOFS).read_text().splitlines()]
    seeded = [p for p in proofs if any(b["client_seed"] for b in p["boxes"])]
    assert seeded and all(p["table_id"] == SEAMLESS_TABLE for p in seeded)

    await _each_tampering_is_named(out, tmp_path, key)


def _edit(root: Path, name: str, line: int, change: Callable[[bytes], bytes] | bytes) -> None:
    lines = (root / name).read_bytes().splitlines(keepends=True)
    lines[line] = change(lines[line]) if callable(change) else change
    (root / name).write_bytes(b"".join(lines))


def _copy(bundle: Path, tmp_path: Path, name: str) -> Path:
    copy = tmp_path / name
    shutil.copytree(bundle, copy)
    return copy


def _amount_plus_one(line: bytes) -> bytes:
    event = json.loads(line)
    event["data"]["amount"] += 1
    return json.dumps(event).encode() + b"\n"


def _other_card(line: bytes) -> bytes:
    proof = json.loads(line)
    hand = proof["dealt"][0]["cards"]
    hand[0] = next(c for c in ("2c", "3d", "4h", "5s") if c not in hand)
    return msgspec.json.encode(proof) + b"\n"


def _recompute_digests(root: Path) -> None:
    """The manifest's digests brought up to date, its signature left as it was: all one can
    do without the key."""
    manifest = json.loads((root / f.MANIFEST).read_bytes())
    for name in manifest["files"]:
        manifest["files"][name] = hashlib.sha256((root / name).read_bytes()).hexdigest()
    (root / f.MANIFEST).write_bytes(json.dumps(manifest).encode())


async def _each_tampering_is_named(bundle: Path, tmp_path: Path, key: Ed25519PrivateKey) -> None:
    lines = (bundle / f.EVENTS).read_bytes().splitlines(keepends=True)
    debit = next(i for i, line in enumerate(lines) if b'"WalletDebited"' in line)
    debited = json.loads(lines[debit])["stream_id"]
    other = Ed25519PrivateKey.generate()

    def amount(root: Path) -> None:
        _edit(root, f.EVENTS, debit, _amount_plus_one)
        resign_bundle(root, key)

    def deleted(root: Path) -> None:
        _edit(root, f.EVENTS, 5, b"")
        resign_bundle(root, key)

    def swapped(root: Path) -> None:
        _edit(root, f.EVENTS, 5, lines[6])
        _edit(root, f.EVENTS, 6, lines[5])
        resign_bundle(root, key)

    def card(root: Path) -> None:
        _edit(root, f.PROOFS, 0, _other_card)
        resign_bundle(root, key)

    def paytable(root: Path) -> None:
        _edit(root, f.RULESETS, 0, lambda line: line.replace(b'"straight":4', b'"straight":5'))
        resign_bundle(root, key)

    def digest_without_signature(root: Path) -> None:
        _edit(root, f.RULESETS, 0, lambda line: line.replace(b'"straight":4', b'"straight":5'))
        _recompute_digests(root)

    def another_key(root: Path) -> None:
        _edit(root, f.EVENTS, debit, _amount_plus_one)
        resign_bundle(root, other)

    cases: list[tuple[Callable[[Path], None], Callable[[str], bool]]] = [
        (
            amount,
            lambda x: (
                x.startswith(f"events.jsonl line {debit + 1}: stream {debited} ")
                and x.endswith("its content does not match its hash")
            ),
        ),
        (deleted, lambda x: x.startswith("events.jsonl line 6: stream table-")),
        (swapped, lambda x: "goes from version 5 to 7" in x),
        (card, lambda x: x.startswith("proofs.jsonl line 1: round ")),
        (paytable, lambda x: "ruleset differs from the one its event" in x),
        (
            digest_without_signature,
            lambda x: x.startswith("manifest.sig: the manifest is not signed by a trusted key"),
        ),
        (
            another_key,
            lambda x: x.startswith("manifest.sig: the manifest is not signed by a trusted key"),
        ),
    ]
    for tamper, named in cases:
        copy = _copy(bundle, tmp_path, tamper.__name__)
        tamper(copy)
        report = await verify_bundle(copy, [key.public_key()])
        assert report.findings, f"{tamper.__name__} went unseen"
        assert named(report.findings[0]), (tamper.__name__, report.findings[0])
