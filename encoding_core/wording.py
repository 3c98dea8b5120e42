"""Counts in words for messages: "1 line", "3 lines" (the core's messages are English)."""

from __future__ import annotations

__all__ = ["plural"]


def plural(count: int, noun: str) -> str:
    """``count`` and ``noun``, with an ``s`` unless the count is one.

    >>> plural(1, "record"), plural(1_200, "line")
    ('1 record', '1,200 lines')
    """
    return f"{count:,} {noun}{'' if count == 1 else 's'}"
