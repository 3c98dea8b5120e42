"""Kept uploads under one server-wide memory budget, and what goes when a session ends.

Streamlit keeps a closed tab's session (and its ``st.session_state``) until
``server.disconnectedSessionTTL`` has passed *and* another session disconnects, so bytes kept
in session state outlive their user by minutes or hours (issue 28: 239 MB of uploads from
closed tabs). Here the bytes of kept uploads live in one ``UploadBudget`` for the whole
server instead:

- all kept uploads together hold at most ``limit`` bytes; keeping one more drops the oldest
  first (any session's); a page that finds its upload gone asks for it again, saying why;
- ``release(owner)`` drops a session's uploads at once: ``ui.state`` calls it when Streamlit
  ends the session's session-scoped caches, which it does as soon as the tab disconnects;
- ``return_freed_memory`` then hands what the ended sessions freed back to the system: the C
  allocator (glibc) keeps freed blocks of its heaps, one per thread that allocated (a script
  run is a thread), for reuse, so without it the server stays at its high-water mark after
  the users leave (issue 28, item 13).

No Streamlit here: the pages reach it through ``ui.state``.
"""

from __future__ import annotations

import ctypes
import gc
import platform
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

#: Seconds after a session ends before the freed memory is handed back (Streamlit finishes
#: dropping the session, and any expired ones, after the disconnect that ended it).
RETURN_AFTER = 2.0


def _glibc() -> ctypes.CDLL | None:
    if platform.libc_ver()[0] != "glibc":
        return None
    try:
        return ctypes.CDLL("libc.so.6")
    except OSError:
        return None


_LIBC = _glibc()


def return_freed_memory() -> bool:
    """Collect unreachable objects, then hand the C allocator's free memory back to the system
    (glibc's ``malloc_trim``, every heap); False where there is no glibc (nothing to trim)."""
    gc.collect()
    return _LIBC is not None and bool(_LIBC.malloc_trim(0))


def return_freed_memory_soon() -> None:
    """``return_freed_memory`` in ``RETURN_AFTER`` seconds, on a timer thread."""
    timer = threading.Timer(RETURN_AFTER, return_freed_memory)
    timer.daemon = True
    timer.start()


@dataclass(frozen=True, slots=True)
class _Kept:
    body: bytes
    kept_at: float


class UploadBudget:
    """The bytes of kept uploads, keyed by (owner, slot), at most ``limit`` bytes in all.

    Thread-safe: every session's script thread uses the one instance.

    >>> budget = UploadBudget(limit=10)
    >>> budget.keep("a", "csv", b"123456"), budget.keep("b", "csv", b"7890123")
    (True, True)
    >>> budget.get("a", "csv"), budget.get("b", "csv"), budget.total
    (None, b'7890123', 7)
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._kept: OrderedDict[tuple[str, str], _Kept] = OrderedDict()  # oldest first
        self._total = 0

    @property
    def total(self) -> int:
        """Bytes kept now, over every owner."""
        return self._total

    def keep(self, owner: str, slot: str, body: bytes) -> bool:
        """Keep ``body`` for ``owner`` under ``slot`` (replacing what was there), dropping the
        oldest uploads until it fits; False (nothing kept) when it alone is over the limit."""
        key = (owner, slot)
        with self._lock:
            self._pop(key)
            if len(body) > self.limit:
                return False
            while self._total + len(body) > self.limit and self._kept:
                _, entry = self._kept.popitem(last=False)
                self._total -= len(entry.body)
            self._kept[key] = _Kept(body, time.monotonic())
            self._total += len(body)
            return True

    def get(self, owner: str, slot: str) -> bytes | None:
        """The bytes kept for ``owner`` under ``slot``, or None."""
        with self._lock:
            entry = self._kept.get((owner, slot))
            return entry.body if entry is not None else None

    def forget(self, owner: str, slot: str) -> None:
        """Drop one upload (the user removed it or chose something else)."""
        with self._lock:
            self._pop((owner, slot))

    def release(self, owner: str) -> None:
        """Drop everything ``owner`` kept: its session has ended."""
        with self._lock:
            for key in [k for k in self._kept if k[0] == owner]:
                self._pop(key)

    def _pop(self, key: tuple[str, str]) -> None:
        entry = self._kept.pop(key, None)
        if entry is not None:
            self._total -= len(entry.body)
