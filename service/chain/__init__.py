"""The tamper-evident event log: hash chain per stream, signed checkpoints, verification
(docs/audit.md, "Tamper-evident log")."""
