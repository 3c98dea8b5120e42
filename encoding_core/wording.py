"""Counts in words for messages: "1 line", "3 lines" (the core's messages are English)."""

from __future__ import annotations

__all__ = ["plural"]


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` and ``noun``, in the plural (``many``, or an ``s`` added) unless the count is
    one; thousands separated.

    >>> plural(1, "record"), plural(1_200, "line"), plural(2, "entry", "entries")
    ('1 record', '1,200 lines', '2 entries')
    """
    return f"{count:,} {noun if count == 1 else many or noun + 's'}"
