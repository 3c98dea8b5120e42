"""A file uploader whose file stays chosen when the user visits other pages and comes back.

Streamlit drops a ``file_uploader``'s file when the user leaves its page. This one keeps the
upload with ``ui.state.keep_upload`` (bytes up to ``KEEP_UPLOAD_MIB``, within the server's
budget for kept uploads), offers "Forget this file" on return, and asks for a file again when
it was too large or its bytes were dropped for room. The file name is untrusted: it
goes through ``md_escape``.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from ui import state
from ui.components import md_escape


@dataclass(frozen=True, slots=True)
class Upload:
    """The chosen file's bytes, name, and a key that names this upload for caches."""

    body: bytes
    name: str
    key: str   # the same whether the file is in the uploader or kept


def _size(size: int) -> str:
    return f"{size:,} bytes" if size < 2**20 else f"{size / 2**20:,.1f} MiB"


def _forget_if_removed(slot: str, key: str) -> None:
    """The user uploaded a file or removed it (the ×); leaving the page is not a change."""
    if st.session_state.get(key) is None:
        state.forget_upload(slot)


def kept_file_uploader(label: str, *, key: str, slot: str, help: str | None = None
                       ) -> Upload | None:
    """The file in the uploader, else the one kept from an earlier visit, else None.

    - a file in the uploader is kept under ``slot`` (its bytes when small enough, else its name);
    - with the uploader empty, the kept bytes come back, with a caption and a "Forget this file"
      button (key ``<key>_forget``);
    - a kept name without bytes (over the limit) gives an info asking for the file again, once.
    """
    limit = state.KEEP_UPLOAD_MIB
    keeps = f"Files up to {limit} MiB stay chosen when you visit other pages."
    uploaded = st.file_uploader(label, key=key, on_change=_forget_if_removed, args=(slot, key),
                                help=f"{help} {keeps}" if help else keeps)
    if uploaded is not None:
        kept = state.keep_upload(slot, uploaded, limit * 2**20)
        if not kept.stored:
            st.caption(f"Files over {limit} MiB are not kept when you visit another page: "
                       "on return, upload this one again.")
        return Upload(uploaded.getvalue(), kept.name, _key(kept))
    found = state.kept_upload(slot)
    if found is None:
        return None
    kept = found
    body = kept.body   # read once: the server-wide budget may drop it at any time
    if body is None:
        state.forget_upload(slot)
        why = (f"files over {limit} MiB are not" if not kept.stored else
               f"the server keeps at most {state.KEPT_UPLOADS_MIB} MiB of uploads for all its "
               "users and drops the oldest first, and a closed tab's at once")
        st.info(f"{md_escape(kept.name)} ({_size(kept.size)}) was not kept when you left this "
                f"page: {why}. Upload it again.")
        return None
    note, clear = st.columns([3, 1], vertical_alignment="center")
    note.caption(f"Your upload {md_escape(kept.name)} ({_size(kept.size)}), kept while you "
                 "visit other pages. Upload another file above, or forget this one.")
    clear.button("Forget this file", key=f"{key}_forget", on_click=state.forget_upload,
                 args=(slot,))
    return Upload(body, kept.name, _key(kept))


def _key(kept: state.KeptUpload) -> str:
    return f"upload:{kept.file_id}:{kept.size}"
