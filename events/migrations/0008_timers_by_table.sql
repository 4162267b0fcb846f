-- Every command keeps its table's timers in step (projections/timers.py), starting with
-- "DELETE FROM timers WHERE table_id = …": without this index that is a scan of every
-- table's timers, and of every dead row the churn left since the last vacuum, per command.
CREATE INDEX timers_table_idx ON timers (table_id);
