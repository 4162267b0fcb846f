-- RTP monitoring (service/reports/rtp.py, docs/audit.md "RTP monitoring"): each settled
-- round records the fingerprint of the ruleset it was played under, written by the settling
-- command's own statement (projections/history.py), so actual RTP is grouped by the ruleset
-- in force for that round even after a table's ruleset changes between rounds.
ALTER TABLE rounds ADD COLUMN IF NOT EXISTS ruleset_fingerprint text;

-- Rounds settled before this migration: the audit trail's fingerprint of the round.
UPDATE rounds r SET ruleset_fingerprint = a.ruleset_fingerprint
FROM audit_rounds a
WHERE r.ruleset_fingerprint IS NULL AND a.table_id = r.table_id AND a.round = r.round;
