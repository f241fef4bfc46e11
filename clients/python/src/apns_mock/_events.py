"""What ``GET /v1/events`` sends besides records."""

from __future__ import annotations

from typing import Any, Dict


class EventBatch(Dict[str, Any]):
    """A ``batch`` event of ``GET /v1/events``: records the server summarised instead of sending
    them one by one, because the reader fell behind (the admin API's JSON, with its names).

    ``batch["from"]`` and ``batch["to"]`` are the first and last sequence numbers it covers;
    ``count`` the matching records among them, by status (``byStatus``, keys are status codes as
    strings) and by outcome (``byOutcome``); ``agedOut`` the records that had left the store
    before they could be counted; ``reason`` says so in words. ``GET /v1/deliveries`` with
    ``since=from - 1`` and ``before=to + 1`` reads those still stored. A dict, so that it prints
    and compares as the JSON does; tell it from a record with ``isinstance(item, EventBatch)``.
    """

    @property
    def first(self) -> int:
        """The first sequence number covered (``from``)."""
        return int(self["from"])

    @property
    def last(self) -> int:
        """The last sequence number covered (``to``): a reconnect resumes after it."""
        return int(self["to"])

    def __repr__(self) -> str:
        return f"EventBatch({dict.__repr__(self)})"
