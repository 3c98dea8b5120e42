"""AppTest over the app and every page; Compare and Bytes with interactions."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.conftest import APP, ROOT

PAGES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "app_pages").glob("*.py"))
SAMPLES = [s["name"] for s in json.loads((ROOT / "samples" / "samples.json").read_text())]


def _app() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.secrets["placeholder"] = "set explicitly"
    return at.run()


def test_home_lists_every_page():
    """The home page runs and links every page once, in order, by its URL and title (a link
    deleted or pointing elsewhere fails)."""
    at = _app()
    assert not at.exception
    links = [(link.proto.page, link.proto.label) for link in at.get("page_link")]
    assert len(links) == len(PAGES) == 5
    assert links == [("fetch", "Fetch"), ("compare", "Compare"), ("bytes", "Bytes"),
                     ("csv-scan", "CSV scan"), ("overrides", "Overrides")]


@pytest.mark.parametrize("page", PAGES, ids=PAGES)
def test_page_loads(page):
    """Every page loads without an exception."""
    at = _app()
    at.switch_page(page).run()
    assert not at.exception, at.exception


@pytest.mark.parametrize("sample", SAMPLES, ids=SAMPLES)
def test_compare_every_sample(sample):
    """Compare decides every bundled sample and shows one column per candidate."""
    at = _app()
    at.switch_page("app_pages/2_compare.py").run()
    at.selectbox(key="compare_sample").select(sample).run()
    assert not at.exception, at.exception
    assert at.metric[0].value  # the encoding
    assert at.dataframe[0].value["source"].tolist()  # the trace
    assert any("(decision)" in m.value for m in at.markdown)


def test_compare_extra_encoding_adds_a_column():
    """Adding an encoding adds its column."""
    at = _app()
    at.switch_page("app_pages/2_compare.py").run()
    at.selectbox(key="compare_sample").select("gbk_meta").run()
    at.multiselect(key="compare_extra").select("big5").run()
    assert not at.exception
    assert any(m.value.startswith("**big5") for m in at.markdown)


def test_compare_uploaded_file_with_header():
    """An uploaded body with a typed Content-Type is decided with that header."""
    at = _app()
    at.switch_page("app_pages/2_compare.py").run()
    at.radio(key="compare_mode").set_value("Upload a file").run()
    at.text_input(key="compare_content_type").input("text/html; charset=koi8-r")
    at.file_uploader(key="compare_upload").upload("page.html", "Привет".encode("koi8-r"),
                                                  "text/html").run()
    assert not at.exception, at.exception
    assert at.metric[0].value == "koi8-r"
    assert at.metric[1].value == "http-header"


def test_compare_untrusted_text_is_escaped():
    """A body full of HTML and Markdown is shown escaped, never rendered."""
    at = _app()
    at.switch_page("app_pages/2_compare.py").run()
    at.radio(key="compare_mode").set_value("Upload a file").run()
    body = b"<script>alert(1)</script> **bold** [link](http://x) \xe9"
    at.file_uploader(key="compare_upload").upload("evil.html", body, "text/html").run()
    assert not at.exception
    htmls = [el.proto.body for el in at.get("html")]
    assert htmls and all("<script>" not in h for h in htmls)
    assert any("&lt;script&gt;" in h for h in htmls)


def test_bytes_page_shows_offending_bytes_and_text_chain():
    """Bytes: the mixed sample's malformed bytes with offsets; cafÃ© explained as a chain."""
    at = _app()
    at.switch_page("app_pages/3_bytes.py").run()
    at.selectbox(key="bytes_sample").select("mixed_utf8_cp1252").run()
    assert not at.exception, at.exception
    table = at.dataframe[0].value
    # 92 73 ("’s"): cut on whole characters of every column, and Shift_JIS reads 92 73 as one
    assert table["bytes"].tolist()[:1] == ["92 73"]
    assert "’s" in table["windows-1252"].tolist()
    assert any("[92]" in c.value for c in at.code)
    at.text_input(key="bytes_text").input("JosÃ©").run()
    assert any("utf-8 read as windows-1252" in t.value and "José" in t.value for t in at.text)


def _compare_shop_page() -> AppTest:
    """Compare on UTF-8 bytes fetched from shop.example under an iso-8859-1 header."""
    from ui.state import CurrentInput

    at = _app()
    at.switch_page("app_pages/2_compare.py")
    at.session_state["current_input"] = CurrentInput(
        label="https://shop.example/", body="café".encode(),
        content_type="text/html; charset=iso-8859-1", url="https://shop.example/")
    return at.run()


def test_compare_applies_the_hosts_override(app_data):
    """A fetched page whose host has an approved override is compared with it applied."""
    from tests.overridefiles import approved_override

    entry = approved_override(app_data / "overrides.yaml", "shop.example")
    at = _compare_shop_page()
    assert not at.exception, at.exception
    assert [m.value for m in at.metric[:2]] == ["utf-8", "override"]
    assert any(entry.id in c.value for c in at.caption)  # in a code span (md_code)


def test_compare_with_a_broken_overrides_file_warns_and_decides(app_data):
    """A hand-broken overrides file is reported, left as it is, and no override is applied."""
    broken = b"- host: shop.example\n  encoding: [utf-8\n"
    (app_data / "overrides.yaml").write_bytes(broken)
    at = _compare_shop_page()
    assert not at.exception, at.exception
    assert any("cannot be used, so none is applied" in w.value for w in at.warning)
    assert [m.value for m in at.metric[:2]] == ["windows-1252", "http-header"]
    assert (app_data / "overrides.yaml").read_bytes() == broken


@pytest.mark.parametrize("sample", SAMPLES, ids=SAMPLES)
def test_bytes_every_sample(sample):
    """Bytes shows every bundled sample's offending or non-ASCII sequences with a hex window."""
    at = _app()
    at.switch_page("app_pages/3_bytes.py").run()
    at.selectbox(key="bytes_sample").select(sample).run()
    assert not at.exception, at.exception
    table = at.dataframe[0].value
    assert {"offset", "line", "column", "bytes"} <= set(table.columns)
    assert any("[" in c.value for c in at.code)  # the highlighted bytes


def test_bytes_uploaded_file():
    """An uploaded body read under a chosen encoding lists its malformed bytes."""
    at = _app()
    at.switch_page("app_pages/3_bytes.py").run()
    at.radio(key="bytes_mode").set_value("Upload a file").run()
    at.file_uploader(key="bytes_upload").upload("p.html", b"ok \xe9 ok \xff", "text/html").run()
    at.selectbox(key="bytes_encoding").select("utf-8").run()
    assert not at.exception, at.exception
    assert at.dataframe[0].value["offset"].tolist() == [3, 8]


def test_bytes_text_damaged_in_parts():
    """Text damaged only in parts is still explained (ftfy) and repaired, with its spans."""
    at = _app()
    at.switch_page("app_pages/3_bytes.py").run()
    at.text_input(key="bytes_text").input("â€œItâ€™s JosÃƒÂ©").run()
    assert not at.exception, at.exception
    assert any("repaired: “It’s José" in t.value for t in at.text)


def test_compare_offers_a_regression_case():
    """Compare can save the current bytes as a case; choosing another encoding marks it."""
    at = _app()
    at.switch_page("app_pages/2_compare.py").run()
    at.selectbox(key="compare_sample").select("header_lies_utf8").run()
    assert at.download_button(key="compare_download_case").label == "Download the case (JSON)"
    at.selectbox(key="compare_case_expect").select("utf-8").run()
    assert not at.exception, at.exception
    assert any("known failure" in c.value for c in at.caption)



@pytest.mark.parametrize(("page", "prefix"), [("2_compare.py", "compare"), ("3_bytes.py", "bytes")],
                         ids=["compare", "bytes"])
def test_upload_survives_a_visit_to_another_page(page, prefix):
    """An upload in input_picker becomes the current input, which its page shows on return."""
    at = _app()
    at.switch_page(f"app_pages/{page}").run()
    at.radio(key=f"{prefix}_mode").set_value("Upload a file").run()
    at.file_uploader(key=f"{prefix}_upload").upload("page.html", "Привет".encode("koi8-r"),
                                                    "text/html")
    at.text_input(key=f"{prefix}_content_type").input("text/html; charset=koi8-r").run()
    at.switch_page("app_pages/1_live_fetch.py").run()
    at.switch_page(f"app_pages/{page}").run()
    assert not at.exception, at.exception
    assert at.radio(key=f"{prefix}_mode").value == "Current input"
    assert "Current input: file\\: page\\.html (6 bytes)" in [c.value for c in at.caption]
    assert at.session_state["current_input"].content_type == "text/html; charset=koi8-r"
