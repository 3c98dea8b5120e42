"""The Compare page in a real browser: load a sample, see the decision and the columns."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import wait_ready

pytestmark = pytest.mark.browser


def test_compare_shows_decision_for_a_sample(page, e2e_dirs):
    """The header-that-lies sample: the header's encoding decided, the conflict says utf-8."""
    from playwright.sync_api import expect

    page.goto("/")
    wait_ready(page)
    page.get_by_test_id("stSidebarNavLink").filter(has_text="Compare").click()
    page.locator(".st-key-compare_sample input").click()
    page.locator(".st-key-compare_sample input").fill("header_lies")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("stMetricValue").first).to_have_text("windows-1252")
    expect(page.get_by_text("utf8-under-legacy", exact=False).first).to_be_visible()
    expect(page.get_by_text("windows-1252 (decision)")).to_be_visible()
    # the utf-8 column differs from the decision where the mojibake was: highlighted
    expect(page.locator("mark").filter(has_text="é").first).to_be_attached()
    with page.expect_download() as download:
        page.locator(".st-key-compare_download_json button").click()
    decision = json.loads(Path(download.value.path()).read_text("utf-8"))
    assert decision["encoding"] == "windows-1252" and decision["source"] == "http-header"
    assert decision["conflicts"][0]["suggested_encoding"] == "utf-8"
    page.screenshot(path=str(e2e_dirs["artifacts"] / "compare.png"), full_page=True)
