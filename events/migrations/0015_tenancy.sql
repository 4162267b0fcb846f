-- Tenancy as data the API's one policy reads (docs/security.md).
--
-- Whose a table is, beside its summary: the operator that opened it and whether it is
-- shared. Both are fixed by TableOpened and never change, so the policy can look them up
-- by primary key (and keep them) instead of decoding the table's state, and the lobby can
-- list a tenant's tables in SQL.
ALTER TABLE table_states
    ADD COLUMN operator_id text NOT NULL DEFAULT 'default',
    ADD COLUMN shared boolean NOT NULL DEFAULT false;

UPDATE table_states t
SET operator_id = coalesce(e.data ->> 'operator_id', 'default'),
    shared = coalesce((e.data ->> 'shared')::boolean, false)
FROM events e
WHERE e.stream_id = 'table-' || t.table_id AND e.stream_version = 1;

CREATE INDEX table_states_operator_idx ON table_states (operator_id, table_id);

-- Operators' own credentials: API keys an admin creates, each for one operator and one
-- role (operator, or the operator's auditor). Only a SHA-256 of the key's secret part is
-- kept: the key is shown once, at creation. Several live keys per operator let a key be
-- rotated with overlap; a revoked or expired key is refused.
CREATE TABLE operator_credentials (
    key_id      text PRIMARY KEY,
    operator_id text NOT NULL,
    role        text NOT NULL CHECK (role IN ('operator', 'auditor')),
    label       text NOT NULL,
    secret_hash bytea NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    created_by  text NOT NULL,
    expires_at  timestamptz,
    revoked_at  timestamptz,
    last_used_at timestamptz
);
CREATE INDEX operator_credentials_operator_idx ON operator_credentials (operator_id, created_at);
