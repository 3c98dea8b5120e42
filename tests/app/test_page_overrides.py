"""AppTest for the Overrides page: propose through the form, approve as a second reviewer."""

from __future__ import annotations

import json
import re
from datetime import UTC, date, datetime, timedelta

import pytest
from streamlit import config
from streamlit.testing.v1 import AppTest

from encoding_core.overrides.store import OverrideEvidence, OverrideStore, Status
from tests.app.conftest import ROOT
from ui.state import CurrentInput

PAGE = str(ROOT / "app_pages" / "5_site_overrides.py")
REASON = "The CDN sends charset=iso-8859-1 but the body has been UTF-8 since 2025."
BODY = "<p>Café crème, naïve ’quotes’.</p>".encode()
LYING = "text/html; charset=iso-8859-1"


@pytest.fixture(autouse=True)
def served_on(request):
    """The address the app is served on (``server.address``): loopback, as ``make run`` serves
    it, unless a test asks for another with ``@pytest.mark.parametrize("served_on", ...)``."""
    address = getattr(request, "param", "127.0.0.1")
    before = config.get_option("server.address")
    config.set_option("server.address", address)
    yield address
    config.set_option("server.address", before)


def _page(current: CurrentInput | None = None) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.secrets["placeholder"] = "set explicitly"
    if current is not None:
        at.session_state["current_input"] = current
    return at.run()


def _as(at: AppTest, name: str) -> AppTest:
    at.text_input(key="reviewer_name").set_value(name)
    return at.button(key="reviewer_use").click().run()


def _sidebar_text(at: AppTest) -> str:
    return "\n".join(t.value for t in at.sidebar.text)


def _approved(app_data, host: str = "shop.example.com", days: int = 30, ago: int = 0):
    """An entry for ``host`` due in ``days`` days, proposed and approved ``ago`` days ago."""
    then = datetime.now(UTC) - timedelta(days=ago)
    store = OverrideStore(app_data / "overrides.yaml", clock=lambda: then)
    entry = store.propose(host=host, encoding="utf-8", reason=REASON, author="ada",
                          review_by=date.today() + timedelta(days=days))
    return store.approve(entry.id, reviewer="bob")


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


def _reason(at: AppTest):
    """The Review tab's reason box, whatever key it has for the selected entry."""
    [box] = [t for t in at.text_input if t.label.startswith("Reason")]
    return box


def _keys(at: AppTest) -> set[str]:
    return {b.key for b in at.button}


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

    at = _as(_page(), "bob")  # Bob, in his own session
    at.selectbox(key="overrides_action_entry").set_value("ov-0001")
    at.button(key="overrides_approve").click().run()
    assert "+    approved_by: bob" in at.code[0].value
    assert not at.warning  # nothing to flag: this session never acted as Ada
    at = _confirm(at)
    entry = _store(app_data).get("ov-0001")
    assert (entry.status, entry.approved_by) == (Status.APPROVED, "bob")
    history = _frame(at, "at", "by", "action")
    assert history["action"].tolist() == ["propose", "approve"]


def test_name_is_fixed_once_used_and_a_switch_is_recorded(app_data):
    """The typed name cannot be edited in place; switching is a button, listed in the sidebar,
    and a review by a session that acted as the author is flagged with the diff."""
    store = _store(app_data)
    store.propose(host="shop.example.com", encoding="utf-8", reason=REASON, author="ada",
                  review_by=date.today() + timedelta(days=30))
    at = _as(_page(), "ada")
    assert not [t for t in at.text_input if t.key == "reviewer_name"]  # no field to retype
    assert "ada" in _sidebar_text(at) and "not verified" in at.sidebar.caption[0].value
    at.button(key="reviewer_switch").click().run()
    assert "ada switched user" in _sidebar_text(at)
    at = _as(at, "bob")
    assert "acting as ada" in _sidebar_text(at) and "acting as bob" in _sidebar_text(at)
    flagged = "This browser session acted as ada, who proposed ov-0001, before switching to bob"
    assert flagged in _plain(at.warning[0])
    at.button(key="overrides_approve").click().run()
    assert any(flagged in _plain(w) for w in at.warning)  # again, next to the diff
    _confirm(at)
    assert store.get("ov-0001").approved_by == "bob"  # visible, not prevented: names are typed


def test_review_shows_the_entry_and_its_evidence(app_data):
    """The reviewer sees the full reason and the evidence (URL, sha256, capture, fetched_at)."""
    evidence = OverrideEvidence(url="https://shop.example.com/p",
                                fetched_at=datetime(2030, 1, 1, 12, tzinfo=UTC),
                                sha256="ab" * 32, corrects="http-header", replacements=0,
                                conflicts=1, capture="20300101T120000Z-0123456789ab")
    _store(app_data).propose(host="shop.example.com", encoding="utf-8", reason=REASON,
                             author="ada", review_by=date.today() + timedelta(days=30),
                             evidence=evidence)
    at = _as(_page(), "bob")
    assert not at.exception, at.exception
    entry = dict(_frame(at, "field", "value").values.tolist())
    assert entry["status"] == "proposed" and entry["proposed"].endswith(" by ada")
    assert REASON in [t.value for t in at.text]  # the whole reason, as text
    shown = {row[0]: row[1] for row in _frame(at, "field", "value", "means").values.tolist()}
    assert shown == {"url": "https://shop.example.com/p", "fetched_at": "2030-01-01 12:00:00+00:00",
                     "sha256": "ab" * 32, "corrects": "http-header", "replacements": "0",
                     "conflicts": "1", "capture": "20300101T120000Z-0123456789ab"}


def test_review_says_when_there_is_no_evidence(app_data):
    """A hand-filled proposal says it has no evidence instead of an empty table."""
    _store(app_data).propose(host="shop.example.com", encoding="utf-8", reason=REASON,
                             author="ada", review_by=date.today() + timedelta(days=30))
    at = _as(_page(), "bob")
    assert any(c.value.startswith("No evidence attached") for c in at.caption)


def test_reasons_wrap_in_the_tables(app_data):
    """The overview's reason column is wide and its rows tall enough to wrap a sentence."""
    _approved(app_data)
    at = _as(_page(), "carol")
    table = next(d for d in at.dataframe if "reason" in d.value.columns
                 and "host" in d.value.columns)
    assert table.proto.row_height > 64  # the grid wraps text only above 4rem
    assert json.loads(table.proto.columns)["reason"]["width"] == "large"
    assert "OVERDUE" not in table.value["due"].iloc[0]
    assert table.value["due"].iloc[0] in ("30 days left", "due soon: 30 days left")


def test_duplicate_proposal_is_flagged_before_it_is_written(app_data):
    """Proposing for a host that has an approved entry names that entry next to the diff."""
    _approved(app_data)
    at = _as(_page(), "carol")
    at.text_input(key="overrides_propose_host").set_value("Shop.Example.com")
    at.text_area(key="overrides_propose_reason").set_value(REASON)
    at.button(key="overrides_propose_submit").click().run()
    assert "+    host: shop.example.com" in at.code[0].value
    [warning] = [w for w in at.warning if not _plain(w).startswith("Renew is not possible")]
    assert "ov-0001 (utf-8, approved, review by" in _plain(warning)
    assert "can be approved only once ov-0001 is retired" in _plain(warning)


def test_form_is_prefilled_from_the_current_input(app_data):
    """Host, suggested encoding and the evidence come from the current input."""
    current = CurrentInput("https://shop.example.com/p", BODY, LYING,
                           url="https://shop.example.com/p", capture_id="landing/1")
    at = _as(_page(current), "ada")
    assert at.text_input(key="overrides_propose_host").value == "shop.example.com"
    assert at.selectbox(key="overrides_propose_encoding").value == "utf-8"
    evidence = {row[0]: row[1] for row in _frame(at, "field", "value").values.tolist()}
    assert evidence["corrects"] == "http-header" and evidence["capture"] == "landing/1"
    at.text_area(key="overrides_propose_reason").set_value(REASON)
    at.button(key="overrides_propose_submit").click().run()
    _confirm(at)
    entry = _store(app_data).get("ov-0001")
    assert entry.evidence is not None and entry.evidence.url == "https://shop.example.com/p"
    assert entry.evidence.corrects == "http-header" and len(entry.evidence.sha256 or "") == 64


def test_proposal_from_a_capture_records_when_it_was_fetched(app_data):
    """Evidence from a kept capture carries its fetch time, read back from the landing zone."""
    from encoding_core.warc.landing import LandingZone, fetch_and_keep
    from tests.httpserver import ScriptedServer, respond
    from tests.landingfixtures import SETTINGS

    with ScriptedServer(routes={"/p": respond(BODY, headers=[("Content-Type", LYING)])}) as srv:
        capture = fetch_and_keep(srv.url("/p"), LandingZone(app_data / "landing"), SETTINGS)
    assert capture.capture_id and capture.fetched_at
    current = CurrentInput(capture.url, capture.body, capture.content_type, url=capture.url,
                           capture_id=capture.capture_id)
    at = _as(_page(current), "ada")
    fetched = datetime.fromisoformat(capture.fetched_at).replace(microsecond=0)
    shown = {row[0]: row[1] for row in _frame(at, "field", "value").values.tolist()}
    assert shown["fetched_at"].startswith(fetched.strftime("%Y-%m-%d %H:%M:%S"))
    at.text_area(key="overrides_propose_reason").set_value(REASON)
    at.button(key="overrides_propose_submit").click().run()
    assert f"fetched_at: {fetched:%Y-%m-%d %H:%M:%S}" in at.code[0].value
    _confirm(at)
    evidence = _store(app_data).get("ov-0001").evidence
    assert evidence is not None and evidence.fetched_at == fetched
    assert evidence.capture == capture.capture_id


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
    at.text_input(key="overrides_action_reason_ov-0001").set_value(REASON)
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
    assert _reason(at).value.startswith("Re-test on sample")
    renew = at.button(key="overrides_renew")
    if verdict == "unneeded":  # the page decodes right without it: retire, never renew
        assert renew.disabled
        assert any("says unneeded" in _plain(w) and "retire it instead" in _plain(w)
                   for w in at.warning)
        return
    assert not renew.disabled
    renew.click().run()
    assert "action: renew" in at.code[0].value and "says still-needed" in at.code[0].value
    at = _confirm(at)
    [*_, event] = store.history(entry.id)
    assert event.action == "renew" and "says still-needed" in (event.reason or "")
    assert _reason(at).value == ""  # used: it does not wait there for the next change


def test_review_sees_the_retest_at_once(app_data):
    """Right after "Run the re-test" (no other widget touched), Review says what a renewal
    rests on and Renew is on: the re-test is not shown as lost."""
    _approved(app_data, days=10, ago=60)  # due: a renewal needs a re-test
    current = CurrentInput("capture", BODY, LYING, url="https://shop.example.com/")
    at = _as(_page(current), "carol")
    assert at.button(key="overrides_renew").disabled
    at.radio(key="overrides_retest_source").set_value("Current input")
    at.button(key="overrides_retest_run").click().run()
    assert not at.exception, at.exception
    assert not at.button(key="overrides_renew").disabled
    assert any("Renewing rests on the re-test of" in _plain(c) for c in at.caption)
    assert not any("no re-test of ov-0001" in _plain(w) for w in at.warning)


def test_renew_needs_a_retest(app_data):
    """Without a re-test of the entry in this session, Renew is off and the page says why."""
    _approved(app_data, days=10, ago=60)  # approved 60 days ago, came due 20 days ago
    at = _as(_page(), "carol")
    assert at.button(key="overrides_renew").disabled
    came_due = date.today() + timedelta(days=10 - 30)
    assert any(f"no re-test of ov-0001 has been run since it came due on {came_due}"
               in _plain(w) for w in at.warning)


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


def test_a_reason_stays_with_the_entry_it_was_written_for(app_data):
    """A re-test summary taken as ov-0001's reason is not shown, nor staged, for ov-0002."""
    _approved(app_data, host="shop.example.com", days=20)
    _approved(app_data, host="news.example.com", days=25)
    current = CurrentInput("capture", BODY, LYING, url="https://shop.example.com/")
    at = _as(_page(current), "carol")
    at.selectbox(key="overrides_retest_entry").set_value("ov-0001")
    at.radio(key="overrides_retest_source").set_value("Current input")
    at.button(key="overrides_retest_run").click().run()
    at.button(key="overrides_retest_use").click().run()
    assert at.selectbox(key="overrides_action_entry").value == "ov-0001"
    summary = _reason(at).value
    assert summary.startswith("Re-test on sample")
    at.selectbox(key="overrides_action_entry").set_value("ov-0002").run()
    assert _reason(at).value == ""
    at.button(key="overrides_retire").click().run()
    assert "overrides_pending" not in at.session_state  # no reason: nothing staged
    assert any("reason" in _plain(e) for e in at.error)
    _reason(at).set_value(REASON)
    at.button(key="overrides_retire").click().run()
    diff = next(c.value for c in at.code if c.language == "diff")
    assert "closed_reason: The CDN sends" in diff and summary[:30] not in diff


CP1252 = "<p>Café crème, naïve “quotes”.</p>".encode("windows-1252")


def test_propose_prefills_the_decisions_encoding_when_nothing_is_suggested(app_data):
    """An honest windows-1252 page suggests nothing: the form starts from windows-1252,
    what the page decodes as, not utf-8; its preview carries no warning."""
    current = CurrentInput("https://old.example.com/", CP1252, "text/html; charset=windows-1252",
                           url="https://old.example.com/")
    at = _as(_page(current), "ada")
    assert at.selectbox(key="overrides_propose_encoding").value == "windows-1252"
    at.text_area(key="overrides_propose_reason").set_value(REASON)
    at.button(key="overrides_propose_submit").click().run()
    assert "+    encoding: windows-1252" in at.code[0].value
    assert not at.warning


def test_preview_warns_when_the_encoding_fails_on_the_evidence(app_data):
    """utf-8 over windows-1252 evidence bytes: the diff comes with a warning naming the
    malformed byte's offset; it is still written when confirmed."""
    current = CurrentInput("https://old.example.com/", CP1252, "text/html; charset=windows-1252",
                           url="https://old.example.com/")
    at = _as(_page(current), "ada")
    at.selectbox(key="overrides_propose_encoding").set_value("utf-8")
    at.text_area(key="overrides_propose_reason").set_value(REASON)
    at.button(key="overrides_propose_submit").click().run()
    assert "+    encoding: utf-8" in at.code[0].value
    offset = CP1252.index(b"\xe9")
    [warning] = [_plain(w) for w in at.warning]
    assert (f"utf-8 does not decode this body strictly: byte 0xE9 at offset {offset} is not "
            "valid utf-8, so the override would be skipped") in warning
    _confirm(at)
    assert _store(app_data).get("ov-0001").encoding == "utf-8"  # warned, not blocked


def test_renew_warning_only_when_a_renewal_is_wanted(app_data):
    """An approved entry that is not due gets a quiet caption, not a warning, about Renew."""
    _approved(app_data, days=200)
    at = _as(_page(), "carol")
    assert not [w for w in at.warning if _plain(w).startswith("Renew is not possible")]
    assert at.button(key="overrides_renew").disabled
    assert any(c.value.startswith("Not due for renewal yet") for c in at.caption)


@pytest.mark.parametrize(("approve", "offered"), [
    (False, {"overrides_approve", "overrides_reject", "overrides_retire"}),
    (True, {"overrides_retire", "overrides_renew"})], ids=["proposed", "approved"])
def test_review_offers_only_the_actions_the_status_allows(app_data, approve, offered):
    """A proposal can be approved, rejected or retired; an approved entry retired or renewed."""
    entry = _store(app_data).propose(host="shop.example.com", encoding="utf-8", reason=REASON,
                                     author="ada", review_by=date.today() + timedelta(days=90))
    if approve:
        _store(app_data).approve(entry.id, reviewer="bob")
    at = _as(_page(), "carol")
    actions = {"overrides_approve", "overrides_reject", "overrides_retire", "overrides_renew"}
    assert _keys(at) & actions == offered
    assert bool([d for d in at.date_input if d.key == "overrides_action_review_by"]) == approve


def test_review_and_retest_both_start_with_the_overdue_entry(app_data):
    """Both lists put the overdue entry first, whatever its place in the file."""
    _approved(app_data, host="a.example.com", days=200)
    _approved(app_data, host="b.example.com", days=-5, ago=100)
    at = _as(_page(), "carol")
    for key in ("overrides_action_entry", "overrides_retest_entry"):
        assert at.selectbox(key=key).options[0].startswith("ov-0002"), key
        assert at.selectbox(key=key).value == "ov-0002", key


def test_retest_upload_is_kept_across_pages(app_data):
    """An uploaded sample and its Content-Type are still there after a visit to another page."""
    from tests.app.conftest import APP

    _approved(app_data)
    at = AppTest.from_file(APP, default_timeout=60)
    at.secrets["placeholder"] = "set explicitly"
    at.run()
    at = _as(at.switch_page("app_pages/5_site_overrides.py").run(), "carol")
    at.file_uploader(key="overrides_retest_upload").upload("fresh.html", BODY, "text/html")
    at.text_input(key="overrides_retest_content_type").input(LYING).run()
    at.switch_page("app_pages/2_compare.py").run()
    at.switch_page("app_pages/5_site_overrides.py").run()
    assert not at.exception, at.exception
    # Compare made a sample the current input, so the page offers that first
    at.radio(key="overrides_retest_source").set_value("Upload a sample").run()
    assert at.file_uploader(key="overrides_retest_upload").value is None   # Streamlit dropped it
    assert any(_plain(c).startswith(f"Your upload fresh.html ({len(BODY)} bytes), kept")
               for c in at.caption)
    assert at.text_input(key="overrides_retest_content_type").value == LYING
    at.button(key="overrides_retest_run").click().run()
    assert _frame(at, "path", "encoding")["encoding"].tolist() == ["windows-1252", "utf-8"]
    at.button(key="overrides_retest_upload_forget").click().run()
    at.button(key="overrides_retest_run").click().run()
    assert "Upload a response body first." in [e.value for e in at.error]


def test_people_stay_in_view_and_times_on_one_line(app_data):
    """At 1,400 px the overview shows who proposed and approved before the long reason; the
    history's times are minutes in UTC, in a column wide enough for one line."""
    _approved(app_data)
    at = _as(_page(), "carol")
    overview = _frame(at, "id", "host", "encoding", "status")
    columns = list(overview.columns)
    assert columns[-1] == "reason"
    assert columns.index("approved by") < columns.index("reason")
    history = next(d for d in at.dataframe if "at" in d.value.columns)
    assert json.loads(history.proto.columns)["at"]["width"] >= 150
    assert all(len(v) == len("2026-12-01 20:06 UTC") for v in history.value["at"])


@pytest.mark.parametrize("served_on", ["0.0.0.0"], indirect=True)
def test_a_typed_name_cannot_approve_beyond_loopback(app_data, served_on):
    """Served on every interface, a typed name proposes and rejects but never approves; the
    page says how to configure sign-in."""
    store = _store(app_data)
    store.propose(host="shop.example.com", encoding="utf-8", reason=REASON, author="ada",
                  review_by=date.today() + timedelta(days=30))
    at = _as(_page(), "bob")
    assert any("not approve or renew" in _plain(w) and "[auth]" in _plain(w)
               for w in at.sidebar.warning)
    at.button(key="overrides_approve").click().run()
    assert "bob is a typed name, not a verified one" in _plain(at.error[0])
    assert "configure sign-in" in _plain(at.error[0])
    assert store.get("ov-0001").status is Status.PROPOSED
    at.text_input(key=_reason(at).key).set_value(REASON).run()
    at.button(key="overrides_reject").click().run()
    _confirm(at)
    assert store.get("ov-0001").status is Status.REJECTED  # stopping one is always possible


def test_an_unverified_approval_is_marked_wherever_it_is_shown(app_data):
    """On loopback a typed name approves; the table, the entry and the history say unverified."""
    _approved(app_data)
    at = _as(_page(), "carol")
    assert _frame(at, "id", "host")["approved by"].tolist() == ["bob (unverified)"]
    history = _frame(at, "at", "by", "action", "verified")
    assert history["verified"].tolist() == ["unverified: a typed name"] * 2
    entry = _frame(at, "field", "value")
    assert "by bob (unverified)" in entry.set_index("field").loc["approved", "value"]


def test_a_malformed_identity_setting_stays_in_the_sidebar(app_data):
    """trusted_proxies as a number is reported with the form expected; the page still works."""
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.secrets["overrides"] = {"trusted_header": "X-Auth-Email", "trusted_proxies": 5}
    at = _as(at.run(), "ada")
    assert not at.exception
    warnings = [_plain(w) for w in at.sidebar.warning]
    assert any("trusted_proxies: 5 is not a list of addresses" in w
               and 'trusted_proxies = ["10.0.0.5"' in w for w in warnings)
    assert at.text_input(key="overrides_propose_host") is not None  # the page goes on
