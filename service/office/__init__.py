"""The back office: round search, a round viewer that checks fairness proofs and checkpoint
inclusion in the browser, RTP, GGR, reconciliation and the availability log, for operators'
staff, auditors and admins (docs/back-office.md)."""
