"""``russian-poker token``: staff tokens on the service's host; player tokens without a
session only outside production."""

from __future__ import annotations

from pathlib import Path

import jwt
from click.testing import CliRunner

from russian_poker.service.app.auth import AUDIENCE, ISSUER, key_id
from russian_poker.service.cli import main

SECRET = "cli-secret-" + "s" * 40


def _environment(tmp_path: Path, **more: str) -> dict[str, str]:
    return {
        "RUSSIAN_POKER_JWT_SECRET": SECRET,
        "RUSSIAN_POKER_DATA_DIR": str(tmp_path),
        **more,
    }


def test_a_token_names_its_key_issuer_and_audience(tmp_path: Path) -> None:
    runner = CliRunner()
    minted = runner.invoke(
        main, ["token", "--player", "alice", "--operator", "acme"], env=_environment(tmp_path)
    )
    assert minted.exit_code == 0, minted.output
    token = minted.output.strip()
    assert jwt.get_unverified_header(token)["kid"] == key_id(SECRET)
    claims = jwt.decode(token, SECRET, algorithms=["HS256"], audience=AUDIENCE, issuer=ISSUER)
    assert (claims["sub"], claims["op"], claims["role"]) == ("acme:alice", "acme", "player")


def test_production_mints_no_player_token_without_a_session(tmp_path: Path) -> None:
    production = _environment(
        tmp_path,
        RUSSIAN_POKER_ENV="production",
        DATABASE_URL="postgresql://db.invalid/poker",
        RUSSIAN_POKER_CHECKPOINT_KEY=str(tmp_path / "key.pem"),
    )
    runner = CliRunner()
    refused = runner.invoke(main, ["token", "--player", "alice"], env=production)
    assert refused.exit_code != 0
    assert "launched session" in refused.output
    staff = runner.invoke(main, ["token", "--role", "admin"], env=production)
    assert staff.exit_code == 0, staff.output


def test_player_ids_are_plain_ascii(tmp_path: Path) -> None:
    runner = CliRunner()
    for bad in ("beta:bob", "аlice", "al ice"):
        refused = runner.invoke(main, ["token", "--player", bad], env=_environment(tmp_path))
        assert refused.exit_code == 2, (bad, refused.output)
