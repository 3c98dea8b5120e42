"""One result kept per session and slot: the last one asked for, made again only when its key
changes.

For work whose progress is shown while it runs (the CSV scan's progress bar): ``st.cache_data``
would replay the bar's updates, elements made outside the cached function, which Streamlit
refuses. Keeping only the last result bounds the memory to one result per session and slot, and
it is kept in the session's scratch (``ui.state.session_scratch``), emptied when the tab closes.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar, cast

from ui.state import session_scratch

__all__ = ["last_result"]

T = TypeVar("T")
_PREFIX = "last_result:"


def last_result(slot: str, key: Hashable, make: Callable[[], T]) -> T:
    """The result kept in ``slot`` when it was made for ``key``; else ``make()``, kept there
    in place of the previous one."""
    store = session_scratch(_PREFIX + slot)
    if key in store:
        return cast(T, store[key])
    store.clear()   # let the old result go before making the new
    made = make()
    store[key] = made
    return made
