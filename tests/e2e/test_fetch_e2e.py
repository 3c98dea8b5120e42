"""The Fetch page in a real browser: fetch a page from a local server, reach Compare."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import wait_ready
from tests.httpserver import ScriptedServer, respond

pytestmark = pytest.mark.browser

LIAR = "<html><body><p>José Müller – “Bitte klingeln”.</p></body></html>".encode()


def test_fetch_a_local_page_then_compare(page, e2e_dirs):
    """A header that lies, served locally: the Fetch page shows the conflict; Compare opens it."""
    from playwright.sync_api import expect

    routes = {"/liar": respond(LIAR, headers=[("Content-Type", "text/html; charset=iso-8859-1")])}
    with ScriptedServer(routes=routes) as server:
        page.goto("/")
        wait_ready(page)
        page.get_by_test_id("stSidebarNavLink").filter(has_text="Fetch").click()
        page.locator(".st-key-fetch_url input").fill(server.url("/liar"))
        page.locator(".st-key-fetch_go button").click()
        expect(page.get_by_text("utf8-under-legacy", exact=False).first).to_be_visible()
        expect(page.get_by_test_id("stMetricValue").filter(has_text="200 OK")).to_be_visible()
        page.locator(".st-key-fetch_to_compare button").click()
        expect(page.get_by_text("windows-1252 (decision)")).to_be_visible()
        expect(page.locator("mark").filter(has_text="é").first).to_be_attached()
        page.screenshot(path=str(e2e_dirs["artifacts"] / "fetch_compare.png"), full_page=True)
