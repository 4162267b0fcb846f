"""The wallet arithmetic of ``CommittedCache``, against a model of the real wallets.

Hypothesis interleaves this process's appends (debits and credits) with moves made
elsewhere (deposits, other instances) that the cache never sees. A cached wallet may be
behind (the append's expected version finds that out), but it must never pair a balance
with a version it did not have: whatever the order, every cached wallet holds exactly the
balance the store had at the cached version.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from russian_poker.events.records import RecordedEvent
from russian_poker.events.wallet import WalletCredited, WalletDebited, WalletEvent
from russian_poker.projections.wallets import HeldWallet
from russian_poker.service.application.cache import CommittedCache
from russian_poker.service.rules.state import Table
from russian_poker.service.rules.wallets import Wallet

WALLETS = ("a", "b", "c")


def _recorded(wallet_id: str, version: int) -> RecordedEvent:
    return RecordedEvent(
        global_position=version,
        tx_id=1,
        stream_id=f"wallet-{wallet_id}",
        stream_version=version,
        event_id=uuid.uuid4(),
        event_type="WalletCredited",
        schema_version=1,
        data=b"{}",
        metadata=b"{}",
        recorded_at=datetime.now(UTC),
    )


def _move(wallet_id: str, signed: int) -> WalletEvent:
    fields = {"wallet_id": wallet_id, "table_id": "t", "round": 1, "box": 1}
    if signed >= 0:
        return WalletCredited(amount=signed, reason="settlement", **fields)
    return WalletDebited(amount=-signed, reason="ante", **fields)


# A step: ("mine", [(wallet, signed amount), ...]) is an append of this process;
# ("elsewhere", wallet, signed amount) is a move the cache does not see;
# ("load", wallet) is a fresh load that the command path remembers.
step = st.one_of(
    st.tuples(
        st.just("mine"),
        st.lists(
            st.tuples(st.sampled_from(WALLETS), st.integers(-500, 500)), min_size=1, max_size=4
        ),
    ),
    st.tuples(st.just("elsewhere"), st.sampled_from(WALLETS), st.integers(-500, 500)),
    st.tuples(st.just("load"), st.sampled_from(WALLETS)),
)


@settings(max_examples=400, deadline=None)
@given(steps=st.lists(step, max_size=40))
def test_a_cached_wallet_is_forgotten_or_exact(steps: list[tuple[object, ...]]) -> None:
    cache = CommittedCache()
    # The store: balance and stream version of every wallet (1 = opened), and the balance
    # each wallet had at each of its versions.
    store = dict.fromkeys(WALLETS, (10_000, 1))
    history = {w: {1: 10_000} for w in WALLETS}
    hits = 0
    for item in steps:
        if item[0] == "load":
            wallet_id = str(item[1])
            balance, version = store[wallet_id]
            wallet = Wallet(wallet_id=wallet_id, currency="EUR", balance=balance, opened=True)
            cache.remember_loaded({wallet_id: HeldWallet(wallet, version)})
        elif item[0] == "elsewhere":
            wallet_id, signed = str(item[1]), int(item[2])  # type: ignore[call-overload]
            balance, version = store[wallet_id]
            store[wallet_id] = (balance + signed, version + 1)
            history[wallet_id][version + 1] = balance + signed
        else:
            moves = [_move(w, s) for w, s in item[1]]  # type: ignore[attr-defined]
            recorded = []
            for move in moves:
                balance, version = store[move.wallet_id]
                signed = move.amount if isinstance(move, WalletCredited) else -move.amount  # type: ignore[union-attr]
                store[move.wallet_id] = (balance + signed, version + 1)
                history[move.wallet_id][version + 1] = balance + signed
                recorded.append(_recorded(move.wallet_id, version + 1))
            cache.committed("t", 1, Table(), recorded, moves)
        for wallet_id in WALLETS:
            held = cache.wallets([wallet_id])
            if held is not None:
                cached = held[wallet_id]
                assert cached.wallet.balance == history[wallet_id][cached.version]
                hits += cached.version == store[wallet_id][1]
    # Not vacuous: appends after a load keep the wallet cached and current.
    if any(i[0] == "load" for i in steps) and not any(i[0] == "elsewhere" for i in steps):
        assert hits > 0


def test_the_least_recently_used_table_goes_first() -> None:
    cache = CommittedCache(tables=2)
    for table_id in ("t1", "t2"):
        cache.committed(table_id, 1, Table(table_id=table_id), [], [])
    assert cache.table("t1") is not None  # t1 is now the most recent
    cache.committed("t3", 1, Table(table_id="t3"), [], [])
    assert cache.table("t2") is None
    assert [cache.table(t) is not None for t in ("t1", "t3")] == [True, True]


def test_a_cache_of_no_tables_keeps_nothing() -> None:
    cache = CommittedCache(tables=0, wallets=0)
    cache.committed("t1", 1, Table(table_id="t1"), [], [])
    wallet = Wallet(wallet_id="a", currency="EUR", balance=5, opened=True)
    cache.remember_loaded({"a": HeldWallet(wallet, 1)})
    assert cache.table("t1") is None and cache.wallets(["a"]) is None
