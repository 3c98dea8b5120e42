"""One result kept per session and slot: the last one asked for, made again only when its key
changes.

For work whose progress is shown while it runs (the CSV scan's progress bar): ``st.cache_data``
would replay the bar's updates, elements made outside the cached function, which Streamlit
refuses. Keeping only the last result bounds the memory to one result per session and slot.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

import streamlit as st

__all__ = ["last_result"]

T = TypeVar("T")
_PREFIX = "last_result:"


def last_result(slot: str, key: Hashable, make: Callable[[], T]) -> T:
    """The result kept in ``slot`` when it was made for ``key``; else ``make()``, kept there
    in place of the previous one."""
    kept: tuple[Hashable, T] | None = st.session_state.get(_PREFIX + slot)
    if kept is not None and kept[0] == key:
        return kept[1]
    st.session_state.pop(_PREFIX + slot, None)   # let the old result go before making the new
    made = make()
    st.session_state[_PREFIX + slot] = (key, made)
    return made
