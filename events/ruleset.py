"""The ruleset: every rule that real casinos vary, as one typed, validated value.

A table is opened with a fully resolved ruleset, and the ``TableOpened`` event carries it, so
a round replays under exactly the rules it was played with, whatever the presets say later.
"""

from __future__ import annotations

import hashlib
from typing import Annotated, Final, Literal, cast

import msgspec

from russian_poker.events.paytables import (
    CATEGORY_LABELS,
    DEFAULT_BET_PAYTABLE,
    DEFAULT_BONUS_PAYTABLE,
    BonusThreshold,
    CategoryLabel,
)

__all__ = ["ABANDONED_MAX_S", "ABANDONED_MIN_S", "Game", "Ruleset"]

_DECK_SIZE: Final = 52
_MAX_AMOUNT: Final = 10**12
"""No stake or limit above this: keeps every sum of a round far inside a PostgreSQL bigint."""
ABANDONED_MIN_S: Final = 3600
"""The shortest ``abandoned_round_after_s``: an hour, so a dropped connection or a restart
never calls a round off, and never less than the rules' own time-outs (at most an hour)."""
ABANDONED_MAX_S: Final = 30 * 86_400
"""The longest ``abandoned_round_after_s``: 30 days; stakes are not left on a table longer."""


def _rank(label: str) -> int:
    return CATEGORY_LABELS.index(cast(CategoryLabel, label))


Game = Literal["russian", "oasis"]
"""The games the engine plays; every rule that differs between them is a parameter."""


class Ruleset(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Every parameter of the rules (docs/rules.md). Defaults are the ``russian`` (land casino)
    preset.

    Amounts are integers in minor units of ``currency``; never floats.
    """

    game: Annotated[
        Game,
        msgspec.Meta(
            description=(
                "The game's name in the lobby (`russian` or `oasis`); behaviour comes"
                " only from the parameters below. Default `russian`."
            )
        ),
    ] = "russian"
    currency: Annotated[
        str,
        msgspec.Meta(
            description=(
                "ISO 4217 code of the table's currency (three capital letters); every"
                " amount is in its minor units. Default `EUR`."
            )
        ),
    ] = "EUR"
    boxes: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Number of boxes at the table, 1..10 (and no more than one 52-card "
                "deck can serve). Default 4 (Russian); Oasis uses 6."
            )
        ),
    ] = 4
    light_boxes_per_player: Annotated[
        int,
        msgspec.Meta(
            description=(
                "How many of a player's boxes are played light (open: the player sees"
                " the cards and decides), 1..`boxes`; the rest are dark (the Bet is "
                "placed with the ante and the box plays automatically). Default 2 "
                "(land casino); the online preset plays all 4 light."
            )
        ),
    ] = 2
    ante_min: Annotated[
        int,
        msgspec.Meta(
            description="Lowest ante per box in minor units of the table's currency. Default 100."
        ),
    ] = 100
    ante_max: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Highest ante per box in minor units of the table's currency, at "
                "least `ante_min`. Default 10000."
            )
        ),
    ] = 10_000
    bonus_enabled: Annotated[
        bool,
        msgspec.Meta(
            description=(
                "Whether boxes may place the bonus bet, paid on the first five cards "
                "by `bonus_paytable`. Default true."
            )
        ),
    ] = True
    bonus_min: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Lowest bonus bet per box in minor units of the table's currency. Default 100."
            )
        ),
    ] = 100
    bonus_max: Annotated[
        int | None,
        msgspec.Meta(
            description=(
                "Highest bonus bet per box in minor units of the table's currency; "
                "null (the default) resolves to `ante_max / 10`, rounded down, so a "
                "resolved ruleset always names it."
            )
        ),
    ] = None
    max_payout: Annotated[
        int | None,
        msgspec.Meta(
            description=(
                "Cap, per box and round, on the winnings of the main wager (Bet + "
                "ante + insurance) and, separately, on the winnings of the bonus, in "
                "minor units of the table's currency; null (the default) means no "
                "cap."
            )
        ),
    ] = None
    double_combination: Annotated[
        bool,
        msgspec.Meta(
            description=(
                "Pay the Bet for two combinations of a hand when it beats a "
                "qualifying dealer (docs/rules.md §3, Russian Poker). Default true."
            )
        ),
    ] = True
    straight_pair_counts_as_two_straights: Annotated[
        bool,
        msgspec.Meta(
            description=(
                "A six-card straight with a paired card (`Kh Qs Jd Tc 9h 9s`) is paid"
                " as two straights rather than straight + pair. Default true."
            )
        ),
    ] = True
    buy_sixth_card: Annotated[
        bool,
        msgspec.Meta(
            description=(
                "A light box may buy a sixth card (its one draw) for "
                "`sixth_card_fee_antes`; the hand is then the best five of six. "
                "Default true (Russian)."
            )
        ),
    ] = True
    max_exchange_cards: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Most cards a light box may exchange in its one draw, 0..5 (0: no "
                "exchange). Default 5 (Russian); Oasis uses 1."
            )
        ),
    ] = 5
    draw_fee_antes: Annotated[
        tuple[int, ...],
        msgspec.Meta(
            description=(
                "Exchange fee in antes for exchanging 1, 2, 3, 4 or 5 cards: five "
                "entries, each 0..100. Default one ante whatever the count; Oasis may"
                " use a schedule."
            )
        ),
    ] = (1, 1, 1, 1, 1)
    sixth_card_fee_antes: Annotated[
        int, msgspec.Meta(description="Fee for buying a sixth card, in antes, 0..100. Default 1.")
    ] = 1
    discards_return_to_deck: Annotated[
        bool,
        msgspec.Meta(
            description=(
                "Exchanged cards go back into the undealt deck at random places "
                "before the replacements are drawn, so a discard can come back. "
                "Default true; false sets them aside."
            )
        ),
    ] = True
    insurance_min_hand: Annotated[
        CategoryLabel | None,
        msgspec.Meta(
            description=(
                "Lowest hand a box may insure (a pair or better); null turns "
                "insurance off. Default `three_of_a_kind`; Oasis may require a "
                "straight."
            )
        ),
    ] = "three_of_a_kind"
    insurance_max: Annotated[
        Literal["payout", "half_payout"],
        msgspec.Meta(
            description=(
                "Most insurance a box may take: `payout`, what the Bet would win on "
                "the current hand, or `half_payout`, half of that; the least is one "
                "ante. Default `payout`."
            )
        ),
    ] = "payout"
    ante_pays_on_win: Annotated[
        bool,
        msgspec.Meta(
            description=(
                "When the player beats a qualifying dealer the ante is paid 1:1 "
                "(Oasis) instead of returned (Russian). Default false."
            )
        ),
    ] = False
    dealer_draw: Annotated[
        bool,
        msgspec.Meta(
            description=(
                "When the dealer has no game, each light box still in play may "
                "request a dealer draw (the dealer's highest card replaced) instead "
                "of taking the ante win; the ante is its fee. Default true (Russian);"
                " false settles every box as no game (ante 1:1, Bet returned)."
            )
        ),
    ] = True
    dealer_redraw_limit: Annotated[
        int | None,
        msgspec.Meta(
            description=(
                "How many free redraws follow the dealer draw when the new card has "
                "the same rank as the replaced one and the dealer still has no game, "
                "0..100; null (the default) is unlimited."
            )
        ),
    ] = None
    insurance_returned_after_dealer_draw: Annotated[
        bool,
        msgspec.Meta(
            description=(
                "Return insurance instead of losing it when a dealer draw gave the "
                "dealer a game. Default false."
            )
        ),
    ] = False
    bonus_min_hand: Annotated[
        BonusThreshold,
        msgspec.Meta(
            description=(
                "Lowest first-five-card hand the bonus pays: a category, or "
                "`three_aces` (three aces or better). Default `three_of_a_kind`; the "
                "online preset uses `three_aces`."
            )
        ),
    ] = "three_of_a_kind"
    bet_paytable: Annotated[
        dict[CategoryLabel, int],
        msgspec.Meta(
            description=(
                "What the Bet pays per combination, as a multiple of the Bet (N to 1,"
                " 0..100000), for every combination from `ak` to `royal_flush`. "
                "Default docs/rules.md §6: ak 1, pair 1, two_pair 2, three_of_a_kind 3, "
                "straight 4, flush 5, full_house 7, four_of_a_kind 20, straight_flush"
                " 50, royal_flush 100."
            )
        ),
    ] = msgspec.field(default_factory=lambda: dict(DEFAULT_BET_PAYTABLE))
    bonus_paytable: Annotated[
        dict[CategoryLabel, int],
        msgspec.Meta(
            description=(
                "What the bonus pays per first-five-card hand, as a multiple of the "
                "bonus bet (N to 1, 1..100000), for every hand from `bonus_min_hand` "
                "up. Default three_of_a_kind 5, straight 40, flush 50, full_house 70,"
                " four_of_a_kind 200, straight_flush 500, royal_flush 1000."
            )
        ),
    ] = msgspec.field(default_factory=lambda: dict(DEFAULT_BONUS_PAYTABLE))
    betting_timeout_s: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Seconds the round takes bets after its first ante before it is dealt"
                " with what is bet, 1..3600. Default 30."
            )
        ),
    ] = 30
    decision_timeout_s: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Seconds a light box has for each decision (and for answering a "
                "dealer-draw offer) before it is folded (or the offer declined), "
                "1..3600. Default 30."
            )
        ),
    ] = 30
    abandoned_round_after_s: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Seconds without any activity in a round with stakes on the table after "
                "which the rules complete it by their defaults (docs/rules-decisions.md, "
                '"Interrupted rounds"): undecided boxes folded, dealer-draw offers '
                "declined, the rest settled as usual; a round not yet dealt has its bets "
                f"refunded. {ABANDONED_MIN_S}..{ABANDONED_MAX_S} and more than both "
                "`betting_timeout_s` and `decision_timeout_s`. Default 86400 (24 h)."
            )
        ),
    ] = 86_400
    box_cards_public: Annotated[
        bool,
        msgspec.Meta(
            description=(
                "Box cards are shown to everyone at the table right after the deal "
                "(online preset) instead of only to the box's owner until showdown. "
                "Default false."
            )
        ),
    ] = False
    player_seeds: Annotated[
        bool,
        msgspec.Meta(
            description=(
                "Players may add a client seed (1..64 printable ASCII characters) with "
                "their bets; the deck is derived from the committed server seed and every"
                " client seed placed before the deal (docs/rules.md §8, docs/fairness.md). "
                "Default true; false refuses client seeds."
            )
        ),
    ] = True

    def __post_init__(self) -> None:
        if self.bonus_max is None:
            msgspec.structs.force_setattr(self, "bonus_max", self.ante_max // 10)
        problems = self._problems()
        if problems:
            raise ValueError("; ".join(problems))

    def _problems(self) -> list[str]:
        problems: list[str] = []

        def need(ok: bool, message: str) -> None:
            if not ok:
                problems.append(message)

        need(
            len(self.currency) == 3 and self.currency.isalpha() and self.currency.isupper(),
            f"`currency` must be a three-letter ISO 4217 code, got {self.currency!r}",
        )
        need(1 <= self.boxes <= 10, f"`boxes` must be 1..10, got {self.boxes}")
        need(
            1 <= self.light_boxes_per_player <= self.boxes,
            f"`light_boxes_per_player` must be 1..boxes ({self.boxes}), "
            f"got {self.light_boxes_per_player}",
        )
        need(
            1 <= self.ante_min <= _MAX_AMOUNT,
            f"`ante_min` must be 1..{_MAX_AMOUNT}, got {self.ante_min}",
        )
        need(
            self.ante_min <= self.ante_max <= _MAX_AMOUNT,
            f"`ante_max` must be ante_min ({self.ante_min})..{_MAX_AMOUNT}, got {self.ante_max}",
        )
        bonus_max = self.bonus_max or 0
        if self.bonus_enabled:
            need(
                1 <= self.bonus_min <= bonus_max <= _MAX_AMOUNT,
                f"`bonus_min` ({self.bonus_min}) and `bonus_max` ({bonus_max}) must satisfy "
                f"1 <= bonus_min <= bonus_max <= {_MAX_AMOUNT}",
            )
        need(
            self.max_payout is None or 1 <= self.max_payout <= _MAX_AMOUNT,
            f"`max_payout` must be 1..{_MAX_AMOUNT} or null, got {self.max_payout}",
        )
        need(
            0 <= self.max_exchange_cards <= 5,
            f"`max_exchange_cards` must be 0..5, got {self.max_exchange_cards}",
        )
        need(
            len(self.draw_fee_antes) == 5 and all(0 <= f <= 100 for f in self.draw_fee_antes),
            "`draw_fee_antes` must list 5 fees (in antes, 0..100) for exchanging 1..5 cards, "
            f"got {list(self.draw_fee_antes)}",
        )
        need(
            0 <= self.sixth_card_fee_antes <= 100,
            f"`sixth_card_fee_antes` must be 0..100, got {self.sixth_card_fee_antes}",
        )
        need(
            self.insurance_min_hand is None or _rank(self.insurance_min_hand) >= _rank("pair"),
            "`insurance_min_hand` must be a pair or better, or null",
        )
        need(
            self.dealer_redraw_limit is None or 0 <= self.dealer_redraw_limit <= 100,
            f"`dealer_redraw_limit` must be 0..100 or null, got {self.dealer_redraw_limit}",
        )
        for name in ("betting_timeout_s", "decision_timeout_s"):
            value = getattr(self, name)
            need(1 <= value <= 3600, f"`{name}` must be 1..3600 seconds, got {value}")
        abandoned = self.abandoned_round_after_s
        need(
            ABANDONED_MIN_S <= abandoned <= ABANDONED_MAX_S
            and abandoned > max(self.betting_timeout_s, self.decision_timeout_s),
            f"`abandoned_round_after_s` must be {ABANDONED_MIN_S}..{ABANDONED_MAX_S} seconds "
            "and more than `betting_timeout_s` and `decision_timeout_s` (the rules' own "
            f"time-outs act first), got {abandoned}",
        )
        problems.extend(self._paytable_problems())
        if not problems and self.cards_needed > _DECK_SIZE:
            problems.append(
                f"`boxes` ({self.boxes}) is too many for one {_DECK_SIZE}-card deck: a round "
                f"can take up to {self.cards_needed} cards (5 to each box and the dealer, each "
                "box's draw, the dealer draw); lower `boxes` or the draws allowed"
            )
        return problems

    @property
    def cards_needed(self) -> int:
        """The most cards one round can take from its deck: five to each box and to the
        dealer, each box's one draw (a sixth card, or replacements for discards that are set
        aside), and the dealer draw (the paid card plus same-rank redraws, at most three)."""
        exchange = 0 if self.discards_return_to_deck else self.max_exchange_cards
        per_box = max(int(self.buy_sixth_card), exchange)
        dealer = 0
        if self.dealer_draw:
            limit = self.dealer_redraw_limit
            dealer = 4 if limit is None else min(4, 1 + limit)
        return 5 * (self.boxes + 1) + self.boxes * per_box + dealer

    def _paytable_problems(self) -> list[str]:
        problems: list[str] = []
        paid = set(CATEGORY_LABELS[1:])
        if set(self.bet_paytable) != paid:
            missing = sorted(paid - set(self.bet_paytable), key=_rank)
            extra = sorted(set(self.bet_paytable) - paid, key=_rank)
            problems.append(
                f"`bet_paytable` must price every combination from ak to royal_flush "
                f"(missing: {missing}, not payable: {extra})"
            )
        if any(not 0 <= v <= 100_000 for v in self.bet_paytable.values()):
            problems.append("`bet_paytable` multiples must be 0..100000")
        if self.bonus_enabled:
            floor = _rank(self.bonus_threshold_category)
            needed = {c for c in CATEGORY_LABELS if _rank(c) >= floor}
            if not needed <= set(self.bonus_paytable):
                missing = sorted(needed - set(self.bonus_paytable), key=_rank)
                problems.append(
                    f"`bonus_paytable` must price every hand from `bonus_min_hand` "
                    f"({self.bonus_min_hand}) up (missing: {missing})"
                )
            # A qualifying hand at 0 would be settled as a loss (its stake kept), which no
            # "0 to 1" reading means; a hand that should not pay is below `bonus_min_hand`.
            if any(not 1 <= v <= 100_000 for v in self.bonus_paytable.values()):
                problems.append("`bonus_paytable` multiples must be 1..100000")
        return problems

    @property
    def bonus_threshold_category(self) -> CategoryLabel:
        """The category part of ``bonus_min_hand`` (``three_aces`` is three of a kind)."""
        if self.bonus_min_hand == "three_aces":
            return "three_of_a_kind"
        return self.bonus_min_hand

    @property
    def bonus_limit(self) -> int:
        """The resolved ``bonus_max`` (never ``None`` after construction)."""
        assert self.bonus_max is not None
        return self.bonus_max

    @property
    def fingerprint(self) -> str:
        """A short content hash: the ruleset and paytable version in the regulator's record."""
        canonical = msgspec.json.encode(msgspec.to_builtins(self, order="sorted"))
        return hashlib.sha256(canonical).hexdigest()[:16]
