-- Read models kept in the command's own transaction (read-your-writes), timers, and the
-- test-mode deck. All of them can be dropped and rebuilt from the events.

-- The table aggregate's folded state (msgspec JSON, secrets included): the snapshot the
-- command path loads, and the source of every redacted view. Never served raw.
CREATE TABLE table_states (
    table_id   text PRIMARY KEY,
    version    bigint NOT NULL,
    name       text NOT NULL,
    game       text NOT NULL,
    status     text NOT NULL,
    currency   text NOT NULL,
    state      bytea NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE wallets (
    wallet_id  text PRIMARY KEY,
    currency   text NOT NULL,
    -- The rules refuse overdrafts; this is the backstop.
    balance    bigint NOT NULL CHECK (balance >= 0),
    version    bigint NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- One row per money movement, signed, with the balance after it.
CREATE TABLE ledger (
    global_position bigint PRIMARY KEY,
    wallet_id       text NOT NULL,
    event_type      text NOT NULL,
    amount          bigint NOT NULL,
    reason          text,
    table_id        text,
    round           int,
    box             int,
    transfer_id     text,
    balance_after   bigint NOT NULL,
    recorded_at     timestamptz NOT NULL
);
CREATE INDEX ledger_wallet_idx ON ledger (wallet_id, global_position DESC);
CREATE INDEX ledger_round_idx ON ledger (table_id, round);

-- Time-outs the rules are waiting for; the timer worker sends each one once it is due.
CREATE TABLE timers (
    timer_key  text PRIMARY KEY,
    table_id   text NOT NULL,
    due_at     timestamptz NOT NULL,
    command    jsonb NOT NULL
);
CREATE INDEX timers_due_idx ON timers (due_at);

-- Test mode only: the deck the table's next round is dealt from.
CREATE TABLE test_decks (
    table_id text PRIMARY KEY,
    deck     text[] NOT NULL
);
