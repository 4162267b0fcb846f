"""Operators are tenants (docs/wallet-protocol.md §1): an operator's tokens act only within it.

Two operators play for real: Acme (seamless, its money at the reference wallet) and Beta
(internal wallets). Each has a player with a launched session, a table with a settled round,
transactions or a ledger, and both players have played a round together at a shared table.
Then, for every operator-scoped operation, each operator's token and its player's session
token try the other's players, tables, sessions, wallets, transactions and reports — and
the default operator's token (bare ids) tries both. Every attempt gets the status asserted
below, as a problem with nothing of the other's in it; the owner's own tokens get through
with the same requests; lists hold nothing of the other's; and no money moved anywhere.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

import httpx

from tests.operators.casino import ADMIN, Casino, Player, staff
from tests.operators.play import deck, internal_player, play_round, play_together
from tests.rules.scenario import deck_for
from tests.wallet.reference import ReferenceWallet

START = 100_000
TWO_BOXES = deck_for(["Qs Qd Qh 5c 7d", "Js Jd Jh 4c 8d"], "9s 9c Ah Kd 2h")


@dataclass
class Tenant:
    operator_id: str
    player: Player
    table_id: str
    spare_session: str
    """A second session of the player's, for the owner to end."""
    wallet_id: str | None = None
    """Internal operators: the player's wallet, as the operator names it."""
    round: int = 0
    """A settled round at the tenant's table."""

    @property
    def token(self) -> dict[str, str]:
        return staff("operator", self.operator_id)


@dataclass
class Probe:
    label: str
    method: str
    path: str
    body: Any = None
    denied: int = 404
    """What another operator's token gets."""
    allowed: int = 200
    """What the owner's token gets."""
    mine: dict[str, Any] = field(default_factory=dict)
    """The owner's own body, where it differs (a fresh transfer id, …)."""


async def status_of(
    client: httpx.AsyncClient, probe: Probe, headers: dict[str, str], body: Any
) -> tuple[int, str, str]:
    """Status, content type and body; a live stream only as far as its status line."""
    request_headers = {**headers, "Idempotency-Key": f"matrix-{id(body)}-{probe.label}"}
    async with client.stream(probe.method, probe.path, json=body, headers=request_headers) as r:
        if r.headers.get("content-type", "").startswith("text/event-stream"):
            return r.status_code, r.headers["content-type"], ""
        await r.aread()
        return r.status_code, r.headers.get("content-type", ""), r.text


async def world(casino: Casino, wallet: ReferenceWallet) -> tuple[Tenant, Tenant]:
    await wallet.set_player("annika", "EUR", START)
    await casino.register("acme", wallet)
    await casino.register("beta")
    annika = await casino.launch("acme", "annika")
    bertil = await internal_player(casino, "beta", "bertil", START)
    acme = Tenant("acme", annika, "acme.t", (await casino.launch("acme", "annika")).session_id)
    beta = Tenant(
        "beta",
        bertil,
        "beta.t",
        (await casino.launch("beta", "bertil")).session_id,
        wallet_id="bertil",
    )
    for tenant in (acme, beta):
        await casino.open_table(tenant.table_id, "russian", deck(), operator_id=tenant.operator_id)
        await play_round(casino, tenant.player, tenant.table_id)
        rounds = await casino.client.get(
            "/v1/reports/rounds", params={"table_id": tenant.table_id}, headers=tenant.token
        )
        (settled,) = rounds.json()["items"]
        tenant.round = settled["round"]
    # Players of both at one shared table, in one round.
    await casino.open_table("shared-t", "russian", TWO_BOXES)
    await casino.send(annika, "shared-t", "SitDown")
    await casino.send(bertil, "shared-t", "SitDown")
    await play_together(casino, "shared-t", [(annika, 1, 100), (bertil, 2, 100)])
    await casino.open_table("shared-2", "russian", deck())
    await casino.delivered()
    return acme, beta


def probes(victim: Tenant, named: str | None) -> list[Probe]:
    """The operations an operator's token might reach the victim's things through.
    ``named``: the victim's wallet id as the attacker spells it (None: no wallet)."""
    table, player = victim.table_id, victim.player
    number = victim.round
    listed = [
        Probe("show table", "GET", f"/v1/tables/{table}"),
        Probe("table stream", "GET", f"/v1/tables/{table}/stream"),
        Probe("close table", "POST", f"/v1/tables/{table}/close", {"reason": "matrix"}),
        # Closed: between rounds, so the owner may change the ruleset.
        Probe(
            "ruleset",
            "PUT",
            f"/v1/tables/{table}/ruleset",
            {"overrides": {"ante_min": 20}, "reason": "matrix"},
        ),
        Probe("reopen table", "POST", f"/v1/tables/{table}/reopen"),
        Probe("availability log", "GET", f"/v1/audit/availability?table_id={table}"),
        Probe(
            "operator's availability log",
            "GET",
            f"/v1/audit/availability?operator_id={victim.operator_id}",
        ),
        Probe("test deck", "PUT", f"/v1/tables/{table}/test-deck", {"cards": list(deck())}),
        Probe("session", "GET", f"/v1/sessions/{player.session_id}"),
        Probe("end session", "DELETE", f"/v1/sessions/{victim.spare_session}"),
        Probe("operator", "GET", f"/v1/operators/{victim.operator_id}"),
        Probe("transactions", "GET", f"/v1/operators/{victim.operator_id}/transactions"),
        Probe("daily report", "GET", f"/v1/operators/{victim.operator_id}/reports/daily"),
        Probe("recall", "GET", f"/v1/players/{player.game_id}/rounds"),
        Probe("seed", "GET", f"/v1/audit/rounds/{table}/{number}/seed"),
        # Admins' operations: a role refusal for every operator, the owner too.
        Probe(
            "update operator",
            "PUT",
            f"/v1/operators/{victim.operator_id}",
            {
                "operator_id": victim.operator_id,
                "name": "Taken over",
                "currencies": ["EUR"],
                "wallet": {"mode": "internal"},
            },
            denied=403,
            allowed=403,
        ),
        Probe("operators", "GET", "/v1/operators", denied=403, allowed=403),
        # Commands are the players'.
        Probe(
            "command",
            "POST",
            f"/v1/tables/{table}/commands",
            {"type": "SitDown"},
            denied=403,
            allowed=403,
        ),
    ]
    if named is not None:
        assert victim.wallet_id is not None
        own = victim.wallet_id
        listed += [
            Probe("wallet", "GET", f"/v1/wallets/{named}", mine={"path": f"/v1/wallets/{own}"}),
            Probe(
                "ledger",
                "GET",
                f"/v1/wallets/{named}/ledger",
                mine={"path": f"/v1/wallets/{own}/ledger"},
            ),
            Probe(
                "deposit",
                "POST",
                f"/v1/wallets/{named}/deposits",
                {"transfer_id": "steal-1", "amount": 100},
                mine={
                    "path": f"/v1/wallets/{own}/deposits",
                    "body": {"transfer_id": "own-1", "amount": 100},
                },
            ),
            Probe(
                "withdraw",
                "POST",
                f"/v1/wallets/{named}/withdrawals",
                {"transfer_id": "steal-2", "amount": 100},
                mine={
                    "path": f"/v1/wallets/{own}/withdrawals",
                    "body": {"transfer_id": "own-2", "amount": 100},
                },
            ),
        ]
    return listed


def wallet_names(attacker: str, victim: Tenant) -> list[str | None]:
    """How an attacker might spell the victim's wallet: its bare id (the attacker's own
    namespace then) and its game id (``operator:player``)."""
    if victim.wallet_id is None:
        return [None]
    return [victim.wallet_id, victim.player.game_id]


async def money(casino: Casino, wallet: ReferenceWallet, beta: Tenant) -> tuple[int, int, int]:
    """Everyone's money: Acme's player at the operator, Beta's wallet, the calls made."""
    r = await casino.client.get(f"/v1/wallets/{beta.player.game_id}", headers=ADMIN)
    calls = await casino.pool.fetchval("SELECT count(*) FROM wallet_transactions")
    return await wallet.balance_of("annika"), r.json()["balance"], calls


async def test_operators_tokens_stay_within_their_operator(
    casino: Casino, reference_wallet: ReferenceWallet
) -> None:
    acme, beta = await world(casino, reference_wallet)
    before = await money(casino, reference_wallet, beta)
    attackers = {"acme": acme.token, "beta": beta.token, "default": staff("operator")}
    checked = 0
    for (attacker, headers), victim in itertools.product(attackers.items(), (acme, beta)):
        if attacker == victim.operator_id:
            continue
        for named in wallet_names(attacker, victim):
            for probe in probes(victim, named):
                status, kind, text = await status_of(casino.client, probe, headers, probe.body)
                where = (attacker, victim.operator_id, probe.label, probe.path)
                assert status == probe.denied, (*where, status, text)
                assert kind.startswith("application/problem+json"), (*where, kind)
                # A problem says what was refused, never what the victim has.
                for secret in (victim.player.session_id, '"balance"', '"transactions"'):
                    if secret not in probe.path:
                        assert secret not in text, (*where, secret, text)
                checked += 1
    assert checked > 60

    # The owners get through with the same requests (their own spelling of the wallet).
    for victim in (acme, beta):
        for probe in probes(victim, victim.wallet_id):
            path = probe.mine.get("path", probe.path)
            body = probe.mine.get("body", probe.body)
            owned = Probe(probe.label, probe.method, path)
            status, _, text = await status_of(casino.client, owned, victim.token, body)
            assert status == probe.allowed, (victim.operator_id, probe.label, status, text)

    # Nothing moved: Beta's own deposit and withdrawal cancel out; no call was made.
    assert await money(casino, reference_wallet, beta) == before
    # What the attackers tried to end is still running; the owner's spare is ended.
    for victim in (acme, beta):
        r = await casino.client.get(
            f"/v1/sessions/{victim.player.session_id}", headers=victim.token
        )
        assert r.json()["ended_at"] is None
        r = await casino.client.get(f"/v1/sessions/{victim.spare_session}", headers=victim.token)
        assert r.json()["ended_at"] is not None


async def test_lists_hold_only_the_callers_own(
    casino: Casino, reference_wallet: ReferenceWallet
) -> None:
    acme, beta = await world(casino, reference_wallet)
    tenants = {"acme": acme, "beta": beta}
    for me, other in ((acme, beta), (beta, acme)):
        lobby = await casino.client.get("/v1/tables", headers=me.token)
        tables = {t["table_id"] for t in lobby.json()}
        assert tables == {me.table_id, "shared-t", "shared-2"}
        players_lobby = await casino.client.get("/v1/tables", headers=me.player.headers)
        assert {t["table_id"] for t in players_lobby.json()} == tables

        report = await casino.client.get("/v1/reports/rounds", headers=me.token)
        assert report.status_code == 200
        rounds = report.json()["items"]
        assert {r["table_id"] for r in rounds} == {me.table_id, "shared-t"}
        for settled in rounds:
            owners = {b["player"] for b in settled["boxes"]}
            assert owners == {me.player.game_id}, settled
            assert settled["staked"] == sum(
                b["ante"] + b["bet"] + b["bonus"] + b["insurance"] + b["fees"]
                for b in settled["boxes"]
            )
        shared = next(r for r in rounds if r["table_id"] == "shared-t")
        assert other.player.game_id not in str(shared)

        recall = await casino.client.get(
            f"/v1/players/{me.player.game_id}/rounds", headers=me.token
        )
        assert {r["table_id"] for r in recall.json()["items"]} == {me.table_id, "shared-t"}

    # The auditor's report has every round, with both players at the shared one.
    everything = await casino.client.get("/v1/reports/rounds", headers=staff("auditor"))
    shared = next(r for r in everything.json()["items"] if r["table_id"] == "shared-t")
    assert {b["player"] for b in shared["boxes"]} == {t.player.game_id for t in tenants.values()}

    # The default operator's token sees neither's tables, rounds, wallets or players.
    default = staff("operator")
    lobby = await casino.client.get("/v1/tables", headers=default)
    assert {t["table_id"] for t in lobby.json()} == {"shared-t", "shared-2"}
    report = await casino.client.get("/v1/reports/rounds", headers=default)
    assert report.json()["items"] == []

    # Acme's transactions are Acme's players' only; Beta (internal) has none.
    page = await casino.client.get("/v1/operators/acme/transactions", headers=acme.token)
    listed = page.json()["items"]
    assert listed
    assert {t["player_id"] for t in listed} == {"annika"}
    assert {t["table_id"] for t in listed} == {"acme.t", "shared-t"}
    page = await casino.client.get("/v1/operators/beta/transactions", headers=beta.token)
    assert page.json()["items"] == []


async def test_players_sit_only_at_their_operators_and_shared_tables(
    casino: Casino, reference_wallet: ReferenceWallet
) -> None:
    acme, beta = await world(casino, reference_wallet)
    before = await money(casino, reference_wallet, beta)
    for me, other in ((acme, beta), (beta, acme)):
        player = me.player
        # Another operator's table is not there for the player: not even its existence
        # is confirmed, whatever the command (the rules' own `wrong_operator` guard is
        # tested in tests/rules).
        for kind, fields in (("SitDown", {}), ("PlaceAnte", {"box": 3, "ante": 100})):
            refused = await casino.post(player, other.table_id, kind, **fields)
            assert refused.status_code == 404, refused.text
            assert refused.json()["code"] == "not_found"
        assert (await casino.post(player, "shared-2", "SitDown")).status_code == 200

        # Nothing of the other's through the player's own token either.
        for path, status in (
            (f"/v1/tables/{other.table_id}", 404),
            (f"/v1/tables/{other.table_id}/stream", 404),
            (f"/v1/players/{other.player.game_id}/rounds", 404),
            (f"/v1/sessions/{other.player.session_id}", 403),
            (f"/v1/operators/{other.operator_id}", 403),
            (f"/v1/operators/{other.operator_id}/transactions", 403),
            (f"/v1/operators/{other.operator_id}/reports/daily", 403),
            (f"/v1/wallets/{other.player.game_id}", 404),
            (f"/v1/audit/rounds/{other.table_id}/{other.round}/seed", 403),
        ):
            probe = Probe(path, "GET", path)
            got, kind, text = await status_of(casino.client, probe, player.headers, None)
            assert got == status, (me.operator_id, path, got, text)
            assert kind.startswith("application/problem+json")
        # ... while its own are there for it.
        for path in (f"/v1/tables/{me.table_id}", f"/v1/players/{player.game_id}/rounds"):
            assert (await casino.client.get(path, headers=player.headers)).status_code == 200
    own = await casino.client.get("/v1/wallets/bertil", headers=beta.player.headers)
    assert own.status_code == 200
    assert own.json()["wallet_id"] == "bertil"
    # The refused commands moved no money and made no call.
    assert await money(casino, reference_wallet, beta) == before
    seated = await casino.view("shared-2")
    assert {s for s in seated["seats"] if s} >= {acme.player.game_id, beta.player.game_id}
