"""The seamless wallet protocol (docs/wallet-protocol.md): its messages and signatures, the
port to an operator's wallet and the HTTP adapter the product runs, and reconciliation's
comparison of the game's calls with the operator's. Players' money as the command path sees
it, internal or seamless, is ``service.application.money``."""
