"""Limits shared by every room (a shared basic): one place for each number.

``MAX_BODY_BYTES`` is the most of a response body read, kept or decoded, by default: a fetch
(``FetchSettings.max_bytes``), a WARC record (``warc.warcfile``, ``warc.hostreport``), the CLI's
``--max-bytes`` and the Spark host report. A page past it is cut there (``BodyTooLargeError`` for
a fetch; a record's body is truncated and says so).
"""

from __future__ import annotations

__all__ = ["MAX_BODY_BYTES"]

#: 10 MiB.
MAX_BODY_BYTES = 10 * 1024 * 1024
