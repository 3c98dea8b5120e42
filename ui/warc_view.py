"""A WARC file on a page: choosing one (an upload or a file in ``warc_dir``), and its responses.

The upload and the pick stay chosen when the user visits another page and comes back.

Record URLs and Content-Types come from the crawl: they are shown with ``st.dataframe``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from encoding_core.warc.reportpage import warc_files
from encoding_core.warc.warcfile import WarcListing
from encoding_core.wording import plural
from ui.kept_uploader import kept_file_uploader
from ui.state import remember, remembered

#: Where the uploaded WARC file is kept across pages (ui.state.keep_upload).
UPLOAD_SLOT = "fetch_warc"


@dataclass(frozen=True, slots=True)
class WarcChoice:
    """The WARC file chosen: its bytes (an upload) or path (in ``warc_dir``), name and key."""

    data: bytes | str
    name: str
    key: str   # names this file for caches and its host report: upload id, or path and mtime


def warc_source(section: dict[str, Any]) -> WarcChoice | None:
    """The uploaded WARC file (kept across pages), or one picked in ``warc_dir``; or None.

    The pick in ``warc_dir`` is remembered too (Streamlit drops widget state on a page change).
    """
    upload = kept_file_uploader("A WARC file from a crawl (.warc or .warc.gz)",
                                key="fetch_warc_upload", slot=UPLOAD_SLOT)
    if upload is not None:
        return WarcChoice(upload.body, upload.name, upload.key)
    folder = Path(str(section["warc_dir"])) if section.get("warc_dir") else None
    files = warc_files(folder)
    if not folder or not files:
        return None
    names = [p.name for p in files]
    last: str | None = remembered("fetch_warc_file", None)
    name = st.selectbox(f"…or a file in {folder}", names, key="fetch_warc_file",
                        index=names.index(last) if last is not None and last in names
                        else None)
    remember("fetch_warc_file", name)
    if name is None:
        return None
    path = folder / name
    try:
        stamp = path.stat().st_mtime
    except OSError:   # gone since the listing: the page's read reports it
        stamp = 0.0
    return WarcChoice(str(path), name, f"path:{path}:{stamp}")


def render_listing(listing: WarcListing) -> None:
    """How many HTTP responses the file holds, and one row for each."""
    st.caption(plural(len(listing.responses), "HTTP response")
               + (f" ({plural(listing.skipped, 'other response record')} skipped)"
                  if listing.skipped else ""))
    st.dataframe(pd.DataFrame([{"#": r.index, "url": r.url, "status": r.status,
                                "content type": r.content_type or "", "bytes": r.length,
                                "date": r.date or ""} for r in listing.responses]),
                 hide_index=True, width="stretch", key="fetch_warc_table")
