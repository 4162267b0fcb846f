"""An interrupted round at a seamless operator: the round the rules complete after
``abandoned_round_after_s`` pays through the ordinary settlement calls, so the reference
wallet (a separate process) ends exactly where the game's record says, the round is closed
once, and ``russian-poker reconcile`` finds nothing to report."""

from __future__ import annotations

from pathlib import Path

from russian_poker.events.postgres.timers import TimerStore
from russian_poker.service.clock import Clock
from tests.operators.casino import Casino
from tests.operators.test_reconcile_operator import reconcile, write_lines
from tests.rules.scenario import deck_for
from tests.wallet.reference import ReferenceWallet

START = 100_000
DAY = 86_400
# Play order: box 1 (ante 200), then box 2 (ante 100); a pair of eights for the dealer.
BOXES = ["7s 7h 7d Kc 2s", "2d 5h 8c Jc 4s"]
DEALER = "8s 8d Ah 4c 6h"


async def test_an_abandoned_round_settles_at_the_operator_and_reconciles(
    casino: Casino, reference_wallet: ReferenceWallet, database_url: str, tmp_path: Path
) -> None:
    await reference_wallet.set_player("alice", "EUR", START)
    await casino.register("acme", reference_wallet)
    alice = await casino.launch("acme", "alice")
    await casino.open_table("acme.t1", "russian", deck_for(BOXES, DEALER), operator_id="acme")
    await casino.send(alice, "acme.t1", "SitDown")
    await casino.send(alice, "acme.t1", "PlaceAnte", box=1, ante=200)
    await casino.send(alice, "acme.t1", "PlaceAnte", box=2, ante=100)
    await casino.send(alice, "acme.t1", "Deal")
    await casino.send(alice, "acme.t1", "Play", box=1)  # then she is gone; box 2 never decides
    assert await reference_wallet.balance_of("alice") == START - 700

    # Her decision time-out is lost, and a day passes.
    await casino.pool.execute(
        "DELETE FROM timers WHERE table_id = 'acme.t1' AND timer_key NOT LIKE '%:abandoned:%'"
    )
    await casino.pool.execute(
        "UPDATE timers SET due_at = due_at - make_interval(secs => $1) WHERE table_id = 'acme.t1'",
        DAY,
    )
    assert await Clock(TimerStore(casino.pool), casino.app.state.services.commands).tick() == 1

    view = await casino.view("acme.t1", alice)
    outcomes = [b["result"]["outcome"] for b in view["previous_round"]["boxes"]]
    assert outcomes == ["won", "folded"]
    net = sum(b["result"]["net"] for b in view["previous_round"]["boxes"])
    # Box 1: trips beat eights, 200 + 400 back and 3 x 400 won; box 2: its 100 ante lost.
    assert net == 1_200 - 100

    await casino.delivered()
    assert await reference_wallet.balance_of("alice") == START + net
    assert await casino.game_net(alice) == net
    calls = await casino.calls(operator_id="acme", player_id="alice")
    wins = [c for c in calls if c["kind"] == "win"]
    assert sum(w["round_closed"] for w in wins) == 1 and wins[-1]["round_closed"]
    assert all(c["status"] in ("committed", "delivered") for c in calls)

    export = write_lines(tmp_path / "acme.jsonl", await reference_wallet.export())
    code, lines = await reconcile(database_url, "--operator", "acme", "--theirs", str(export))
    assert (code, lines) == (0, [f"reconciled {len(calls)} transactions"])
