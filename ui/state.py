"""The current input, shared by the pages through ``st.session_state``, and kept uploads.

The Fetch page (a live URL, a capture, a WARC record), the CSV scan page (a suspicious cell) and
the sample picker all put bytes here; Compare, Bytes and Overrides read them.

Streamlit drops a ``file_uploader``'s file when the user leaves its page; pages that should show
the same file on return use ``ui.kept_uploader.kept_file_uploader``, which keeps it here with
``keep_upload`` (files up to ``KEEP_UPLOAD_MIB``; their bytes in ``UPLOADS``, one budget of
``KEPT_UPLOADS_MIB`` for the whole server, see ``ui.session_store``).

What a session keeps beyond its widgets goes when its tab disconnects, not when Streamlit
finally drops the session (``server.disconnectedSessionTTL`` and the next disconnect): the
session's kept uploads, and the contents of its ``session_scratch`` dictionaries (the CSV scan
page's reports), are released by a session-scoped ``st.cache_resource``.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any, TypeVar

import streamlit as st
from streamlit.runtime.uploaded_file_manager import UploadedFile

from encoding_core.hosts import host_of
from ui.session_store import UploadBudget, return_freed_memory_soon

T = TypeVar("T")
_KEY = "current_input"
_UPLOAD_PREFIX = "kept_upload:"
#: Uploads up to this size keep their bytes in the session; a larger one keeps only its name
#: and size, and must be uploaded again after the user leaves the page.
KEEP_UPLOAD_MIB = 50
#: All sessions' kept uploads together, in MiB: keeping one more drops the oldest first.
KEPT_UPLOADS_MIB = 256
UPLOADS = UploadBudget(KEPT_UPLOADS_MIB * 2**20)


@dataclass(frozen=True, slots=True)
class _Session:
    """What this session holds outside ``st.session_state``, released when it disconnects."""

    owner: str = field(default_factory=lambda: uuid.uuid4().hex)
    scratch: dict[str, dict[Any, Any]] = field(default_factory=dict)


def _end(session: _Session) -> None:
    """The tab disconnected: its kept uploads and scratch contents go now."""
    UPLOADS.release(session.owner)
    for store in session.scratch.values():
        store.clear()
    return_freed_memory_soon()


@st.cache_resource(scope="session", on_release=_end, show_spinner=False)
def _session() -> _Session:
    return _Session()


def session_scratch(name: str) -> dict[Any, Any]:
    """A dictionary for this session's large results, emptied when its tab disconnects.

    It is also ``st.session_state[name]``, so pages and tests find it there.
    """
    store = _session().scratch.setdefault(name, {})
    st.session_state[name] = store
    return store


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
        return host_of(self.url)


def set_current(item: CurrentInput) -> None:
    """Make ``item`` the input every page works on."""
    st.session_state[_KEY] = item


def get_current() -> CurrentInput | None:
    """The input chosen on any page, or None."""
    value = st.session_state.get(_KEY)
    return value if isinstance(value, CurrentInput) else None


@dataclass(frozen=True, slots=True)
class KeptUpload:
    """An uploaded file kept in the session after its uploader dropped it."""

    name: str
    size: int
    file_id: str
    stored: bool   # False when over the size limit: the user must upload it again

    @property
    def body(self) -> bytes | None:
        """The kept bytes; None when not stored, or dropped since (``UPLOADS``' budget)."""
        return UPLOADS.get(_session().owner, self.file_id) if self.stored else None


def keep_upload(slot: str, uploaded: UploadedFile, max_bytes: int) -> KeptUpload:
    """Keep ``uploaded`` under ``slot``: its bytes when at most ``max_bytes`` (and the
    server-wide budget holds them), else its name.

    The bytes are copied once per file, not on every rerun.
    """
    kept = kept_upload(slot)
    if kept is None or kept.file_id != uploaded.file_id:
        if kept is not None:
            UPLOADS.forget(_session().owner, kept.file_id)
        stored = uploaded.size <= max_bytes and UPLOADS.keep(
            _session().owner, uploaded.file_id, uploaded.getvalue())
        kept = KeptUpload(uploaded.name, uploaded.size, uploaded.file_id, stored)
        st.session_state[_UPLOAD_PREFIX + slot] = kept
    return kept


def kept_upload(slot: str) -> KeptUpload | None:
    """The upload kept under ``slot``, or None."""
    value = st.session_state.get(_UPLOAD_PREFIX + slot)
    return value if isinstance(value, KeptUpload) else None


def forget_upload(slot: str) -> None:
    """Drop the upload kept under ``slot`` (the user removed it or chose something else)."""
    kept = st.session_state.pop(_UPLOAD_PREFIX + slot, None)
    if isinstance(kept, KeptUpload):
        UPLOADS.forget(_session().owner, kept.file_id)


_WIDGET_PREFIX = "kept_widget:"


def remembered(key: str, default: T) -> T:
    """The value widget ``key`` had when its page was last drawn, else ``default``.

    Streamlit drops a widget's state when the user visits another page; pass this as the
    widget's ``value`` (or compute its ``index`` from it) and call ``remember`` after it, so the
    choice is there on return. One pair for every page that keeps a typed or picked value.
    """
    value: T = st.session_state.get(_WIDGET_PREFIX + key, default)
    return value


def remember(key: str, value: object) -> None:
    """Keep ``value`` as widget ``key``'s choice for ``remembered`` on a later visit."""
    st.session_state[_WIDGET_PREFIX + key] = value
