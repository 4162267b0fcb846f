-- Operators as tenants, their players' game sessions, and every money call the service
-- makes (or owes) to a seamless operator's wallet (WALLET-PROTOCOL §1–§3, §5).

CREATE TABLE operators (
    operator_id   text PRIMARY KEY,
    name          text NOT NULL,
    currencies    text[] NOT NULL,
    wallet_mode   text NOT NULL CHECK (wallet_mode IN ('internal', 'seamless')),
    wallet_url    text,
    -- The HMAC secret both sides sign with: read only by the wallet adapter, never served.
    wallet_secret text,
    timeout_ms    int CHECK (timeout_ms BETWEEN 100 AND 30000),
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    CHECK (wallet_mode = 'internal'
           OR (wallet_url IS NOT NULL AND wallet_secret IS NOT NULL AND timeout_ms IS NOT NULL))
);

-- The default operator (the single-tenant service, internal wallets) is built in: it has
-- no row, so emptying this table never removes it.

CREATE TABLE game_sessions (
    session_id  text PRIMARY KEY,
    operator_id text NOT NULL,
    player_id   text NOT NULL,          -- the operator's own id for the player
    currency    text NOT NULL,
    table_id    text,
    language    text,
    lobby_url   text,
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    ended_at    timestamptz
);
CREATE INDEX game_sessions_player_idx ON game_sessions (operator_id, player_id, created_at DESC);

-- One row per money call: bets as the command path makes them (intent first), wins and
-- rollbacks as the outbox delivers them. It is the outbox, the recovery log and the
-- operator's reconciliation list at once.
--   bet:           pending → accepted → committed | refused | rolled_back
--   win, rollback: queued → delivered | manual
CREATE TABLE wallet_transactions (
    seq                       bigserial PRIMARY KEY,
    operator_id               text NOT NULL,
    transaction_id            text NOT NULL,
    kind                      text NOT NULL CHECK (kind IN ('bet', 'win', 'rollback')),
    player_id                 text NOT NULL,   -- the operator's own id
    session_id                text NOT NULL,
    currency                  text NOT NULL,
    amount                    bigint NOT NULL CHECK (amount >= 0),
    reason                    text NOT NULL,
    table_id                  text NOT NULL,
    round                     int NOT NULL,
    box                       int NOT NULL,
    round_closed              boolean NOT NULL DEFAULT false,
    reference_transaction_id  text,            -- rollback: the bet it undoes
    reference_transaction_ids text[],          -- win: the round's bets
    command_id                text,            -- bet: the command that made it
    attempt_id                uuid,            -- bet: the attempt of that command
    status                    text NOT NULL CHECK (status IN (
        'pending', 'accepted', 'committed', 'refused', 'rolled_back',
        'queued', 'delivered', 'manual')),
    answer_status             text,            -- the operator's last status, if any
    operator_transaction_id   text,
    balance_after             bigint,
    attempts                  int NOT NULL DEFAULT 0,
    next_attempt_at           timestamptz NOT NULL DEFAULT now(),
    last_error                text,
    created_at                timestamptz NOT NULL DEFAULT now(),
    updated_at                timestamptz NOT NULL DEFAULT now(),
    UNIQUE (operator_id, transaction_id)
);
-- The outbox: each player's calls still owed, in order.
CREATE INDEX wallet_outbox_idx ON wallet_transactions (operator_id, player_id, seq)
    WHERE status = 'queued';
-- Recovery: bets whose command has not finished.
CREATE INDEX wallet_open_bets_idx ON wallet_transactions (attempt_id)
    WHERE status IN ('pending', 'accepted');
CREATE INDEX wallet_transactions_round_idx ON wallet_transactions (table_id, round, operator_id, player_id);
CREATE INDEX wallet_transactions_time_idx ON wallet_transactions (operator_id, created_at, seq);
