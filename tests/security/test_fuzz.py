"""Schemathesis against the real service and PostgreSQL: every operation, as every role.

The schema is the one the running service serves (the same as openapi/openapi.json, which
tests/api/test_openapi.py keeps fresh). Every operation is fuzzed with data that fits the
schema and with data that does not, as a player, an operator, an auditor and with no token.
Path parameters are drawn half the time from resources that ``make_world`` created (a table
mid-round, funded wallets), and player commands half the time from a vocabulary of
well-formed commands with edge values, so fuzzed requests reach the rules, not just 404s.

Checks on every response: no 5xx, the status is documented, the content type is documented
and the body matches the documented schema. The spec declares no links, so there is no
stateful phase; the world is stateful instead: fuzzed commands move the rounds that every
later case reads.

The service runs as its own process (``russian-poker serve``), so generating cases and
answering them use both cores.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import httpx
import hypothesis
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.result import Ok
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.api.test_openapi import COMMITTED
from tests.races.instances import instance
from tests.security.conftest import ALICE, AUDITOR, BOB, OPERATOR, fresh_database, make_world

CHECKS: Final = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
CALLERS: Final[dict[str, list[dict[str, str]]]] = {
    "player": [ALICE, BOB],
    "operator": [OPERATOR],
    "auditor": [AUDITOR],
    "anonymous": [{}],
}
EXAMPLES: Final = {"player": 15, "operator": 12, "auditor": 6, "anonymous": 4}
"""Per operation and generation mode. Auditors and anonymous callers are refused early on
most operations, so fewer examples reach as much of the code."""
VOCABULARY_EXAMPLES: Final = 60
"""Extra player commands drawn from ``COMMANDS``, which reach the rules."""
KNOWN: Final = {
    "table_id": ["live", "betting", "done"],
    "wallet_id": ["alice", "bob", "carol"],
    "player_id": ["alice", "bob"],
    "number": ["1", "2"],
}
COMMAND: Final = "POST /v1/tables/{table_id}/commands"
STREAM: Final = "GET /v1/tables/{table_id}/stream"
CARDS: Final = ["As", "Kd", "8h", "2c", "5s", "Ac", "Zz", "", "10h", "as"]
EDGE_AMOUNTS: Final = st.sampled_from([0, -1, 1, 99, 100, 1_000, 10_000, 10**6, 2**31, 2**63])
BOX: Final = st.integers(-1, 6)
COMMANDS: Final = st.one_of(
    st.fixed_dictionaries(
        {"type": st.sampled_from(["SitDown", "LeaveTable", "RepeatBets", "Deal", "CancelBets"])}
    ),
    st.fixed_dictionaries({"type": st.just("SitDown"), "seat": st.integers(-1, 9)}),
    st.fixed_dictionaries(
        {
            "type": st.sampled_from(
                ["BuyCard", "Play", "Fold", "RequestDealerExchange", "DeclineDealerExchange"]
            ),
            "box": BOX,
        }
    ),
    st.fixed_dictionaries(
        {"type": st.just("PlaceAnte"), "box": BOX, "ante": EDGE_AMOUNTS},
        optional={"bonus": EDGE_AMOUNTS, "dark": st.booleans()},
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("Exchange"),
            "box": BOX,
            "cards": st.lists(st.sampled_from(CARDS), max_size=6),
        }
    ),
    st.fixed_dictionaries({"type": st.just("Insure"), "box": BOX, "amount": EDGE_AMOUNTS}),
)
"""Well-formed player commands with edge values: what a real client, or a cheat, sends."""


@dataclass
class Tally:
    cases: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    operations: set[str] = field(default_factory=set)
    roles: set[str] = field(default_factory=set)
    runs: Counter[str] = field(default_factory=Counter)
    reached_rules: int = 0
    """Command responses that carry a rules' refusal code or are accepted."""


def _negatable(operation: Any) -> bool:
    """Whether any part of the request can break the schema (a path of plain strings can't)."""
    plain = {"type": "string"}
    # Descriptions and examples annotate a schema; they constrain nothing a request could break.
    annotations = {"description", "title", "examples", "example"}
    typed_path = any(
        {k: v for k, v in p.definition["schema"].items() if k not in annotations} != plain
        for p in operation.path_parameters
    )
    parts = (operation.query, operation.headers, operation.body)
    return typed_path or any(list(part) for part in parts)


def _strategy(operation: Any, mode: GenerationMode) -> st.SearchStrategy[Any]:
    generated = operation.as_strategy(generation_mode=mode)
    names = sorted(p.name for p in operation.path_parameters)
    if not names:
        return generated  # type: ignore[no-any-return]
    known = st.fixed_dictionaries({n: st.sampled_from(KNOWN.get(n, ["1"])) for n in names})
    return st.one_of(
        generated,
        known.flatmap(lambda p: operation.as_strategy(generation_mode=mode, path_parameters=p)),
    )


def _vocabulary(operation: Any) -> st.SearchStrategy[Any]:
    """Well-formed commands with edge values on the world's tables: straight to the rules."""
    drawn = st.tuples(st.sampled_from(KNOWN["table_id"]), COMMANDS, st.uuids())
    return drawn.flatmap(
        lambda t: operation.as_strategy(
            path_parameters={"table_id": t[0]},
            body=t[1],
            headers={"Idempotency-Key": str(t[2])},
        )
    )


def _fuzz_one(
    base_url: str,
    operation: Any,
    cases: st.SearchStrategy[Any],
    callers: list[dict[str, str]],
    examples: int,
    tally: Tally,
) -> None:
    session = requests.Session()

    @hypothesis.settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=True,
        phases=[Phase.explicit, Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=cases, caller=st.sampled_from(callers))
    def run(case: Any, caller: dict[str, str]) -> None:
        # A live stream that has nothing new to say waits: read what it sent within 1 s.
        timeout = 1 if operation.label == STREAM else 10
        response = case.call(base_url=base_url, session=session, headers=caller, timeout=timeout)
        tally.cases += 1
        tally.statuses[response.status_code] += 1
        if operation.label == COMMAND:
            body = json.loads(response.content) if response.content else {}
            tally.reached_rules += response.status_code == 200 or "code" in body
        case.validate_response(response, checks=CHECKS, headers=caller)

    try:
        run()
    finally:
        session.close()


def _fuzz(base_url: str, tally: Tally) -> list[str]:
    """Every operation × role × mode; the failures, each as Hypothesis shrank it."""
    schema = schemathesis.openapi.from_url(f"{base_url}/schema/openapi.json")
    # The live stream never ends by itself: read its first state and stop.
    schema.config.max_stream_events = 1
    operations = []
    for result in schema.get_all_operations():
        assert isinstance(result, Ok), result  # the schema itself is valid
        operations.append(result.ok())
    failures = []
    for role, callers in CALLERS.items():
        for operation in operations:
            runs = [("positive", _strategy(operation, GenerationMode.POSITIVE), EXAMPLES[role])]
            if _negatable(operation):
                negative = _strategy(operation, GenerationMode.NEGATIVE)
                runs.append(("negative", negative, EXAMPLES[role]))
            if operation.label == COMMAND and role == "player":
                runs.append(("vocabulary", _vocabulary(operation), VOCABULARY_EXAMPLES))
            for kind, cases, examples in runs:
                try:
                    _fuzz_one(base_url, operation, cases, callers, examples, tally)
                except (Exception, BaseExceptionGroup) as failure:
                    failures.append(f"{operation.label} as {role}, {kind}:\n{failure}")
                tally.operations.add(operation.label)
                tally.roles.add(role)
                tally.runs[kind] += 1
    return failures


async def test_every_operation_as_every_role(database_url: str, tmp_path: Path) -> None:
    await fresh_database(database_url)
    async with instance(database_url, tmp_path, "fuzzed") as served:
        async with httpx.AsyncClient(base_url=served.url, timeout=30) as client:
            await make_world(client)
        tally = Tally()
        failures = await asyncio.to_thread(_fuzz, served.url, tally)
    print(
        f"fuzzed {len(tally.operations)} operations as {len(tally.roles)} roles "
        f"({dict(tally.runs)} runs): {tally.cases} requests, "
        f"{tally.reached_rules} commands reached the rules; statuses {dict(tally.statuses)}"
    )
    assert not failures, "\n\n".join(failures)
    documented = json.loads(COMMITTED.read_text())["paths"]
    every = {f"{method.upper()} {path}" for path, ops in documented.items() for method in ops}
    assert every <= tally.operations
    assert tally.roles == set(CALLERS)
    assert not any(status >= 500 for status in tally.statuses)
    assert tally.reached_rules > 0
