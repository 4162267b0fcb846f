-- Tables no code reads or writes (issue 22, "Nothing dead"). `idempotency_keys` was
-- planned for the HTTP Idempotency-Key and never wired: the store's `commands` table holds
-- each command's answer under its id, which the key derives. `snapshots` was a generic
-- per-stream snapshot store the product never used: a table's state is kept in
-- `table_states` by the command's own statement.
DROP TABLE idempotency_keys;
DROP TABLE snapshots;
