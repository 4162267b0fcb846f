"""The offline tools, apart from the server: the distribution's ``tools`` extra
(``pip install 'russian-poker[tools]'``, which brings numpy, scipy and matplotlib).

- :mod:`.simulation`: the RTP simulator (``russian-poker simulate``) and the exact figures;
- :mod:`.theory`: a custom ruleset's theoretical RTP, stored for the server to read
  (``russian-poker rtp-theory``);
- :mod:`.rng`: the RNG certification report (``russian-poker rng-report``);
- :mod:`.reference_wallet`: the reference operator wallet (``russian-poker reference-wallet``);
- :mod:`.conformance`: the operator's conformance kit (``russian-poker wallet-check``);
- :mod:`.demo`: bot players against a running service (``russian-poker demo``).

The serving process imports none of this (tests/service/test_serving_footprint.py). The
server's own code never imports from here; the tools import the pure core and, for the
wallet kit, the wallet protocol's adapters.
"""
