"""Showing captures: the kept-captures table, and one capture's status, hops and raw headers.

URLs, header values, the reason phrase and notes come from the fetched server (or a WARC
record): they reach the screen through ``st.text`` and ``st.dataframe``, or through
``md_escape`` before Markdown (``st.metric`` and ``st.caption`` render Markdown). The
content codings named in a caption are only the ones ``encoding_core.fetch.codings`` knows
and removed.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from encoding_core.fetch.client import Capture
from encoding_core.warc.landing import CaptureSummary, LandingZone
from ui.components import md_escape


def render_recent(kept: tuple[CaptureSummary, ...]) -> None:
    """The captures kept in the landing zone, newest first."""
    st.dataframe(pd.DataFrame([{"capture": s.capture_id, "url": s.url, "status": s.status,
                                "bytes": s.body_length, "content type": s.content_type or "",
                                "fetched at": s.fetched_at} for s in kept]),
                 hide_index=True, width="stretch", key="fetch_recent_table")


def render_capture(capture: Capture, zone: LandingZone) -> None:
    """Status, size and timing, notes, the redirect chain, the headers as received, and links."""
    st.subheader("Capture")
    a, b, c, d = st.columns(4)
    # the reason phrase is the server's text: a Markdown image there would make the viewer's
    # browser fetch its URL (st.metric renders Markdown), so it is escaped
    a.metric("Status", f"{capture.status} {md_escape(capture.final.reason)}")
    b.metric("Body", f"{len(capture.body):,} bytes")
    c.metric("HTTP", capture.final.http_version)
    d.metric("Time", f"{capture.elapsed:.2f} s")
    st.text(f"Final URL: {capture.url}")
    if capture.capture_id:
        st.caption(f"Kept as {md_escape(capture.capture_id)} "
                   f"(fetched {md_escape(str(capture.fetched_at))})")
    for note in capture.notes:
        st.info(md_escape(note))
    if capture.content_codings:
        st.caption(f"Content-Encoding {', '.join(capture.content_codings)} removed: "
                   f"{capture.raw_length:,} bytes received.")
    if capture.redirects:
        st.markdown("**Redirect chain**")
        st.dataframe(pd.DataFrame([{
            "hop": i, "status": e.status, "url": e.url,
            "location": ", ".join(e.header_values("location")), "address": e.address or "",
            "seconds": round(e.elapsed, 3)} for i, e in enumerate(capture.exchanges, 1)]),
            hide_index=True, width="stretch", key="fetch_chain")
    st.markdown("**Response headers, as received**")
    st.dataframe(pd.DataFrame(capture.headers, columns=["name", "value"]), hide_index=True,
                 width="stretch", key="fetch_headers")
    left, middle, right = st.columns(3)
    if left.button("Open in Compare", key="fetch_to_compare"):
        st.switch_page("app_pages/2_compare.py")
    if middle.button("Open in Bytes", key="fetch_to_bytes"):
        st.switch_page("app_pages/3_bytes.py")
    if capture.capture_id and zone.path(capture.capture_id).is_file():
        right.download_button("Capture (WARC)", zone.path(capture.capture_id).read_bytes(),
                              f"{capture.capture_id}.warc.gz", "application/warc",
                              key="fetch_download_warc", on_click="ignore")
