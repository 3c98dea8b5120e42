"""The current input, shared by the pages through ``st.session_state``.

The Fetch page (a live URL, a capture, a WARC record), the CSV scan page (a suspicious cell) and
the sample picker all put bytes here; Compare, Bytes and Overrides read them.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

import streamlit as st

_KEY = "current_input"


@dataclass(frozen=True, slots=True)
class CurrentInput:
    """Bytes to diagnose, with what came with them."""

    label: str                     # what the user sees: a sample name, a file name, a URL
    body: bytes
    content_type: str | None = None
    url: str | None = None
    capture_id: str | None = None  # landing-zone reference when the bytes came from a fetch

    @property
    def host(self) -> str | None:
        """The URL's host name, lower case, or None when the bytes have no URL."""
        if not self.url:
            return None
        return (urlsplit(self.url).hostname or None)


def set_current(item: CurrentInput) -> None:
    """Make ``item`` the input every page works on."""
    st.session_state[_KEY] = item


def get_current() -> CurrentInput | None:
    """The input chosen on any page, or None."""
    value = st.session_state.get(_KEY)
    return value if isinstance(value, CurrentInput) else None
