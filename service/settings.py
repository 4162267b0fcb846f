"""Configuration from environment variables, validated once at start with clear messages."""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

import msgspec

from service.database import data_dir

__all__ = ["ConfigurationError", "Settings", "load_settings"]


class ConfigurationError(ValueError):
    """The environment does not describe a service that can start."""


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    environment: Literal["development", "production"] = "development"
    database_url: str | None = None
    """``DATABASE_URL``; unset means the embedded PostgreSQL in ``data_dir``."""
    data_dir: str = ""
    jwt_secret: str = ""
    jwt_ttl_s: int = 3600
    test_mode: bool = False
    log_level: Literal["debug", "info", "warning", "error"] = "info"
    command_attempts: int = 8


_VARIABLES: dict[str, str] = {
    "RUSSIAN_POKER_ENV": "environment",
    "DATABASE_URL": "database_url",
    "RUSSIAN_POKER_DATA_DIR": "data_dir",
    "RUSSIAN_POKER_JWT_SECRET": "jwt_secret",
    "RUSSIAN_POKER_JWT_TTL_S": "jwt_ttl_s",
    "RUSSIAN_POKER_TEST_MODE": "test_mode",
    "RUSSIAN_POKER_LOG_LEVEL": "log_level",
}


def load_settings(environ: Mapping[str, str] | None = None) -> Settings:
    """Settings from ``environ`` (default ``os.environ``); every problem names its variable."""
    env = os.environ if environ is None else environ
    raw: dict[str, object] = {}
    for variable, field in _VARIABLES.items():
        value = env.get(variable)
        if value is None or value == "":
            continue
        raw[field] = _parse(variable, field, value)
    try:
        settings = msgspec.convert(raw, Settings)
    except msgspec.ValidationError as exc:
        field = str(exc).rsplit("$.", 1)[-1].rstrip("`")
        variable = next((v for v, f in _VARIABLES.items() if f == field), field)
        raise ConfigurationError(f"{variable}: {exc}") from None
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
    directory = settings.data_dir or str(data_dir())
    secret = settings.jwt_secret or _development_secret(Path(directory))
    return msgspec.structs.replace(settings, data_dir=directory, jwt_secret=secret)


def _parse(variable: str, field: str, value: str) -> object:
    if field == "test_mode":
        if value.lower() not in ("1", "0", "true", "false", "yes", "no"):
            raise ConfigurationError(f"{variable}: expected true or false, got {value!r}")
        return value.lower() in ("1", "true", "yes")
    if field == "jwt_ttl_s":
        if not value.isdigit() or not 1 <= int(value) <= 86_400 * 30:
            raise ConfigurationError(f"{variable}: expected seconds 1..2592000, got {value!r}")
        return int(value)
    return value


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
