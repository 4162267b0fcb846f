-- Settled rounds and their boxes, written in the settling command's own transaction: game
-- recall ("my last 10 rounds") and the operator's per-round and per-player reports.
CREATE TABLE rounds (
    table_id     text NOT NULL,
    round        int NOT NULL,
    settled_at   timestamptz NOT NULL DEFAULT now(),
    commitment   text NOT NULL,
    seed         text NOT NULL,
    dealer_cards text[] NOT NULL,
    dealer_hand  text,
    staked       bigint NOT NULL,
    paid_back    bigint NOT NULL,
    players      text[] NOT NULL,
    PRIMARY KEY (table_id, round)
);
CREATE INDEX rounds_settled_idx ON rounds (settled_at);

CREATE TABLE round_boxes (
    table_id   text NOT NULL,
    round      int NOT NULL,
    box        int NOT NULL,
    player     text NOT NULL,
    settled_at timestamptz NOT NULL DEFAULT now(),
    detail     jsonb NOT NULL,
    staked     bigint NOT NULL,
    paid_back  bigint NOT NULL,
    PRIMARY KEY (table_id, round, box)
);
CREATE INDEX round_boxes_player_idx ON round_boxes (player, settled_at DESC);
