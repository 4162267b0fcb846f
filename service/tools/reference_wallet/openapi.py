"""The OpenAPI document of the wallet protocol: the four calls, nothing of ``/_admin``.

``openapi/wallet.json`` is this document, written by ``russian-poker openapi``; a test
keeps the file in step with the code.
"""

from __future__ import annotations

from typing import Any, Final

__all__ = ["WALLET_OPENAPI_PATH", "wallet_openapi"]

WALLET_OPENAPI_PATH: Final = "openapi/wallet.json"


def wallet_openapi() -> dict[str, Any]:
    """The document as the wallet serves it at ``/schema/openapi.json``."""
    from russian_poker.service.tools.reference_wallet.app import create_app

    # Never started: building the document connects to nothing.
    app = create_app("postgresql://openapi-export-only/unused", "openapi-export-only")
    return app.openapi_schema.to_schema()
