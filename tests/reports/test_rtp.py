"""RTP monitoring: actual RTP from played rounds equals the ratio worked out from their
results, its interval narrows with more rounds, and a forced run of winning rounds (test
mode's fixed decks) raises the band flag, in the report and in the Prometheus gauge."""

from __future__ import annotations

import asyncio
import time
from fractions import Fraction
from typing import Any

import pytest
from click.testing import CliRunner

from russian_poker.service.cli import main as cli
from russian_poker.service.reports.monitor import refresh_rtp
from russian_poker.service.reports.rtp import MIN_ROUNDS, Sums, estimate
from russian_poker.service.reports.theory import bonus_rtp
from russian_poker.service.rules.presets import make_ruleset
from tests.api.conftest import bearer
from tests.api.e2e import Harness, deck_for
from tests.processes import eventually

AUDITOR = bearer("auditor", "aud")
# Oasis: alice's trips beat the dealer's pair of eights (ante 1:1, Bet 3:1), and her bonus
# pays trips 5:1. Every round the same: the player wins everything.
WIN = deck_for(["7s 7h 7d Kc 2s"], "8s 8d Ah 4c 6h")


def sums_of(rounds: list[tuple[int, int]]) -> Sums:
    return Sums(
        n=len(rounds),
        staked=sum(s for s, _ in rounds),
        paid=sum(p for _, p in rounds),
        staked_sq=sum(s * s for s, _ in rounds),
        paid_sq=sum(p * p for _, p in rounds),
        cross=sum(s * p for s, p in rounds),
    )


def test_the_interval_narrows_with_the_square_root_of_the_rounds() -> None:
    pattern = [(300, 0), (100, 0), (300, 600), (300, 1_000), (300, 300)]
    widths = []
    for repeat in (10, 40, 160):
        found = estimate(sums_of(pattern * repeat))
        assert found is not None and found.low is not None and found.high is not None
        assert found.rtp == Fraction(1_900, 1_300)
        assert found.low < float(found.rtp) < found.high
        widths.append(found.high - found.low)
    assert widths[0] > widths[1] > widths[2]
    # Four times the rounds: half the width (n / (n - 1) aside).
    assert widths[1] / widths[0] == pytest.approx(0.5, rel=0.02)
    assert widths[2] / widths[1] == pytest.approx(0.5, rel=0.01)


def test_the_bonus_figure_is_the_exact_enumeration() -> None:
    assert bonus_rtp(make_ruleset("oasis")) == Fraction(355_367, 649_740)
    assert bonus_rtp(make_ruleset("russian-online")) == Fraction(7_981, 18_564)


async def report(h: Harness, **params: str) -> dict[str, Any]:
    r = await h.client.get("/v1/audit/rtp", params=params, headers=AUDITOR)
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


async def with_theory(h: Harness) -> dict[str, Any]:
    """The report once the ruleset's theoretical figures are in."""
    deadline = time.monotonic() + 60
    while True:
        body = await report(h)
        row = body["rows"][0]
        if row["main"]["theoretical"] is not None and row["bonus"]["theoretical"] is not None:
            return body
        assert time.monotonic() < deadline, body
        await asyncio.sleep(0.2)


async def test_rtp_of_played_rounds_and_the_band_flag(harness: Harness) -> None:
    h = harness
    await h.fund({"alice": 1_000_000})
    await h.open("oasis", WIN)
    await h.send("alice", "SitDown")
    results: list[dict[str, Any]] = []
    rounds = MIN_ROUNDS + 2
    for n in range(rounds):
        await h.send("alice", "PlaceAnte", box=1, ante=100, bonus=100)
        await h.send("alice", "Deal")
        await h.next_deck(WIN)
        # Two rounds folded (the ante lost, the bonus still paid), the rest played and won.
        view = await h.send("alice", "Fold" if n < 2 else "Play", box=1)
        box = next(b for b in view["previous_round"]["boxes"] if b["box"] == 1)
        results.append(box["result"])
    assert [r["outcome"] for r in results] == ["folded"] * 2 + ["won"] * (rounds - 2)

    # By hand, from the round results: the bonus is its stake and, when it won, stake plus
    # winnings; the main wager is the rest.
    bonus_paid = [r["bonus"]["stake"] + r["bonus"]["won"] for r in results]
    main_staked = sum(r["staked"] - r["bonus"]["stake"] for r in results)
    main_paid = sum(r["paid_back"] - b for r, b in zip(results, bonus_paid, strict=True))
    assert (main_staked, main_paid) == (2 * 100 + 30 * 300, 30 * 1_000)

    body = await with_theory(h)
    [row] = body["rows"]
    assert row["table_id"] == "t1" and row["game"] == "oasis" and row["currency"] == "EUR"
    assert row["ruleset_fingerprint"] == make_ruleset("oasis").fingerprint
    main, bonus = row["main"], row["bonus"]
    assert (main["rounds"], main["staked"], main["paid_back"]) == (rounds, main_staked, main_paid)
    ratio = Fraction(main_paid, main_staked)
    assert main["rtp_exact"] == f"{ratio.numerator}/{ratio.denominator}"
    assert main["rtp"] == f"{float(ratio):.6f}"
    assert float(main["ci99_low"]) < float(main["rtp"]) < float(main["ci99_high"])
    assert main["theoretical"] == "0.991670" and main["theoretical_source"] == "docs/game-math.md"
    assert main["outside_band"] is True
    assert (bonus["staked"], bonus["paid_back"]) == (100 * rounds, sum(bonus_paid))
    assert bonus["rtp_exact"] == "6/1"
    assert bonus["theoretical"] == f"{355_367 / 649_740:.6f}" and bonus["outside_band"] is True

    # The window and the filters.
    assert (await report(h, to="2000-01-01T00:00:00Z"))["rows"] == []
    assert (await report(h, table_id="elsewhere"))["rows"] == []
    assert len((await report(h, operator_id="default"))["rows"]) == 1
    assert (await report(h, operator_id="acme"))["rows"] == []
    # An operator reads its own players' boxes only.
    own = await h.client.get("/v1/audit/rtp", headers=bearer("operator", "op"))
    assert own.status_code == 200 and own.json()["rows"][0]["main"] == main
    other = await h.client.get(
        "/v1/audit/rtp", params={"operator_id": "acme"}, headers=bearer("operator", "op")
    )
    assert other.status_code == 404
    assert (
        await h.client.get("/v1/audit/rtp", headers=bearer("player", "alice"))
    ).status_code == 403

    # The gauges, set by the serve process's own refresher: labelled by ruleset, not table.
    fingerprint = make_ruleset("oasis").fingerprint
    expected = [
        line
        for wager in ("main", "bonus")
        for labels in [f'game="oasis",ruleset="{fingerprint}",wager="{wager}"']
        for line in (
            f"russian_poker_rtp_outside_band{{{labels}}} 1.0",
            f"russian_poker_rtp_rounds{{{labels}}} {float(rounds)}",
        )
    ]

    async def published() -> bool:
        metrics = (await h.client.get("/metrics")).text
        return all(line in metrics.splitlines() for line in expected)

    await eventually(published, timeout=30)
    metrics = (await h.client.get("/metrics")).text
    assert 't1"' not in metrics.split("russian_poker_rtp", 1)[1]
    # Refreshing by hand gives the same two label sets (main and bonus of one ruleset).
    assert await refresh_rtp(h.app.state.services.storage.rtp, h.app.state.services.theory) == 2


async def test_a_ruleset_change_between_rounds_starts_a_new_row(
    harness: Harness, database_url: str
) -> None:
    h = harness
    await h.fund({"alice": 100_000})
    await h.open("oasis", WIN)
    await h.send("alice", "SitDown")
    for number in (1, 2):
        if number == 2:
            changed = await h.client.put(
                "/v1/tables/t1/ruleset",
                json={"overrides": {"ante_max": 5_000}, "reason": "higher limit"},
                headers=bearer("operator", "op"),
            )
            assert changed.status_code == 200, changed.text
        await h.send("alice", "PlaceAnte", box=1, ante=100)
        await h.send("alice", "Deal")
        await h.next_deck(WIN)
        await h.send("alice", "Play", box=1)
    changed_rules = make_ruleset("oasis", {"ante_max": 5_000})
    # The changed (non-preset) ruleset's main figure comes from the offline command, as an
    # operator runs it; a small simulation (a test need not wait for 2 × 10⁵ rounds).
    ran = await asyncio.to_thread(
        CliRunner().invoke,
        cli,
        ["rtp-theory", "--table", "t1", "--rounds", "2048", "--workers", "1"],
        env={"DATABASE_URL": database_url},
    )
    assert ran.exit_code == 0, ran.output
    assert f"{changed_rules.fingerprint}: main RTP" in ran.output

    async def both_known() -> bool:
        rows = (await report(h))["rows"]
        return len(rows) == 2 and all(r["main"]["theoretical"] is not None for r in rows)

    await eventually(both_known, timeout=60)
    rows = {r["ruleset_fingerprint"]: r for r in (await report(h))["rows"]}
    assert set(rows) == {make_ruleset("oasis").fingerprint, changed_rules.fingerprint}
    simulated = rows[changed_rules.fingerprint]["main"]
    assert simulated["theoretical_source"] == "simulated"
    assert (simulated["rounds"], simulated["staked"], simulated["paid_back"]) == (1, 300, 1_000)
    assert simulated["ci99_low"] is None and simulated["outside_band"] is False
