"""Read models built from the events: table views, wallet balances and ledgers, the audit
trail. Every one of them can be dropped and rebuilt from the events."""
