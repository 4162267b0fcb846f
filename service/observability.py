"""Logs and metrics: structlog JSON lines with the request id, and Prometheus metrics.

Log lines carry the request id, table, round and command type — never a card, seed or
token: commands are logged by type, refusals by code.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Final

import msgspec
import structlog
from prometheus_client import Counter, Gauge, Histogram

if TYPE_CHECKING:
    from russian_poker.events.postgres.projections import ProjectionStore

__all__ = [
    "COMMANDS",
    "COMMAND_SECONDS",
    "PROJECTION_LAG",
    "SSE_CONNECTIONS",
    "TABLE_LOADS",
    "WALLET_CALLS",
    "WALLET_MANUAL",
    "WALLET_OWED",
    "configure_logging",
    "observe_command",
    "request_id_of",
    "watch_projection_lag",
]

COMMANDS: Final = Counter("russian_poker_commands_total", "Commands handled", ["type", "outcome"])
COMMAND_SECONDS: Final = Histogram(
    "russian_poker_command_seconds",
    "Command latency, load to commit",
    ["type"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
TABLE_LOADS: Final = Counter(
    "russian_poker_table_loads_total",
    "Commands that loaded their table instead of deciding on this instance's last commit:"
    " not_cached, stale (another instance or a transfer moved it), refusal (confirmed)",
    ["why"],
)
WALLET_CALLS: Final = Counter(
    "russian_poker_wallet_calls_total",
    "Outbox calls to seamless operators' wallets, by kind and the operator's status",
    ["kind", "status"],
)
WALLET_OWED: Final = Gauge(
    "russian_poker_wallet_owed_players",
    "Players with a win or rollback still owed by the outbox",
)
WALLET_MANUAL: Final = Gauge(
    "russian_poker_wallet_manual_calls",
    "Wallet calls given up after the retry period, for manual handling",
)
SSE_CONNECTIONS: Final = Gauge("russian_poker_sse_connections", "Open live-table streams")
PROJECTION_LAG: Final = Gauge(
    "russian_poker_projection_lag_events", "Events a catch-up projection is behind", ["name"]
)

_log = structlog.get_logger("russian_poker.commands")


# Every command writes a line: rendered by msgspec straight to bytes (structlog's own
# advice for speed), anything msgspec cannot encode as its ``str``.
_render: Final = msgspec.json.Encoder(enc_hook=str)


def _json(event: Any, **_: Any) -> bytes:
    return _render.encode(event)


def configure_logging(level: str = "info") -> None:
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.dict_tracebacks,
            structlog.processors.JSONRenderer(serializer=_json),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(
            logging.getLevelNamesMapping()[level.upper()]
        ),
        logger_factory=structlog.BytesLoggerFactory(),
        cache_logger_on_first_use=True,
    )


@contextmanager
def observe_command(kind: str, table_id: str) -> Iterator[dict[str, Any]]:
    """Time a command and log its outcome; the caller fills ``outcome`` (and ``round``)."""
    started = time.perf_counter()
    facts: dict[str, Any] = {"outcome": "error"}
    try:
        yield facts
    finally:
        elapsed = time.perf_counter() - started
        COMMANDS.labels(kind, facts["outcome"]).inc()
        COMMAND_SECONDS.labels(kind).observe(elapsed)
        _log.info(
            "command",
            command=kind,
            table_id=table_id,
            ms=round(elapsed * 1000, 2),
            **facts,
        )


def request_id_of(request: Any) -> str | None:
    """The request id ``service.app.middleware`` gave this request (``None`` outside it).

    Kept in the request's scope state, not the app's ``State`` that Litestar injects as
    ``state``."""
    request_id: str | None = request.scope.get("state", {}).get("request_id")
    return request_id


async def watch_projection_lag(
    store: ProjectionStore, names: list[str], interval_s: float = 5.0
) -> None:
    """Keep ``russian_poker_projection_lag_events`` current: the newest global position
    minus each projection's checkpoint (an upper bound: positions commit out of order)."""
    while True:
        try:
            for name, lag in (await store.lag(names)).items():
                PROJECTION_LAG.labels(name).set(max(lag, 0))
        except Exception as error:
            _log.warning("projection lag check failed", error=str(error))
        await asyncio.sleep(interval_s)
