"""The wallet port: the money calls of the operator protocol (WALLET-PROTOCOL §3), and the
adapters behind it — ``internal`` (the service's own ledger) and ``seamless`` (HTTP to the
operator's wallet)."""
