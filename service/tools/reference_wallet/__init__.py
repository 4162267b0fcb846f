"""The reference operator wallet: the operator's side of the seamless wallet protocol
(docs/wallet-protocol.md §3-§4), as a small HTTP server with its own PostgreSQL ledger.

It is what the game's tests talk to, what the conformance kit is checked against, and an
example for integrators. Read it in this order:

* :mod:`~service.tools.reference_wallet.calls` — one call: verify the raw bytes, decode, apply,
  sign the answer; and where each fault strikes;
* :mod:`~service.tools.reference_wallet.ledger` — the ledger: idempotency, tombstones, one
  database transaction per call;
* :mod:`~service.tools.reference_wallet.faults` — faults switched on at run time, and the
  deliberately broken variants;
* :mod:`~service.tools.reference_wallet.app` — the Litestar app; ``admin`` its test endpoints.

Run it with ``python -m russian_poker.service.tools.reference_wallet --port 8100 --database-url URL
--secret S`` (or ``russian-poker reference-wallet``).
"""

from russian_poker.service.tools.reference_wallet.app import create_app

__all__ = ["create_app"]
