"""The operator registry: tenants, their currencies and their wallet (docs/wallet-protocol.md §1).

Operators change rarely and are read on every command that moves money, so each instance
keeps them for :data:`FRESH_S` seconds; an update reaches every instance within that time.
The wallet secret is held here and by the seamless adapter only: it is never part of a
view, a log line or an error.
"""

from __future__ import annotations

import ipaddress
import re
import time
from typing import Annotated, Final, Literal, Protocol
from urllib.parse import urlsplit

import msgspec

from russian_poker.service.tenancy import DEFAULT_OPERATOR, OPERATOR_ID
from russian_poker.service.wallet.port import WalletPort
from russian_poker.service.wallet.seamless import SeamlessWallet

__all__ = [
    "FRESH_S",
    "InvalidOperator",
    "Operator",
    "OperatorRegistry",
    "OperatorStore",
    "WalletConfig",
    "check_operator",
]

FRESH_S: Final = 5.0
_CURRENCY: Final = re.compile(r"^[A-Z]{3}$")
WalletMode = Literal["internal", "seamless"]


class WalletConfig(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Where an operator's players' money lives."""

    mode: Annotated[
        WalletMode,
        msgspec.Meta(
            description=(
                "`internal`: wallets at the game, funded by the operator's deposits;"
                " `seamless`: the game calls the operator's wallet for every bet and win."
            )
        ),
    ] = "internal"
    url: Annotated[
        Annotated[str, msgspec.Meta(max_length=2000)] | None,
        msgspec.Meta(description="Seamless: the wallet's base URL; calls go to `{url}/{call}`."),
    ] = None
    secret: Annotated[
        Annotated[str, msgspec.Meta(min_length=16, max_length=512)] | None,
        msgspec.Meta(
            description="Seamless: the HMAC-SHA256 secret both sides sign with. Never shown."
        ),
    ] = None
    timeout_ms: Annotated[
        int,
        msgspec.Meta(ge=100, le=30_000, description="Seamless: time-out of each wallet call."),
    ] = 2000


class Operator(msgspec.Struct, frozen=True, kw_only=True):
    operator_id: str
    name: str
    currencies: tuple[str, ...]
    wallet: WalletConfig


_DEFAULT: Final = Operator(
    operator_id=DEFAULT_OPERATOR,
    name="Default operator",
    currencies=(),
    wallet=WalletConfig(mode="internal"),
)
"""The single-tenant operator: built in, internal wallets, any currency."""


class InvalidOperator(ValueError):
    """A registration the protocol does not allow; the message names the field."""


def check_operator(operator: Operator, *, production: bool) -> None:
    """Refuse what §1 refuses: a bad id, currency or wallet, and plain HTTP in production
    unless to a loopback address (a wallet on the same host or pod)."""
    if not OPERATOR_ID.match(operator.operator_id) or operator.operator_id == DEFAULT_OPERATOR:
        raise InvalidOperator(
            "operator_id: lower-case letters, digits, - and _, at most 64, not 'default'"
        )
    if not operator.name.strip() or len(operator.name) > 200:
        raise InvalidOperator("name: 1..200 characters")
    if not operator.currencies or any(not _CURRENCY.match(c) for c in operator.currencies):
        raise InvalidOperator("currencies: at least one three-letter ISO 4217 code")
    wallet = operator.wallet
    if wallet.mode == "internal":
        if wallet.url or wallet.secret:
            raise InvalidOperator("wallet: an internal wallet has no url or secret")
        return
    if not wallet.url or not wallet.secret:
        raise InvalidOperator("wallet: a seamless wallet needs url and secret")
    parts = urlsplit(wallet.url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InvalidOperator("wallet.url: an http(s) URL")
    if production and parts.scheme == "http" and not _loopback(parts.hostname):
        raise InvalidOperator("wallet.url: https is required in production (http only to loopback)")


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class OperatorStore(Protocol):
    """The operators as stored (``events.postgres.operators``)."""

    async def get(self, operator_id: str) -> Operator | None: ...
    async def upsert(self, operator: Operator) -> bool: ...
    async def all(self) -> list[Operator]: ...


class OperatorRegistry:
    """Operators from the database, kept briefly, and one wallet adapter per operator."""

    def __init__(self, store: OperatorStore) -> None:
        self._store = store
        self._known: dict[str, tuple[Operator | None, float]] = {}
        self._wallets: dict[str, tuple[WalletConfig, SeamlessWallet]] = {}

    async def get(self, operator_id: str) -> Operator | None:
        if operator_id == DEFAULT_OPERATOR:
            return _DEFAULT
        known = self._known.get(operator_id)
        if known is not None and time.monotonic() < known[1]:
            return known[0]
        operator = await self._store.get(operator_id)
        self._known[operator_id] = (operator, time.monotonic() + FRESH_S)
        return operator

    async def register(self, operator: Operator) -> bool:
        """Insert, or replace an existing registration; True when it is new."""
        created = await self._store.upsert(operator)
        self._known.pop(operator.operator_id, None)
        return created

    async def all(self) -> list[Operator]:
        return await self._store.all()

    async def seamless(self, operator_id: str) -> bool:
        operator = await self.get(operator_id)
        return operator is not None and operator.wallet.mode == "seamless"

    async def wallet(self, operator_id: str) -> WalletPort | None:
        """The seamless adapter of the operator (None for an internal wallet); replaced when
        the registration's wallet changes."""
        operator = await self.get(operator_id)
        if operator is None or operator.wallet.mode != "seamless":
            return None
        config = operator.wallet
        held = self._wallets.get(operator_id)
        if held is not None and held[0] == config:
            return held[1]
        assert config.url and config.secret
        adapter = SeamlessWallet(config.url, config.secret, timeout_ms=config.timeout_ms)
        self._wallets[operator_id] = (config, adapter)
        if held is not None:
            await held[1].aclose()
        return adapter

    async def aclose(self) -> None:
        for _, adapter in self._wallets.values():
            await adapter.aclose()
        self._wallets.clear()
