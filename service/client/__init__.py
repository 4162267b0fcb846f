"""The reference table client: a browser page served by the service at ``/play/``.

It is plain JavaScript modules and CSS under ``web/`` (no build step, no CDN) and uses only
the public API: REST for commands, the live stream for everything else. docs/client.md is
the guide for integrators writing their own.
"""

from russian_poker.service.client.routes import client_router

__all__ = ["client_router"]
