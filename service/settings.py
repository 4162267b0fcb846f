"""Configuration from environment variables, validated once at start with clear messages."""

from __future__ import annotations

import ipaddress
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import urlsplit

import msgspec

__all__ = ["ConfigurationError", "Settings", "data_dir", "load_settings"]


# Here rather than in service.database, which loads the database driver: `russian-poker
# token` reads the settings and nothing else.
def data_dir() -> Path:
    """``RUSSIAN_POKER_DATA_DIR``, else ``~/.local/share/russian-poker``."""
    configured = os.environ.get("RUSSIAN_POKER_DATA_DIR")
    if configured:
        return Path(configured).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "russian-poker"


class ConfigurationError(ValueError):
    """The environment does not describe a service that can start."""


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    environment: Literal["development", "production"] = "development"
    database_url: str | None = None
    """``DATABASE_URL``; unset means the embedded PostgreSQL in ``data_dir``."""
    read_database_url: str | None = None
    """A streaming replica of the database: the read-only routes (the lobby, table views,
    wallets and ledgers, history, reports, the audit feed and round records) read there; a
    read that asks for a version the replica has not replayed yet (``min_version``) is
    answered from the primary."""
    pooled_database_url: str | None = None
    """A transaction pooler (PgBouncer, ``pool_mode = transaction``) in front of the same
    database: the command and read pool goes through it; sessions that hold state across
    transactions (``LISTEN``, advisory locks: the projection leaders, a seamless player's
    bets, the outbox, the notifier) and migrations connect to ``DATABASE_URL`` directly."""
    data_dir: str = ""
    jwt_secret: str = ""
    jwt_previous_secrets: tuple[str, ...] = ()
    """Secrets that signed tokens before the current one: still verified while a rotation
    overlaps (until the tokens they signed expire); new tokens are signed with the current."""
    jwt_ttl_s: Annotated[int, msgspec.Meta(ge=1, le=86_400 * 30)] = 3600
    test_mode: bool = False
    log_level: Literal["debug", "info", "warning", "error"] = "info"
    command_attempts: Annotated[int, msgspec.Meta(ge=1, le=100)] = 8
    cached_tables: Annotated[int, msgspec.Meta(ge=0, le=1_000_000)] = 4096
    """Tables whose last committed state this instance keeps to decide on (10–20 KiB each;
    16 wallets per table besides); 0 loads every table for every command."""
    pool_size: Annotated[int, msgspec.Meta(ge=2, le=500)] = 20
    database_wait_s: Annotated[float, msgspec.Meta(ge=0, le=3600)] = 30.0
    """How long start-up waits for the database to accept connections."""
    database_command_timeout_s: Annotated[float, msgspec.Meta(ge=0.1, le=3600)] = 10.0
    """How long one statement on a pooled connection may take before it is abandoned (the
    request answers 503): a server gone silent holds nobody longer than this."""
    rate_limit: Annotated[int, msgspec.Meta(ge=0, le=100_000)] = 50
    """Requests per second per player (or per address without a valid token); 0 is off."""
    stream_keepalive_s: Annotated[float, msgspec.Meta(ge=0.1, le=3600)] = 15.0
    """A live stream silent this long gets a comment line: proxies and load balancers close
    an idle connection (nginx after 60 s by default)."""
    shutdown_grace_s: Annotated[int, msgspec.Meta(ge=0, le=3600)] = 20
    """How long a stopping instance lets in-flight requests finish."""
    projections: bool = True
    """Run the catch-up projections (audit trail); one instance leads each at a time."""
    clock: bool = True
    """Send the rules' time-outs from this instance (every instance may; each goes once)."""
    outbox: bool = True
    """Deliver seamless operators' owed wins and rollbacks from this instance (every instance
    may; each call has one deliverer at a time)."""
    wallet_retry_for_s: Annotated[int, msgspec.Meta(ge=1, le=86_400 * 30)] = 86_400
    """How long an owed win or rollback is sent again before it is flagged for manual
    handling (docs/wallet-protocol.md §3.3: at least 24 hours in production)."""
    wallet_backoff_max_s: Annotated[float, msgspec.Meta(ge=0.01, le=3600)] = 60.0
    """The longest wait between two attempts of an owed call (backoff doubles up to it)."""
    checkpoint_key: str = ""
    """Path of the Ed25519 private key (PEM) that signs the event chain's checkpoints;
    required in production, created once in the data directory in development."""
    checkpoint_every_s: Annotated[float, msgspec.Meta(ge=1, le=86_400)] = 60.0
    """How often the serving instance that leads checkpointing makes one."""
    rtp_refresh_s: Annotated[float, msgspec.Meta(ge=0, le=86_400)] = 60.0
    """How often the serve process refreshes the RTP gauges (``russian_poker_rtp*``) from
    the day's rounds; 0 turns the refresher off."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses (or CIDR networks) of the reverse proxies in front of the service: only
    their ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed (client addresses for the
    rate limit and the logs). None: the peer's own address is the client's."""
    cors_origins: tuple[str, ...] = ()
    """Browser origins (``scheme://host[:port]`` or ``*``) allowed to call the API across
    origins; none means CORS is off, as it should be where the frontend's server proxies."""


_VARIABLES: dict[str, str] = {
    "RUSSIAN_POKER_ENV": "environment",
    "DATABASE_URL": "database_url",
    "RUSSIAN_POKER_POOLED_DATABASE_URL": "pooled_database_url",
    "RUSSIAN_POKER_READ_DATABASE_URL": "read_database_url",
    "RUSSIAN_POKER_DATA_DIR": "data_dir",
    "RUSSIAN_POKER_JWT_SECRET": "jwt_secret",
    "RUSSIAN_POKER_JWT_PREVIOUS_SECRETS": "jwt_previous_secrets",
    "RUSSIAN_POKER_JWT_TTL_S": "jwt_ttl_s",
    "RUSSIAN_POKER_TEST_MODE": "test_mode",
    "RUSSIAN_POKER_LOG_LEVEL": "log_level",
    "RUSSIAN_POKER_POOL_SIZE": "pool_size",
    "RUSSIAN_POKER_DATABASE_WAIT_S": "database_wait_s",
    "RUSSIAN_POKER_DATABASE_COMMAND_TIMEOUT_S": "database_command_timeout_s",
    "RUSSIAN_POKER_CLOCK": "clock",
    "RUSSIAN_POKER_PROJECTIONS": "projections",
    "RUSSIAN_POKER_RATE_LIMIT": "rate_limit",
    "RUSSIAN_POKER_SHUTDOWN_GRACE_S": "shutdown_grace_s",
    "RUSSIAN_POKER_STREAM_KEEPALIVE_S": "stream_keepalive_s",
    "RUSSIAN_POKER_COMMAND_ATTEMPTS": "command_attempts",
    "RUSSIAN_POKER_CACHED_TABLES": "cached_tables",
    "RUSSIAN_POKER_CORS_ORIGINS": "cors_origins",
    "RUSSIAN_POKER_TRUSTED_PROXIES": "trusted_proxies",
    "RUSSIAN_POKER_OUTBOX": "outbox",
    "RUSSIAN_POKER_WALLET_RETRY_FOR_S": "wallet_retry_for_s",
    "RUSSIAN_POKER_WALLET_BACKOFF_MAX_S": "wallet_backoff_max_s",
    "RUSSIAN_POKER_RTP_REFRESH_S": "rtp_refresh_s",
    "RUSSIAN_POKER_CHECKPOINT_KEY": "checkpoint_key",
    "RUSSIAN_POKER_CHECKPOINT_EVERY_S": "checkpoint_every_s",
}


def load_settings(environ: Mapping[str, str] | None = None) -> Settings:
    """Settings from ``environ`` (default ``os.environ``); every problem names its variable."""
    env = os.environ if environ is None else environ
    raw: dict[str, object] = {}
    for variable, field in _VARIABLES.items():
        value = env.get(variable)
        if value is None or value == "":
            continue
        raw[field] = value
    for listed in ("jwt_previous_secrets", "trusted_proxies"):
        if listed in raw:
            raw[listed] = [part.strip() for part in str(raw[listed]).split(",") if part.strip()]
    if "cors_origins" in raw:
        raw["cors_origins"] = _origins(str(raw["cors_origins"]))
    try:
        # Not strict: environment values are text ("30", "true") for int and bool fields.
        settings = msgspec.convert(raw, Settings, strict=False)
    except msgspec.ValidationError as exc:
        field = str(exc).rsplit("$.", 1)[-1].rstrip("`")
        variable = next((v for v, f in _VARIABLES.items() if f == field), field)
        raise ConfigurationError(f"{variable}: {exc}") from None
    for proxy in settings.trusted_proxies:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise ConfigurationError(
                f"RUSSIAN_POKER_TRUSTED_PROXIES: {proxy!r} is not an IP address or network"
                " (e.g. 10.0.0.5 or 10.0.0.0/24)"
            ) from None
    if settings.environment == "production":
        if settings.test_mode:
            raise ConfigurationError(
                "RUSSIAN_POKER_TEST_MODE: test mode (fixed decks) is refused in production"
            )
        if len(settings.jwt_secret) < 32:
            raise ConfigurationError(
                "RUSSIAN_POKER_JWT_SECRET: production needs a secret of at least 32 characters"
            )
        if not settings.database_url:
            raise ConfigurationError("DATABASE_URL: production needs an explicit database")
        if settings.wallet_retry_for_s < 86_400:
            raise ConfigurationError(
                "RUSSIAN_POKER_WALLET_RETRY_FOR_S: production retries owed calls at least 24 h"
            )
        if not settings.checkpoint_key:
            raise ConfigurationError(
                "RUSSIAN_POKER_CHECKPOINT_KEY: production needs the path of the Ed25519 key"
                " that signs the event chain's checkpoints (kept outside the database)"
            )
    directory = settings.data_dir or str(data_dir())
    secret = settings.jwt_secret or _development_secret(Path(directory))
    # Development's key is created on first use (service.chain.keys), beside pgdata.
    key = settings.checkpoint_key or str(Path(directory) / "checkpoint-key.pem")
    return msgspec.structs.replace(
        settings, data_dir=directory, jwt_secret=secret, checkpoint_key=key
    )


def _origins(value: str) -> list[str]:
    """A comma-separated list of origins: each exactly what a browser sends in ``Origin``
    (no path, no trailing slash, no user), since CORS compares them as strings."""
    origins = [origin.strip() for origin in value.split(",") if origin.strip()]
    for origin in origins:
        if origin == "*":
            continue
        parts = urlsplit(origin)
        try:
            parts.port  # noqa: B018  (raises on a port that is not a number)
        except ValueError:
            parts = parts._replace(netloc="")
        if (
            parts.scheme not in ("http", "https")
            or not parts.hostname
            or "@" in parts.netloc
            or f"{parts.scheme}://{parts.netloc}" != origin
        ):
            raise ConfigurationError(
                f"RUSSIAN_POKER_CORS_ORIGINS: {origin!r} is not an origin"
                " (scheme://host[:port], e.g. https://casino.example, or *)"
            )
    return origins


def _development_secret(directory: Path) -> str:
    """A secret created once in the data directory, so ``token`` and ``serve`` agree."""
    path = directory / "jwt-secret"
    if path.exists():
        return path.read_text().strip()
    directory.mkdir(parents=True, exist_ok=True)
    secret = secrets.token_urlsafe(48)
    path.write_text(secret)
    path.chmod(0o600)
    return secret
