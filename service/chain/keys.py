"""The checkpoint signing key: an Ed25519 private key in a PEM file outside the database.

Production names the file (``RUSSIAN_POKER_CHECKPOINT_KEY``); development creates one once
in the data directory (next to the embedded database's ``pgdata``, never inside it), mode
0600. The key is never logged, stored in the database, or served; only its public half is.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from russian_poker.service.settings import Settings, data_dir

__all__ = [
    "CheckpointKeyError",
    "key_id",
    "load_private_key",
    "load_public_key",
    "private_key_for",
    "public_pem",
    "raw_public",
    "signing_key",
    "verify_signature",
]


class CheckpointKeyError(ValueError):
    """A key file is missing, unreadable or not an Ed25519 key."""


def raw_public(key: Ed25519PublicKey) -> bytes:
    """The 32 raw bytes of a public key (RFC 8032)."""
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def key_id(key: Ed25519PublicKey) -> str:
    """A key's name in checkpoints: hex SHA-256 of its 32 raw bytes."""
    return hashlib.sha256(raw_public(key)).hexdigest()


def public_pem(key: Ed25519PublicKey) -> str:
    """SubjectPublicKeyInfo PEM, what ``--public-key`` takes."""
    return key.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    ).decode()


def load_private_key(path: Path) -> Ed25519PrivateKey:
    """The private key in ``path`` (PKCS#8 PEM, unencrypted)."""
    try:
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except OSError as error:
        raise CheckpointKeyError(
            f"cannot read the checkpoint key {path}: {error.strerror}"
        ) from None
    except (ValueError, TypeError):
        # Not the library's message: it could quote the file.
        raise CheckpointKeyError(f"{path} is not an unencrypted PEM private key") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise CheckpointKeyError(f"{path} is not an Ed25519 key")
    return key


def load_public_key(path: Path) -> Ed25519PublicKey:
    """A public key PEM, or the public half of a private key PEM."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise CheckpointKeyError(f"cannot read the public key {path}: {error.strerror}") from None
    if b"PRIVATE KEY" in data:
        return load_private_key(path).public_key()
    try:
        key = serialization.load_pem_public_key(data)
    except (ValueError, TypeError):
        raise CheckpointKeyError(f"{path} is not a PEM public key") from None
    if not isinstance(key, Ed25519PublicKey):
        raise CheckpointKeyError(f"{path} is not an Ed25519 key")
    return key


def private_key_for(path: Path, *, create: bool) -> Ed25519PrivateKey:
    """The key in ``path``; with ``create`` (development), made there first if missing."""
    if create and not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        pem = Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        # O_EXCL: two processes starting together keep the first one's key.
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "wb") as file:
                file.write(pem)
    return load_private_key(path)


def verify_signature(key: Ed25519PublicKey, signature: bytes, message: bytes) -> bool:
    """Whether ``signature`` is ``key``'s Ed25519 signature of ``message``."""
    try:
        key.verify(signature, message)
    except InvalidSignature:
        return False
    return True


def signing_key(settings: Settings, *, create: bool = True) -> Ed25519PrivateKey:
    """The configured key; in development created on first use (settings built in code
    without a path use ``<data_dir>/checkpoint-key.pem``). Production never creates one,
    and neither does a verifier (``create=False``): a key made just to check with would
    trust nothing that was ever signed."""
    production = settings.environment == "production"
    if production and not settings.checkpoint_key:
        raise CheckpointKeyError("RUSSIAN_POKER_CHECKPOINT_KEY: production needs its key file")
    directory = settings.data_dir or str(data_dir())
    path = settings.checkpoint_key or str(Path(directory) / "checkpoint-key.pem")
    return private_key_for(Path(path).expanduser(), create=create and not production)
