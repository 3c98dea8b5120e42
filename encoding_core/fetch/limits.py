"""The caps of the fetch room, in one place: what a hostile response can make this code do.

The per-fetch limits a user may change (time, size, redirects) are ``FetchSettings`` fields
(``settings.py``); these are the fixed ones, each a bound on work a response could otherwise
make grow without end.
"""

from __future__ import annotations

__all__ = ["MAX_CODINGS"]

#: Content codings undone for one body. Real servers send one, rarely two; a header of
#: ``gzip, gzip, ...`` 1,000 times would nest 1,000 decoders (a ``RecursionError``).
MAX_CODINGS = 8
