"""The ``russian-poker`` command.

Every subcommand is imported when it runs, not before (:mod:`.lazy`): the summaries below
are what ``--help`` shows. The offline tools (``tools=True``) live in
:mod:`russian_poker.service.tools` and need the ``tools`` extra.
"""

from __future__ import annotations

from typing import Final

from russian_poker.service.cli.lazy import Lazy, LazyGroup

__all__ = ["COMMANDS", "main"]

_CLI: Final = "russian_poker.service.cli"
_TOOLS: Final = "russian_poker.service.tools"

COMMANDS: Final = {
    "audit": Lazy(
        f"{_CLI}.audit_commands:audit",
        "Integrity and certification: the event chain, software digests, exports.",
    ),
    "db": Lazy(
        f"{_CLI}.db:db_group",
        "The embedded PostgreSQL of the data directory (used when DATABASE_URL is unset).",
    ),
    "demo": Lazy(
        f"{_TOOLS}.demo:demo",
        "Bots play --rounds rounds on --tables new tables through a running service's API.",
        tools=True,
    ),
    "evaluate": Lazy(
        f"{_CLI}.evaluate:evaluate",
        "Evaluate HAND (e.g. ``As Kd 8h 8c 9s``), or one hand per line from stdin.",
    ),
    "migrate": Lazy(
        f"{_CLI}.maintenance:migrate_command",
        "Apply pending migrations to DATABASE_URL (or the embedded database).",
    ),
    "openapi": Lazy(
        f"{_CLI}.maintenance:openapi_command",
        "Write (or --check) the OpenAPI documents generated from the code: the service's API"
        " and the wallet API operators implement.",
    ),
    "projections": Lazy(f"{_CLI}.audit:projections_group", "Read models built from the events."),
    "reconcile": Lazy(
        f"{_CLI}.audit:reconcile_command",
        "Reconcile wallet events, round events and balances, to the unit.",
    ),
    "reference-wallet": Lazy(
        f"{_TOOLS}.reference_wallet.command:reference_wallet",
        "Run the reference operator wallet: POST /wallet/{balance,bet,win,rollback}.",
        tools=True,
    ),
    "replay": Lazy(
        f"{_CLI}.audit:replay_command",
        "Replay settled rounds through the rules and report every difference.",
    ),
    "rng-report": Lazy(
        f"{_TOOLS}.rng.command:rng_report",
        "Shuffle N decks with the production shuffle and test them at 99 % confidence.",
        tools=True,
    ),
    "rtp-theory": Lazy(
        f"{_TOOLS}.theory:rtp_theory",
        "Simulate the theoretical RTP of custom rulesets and store it for the server.",
        tools=True,
    ),
    "serve": Lazy(
        f"{_CLI}.serve:serve",
        "Run the HTTP service (embedded PostgreSQL unless DATABASE_URL is set).",
    ),
    "simulate": Lazy(
        f"{_TOOLS}.simulation.command:simulate",
        "Play N rounds of one light box against the dealer by the production rules and report"
        " the house edge, element of risk, RTP, standard deviation and frequencies, with 95%"
        " confidence intervals. Progress goes to stderr.",
        tools=True,
    ),
    "token": Lazy(
        f"{_CLI}.token:token", "Print a bearer token signed with the same secret ``serve`` uses."
    ),
    "verify": Lazy(
        f"{_CLI}.verify:verify_command",
        "Check a round's cards against its seeds: the commitment, the deck key from the server"
        " seed and the client seeds, every card dealt, each sixth card and exchange, the"
        " dealer's replacements (docs/fairness.md). Exits 1 on a mismatch.",
    ),
    "wallet-check": Lazy(
        f"{_TOOLS}.conformance.command:wallet_check",
        "Run the wallet protocol's conformance scenarios against an operator's wallet.",
        tools=True,
    ),
}


main = LazyGroup(
    name="russian-poker",
    lazy=COMMANDS,
    help="Russian Poker and Oasis Poker: an event-sourced casino game backend.",
    context_settings={"help_option_names": ["-h", "--help"]},
)
