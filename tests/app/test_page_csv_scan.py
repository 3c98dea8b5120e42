"""AppTest for the CSV scan page: samples, uploads of good and bad files, the Bytes link."""

from __future__ import annotations

import json

import pytest
from streamlit import config
from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df
from streamlit.testing.v1 import AppTest

from tests.app.conftest import APP

PAGE = "app_pages/4_csv_scan.py"
MOJIBAKE = "JosÃ© GarcÃ­a"


def _page() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.secrets["placeholder"] = "set explicitly"
    at.run()
    return at.switch_page(PAGE).run()


def _upload(name: str, body: bytes) -> AppTest:
    at = _page()
    at.file_uploader(key="csv_upload").upload(name, body, "text/csv").run()
    return at


def _tab(at: AppTest, label: str) -> object:
    return next(tab for tab in at.tabs if tab.label == label)


def _table(at: AppTest, tab: str) -> object:
    return _tab(at, tab).dataframe[0].value  # type: ignore[attr-defined]


def _warnings(at: AppTest) -> str:
    """The warnings' text, Markdown escapes removed."""
    return "\n".join(w.value.replace("\\", "") for w in at.warning)


def _per_column(at: AppTest) -> dict[str, list[int]]:
    frame = _table(at, "Per column")
    return {row.column: [row.cells, row.flagged, row.repairable, row.lossy]
            for row in frame.itertuples()}


def test_page_asks_for_a_file_and_states_the_limit() -> None:
    """Without a file the page says what to do and what the upload limit is."""
    at = _page()
    assert not at.exception
    assert "up to 200 MiB" in at.info[0].value
    assert "200 MiB" in at.file_uploader(key="csv_upload").label


def test_sample_shows_columns_hosts_charts_and_exports() -> None:
    """The sample: per-column and per-host tables, Altair charts, examples, downloads."""
    at = _page()
    at.button(key="csv_sample").click().run()
    assert not at.exception, at.exception
    assert at.selectbox(key="csv_host").value == "source_url"
    assert _per_column(at)["name"] == [20, 9, 7, 2]
    hosts = _table(at, "Per host")
    assert hosts.iloc[0].to_dict()["host"] == "shop-br.example"
    charts = at.get("vega_lite_chart")
    assert len(charts) >= 4
    data = convert_arrow_bytes_to_pandas_df(charts[0].proto.datasets[0].data.data)
    assert set(data["kind"]) == {"repairable", "partly repairable", "mojibake, no repair", "lossy"}
    counts = [json.loads(c.proto.spec)["encoding"]["x"] for c in charts[::2]]
    assert all(x["axis"] == {"format": "d", "tickMinStep": 1} for x in counts), counts
    examples = _table(at, "Examples")
    assert "José García" in examples["repaired"].tolist()
    assert any("Nothing here is repaired in place" in i.value for i in at.info)
    assert at.download_button(key="csv_download_findings").label.startswith("Flagged cells")
    assert at.download_button(key="csv_download_summary")


def test_windows_1252_upload_is_decided_not_assumed() -> None:
    """A windows-1252 upload is read as such; its accents are not flagged, its mojibake is."""
    body = f"name;note\nJosé;“quoted” – 5 €\nZoë;{MOJIBAKE}\n".encode("cp1252")
    at = _upload("legacy.csv", body)
    assert not at.exception, at.exception
    assert "windows-1252" in at.caption[0].value
    assert _per_column(at) == {"name": [2, 0, 0, 0], "note": [2, 1, 1, 0]}


def test_choosing_columns_and_no_host() -> None:
    """Only the chosen columns are scanned; no host table without a host column."""
    at = _upload("x.csv", f"a,b\n{MOJIBAKE},{MOJIBAKE}\n".encode())
    at.multiselect(key="csv_columns").set_value(["b"]).run()
    assert not at.exception
    assert list(_per_column(at)) == ["b"]
    assert "Per host" not in [t.label for t in at.tabs]


def test_a_new_file_gets_its_own_columns() -> None:
    """Two uploads in one session: the second scans its own columns and finds its mojibake."""
    at = _upload("first.csv", f"id,name,comment,url\n1,{MOJIBAKE},ok,https://a.example/\n"
                 .encode())
    assert at.multiselect(key="csv_columns").value == ["id", "name", "comment"]
    second = "id,name,street,city\n1,Jose,StraÃŸe,KÃ¶ln\n2,Ana,CafÃ© Rd,MontrÃ©al\n"
    at.file_uploader(key="csv_upload").set_value(("second.csv", second.encode(), "text/csv"))
    at.run()
    assert not at.exception, at.exception
    assert at.multiselect(key="csv_columns").value == ["id", "name", "street", "city"]
    assert at.selectbox(key="csv_host").value == "(none)"
    assert _per_column(at)["street"][1] + _per_column(at)["city"][1] == 4
    assert not any("No mojibake" in s.value for s in at.success)


def test_samples_one_after_the_other_scan_their_own_columns() -> None:
    """Customers then products: the second sample is scanned, not "Choose at least one column"."""
    at = _page()
    at.button(key="csv_sample").click().run()
    at.selectbox(key="csv_sample_name").set_value("products_windows1252.csv")
    at.button(key="csv_sample").click().run()
    assert not at.exception, at.exception
    assert not at.info or all("Choose at least one" not in i.value for i in at.info)
    assert at.multiselect(key="csv_columns").value == ["sku", "product", "price", "description"]
    assert _per_column(at)["product"][1] > 0


def test_chosen_columns_stay_for_the_same_file() -> None:
    """Reruns on the same file keep the user's column choice."""
    at = _upload("x.csv", f"a,b\n{MOJIBAKE},{MOJIBAKE}\n".encode())
    at.multiselect(key="csv_columns").set_value(["b"]).run()
    at.run()
    assert at.multiselect(key="csv_columns").value == ["b"]


def test_stray_nul_and_unclosed_quote_are_reported_not_refused() -> None:
    """A stray NUL is a warning, not "binary data"; an unclosed quote names its line."""
    rows = "".join(f"{i},Ana\n" for i in range(100))
    at = _upload("nul.csv", f"id,name\n{rows}100,a\x00b\n".encode())
    assert not at.error
    assert "1 NUL byte (00) on line 102, kept in its cell" in _warnings(at)
    at = _upload("quote.csv", f'id,name\n1,"open\n{rows}'.encode())
    assert "a quote opened on line 2 never closes: the rest of the file (101 lines" in (
        _warnings(at))
    assert "1 row could not be read as it is" in _tab(at, "Malformed lines").markdown[0].value


@pytest.mark.parametrize(("name", "body", "message"), [
    ("empty.csv", b"", "the file is empty"),
    ("image.csv", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00", "PNG image"),
    ("book.xlsx", b"PK\x03\x04\x14\x00\x06\x00\x08\x00", "export it as CSV"),
    ("binary.csv", b"a,b\n\x00\x01\x02\x03\x04", "binary data"),
], ids=["empty", "png", "xlsx", "binary"])
def test_unreadable_uploads_show_an_error(name: str, body: bytes, message: str) -> None:
    """Files that are not CSV text get a clear error, not a crash."""
    at = _upload(name, body)
    assert not at.exception, at.exception
    assert message in at.error[0].value


def test_header_only_ragged_and_utf16_uploads() -> None:
    """Header-only says so; ragged rows are listed; UTF-16 is read."""
    at = _upload("header.csv", b"name,city\n")
    assert not at.exception
    assert any("no data rows" in w.value for w in at.warning)
    at = _upload("ragged.csv", f"a,b\n{MOJIBAKE}\nx,y,z\n".encode())
    assert _table(at, "Malformed lines")["line"].tolist() == [2, 3]
    at = _upload("unicode.txt", f"name\t{MOJIBAKE}\n1\t{MOJIBAKE}\n".encode("utf-16"))
    assert "utf-16le" in at.caption[0].value
    assert _per_column(at)[MOJIBAKE] == [1, 1, 1, 0]


def test_utf8_with_windows_1252_lines_warns_and_counts_them_repairable() -> None:
    """Two exports appended (UTF-8, then windows-1252): a warning, the lines read so, no lossy."""
    utf8 = "".join(f"{i},José García,“quoted”\n" for i in range(100)).encode()
    legacy = "".join(f"{i},Zoë Müller,“quoted”\n" for i in range(100, 130)).encode("cp1252")
    at = _upload("mixed.csv", b"id,name,note\n" + utf8 + legacy)
    assert not at.exception
    assert ("the file mixes encodings: 30 lines are windows-1252, read so; the rest is UTF-8. "
            "60 cells with non-ASCII text in those lines count as mixed encoding, repairable"
            ) in _warnings(at)
    metrics = {metric.label: metric.value for metric in at.metric}
    assert metrics["Lossy"] == "0" and metrics["Repairable"] == "60"
    assert metrics["Lines read as `windows-1252`"] == "30"
    assert _per_column(at)["name"] == [130, 30, 30, 0]
    assert set(_table(at, "Examples")["kind"]) == {"mixed-encoding"}


def test_file_over_the_upload_limit() -> None:
    """A file over server.maxUploadSize is refused with both sizes in the message."""
    previous = config.get_option("server.maxUploadSize")
    config.set_option("server.maxUploadSize", 1)
    try:
        at = _upload("big.csv", b"a\n" + b"x" * (1_200_000))
        assert not at.exception
        assert "over the upload limit of 1 MiB" in at.error[0].value
    finally:
        config.set_option("server.maxUploadSize", previous)


def test_example_opens_in_the_bytes_view() -> None:
    """The Bytes link opens the "Bytes behind a text" tab on the suspicious part."""
    at = _upload("x.csv", f"id,name\n1,ok\n2,{MOJIBAKE}\n".encode())
    at.button(key="csv_to_bytes").click().run()
    assert at.text_input(key="bytes_text").value == MOJIBAKE
    assert at.session_state["bytes_tab"] == "Bytes behind a text"
    current = at.session_state["current_input"]
    assert current.body == MOJIBAKE.encode("utf-8")
    assert current.label == "x.csv line 3, name"
    assert at.radio(key="bytes_mode").value == "Current input"


def test_bytes_view_renders_a_mojibake_cell() -> None:
    """The Bytes page shows the cell sent from the scan without an exception."""
    at = _upload("x.csv", f"id,name\n1,ok\n2,{MOJIBAKE}\n".encode())
    at.button(key="csv_to_bytes").click().run()
    assert not at.exception, at.exception


def test_downloads_are_the_scans_own() -> None:
    """The Export tab offers exactly the scan's downloads (fields.scandownloads, where their
    contents are tested), each under its label, as a file of its type."""
    at = _upload("x.csv", f"id,name\n1,ok\n2,{MOJIBAKE}\n".encode())
    for key, label, suffix in (("csv_download_findings", "Flagged cells with proposed "
                                "repairs (CSV)", ".csv"),
                               ("csv_download_summary", "Summary (JSON)", ".json")):
        button = at.download_button(key=key)
        assert (button.label, button.proto.url.endswith(suffix)) == (label, True)


def _leave_and_return(at: AppTest) -> AppTest:
    """Open a finding in the Bytes view, then come back to the scan page."""
    at.button(key="csv_to_bytes").click().run()
    assert at.session_state["bytes_tab"] == "Bytes behind a text"
    return at.switch_page(PAGE).run()


def _metrics(at: AppTest) -> dict[str, str]:
    return {metric.label: metric.value for metric in at.metric}


def test_upload_is_kept_across_pages_with_its_columns_and_report() -> None:
    """Scan → Bytes → back: the same file, columns and results, and no second scan."""
    at = _upload("x.csv", f"id,name,note\n1,ok,{MOJIBAKE}\n2,{MOJIBAKE},ok\n".encode())
    at.multiselect(key="csv_columns").set_value(["name"]).run()
    before = _metrics(at)
    [report] = at.session_state["last_result:csv_scan"].values()
    at = _leave_and_return(at)
    assert not at.exception, at.exception
    assert at.file_uploader(key="csv_upload").value is None   # Streamlit dropped it
    assert "Your upload x.csv (59 bytes), kept" in at.caption[0].value.replace("\\", "")
    assert at.multiselect(key="csv_columns").value == ["name"]
    assert _metrics(at) == before and before["Flagged"] == "1"
    [again] = at.session_state["last_result:csv_scan"].values()
    assert again is report


def test_kept_upload_can_be_forgotten_or_replaced() -> None:
    """After a return the user can forget the kept file, or upload another."""
    at = _leave_and_return(_upload("x.csv", f"id,name\n1,{MOJIBAKE}\n".encode()))
    at.button(key="csv_upload_forget").click().run()
    assert "Upload a CSV file" in at.info[0].value and not at.metric
    at = _leave_and_return(_upload("x.csv", f"id,name\n1,{MOJIBAKE}\n".encode()))
    at.file_uploader(key="csv_upload").upload("y.csv", "a,b\nCafÃ©,1\nok,2\n".encode(), "text/csv")
    at.run()
    assert at.multiselect(key="csv_columns").value == ["a", "b"]
    assert _metrics(at)["Rows"] == "2"


def test_removing_the_upload_does_not_bring_it_back() -> None:
    """The uploader's × forgets the file: the page goes back to asking for one."""
    at = _upload("x.csv", f"id,name\n1,{MOJIBAKE}\n".encode())
    at.file_uploader(key="csv_upload").clear().run()
    assert "Upload a CSV file" in at.info[0].value and not at.metric


def test_sample_after_a_kept_upload_replaces_it() -> None:
    """"Try the sample" after a return scans the sample and forgets the upload."""
    at = _leave_and_return(_upload("x.csv", f"id,name\n1,{MOJIBAKE}\n".encode()))
    at.button(key="csv_sample").click().run()
    assert at.selectbox(key="csv_host").value == "source_url"
    assert "kept_upload:csv_scan" not in at.session_state
    assert not any("kept while you visit" in c.value for c in at.caption)


def test_upload_over_the_keep_limit_asks_to_upload_again(monkeypatch) -> None:
    """A file over ui.state.KEEP_UPLOAD_MIB is not kept; on return the page says so."""
    import ui.state
    monkeypatch.setattr(ui.state, "KEEP_UPLOAD_MIB", 0)
    at = _upload("big.csv", f"id,name\n1,{MOJIBAKE}\n".encode())
    assert any("over 0 MiB are not kept" in c.value for c in at.caption)
    at = _leave_and_return(at)
    assert not at.exception, at.exception
    assert "big.csv (28 bytes) was not kept" in at.info[0].value.replace("\\", "")
    assert "Upload it again" in at.info[0].value and not at.metric


def test_a_parquet_upload_is_scanned_like_a_csv(tmp_path):
    """A Parquet file uploaded on CSV scan: its text columns, counts and examples."""
    import io

    import pyarrow as pa
    import pyarrow.parquet as pq

    buffer = io.BytesIO()
    pq.write_table(pa.table({"name": ["JosÃ© Smith", "Ana", "MÃ¼ller"] * 100,
                             "url": ["http://shop.example/1"] * 300}), buffer,
                   row_group_size=50)
    at = AppTest.from_file(APP, default_timeout=60)
    at.secrets["placeholder"] = "set explicitly"
    at.run()
    at.switch_page("app_pages/4_csv_scan.py").run()
    at.file_uploader(key="csv_upload").upload("records.parquet", buffer.getvalue(),
                                              "application/octet-stream").run()
    assert not at.exception, at.exception
    columns = next(d.value for d in at.dataframe if "repairable" in d.value.columns
                   and "column" in d.value.columns)
    assert columns.set_index("column").loc["name", "flagged"] == 200
    assert at.selectbox(key="csv_host").value == "url"
    at.button(key="csv_to_bytes").click().run()   # a Parquet finding has a row, not a line
    assert not at.exception, at.exception
    assert at.session_state["current_input"].label == "records.parquet row 0, name"


def test_a_scan_report_file_opens_with_the_same_tables() -> None:
    """A report.json written by scan-csv --json (or spark scan) shows its columns, hosts and
    examples; a JSON file that is not one is refused with a message."""
    from encoding_core import scan_csv
    from encoding_core.fields.scanjson import scan_to_json

    body = f"name,url\n{MOJIBAKE},http://a.example/\nAna,http://b.example/\n".encode()
    written = scan_to_json(scan_csv(body, ["name"], "url"), "export.csv").encode()
    at = _page()
    at.file_uploader(key="csv_report_file").upload("report.json", written,
                                                   "application/json").run()
    assert not at.exception, at.exception
    assert _per_column(at) == {"name": [2, 1, 1, 0]}
    assert set(_table(at, "Per host")["host"]) == {"a.example", "b.example"}
    assert "export.csv" in at.caption[0].value.replace("\\", "")
    at.file_uploader(key="csv_report_file").upload("bad.json", b'{"columns": 3}',
                                                   "application/json").run()
    assert any("not a field scan" in e.value for e in at.error)


def test_tables_read_as_a_report() -> None:
    """Headings in words (not partly_repairable), and a lossy row says what is lost, not None."""
    at = _page()
    at.button(key="csv_sample").click().run()
    per_column = _tab(at, "Per column").dataframe[0]  # type: ignore[attr-defined]
    headings = json.loads(per_column.proto.columns)
    assert headings["partly_repairable"]["label"] == "Partly repairable"
    assert headings["rate"]["label"] == "Flagged share"
    examples = _table(at, "Examples")
    assert examples["repaired"].notna().all()
    lossy = examples[examples["kind"] == "lossy"]["repaired"].tolist()
    assert lossy and all(text.startswith("no repair: ") and "lost" in text for text in lossy)
    assert "no repair: 2 letters lost (written as ?)" in lossy


def test_a_kept_upload_dropped_for_room_is_asked_for_again(monkeypatch) -> None:
    """Kept uploads share one server-wide budget: when newer uploads (another user's here)
    push this one out, the page says so on return and asks for the file again."""
    import ui.state
    from ui.session_store import UploadBudget

    budget = UploadBudget(limit=1_000)
    monkeypatch.setattr(ui.state, "UPLOADS", budget)
    at = _upload("x.csv", f"id,name\n1,{MOJIBAKE}\n".encode())
    assert budget.total == 28
    budget.keep("another session", "csv_scan", b"x" * 990)
    at = _leave_and_return(at)
    assert not at.exception, at.exception
    info = at.info[0].value.replace("\\", "")
    assert "x.csv (28 bytes) was not kept" in info and "drops the oldest first" in info
    assert not at.metric


def test_the_scan_runs_in_a_worker_process() -> None:
    """The scan is not done by the server's script thread (ui.worker counts its jobs)."""
    import ui.worker

    before = ui.worker.jobs_started
    at = _upload("x.csv", f"id,name\n1,{MOJIBAKE}\n".encode())
    assert not at.exception, at.exception
    assert _metrics(at)["Flagged"] == "1" and ui.worker.jobs_started == before + 1
