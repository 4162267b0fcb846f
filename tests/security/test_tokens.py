"""Bearer tokens that must not get in: expired, forged, unsigned, algorithm-confused,
missing or loosely typed claims, another issuer's, audience's or key's, malformed. Each is a
401 problem that echoes nothing of the token."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
import warnings
from typing import Any, Final

import jwt
from litestar.testing import AsyncTestClient

from russian_poker.service.app import create_app
from russian_poker.service.app.auth import AUDIENCE, ISSUER, key_id
from tests.api.conftest import SECRET, bearer
from tests.security.conftest import fresh_database, settings_for

NOW: Final = int(time.time())
VALID_CLAIMS: Final = {
    "iss": ISSUER,
    "aud": AUDIENCE,
    "sub": "alice",
    "role": "player",
    "iat": NOW,
    "exp": NOW + 3600,
}
KID: Final = key_id(SECRET)
HEADER: Final = {"alg": "HS256", "typ": "JWT", "kid": KID}


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def hand_made(header: dict[str, Any], claims: Any, key: bytes | None = None) -> str:
    """A JWT assembled by hand, signed with HMAC-SHA256 under ``key`` (or not at all)."""
    signing_input = f"{b64(json.dumps(header).encode())}.{b64(json.dumps(claims).encode())}"
    if key is None:
        return signing_input + "."
    signature = hmac.new(key, signing_input.encode(), hashlib.sha256).digest()
    return f"{signing_input}.{b64(signature)}"


def signed(
    claims: dict[str, Any],
    *,
    secret: str = SECRET,
    algorithm: str = "HS256",
    kid: str | None = KID,
) -> str:
    with warnings.catch_warnings():
        # PyJWT warns that the secret is short for HS512: these tokens are meant to fail.
        warnings.simplefilter("ignore")
        headers = {"kid": kid} if kid is not None else None
        return jwt.encode(claims, secret, algorithm=algorithm, headers=headers)


def without(name: str) -> dict[str, Any]:
    return {k: v for k, v in VALID_CLAIMS.items() if k != name}


def tampered() -> str:
    """A valid player token whose payload was changed to say operator, signature kept."""
    header, _, signature = signed(VALID_CLAIMS).split(".")
    payload = b64(json.dumps({**VALID_CLAIMS, "role": "operator"}).encode())
    return f"{header}.{payload}.{signature}"


BAD_TOKENS: Final[dict[str, str]] = {
    "expired": signed({**VALID_CLAIMS, "exp": NOW - 60}),
    "not yet valid": signed({**VALID_CLAIMS, "nbf": NOW + 3600}),
    "wrong secret": signed(VALID_CLAIMS, secret="another-secret-" + "z" * 40),
    "wrong secret, its own kid": signed(
        VALID_CLAIMS, secret="another-secret-" + "z" * 40, kid=key_id("another-secret-" + "z" * 40)
    ),
    "no kid": signed(VALID_CLAIMS, kid=None),
    "unknown kid": signed(VALID_CLAIMS, kid="k000000000000000"),
    "kid not a string": hand_made({**HEADER, "kid": 7}, VALID_CLAIMS, SECRET.encode()),
    "alg none": hand_made({"alg": "none", "typ": "JWT", "kid": KID}, VALID_CLAIMS),
    "alg None": hand_made({"alg": "None", "typ": "JWT", "kid": KID}, VALID_CLAIMS),
    "alg none, signed anyway": hand_made(
        {"alg": "none", "kid": KID}, VALID_CLAIMS, SECRET.encode()
    ),
    "HS512 with the right secret": signed(VALID_CLAIMS, algorithm="HS512"),
    "HS384 with the right secret": signed(VALID_CLAIMS, algorithm="HS384"),
    # Algorithm confusion: the header says RS256 (or ES256) and the signature is an HMAC
    # under the shared secret, as if the secret were the public key.
    "RS256 confused": hand_made({**HEADER, "alg": "RS256"}, VALID_CLAIMS, SECRET.encode()),
    "ES256 confused": hand_made({**HEADER, "alg": "ES256"}, VALID_CLAIMS, SECRET.encode()),
    "tampered payload": tampered(),
    "jku header, wrong key": hand_made(
        {**HEADER, "jku": "http://127.0.0.1:9/keys"}, VALID_CLAIMS, b"attacker"
    ),
    "no exp": signed(without("exp")),
    "no iat": signed(without("iat")),
    "no iss": signed(without("iss")),
    "no aud": signed(without("aud")),
    "another issuer": signed({**VALID_CLAIMS, "iss": "someone-else"}),
    "another audience": signed({**VALID_CLAIMS, "aud": "another-api"}),
    "no sub": signed(without("sub")),
    "no role": signed(without("role")),
    "unknown role": signed({**VALID_CLAIMS, "role": "superuser"}),
    "system role": signed({**VALID_CLAIMS, "role": "system"}),
    "role not a string": signed({**VALID_CLAIMS, "role": ["operator"]}),
    "sub not a string": signed({**VALID_CLAIMS, "sub": 7}),
    "exp not a number": signed({**VALID_CLAIMS, "exp": "tomorrow"}),
    # PyJWT reads a time with int(): a number written as text would pass it.
    "exp a number as text": signed({**VALID_CLAIMS, "exp": str(NOW + 3600)}),
    "iat a number as text": signed({**VALID_CLAIMS, "iat": str(NOW)}),
    "nbf a number as text": signed({**VALID_CLAIMS, "nbf": str(NOW)}),
    "exp a boolean": signed({**VALID_CLAIMS, "exp": True}),
    # A player token names its operator's player only: acme's token for beta's bob.
    "subject of another operator": signed({**VALID_CLAIMS, "sub": "beta:bob", "op": "acme"}),
    "subject of an operator, no op": signed({**VALID_CLAIMS, "sub": "beta:bob"}),
    "subject not an id": signed({**VALID_CLAIMS, "sub": "al ice"}),
    "empty": "",
    "garbage": "not-a-token",
    "three dots": "a.b.c",
    "empty parts": "..",
    "bad base64": "###.###.###",
    "header only": b64(b'{"alg":"HS256"}'),
    # Correctly signed, but the claims are not an object.
    "claims not an object": hand_made(HEADER, ["alice"], SECRET.encode()),
    "very long": "a" * 6000,
}


async def test_bad_tokens_are_401_and_good_ones_work(database_url: str, tmp_path: Any) -> None:
    await fresh_database(database_url)
    app = create_app(settings_for(database_url, str(tmp_path)))
    async with AsyncTestClient(app=app) as client:
        operator = bearer("operator", "op")
        await client.post("/v1/wallets", json={"wallet_id": "alice"}, headers=operator)
        good = await client.get("/v1/wallets/alice", headers=bearer("player", "alice"))
        assert good.status_code == 200
        # The hand-made tokens below fail for what they change, not for how they are made.
        control = hand_made(HEADER, VALID_CLAIMS, SECRET.encode())
        response = await client.get(
            "/v1/wallets/alice", headers={"Authorization": f"Bearer {control}"}
        )
        assert response.status_code == 200
        tried = 0
        for name, token in BAD_TOKENS.items():
            for header in (f"Bearer {token}", f"bearer {token}"):
                response = await client.get("/v1/wallets/alice", headers={"Authorization": header})
                assert response.status_code == 401, (name, response.status_code, response.text)
                assert response.headers["content-type"].startswith("application/problem+json")
                if len(token) > 8:
                    assert token not in response.text, name
                tried += 1
            # The forged operator token must not open operator operations either.
            response = await client.post(
                "/v1/wallets/alice/deposits",
                json={"transfer_id": name, "amount": 100},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert response.status_code == 401, name
        for header in ("Basic YWxpY2U6cGFzcw==", "Bearer", "Bearer ", "Token abc", SECRET):
            response = await client.get("/v1/wallets/alice", headers={"Authorization": header})
            assert response.status_code == 401, header
            tried += 1
        balance = (await client.get("/v1/wallets/alice", headers=operator)).json()["balance"]
        assert balance == 0  # no forged deposit went through
    print(f"tokens: {tried} bad Authorization headers refused")
