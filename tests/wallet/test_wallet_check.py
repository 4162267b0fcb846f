"""``russian-poker wallet-check``, the operator's conformance kit, run as the operator runs
it: it passes against the reference wallet, and names the scenario each broken variant of
that wallet gets wrong."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from click.testing import CliRunner, Result

from russian_poker.service.tools.conformance.command import wallet_check
from russian_poker.service.tools.conformance.scenarios import SCENARIOS

START = 1_000
CURRENCY = "EUR"


async def _check(wallet: Any, *extra: str) -> tuple[Result, str]:
    """Run the command against ``wallet`` with a fresh funded player; its result and player."""
    player = f"wc-{uuid.uuid4().hex[:10]}"
    await wallet.set_player(player, CURRENCY, START)
    args = [
        "--url", wallet.url,
        "--secret", wallet.secret,
        "--player", player,
        "--currency", CURRENCY,
        "--timeout-ms", "10000",  # a loaded test machine is not a broken wallet
        *extra,
    ]  # fmt: skip
    # The command runs its own event loop (asyncio.run): give it a thread of its own.
    result = await asyncio.to_thread(CliRunner().invoke, wallet_check, args)
    return result, player


def _lines(result: Result) -> list[str]:
    return result.stdout.splitlines()


async def test_the_reference_wallet_passes_every_scenario(reference_wallet: Any) -> None:
    ended = f"ended-{uuid.uuid4().hex}"
    await reference_wallet.end_session(ended)
    result, player = await _check(reference_wallet, "--ended-session", ended, "--amount", "7")
    assert result.exit_code == 0, result.output
    assert _lines(result) == [f"PASS  {name}" for name, _ in SCENARIOS]
    assert await reference_wallet.balance_of(player) == START


async def test_by_default_the_ended_session_is_one_the_operator_never_saw(
    reference_wallet: Any,
) -> None:
    result, _ = await _check(reference_wallet, "--operator-id", "someone", "--timeout-ms", "5000")
    assert result.exit_code == 0, result.output
    assert "PASS  win on an ended session" in _lines(result)


@pytest.mark.parametrize(
    ("broken", "scenario"),
    [
        ("no_idempotency", "bet and repeat"),
        ("ignores_signature", "bad signature refused"),
        ("forgets_rollbacks", "late bet after its rollback refused"),
        ("unsigned_answers", "answers signed"),
        ("no_duplicate_check", "same transaction_id with another payload"),
    ],
)
async def test_each_broken_wallet_fails_the_scenario_it_breaks(
    reference_wallet_factory: Callable[..., Awaitable[Any]], broken: str, scenario: str
) -> None:
    wallet = await reference_wallet_factory(broken=broken)
    result, _ = await _check(wallet)
    assert result.exit_code != 0
    failing = [line for line in _lines(result) if line.startswith("FAIL  ")]
    assert any(line.startswith(f"FAIL  {scenario}: ") for line in failing), result.output


async def test_an_unreachable_wallet_fails_without_a_traceback() -> None:
    args = [
        "--url", "http://127.0.0.1:9/wallet",
        "--secret", "s",
        "--player", "p",
        "--currency", CURRENCY,
        "--timeout-ms", "200",
    ]  # fmt: skip
    result = await asyncio.to_thread(CliRunner().invoke, wallet_check, args)
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    # One failure and its root cause, not the same failure for every scenario.
    first, stopped = _lines(result)
    assert first.startswith("FAIL  balance: ")
    assert stopped.startswith("FAIL  stopped: nothing answers at --url")
    assert f"the other {len(SCENARIOS) - 1} scenarios were not run" in stopped


async def test_a_wrong_secret_is_named_as_the_cause(reference_wallet: Any) -> None:
    result, _ = await _check(reference_wallet, "--secret", "not-the-wallets-secret")
    assert result.exit_code == 1
    first, stopped = _lines(result)
    assert first.startswith("FAIL  balance: ")
    assert "check --secret" in stopped

    result, _ = await _check(reference_wallet, "--currency", "XTS")
    assert result.exit_code == 1
    assert "check --player and --currency" in _lines(result)[-1], result.output


def test_the_amount_and_time_out_are_checked() -> None:
    base = ["--url", "http://x", "--secret", "s", "--player", "p", "--currency", CURRENCY]
    assert CliRunner().invoke(wallet_check, [*base, "--amount", "0"]).exit_code == 2
    assert CliRunner().invoke(wallet_check, [*base, "--timeout-ms", "50"]).exit_code == 2
