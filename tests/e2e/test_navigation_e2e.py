"""Every page in a real browser at its own URL (the page's name), and a screenshot of each."""

from __future__ import annotations

import re

import pytest

from tests.e2e.conftest import wait_ready

pytestmark = pytest.mark.browser

# (URL path, the page's title): the URL is the page's name, as the sidebar shows it.
PAGES = [("fetch", "Fetch"), ("compare", "Compare"), ("bytes", "Bytes"),
         ("csv-scan", "CSV scan"), ("overrides", "Overrides")]


@pytest.mark.parametrize(("url", "title"), PAGES, ids=[url for url, _ in PAGES])
def test_page_opens_at_its_name(page, e2e_dirs, url, title):
    """/fetch opens Fetch (not "Page not found"); the sidebar marks it as the current page."""
    from playwright.sync_api import expect

    page.goto(f"/{url}")
    wait_ready(page)
    expect(page.get_by_role("heading", level=1).first).to_have_text(title)
    expect(page.get_by_text("Page not found")).to_have_count(0)
    current = page.get_by_test_id("stSidebarNavLink").filter(has_text=title)
    expect(current).to_have_attribute("href", re.compile(rf"/{re.escape(url)}$"))
    page.screenshot(path=str(e2e_dirs["artifacts"] / f"page-{url}.png"), full_page=True)
