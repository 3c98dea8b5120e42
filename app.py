"""Encoding Triage: page config, navigation, and the home page.

The pages live in ``app_pages/``, not ``pages/``: with a ``pages/`` folder, Streamlit 1.67
serves a bookmarked page URL (e.g. ``/compare``) on a freshly started server by the folder's
file-based navigation instead of this one, skipping the page config and the titles below.
"""

from __future__ import annotations

import streamlit as st

st.set_page_config(page_title="Encoding Triage", page_icon="🔤", layout="wide")

# (file, title, URL path, icon, who it is for). Each page's URL is its name (/fetch, not the
# file's /live_fetch), so a link someone shares reads as the page it opens.
PAGES = [
    ("app_pages/1_live_fetch.py", "Fetch", "fetch", ":material/public:",
     "Engineers: fetch a URL (or open a capture or WARC record), see status, redirects, raw "
     "headers, the decision, its trace and conflicts; host reports over a crawl."),
    ("app_pages/2_compare.py", "Compare", "compare", ":material/compare:",
     "Engineers and reviewers: the same bytes decoded under every candidate, side by side, "
     "with differing spans highlighted, replacements and a mojibake score per column."),
    ("app_pages/3_bytes.py", "Bytes", "bytes", ":material/memory:",
     "Engineers: the offending byte sequences with offsets, line and column, a hex window and "
     "what each candidate makes of them; and the bytes behind a pasted text like cafÃ©."),
    ("app_pages/4_csv_scan.py", "CSV scan", "csv-scan", ":material/table_view:",
     "Analysts: upload a CSV and find mojibake per column and host: what is repairable, what "
     "is lost, with examples and exports."),
    ("app_pages/5_site_overrides.py", "Overrides", "overrides", ":material/rule:",
     "Reviewers: propose, approve and re-test dated, reasoned per-site overrides kept in YAML."),
]


def home() -> None:
    st.title("Encoding Triage")
    st.write(
        "Bytes are not text until something decides their encoding, and the web offers four "
        "opinions that often disagree: a byte-order mark, the HTTP Content-Type charset, a "
        "<meta> declaration, and a statistical guess. This app makes the decision observable: "
        "every source's opinion, the decision, the conflicts, and the tools to fix what went wrong."
    )
    for path, title, _url, icon, purpose in PAGES:
        with st.container(border=True):
            st.page_link(path, label=title, icon=icon)
            st.caption(purpose)
    st.caption("Start with Compare and a bundled sample: it works offline.")


navigation = st.navigation(
    [st.Page(home, title="Home", icon=":material/home:", default=True)]
    + [st.Page(path, title=title, icon=icon, url_path=url) for path, title, url, icon, _ in PAGES]
)
navigation.run()
