"""Fetch: a live URL, a kept capture or a WARC record; its hops, raw headers and decision.

Also the host report: seed 000's per-host numbers over a WARC file or a list of URLs.
Settings come from the ``[fetch]`` section of ``.streamlit/secrets.toml`` (any FetchSettings
field, plus ``landing_dir``, ``retention_days`` and ``warc_dir``), then the environment.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from encoding_core import BrowserAnswer, browser_answers
from encoding_core.decision.models import Decoded
from encoding_core.errors import FetchError
from encoding_core.fetch.client import Capture, FetchSettings
from encoding_core.hosts import host_of
from encoding_core.overrides.model import OverrideStatus
from encoding_core.overrides.retest import decode_with_overrides
from encoding_core.warc.hostreport import (
    HostReport,
    RecordOutcome,
    report_from_json,
    report_from_urls,
    report_from_warc,
)
from encoding_core.warc.instrument import default_quarantine_path, read_quarantine
from encoding_core.warc.landing import LandingZone, LandingZoneError, fetch_and_keep, recent, reopen
from encoding_core.warc.reportpage import OpenWarc, ReportPage, report_page
from encoding_core.warc.warcfile import WarcFormatError, WarcListing, list_responses, read_response
from encoding_core.wording import plural
from ui.components import md_escape, render_decision
from ui.config import fetch_config
from ui.fetch_view import render_capture, render_recent
from ui.hostreport_view import render_report, url_progress
from ui.overrides_access import host_overrides, override_lookup
from ui.state import CurrentInput, set_current
from ui.warc_view import WarcChoice, render_listing, warc_source
from ui.wording import md_code
from ui.worker import WorkerError, run_in_worker, waiting_place

_CAPTURE, _REPORT, _REPORT_SOURCE = "fetch_capture", "fetch_report", "fetch_report_source"
#: Which tab opened the page's capture, and how it is named: the capture is shown in that tab
#: only; the others say which capture is open and from where (it does not follow the user).
_ORIGIN, _LABEL = "fetch_capture_origin", "fetch_capture_label"
_LIVE, _KEPT, _WARC, _HOSTS = "Live URL", "Recent captures", "WARC file", "Host report"
#: The WARC file chosen and listed in the WARC tab, with its record count.
Listed = tuple[WarcChoice, int]


@st.cache_data(show_spinner=False, max_entries=16)
def _decide(body: bytes, content_type: str | None,
            statuses: tuple[OverrideStatus, ...]) -> Decoded:
    return decode_with_overrides(body, content_type, statuses)


@st.cache_data(show_spinner=False, max_entries=16)
def _browsers(body: bytes, content_type: str | None, url: str) -> tuple[BrowserAnswer, ...]:
    return browser_answers(body, content_type, url)


@st.cache_data(show_spinner="Reading the WARC file…", max_entries=4)
def _listing(_data: bytes | str, key: str) -> WarcListing:  # key: WarcChoice.key, not a hash
    return list_responses(_data)


def _drop() -> None:
    """Forget the page's capture: a failed fetch or reopen must not show the last one's decision."""
    for key in (_CAPTURE, _ORIGIN, _LABEL):
        st.session_state.pop(key, None)


def _use(capture: Capture, label: str, origin: str) -> None:
    """Make ``capture`` the page's capture (opened from tab ``origin``) and every page's
    current input."""
    st.session_state[_CAPTURE] = capture
    st.session_state[_ORIGIN], st.session_state[_LABEL] = origin, label
    set_current(CurrentInput(label=label, body=capture.body, content_type=capture.content_type,
                             url=capture.url, capture_id=capture.capture_id))


def _open(capture: Capture, label: str, origin: str) -> None:
    """``_use``, then draw the page again: the tabs before ``origin`` were drawn in this run
    with the capture they knew, and each shows the capture only where it was opened."""
    _use(capture, label, origin)
    st.rerun()


def _url_tab(settings: FetchSettings, zone: LandingZone) -> None:
    url = st.text_input("URL", key="fetch_url", placeholder="https://shop.example/product/42")
    st.caption(f"Limits: {settings.max_bytes:,} bytes, {settings.total_timeout:g} s, "
               f"{settings.max_redirects} redirects. Captures are kept {zone.retention_days:g} "
               "days in the landing zone.")
    if st.button("Fetch", key="fetch_go", type="primary"):
        if not url.strip():
            st.info("Type a URL first.")
            return
        try:
            with st.spinner("Fetching…"):
                capture = fetch_and_keep(url.strip(), zone, settings)
        except FetchError as exc:
            _drop()
            st.error(md_escape(str(exc)))
            return
        _open(capture, capture.url, _LIVE)


def _recent_tab(zone: LandingZone) -> None:
    kept = recent(zone, limit=50)
    if not kept:
        st.info("No captures kept yet: fetch a URL first.")
        return
    render_recent(kept)
    by_id = {s.capture_id: s for s in kept}
    pick = st.selectbox("Capture", list(by_id), key="fetch_recent_pick",
                        format_func=lambda i: f"{by_id[i].url} ({by_id[i].fetched_at}, "
                        f"HTTP {by_id[i].status})")
    if st.button("Open this capture", key="fetch_recent_open"):
        try:
            capture = reopen(pick, zone)
        except LandingZoneError as exc:
            _drop()
            st.error(md_escape(str(exc)))
            return
        _open(capture, f"capture {capture.capture_id}: {capture.url}", _KEPT)


def _warc_tab(settings: FetchSettings, section: dict[str, Any]) -> Listed | None:
    """The WARC file's responses and the record to diagnose; the file, once it is listed."""
    warc = warc_source(section)
    if warc is None:
        st.info("Upload a WARC file to list its responses.")
        return None
    try:
        listing = _listing(warc.data, warc.key)
    except (WarcFormatError, OSError) as exc:
        st.error(f"{md_escape(warc.name)}: {md_escape(str(exc))}")
        return None
    if listing.problem:
        st.warning(md_escape(listing.problem))
    render_listing(listing)
    listed = warc, len(listing.responses) + listing.skipped
    labels = {r.index: f"#{r.index} {r.status} {r.url}" for r in listing.responses}
    pick = st.selectbox("Record", list(labels), format_func=labels.__getitem__,
                        key="fetch_warc_pick")
    if st.button("Diagnose this record", key="fetch_warc_open") and pick is not None:
        try:
            capture = read_response(warc.data, pick, max_bytes=settings.max_bytes)
        except (WarcFormatError, FetchError) as exc:
            _drop()
            st.error(md_escape(str(exc)))
            return listed
        _open(capture, f"{warc.name} #{pick}: {capture.url}", _WARC)
    return listed


def _report_tab(settings: FetchSettings, zone: LandingZone, listed: Listed | None) -> None:
    mode = st.radio("Over", ["The WARC file (WARC tab)", "A list of URLs",
                             "A report file (report --json, or a job's report.json)"],
                    horizontal=True, key="fetch_report_mode")
    if mode.startswith("A report file"):
        _open_report_file()
        return
    if mode == "A list of URLs":
        text = st.text_area("URLs, one per line", key="fetch_report_urls")
        left, right = st.columns(2)
        concurrency = left.number_input("At most this many at a time", 1, 8, 2,
                                        key="fetch_report_concurrency")
        delay = right.number_input("Seconds between two requests to one host", 0.0, 30.0, 1.0,
                                   key="fetch_report_delay")
    if not st.button("Build the host report", key="fetch_report_run"):
        return
    overrides = override_lookup()
    if mode == "A list of URLs":
        urls = [line.strip() for line in text.splitlines() if line.strip()]
        if not urls:
            st.info("Paste at least one URL.")
            return
        progress = url_progress(urls, int(concurrency), settings.total_timeout)
        st.session_state[_REPORT] = report_from_urls(
            urls, settings=settings, zone=zone, concurrency=int(concurrency), delay=float(delay),
            progress=progress, overrides=overrides)
        st.session_state[_REPORT_SOURCE] = None
        return
    if listed is None:
        st.info("Open a WARC file in the WARC tab first.")
        return
    warc, total = listed
    bar = st.progress(0.0, text=f"Decoding the HTML responses of {md_code(warc.name)}…")

    def step(done: int, _: int | None) -> None:   # a few times a second (ui.worker)
        bar.progress(min(done / max(total, 1), 1.0),
                     text=f"{done:,} of {plural(total, 'record')} read")
    try:
        st.session_state[_REPORT] = run_in_worker(   # off the server: other pages stay quick
            report_from_warc, warc.data, max_bytes=settings.max_bytes, progress=step,
            overrides=overrides, waiting=lambda place: bar.progress(
                0.0, text=f"Waiting for other users' reports and scans to finish: "
                          f"{waiting_place(place)}…"))
        st.session_state[_REPORT_SOURCE] = warc.key
    except (WarcFormatError, WorkerError) as exc:
        st.error(md_escape(str(exc)))


def _open_report_file() -> None:
    """A host report written by the CLI or a job, opened with the same tables and charts."""
    upload = st.file_uploader("Report file (JSON)", type=["json"], key="fetch_report_file")
    if upload is None:
        st.info("Upload a report.json written by `encoding-triage report --json` or a job.")
        return
    try:
        report = report_from_json(upload.getvalue())
    except ValueError as exc:
        st.session_state.pop(_REPORT, None)   # not the last file's report under this one's name
        st.error(f"{md_code(upload.name)}: {md_escape(str(exc))}")
        return
    st.session_state[_REPORT] = report
    st.session_state[_REPORT_SOURCE] = None


def _kept_report(listed: Listed | None) -> HostReport | None:
    """The last host report, kept in the session so that a return to the page shows it again.

    A report over a list of URLs stays; one over a WARC file belongs to that file (its
    ``_REPORT_SOURCE`` is the file's key) and goes once the file is forgotten or replaced.
    """
    report = st.session_state.get(_REPORT)
    if not isinstance(report, HostReport):
        return None
    source = st.session_state.get(_REPORT_SOURCE)
    if source is not None and (listed is None or listed[0].key != source):
        st.session_state.pop(_REPORT, None)
        st.session_state.pop(_REPORT_SOURCE, None)
        return None
    return report


def _report_page(record: RecordOutcome, listed: Listed | None, settings: FetchSettings,
                 zone: LandingZone, section: dict[str, Any]) -> ReportPage | str:
    """The capture behind a host-report row (``warc.reportpage``), or why not."""
    opened = OpenWarc(listed[0].data, listed[0].name) if listed is not None else None
    built_here = st.session_state.get(_REPORT_SOURCE) is not None and opened is not None
    folder = Path(str(section["warc_dir"])) if section.get("warc_dir") else None
    return report_page(record, zone, opened=opened, built_here=built_here, folder=folder,
                       max_bytes=settings.max_bytes)


def _open_from_report(record: RecordOutcome, listed: Listed | None, settings: FetchSettings,
                      zone: LandingZone, section: dict[str, Any]) -> None:
    """Make the report row's page the current input and open it in Compare."""
    try:
        found = _report_page(record, listed, settings, zone, section)
    except (LandingZoneError, WarcFormatError, FetchError, OSError) as exc:
        st.error(md_escape(str(exc)))
        return
    if isinstance(found, str):
        st.error(md_escape(found))
        return
    _use(found.capture, found.label, _HOSTS)
    st.switch_page("app_pages/2_compare.py")


def _show_capture(capture: Capture, zone: LandingZone) -> None:
    render_capture(capture, zone)
    st.subheader("Decision")
    statuses = host_overrides(host_of(capture.url))
    render_decision(_decide(capture.body, capture.content_type, statuses), key="fetch",
                    browsers=_browsers(capture.body, capture.content_type, capture.url))


def fetch_page_body() -> None:
    st.title("Fetch")
    st.caption("Fetch a URL (address guard, size cap and timeouts apply), reopen a kept "
               "capture or a WARC record: status, redirects, raw headers and the decision.")
    settings, zone, section = fetch_config()
    live, kept, warc, report = st.tabs([_LIVE, _KEPT, _WARC, _HOSTS])
    with live:
        _url_tab(settings, zone)
        _capture_here(_LIVE, zone)
    with kept:
        _recent_tab(zone)
        _capture_here(_KEPT, zone)
    with warc:
        listed = _warc_tab(settings, section)
        _capture_here(_WARC, zone)
    with report:
        _quarantined()
        _report_tab(settings, zone, listed)
        shown = _kept_report(listed)
        if shown is not None:
            record = render_report(shown)
            if record is not None:
                _open_from_report(record, listed, settings, zone, section)
        _capture_here(_HOSTS, zone)


def _quarantined() -> None:
    """The hosts a crawler's record_decode quarantined (seed 000), from its quarantine file."""
    path = default_quarantine_path()
    read = read_quarantine(path)
    entries, bad = read.entries, read.bad
    with st.expander(f"Quarantined hosts ({len({e.host for e in entries})})",
                     expanded=bool(entries)):
        st.caption(f"From {md_code(str(path))} (set ENCODING_TRIAGE_QUARANTINE to read "
                   "another): pages a crawler's record_decode saw with more than 20 "
                   "replacements.")
        coverage = read.coverage()
        if coverage is not None:
            st.text(coverage)
        if bad:
            st.warning(f"{plural(bad, 'line')} of the file could not be read and "
                       f"{'was' if bad == 1 else 'were'} skipped.")
        if entries:
            st.dataframe(pd.DataFrame([asdict(e) for e in entries]), hide_index=True,
                         width="stretch", key="fetch_quarantine")


def _capture_here(tab: str, zone: LandingZone) -> None:
    """The open capture's diagnosis in the tab that opened it; elsewhere, one line naming it
    and the tab it came from (a capture does not follow the user from tab to tab)."""
    capture = st.session_state.get(_CAPTURE)
    if not isinstance(capture, Capture):
        if tab in (_LIVE, _KEPT):
            st.info("Fetch a URL, open a kept capture or a WARC record to see its diagnosis.")
        return
    origin = st.session_state.get(_ORIGIN, _LIVE)
    if origin == tab:
        st.divider()
        _show_capture(capture, zone)
    else:
        st.caption(f"Open elsewhere: {md_code(st.session_state.get(_LABEL, capture.url))}, "
                   f"from the {origin} tab (its diagnosis is shown there).")


fetch_page_body()
