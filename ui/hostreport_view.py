"""Showing a host report: seed 000's per-host numbers as a table, two charts and downloads.

Host names and skip reasons come from crawled data: hosts reach the screen through
``st.dataframe`` and chart data, skip reasons through ``md_escape``.
"""

from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

from encoding_core.hostreport import QUARANTINE_THRESHOLD, HostReport
from ui.components import md_escape

#: Counts of pages and characters: whole-number ticks only.
_COUNT_AXIS = alt.Axis(format="d", tickMinStep=1)


def render_report(report: HostReport) -> None:
    """Quarantine warnings, one row per host, which source decided, the worst page, downloads."""
    st.subheader("Host report")
    if report.problem:
        st.warning(md_escape(report.problem))
    if report.quarantined_hosts:
        st.error(f"Seed 000 would quarantine {len(report.quarantined_hosts)} host(s): a page "
                 f"needed more than {QUARANTINE_THRESHOLD} replacement characters.")
    hosts = pd.DataFrame([{
        "host": h.host, "pages": h.records, "quarantine": h.quarantine,
        "quarantined pages": h.quarantined_records, "replacements": h.replacements,
        "most on one page": h.max_replacements, "lossy pages": h.lossy,
        "pages with conflicts": h.conflicts, "pages to review": h.needs_review,
        "fetch errors": h.errors,
        "sources": ", ".join(f"{s} {n}" for s, n in h.sources)} for h in report.hosts])
    st.dataframe(hosts, hide_index=True, width="stretch", key="fetch_report_hosts")
    if report.skipped:
        st.caption("Skipped: " + ", ".join(f"{md_escape(r)} {n}" for r, n in report.skipped))
    sources = pd.DataFrame([{"host": h.host, "source": s, "pages": n}
                            for h in report.hosts for s, n in h.sources])
    if not sources.empty:
        st.altair_chart(alt.Chart(sources, title="Which source decided, per host").mark_bar()
                        .encode(x=alt.X("pages:Q", axis=_COUNT_AXIS),
                                y=alt.Y("host:N", sort="-x"), color="source:N",
                                tooltip=["host", "source", "pages"]), width="stretch")
        worst = alt.Chart(hosts, title="Most replacements on one page (quarantine above the "
                          "line)").mark_bar().encode(
            x=alt.X("most on one page:Q", title="replacements on the worst page",
                    axis=_COUNT_AXIS), y=alt.Y("host:N", sort="-x"),
            color=alt.Color("quarantine:N", scale=alt.Scale(domain=[False, True],
                                                             range=["#4c78a8", "#e45756"])),
            tooltip=["host", "most on one page", "replacements"])
        rule = alt.Chart(pd.DataFrame({"x": [QUARANTINE_THRESHOLD]})).mark_rule(
            strokeDash=[4, 4]).encode(x="x:Q")
        st.altair_chart(worst + rule, width="stretch")
    a, b, c = st.columns(3)
    a.download_button("Hosts (CSV)", report.hosts_csv().encode(), "hosts.csv", "text/csv",
                      key="fetch_report_csv", on_click="ignore")
    b.download_button("Pages (CSV)", report.records_csv().encode(), "pages.csv", "text/csv",
                      key="fetch_report_records_csv", on_click="ignore")
    c.download_button("Report (JSON)", report.to_json().encode(), "host-report.json",
                      "application/json", key="fetch_report_json", on_click="ignore")
