"""Overrides in a real browser: propose from a fetched page, approve as a second reviewer,
and see the override applied when the same page is decided again."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import wait_ready
from tests.httpserver import ScriptedServer, respond

pytestmark = pytest.mark.browser

LIAR = "<html><body><p>José Müller – “Bitte klingeln”.</p></body></html>".encode()


def _nav(page, name: str) -> None:
    page.get_by_test_id("stSidebarNavLink").filter(has_text=name).click()


def _as(page, name: str) -> None:
    field = page.locator(".st-key-reviewer_name input")
    field.fill(name)
    field.press("Enter")


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
