"""Showing a host report: seed 000's per-host numbers, the pages, fetch errors, two charts.

Host names, URLs, fetch errors and skip reasons come from crawled data: they reach the screen
through ``st.dataframe``, chart data and selectbox options (plain text), or ``md_escape``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import altair as alt
import pandas as pd
import streamlit as st

from encoding_core.hosts import host_of
from encoding_core.warc.hostreport import QUARANTINE_THRESHOLD, HostReport, RecordOutcome
from encoding_core.wording import plural
from ui.components import md_escape
from ui.wording import md_code

#: Counts of pages and characters: whole-number ticks only.
_COUNT_AXIS = alt.Axis(format="d", tickMinStep=1)
_COUNT = st.column_config.NumberColumn(width="small")


def _host(url: str) -> str:
    return host_of(url) or url


def _hosts_in(urls: Sequence[str], shown: int = 2) -> str:
    """The hosts of ``urls`` for a progress label: the first ``shown``, then how many more."""
    hosts = list(dict.fromkeys(_host(url) for url in urls))
    more = f" and {len(hosts) - shown} more" if len(hosts) > shown else ""
    return ", ".join(md_code(h) for h in hosts[:shown]) + more


def url_progress(urls: Sequence[str], concurrency: int, timeout: float
                 ) -> Callable[[int, int | None], None]:
    """A progress bar for fetching ``urls``, and the callback that moves it as each one ends.

    The label is Markdown, so the hosts are code spans. The core reports only finished fetches,
    so the label says what is still awaited and how long one fetch may take (a slow server
    holds the bar for up to ``timeout`` seconds).
    """
    total = len(urls)
    bar = st.progress(0.0, text=f"Fetching {plural(total, 'URL')} from {_hosts_in(urls)}, "
                      f"at most {concurrency} at a time (each may take up to {timeout:g} s)…")

    def tick(done: int, _: int | None) -> None:
        left = total - done
        bar.progress(done / max(total, 1),
                     text=(f"{done} of {plural(total, 'URL')} fetched" if not left else
                           f"{done} of {plural(total, 'URL')} fetched; waiting for {left} "
                           f"more (each may take up to {timeout:g} s)…"))
    return tick


def _hosts_table(report: HostReport) -> pd.DataFrame:
    """One row per host, with short column names so the table fits (sources are charted)."""
    errors = any(h.errors for h in report.hosts)
    hops = any(h.not_pages for h in report.hosts)
    return pd.DataFrame([{
        "host": h.host, "pages": h.pages,
        **({"not pages": ", ".join(f"{n} × {status}" for status, n in h.not_pages)}
           if hops else {}),
        "quarantine": h.quarantine,
        "quarantined": h.quarantined_records, "replacements": h.replacements,
        "worst page": h.max_replacements, "lossy": h.lossy, "conflicts": h.conflicts,
        "to review": h.needs_review, **({"fetch errors": h.errors} if errors else {}),
        "suggests": (f"{h.suggested_override} ({h.suggested_pages} of "
                     f"{h.pages})") if h.suggested_pages else ""}
        for h in report.hosts])


_HOST_COLUMNS = {
    "host": st.column_config.TextColumn(width="medium"),
    "pages": st.column_config.NumberColumn(width="small", help="responses with a body, decided"),
    "not pages": st.column_config.TextColumn(
        width=110, help="records with nothing to decide, by status: redirect hops (3xx with a "
        "Location) and empty bodies; not counted as pages"),
    "quarantine": st.column_config.CheckboxColumn(
        width="small", help=f"a page needed more than {QUARANTINE_THRESHOLD} replacements"),
    "quarantined": st.column_config.NumberColumn(width=100, help="quarantined pages"),
    "replacements": st.column_config.NumberColumn(width=100, help="U+FFFD, all pages"),
    "worst page": st.column_config.NumberColumn(width="small",
                                                help="most replacements on one page"),
    "lossy": st.column_config.NumberColumn(width="small", help="pages decoded with loss"),
    "conflicts": st.column_config.NumberColumn(width="small", help="pages with conflicts"),
    "to review": st.column_config.NumberColumn(width="small",
                                               help="pages whose decision a person should check"),
    "suggests": st.column_config.TextColumn(
        width=150, help="the override the conflicts of at least half the host's pages point "
        "at (pages of decided pages); propose it on the Overrides page after a look in Compare"),
    "fetch errors": _COUNT,
}


def _pages(report: HostReport) -> RecordOutcome | None:
    """The decided pages, those to review first; the one the user opens in Compare, if any."""
    decided = sorted((r for r in report.records if r.decided),
                     key=lambda r: (not r.needs_review, -r.replacements, r.url))
    if not decided:
        return None
    st.markdown("**Pages**")
    st.dataframe(pd.DataFrame([{
        "url": r.url, "status": r.status, "encoding": r.encoding, "decided by": r.source,
        "replacements": r.replacements, "to review": r.needs_review,
        "suggests": r.suggested, "conflicts": ", ".join(r.conflicts)} for r in decided]),
        hide_index=True, width="stretch", key="fetch_report_pages",
        column_config={"url": st.column_config.TextColumn(width="medium"), "status": _COUNT,
                       "replacements": st.column_config.NumberColumn(width=100),
                       "to review": st.column_config.CheckboxColumn(width="small")})
    left, right = st.columns([3, 1], vertical_alignment="bottom")
    pick = left.selectbox("Page", range(len(decided)), key="fetch_report_pick",
                          format_func=lambda i: f"{decided[i].url} ({decided[i].encoding}, "
                          f"{plural(decided[i].replacements, 'replacement')})")
    if right.button("Open in Compare", key="fetch_report_open") and pick is not None:
        return decided[pick]
    return None


def _failures(report: HostReport) -> None:
    """The URLs that could not be fetched, with the reason."""
    failed = [r for r in report.records if r.error is not None]
    if not failed:
        return
    st.markdown(f"**Not fetched: {plural(len(failed), 'URL')}**")
    st.dataframe(pd.DataFrame([{"url": r.url, "reason": r.error} for r in failed]),
                 hide_index=True, width="stretch", key="fetch_report_failed",
                 column_config={"url": st.column_config.TextColumn(width="medium")})


def render_report(report: HostReport) -> RecordOutcome | None:
    """Quarantine warnings, hosts, pages, failures, charts and downloads; the page to open."""
    st.subheader("Host report")
    if report.problem:
        st.warning(md_escape(report.problem))
    if report.quarantined_hosts:
        st.error(f"Seed 000 would quarantine {plural(len(report.quarantined_hosts), 'host')}: "
                 f"a page needed more than {QUARANTINE_THRESHOLD} replacement characters.")
    hosts = _hosts_table(report)
    st.dataframe(hosts, hide_index=True, width="stretch", key="fetch_report_hosts",
                 column_config=_HOST_COLUMNS)
    if report.skipped:
        st.caption("Skipped: " + ", ".join(f"{md_escape(r)} {n}" for r, n in report.skipped))
    if report.records_omitted:
        st.info(f"{plural(report.records_omitted, 'decided page')} counted above "
                f"{'is' if report.records_omitted == 1 else 'are'} not listed in this file: "
                "a job lists its records only up to --json-records; the records.parquet it "
                "wrote beside this file has them all.")
    opened = _pages(report)
    _failures(report)
    sources = pd.DataFrame([{"host": h.host, "source": s, "pages": n}
                            for h in report.hosts for s, n in h.sources])
    if not sources.empty:
        st.altair_chart(alt.Chart(sources, title="Which source decided, per host").mark_bar()
                        .encode(x=alt.X("pages:Q", axis=_COUNT_AXIS),
                                y=alt.Y("host:N", sort="-x"), color="source:N",
                                tooltip=["host", "source", "pages"]), width="stretch")
        worst = alt.Chart(hosts, title=f"Most replacements on one page (a bar past the dashed "
                          f"line at {QUARANTINE_THRESHOLD} means quarantine)").mark_bar().encode(
            x=alt.X("worst page:Q", title="replacements on the worst page",
                    axis=_COUNT_AXIS), y=alt.Y("host:N", sort="-x"),
            color=alt.Color("quarantine:N", scale=alt.Scale(domain=[False, True],
                                                             range=["#4c78a8", "#e45756"])),
            tooltip=["host", "worst page", "replacements"])
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
    return opened
