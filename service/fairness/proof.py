"""A settled round's proof record: everything needed to check its cards against its seeds.

The record holds what the table's events say about the round's deck and nothing derived:
the commitment and the revealed server seed, the boxes standing at the deal with their
client seeds, every card dealt, each draw in the order it was made, and the dealer's
replacements. :mod:`service.fairness.check` re-derives the deck from the seeds alone and
compares every card. The JSON form is ``GET /v1/tables/{id}/rounds/{n}/proof`` and what
``russian-poker verify --round T:N --save FILE`` writes; ``verify --record FILE`` reads it
back offline. ``docs/fairness.md`` describes the shape field by field.

Nothing in it is secret any more: the round is settled, its seed is revealed (the table view
shows it), and the seed determines every card anyway.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Final, Literal, Protocol

import msgspec

from russian_poker.events.codec import Event, decode_event
from russian_poker.events.game import (
    CardsDealt,
    RoundOpened,
    RoundSettled,
    RulesetChanged,
    TableOpened,
)
from russian_poker.events.records import RecordedEvent
from russian_poker.events.ruleset import Ruleset
from russian_poker.events.streams import table_stream
from russian_poker.projections.game_record import GameRecord, fold_table_event

__all__ = [
    "PROOF_FORMAT",
    "DealerReplacement",
    "Draw",
    "ProofBox",
    "RoundProof",
    "load_proof",
    "proof_from_events",
    "proof_of",
    "round_events",
]

PROOF_FORMAT: Final = "russian-poker/round-proof/v1"

_Cards = tuple[str, ...]


class ProofBox(msgspec.Struct, frozen=True, kw_only=True):
    """A box with a bet standing at the deal."""

    box: Annotated[int, msgspec.Meta(description="Box number, from 1.")]
    player: Annotated[str, msgspec.Meta(description="The box's owner.")]
    ante: Annotated[
        int, msgspec.Meta(description="The ante, which fixes the play order (larger first).")
    ]
    client_seed: Annotated[
        str | None,
        msgspec.Meta(description="The client seed placed with the ante; null if none."),
    ] = None


class ProofHand(msgspec.Struct, frozen=True, kw_only=True):
    """The five cards the deal gave one box."""

    box: Annotated[int, msgspec.Meta(description="Box number, from 1.")]
    cards: Annotated[
        _Cards, msgspec.Meta(description="The box's five cards in the order they were dealt.")
    ]


class Draw(msgspec.Struct, frozen=True, kw_only=True):
    """One box's draw: a sixth card bought, or an exchange."""

    box: Annotated[int, msgspec.Meta(description="Box number, from 1.")]
    kind: Annotated[
        Literal["sixth_card", "exchange"],
        msgspec.Meta(description="`sixth_card` (one card bought) or `exchange`."),
    ]
    discarded: Annotated[
        _Cards,
        msgspec.Meta(
            description="The cards given back, in the order they go back into the deck "
            "(empty for a sixth card)."
        ),
    ] = ()
    received: Annotated[
        _Cards, msgspec.Meta(description="The cards drawn, top of the deck first.")
    ] = ()


class DealerReplacement(msgspec.Struct, frozen=True, kw_only=True):
    """A dealer draw: the dealer's card set aside and the card that replaced it."""

    replaced: Annotated[str, msgspec.Meta(description="The dealer's card set aside.")]
    card: Annotated[str, msgspec.Meta(description="The card drawn from the deck for it.")]
    free: Annotated[
        bool, msgspec.Meta(description="A free same-rank redraw (not the paid dealer draw).")
    ] = False


class RoundProof(msgspec.Struct, frozen=True, kw_only=True):
    """A settled round's deck, as recorded: check it with ``russian-poker verify --record``."""

    format: Annotated[
        str, msgspec.Meta(description=f"Always `{PROOF_FORMAT}`: the version of this shape.")
    ] = PROOF_FORMAT
    table_id: Annotated[str, msgspec.Meta(description="The table's id.")]
    round: Annotated[int, msgspec.Meta(description="The round's number at that table.")]
    commitment: Annotated[
        str,
        msgspec.Meta(description="SHA-256 of the server seed, hex: published before any bet."),
    ]
    server_seed: Annotated[
        str, msgspec.Meta(description="The round's server seed, 32 bytes in hex, revealed.")
    ]
    ruleset_version: Annotated[
        int | None,
        msgspec.Meta(
            description="The version of the table's ruleset the round was played by: 1 at"
            " opening, +1 at each change (the availability log lists them). Null only in"
            " records saved before 0.2.0."
        ),
    ] = None
    ruleset_fingerprint: Annotated[
        str | None,
        msgspec.Meta(
            description="That ruleset's fingerprint, as the round record names it (16 hex"
            " digits). Null only in records saved before 0.2.0."
        ),
    ] = None
    discards_return_to_deck: Annotated[
        bool,
        msgspec.Meta(
            description="The table's rule: exchanged cards go back into the deck before the "
            "replacements are drawn (else they are set aside)."
        ),
    ]
    dealer_draw: Annotated[
        bool,
        msgspec.Meta(
            description="The table's rule: a light box may ask for the dealer draw when the"
            " dealer has no game (else there are no dealer replacements). True in records"
            " saved before 0.2.0, which did not carry it."
        ),
    ] = True
    dealer_redraw_limit: Annotated[
        int | None,
        msgspec.Meta(
            description="The table's rule: how many free redraws may follow the dealer draw;"
            " null is unlimited (and in records saved before 0.2.0, which did not carry it)."
        ),
    ] = None
    stacked_deck: Annotated[
        _Cards | None,
        msgspec.Meta(
            description="Test mode only: the scripted deck order, top first (the cards not "
            "named follow in the unshuffled order); null for a shuffled deck."
        ),
    ] = None
    boxes: Annotated[
        tuple[ProofBox, ...],
        msgspec.Meta(description="The boxes standing at the deal, in box-number order."),
    ] = ()
    dealt: Annotated[
        tuple[ProofHand, ...],
        msgspec.Meta(description="Each box's five cards, in play order; empty if never dealt."),
    ] = ()
    dealer: Annotated[
        _Cards, msgspec.Meta(description="The dealer's five cards as dealt (the fifth face up).")
    ] = ()
    draws: Annotated[
        tuple[Draw, ...], msgspec.Meta(description="Every box's draw, in the order it was made.")
    ] = ()
    dealer_replacements: Annotated[
        tuple[DealerReplacement, ...],
        msgspec.Meta(description="The dealer draw's replacements, in order; empty if none."),
    ] = ()


def proof_from_events(table_id: str, events: Sequence[Event], number: int) -> RoundProof:
    """The proof of round ``number`` from the table's events (its whole stream, in order).

    Raises ``LookupError`` when the round is unknown or not settled (its seed still secret).
    """
    opened_at = next(
        (i for i, e in enumerate(events) if isinstance(e, RoundOpened) and e.round == number),
        None,
    )
    if opened_at is None:
        raise LookupError(f"table {table_id} has no round {number}")
    # The ruleset in force: the last one an event set before the round's deal (its end, if
    # it was never dealt). A change may still land after RoundOpened, while no bet stands
    # (the shell opens the next round as soon as one settles), and the round plays by it.
    # Read, not folded: folding would reshuffle every round.
    cut = next(
        (
            i
            for i, e in enumerate(events[opened_at + 1 :], opened_at + 1)
            if isinstance(e, CardsDealt | RoundSettled) and e.round == number
        ),
        len(events),
    )
    setter = next(
        (e for e in reversed(events[:cut]) if isinstance(e, TableOpened | RulesetChanged)), None
    )
    if setter is None:
        raise LookupError(f"table {table_id} has no ruleset before round {number}")
    rules = setter.ruleset
    version = setter.version if isinstance(setter, RulesetChanged) else 1
    opened = events[opened_at]
    assert isinstance(opened, RoundOpened)
    # The round's record, by the fold the audit trail stores (projections.game_record).
    record = GameRecord.opened(opened)
    settled: RoundSettled | None = None
    for event in events[opened_at + 1 :]:
        if getattr(event, "round", number) != number:
            continue
        if isinstance(event, RoundSettled):
            settled = event
            break
        fold_table_event(record, event, "", 0)
    if settled is None:
        raise LookupError(f"round {table_id}:{number} is not settled: its seed is still secret")
    return proof_of(table_id, number, record, opened.commitment, settled.seed.hex(), rules, version)


def round_events(events: Sequence[Event]) -> dict[int, list[Event]]:
    """Each settled round's events as :func:`proof_from_events` needs them, in one pass: the
    last ruleset set before the round opened, then the round from its opening to its
    settlement. Proving every round of a long stream this way costs one pass, not one per
    round."""
    found: dict[int, list[Event]] = {}
    setter: Event | None = None
    opened: dict[int, int] = {}
    setter_at: dict[int, Event | None] = {}
    for index, event in enumerate(events):
        if isinstance(event, TableOpened | RulesetChanged):
            setter = event
        elif isinstance(event, RoundOpened):
            opened[event.round] = index
            setter_at[event.round] = setter
        elif isinstance(event, RoundSettled) and event.round in opened:
            start = opened.pop(event.round)
            before = setter_at.pop(event.round)
            found[event.round] = [*([before] if before else []), *events[start : index + 1]]
    return found


def proof_of(
    table_id: str,
    number: int,
    record: GameRecord,
    commitment: str,
    seed: str,
    rules: Ruleset,
    ruleset_version: int,
) -> RoundProof:
    """The proof, read off a settled round's record, with every rule the cards depend on."""
    standing = sorted((b for b in record.boxes if not b.cancelled), key=lambda b: b.box)
    return RoundProof(
        table_id=table_id,
        round=number,
        commitment=commitment,
        server_seed=seed,
        ruleset_version=ruleset_version,
        ruleset_fingerprint=rules.fingerprint,
        discards_return_to_deck=rules.discards_return_to_deck,
        dealer_draw=rules.dealer_draw,
        dealer_redraw_limit=rules.dealer_redraw_limit,
        stacked_deck=tuple(record.deck) if record.deck else None,
        boxes=tuple(
            ProofBox(box=b.box, player=b.player, ante=b.ante, client_seed=b.client_seed)
            for b in standing
        ),
        dealt=tuple(
            ProofHand(box=box, cards=tuple(record.placement(box).dealt)) for box in record.deal
        ),
        dealer=tuple(record.dealer.dealt),
        draws=tuple(
            Draw(
                box=d.box,
                kind=d.kind,
                discarded=tuple(d.discarded),
                received=tuple(d.received),
            )
            for d in record.draws
        ),
        dealer_replacements=tuple(
            DealerReplacement(replaced=r.replaced, card=r.card, free=r.free)
            for r in record.dealer.replaced
        ),
    )


class StreamReader(Protocol):
    """Reads a stream (the storage adapter's ``EventStore``)."""

    async def read_stream(self, stream_id: str) -> list[RecordedEvent]: ...


async def load_proof(store: StreamReader, table_id: str, number: int) -> RoundProof:
    """The proof of a settled round, read from the table's event stream."""
    records = await store.read_stream(table_stream(table_id))
    if not records:
        raise LookupError(f"no table {table_id}")
    events = [decode_event(r.event_type, r.schema_version, r.data) for r in records]
    return proof_from_events(table_id, events, number)
