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


def test_warc_tab_shows_its_own_subject(page, e2e_dirs, tmp_path):
    """After a live fetch, the WARC tab shows the uploaded file's records and only names the
    open capture (from the Live URL tab); a record opened there is diagnosed there."""
    from playwright.sync_api import expect

    from tests.warcs import warc_file

    warc = tmp_path / "crawl.warc.gz"
    warc.write_bytes(warc_file([("http://warc.example/", "text/html; charset=utf-8",
                                 "<p>café</p>".encode())]))
    routes = {"/liar": respond(LIAR, headers=[("Content-Type", "text/html; charset=iso-8859-1")])}
    with ScriptedServer(routes=routes) as server:
        page.goto("/fetch")
        wait_ready(page)
        page.locator(".st-key-fetch_url input").fill(server.url("/liar"))
        page.locator(".st-key-fetch_go button").click()
        expect(page.get_by_text("utf8-under-legacy", exact=False).first).to_be_visible()
        page.get_by_test_id("stTab").filter(has_text="WARC file").click()
        page.locator(".st-key-fetch_warc_upload input[type=file]").set_input_files(str(warc))
        panel = page.get_by_role("tabpanel").filter(has_text="Diagnose this record")
        expect(panel.get_by_text("from the Live URL tab", exact=False)).to_be_visible()
        expect(panel.get_by_test_id("stMetric")).to_have_count(0)
        page.screenshot(path=str(e2e_dirs["artifacts"] / "fetch_warc_tab.png"), full_page=True)
        page.locator(".st-key-fetch_warc_open button").click()
        expect(panel.get_by_test_id("stMetric").filter(has_text="Decided by")).to_be_visible()
        expect(panel.get_by_test_id("stMetricValue").filter(has_text="utf-8").first
               ).to_be_visible()
        live = page.get_by_role("tabpanel").filter(has_text="Captures are kept")
        expect(live.get_by_test_id("stMetric")).to_have_count(0)


def test_hostile_reason_phrase_and_override_id_render_as_text(page, e2e_dirs):
    """A reason phrase and an override id holding a Markdown image and link, in real Chromium:
    the image's URL (on the test server, which records every request) is never requested,
    and no link is rendered, on Fetch (Status metric) and on Compare (override caption)."""
    from playwright.sync_api import expect

    from tests.overridefiles import approved_override

    path = e2e_dirs["data"] / "overrides.yaml"
    before = path.read_text() if path.exists() else None
    with ScriptedServer(host="127.0.0.2") as server:   # 127.0.0.1 is the overrides tests'
        pixel, link = server.url("/pixel"), server.url("/clicked")
        reason = f"OK ![tracking]({pixel}) [click me]({link})"
        server.routes["/hostile"] = respond(LIAR, reason=reason)
        entry = approved_override(path, "127.0.0.2")
        hostile_id = f"![p]({server.url('/pixel-id')})"[:64]
        path.write_text(path.read_text().replace(f"id: {entry.id}", f'id: "{hostile_id}"'))
        try:
            page.goto("/fetch")
            wait_ready(page)
            page.locator(".st-key-fetch_url input").fill(server.url("/hostile"))
            page.locator(".st-key-fetch_go button").click()
            status = page.get_by_test_id("stMetric").filter(has_text="Status")
            expect(status.get_by_test_id("stMetricValue")).to_contain_text("click me")
            assert status.locator("img, a").count() == 0
            page.locator(".st-key-fetch_to_compare button").click()
            applies = page.get_by_test_id("stCaptionContainer").filter(has_text="applies")
            expect(applies).to_contain_text("pixel-id")
            assert applies.locator("img, a").count() == 0
            page.wait_for_timeout(1_000)   # an image would have been requested by now
            page.screenshot(path=str(e2e_dirs["artifacts"] / "hostile_text.png"), full_page=True)
        finally:
            if before is None:
                path.unlink(missing_ok=True)
            else:
                path.write_text(before)
        asked = [r.target for r in server.requests]
        assert asked == ["/hostile"], asked
