"""The Merkle tree hash of RFC 6962 §2.1 over a checkpoint's leaves.

    MTH({})      = sha256()
    MTH({d0})    = sha256(0x00 ‖ d0)
    MTH(D[0:n])  = sha256(0x01 ‖ MTH(D[0:k]) ‖ MTH(D[k:n])), k the largest power of 2 < n

A leaf is ``utf8(stream_id) ‖ 0x00 ‖ int8(stream_version) ‖ hash`` (:func:`leaf_bytes`);
leaves are ordered by the UTF-8 bytes of their stream id.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Sequence
from typing import Final

__all__ = ["audit_path", "leaf_bytes", "merkle_root", "root_from_path"]

_INT8: Final = struct.Struct(">q")


def leaf_bytes(stream_id: str, stream_version: int, event_hash: bytes) -> bytes:
    """One stream head as a leaf."""
    return stream_id.encode() + b"\x00" + _INT8.pack(stream_version) + event_hash


def _leaf(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def _node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than ``n`` (n ≥ 2)."""
    return 1 << ((n - 1).bit_length() - 1)


def merkle_root(leaves: Sequence[bytes]) -> bytes:
    """MTH over ``leaves`` (leaf bytes, not yet hashed)."""
    if not leaves:
        return hashlib.sha256(b"").digest()
    level = [_leaf(leaf) for leaf in leaves]
    return _fold(level)


def _fold(hashes: list[bytes]) -> bytes:
    # Iterative and equal to the recursive definition: pairing left to right and carrying
    # an odd last node up unchanged builds exactly RFC 6962's left-full tree.
    while len(hashes) > 1:
        paired = [_node(hashes[i], hashes[i + 1]) for i in range(0, len(hashes) - 1, 2)]
        if len(hashes) % 2:
            paired.append(hashes[-1])
        hashes = paired
    return hashes[0]


def audit_path(leaves: Sequence[bytes], index: int) -> list[bytes]:
    """RFC 6962 §2.1.1: the sibling hashes proving leaf ``index`` is in the tree."""
    if len(leaves) == 1:
        return []
    k = _split(len(leaves))
    if index < k:
        return [*audit_path(leaves[:k], index), merkle_root(leaves[k:])]
    return [*audit_path(leaves[k:], index - k), merkle_root(leaves[:k])]


def root_from_path(leaf: bytes, index: int, size: int, path: Sequence[bytes]) -> bytes:
    """The root that ``leaf`` at ``index`` of ``size`` leaves and its audit path imply."""
    if size == 1:
        return _leaf(leaf)
    k = _split(size)
    if index < k:
        return _node(root_from_path(leaf, index, k, path[:-1]), path[-1])
    return _node(path[-1], root_from_path(leaf, index - k, size - k, path[:-1]))
