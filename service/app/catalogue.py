"""Every problem type the service can answer with, explained once for people and clients.

RFC 9457 means a problem's ``type`` to resolve to documentation. This catalogue is that
documentation: ``GET /problems/{code}`` serves an entry, ``docs/problems.md`` is rendered
from it, and the OpenAPI document's examples come from it. The rules' refusals take their
status and message from the rules themselves (``REFUSALS``, ``STATUS_OF_KIND``), so a new
refusal appears here with a default explanation; a test fails when a code raised anywhere in
``service/`` has no entry.

:mod:`service.app.problems_doc` renders it as ``docs/problems.md``.
"""

from __future__ import annotations

from typing import Final

import msgspec

from russian_poker.service.rules.errors import REFUSALS, RefusalKind

__all__ = ["CATALOGUE", "IDEMPOTENCY", "STATUS_OF_KIND", "Entry", "by_status", "problem_type"]

STATUS_OF_KIND: Final = {"forbidden": 403, "not_found": 404, "conflict": 409, "invalid": 422}
"""The HTTP status of each kind of the rules' refusals."""


def problem_type(code: str) -> str:
    return f"/problems/{code}"


class Entry(msgspec.Struct, frozen=True, kw_only=True):
    """One problem type: what ``GET /problems/{code}`` answers with ``Accept: application/json``."""

    code: str
    type: str
    status: int
    title: str
    when: str
    """When the service answers with it."""
    action: str
    """What the client should do about it."""
    example: str
    """A ``detail`` such a response may carry."""


IDEMPOTENCY: Final = (
    "A table command refused by the rules is remembered under its `Idempotency-Key`: a"
    " retry with the same key gets the same refusal again, with the response header"
    " `Idempotent-Replayed: true`, even if the table has moved on since. To try again after"
    " changing something (the bet, the box, the balance, or simply waiting for your turn),"
    " send a new key."
)

_KIND_WHEN: Final[dict[RefusalKind, str]] = {
    "forbidden": "The rules refuse the command for who sent it.",
    "not_found": "The command names something that does not exist at this table.",
    "conflict": "The rules refuse the command in the table's or round's current state.",
    "invalid": "The command's values are outside what the rules or the table allow.",
}

# What to do about each rules refusal. A code missing here still gets an entry (from its
# kind); the completeness test keeps the list in step with the rules.
_RULE_ACTIONS: Final = {
    "wrong_role": "Send this command with a token of the role it is for (players play,"
    " operators open and close tables).",
    "not_your_box": "Act only on your own boxes; the table view lists which are yours.",
    "table_private": "The table is reserved for other players; choose another from the lobby.",
    "no_such_box": "Name a box you have a bet on in the current round.",
    "no_such_seat": "Name a seat number the table has (see the table's ruleset).",
    "no_wallet": "Ask the operator to open a wallet for the player first.",
    "table_not_open": "The table is closed; wait for the operator to reopen it or choose another.",
    "table_already_opened": "Choose another table id; the existing table keeps its ruleset.",
    "table_not_closed": "Close the table before reopening it.",
    "round_in_progress": "Wait until the round is settled (follow the table's stream).",
    "round_not_finished": "Wait until the current round is settled.",
    "ruleset_locked": "Change the ruleset between rounds: once the round in play is settled,"
    " before anyone bets in the next (or close the table first, then change it).",
    "ruleset_change_invalid": "Keep the table's currency and number of boxes; open another"
    " table for a different currency or layout.",
    "not_seated": "Send `SitDown` first.",
    "already_seated": "Nothing to do: you have a seat.",
    "seat_taken": "Choose another seat, or send `SitDown` without one.",
    "table_full": "Wait for a seat to free up or choose another table.",
    "boxes_in_play": "Wait until your boxes are settled before leaving.",
    "betting_closed": "Wait for the next round to bet.",
    "box_taken": "Choose another box.",
    "light_box_limit": "Place this box dark, or fewer light boxes.",
    "bets_final": "Your bets stay as they are for this round.",
    "no_bets": "Place an ante before asking for the deal.",
    "no_previous_bets": "Place the bets yourself; there is no previous round to repeat.",
    "deal_already_requested": "Nothing to do: wait for the deal.",
    "out_of_turn": "Wait until the table view shows it is this box's turn.",
    "already_decided": "Nothing to do: the box's decision stands.",
    "dark_box": "Nothing to do: a dark box plays by itself.",
    "draw_already_used": "The box may not draw again; decide to play or fold.",
    "not_deciding": "Wait for the decisions phase of the round.",
    "no_dealer_draw": "Decide to play or fold instead.",
    "stale_timeout": "Nothing to do: the timer was overtaken by another move.",
    "insufficient_funds": "Bet less, or have the operator deposit into the wallet. With a"
    " seamless wallet the problem's `balance` is the balance the operator reported.",
    "wrong_operator": "Sit at a table of your own operator, or at a shared table.",
    "session_ended": "Ask the operator's platform to launch a new game session.",
    "session_required": "Play with the token of a session the operator launched"
    " (`POST /v1/sessions`); a development token without one reaches no operator's wallet.",
    "session_invalid": "Play with the token the session's launch gave this player; launch a"
    " new session if it is lost.",
    "player_blocked": "The operator has blocked the player; they must contact the operator.",
    "limit_reached": "The operator's responsible-gaming limit is reached; bet less or later.",
    "ante_out_of_range": "Bet within the table's ante limits (see its ruleset).",
    "bonus_out_of_range": "Bet the bonus within the table's limits, or none.",
    "bonus_not_offered": "Leave the bonus out at this table.",
    "client_seeds_not_accepted": "Leave `client_seed` out: this table's ruleset has"
    " `player_seeds` off.",
    "invalid_client_seed": "Send 1 to 64 printable ASCII characters (0x20..0x7E) as"
    " `client_seed`, or leave it out.",
    "sixth_card_not_allowed": "Decide without a sixth card at this table.",
    "exchange_not_allowed": "Exchange only as many cards of your own hand as the table"
    " allows, once.",
    "insurance_not_allowed": "Play without insurance on this hand.",
    "insurance_out_of_range": "Insure for an amount within the table's limits.",
    "currency_mismatch": "Play with a wallet in the table's currency.",
    "invalid_currency": "Use a three-letter ISO 4217 code such as `EUR`.",
    "invalid_amount": "Send a positive integer of minor units (cents).",
    "wallet_exists": "Use the existing wallet, or choose another wallet id.",
    "invalid_deck": "Name distinct cards of the 52 (`As`, `Td`, `2c`), top of the deck first"
    " (docs/test-mode.md).",
}


def _entry(code: str, status: int, title: str, when: str, action: str, example: str) -> Entry:
    return Entry(
        code=code,
        type=problem_type(code),
        status=status,
        title=title,
        when=when,
        action=action,
        example=example,
    )


def _rules() -> list[Entry]:
    entries = []
    for code, (kind, message) in REFUSALS.items():
        action = _RULE_ACTIONS.get(code, "Change the command, then send it with a new key.")
        entries.append(
            _entry(
                code,
                STATUS_OF_KIND[kind],
                message[0].upper() + message[1:],
                f"{_KIND_WHEN[kind]} The detail says: {message}. Nothing changed.",
                f"{action} {IDEMPOTENCY}",
                message,
            )
        )
    return entries


_HTTP: Final = [
    _entry(
        "bad_request",
        400,
        "Bad request",
        "The request is malformed: the JSON body does not decode or does not match the"
        " operation's schema, or a path, query or header parameter is not valid. `errors`"
        " names the fields at fault.",
        "Fix the request as `errors` says; the OpenAPI document at `/schema` has every"
        " operation's schema. Retrying unchanged gets the same answer.",
        "Validation failed for POST /v1/tables/t1/commands",
    ),
    _entry(
        "unauthorized",
        401,
        "Unauthorized",
        "No `Authorization: Bearer` token, or one that is expired, forged, signed with"
        " another secret or missing a claim.",
        "Get a fresh token from the operator's token service and send it as"
        " `Authorization: Bearer <token>`.",
        "a bearer token is required: send the header `Authorization: Bearer <token>`",
    ),
    _entry(
        "forbidden",
        403,
        "Forbidden",
        "The token is valid but its role or player may not do this: a player reading"
        " another player's wallet, a player calling an operator route, an operator"
        " scripting a deck with test mode off.",
        "Use a token of the role the operation names; a player acts only for itself.",
        "this needs the operator role",
    ),
    _entry(
        "not_found",
        404,
        "Not found",
        "No such route, table, wallet, round or problem type.",
        "Check the id; tables and wallets are created by the operator first.",
        "no table t9",
    ),
    _entry(
        "method_not_allowed",
        405,
        "Method not allowed",
        "The route exists but not with this HTTP method.",
        "Use the method the OpenAPI document gives for the route.",
        "Method Not Allowed",
    ),
    _entry(
        "body_too_large",
        413,
        "Body too large",
        "The request body is larger than 64 KiB.",
        "Send a smaller body; no command needs more.",
        "Request Entity Too Large",
    ),
    _entry(
        "unsupported_media_type",
        415,
        "Unsupported media type",
        "The body is not JSON: the request's `Content-Type` is another media type.",
        "Send the body as JSON with `Content-Type: application/json`.",
        "the body must be JSON (Content-Type: application/json)",
    ),
    _entry(
        "rate_limited",
        429,
        "Too many requests",
        "This player (or, without a valid token, this address) sent more requests per"
        " second than the instance allows.",
        "Slow down: wait the seconds in `Retry-After` (see also the `RateLimit-*` headers)"
        " before sending again. A command that was refused this way was not seen, so it may"
        " be retried with the same `Idempotency-Key`.",
        "Rate limit exceeded",
    ),
    _entry(
        "unavailable",
        503,
        "Service unavailable",
        "The database is unreachable or out of connections. Whether a command in flight"
        " was committed is unknown to the client.",
        "Retry after `Retry-After` seconds with the same `Idempotency-Key` (or"
        " `transfer_id`): if the command had committed, the retry returns its result"
        " instead of applying it twice.",
        "the database is unavailable; retry shortly",
    ),
    _entry(
        "http_error",
        500,
        "HTTP error",
        "Any other HTTP error, with the status it names, such as 500 for a fault in the"
        " service itself. Such a fault is logged with the response's `X-Request-ID`.",
        "Retry later with the same `Idempotency-Key`; if it persists, report the"
        " `X-Request-ID` to the operator.",
        "Internal Server Error",
    ),
]

_SERVICE: Final = [
    _entry(
        "body_required",
        400,
        "Body required",
        "The operation needs a JSON body and the request has none (or an empty one). The"
        " detail names the fields expected.",
        "Send the JSON body the detail and the OpenAPI document describe.",
        'a JSON body is required: {"type": ...}',
    ),
    _entry(
        "malformed_body",
        400,
        "Malformed body",
        "The JSON body nests so deeply that it cannot be decoded safely.",
        "Send the flat body the operation's schema describes.",
        "the JSON body nests too deeply",
    ),
    _entry(
        "invalid_value",
        400,
        "Invalid value",
        "A value cannot be stored: a number past its column's range, or text containing"
        " a NUL character.",
        "Send values within the schema's ranges and text without NUL characters.",
        "a value is out of range or not valid text (no NUL characters)",
    ),
    _entry(
        "invalid_table_id",
        400,
        "Invalid table id",
        "A new table's `table_id` is not 1-64 ASCII letters, digits, `-` and `_` starting"
        " with a letter or digit (an operator may prefix its own `operator.`).",
        "Choose an id of that alphabet. An operator's table is opened as"
        " `operator.table_id`, in the operator's own namespace.",
        "table_id: 1-64 ASCII letters, digits, '-' and '_', starting with a letter or digit",
    ),
    _entry(
        "invalid_if_match",
        400,
        "Invalid If-Match",
        "The `If-Match` header of a command is not a table version number.",
        'Send the table\'s `version` from its latest view, e.g. `If-Match: "12"`, or no'
        " `If-Match` at all.",
        'If-Match: the table\'s version number, e.g. "12"',
    ),
    _entry(
        "version_mismatch",
        412,
        "Version mismatch",
        "The command's `If-Match` names a table version that is no longer current:"
        " something happened at the table since the client last looked. `current_version`"
        " gives the table's version now. The command was not applied.",
        "Fetch the table (or follow its stream), decide again on what it shows, and send"
        " the command with the new version and a new `Idempotency-Key`.",
        "the table is at version 14, not 12",
    ),
    _entry(
        "idempotency_key_required",
        428,
        "Idempotency-Key required",
        "A table command came without an `Idempotency-Key` header.",
        "Send every command with a key unique to it (a UUID): a retry of the same command"
        " with the same key is then applied at most once. " + IDEMPOTENCY,
        "an Idempotency-Key header is required",
    ),
    _entry(
        "idempotency_key_reused",
        422,
        "Idempotency key reused",
        "The `Idempotency-Key` was used before by this player for a different command or"
        " a different body. Keys identify one command: the earlier one's answer stands.",
        "Send the new command with a new key. Reuse a key only to retry exactly the same"
        " command. " + IDEMPOTENCY,
        "this idempotency key was used for a different command",
    ),
    _entry(
        "transfer_id_reused",
        409,
        "Transfer id reused",
        "A deposit or withdrawal reuses a `transfer_id` that an earlier transfer with a"
        " different wallet or amount already has. A retry of the same transfer is not"
        " refused: it returns the earlier result.",
        "Give every new transfer a new `transfer_id`; reuse one only to retry exactly"
        " the same transfer.",
        "transfer dep-1 was a deposit of 100000",
    ),
    _entry(
        "wallet_unavailable",
        503,
        "Operator wallet unavailable",
        "A seamless operator's wallet did not confirm a bet of the command (a time-out, a"
        " dropped connection, an error or an unreadable answer). The service rolled the"
        " command's bets back and recorded nothing; the refusal is not remembered under the"
        " `Idempotency-Key` (docs/wallet-protocol.md §3.2).",
        "Send the same command again after `Retry-After` seconds; it is a new attempt with"
        " new transaction ids, and the key still works.",
        "the operator's wallet did not confirm the bet; it was rolled back and nothing was"
        " recorded: send the command again",
    ),
    _entry(
        "invalid_operator",
        422,
        "Invalid operator",
        "An operator's registration breaks docs/wallet-protocol.md §1: its id, name, currencies,"
        " or wallet (mode, URL, secret, time-out; plain http in production to a non-loopback"
        " host).",
        "Fix the field the detail names and register again.",
        "wallet.url: https is required in production (http only to loopback)",
    ),
    _entry(
        "operator_exists",
        409,
        "Operator exists",
        "`POST /v1/operators` names an operator that is registered already.",
        "Update it with `PUT /v1/operators/{id}`, or choose another id.",
        "operator 'acme' is registered already",
    ),
    _entry(
        "invalid_player_id",
        422,
        "Invalid player id",
        "A player id (a session's or a wallet's) is not 1-128 ASCII letters, digits, `.`,"
        " `_`, `@` and `-` starting with a letter or digit. Ids go into paths and the"
        " game's namespaced ids (`operator:player`), and must read the same everywhere: no"
        " `:`, no letters of other scripts that look like Latin ones, nothing invisible.",
        "Use the operator's id for the player in that alphabet (map other ids to it).",
        "player_id: 1-128 ASCII letters, digits, '.', '_', '@' and '-', starting with a letter"
        " or digit",
    ),
    _entry(
        "invalid_credential",
        422,
        "Invalid credential",
        "An API key is asked for with an expiry that is not a future time with its zone.",
        "Give `expires_at` as an ISO 8601 time in the future with its offset, or leave it"
        " out for a key that does not expire.",
        "expires_at: a time in the future, with its zone",
    ),
    _entry(
        "currency_not_allowed",
        422,
        "Currency not allowed",
        "A session is launched in a currency the operator is not registered for.",
        "Launch it in one of the operator's currencies, or have an admin add the currency.",
        "currency: the operator plays in EUR",
    ),
    _entry(
        "seamless_operator",
        409,
        "Seamless operator",
        "An internal wallet is asked for by an operator whose wallet is seamless: its"
        " players' money stays at the operator and the game keeps no wallet for them.",
        "Launch sessions and let the game call your wallet; see docs/integration.md.",
        "this operator's wallet is seamless: the game keeps no wallets for its players",
    ),
    _entry(
        "busy",
        503,
        "Table busy",
        "The table's (or wallet's) commands kept losing the race to commit to other"
        " commands on it, more times than the service retries. Nothing was applied.",
        "Retry after `Retry-After` seconds with the same `Idempotency-Key`.",
        "table t1 is too busy; try again",
    ),
    _entry(
        "invalid_ruleset",
        422,
        "Invalid ruleset",
        "A new table's preset is unknown, or the overrides make no playable ruleset (a value"
        " out of its range, or at odds with another); an override that is not a ruleset"
        " parameter, or of the wrong type, is a 400 naming it. The detail names the"
        " parameter.",
        "Fix the parameter the detail names; `docs/rules-decisions.md` lists them.",
        "unknown preset 'poker'; choose one of russian, russian-online, oasis",
    ),
    _entry(
        "invalid_cards",
        422,
        "Invalid card names",
        "An `Exchange` names a card in another notation than the API's: a card is exactly a"
        " rank of `23456789TJQKA` then a suit of `shdc` (`As`, `Td`, `2c`); `AS`, `as`,"
        " `10s`, `A♠` and names with spaces are not cards.",
        "Send the cards exactly as the table view shows them.",
        "not a card: '10s'; a card is a rank of 23456789TJQKA then a suit of shdc, e.g. As, Td, 2c",
    ),
    _entry(
        "invalid_cursor",
        422,
        "Invalid cursor",
        "A list's `cursor` is not one that list gave out (every paged list takes back only"
        " its own `next_cursor`, an opaque string).",
        "Pass back the previous page's `next_cursor` exactly, or no `cursor` for the first page.",
        "not a cursor of this list: 'x'; pass back a `next_cursor` exactly",
    ),
    _entry(
        "invalid_round_id",
        400,
        "Invalid round id",
        "A `round_id` filter is not a round as the wallet calls name it: a table id, a `:`"
        " and the round's number.",
        "Send it as `table:round`, e.g. `t1:42`, or leave it out.",
        "round_id: 't1-42' is not `table:round`, e.g. t1:42",
    ),
    _entry(
        "invalid_window",
        422,
        "Invalid window",
        "A report's or listing's `from` is not before its `to`, or the window is longer than"
        " a report covers in one request (366 days for the daily report).",
        "Give `from` before `to` (a day report's `from` on or before its `to`), and split"
        " long windows into several requests.",
        "from: must be before to",
    ),
    _entry(
        "invalid_replay_request",
        422,
        "Invalid replay request",
        "A replay request gives a table without a round number or the other way round.",
        "Give `table_id` and `round` together, or a `from`/`to` time range.",
        "give table_id and round together, or a from/to range",
    ),
]

CATALOGUE: Final[dict[str, Entry]] = {
    entry.code: entry for entry in sorted(_HTTP + _SERVICE + _rules(), key=lambda e: e.code)
}
"""Every problem type by code, in code order."""


def by_status(status: int) -> list[Entry]:
    """The entries answered with ``status``, for the OpenAPI examples of that status."""
    return [entry for entry in CATALOGUE.values() if entry.status == status]
