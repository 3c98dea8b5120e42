"""Overrides in a real browser: propose from a fetched page, approve as a second reviewer,
and see the override applied when the same page is decided again."""

from __future__ import annotations

import re

import pytest

from tests.e2e.conftest import wait_ready
from tests.httpserver import ScriptedServer, respond

pytestmark = pytest.mark.browser

LIAR = "<html><body><p>José Müller – “Bitte klingeln”.</p></body></html>".encode()


def _nav(page, name: str) -> None:
    page.get_by_test_id("stSidebarNavLink").filter(has_text=name).click()


def _as(page, name: str) -> None:
    """Act as ``name``, and wait for the run that takes it to end: a dropdown opened while
    that run still redraws the page is closed under the test (once: no option ov-0001)."""
    from playwright.sync_api import expect

    field = page.locator(".st-key-reviewer_name input")
    field.fill(name)
    field.press("Enter")
    expect(page.get_by_role("button", name="Switch user")).to_be_visible()  # the new run drew it
    wait_ready(page)                                                       # and has ended


def _pick(page, box: str, option: str) -> None:
    """Choose ``option`` in selectbox ``box`` once no run is redrawing the page, and wait
    until the box shows it. A run that starts after the wait (a rerun the page asked for)
    redraws the box and closes its list under the test: then the list is opened again, a
    few times at most (each step waits on what is on screen, never on a sleep)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import expect

    select = page.locator(f".st-key-{box}")
    wanted = page.get_by_role("option").filter(has_text=option)
    for _ in range(3):
        wait_ready(page)
        select.click()
        try:
            wanted.click(timeout=10_000)
        except PlaywrightTimeout:
            continue
        expect(select.locator("input")).to_have_value(re.compile(re.escape(option)))
        return
    raise AssertionError(f"option {option} never listed in {box}")


def test_propose_approve_and_apply(page, e2e_dirs):
    """alice proposes utf-8 for the host, bob approves, the Fetch decision now uses it."""
    from playwright.sync_api import expect

    routes = {"/liar": respond(LIAR, headers=[("Content-Type", "text/html; charset=iso-8859-1")])}
    with ScriptedServer(routes=routes) as server:
        page.goto("/")
        wait_ready(page)
        _nav(page, "Fetch")
        page.locator(".st-key-fetch_url input").fill(server.url("/liar"))
        page.locator(".st-key-fetch_go button").click()
        decided_by = page.get_by_test_id("stMetric").filter(has_text="Decided by")
        expect(decided_by.get_by_test_id("stMetricValue")).to_have_text("http-header")

        _nav(page, "Overrides")
        _as(page, "alice@example.com")
        page.get_by_test_id("stTab").filter(has_text="Propose").click()
        expect(page.locator(".st-key-overrides_propose_host input")).to_have_value("127.0.0.1")
        page.locator(".st-key-overrides_propose_reason textarea").fill(
            "The server sends charset=iso-8859-1 but the body is UTF-8, as the trace shows.")
        page.locator(".st-key-overrides_propose_submit button").click()
        page.locator(".st-key-overrides_confirm button").click()
        expect(page.get_by_text("is proposed", exact=False).first).to_be_visible()
        page.get_by_test_id("stTab").filter(has_text="Overrides").first.click()

        # the author cannot approve their own proposal
        page.locator(".st-key-overrides_approve button").click()
        expect(page.get_by_test_id("stAlertContentError").first).to_be_visible()

        page.get_by_role("button", name="Switch user").click()  # a name is fixed once used
        _as(page, "bob@example.com")
        page.locator(".st-key-overrides_approve button").click()
        page.locator(".st-key-overrides_confirm button").click()
        expect(page.get_by_text("is approved", exact=False).first).to_be_visible()
        assert "approved_by: bob@example.com" in (e2e_dirs["data"] / "overrides.yaml").read_text()

        _nav(page, "Fetch")
        expect(decided_by.get_by_test_id("stMetricValue")).to_have_text("override")
        encoding = page.get_by_test_id("stMetric").filter(has_text="Encoding")
        expect(encoding.get_by_test_id("stMetricValue")).to_have_text("utf-8")
        page.screenshot(path=str(e2e_dirs["artifacts"] / "override_applied.png"), full_page=True)


def test_retest_by_live_fetch_then_review(page, e2e_dirs):
    """Re-test -> Live fetch -> Run -> Review: the re-test is there at once (Renew on, what it
    rests on named), without touching another widget."""
    from playwright.sync_api import expect

    from encoding_core.overrides.store import OverrideStore
    from tests.overridefiles import approved_override

    path = e2e_dirs["data"] / "overrides.yaml"
    # the test above leaves one approved for 127.0.0.1 (only one may be): re-test that one
    approved = [e for e in (OverrideStore(path).entries() if path.exists() else ())
                if e.host == "127.0.0.1" and e.status.value == "approved"]
    entry = approved[0] if approved else approved_override(path, "127.0.0.1")
    routes = {"/": respond(LIAR, headers=[("Content-Type", "text/html; charset=iso-8859-1")])}
    with ScriptedServer(routes=routes) as server:
        page.goto("/overrides")
        wait_ready(page)
        _as(page, "carol@example.com")
        page.get_by_test_id("stTab").filter(has_text="Re-test").click()
        _pick(page, "overrides_retest_entry", entry.id)
        page.locator(".st-key-overrides_retest_source").get_by_text("Live fetch").click()
        url = page.locator(".st-key-overrides_retest_url input")
        url.fill(server.url("/"))
        url.press("Enter")
        wait_ready(page)
        page.locator(".st-key-overrides_retest_run button").click()
        expect(page.get_by_test_id("stAlertContentSuccess").filter(has_text="still-needed")
               ).to_be_visible()
        page.get_by_test_id("stTab").filter(has_text="Overrides").first.click()
        _pick(page, "overrides_action_entry", entry.id)
        wait_ready(page)
        expect(page.get_by_text("Renewing rests on the re-test of", exact=False)).to_be_visible()
        expect(page.locator(".st-key-overrides_renew button")).to_be_enabled()
        page.screenshot(path=str(e2e_dirs["artifacts"] / "retest_review.png"), full_page=True)
