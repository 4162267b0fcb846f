"""Refusals: typed domain errors with stable codes. A refused command changes nothing."""

from __future__ import annotations

from typing import Final, Literal

__all__ = ["REFUSALS", "RefusalKind", "RuleViolation"]

RefusalKind = Literal["forbidden", "not_found", "conflict", "invalid"]
"""How a refusal maps onto HTTP: 403, 404, 409 and 422."""

REFUSALS: Final[dict[str, tuple[RefusalKind, str]]] = {
    # who may do it
    "wrong_role": ("forbidden", "this command is not for your role"),
    "not_your_box": ("forbidden", "the box belongs to another player"),
    "table_private": ("forbidden", "the table is private"),
    "wrong_operator": ("forbidden", "the table belongs to another operator"),
    "session_ended": ("forbidden", "the game session has ended"),
    "session_required": (
        "forbidden",
        "a seamless operator's player plays with a launched session's token",
    ),
    "session_invalid": ("forbidden", "the token's session is not this player's"),
    "player_blocked": ("forbidden", "the operator has blocked the player"),
    "limit_reached": ("conflict", "the operator's limit for the player is reached"),
    # what it names
    "no_such_box": ("not_found", "no such box in this round"),
    "no_such_seat": ("not_found", "no such seat"),
    "no_wallet": ("not_found", "the player has no wallet"),
    # the table's or round's state
    "table_not_open": ("conflict", "the table is not open"),
    "table_already_opened": ("conflict", "the table exists already"),
    "table_not_closed": ("conflict", "the table is not closed"),
    "round_in_progress": ("conflict", "a round is being played"),
    "round_not_finished": ("conflict", "the current round is not settled"),
    "ruleset_locked": (
        "conflict",
        "the ruleset changes only between rounds: no round in play and no bet placed",
    ),
    "not_seated": ("conflict", "take a seat first"),
    "already_seated": ("conflict", "you are seated already"),
    "seat_taken": ("conflict", "the seat is taken"),
    "table_full": ("conflict", "no free seat"),
    "boxes_in_play": ("conflict", "you have boxes in play"),
    "betting_closed": ("conflict", "bets are closed for this round"),
    "box_taken": ("conflict", "the box is taken this round"),
    "light_box_limit": ("conflict", "too many light boxes; place this one dark"),
    "bets_final": ("conflict", "you asked for the deal; your bets are final"),
    "no_bets": ("conflict", "no bets placed"),
    "no_previous_bets": ("conflict", "nothing to repeat"),
    "deal_already_requested": ("conflict", "you asked for the deal already"),
    "out_of_turn": ("conflict", "not this box's turn"),
    "already_decided": ("conflict", "the box has decided"),
    "dark_box": ("conflict", "a dark box plays automatically"),
    "draw_already_used": ("conflict", "the box has drawn already"),
    "not_deciding": ("conflict", "no decisions are being taken"),
    "no_dealer_draw": ("conflict", "no dealer draw is on offer for this box"),
    "stale_timeout": ("conflict", "the timer no longer applies"),
    "insufficient_funds": ("conflict", "the balance is too low"),
    # the command's values
    "ante_out_of_range": ("invalid", "ante outside the table limits"),
    "bonus_out_of_range": ("invalid", "bonus outside the table limits"),
    "bonus_not_offered": ("invalid", "the table offers no bonus bet"),
    "client_seeds_not_accepted": ("invalid", "the table takes no client seeds"),
    "invalid_client_seed": ("invalid", "a client seed is 1..64 printable ASCII characters"),
    "sixth_card_not_allowed": ("invalid", "this table sells no sixth card"),
    "exchange_not_allowed": ("invalid", "this exchange is not allowed"),
    "insurance_not_allowed": ("invalid", "insurance is not allowed on this hand"),
    "insurance_out_of_range": ("invalid", "insurance amount out of range"),
    "currency_mismatch": ("invalid", "the wallet's currency is not the table's"),
    "invalid_currency": ("invalid", "a currency is a three-letter ISO 4217 code"),
    "invalid_amount": ("invalid", "an amount is a positive integer of minor units"),
    "invalid_deck": ("invalid", "a deck names distinct cards of the 52"),
    "ruleset_change_invalid": (
        "invalid",
        "a ruleset change keeps the table's currency and number of boxes",
    ),
    "wallet_exists": ("conflict", "the wallet exists already"),
}


class RuleViolation(Exception):
    """A command the rules refuse. ``code`` is stable (clients switch on it); ``message``
    explains it to a person and never mentions a hidden card or the deck."""

    def __init__(self, code: str, message: str | None = None) -> None:
        if code not in REFUSALS:
            raise KeyError(f"unknown refusal code {code!r}")
        self.code = code
        self.kind: RefusalKind = REFUSALS[code][0]
        self.message = message or REFUSALS[code][1]
        super().__init__(f"{code}: {self.message}")
