"""Commands happen once: their ids, their fingerprints, and the answers kept under them.

A command's id is the client's ``Idempotency-Key`` scoped to the table and the player; the
store records the command's answer under it in the command's own statement. A retry with
the same id gets that answer again (``duplicate``), and a retry of a refused command the
same refusal (a refusal is remembered too): the client sends a new key to try again. The
same key with another command is refused, never acted on.
"""

from __future__ import annotations

import hashlib
import uuid
from typing import Final

import msgspec

from russian_poker.events.commands import Command
from russian_poker.service.application.results import CommandResult
from russian_poker.service.rules.errors import RuleViolation

__all__ = [
    "IdempotencyKeyReused",
    "Refusal",
    "ReplayedRefusal",
    "answer",
    "event_id",
    "fingerprint",
    "player_command_id",
    "refusal_record",
]

_NAMESPACE: Final = uuid.UUID("6f1c7d1e-3b7a-4c55-9d4e-2a6f0b8e4c11")


def player_command_id(table_id: str, player: str, key: str) -> str:
    """A player's command id: their ``Idempotency-Key`` scoped to the table and the player,
    so the same key on another table, or from another player, names another command."""
    return f"{table_id}/{player}:{key}"


def fingerprint(command: Command) -> str:
    return hashlib.sha256(msgspec.json.encode(command)).hexdigest()


def event_id(command_id: str, index: int) -> uuid.UUID:
    """The id of a command's ``index``-th event: derived, so a retried append is the same
    append, and a seamless credit's transaction id can be derived from its event's."""
    return uuid.uuid5(_NAMESPACE, f"{command_id}:{index}")


class Refusal(msgspec.Struct, frozen=True, kw_only=True):
    """A refused command, remembered under its id: a retry is refused the same way, even if
    the table has moved on (the client must send a new key to try again)."""

    refused: str
    message: str
    fingerprint: str
    balance: int | None = None
    """A seamless operator's refusal: the balance it reported, answered again as it was."""


def refusal_record(command: Command, refusal: RuleViolation) -> bytes:
    """What is remembered under a refused command's id."""
    return msgspec.json.encode(
        Refusal(
            refused=refusal.code,
            message=refusal.message,
            fingerprint=fingerprint(command),
            balance=getattr(refusal, "balance", None),
        )
    )


class ReplayedRefusal(RuleViolation):
    """A refusal answered again from memory: this command id was refused before, so the
    key is spent and only a new one sends the command again."""

    def __init__(self, code: str, message: str, *, balance: int | None = None) -> None:
        super().__init__(code, message)
        self.balance = balance


class IdempotencyKeyReused(Exception):
    """The same command id (idempotency key) was sent with a different command."""


def answer(stored: bytes, command: Command) -> CommandResult:
    """The stored answer to a command id: its result, or its refusal raised again."""
    raw = msgspec.json.decode(stored)
    if not isinstance(raw, dict) or raw.get("fingerprint") != fingerprint(command):
        raise IdempotencyKeyReused("this idempotency key was used for a different command")
    if "refused" in raw:
        refusal = msgspec.convert(raw, Refusal)
        raise ReplayedRefusal(refusal.refused, refusal.message, balance=refusal.balance)
    return msgspec.structs.replace(msgspec.convert(raw, CommandResult), duplicate=True)
