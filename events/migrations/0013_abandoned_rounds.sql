-- Rounds completed by the rules' defaults after no activity for `abandoned_round_after_s`
-- (docs/rules-decisions.md, "Interrupted rounds"): written in the settling command's own
-- statement beside its `rounds` row, so the player's recall and the operator's report say
-- why the round ended as it did. A round played to its end has no row here.
CREATE TABLE abandoned_rounds (
    table_id text NOT NULL,
    round    int NOT NULL,
    reason   text NOT NULL,
    after_s  int NOT NULL,
    phase    text NOT NULL,
    PRIMARY KEY (table_id, round)
);
