"""AppTest for the Fetch page against a real local server: fetch, captures, WARC, host report."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from encoding_core.overrides.store import OverrideStore
from tests.app.conftest import APP, markdown_html
from tests.httpserver import ScriptedServer, redirect, respond
from tests.warcs import warc_file

PAGE = "app_pages/1_live_fetch.py"
LYING = "<p>José Müller – “quoted” café</p>".encode()
BROKEN = "é".encode() * 50 + b"\xff" * 25


@pytest.fixture(scope="module")
def server() -> Iterator[ScriptedServer]:
    routes = {
        "/page": respond(LYING, headers=[("Content-Type", "text/html; charset=iso-8859-1"),
                                         ("X-Note", "**bold** <script>alert(1)</script>")]),
        "/moved": redirect("/page", 301),
        "/broken": respond(BROKEN, headers=[("Content-Type", "text/html; charset=utf-8")]),
    }
    with ScriptedServer(routes=routes) as srv:
        yield srv


def _page(allow: bool = True) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.secrets["fetch"] = {"allowed_networks": ["127.0.0.1/32"] if allow else [],
                           "total_timeout": 5, "read_timeout": 2}
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    return at


def _fetch(at: AppTest, url: str) -> AppTest:
    at.text_input(key="fetch_url").input(url)
    at.button(key="fetch_go").click().run()
    assert not at.exception, at.exception
    return at


def _table(at: AppTest, column: str) -> pd.DataFrame:
    """The first table with ``column`` (st.dataframe keys are not searchable in AppTest)."""
    return next(df.value for df in at.dataframe if column in df.value.columns)


def _warc() -> bytes:
    return warc_file([("http://a.example/", "text/html; charset=iso-8859-1", LYING),
                      ("http://b.example/", "text/html; charset=utf-8", BROKEN),
                      ("http://b.example/x.png", "image/png", b"\x89PNG")])


def test_empty_page_invites_a_fetch() -> None:
    """Without a capture the page explains what to do."""
    at = _page()
    assert any("Fetch a URL" in i.value for i in at.info)


def test_fetch_shows_chain_headers_and_decision(server: ScriptedServer, app_data: Path) -> None:
    """A fetched page shows its redirect chain, raw headers, decision and conflicts; it is kept."""
    at = _fetch(_page(), server.url("/moved"))
    assert at.metric[0].value == "200 OK"
    chain = _table(at, "location")
    assert chain["status"].tolist() == [301, 200]
    headers = _table(at, "name")
    assert "text/html; charset=iso-8859-1" in headers["value"].tolist()
    assert "windows-1252" in [m.value for m in at.metric]
    assert any("utf8" in alert.value for alert in [*at.warning, *at.error])
    assert len(list((app_data / "landing").glob("*.warc.gz"))) == 1


def test_failed_fetch_clears_the_previous_capture(server: ScriptedServer) -> None:
    """A fetch that fails shows its error alone, not the previous page's capture and decision."""
    at = _fetch(_page(), server.url("/page"))
    assert at.metric[0].value == "200 OK"
    at = _fetch(at, "http://127.0.0.1:1/")
    assert len(at.error) == 1
    assert not at.metric
    assert not [t for t in at.text if t.value.startswith("Final URL")]
    assert any("Fetch a URL" in i.value for i in at.info)


def test_untrusted_headers_are_not_rendered(server: ScriptedServer) -> None:
    """Header values reach the screen only as table cells, never as Markdown or HTML."""
    at = _fetch(_page(), server.url("/page"))
    assert "**bold** <script>alert(1)</script>" in _table(at, "name")[
        "value"].tolist()
    assert all("<script>" not in m.value for m in at.markdown)


def test_a_hostile_reason_phrase_is_shown_as_text() -> None:
    """A reason phrase holding a Markdown image and link is shown literally in the Status
    metric (st.metric renders Markdown: the viewer's browser would fetch the image)."""
    reason = "OK ![pixel](http://127.0.0.1:9/pixel) [click](http://127.0.0.1:9/click) **b**"
    with ScriptedServer(routes={"/": respond(LYING, reason=reason)}) as srv:
        at = _fetch(_page(), srv.url("/"))
    [status] = [m for m in at.metric if m.label == "Status"]
    html = markdown_html(status.value)
    assert "<img" not in html and "<a " not in html and "<strong>" not in html
    assert "pixel" in html and "click" in html


@pytest.mark.parametrize("location", ["javascript:alert(1)", "http:foo"], ids=["js", "no-host"])
def test_a_bad_redirect_is_an_error_naming_the_hop(location: str) -> None:
    """A redirect to an unusable Location is an st.error, not a crash with a traceback."""
    with ScriptedServer(routes={"/": redirect(location)}) as srv:
        at = AppTest.from_file(APP, default_timeout=60)
        at.secrets["fetch"] = {"allowed_networks": ["127.0.0.1/32"], "total_timeout": 5}
        at.run()
        at.switch_page(PAGE).run()
        at.text_input(key="fetch_url").input(srv.url("/"))
        at.button(key="fetch_go").click().run()
    assert not at.exception
    assert any("redirect" in e.value.lower() for e in at.error)


@pytest.mark.parametrize(("url", "message"), [
    ("http://169.254.169.254/latest/meta-data/", "refusing to fetch"),
    ("ftp://example.com/", "only http and https"),
    ("http://no-such-host.invalid/", "could not resolve"),
], ids=["metadata-address", "ftp", "unknown-host"])
def test_fetch_errors_are_shown(url: str, message: str) -> None:
    """Expected failures are shown as errors and the page keeps working."""
    at = _fetch(_page(), url)
    assert any(message in e.value for e in at.error)


def test_loopback_is_blocked_unless_allowed(server: ScriptedServer) -> None:
    """Without allowed networks the local server is refused, with the setting to change."""
    at = _fetch(_page(allow=False), server.url("/page"))
    assert any("allowed\\_networks" in e.value for e in at.error)


def test_open_in_compare(server: ScriptedServer) -> None:
    """The capture becomes the current input and opens in Compare."""
    at = _fetch(_page(), server.url("/page"))
    at.button(key="fetch_to_compare").click().run()
    assert not at.exception, at.exception
    assert at.title[0].value == "Compare"
    assert at.metric[0].value == "windows-1252"


def test_open_in_bytes(server: ScriptedServer) -> None:
    """The capture opens in Bytes."""
    at = _fetch(_page(), server.url("/broken"))
    at.button(key="fetch_to_bytes").click().run()
    assert not at.exception, at.exception
    assert at.title[0].value == "Bytes"


def test_recent_capture_reopens(server: ScriptedServer) -> None:
    """A kept capture is listed and reopens with the same decision."""
    at = _fetch(_page(), server.url("/page"))
    at = _page()
    table = _table(at, "capture")
    assert table["url"].tolist() == [server.url("/page")]
    picker = at.selectbox(key="fetch_recent_pick")
    assert picker.options[0].startswith(server.url("/page") + " (")  # by URL, not by id
    at.button(key="fetch_recent_open").click().run()
    assert not at.exception, at.exception
    assert at.metric[0].value == "200 OK"
    assert any(c.value.startswith("Kept as ") for c in at.caption)


def test_warc_upload_lists_and_diagnoses() -> None:
    """An uploaded WARC lists its responses; a record opens as the capture."""
    at = _page()
    at.file_uploader(key="fetch_warc_upload").upload("crawl.warc.gz", _warc(),
                                                     "application/gzip").run()
    assert not at.exception, at.exception
    assert _table(at, "#")["url"].tolist() == [
        "http://a.example/", "http://b.example/", "http://b.example/x.png"]
    at.selectbox(key="fetch_warc_pick").select(1).run()
    at.button(key="fetch_warc_open").click().run()
    assert not at.exception, at.exception
    assert "Final URL: http://b.example/" in [t.value for t in at.text]


def test_malformed_warc_upload_is_explained() -> None:
    """A file that is not WARC gives a clear error and the page keeps working."""
    at = _page()
    at.file_uploader(key="fetch_warc_upload").upload("notes.warc", b"hello, not a warc",
                                                     "application/octet-stream").run()
    assert not at.exception, at.exception
    assert any("not valid WARC" in e.value for e in at.error)


def test_host_report_over_warc() -> None:
    """The host report shows per-host numbers, the quarantine, charts and exports."""
    at = _page()
    at.file_uploader(key="fetch_warc_upload").upload("crawl.warc.gz", _warc(),
                                                     "application/gzip").run()
    at.button(key="fetch_report_run").click().run()
    assert not at.exception, at.exception
    hosts = _table(at, "quarantined")
    assert hosts["host"].tolist() == ["b.example", "a.example"]
    assert hosts["quarantine"].tolist() == [True, False]
    assert hosts["to review"].tolist() == [1, 1]  # lossy; UTF-8 under iso-8859-1
    assert hosts["suggests"].tolist() == ["", "utf-8 (1 of 1)"]  # the override to consider
    assert "fetch errors" not in hosts.columns  # a WARC file has none: no empty column
    assert any("quarantine 1 host:" in e.value for e in at.error)
    assert len(at.get("vega_lite_chart")) == 2
    assert at.download_button(key="fetch_report_csv").label == "Hosts (CSV)"


def test_host_report_page_opens_in_compare() -> None:
    """A page of a WARC host report opens in Compare as the current input."""
    at = _page()
    at.file_uploader(key="fetch_warc_upload").upload("crawl.warc.gz", _warc(),
                                                     "application/gzip").run()
    at.button(key="fetch_report_run").click().run()
    pages = _table(at, "decided by")
    assert pages["url"].tolist() == ["http://b.example/", "http://a.example/"]
    at.selectbox(key="fetch_report_pick").select(1)
    at.button(key="fetch_report_open").click().run()
    assert not at.exception, at.exception
    assert at.title[0].value == "Compare"
    assert at.session_state["current_input"].url == "http://a.example/"
    assert at.metric[0].value == "windows-1252"


def test_host_report_over_urls(server: ScriptedServer) -> None:
    """URLs are fetched politely and reported per host."""
    at = _page()
    at.radio(key="fetch_report_mode").set_value("A list of URLs").run()
    at.text_area(key="fetch_report_urls").input(
        f"{server.url('/page')}\n{server.url('/broken')}\nhttp://10.0.0.1/")
    at.number_input(key="fetch_report_delay").set_value(0.0)
    at.button(key="fetch_report_run").click().run()
    assert not at.exception, at.exception
    hosts = _table(at, "quarantined")
    assert hosts.set_index("host").loc["127.0.0.1", "pages"] == 2
    assert hosts.set_index("host").loc["10.0.0.1", "fetch errors"] == 1
    failed = _table(at, "reason")
    assert failed["url"].tolist() == ["http://10.0.0.1/"]
    assert "refusing to fetch" in failed["reason"][0]
    assert any(m.value == "**Not fetched: 1 URL**" for m in at.markdown)
    [bar] = at.get("progress")
    assert bar.proto.text == "3 of 3 URLs fetched"
    at.selectbox(key="fetch_report_pick").select_index(0)
    at.button(key="fetch_report_open").click().run()
    assert not at.exception, at.exception
    assert at.title[0].value == "Compare"
    assert at.session_state["current_input"].url == server.url("/broken")


def test_host_report_applies_site_overrides(app_data) -> None:
    """A host with an approved override is decided by it in the report."""
    from tests.overridefiles import approved_override

    approved_override(app_data / "overrides.yaml", "a.example")
    at = _page()
    at.file_uploader(key="fetch_warc_upload").upload("crawl.warc.gz", _warc(),
                                                     "application/gzip").run()
    at.button(key="fetch_report_run").click().run()
    assert not at.exception, at.exception
    report = at.session_state["fetch_report"]
    sources = {h.host: dict(h.sources) for h in report.hosts}
    assert sources["a.example"] == {"override": 1}
    assert "override" not in sources["b.example"]


def test_the_host_report_over_a_warc_file_runs_in_a_worker_process(app_data) -> None:
    """The report is built by a worker (ui.worker counts its jobs), overrides applied there."""
    import ui.worker
    from tests.overridefiles import approved_override

    approved_override(app_data / "overrides.yaml", "a.example")
    at = _page()
    at.file_uploader(key="fetch_warc_upload").upload("crawl.warc.gz", _warc(),
                                                     "application/gzip").run()
    before = ui.worker.jobs_started
    at.button(key="fetch_report_run").click().run()
    assert not at.exception, at.exception
    assert ui.worker.jobs_started == before + 1
    report = at.session_state["fetch_report"]
    assert dict(next(h for h in report.hosts if h.host == "a.example").sources) == {
        "override": 1}


def test_host_report_with_a_broken_overrides_file_warns_and_reports(app_data) -> None:
    """A hand-broken overrides file is reported and the report runs without overrides."""
    (app_data / "overrides.yaml").write_text("hosts: {a.example: utf-8\n")
    at = _page()
    at.file_uploader(key="fetch_warc_upload").upload("crawl.warc.gz", _warc(),
                                                     "application/gzip").run()
    at.button(key="fetch_report_run").click().run()
    assert not at.exception, at.exception
    assert any("cannot be used, so none is applied" in w.value for w in at.warning)
    report = at.session_state["fetch_report"]
    assert all("override" not in dict(h.sources) for h in report.hosts)


def _expired_override(path: Path, host: str) -> str:
    """Write an override for ``host`` approved in 2020 and due for re-test in 2020; its id."""
    store = OverrideStore(path, clock=lambda: datetime(2020, 1, 1, tzinfo=UTC))
    entry = store.propose(host=host, encoding="utf-8", author="alice@example.com",
                          reason="The header says iso-8859-1 but the body has been UTF-8 "
                                 "since the migration.", review_by=date(2020, 2, 1))
    return store.approve(entry.id, reviewer="bob@example.com").id


def test_expired_override_is_warned_on_fetch_and_compare(server: ScriptedServer,
                                                         app_data: Path) -> None:
    """An override for the host that no longer applies is one warning on Fetch and on Compare."""
    entry = _expired_override(app_data / "overrides.yaml", "127.0.0.1")
    at = _fetch(_page(), server.url("/page"))
    [notice] = [w.value for w in at.warning if "not applied" in w.value]
    assert entry.replace("-", "\\-") in notice and "Re-test tab" in notice
    assert at.metric[5].value == "http-header"  # the decision does not use it
    at.button(key="fetch_to_compare").click().run()
    assert not at.exception, at.exception
    assert at.title[0].value == "Compare"
    assert [w.value for w in at.warning if "not applied" in w.value] == [notice]


def test_broken_overrides_file_is_one_warning_on_fetch(server: ScriptedServer,
                                                       app_data: Path) -> None:
    """A hand-broken overrides file is a warning, as on Compare, and the page carries on."""
    (app_data / "overrides.yaml").write_text("hosts: {a.example: utf-8\n")
    at = _fetch(_page(), server.url("/page"))
    assert not [e for e in at.error if "cannot be used" in e.value]
    assert len([w for w in at.warning if "cannot be used" in w.value]) == 1
    assert "windows-1252" in [m.value for m in at.metric]


def _warc_and_report(warc: bytes | None = None) -> AppTest:
    """Upload the WARC file and build its host report."""
    at = _page()
    at.file_uploader(key="fetch_warc_upload").upload("crawl.warc.gz", warc or _warc(),
                                                     "application/gzip").run()
    at.button(key="fetch_report_run").click().run()
    assert not at.exception, at.exception
    return at


def _warc_tables(at: AppTest) -> list[str]:
    """Which of the listing ("#") and the report's hosts ("quarantined") are on the page."""
    return [c for c in ("#", "quarantined") if any(c in df.value.columns for df in at.dataframe)]


def _to_compare_and_back(at: AppTest) -> AppTest:
    """Open the report's second page in Compare with the page's own button, then return."""
    at.selectbox(key="fetch_report_pick").select(1)
    at.button(key="fetch_report_open").click().run()
    assert at.title[0].value == "Compare"
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    return at


def test_warc_upload_and_host_report_are_kept_across_pages() -> None:
    """WARC → report → Open in Compare → back: the same listing and report, not built again."""
    warc = _warc()
    at = _warc_and_report(warc)
    listing, hosts = _table(at, "#"), _table(at, "quarantined")
    report = at.session_state["fetch_report"]
    at = _to_compare_and_back(at)
    assert at.file_uploader(key="fetch_warc_upload").value is None   # Streamlit dropped it
    assert any(c.value.replace("\\", "").startswith(
        f"Your upload crawl.warc.gz ({len(warc)} bytes), kept") for c in at.caption)
    assert _table(at, "#").equals(listing) and _table(at, "quarantined").equals(hosts)
    assert at.session_state["fetch_report"] is report   # kept, not computed again
    assert at.button(key="fetch_report_run").value is False


def test_kept_warc_can_be_forgotten_and_takes_its_report_along() -> None:
    """"Forget this file" drops the upload and its report; a new upload drops the old report."""
    at = _to_compare_and_back(_warc_and_report())
    at.button(key="fetch_warc_upload_forget").click().run()
    assert "Upload a WARC file to list its responses." in [i.value for i in at.info]
    assert "fetch_report" not in at.session_state and not _warc_tables(at)
    at = _to_compare_and_back(_warc_and_report())
    other = warc_file([("http://c.example/", "text/html; charset=utf-8", LYING)])
    at.file_uploader(key="fetch_warc_upload").upload("other.warc", other, "application/warc")
    at.run()
    assert _table(at, "#")["url"].tolist() == ["http://c.example/"]
    assert "fetch_report" not in at.session_state


def test_removing_the_warc_upload_does_not_bring_it_back() -> None:
    """The uploader's × forgets the file and its report."""
    at = _warc_and_report()
    at.file_uploader(key="fetch_warc_upload").clear().run()
    assert "Upload a WARC file to list its responses." in [i.value for i in at.info]
    assert not _warc_tables(at)


def test_warc_over_the_keep_limit_asks_to_upload_again(monkeypatch) -> None:
    """A WARC file over ui.state.KEEP_UPLOAD_MIB is listed, not kept; on return the page says so."""
    import ui.state
    monkeypatch.setattr(ui.state, "KEEP_UPLOAD_MIB", 0)
    warc = _warc()
    at = _warc_and_report(warc)
    assert any("over 0 MiB are not kept" in c.value for c in at.caption)
    at = _to_compare_and_back(at)
    [info] = [i.value for i in at.info if "was not kept" in i.value]
    assert info.replace("\\", "").startswith(f"crawl.warc.gz ({len(warc)} bytes) was not kept")
    assert "Upload it again" in info and not _warc_tables(at)
    assert "fetch_report" not in at.session_state


def test_warc_file_picked_in_warc_dir_is_kept_across_pages(app_data: Path) -> None:
    """A file picked in warc_dir stays picked, with its report, after a visit to Compare."""
    (app_data / "crawl.warc.gz").write_bytes(_warc())
    at = AppTest.from_file(APP, default_timeout=60)
    at.secrets["fetch"] = {"warc_dir": str(app_data)}
    at.run()
    at.switch_page(PAGE).run()
    at.selectbox(key="fetch_warc_file").select("crawl.warc.gz").run()
    at.button(key="fetch_report_run").click().run()
    report = at.session_state["fetch_report"]
    at = _to_compare_and_back(at)
    assert at.selectbox(key="fetch_warc_file").value == "crawl.warc.gz"
    assert _warc_tables(at) == ["#", "quarantined"]
    assert at.session_state["fetch_report"] is report


def _tab(at: AppTest, label: str):
    return next(t for t in at.tabs if t.label == label)


def test_a_capture_is_shown_in_the_tab_that_opened_it(server: ScriptedServer) -> None:
    """A live capture's diagnosis stays in the Live URL tab: after a WARC upload, the WARC
    tab shows its own listing and names the open capture and where it came from."""
    at = _fetch(_page(), server.url("/page"))
    at.file_uploader(key="fetch_warc_upload").upload("crawl.warc.gz", _warc(),
                                                     "application/gzip").run()
    assert not at.exception, at.exception
    live, warc = _tab(at, "Live URL"), _tab(at, "WARC file")
    assert {"Encoding", "Decided by"} <= {m.label for m in live.metric}
    assert not warc.metric  # no decision of a capture that is not the WARC file's
    assert any("from the Live URL tab" in c.value for c in warc.caption)
    at.selectbox(key="fetch_warc_pick").select(1)
    at.button(key="fetch_warc_open").click().run()
    live, warc = _tab(at, "Live URL"), _tab(at, "WARC file")
    assert {"Encoding", "Decided by"} <= {m.label for m in warc.metric}
    assert not live.metric and any("from the WARC file tab" in c.value for c in live.caption)


def test_a_report_row_opens_its_own_record_not_its_urls_first() -> None:
    """Two records of one URL in a crawl: each report row opens its own record (by index)."""
    warc = warc_file([("http://a.example/", "text/html; charset=utf-8", "<p>café</p>".encode()),
                      ("http://a.example/", "text/html; charset=iso-8859-1", LYING)])
    at = _page()
    at.file_uploader(key="fetch_warc_upload").upload("crawl.warc.gz", warc,
                                                     "application/gzip").run()
    at.button(key="fetch_report_run").click().run()
    pages = _table(at, "decided by")
    row = pages["encoding"].tolist().index("windows-1252")
    at.selectbox(key="fetch_report_pick").select_index(row)
    at.button(key="fetch_report_open").click().run()
    assert not at.exception, at.exception
    assert at.title[0].value == "Compare"
    assert at.session_state["current_input"].body == LYING
    assert at.metric[0].value == "windows-1252"


def test_quarantined_hosts_are_listed(app_data, monkeypatch) -> None:
    """Hosts a crawler quarantined (record_decode) are listed on the Host report tab."""
    from prometheus_client import CollectorRegistry

    from encoding_core import decode
    from encoding_core.warc.instrument import record_decode

    path = app_data / "quarantine.jsonl"
    monkeypatch.setenv("ENCODING_TRIAGE_QUARANTINE", str(path))
    record_decode(decode(BROKEN, "text/html; charset=utf-8"), "b.example",
                  registry=CollectorRegistry(), quarantine=path)
    at = _page()
    table = _table(at, "count")
    assert table["host"].tolist() == ["b.example"] and table["count"].tolist() == [25]
    assert not any("Only the newest" in t.value for t in at.text)


def test_a_long_quarantine_file_says_only_its_newest_part_is_shown(app_data, monkeypatch) -> None:
    """Issue 28: past QUARANTINE_TAIL_BYTES the page says, as plain text, that older entries
    are left out (a host quarantined long ago is not listed)."""
    from encoding_core.warc.limits import QUARANTINE_TAIL_BYTES

    path = app_data / "quarantine.jsonl"
    monkeypatch.setenv("ENCODING_TRIAGE_QUARANTINE", str(path))
    line = json.dumps({"host": "old.example", "encoding": "utf-8", "source": "fallback",
                       "count": 30, "time": "2026-01-01T00:00:00Z"}) + "\n"
    path.write_text(line * (QUARANTINE_TAIL_BYTES // len(line) + 10)
                    + line.replace("old.example", "**new**.example") * 20_000)
    at = _page()
    assert "**new**.example" in _table(at, "count")["host"].tolist()
    shown = [t.value for t in at.text if "Only the newest" in t.value]
    assert shown == [f"Only the newest 4.0 MiB of this {path.stat().st_size / 2**20:,.1f} MiB "
                     "file are shown: older entries are left out."]


def test_a_report_file_opens_with_the_same_tables() -> None:
    """A report.json written by `report --json` (or a job) shows its hosts and pages."""
    from encoding_core.warc.hostreport import report_from_warc

    written = report_from_warc(_warc()).to_json().encode()
    at = _page()
    at.radio(key="fetch_report_mode").set_value(
        "A report file (report --json, or a job's report.json)").run()
    at.file_uploader(key="fetch_report_file").upload("report.json", written,
                                                     "application/json").run()
    assert not at.exception, at.exception
    hosts = _table(at, "quarantined")
    assert set(hosts["host"]) == {"a.example", "b.example"}
    assert not any("not listed in this file" in i.value for i in at.info)
    capped = json.loads(written) | {"records": [], "records_omitted": 3}
    at.file_uploader(key="fetch_report_file").upload("capped.json", json.dumps(capped).encode(),
                                                     "application/json").run()
    assert any("3 decided pages counted above are not listed" in i.value for i in at.info)
    at.file_uploader(key="fetch_report_file").upload("bad.json", b'{"hosts": 3}',
                                                     "application/json").run()
    assert any("not a host report" in e.value for e in at.error)


def test_a_job_report_row_opens_its_record_from_the_file_it_names(app_data: Path,
                                                                   tmp_path: Path) -> None:
    """A report file whose records name their WARC file (as a Spark job writes them): a row
    opens its record when a file of that name is in warc_dir, and says so when it is not."""
    from encoding_core.warc.hostreport import report_from_warc

    elsewhere = tmp_path / "job" / "crawl-7.warc.gz"
    elsewhere.parent.mkdir()
    elsewhere.write_bytes(_warc())
    written = report_from_warc(str(elsewhere)).to_json().encode()
    assert b"crawl-7.warc.gz" in written
    at = AppTest.from_file(APP, default_timeout=60)
    at.secrets["fetch"] = {"warc_dir": str(app_data)}
    at.run()
    at.switch_page(PAGE).run()
    at.radio(key="fetch_report_mode").set_value(
        "A report file (report --json, or a job's report.json)").run()
    at.file_uploader(key="fetch_report_file").upload("report.json", written,
                                                     "application/json").run()
    pages = _table(at, "decided by")
    row = pages["url"].tolist().index("http://a.example/")
    at.selectbox(key="fetch_report_pick").select_index(row)
    at.button(key="fetch_report_open").click().run()
    assert any("crawl-7.warc.gz) is not here" in e.value.replace("\\", "") for e in at.error)
    (app_data / "crawl-7.warc.gz").write_bytes(warc_file(   # the same name, another crawl
        [("http://z.example/", "text/html; charset=utf-8", b"<p>z</p>")] * 2))
    at.button(key="fetch_report_open").click().run()
    assert any("is not the file the report was built from" in e.value.replace("\\", "")
               for e in at.error)
    (app_data / "crawl-7.warc.gz").write_bytes(_warc())
    at.button(key="fetch_report_open").click().run()
    assert not at.exception, at.exception
    assert at.title[0].value == "Compare"
    assert at.session_state["current_input"].body == LYING
