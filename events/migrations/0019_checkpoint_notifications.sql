-- Each signed checkpoint is published outside the database: a signed notification to every
-- seamless operator (docs/integration.md, "Checkpoint notifications"), queued in the
-- transaction that stores the checkpoint, delivered in sequence per operator, sent again
-- until a 2xx (or declined: a wallet without the endpoint answers 404, 405 or 501, and
-- is not asked again for that checkpoint). An insider who later deletes or rewrites the checkpoints cannot recall the
-- copies the operators hold (docs/audit.md, "Checkpoints kept outside the database").
CREATE TABLE checkpoint_notifications (
    operator_id     text NOT NULL,
    seq             bigint NOT NULL,
    state           text NOT NULL DEFAULT 'queued'
                    CHECK (state IN ('queued', 'delivered', 'declined', 'manual')),
    attempts        int NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    last_error      text,
    http_status     int,
    created_at      timestamptz NOT NULL DEFAULT now(),
    delivered_at    timestamptz,
    PRIMARY KEY (operator_id, seq)
);
CREATE INDEX checkpoint_notifications_due_idx ON checkpoint_notifications (next_attempt_at)
    WHERE state = 'queued';
