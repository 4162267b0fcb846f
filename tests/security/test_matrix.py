"""Who may call what: a role × operation matrix over every operation of openapi/openapi.json.

Without a token every operation but the health checks is a 401; with a valid token of a role
that may not call it, a 403; with one that may, neither (the rules may still refuse).
"""

from __future__ import annotations

import json
from typing import Any, Final

import httpx

from tests.api.conftest import bearer
from tests.api.test_openapi import COMMITTED
from tests.security.conftest import ALICE, AUDITOR, OPERATOR, Server, make_world

Role = str
PLAYER, OPERATOR_ROLE, AUDITOR_ROLE, ADMIN_ROLE = "player", "operator", "auditor", "admin"
EVERYONE: Final = frozenset({PLAYER, OPERATOR_ROLE, AUDITOR_ROLE, ADMIN_ROLE})
STAFF: Final = frozenset({OPERATOR_ROLE, AUDITOR_ROLE})
RUNS_TABLES: Final = frozenset({OPERATOR_ROLE, ADMIN_ROLE})
"""An admin runs shared tables; whose table it is, is tested in tests/operators."""
PUBLIC: Final = frozenset({"anonymous", *EVERYONE})

ACCESS: Final[dict[str, frozenset[Role]]] = {
    "GET /v1/tables": EVERYONE,
    "POST /v1/tables": RUNS_TABLES,
    "GET /v1/tables/{table_id}": EVERYONE,
    "POST /v1/tables/{table_id}/close": RUNS_TABLES,
    "POST /v1/tables/{table_id}/reopen": RUNS_TABLES,
    "PUT /v1/tables/{table_id}/ruleset": RUNS_TABLES,
    "GET /v1/audit/availability": frozenset({ADMIN_ROLE, AUDITOR_ROLE, OPERATOR_ROLE}),
    "POST /v1/tables/{table_id}/commands": frozenset({PLAYER}),
    "GET /v1/tables/{table_id}/stream": EVERYONE,
    "PUT /v1/tables/{table_id}/test-deck": RUNS_TABLES,
    "POST /v1/wallets": frozenset({OPERATOR_ROLE}),
    "GET /v1/wallets/{wallet_id}": EVERYONE,
    "GET /v1/wallets/{wallet_id}/ledger": EVERYONE,
    "POST /v1/operators": frozenset({ADMIN_ROLE}),
    "GET /v1/operators": frozenset({ADMIN_ROLE}),
    "GET /v1/operators/{operator_id}": frozenset({ADMIN_ROLE, OPERATOR_ROLE, AUDITOR_ROLE}),
    "PUT /v1/operators/{operator_id}": frozenset({ADMIN_ROLE}),
    "POST /v1/sessions": frozenset({OPERATOR_ROLE}),
    "GET /v1/sessions/{session_id}": frozenset({OPERATOR_ROLE}),
    "DELETE /v1/sessions/{session_id}": frozenset({OPERATOR_ROLE}),
    "GET /v1/me": EVERYONE,
    "GET /v1/operators/{operator_id}/transactions": frozenset(
        {ADMIN_ROLE, OPERATOR_ROLE, AUDITOR_ROLE}
    ),
    "GET /v1/operators/{operator_id}/reports/daily": frozenset(
        {ADMIN_ROLE, OPERATOR_ROLE, AUDITOR_ROLE}
    ),
    "POST /v1/wallets/{wallet_id}/deposits": frozenset({OPERATOR_ROLE}),
    "POST /v1/wallets/{wallet_id}/withdrawals": frozenset({OPERATOR_ROLE}),
    "GET /v1/players/{player_id}/rounds": EVERYONE,
    "GET /v1/reports/rounds": STAFF,
    "GET /v1/audit/feed": frozenset({AUDITOR_ROLE}),
    "GET /v1/audit/rounds/{table_id}/{number}": frozenset({AUDITOR_ROLE}),
    "GET /v1/audit/rounds/{table_id}/{number}/seed": STAFF,
    "POST /v1/audit/replay": frozenset({AUDITOR_ROLE}),
    "GET /v1/audit/reconciliation": frozenset({AUDITOR_ROLE}),
    "GET /v1/audit/software": frozenset({AUDITOR_ROLE, ADMIN_ROLE}),
    "GET /v1/audit/rtp": frozenset({OPERATOR_ROLE, AUDITOR_ROLE, ADMIN_ROLE}),
    "GET /v1/audit/checkpoints": frozenset({AUDITOR_ROLE, ADMIN_ROLE}),
    "GET /v1/audit/checkpoints/public-key": frozenset({AUDITOR_ROLE, ADMIN_ROLE}),
    "GET /v1/tables/{table_id}/rounds/{number}/proof": EVERYONE,
    "GET /health/live": PUBLIC,
    "GET /health/ready": PUBLIC,
}
"""Players act on their own things only; that is tested in test_isolation.py."""

PATH_VALUES: Final = {
    "table_id": "live",
    "wallet_id": "alice",
    "player_id": "alice",
    "number": "1",
    "operator_id": "default",
    "session_id": "matrix",
}
BODIES: Final[dict[str, Any]] = {
    "POST /v1/tables": {"table_id": "matrix", "preset": "oasis"},
    "POST /v1/tables/{table_id}/commands": {"type": "SitDown"},
    "PUT /v1/tables/{table_id}/test-deck": {"cards": ["As", "Kd"]},
    "POST /v1/tables/{table_id}/close": {"reason": "matrix"},
    "PUT /v1/tables/{table_id}/ruleset": {"overrides": {"ante_min": 20}, "reason": "matrix"},
    "POST /v1/wallets": {"wallet_id": "matrix"},
    "POST /v1/wallets/{wallet_id}/deposits": {"transfer_id": "matrix", "amount": 100},
    "POST /v1/wallets/{wallet_id}/withdrawals": {"transfer_id": "matrix-w", "amount": 100},
    "POST /v1/audit/replay": {"table_id": "done", "round": 1},
    "POST /v1/operators": {
        "operator_id": "matrix",
        "name": "Matrix",
        "currencies": ["EUR"],
        "wallet": {"mode": "internal"},
    },
    "PUT /v1/operators/{operator_id}": {
        "operator_id": "default",
        "name": "Default",
        "currencies": ["EUR"],
        "wallet": {"mode": "internal"},
    },
    "POST /v1/sessions": {"player_id": "matrix", "currency": "EUR"},
}
CALLERS: Final = {
    "anonymous": {},
    PLAYER: ALICE,
    OPERATOR_ROLE: OPERATOR,
    AUDITOR_ROLE: AUDITOR,
    ADMIN_ROLE: bearer("admin", "root"),
}


def operations() -> list[tuple[str, str, str]]:
    """(label, method, path template) of every documented operation."""
    documented = json.loads(COMMITTED.read_text())["paths"]
    return [
        (f"{method.upper()} {path}", method.upper(), path)
        for path, methods in documented.items()
        for method in methods
    ]


async def status_of(
    client: httpx.AsyncClient, method: str, path: str, body: Any, headers: dict[str, str]
) -> int:
    headers = {**headers, "Idempotency-Key": "matrix"}
    # Only the status line: a live stream that is allowed never ends by itself.
    async with client.stream(method, path, json=body, headers=headers) as response:
        return response.status_code


async def test_every_operation_refuses_the_roles_it_is_not_for(server: Server) -> None:
    await make_world(server.client)
    every = operations()
    unknown = {label for label, _, _ in every} - set(ACCESS)
    assert not unknown, f"new operations need a line in ACCESS: {sorted(unknown)}"
    checked = 0
    for label, method, template in every:
        path = template.format(**PATH_VALUES)
        for role, headers in CALLERS.items():
            status = await status_of(server.client, method, path, BODIES.get(label), headers)
            if role in ACCESS[label]:
                assert status not in (401, 403), (label, role, status)
            elif role == "anonymous":
                assert status == 401, (label, role, status)
            else:
                assert status == 403, (label, role, status)
            checked += 1
    assert checked == len(CALLERS) * len(every)
    print(f"role matrix: {len(every)} operations × {len(CALLERS)} callers = {checked} checks")
