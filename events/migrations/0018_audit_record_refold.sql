-- The regulator's round record gained the deal order, the draws in the order they were
-- made and a test-mode deck (projections/game_record.py). Records folded before cannot
-- have them, so the audit trail's read model is emptied and its checkpoint set back to the
-- start: every instance's projection runner folds the events again after the upgrade
-- (GET /v1/audit/rounds answers 404 for a round it has not reached yet). Events are
-- untouched; docs/event-store.md, "Changing a read model".
DELETE FROM audit_rounds;
DELETE FROM audit_tables;
UPDATE projection_checkpoints SET tx_id = '0', global_position = 0, updated_at = now()
WHERE name = 'audit';
