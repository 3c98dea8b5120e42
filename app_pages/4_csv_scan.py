"""CSV scan: which columns and hosts hold mojibake or lost characters, and what can be repaired."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from encoding_core.fields.csvread import CsvError
from encoding_core.fields.csvscan import (
    Progress,
    ScanReport,
    guess_host_column,
    read_header,
    scan_csv,
)
from encoding_core.fields.parquetscan import ParquetError, is_parquet, parquet_columns, scan_parquet
from encoding_core.fields.scandownloads import scan_downloads
from encoding_core.fields.scanjson import scan_from_json
from encoding_core.fields.scantotals import KIND_ORDER, cells_by_kind, scan_totals
from encoding_core.fields.scanwords import HEADINGS, repair_in_words
from encoding_core.wording import plural
from ui.components import md_escape
from ui.kept_uploader import kept_file_uploader
from ui.last_result import last_result
from ui.state import CurrentInput, forget_upload, set_current
from ui.wording import md_code
from ui.worker import WorkerError, run_in_worker, waiting_place

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
SAMPLE_FILES = {"customers_mojibake.csv": "Customers (UTF-8, several kinds of damage, URLs)",
                "products_windows1252.csv": "Products (a windows-1252 export, semicolons)"}
NOT_IN_PLACE = (
    "Nothing here is repaired in place, and the repairs below are proposals. Where the raw bytes "
    "were retained, re-decode them with the right encoding; re-encoding stored text "
    "compounds the damage. Where they were not, re-crawl the affected range.")
#: Counts of cells: whole-number ticks only (as ui/hostreport_view.py).
COUNT_AXIS = alt.Axis(format="d", tickMinStep=1)
#: Widgets whose choices belong to one file: a new file starts from its own defaults.
PER_FILE_KEYS = ("csv_columns", "csv_host", "csv_kinds", "csv_example")
#: The choices that decide the scan, saved per file so that a return to the page keeps them.
SAVED_KEYS = ("csv_columns", "csv_host")
#: Where the upload is kept across pages (ui.kept_uploader).
UPLOAD_SLOT = "csv_scan"


def _limit_mib() -> int:
    return int(st.get_option("server.maxUploadSize"))


@st.cache_data(show_spinner=False, max_entries=16)
def _header(_source: Any, key: str) -> list[str]:
    return parquet_columns(_source) if is_parquet(_source) else read_header(_source)


def _scan(source: Any, key: str, columns: tuple[str, ...], host: str | None,
          progress: Progress, waiting: Callable[[int], None]) -> ScanReport:
    """The report, the last one kept per session (``ui.last_result``: a progress bar cannot
    be cached by ``st.cache_data``; it goes when the tab closes), made in a worker process so
    that the server stays free for the other users' pages."""
    return last_result("csv_scan", (key, columns, host), lambda: (
        run_in_worker(scan_parquet, source, list(columns), host, waiting=waiting)
        if is_parquet(source)
        else run_in_worker(scan_csv, source, list(columns), host, progress=progress,
                           waiting=waiting)))


def csv_scan_page() -> None:
    st.title("CSV scan")
    st.write("Find mojibake (`JosÃ©`, `â€™`) and lost characters (`Jos? Garc?a`, `Jos�`) in the "
             "text columns of an exported table: per column and per host, what can be repaired "
             "and what cannot. The file's own encoding is decided here, never assumed.")
    if _opened_report():
        return
    source, name, key = _choose_file()
    try:
        header = _header(source, key)
    except (CsvError, ParquetError) as exc:
        st.error(f"{md_escape(name)} cannot be read as CSV or Parquet: {md_escape(str(exc))}")
        st.stop()
    _defaults_for(key, header)
    columns = st.multiselect("Columns to scan", header, key="csv_columns",
                             help="All but the host or URL column by default; choose it here "
                                  "to scan it too.")
    host = st.selectbox("Host or URL column (optional)", ["(none)", *header], key="csv_host")
    host_column = None if host == "(none)" else host
    if not columns:
        st.info("Choose at least one column to scan.")
        st.stop()
    report = _run_scan(source, key, tuple(columns), host_column)
    _show(report, name)


def _opened_report() -> bool:
    """A scan written elsewhere (``scan-csv --json``, ``spark scan``'s report.json), shown with
    the same tables, charts and examples; True when one is open."""
    with st.expander("…or open a scan report (JSON) written by the CLI or a Spark job"):
        upload = st.file_uploader("Scan report (JSON)", type=["json"], key="csv_report_file",
                                  help="encoding-triage scan-csv FILE --json > report.json, or "
                                       "the report.json of encoding-triage spark scan")
    if upload is None:
        return False
    try:
        name, report = scan_from_json(upload.getvalue())
    except ValueError as exc:
        st.error(f"{md_escape(upload.name)}: {md_escape(str(exc))}")
        return False
    st.info("Showing the scan report file; remove it above to scan a file here.")
    _show(report, name or upload.name)
    return True


def _defaults_for(key: str, header: list[str]) -> None:
    """A new file (upload or sample) starts from its own column choice, not the last file's.

    The widgets keep their keys (tests and the browser find them by key), so their state is
    reset here. Streamlit drops widget state when the user leaves the page, so the columns and
    host chosen for the file are also saved under ``csv_file_choices`` and restored on return
    (the same choice finds the same report in ``_scan``'s store: no new scan).
    """
    seen = st.session_state.get("csv_file_seen") == key
    if seen and "csv_columns" in st.session_state:
        st.session_state["csv_file_choices"] = {
            "key": key, **{name: st.session_state[name] for name in SAVED_KEYS
                           if name in st.session_state}}
        return
    st.session_state["csv_file_seen"] = key
    for name in PER_FILE_KEYS:
        st.session_state.pop(name, None)
    saved = st.session_state.get("csv_file_choices", {})
    if seen and saved.get("key") == key:
        for name in SAVED_KEYS:
            if name in saved:
                st.session_state[name] = saved[name]
        return
    guess = guess_host_column(header)
    st.session_state["csv_columns"] = [name for name in header if name != guess]
    st.session_state["csv_host"] = guess or "(none)"


def _use_sample() -> None:
    """"Try the sample": the chosen sample replaces a kept upload (before the uploader runs)."""
    st.session_state["csv_use_sample"] = st.session_state["csv_sample_name"]
    forget_upload(UPLOAD_SLOT)


def _choose_file() -> tuple[Any, str, str]:
    """The upload (live or kept), or the chosen sample: a source, its name, and a cache key.

    Order: the file in the uploader; else the upload kept from an earlier visit to the page
    (``kept_file_uploader``); else the sample chosen with "Try the sample" (which also forgets
    a kept upload).
    """
    limit = _limit_mib()
    upload = kept_file_uploader(
        f"Upload a CSV file (any encoding) or a Parquet file, up to {limit} MiB",
        key="csv_upload",
        slot=UPLOAD_SLOT,
        help=f"The upload limit is {limit} MiB (server.maxUploadSize in .streamlit/config.toml).")
    left, right = st.columns([3, 1], vertical_alignment="bottom")
    left.selectbox("…or try a sample", list(SAMPLE_FILES), key="csv_sample_name",
                   format_func=lambda n: f"{n}: {SAMPLE_FILES[n]}")
    right.button("Try the sample", key="csv_sample", on_click=_use_sample)
    if upload is not None:
        if len(upload.body) > limit * 2**20:
            st.error(f"{md_escape(upload.name)} is {len(upload.body) / 2**20:,.1f} MiB, over the "
                     f"upload limit of {limit} MiB. Split the file, or scan it with "
                     "`python -m encoding_core scan-csv FILE`, which has no limit.")
            st.stop()
        return upload.body, upload.name, upload.key
    chosen = st.session_state.get("csv_use_sample")
    if chosen in SAMPLE_FILES:
        return SAMPLES / chosen, chosen, f"sample:{chosen}"
    st.info(f"Upload a CSV file (up to {limit} MiB) or try a sample to start.")
    st.stop()
    raise AssertionError("unreachable")  # st.stop() raises


def _run_scan(source: Any, key: str, columns: tuple[str, ...], host: str | None) -> ScanReport:
    bar = st.progress(0.0, text="Scanning…")

    def progress(done: int, total: int | None) -> None:
        fraction = min(done / total, 1.0) if total else 0.0
        bar.progress(fraction, text=f"Scanning… {done / 2**20:,.1f} of "
                                    f"{(total or 0) / 2**20:,.1f} MiB")

    def waiting(place: int) -> None:
        bar.progress(0.0, text=f"Waiting for other users' scans to finish: "
                               f"{waiting_place(place)}…")

    try:
        report = _scan(source, key, columns, host, progress, waiting)
    except (CsvError, ParquetError, WorkerError) as exc:
        bar.empty()
        st.error(f"The file cannot be scanned: {md_escape(str(exc))}")
        st.stop()
    bar.empty()
    return report


def _show(report: ScanReport, name: str) -> None:
    # from a report file these are untrusted text: code spans and escapes, never Markdown
    st.caption(f"{md_escape(name)}: read as {md_code(str(report.encoding))} "
               f"({md_escape(str(report.encoding_reason))}), delimiter "
               f"{md_code(repr(report.delimiter))}")
    for note in report.notes:
        st.warning(md_escape(note))
    totals = scan_totals(report)
    cols = st.columns(7 if report.mixed_lines else 6)
    cols[0].metric("Rows", f"{report.rows:,}")
    cols[1].metric("Cells scanned", f"{totals.cells:,}")
    cols[2].metric("Flagged", f"{totals.flagged:,}")
    cols[3].metric("Repairable", f"{totals.repairable:,}")
    cols[4].metric("Partly repairable", f"{totals.partly_repairable:,}",
                   help="A repair is offered, but some characters stay lost (U+FFFD or ?).")
    cols[5].metric("Lossy", f"{totals.lossy:,}")
    if report.mixed_lines:   # a UTF-8 file with lines in another encoding, read in it
        cols[6].metric(f"Lines read as {md_code(str(report.mixed_encoding))}",
                       f"{report.mixed_lines:,}",
                       help="These lines are not UTF-8; their non-ASCII cells count as mixed "
                            "encoding, repairable (see the warning above).")
    names = ["Per column", *(["Per host"] if report.hosts is not None else []), "Examples",
             *(["Malformed lines"] if report.malformed_count else []), "Export"]
    tabs = dict(zip(names, st.tabs(names), strict=True))
    with tabs["Per column"]:
        _table_and_chart(report.columns, "column", "csv_columns_table")
    if report.hosts is not None:
        with tabs["Per host"]:
            _table_and_chart(report.hosts, "host", "csv_hosts_table", top=25)
    with tabs["Examples"]:
        _examples(report, name)
    if report.malformed_count:
        with tabs["Malformed lines"]:
            st.write(f"{plural(report.malformed_count, 'row')} could not be read as "
                     f"{'it is' if report.malformed_count == 1 else 'they are'}; the readable "
                     "fields of ragged rows were scanned.")
            st.dataframe(report.malformed, hide_index=True, width="stretch", key="csv_malformed")
    with tabs["Export"]:
        st.info(NOT_IN_PLACE)
        for download in scan_downloads(report, Path(name).stem):
            st.download_button(download.label, download.data, file_name=download.file_name,
                               mime=download.mime, key=download.key, on_click="ignore")


def _table_and_chart(frame: pd.DataFrame, by: str, key: str, top: int | None = None) -> None:
    st.dataframe(frame, hide_index=True, width="stretch", key=key,
                 column_config={**HEADINGS, "rate": st.column_config.NumberColumn(
                     HEADINGS["rate"], format="percent")})
    shown = frame.head(top) if top else frame
    if not shown["flagged"].sum():
        st.success("Nothing flagged.")
        return
    chart = alt.Chart(cells_by_kind(shown, by)).mark_bar().encode(
        x=alt.X("cells:Q", title="flagged cells", axis=COUNT_AXIS),
        y=alt.Y(f"{by}:N", sort=list(shown[by]), title=None),
        color=alt.Color("kind:N", sort=list(KIND_ORDER), title=None),
        tooltip=[by, "kind", "cells"])
    st.altair_chart(chart, width="stretch")
    rate = alt.Chart(shown).mark_bar().encode(
        x=alt.X("rate:Q", axis=alt.Axis(format="%"), title="flagged / cells scanned"),
        y=alt.Y(f"{by}:N", sort=list(shown[by]), title=None), tooltip=[by, "rate"])
    st.altair_chart(rate, width="stretch")


def _examples(report: ScanReport, name: str) -> None:
    findings = report.findings
    if findings.empty:
        st.success("No mojibake or lost characters found.")
        return
    st.info(NOT_IN_PLACE)
    kinds = st.multiselect("Kinds", sorted(findings["kind"].unique()),
                           default=sorted(findings["kind"].unique()), key="csv_kinds")
    shown = findings[findings["kind"].isin(kinds)].head(500)
    order = [c for c in ("file", "row", "line", "column", "host", "kind", "excerpt", "repaired",
                         "chain")
             if c in shown.columns]
    table = shown[order].assign(repaired=[repair_in_words(*cell)[:300] for cell in zip(
        shown["kind"], shown["repaired"], shown["original"], strict=True)])
    st.dataframe(table, hide_index=True, width="stretch", key="csv_examples",
                 column_config=HEADINGS)
    st.caption(f"Showing {len(shown):,} of {plural(report.flagged, 'flagged cell')}"
               + (" (the findings list is capped; the counts are complete)."
                  if report.findings_truncated else "."))
    if shown.empty:
        return
    # a CSV's findings have lines; a Parquet file's, rows
    labels = [(f"line {r.line}" if hasattr(r, "line") else f"row {r.row}")
              + f", {r.column}: {str(r.excerpt)[:60]}" for r in shown.itertuples()]
    chosen = st.selectbox("Look at the bytes of", range(len(labels)), key="csv_example",
                          format_func=labels.__getitem__)
    if st.button("Open in the Bytes view", key="csv_to_bytes"):
        row = shown.iloc[chosen]
        excerpt = str(row["excerpt"])
        where = f"line {row['line']}" if "line" in shown.columns else f"row {row['row']}"
        set_current(CurrentInput(label=f"{name} {where}, {row['column']}",
                                 body=excerpt.encode("utf-8"),
                                 content_type="text/plain; charset=utf-8"))
        # a cell is text, not bytes: the Bytes page's "Bytes behind a text" tab explains it
        st.session_state["bytes_text"] = excerpt
        st.session_state["bytes_tab"] = "Bytes behind a text"
        st.session_state["bytes_mode"] = "Current input"   # the other tab's input picker
        st.switch_page("app_pages/3_bytes.py")


csv_scan_page()
