-- The theoretical main-wager RTP of rulesets other than the presets (docs/audit.md, "RTP
-- monitoring"), by ruleset fingerprint: simulated offline by `russian-poker rtp-theory` (the
-- tools extra) and only read by the server, which no longer simulates anything itself. A
-- fingerprint names one ruleset and paytable for good, so a row never goes stale; a rerun
-- with more rounds replaces it.
CREATE TABLE ruleset_theory (
    fingerprint text PRIMARY KEY,
    strategy    text NOT NULL,
    rounds      bigint NOT NULL CHECK (rounds > 0),
    seed        bigint NOT NULL,
    rtp         double precision NOT NULL,
    ci95_low    double precision NOT NULL,
    ci95_high   double precision NOT NULL,
    computed_at timestamptz NOT NULL DEFAULT now()
);
