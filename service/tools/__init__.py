"""The offline tools, apart from the server: the distribution's ``tools`` extra
(numpy, scipy and matplotlib).

- :mod:`.simulation`: the RTP simulator (``russian-poker simulate``) and the exact figures;
- :mod:`.rng`: the RNG certification report (``russian-poker rng-report``);
- :mod:`.reference_wallet`: the reference operator wallet (``russian-poker reference-wallet``);
- :mod:`.conformance`: the operator's conformance kit (``russian-poker wallet-check``);
- :mod:`.demo`: bot players against a running service (``russian-poker demo``).

The server's own code never imports from here, except the RTP report's theoretical figures
(service/reports/theory.py), which are still computed with the simulator; the tools import
the pure core and, for the wallet kit, the wallet protocol's adapters.
"""
