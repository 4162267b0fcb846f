"""Every route of the application × every role × its own tenant's objects and another's.

The routes come from the running application's route table, not from a list kept by hand:
a route added without an access policy fails here (and the app refuses to start), and a
route this file has no expectation for fails too. Two operators, Acme and Beta, each have a
table with a settled round, a player with a wallet and a launched session, API keys for
their platform and their auditors; their players have also played a round together at a
shared table. Then every route is called by an anonymous client, Acme's player, Acme's
operator key, Acme's auditor key, an admin and the game's own auditor, once on Acme's
objects and once on Beta's:
- anonymous: 401, unless the route is public;
- a role the route is not for: 403, whatever it names;
- another tenant's object (in the path, or the body of a replay): 404, as if it did not
  exist, for every caller bound to Acme;
- its own: through (neither 401, 403 nor 404; the rules may still refuse);
- and nothing of Beta's — table, player, session — in any answer Acme's callers get.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, Final

import httpx
import pytest
from litestar import Litestar, get

from russian_poker.service.app import create_app
from russian_poker.service.app.policy import check_policies, policy_of
from tests.api.conftest import bearer
from tests.api.live_server import serving
from tests.processes import eventually
from tests.rules.scenario import deck_for
from tests.security.conftest import fresh_database, settings_for

PLAYER, OPERATOR, AUDITOR, ADMIN, GAME_AUDITOR = (
    "player",
    "operator",
    "auditor",
    "admin",
    "game auditor",
)
ANYONE: Final = frozenset({"anonymous", PLAYER, OPERATOR, AUDITOR, ADMIN, GAME_AUDITOR})
EVERY_ROLE: Final = ANYONE - {"anonymous"}
UNBOUND: Final = frozenset({ADMIN, GAME_AUDITOR})
RUNS: Final = frozenset({OPERATOR, ADMIN})
READS: Final = frozenset({OPERATOR, AUDITOR, ADMIN, GAME_AUDITOR})
AUDITS: Final = frozenset({AUDITOR, ADMIN, GAME_AUDITOR})

ACCESS: Final[dict[str, frozenset[str]]] = {
    "GET /v1/tables": EVERY_ROLE,
    "POST /v1/tables": RUNS,
    "GET /v1/tables/{table_id}": EVERY_ROLE,
    "GET /v1/tables/{table_id}/stream": EVERY_ROLE,
    "POST /v1/tables/{table_id}/commands": frozenset({PLAYER}),
    "POST /v1/tables/{table_id}/close": RUNS,
    "POST /v1/tables/{table_id}/reopen": RUNS,
    "PUT /v1/tables/{table_id}/ruleset": RUNS,
    "PUT /v1/tables/{table_id}/test-deck": RUNS,
    "GET /v1/tables/{table_id}/rounds/{number}/proof": EVERY_ROLE,
    "POST /v1/wallets": frozenset({OPERATOR}),
    "GET /v1/wallets/{wallet_id}": EVERY_ROLE,
    "GET /v1/wallets/{wallet_id}/ledger": EVERY_ROLE,
    "POST /v1/wallets/{wallet_id}/deposits": frozenset({OPERATOR}),
    "POST /v1/wallets/{wallet_id}/withdrawals": frozenset({OPERATOR}),
    "GET /v1/operators": frozenset({ADMIN}),
    "POST /v1/operators": frozenset({ADMIN}),
    "GET /v1/operators/{operator_id}": READS,
    "PUT /v1/operators/{operator_id}": frozenset({ADMIN}),
    "GET /v1/operators/{operator_id}/transactions": READS,
    "GET /v1/operators/{operator_id}/reports/daily": READS,
    "POST /v1/operators/{operator_id}/credentials": frozenset({ADMIN}),
    "GET /v1/operators/{operator_id}/credentials": frozenset({OPERATOR, ADMIN}),
    "DELETE /v1/operators/{operator_id}/credentials/{key_id}": frozenset({OPERATOR, ADMIN}),
    "POST /v1/sessions": frozenset({OPERATOR}),
    "GET /v1/sessions/{session_id}": frozenset({OPERATOR}),
    "DELETE /v1/sessions/{session_id}": frozenset({OPERATOR}),
    "GET /v1/me": EVERY_ROLE,
    "GET /v1/players/{player_id}/rounds": EVERY_ROLE,
    "GET /v1/reports/rounds": READS,
    "GET /v1/audit/feed": AUDITS,
    "GET /v1/audit/rounds/{table_id}/{number}": AUDITS,
    "GET /v1/audit/rounds/{table_id}/{number}/seed": READS,
    "GET /v1/audit/rounds/{table_id}/{number}/steps": READS,
    "GET /v1/audit/rounds/{table_id}/{number}/inclusion": READS,
    "POST /v1/audit/replay": AUDITS,
    "GET /v1/audit/reconciliation": UNBOUND,
    "GET /v1/audit/availability": READS,
    "GET /v1/audit/rtp": READS,
    "GET /v1/audit/software": AUDITS,
    "GET /v1/audit/checkpoints": UNBOUND,
    "GET /v1/audit/checkpoints/public-key": READS,
    "GET /health/live": ANYONE,
    "GET /health/ready": ANYONE,
    "GET /metrics": ANYONE,
    "GET /problems": ANYONE,
    "GET /problems/{code}": ANYONE,
    "GET /play": ANYONE,
    "GET /play/{table_id}": ANYONE,
    "GET /play/static/{file_path}": ANYONE,
    "GET /office": ANYONE,
    "GET /office/static/{file_path}": ANYONE,
    "GET /schema": ANYONE,
    "GET /schema/swagger": ANYONE,
    "GET /schema/swagger-init.js": ANYONE,
    "GET /schema/openapi.json": ANYONE,
    "GET /schema/{path}": ANYONE,
    "GET /schema/oauth2-redirect.html": ANYONE,
    "GET /schema/assets/{file_path}": ANYONE,
}
"""Who may call each route: this file's own statement of the policy, checked against what
the app does (the app's declaration is checked to exist, not trusted)."""

TENANT_PARAMS: Final = frozenset(
    {"table_id", "operator_id", "wallet_id", "player_id", "session_id", "key_id"}
)
"""Path parameters that name a tenant's object."""
PUBLIC_TABLE_ID: Final = {"/play/{table_id}"}
"""Paths whose ``table_id`` is only read by the browser (the page is the same for all)."""


@dataclass
class Tenant:
    operator_id: str
    table_id: str
    player: str
    """The operator's own id for its player."""
    session_id: str = ""
    spare_session: str = ""
    spare_key: str = ""

    @property
    def game_player(self) -> str:
        return f"{self.operator_id}:{self.player}"


Headers = dict[str, str]


@dataclass
class World:
    acme: Tenant
    beta: Tenant
    callers: dict[str, Headers]


async def _ok(response: httpx.Response, status: int = 200) -> Any:
    assert response.status_code == status, (response.request.url, response.text)
    return response.json()


async def _tenant(
    client: httpx.AsyncClient, admin: Headers, operator_id: str, player: str
) -> tuple[Tenant, Headers, Headers, Headers]:
    """A registered internal operator with its keys, table, funded player and sessions."""
    body = {
        "operator_id": operator_id,
        "name": operator_id.title(),
        "currencies": ["EUR"],
        "wallet": {"mode": "internal"},
    }
    await _ok(await client.post("/v1/operators", json=body, headers=admin), 201)

    async def key(role: str, label: str) -> tuple[str, str]:
        issued = await _ok(
            await client.post(
                f"/v1/operators/{operator_id}/credentials",
                json={"role": role, "label": label},
                headers=admin,
            ),
            201,
        )
        return issued["api_key"], issued["credential"]["key_id"]

    operator = {"Authorization": f"Bearer {(await key('operator', 'platform'))[0]}"}
    auditor = {"Authorization": f"Bearer {(await key('auditor', 'compliance'))[0]}"}
    _, spare_key = await key("operator", "spare")
    deck = deck_for(["As Kd 8h 8c 9s"], "Ac Qc 2d 3h 5s")
    opened = await _ok(
        await client.post(
            "/v1/tables",
            json={"table_id": "t", "preset": "russian", "test_deck": list(deck)},
            headers=operator,
        ),
        201,
    )
    tenant = Tenant(operator_id, opened["table_id"], player, spare_key=spare_key)
    assert tenant.table_id == f"{operator_id}.t"
    await _ok(await client.post("/v1/wallets", json={"wallet_id": player}, headers=operator), 201)
    await _ok(
        await client.post(
            f"/v1/wallets/{player}/deposits",
            json={"transfer_id": "seed", "amount": 100_000},
            headers=operator,
        )
    )

    async def launch() -> tuple[str, str]:
        launched = await _ok(
            await client.post(
                "/v1/sessions", json={"player_id": player, "currency": "EUR"}, headers=operator
            ),
            201,
        )
        return launched["session_id"], launched["session_token"]

    tenant.session_id, token = await launch()
    tenant.spare_session, _ = await launch()
    playing = {"Authorization": f"Bearer {token}"}
    for key_name, command in enumerate(
        [
            {"type": "SitDown"},
            {"type": "PlaceAnte", "box": 1, "ante": 100},
            {"type": "Deal"},
            {"type": "Fold", "box": 1},
        ]
    ):
        await _ok(
            await client.post(
                f"/v1/tables/{tenant.table_id}/commands",
                json=command,
                headers={**playing, "Idempotency-Key": f"world-{key_name}"},
            )
        )
    return tenant, operator, auditor, playing


async def build_world(client: httpx.AsyncClient) -> World:
    admin = bearer("admin", "root")
    acme, acme_operator, acme_auditor, ann = await _tenant(client, admin, "acme", "ann")
    beta, _, _, bea = await _tenant(client, admin, "beta", "bea")
    # Both players in one round at a shared table.
    deck = deck_for(["Qs Qd Qh 5c 7d", "Js Jd Jh 4c 8d"], "9s 9c Ah Kd 2h")
    shared = {"table_id": "lounge", "shared": True, "test_deck": list(deck)}
    await _ok(await client.post("/v1/tables", json=shared, headers=admin), 201)
    steps = [
        (ann, {"type": "SitDown"}),
        (bea, {"type": "SitDown"}),
        (ann, {"type": "PlaceAnte", "box": 1, "ante": 100}),
        (bea, {"type": "PlaceAnte", "box": 2, "ante": 100}),
        (ann, {"type": "Deal"}),
        (bea, {"type": "Deal"}),
        (ann, {"type": "Fold", "box": 1}),
        (bea, {"type": "Fold", "box": 2}),
    ]
    for index, (who, command) in enumerate(steps):
        sent = await client.post(
            "/v1/tables/lounge/commands",
            json=command,
            headers={**who, "Idempotency-Key": f"lounge-{index}"},
        )
        await _ok(sent)

    async def recorded() -> bool:
        paths = [f"/v1/audit/rounds/{t}/1" for t in (acme.table_id, beta.table_id, "lounge")]
        answers = [await client.get(path, headers=admin) for path in paths]
        return all(a.status_code == 200 and a.json()["settled_at"] for a in answers)

    await eventually(recorded, timeout=30, message="the audit projection recorded the rounds")
    callers = {
        "anonymous": {},
        PLAYER: ann,
        OPERATOR: acme_operator,
        AUDITOR: acme_auditor,
        ADMIN: admin,
        GAME_AUDITOR: bearer("auditor", "regulator"),
    }
    return World(acme, beta, callers)


def _values(world: World, target: Tenant, role: str, template: str) -> dict[str, str]:
    """The path parameters naming ``target``'s objects, spelled as ``role`` names them."""
    by_own_id = role in (PLAYER, OPERATOR)
    return {
        "table_id": target.table_id,
        "operator_id": target.operator_id,
        # Operators and players name wallets by the operator's own player id; anyone else,
        # and anyone naming another operator's player, by the game's.
        "wallet_id": target.player if by_own_id and target is world.acme else target.game_player,
        "player_id": target.game_player,
        "session_id": target.spare_session if template.startswith("DELETE") else target.session_id,
        "key_id": target.spare_key,
        "number": "1",
        "code": "not_found",
        "file_path": "js/app.js" if "/play/" in template else "favicon-32x32.png",
        "path": "openapi.json",
    }


def _body(label: str, target: Tenant) -> Any:
    return {
        "POST /v1/tables": {"table_id": "matrix", "preset": "oasis"},
        "POST /v1/tables/{table_id}/commands": {"type": "SitDown"},
        "POST /v1/tables/{table_id}/close": {"reason": "matrix"},
        "POST /v1/tables/{table_id}/reopen": {"reason": "matrix"},
        "PUT /v1/tables/{table_id}/ruleset": {"overrides": {"ante_min": 20}, "reason": "m"},
        "PUT /v1/tables/{table_id}/test-deck": {"cards": ["As", "Kd"]},
        "POST /v1/wallets": {"wallet_id": "matrix"},
        "POST /v1/wallets/{wallet_id}/deposits": {"transfer_id": "matrix", "amount": 1},
        "POST /v1/wallets/{wallet_id}/withdrawals": {"transfer_id": "matrix-w", "amount": 1},
        "POST /v1/operators": {
            "operator_id": "matrix",
            "name": "Matrix",
            "currencies": ["EUR"],
            "wallet": {"mode": "internal"},
        },
        "PUT /v1/operators/{operator_id}": {
            "operator_id": target.operator_id,
            "name": target.operator_id.title(),
            "currencies": ["EUR"],
            "wallet": {"mode": "internal"},
        },
        "POST /v1/operators/{operator_id}/credentials": {"role": "auditor", "label": "matrix"},
        "POST /v1/sessions": {"player_id": "matrix", "currency": "EUR"},
        "POST /v1/audit/replay": {"table_id": target.table_id, "round": 1},
    }.get(label)


BODY_NAMES_TENANT: Final = {"POST /v1/audit/replay"}


def routes(app: Litestar) -> list[tuple[str, str, str]]:
    """(label, method, path template) of every route the app serves, HEAD and OPTIONS aside."""
    found = []
    for route in app.routes:
        template = re.sub(r":[a-z]+}", "}", route.path)
        for handler in route.route_handlers:  # type: ignore[attr-defined]
            methods = sorted(set(handler.http_methods) - {"HEAD", "OPTIONS"})
            if methods:  # not Litestar's own OPTIONS answer
                assert policy_of(handler) is not None, f"{route.path}: no access policy"
            found += [(f"{method} {template}", method, template) for method in methods]
    return found


async def _call(
    client: httpx.AsyncClient, method: str, path: str, body: Any, headers: Headers
) -> tuple[int, str]:
    """Status and text; a live stream only as far as its status line."""
    headers = {**headers, "Idempotency-Key": f"matrix-{method}-{path}"}
    async with client.stream(method, path, json=body, headers=headers) as response:
        if response.headers.get("content-type", "").startswith("text/event-stream"):
            return response.status_code, ""
        await response.aread()
        return response.status_code, response.text


@pytest.fixture
async def served(
    database_url: str, tmp_path: Any
) -> AsyncIterator[tuple[Litestar, httpx.AsyncClient]]:
    await fresh_database(database_url)
    app = create_app(settings_for(database_url, str(tmp_path)))
    async with serving(app) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
        yield app, client


Expectation = Callable[[int], bool]


async def test_every_route_every_role_own_and_other_tenant(
    served: tuple[Litestar, httpx.AsyncClient],
) -> None:
    app, client = served
    world = await build_world(client)
    every = routes(app)
    unknown = sorted({label for label, _, _ in every} - set(ACCESS))
    assert not unknown, f"routes this matrix has no expectation for: {unknown}"
    beta = world.beta
    leaks = ("beta.", "beta:", beta.session_id, beta.spare_session, '"beta"')
    checked = 0
    for (label, method, template), (role, headers), target in itertools.product(
        every, world.callers.items(), (world.acme, beta)
    ):
        allowed = ACCESS[label]
        path = template.format(**_values(world, target, role, label))
        body = _body(label, target)
        status, text = await _call(client, method, path, body, headers)
        sent = path + json.dumps(body)
        where = (label, role, target.operator_id, status, text[:300])
        names = set(re.findall(r"{(\w+)}", template)) & TENANT_PARAMS
        if template in PUBLIC_TABLE_ID:
            names = set()
        scoped = bool(names) or label in BODY_NAMES_TENANT
        if role not in allowed:
            assert status == (401 if role == "anonymous" else 403), where
        elif allowed == ANYONE:
            assert status not in (401, 403), where
        elif target is beta and scoped and role not in UNBOUND:
            assert status == 404, where
        else:
            assert status not in (401, 403, 404), where
        if role in (PLAYER, OPERATOR, AUDITOR) and allowed != ANYONE:
            # Nothing of Beta's but what the caller itself sent (a 404 may echo the id).
            for leak in leaks:
                if leak not in sent:
                    assert leak not in text, (*where, leak)
        checked += 1
    assert checked == len(every) * len(world.callers) * 2
    print(f"policy matrix: {len(every)} routes × {len(world.callers)} callers × 2 tenants")


async def test_a_shared_tables_record_shows_an_operator_its_own_players_part(
    served: tuple[Litestar, httpx.AsyncClient],
) -> None:
    _, client = served
    world = await build_world(client)
    everything = (
        await client.get("/v1/audit/rounds/lounge/1", headers=world.callers[GAME_AUDITOR])
    ).json()
    assert {b["player"] for b in everything["record"]["boxes"]} == {"acme:ann", "beta:bea"}
    mine = (await client.get("/v1/audit/rounds/lounge/1", headers=world.callers[AUDITOR])).json()
    assert [b["player"] for b in mine["record"]["boxes"]] == ["acme:ann"]
    assert list(mine["record"]["wallets"]) == ["acme:ann"]
    assert mine["record"]["totals"] == {"staked": 100, "paid": 0, "house": 100}
    assert "beta" not in str(mine)
    # The feed holds Acme's part: its table and its player's money, at the shared table too.
    feed = (await client.get("/v1/audit/feed?limit=1000", headers=world.callers[AUDITOR])).json()
    streams = {item["stream_id"] for item in feed["items"]}
    assert streams == {"table-acme.t", "wallet-acme:ann"}
    everyone = (
        await client.get("/v1/audit/feed?limit=1000", headers=world.callers[GAME_AUDITOR])
    ).json()
    assert {"table-beta.t", "table-lounge", "wallet-beta:bea"} <= {
        item["stream_id"] for item in everyone["items"]
    }


def test_an_app_with_a_route_without_a_policy_does_not_start() -> None:
    @get("/v1/forgotten", sync_to_thread=False)
    def forgotten() -> str:
        return "open to all"

    with pytest.raises(RuntimeError, match="GET /v1/forgotten"):
        check_policies(Litestar(route_handlers=[forgotten]))
