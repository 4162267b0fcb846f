"""A window of time as the API takes it (`from` inclusive, `to` exclusive), the same on every
route: a time without a zone is UTC, and `from` must come before `to`."""

from __future__ import annotations

from datetime import UTC, datetime

import msgspec

from russian_poker.service.app.problems import problem

__all__ = ["TimeWindow", "time_window"]


class TimeWindow(msgspec.Struct, frozen=True, kw_only=True):
    """``[start, end)``; ``None`` is no bound on that side."""

    start: datetime | None
    end: datetime | None


def _utc(value: datetime | None) -> datetime | None:
    if value is None or value.tzinfo is not None:
        return value
    return value.replace(tzinfo=UTC)


def time_window(since: datetime | None, until: datetime | None) -> TimeWindow:
    """The window ``from``..``to``, refused (422 ``invalid_window``) when it is empty: an
    inverted window is a client's mistake, never a silently empty answer."""
    window = TimeWindow(start=_utc(since), end=_utc(until))
    if window.start is not None and window.end is not None and window.start >= window.end:
        raise problem("invalid_window", 422, "from: must be before to")
    return window
