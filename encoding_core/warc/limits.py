"""The caps of the warc room, in one place: what a large or hostile file can make this code hold.

Each is a default a caller may change where the function takes it as an argument.
"""

from __future__ import annotations

__all__ = ["LANDING_MAX_BYTES", "QUARANTINE_TAIL_BYTES"]

#: The newest part of a quarantine file read on each look (``read_quarantine``): a crawler
#: appends to it for ever, and the Fetch page reads it on every render.
QUARANTINE_TAIL_BYTES = 4 * 1024 * 1024

#: What the landing zone keeps at most, all captures together; past it the oldest go first.
LANDING_MAX_BYTES = 2 * 1024 * 1024 * 1024
