"""The application layer: the command path and the services around it, without SQL and
without HTTP. It talks to storage and to operators' wallets through ports
(``ports.py``, ``money/``) whose adapters the bootstrap (``service.bootstrap``) wires."""
