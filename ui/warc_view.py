"""A WARC file on a page: choosing one (an upload or a file in ``warc_dir``), and its responses.

Record URLs and Content-Types come from the crawl: they are shown with ``st.dataframe``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from encoding_core.warcfile import WarcListing
from ui.wording import counted


def warc_source(section: dict[str, Any]) -> tuple[bytes | str, str] | None:
    """The uploaded WARC file's bytes, or the path of one picked in ``warc_dir``; and its name."""
    uploaded = st.file_uploader("A WARC file from a crawl (.warc or .warc.gz)",
                                key="fetch_warc_upload")
    if uploaded is not None:
        return uploaded.getvalue(), uploaded.name
    folder = Path(str(section["warc_dir"])) if section.get("warc_dir") else None
    files = sorted(folder.glob("*.warc*")) if folder and folder.is_dir() else []
    if not files:
        return None
    name = st.selectbox(f"…or a file in {folder}", [p.name for p in files], index=None,
                        key="fetch_warc_file")
    return (str(folder / name), name) if folder and name else None


def render_listing(listing: WarcListing) -> None:
    """How many HTTP responses the file holds, and one row for each."""
    st.caption(counted(len(listing.responses), "HTTP response")
               + (f" ({counted(listing.skipped, 'other response record')} skipped)"
                  if listing.skipped else ""))
    st.dataframe(pd.DataFrame([{"#": r.index, "url": r.url, "status": r.status,
                                "content type": r.content_type or "", "bytes": r.length,
                                "date": r.date or ""} for r in listing.responses]),
                 hide_index=True, width="stretch", key="fetch_warc_table")
