-- The table's state as each round opened (the last few rounds per table): a client that
-- reconnects to a live stream is caught up state by state from the nearest one, however
-- many commands it missed, without folding the whole stream.
CREATE TABLE table_checkpoints (
    table_id text NOT NULL,
    version  bigint NOT NULL,
    state    bytea NOT NULL,
    PRIMARY KEY (table_id, version)
);
