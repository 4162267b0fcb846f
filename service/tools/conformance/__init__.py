"""The conformance kit (docs/wallet-protocol.md §6): the wallet contract's scenarios
(:mod:`.scenarios`), run against the game's own internal wallet by the tests and against
an operator's seamless wallet by ``russian-poker wallet-check`` (:mod:`.command`), with a
raw transport for the signature scenarios (:mod:`.raw`)."""
