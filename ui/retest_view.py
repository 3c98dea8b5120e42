"""Re-testing a site override from a page: where the fresh sample comes from, and the verdict.

The sample's label, the upload and the summary are untrusted: labels and explanations go
through ``md_escape``, the numbers through ``st.dataframe``, the summary through ``st.code``.
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st

from encoding_core.overrides.retest import RetestResult, Verdict
from encoding_core.overrides.store import SiteOverride
from ui.components import md_escape
from ui.kept_uploader import kept_file_uploader
from ui.overrides_staging import reason_key
from ui.state import CurrentInput, remember, remembered

Sample = tuple[bytes, str | None, str | None]  # body, Content-Type, host it came from
#: Where the uploaded sample is kept across pages (ui.state.keep_upload); its typed
#: Content-Type is kept with ui.state.remember.
UPLOAD_SLOT = "retest"


def sample_loader(mode: str, entry: SiteOverride, current: CurrentInput | None,
                  fetch: Callable[[str], Sample | None]) -> Callable[[], Sample | None]:
    """Show the widgets for ``mode``; return what gets the sample when the re-test runs.

    ``fetch`` gets a live sample from a URL (the page's call into the fetch code).
    """
    if mode == "Current input" and current is not None:
        st.caption(f"Current input: {md_escape(current.label)} ({len(current.body):,} bytes)")
        return lambda: (current.body, current.content_type, current.host)
    if mode == "Live fetch":
        default = (entry.evidence.url if entry.evidence and entry.evidence.url
                   else f"https://{entry.host.removeprefix('*.')}/")
        url = st.text_input("URL to fetch", value=default, key="overrides_retest_url")
        return lambda: fetch(url)
    uploaded = kept_file_uploader("A fresh response body (any bytes)",
                                  key="overrides_retest_upload", slot=UPLOAD_SLOT)
    # the typed header goes with the kept upload: Streamlit drops widget state on a page change
    content_type = st.text_input("Content-Type it was served with (optional)",
                                 value=remembered("overrides_retest_content_type", ""),
                                 key="overrides_retest_content_type",
                                 placeholder="text/html; charset=iso-8859-1")
    remember("overrides_retest_content_type", content_type)

    def load() -> Sample | None:
        if uploaded is None:
            st.error("Upload a response body first.")
            return None
        return uploaded.body, content_type or None, None
    return load


def _use_as_reason(result: RetestResult) -> None:
    st.session_state["overrides_action_entry"] = result.entry_id
    st.session_state[reason_key(result.entry_id)] = result.summary()


def render_result(result: RetestResult) -> None:
    """The verdict, both decodings side by side, and the summary to reuse as a reason."""
    show = {"harmful": st.error, "unneeded": st.warning}.get(result.verdict, st.success)
    show(f"**{result.verdict}**: {md_escape(result.explanation)}")
    st.dataframe(pd.DataFrame([
        {"path": "without the override", "encoding": result.normal_encoding,
         "decided by": result.normal_source, "replacements": result.normal_replacements,
         "mojibake": result.normal_mojibake, "conflicts": result.normal_conflicts},
        {"path": "with the override", "encoding": result.override_encoding,
         "decided by": result.override_source, "replacements": result.override_replacements,
         "mojibake": result.override_mojibake, "conflicts": result.override_conflicts}]),
        hide_index=True, width="stretch", key="overrides_retest_table")
    st.code(result.summary(), language=None, wrap_lines=True)
    st.caption(f"Run at {result.tested_at:%Y-%m-%d %H:%M} UTC; Review renews only on a "
               "still-needed re-test run since the entry came due.")
    still = result.verdict is Verdict.STILL_NEEDED
    st.button("Use this as the reason to renew or retire" if still
              else "Use this as the reason to retire", key="overrides_retest_use",
              on_click=_use_as_reason, args=(result,))
