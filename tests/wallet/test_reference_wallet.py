"""The reference operator wallet, through real HTTP against its real process.

The game's own client (:class:`SeamlessWallet`: it signs the calls and checks the answers'
signatures) plays the game; raw httpx sends what that client never would (no signature, a
stale one, a body that is not a call). Most tests share one wallet process, each with
players and sessions of its own; the broken variants get a process each.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from russian_poker.service.tools.reference_wallet.openapi import WALLET_OPENAPI_PATH, wallet_openapi
from russian_poker.service.wallet.port import UnknownOutcome
from russian_poker.service.wallet.protocol import (
    Answer,
    BalanceCall,
    BetCall,
    RollbackCall,
    WinCall,
)
from russian_poker.service.wallet.seamless import SeamlessWallet
from russian_poker.service.wallet.signing import HEADER, sign, verify
from tests.processes import create_database, drop_database, eventually
from tests.wallet.reference import ReferenceWallet

ROOT = Path(__file__).resolve().parents[2]
OPERATOR = "op-reference"


def _id(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


class Player:
    """One player of the wallet and the calls the game would make for it."""

    def __init__(self, wallet: ReferenceWallet, *, currency: str = "EUR") -> None:
        self.wallet = wallet
        self.player_id = _id("player")
        self.session_id = _id("session")
        self.currency = currency
        self.round_id = f"{_id('table')}:1"

    async def create(self, balance: int, *, blocked: bool = False) -> Player:
        await self.wallet.set_player(self.player_id, self.currency, balance, blocked=blocked)
        return self

    def _common(self, currency: str | None) -> dict[str, Any]:
        return {
            "request_id": uuid.uuid4().hex,
            "operator_id": OPERATOR,
            "player_id": self.player_id,
            "session_id": self.session_id,
            "currency": currency or self.currency,
        }

    def _money(self, transaction_id: str, amount: int, reason: str) -> dict[str, Any]:
        return {
            "transaction_id": transaction_id,
            "amount": amount,
            "round_id": self.round_id,
            "table_id": self.round_id.split(":")[0],
            "box": 0,
            "reason": reason,
        }

    def balance(self, *, currency: str | None = None) -> BalanceCall:
        return BalanceCall(**self._common(currency))

    def bet(self, transaction_id: str, amount: int, *, currency: str | None = None) -> BetCall:
        return BetCall(**self._common(currency), **self._money(transaction_id, amount, "ante"))

    def win(self, transaction_id: str, amount: int, references: tuple[str, ...] = ()) -> WinCall:
        return WinCall(
            **self._common(None),
            **self._money(transaction_id, amount, "win"),
            round_closed=True,
            reference_transaction_ids=references,
        )

    def rollback(self, transaction_id: str, bet: str, amount: int) -> RollbackCall:
        return RollbackCall(
            **self._common(None),
            **self._money(transaction_id, amount, "ante"),
            reference_transaction_id=bet,
        )

    async def balance_now(self) -> int:
        return await self.wallet.balance_of(self.player_id)

    async def exported(self) -> list[dict[str, Any]]:
        return [row for row in await self.wallet.export() if row["player_id"] == self.player_id]


@pytest.fixture(scope="module")
async def shared_wallet(
    server_url: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[ReferenceWallet]:
    url = await create_database(server_url, "refwallet", migrated=False)
    wallet = ReferenceWallet(url, tmp_path_factory.mktemp("reference-wallet"))
    try:
        await wallet.start_ready()
        yield wallet
    finally:
        await wallet.stop()
        wallet.stop_now()
        await drop_database(server_url, url)


@pytest.fixture
async def wallet(shared_wallet: ReferenceWallet) -> AsyncIterator[ReferenceWallet]:
    """The shared wallet, with no fault left over from another test."""
    await shared_wallet.clear_faults()
    yield shared_wallet
    await shared_wallet.clear_faults()


@pytest.fixture
async def game(wallet: ReferenceWallet) -> AsyncIterator[SeamlessWallet]:
    client = SeamlessWallet(wallet.url, wallet.secret, timeout_ms=5000)
    yield client
    await client.aclose()


async def _raw(
    wallet: ReferenceWallet, call: str, body: bytes, signature: str | None
) -> httpx.Response:
    headers = {"content-type": "application/json"}
    if signature is not None:
        headers[HEADER] = signature
    async with httpx.AsyncClient(timeout=10) as client:
        return await client.post(f"{wallet.url}/{call}", content=body, headers=headers)


def _signed_answer(wallet: ReferenceWallet, response: httpx.Response) -> Answer:
    """The answer, after checking it is HTTP 200 and signed with the wallet's secret."""
    assert response.status_code == 200, response.text
    verify(wallet.secret, response.content, response.headers.get(HEADER))
    return msgspec.json.decode(response.content, type=Answer)


# -- the protocol ---------------------------------------------------------------------------


async def test_balance(wallet: ReferenceWallet, game: SeamlessWallet) -> None:
    alice = await Player(wallet).create(1000)
    answer = await game.balance(alice.balance())
    assert (answer.status, answer.balance) == ("ok", 1000)

    stranger = Player(wallet)  # never created
    assert (await game.balance(stranger.balance())).status == "invalid_session"
    assert (await game.balance(alice.balance(currency="USD"))).status == "wrong_currency"


async def test_a_repeated_bet_is_applied_once(
    wallet: ReferenceWallet, game: SeamlessWallet
) -> None:
    alice = await Player(wallet).create(1000)
    first = await game.bet(alice.bet("bet-1" + alice.player_id, 100))
    again = await game.bet(alice.bet("bet-1" + alice.player_id, 100))  # a new request_id

    assert first.status == "ok"
    assert first.balance == 900
    assert first.operator_transaction_id
    assert again == first
    assert await alice.balance_now() == 900
    assert await wallet.deliveries("bet-1" + alice.player_id) == {"bet": 2}
    [row] = await alice.exported()
    assert row["transaction_id"] == "bet-1" + alice.player_id
    assert (row["kind"], row["amount"], row["currency"], row["status"]) == ("bet", 100, "EUR", "ok")
    assert row["operator_transaction_id"] == first.operator_transaction_id


async def test_the_same_id_with_another_payload_is_a_duplicate(
    wallet: ReferenceWallet, game: SeamlessWallet
) -> None:
    alice = await Player(wallet).create(1000)
    bet = _id("bet")
    assert (await game.bet(alice.bet(bet, 100))).status == "ok"

    assert (await game.bet(alice.bet(bet, 150))).status == "duplicate_transaction"
    assert (await game.win(alice.win(bet, 100))).status == "duplicate_transaction"
    assert await alice.balance_now() == 900


async def test_insufficient_funds_shows_the_balance(
    wallet: ReferenceWallet, game: SeamlessWallet
) -> None:
    alice = await Player(wallet).create(50)
    bet = _id("bet")
    answer = await game.bet(alice.bet(bet, 100))
    assert (answer.status, answer.balance) == ("insufficient_funds", 50)
    assert await alice.exported() == []

    # A refusal is not recorded: the same call after a deposit is judged afresh.
    await wallet.set_player(alice.player_id, "EUR", 500)
    assert (await game.bet(alice.bet(bet, 100))).balance == 400


async def test_wrong_currency_and_blocked_players_are_refused(
    wallet: ReferenceWallet, game: SeamlessWallet
) -> None:
    alice = await Player(wallet).create(1000)
    assert (await game.bet(alice.bet(_id("bet"), 100, currency="USD"))).status == "wrong_currency"

    bob = await Player(wallet).create(1000, blocked=True)
    assert (await game.bet(bob.bet(_id("bet"), 100))).status == "player_blocked"
    # Money owed is still paid to a blocked player.
    assert (await game.win(bob.win(_id("win"), 30))).balance == 1030
    assert await alice.balance_now() == 1000


async def test_an_ended_session_refuses_bets_but_not_wins_or_rollbacks(
    wallet: ReferenceWallet, game: SeamlessWallet
) -> None:
    alice = await Player(wallet).create(1000)
    bet = _id("bet")
    assert (await game.bet(alice.bet(bet, 100))).status == "ok"

    await wallet.end_session(alice.session_id)

    assert (await game.bet(alice.bet(_id("bet"), 100))).status == "invalid_session"
    assert (await game.rollback(alice.rollback(_id("rb"), bet, 100))).balance == 1000
    assert (await game.win(alice.win(_id("win"), 0))).status == "ok"
    assert (await game.win(alice.win(_id("win"), 250, (bet,)))).balance == 1250


async def test_wins_credit_once_with_or_without_references(
    wallet: ReferenceWallet, game: SeamlessWallet
) -> None:
    alice = await Player(wallet).create(1000)
    bet = _id("bet")
    await game.bet(alice.bet(bet, 100))
    closing = alice.win(_id("win"), 0)
    assert (await game.win(closing)).balance == 900
    paid = alice.win(_id("win"), 300, (bet,))
    first = await game.win(paid)
    assert first.balance == 1200
    assert await game.win(paid) == first
    assert await alice.balance_now() == 1200


async def test_rollback_of_a_known_bet_refunds_it_once(
    wallet: ReferenceWallet, game: SeamlessWallet
) -> None:
    alice = await Player(wallet).create(1000)
    bet, rollback = _id("bet"), _id("rb")
    await game.bet(alice.bet(bet, 100))

    first = await game.rollback(alice.rollback(rollback, bet, 100))
    again = await game.rollback(alice.rollback(rollback, bet, 100))

    assert (first.status, first.balance) == ("ok", 1000)
    assert again == first
    assert await alice.balance_now() == 1000
    # The bet sent again after its rollback is not applied again.
    assert (await game.bet(alice.bet(bet, 100))).status == "transaction_rolled_back"
    assert await alice.balance_now() == 1000
    statuses = {row["transaction_id"]: row["status"] for row in await alice.exported()}
    assert statuses == {bet: "rolled_back", rollback: "ok"}


async def test_rollback_of_an_unknown_bet_refuses_the_late_bet(
    wallet: ReferenceWallet, game: SeamlessWallet
) -> None:
    alice = await Player(wallet).create(1000)
    bet, rollback = _id("bet"), _id("rb")

    first = await game.rollback(alice.rollback(rollback, bet, 100))
    again = await game.rollback(alice.rollback(rollback, bet, 100))
    late = await game.bet(alice.bet(bet, 100))

    assert first.status == "transaction_not_found"
    assert again == first
    assert late.status == "transaction_rolled_back"
    assert await alice.balance_now() == 1000
    [row] = await alice.exported()
    assert (row["transaction_id"], row["kind"], row["status"]) == (
        rollback,
        "rollback",
        "tombstone",
    )


async def test_unsigned_stale_and_wrongly_signed_calls_are_refused(
    wallet: ReferenceWallet,
) -> None:
    alice = await Player(wallet).create(1000)
    body = msgspec.json.encode(alice.bet(_id("bet"), 100))
    signatures = {
        "missing": None,
        "stale": sign(wallet.secret, body, now=time.time() - 301),
        "wrong key": sign("not-the-secret", body),
        "another body": sign(wallet.secret, body + b" "),
        "malformed": "v1=deadbeef",
    }
    for why, signature in signatures.items():
        answer = _signed_answer(wallet, await _raw(wallet, "bet", body, signature))
        assert answer.status == "invalid_signature", why

    assert await alice.balance_now() == 1000
    assert await alice.exported() == []
    # A body signed well within the window is accepted (290 s: not 299, which a loaded
    # machine's second between signing and checking would push past the 300 s limit).
    fresh = await _raw(wallet, "bet", body, sign(wallet.secret, body, now=time.time() - 290))
    assert _signed_answer(wallet, fresh).status == "ok"


async def test_a_body_that_is_not_the_call_is_a_400(wallet: ReferenceWallet) -> None:
    alice = await Player(wallet).create(1000)
    for body in (
        b"not json",
        b'{"player_id": "x"}',
        msgspec.json.encode(alice.balance()),  # a balance call is not a bet
        msgspec.json.encode(alice.bet(_id("bet"), 0)),
    ):
        response = await _raw(wallet, "bet", body, sign(wallet.secret, body))
        assert response.status_code == 400, body
        assert response.json()["detail"]
    assert await alice.balance_now() == 1000


# -- faults -------------------------------------------------------------------------------


async def test_slow_the_game_times_out_and_the_debit_lands(wallet: ReferenceWallet) -> None:
    alice = await Player(wallet).create(1000)
    await wallet.fault("slow", calls=["bet"], delay_ms=1500)
    impatient = SeamlessWallet(wallet.url, wallet.secret, timeout_ms=200)
    try:
        with pytest.raises(UnknownOutcome, match="no answer within"):
            await impatient.bet(alice.bet(_id("bet"), 100))
    finally:
        await impatient.aclose()

    async def debited() -> bool:
        return await alice.balance_now() == 900

    await eventually(debited, timeout=30, message="the slow bet applied")


async def test_error_500_is_unknown_and_not_applied(
    wallet: ReferenceWallet, game: SeamlessWallet
) -> None:
    alice = await Player(wallet).create(1000)
    bet = _id("bet")
    await wallet.fault("error_500", calls=["bet"])
    with pytest.raises(UnknownOutcome, match="HTTP 500"):
        await game.bet(alice.bet(bet, 100))
    assert await alice.balance_now() == 1000
    assert await wallet.deliveries(bet) == {"bet": 1}
    # times=1: the next call is served again.
    assert (await game.bet(alice.bet(bet, 100))).balance == 900


async def test_drop_after_apply_is_unknown_but_applied(
    wallet: ReferenceWallet, game: SeamlessWallet
) -> None:
    alice = await Player(wallet).create(1000)
    bet = alice.bet(_id("bet"), 100)
    await wallet.fault("drop_after_apply", calls=["bet"])
    with pytest.raises(UnknownOutcome):
        await game.bet(bet)
    assert await alice.balance_now() == 900
    # Sent again, it is answered, and not applied twice.
    assert (await game.bet(bet)).balance == 900
    assert await alice.balance_now() == 900


async def test_a_dropped_answer_is_a_broken_response_to_httpx(wallet: ReferenceWallet) -> None:
    alice = await Player(wallet).create(1000)
    for mode in ("drop_after_apply", "drop_before_apply"):
        await wallet.fault(mode, calls=["bet"])
        body = msgspec.json.encode(alice.bet(_id("bet"), 100))
        with pytest.raises((httpx.RemoteProtocolError, httpx.ReadError)):
            await _raw(wallet, "bet", body, sign(wallet.secret, body))
    assert await alice.balance_now() == 900  # the first applied, the second not


async def test_drop_before_apply_is_unknown_and_not_applied(
    wallet: ReferenceWallet, game: SeamlessWallet
) -> None:
    alice = await Player(wallet).create(1000)
    await wallet.fault("drop_before_apply", calls=["bet"])
    with pytest.raises(UnknownOutcome):
        await game.bet(alice.bet(_id("bet"), 100))
    assert await alice.balance_now() == 1000


async def test_duplicate_delivery_is_applied_once(
    wallet: ReferenceWallet, game: SeamlessWallet
) -> None:
    alice = await Player(wallet).create(1000)
    bet = _id("bet")
    await wallet.fault("duplicate", calls=["bet"])
    answer = await game.bet(alice.bet(bet, 100))
    assert (answer.status, answer.balance) == ("ok", 900)
    assert await alice.balance_now() == 900
    assert await wallet.deliveries(bet) == {"bet": 2}
    assert len(await alice.exported()) == 1


async def test_bad_signature_on_the_answer_is_unknown(
    wallet: ReferenceWallet, game: SeamlessWallet
) -> None:
    alice = await Player(wallet).create(1000)
    await wallet.fault("bad_signature", calls=["bet"])
    with pytest.raises(UnknownOutcome, match="answer refused"):
        await game.bet(alice.bet(_id("bet"), 100))
    assert await alice.balance_now() == 900  # applied: only the answer was wrong


async def test_down_for_a_while_then_up_again(
    wallet: ReferenceWallet, game: SeamlessWallet
) -> None:
    alice = await Player(wallet).create(1000)
    await wallet.fault("down", for_s=1.0)
    with pytest.raises(UnknownOutcome):
        await game.bet(alice.bet(_id("bet"), 100))
    with pytest.raises(UnknownOutcome):
        await game.balance(alice.balance())

    async def up() -> bool:
        try:
            return (await game.balance(alice.balance())).status == "ok"
        except UnknownOutcome:
            return False

    await eventually(up, timeout=30, message="the wallet up again")
    assert await alice.balance_now() == 1000


async def test_a_fault_hits_only_its_calls_and_times(
    wallet: ReferenceWallet, game: SeamlessWallet
) -> None:
    alice = await Player(wallet).create(1000)
    await wallet.fault("error_500", calls=["win"], times=2)
    assert (await game.bet(alice.bet(_id("bet"), 100))).status == "ok"
    for _ in range(2):
        with pytest.raises(UnknownOutcome):
            await game.win(alice.win(_id("win"), 10))
    assert (await game.win(alice.win(_id("win"), 10))).balance == 910

    await wallet.fault("error_500", calls=["balance"], times=0)  # until cleared
    for _ in range(3):
        with pytest.raises(UnknownOutcome):
            await game.balance(alice.balance())
    await wallet.clear_faults()
    assert (await game.balance(alice.balance())).balance == 910


# -- broken variants ----------------------------------------------------------------------

Factory = Callable[..., Awaitable[ReferenceWallet]]


async def _game_and_player(wallet: ReferenceWallet) -> tuple[SeamlessWallet, Player]:
    return SeamlessWallet(wallet.url, wallet.secret), await Player(wallet).create(1000)


async def test_broken_no_idempotency_applies_a_repeat_again(
    reference_wallet_factory: Factory,
) -> None:
    broken = await reference_wallet_factory(broken="no_idempotency")
    game, alice = await _game_and_player(broken)
    bet = alice.bet(_id("bet"), 100)
    await game.bet(bet)
    await game.bet(bet)
    await game.aclose()
    assert await alice.balance_now() == 800


async def test_broken_ignores_signature_applies_unsigned_calls(
    reference_wallet_factory: Factory,
) -> None:
    broken = await reference_wallet_factory(broken="ignores_signature")
    _, alice = await _game_and_player(broken)
    body = msgspec.json.encode(alice.bet(_id("bet"), 100))
    assert _signed_answer(broken, await _raw(broken, "bet", body, None)).status == "ok"
    assert await alice.balance_now() == 900


async def test_broken_forgets_rollbacks_applies_the_late_bet(
    reference_wallet_factory: Factory,
) -> None:
    broken = await reference_wallet_factory(broken="forgets_rollbacks")
    game, alice = await _game_and_player(broken)
    bet = _id("bet")
    assert (await game.rollback(alice.rollback(_id("rb"), bet, 100))).status == (
        "transaction_not_found"
    )
    assert (await game.bet(alice.bet(bet, 100))).status == "ok"
    await game.aclose()
    assert await alice.balance_now() == 900


async def test_broken_unsigned_answers_are_unknown_to_the_game(
    reference_wallet_factory: Factory,
) -> None:
    broken = await reference_wallet_factory(broken="unsigned_answers")
    game, alice = await _game_and_player(broken)
    with pytest.raises(UnknownOutcome, match="missing"):
        await game.balance(alice.balance())
    await game.aclose()
    body = msgspec.json.encode(alice.balance())
    response = await _raw(broken, "balance", body, sign(broken.secret, body))
    assert response.status_code == 200
    assert HEADER not in response.headers


async def test_broken_no_duplicate_check_answers_the_first_answer(
    reference_wallet_factory: Factory,
) -> None:
    broken = await reference_wallet_factory(broken="no_duplicate_check")
    game, alice = await _game_and_player(broken)
    bet = _id("bet")
    first = await game.bet(alice.bet(bet, 100))
    other = await game.bet(alice.bet(bet, 150))
    await game.aclose()
    assert other == first
    assert await alice.balance_now() == 900


async def test_the_function_fixture_gives_a_fresh_wallet(
    reference_wallet: ReferenceWallet,
) -> None:
    assert await reference_wallet.export() == []
    await reference_wallet.set_player("alice", "EUR", 10)
    assert await reference_wallet.player("alice") == {
        "player_id": "alice",
        "currency": "EUR",
        "balance": 10,
        "blocked": False,
    }
    await reference_wallet.kill()
    assert not reference_wallet.running


# -- the OpenAPI document -----------------------------------------------------------------


def test_openapi_wallet_json_is_fresh() -> None:
    on_disk = json.loads((ROOT / WALLET_OPENAPI_PATH).read_text())
    assert on_disk == wallet_openapi(), (
        f"{WALLET_OPENAPI_PATH} is stale: run `russian-poker openapi`"
    )


def test_openapi_documents_the_four_calls_the_notifications_and_every_field() -> None:
    document = wallet_openapi()
    assert sorted(document["paths"]) == [
        "/wallet/balance",
        "/wallet/bet",
        "/wallet/notifications/checkpoint",
        "/wallet/notifications/table-status",
        "/wallet/rollback",
        "/wallet/win",
    ]
    undescribed: list[str] = []

    def walk(node: Any, where: str) -> None:
        if isinstance(node, dict):
            for name, prop in (node.get("properties") or {}).items():
                if "description" not in prop:
                    undescribed.append(f"{where}.properties.{name}")
            for key, value in node.items():
                walk(value, f"{where}.{key}")
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, f"{where}[{index}]")

    walk(document, "$")
    for path, item in document["paths"].items():
        operation = item["post"]
        for parameter in operation.get("parameters", []):
            if not parameter.get("description"):
                undescribed.append(f"{path} parameter {parameter['name']}")
        assert [p["name"] for p in operation["parameters"]] == [HEADER]
        assert operation["requestBody"]["content"]["application/json"]["schema"]["properties"]
        headers = operation["responses"]["200"]["headers"]
        assert headers[HEADER]["description"]
    assert undescribed == []


async def test_the_export_is_per_operator_and_marks_the_kits_calls(
    wallet: ReferenceWallet, game: SeamlessWallet
) -> None:
    alice = await Player(wallet).create(1000)
    played = _id("bet")
    assert (await game.bet(alice.bet(played, 100))).status == "ok"
    kit_bet = msgspec.structs.replace(
        alice.bet(_id("kit-bet"), 50), round_id="wallet-check:1", table_id="wallet-check"
    )
    assert (await game.bet(kit_bet)).status == "ok"

    mine = {row["transaction_id"]: row for row in await wallet.export(OPERATOR)}
    assert (mine[played]["source"], mine[played]["operator_id"]) == ("game", OPERATOR)
    assert mine[kit_bet.transaction_id]["source"] == "conformance"
    assert await wallet.export("another-operator") == []
