-- The audit trail (a catch-up projection, see projections/audit.py and docs/audit.md) and
-- the indexes replay, reconcile and the audit feed look events up by.

-- The regulator's per-round record. Secrets (seed, hidden cards) are stored as they happened:
-- this table is read only through projections.audit, which redacts unsettled rounds.
CREATE TABLE audit_rounds (
    table_id            text NOT NULL,
    round               int NOT NULL,
    game                text NOT NULL,
    ruleset_fingerprint text NOT NULL,
    commitment          text NOT NULL,
    -- Hex of the seed, set only once RoundSettled revealed it.
    seed                text,
    opened_at           timestamptz NOT NULL,
    settled_at          timestamptz,
    opened_position     bigint NOT NULL,
    settled_position    bigint,
    players             text[] NOT NULL DEFAULT '{}',
    record              jsonb NOT NULL,
    PRIMARY KEY (table_id, round)
);
CREATE INDEX audit_rounds_settled_at_idx ON audit_rounds (settled_at);
CREATE INDEX audit_rounds_opened_at_idx ON audit_rounds (opened_at);

-- What the audit projection needs to know about each table between rounds.
CREATE TABLE audit_tables (
    table_id            text PRIMARY KEY,
    game                text NOT NULL,
    ruleset_fingerprint text NOT NULL
);

-- Replay gathers a command's wallet events by the command id in their metadata.
CREATE INDEX events_command_id_idx ON events ((metadata ->> 'command_id'));

-- Which rounds are settled (seed revealed): replay's work list and the feed's redaction test.
CREATE INDEX events_round_settled_idx ON events (stream_id, ((data ->> 'round')::int))
    WHERE event_type = 'RoundSettled';
CREATE INDEX events_round_opened_idx ON events (stream_id, ((data ->> 'round')::int))
    WHERE event_type = 'RoundOpened';
