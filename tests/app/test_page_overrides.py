"""AppTest for the Overrides page: propose through the form, approve as a second reviewer."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from streamlit.testing.v1 import AppTest

from encoding_core.overrides import OverrideStore, Status
from tests.app.conftest import ROOT
from ui.state import CurrentInput

PAGE = str(ROOT / "app_pages" / "5_site_overrides.py")
REASON = "The CDN sends charset=iso-8859-1 but the body has been UTF-8 since 2025."
BODY = "<p>Café crème, naïve ’quotes’.</p>".encode()
LYING = "text/html; charset=iso-8859-1"


def _page(current: CurrentInput | None = None) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.secrets["placeholder"] = "set explicitly"
    if current is not None:
        at.session_state["current_input"] = current
    return at.run()


def _as(at: AppTest, name: str) -> AppTest:
    at.text_input(key="reviewer_name").set_value(name)
    return at.run()


def _confirm(at: AppTest) -> AppTest:
    assert not at.exception, at.exception
    assert not at.error, [_plain(e) for e in at.error]
    return at.button(key="overrides_confirm").click().run()


def _plain(element) -> str:
    """An alert's text without the Markdown escapes the page adds to untrusted text."""
    return re.sub(r"\\(.)", r"\1", element.value)


def _frame(at: AppTest, *columns: str):
    """The first table whose columns start with ``columns`` (AppTest drops dataframe keys)."""
    for element in at.dataframe:
        frame = element.value
        if list(frame.columns[:len(columns)]) == list(columns):
            return frame
    raise AssertionError(f"no table with columns {columns}")


def _store(app_data) -> OverrideStore:
    return OverrideStore(app_data / "overrides.yaml")


def test_empty_page_offers_the_example_file(app_data):
    """With no file, the page says so; the example file fills the list and the timeline."""
    at = _page()
    assert not at.exception
    assert at.info[0].value.startswith("No overrides yet")
    at.button(key="overrides_load_sample").click().run()
    assert not at.exception, at.exception
    assert len(_store(app_data).entries()) == 4
    table = _frame(at, "id", "host", "encoding", "status")
    assert table["id"].tolist() == ["ov-0001", "ov-0002", "ov-0003", "ov-0004"]
    assert table["due"].tolist()[1].startswith("OVERDUE by")
    assert at.get("vega_lite_chart")
    assert at.download_button(key="overrides_download").label == "Download the overrides file"


def test_propose_then_approve_by_a_second_reviewer(app_data):
    """Ada proposes through the form (diff first, then write); she cannot approve, Bob can."""
    at = _as(_page(), "ada")
    at.text_input(key="overrides_propose_host").set_value("shop.example.com")
    at.selectbox(key="overrides_propose_encoding").set_value("utf-8")
    at.text_area(key="overrides_propose_reason").set_value(REASON)
    at.button(key="overrides_propose_submit").click().run()
    diff = at.code[0].value
    assert "+    host: shop.example.com" in diff and "+    created_by: ada" in diff
    assert not (app_data / "overrides.yaml").exists()  # nothing written before confirming
    at = _confirm(at)
    assert "ov-0001 for shop.example.com is proposed" in _plain(at.success[0])
    [entry] = _store(app_data).entries()
    assert (entry.status, entry.created_by, entry.reason) == (Status.PROPOSED, "ada", REASON)

    at.button(key="overrides_approve").click().run()
    assert "never the author" in _plain(at.error[0])
    at = _as(at, "bob")
    at.selectbox(key="overrides_action_entry").set_value("ov-0001")
    at.button(key="overrides_approve").click().run()
    assert "+    approved_by: bob" in at.code[0].value
    at = _confirm(at)
    entry = _store(app_data).get("ov-0001")
    assert (entry.status, entry.approved_by) == (Status.APPROVED, "bob")
    history = _frame(at, "at", "by", "action")
    assert history["action"].tolist() == ["propose", "approve"]


def test_form_is_prefilled_from_the_current_input(app_data):
    """Host, suggested encoding and the evidence come from the current input."""
    current = CurrentInput("https://shop.example.com/p", BODY, LYING,
                           url="https://shop.example.com/p", capture_id="landing/1")
    at = _as(_page(current), "ada")
    assert at.text_input(key="overrides_propose_host").value == "shop.example.com"
    assert at.selectbox(key="overrides_propose_encoding").value == "utf-8"
    evidence = dict(_frame(at, "field", "value").values.tolist())
    assert evidence["corrects"] == "http-header" and evidence["capture"] == "landing/1"
    at.text_area(key="overrides_propose_reason").set_value(REASON)
    at.button(key="overrides_propose_submit").click().run()
    _confirm(at)
    entry = _store(app_data).get("ov-0001")
    assert entry.evidence is not None and entry.evidence.url == "https://shop.example.com/p"
    assert entry.evidence.corrects == "http-header" and len(entry.evidence.sha256 or "") == 64


def test_nothing_happens_without_a_name(app_data):
    """A change needs a name: the page asks for one and stages nothing."""
    at = _page()
    at.text_input(key="overrides_propose_host").set_value("shop.example.com")
    at.text_area(key="overrides_propose_reason").set_value(REASON)
    at.button(key="overrides_propose_submit").click().run()
    assert "Enter your name" in _plain(at.error[0])
    assert "overrides_pending" not in at.session_state


def test_invalid_proposal_is_explained_not_staged(app_data):
    """A bad field shows the store's message; nothing is staged or written."""
    at = _as(_page(), "ada")
    at.text_input(key="overrides_propose_host").set_value("https://shop.example.com/")
    at.text_area(key="overrides_propose_reason").set_value("fix")
    at.button(key="overrides_propose_submit").click().run()
    assert not at.exception
    assert "not a host name" in _plain(at.error[0])
    assert "overrides_pending" not in at.session_state
    assert not (app_data / "overrides.yaml").exists()


def test_discard_drops_the_pending_change(app_data):
    """Discard removes the staged change without writing."""
    store = _store(app_data)
    store.propose(host="a.example.com", encoding="gbk", reason=REASON, author="ada",
                  review_by=date.today() + timedelta(days=30))
    before = store.path.read_bytes()
    at = _as(_page(), "bob")
    at.text_input(key="overrides_action_reason").set_value(REASON)
    at.button(key="overrides_reject").click().run()
    assert "+    status: rejected" in at.code[0].value
    at.button(key="overrides_cancel").click().run()
    assert not at.exception
    assert "overrides_pending" not in at.session_state
    assert store.path.read_bytes() == before


def test_broken_file_is_reported_and_left_alone(app_data):
    """A hand-broken file is shown with its line, never rewritten, and the page does not crash."""
    path = app_data / "overrides.yaml"
    original = b"version: 1\noverrides:\n  - id: ov-0001\n    hots: a.example.com\n"
    path.write_bytes(original)
    at = _as(_page(), "ada")
    assert not at.exception
    assert ":4: ov" in _plain(at.error[0]) and "unknown key" in _plain(at.error[0])
    assert path.read_bytes() == original


@pytest.mark.parametrize(("content_type", "verdict"), [
    (LYING, "still-needed"), ("text/html; charset=utf-8", "unneeded")],
    ids=["header-still-lies", "header-fixed"])
def test_retest_against_the_current_input(app_data, content_type, verdict):
    """The re-test decodes the current input with and without the override."""
    store = _store(app_data)
    entry = store.propose(host="shop.example.com", encoding="utf-8", reason=REASON,
                          author="ada", review_by=date.today() + timedelta(days=30))
    store.approve(entry.id, reviewer="bob")
    current = CurrentInput("capture", BODY, content_type, url="https://shop.example.com/")
    at = _as(_page(current), "carol")
    at.radio(key="overrides_retest_source").set_value("Current input")
    at.button(key="overrides_retest_run").click().run()
    assert not at.exception, at.exception
    table = _frame(at, "path", "encoding")
    assert table["path"].tolist() == ["without the override", "with the override"]
    assert any(verdict in _plain(m) for m in (*at.success, *at.warning, *at.error))
    at.button(key="overrides_retest_use").click().run()
    assert at.text_input(key="overrides_action_reason").value.startswith("Re-test on sample")


def test_retest_against_a_live_fetch(app_data, monkeypatch):
    """The re-test fetches a fresh sample from a (local, allowed) server and keeps it."""
    from tests.httpserver import ScriptedServer, respond

    monkeypatch.setenv("ENCODING_TRIAGE_ALLOWED_NETWORKS", "127.0.0.1/32")
    store = _store(app_data)
    entry = store.propose(host="127.0.0.1", encoding="utf-8", reason=REASON, author="ada",
                          review_by=date.today() + timedelta(days=30))
    store.approve(entry.id, reviewer="bob")
    routes = {"/": respond(BODY, headers=[("Content-Type", "text/html; charset=utf-8")])}
    with ScriptedServer(routes=routes) as server:
        at = _as(_page(), "carol")
        at.radio(key="overrides_retest_source").set_value("Live fetch").run()
        at.text_input(key="overrides_retest_url").set_value(server.url("/"))
        at.button(key="overrides_retest_run").click().run()
    assert not at.exception, at.exception
    assert any("unneeded" in _plain(m) for m in at.warning)  # the server now says utf-8
    assert list((app_data / "landing").glob("*.warc.gz"))  # the sample was kept
