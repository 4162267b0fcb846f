"""The ``audit`` group, complete: importing the modules of its commands registers them."""

from __future__ import annotations

from russian_poker.service.cli import bundle, chain, export, software  # noqa: F401
from russian_poker.service.cli.audit_group import audit

__all__ = ["audit"]
