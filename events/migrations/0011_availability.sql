-- Game availability (issue 13, item 4): the log of every opening, closing, reopening and
-- ruleset change of a table, and the operators' notifications of a table's status.

-- The availability log: a catch-up projection of TableOpened, TableClosed, TableReopened
-- and RulesetChanged, with who acted (the event's metadata) and when (its record).
-- Rebuilt by `russian-poker projections rebuild availability`.
CREATE TABLE availability_log (
    global_position bigint PRIMARY KEY,
    table_id        text NOT NULL,
    operator_id     text NOT NULL,
    shared          boolean NOT NULL,
    kind            text NOT NULL
                    CHECK (kind IN ('opened', 'closed', 'reopened', 'ruleset_changed')),
    actor_role      text NOT NULL,
    actor_id        text NOT NULL,
    reason          text,
    ruleset_version int NOT NULL,
    -- the ruleset in force from this change on: set for 'opened' and 'ruleset_changed'
    ruleset         jsonb,
    command_id      text,
    recorded_at     timestamptz NOT NULL
);
CREATE INDEX availability_log_table_idx ON availability_log (table_id, global_position);
CREATE INDEX availability_log_operator_idx ON availability_log (operator_id, global_position);
CREATE INDEX availability_log_time_idx ON availability_log (recorded_at, global_position);

-- The outbox of table-status notifications (POST {wallet url}/notifications/table-status),
-- queued in the statement that records the TableClosed / TableReopened event, delivered
-- by every instance's notifier until the operator answers 2xx.
--   queued → delivered | manual
CREATE TABLE table_notifications (
    operator_id     text NOT NULL,
    notification_id text NOT NULL,   -- the event's id: the operator's idempotency key
    table_id        text NOT NULL,
    status          text NOT NULL CHECK (status IN ('closed', 'open')),
    reason          text,
    actor_role      text NOT NULL,
    actor_id        text NOT NULL,
    occurred_at     timestamptz NOT NULL,
    state           text NOT NULL DEFAULT 'queued'
                    CHECK (state IN ('queued', 'delivered', 'manual')),
    attempts        int NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    last_error      text,
    http_status     int,
    created_at      timestamptz NOT NULL DEFAULT now(),
    delivered_at    timestamptz,
    PRIMARY KEY (operator_id, notification_id)
);
CREATE INDEX table_notifications_due_idx ON table_notifications (next_attempt_at)
    WHERE state = 'queued';
