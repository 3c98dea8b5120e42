"""AppTest for the Bytes page: site overrides, the tab another page opens, counts in words."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.conftest import APP
from tests.overridefiles import approved_override
from ui.state import CurrentInput

PAGE = "app_pages/3_bytes.py"
# 日本語のソース表示 in Shift_JIS: ソ (83 5C) and 表 (95 5C) have ASCII trail bytes; every byte
# is valid windows-1252 too, so the header alone decides windows-1252.
SJIS_BODY = "<p>日本語のソース表示</p>\n".encode("shift_jis")
SJIS_PAGE = CurrentInput(label="https://shop.example/", body=SJIS_BODY,
                         content_type="text/html; charset=windows-1252",
                         url="https://shop.example/")


def _page(current: CurrentInput | None = None, **state: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.secrets["placeholder"] = "set explicitly"
    at.run()
    at.switch_page(PAGE)
    if current is not None:
        at.session_state["current_input"] = current
    for key, value in state.items():
        at.session_state[key] = value
    return at.run()


def _selected_tab(at: AppTest) -> int:
    """The index of the open tab of the page's one tab container."""
    blocks = [at.main]
    while blocks:
        block = blocks.pop()
        if block.proto is not None and block.proto.HasField("tab_container"):
            return int(block.proto.tab_container.default_tab_index)
        blocks.extend(getattr(block, "children", {}).values())
    raise AssertionError("no tabs on the page")


@pytest.mark.parametrize(("override", "decided"), [(None, "windows-1252"),
                                                   ("shift_jis", "shift_jis")],
                         ids=["no-override", "approved-override"])
def test_bytes_decides_with_the_hosts_override(app_data, override, decided) -> None:
    """An approved override for the host decides, as on Compare and Fetch; its column is clean."""
    entry = (approved_override(app_data / "overrides.yaml", "shop.example", override)
             if override else None)
    at = _page(SJIS_PAGE)
    assert not at.exception, at.exception
    assert at.selectbox(key="bytes_encoding").value == decided
    said = [c.value for c in at.caption if "Site override" in c.value]
    assert [entry.id in c for c in said] == ([] if entry is None else [True])  # in a code span
    column = at.dataframe[0].value["shift_jis"].tolist()
    assert "".join(column) == "日本語のソース表示"


def test_bytes_decision_matches_compare(app_data) -> None:
    """Bytes and Compare decide the same encoding for a host with an override, by the same
    call as Fetch: Compare's trace names the entry that applied."""
    entry = approved_override(app_data / "overrides.yaml", "shop.example", "shift_jis")
    at = _page(SJIS_PAGE)
    bytes_decision = at.selectbox(key="bytes_encoding").value
    at.switch_page("app_pages/2_compare.py").run()
    assert at.metric[0].value == bytes_decision == "shift_jis"
    cells = [str(v) for frame in at.dataframe for v in frame.value.to_numpy().ravel()]
    assert any(f"override {entry.id} for shop.example" in cell for cell in cells)


def test_another_page_opens_the_text_tab() -> None:
    """bytes_tab and bytes_text set by another page (CSV scan) open the text tab on that text."""
    at = _page()
    assert _selected_tab(at) == 0
    at = _page(CurrentInput(label="x.csv line 3, name", body="JosÃ©".encode()),
               bytes_tab="Bytes behind a text", bytes_text="JosÃ©", bytes_mode="Current input")
    assert not at.exception, at.exception
    assert _selected_tab(at) == 1
    assert at.text_input(key="bytes_text").value == "JosÃ©"
    assert any("repaired: José" in t.value for t in at.text)


@pytest.mark.parametrize(("body", "encoding", "line"), [
    (b"ok \xff", "utf-8", "1 malformed sequence under utf-8; showing 1."),
    (b"ok \xff \xfe", "utf-8", "2 malformed sequences under utf-8; showing 2."),
    (b"ok \xe9", "windows-1252", "1 non-ASCII run under windows-1252"),
], ids=["one-malformed", "two-malformed", "one-run"])
def test_counts_are_in_words(body: bytes, encoding: str, line: str) -> None:
    """Counts say "1 malformed sequence", not "1 malformed sequences"."""
    at = _page()
    at.radio(key="bytes_mode").set_value("Upload a file").run()
    at.file_uploader(key="bytes_upload").upload("p.html", body, "text/html").run()
    at.selectbox(key="bytes_encoding").select(encoding).run()
    assert not at.exception, at.exception
    assert any(t.value.startswith(line) for t in at.text), [t.value for t in at.text]


def test_two_readings_of_a_text_are_offered_not_ranked():
    """When a whole-text chain and ftfy read a text differently, neither is called better."""


    at = _page()
    at.text_input(key="bytes_text").input("ĂŠtĂŠ").run()
    assert not at.exception, at.exception
    assert at.success and not any("further" in w.value for w in at.warning)
    assert any("reads it differently" in i.value for i in at.info)


def test_koi8_r_read_as_latin_1_is_not_called_clean():
    """KOI8-R read as windows-1252 (no byte of it UTF-8) gets the decision's own check: the
    Cyrillic it was, with a caution that a short text leaves the detector unsure."""
    at = _page()
    at.text_input(key="bytes_text").input("îÏ×ÏÓÔÉ ÄÎÑ").run()
    assert not at.exception, at.exception
    assert not any("looks clean" in i.value for i in at.info)
    assert at.success
    assert any("Новости дня" in t.value for t in at.text)
    assert any("not sure" in w.value for w in at.warning)


def test_partly_damaged_text_offers_its_repair():
    """One lost byte and three repairable characters: the repair is offered, with how many
    characters stay lost, not "cannot be recovered"."""
    at = _page()
    at.text_input(key="bytes_text").input("Oâ€™Brien said â€œhelloâ€\ufffd â€“ ok").run()
    assert not at.exception, at.exception
    assert not any("cannot be recovered" in e.value for e in at.error)
    assert any("Partly repairable" in w.value and "1 character" in w.value for w in at.warning)
    assert any("O’Brien said “hello\ufffd – ok" in t.value for t in at.text)


def test_a_mixed_page_shows_its_segment_map():
    """The mixed sample: a segment map with one row per segment and a strip chart."""
    at = _page()
    at.radio(key="bytes_mode").set_value("Upload a file").run()
    body = ("<p>José Müller — “ok”</p>\n".encode()
            + "<footer>© 2009 – it’s “old”</footer>".encode("cp1252"))
    at.file_uploader(key="bytes_upload").upload("page.html", body, "text/html").run()
    assert not at.exception, at.exception
    segments = next(d.value for d in at.dataframe if "from byte" in d.value.columns)
    assert segments["encoding"].tolist() == ["utf-8", "windows-1252"]
    assert any(s.value == "Segment map" for s in at.subheader)
