"""The CSV scan page in a real browser: upload a CSV, read the per-column result."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import wait_ready

pytestmark = pytest.mark.browser

CSV = ("id,name,city\n1,JosÃ© GarcÃ­a,KÃ¶ln\n2,Ana,Porto\n3,Renée,Zürich\n"
       "4,Jos? Garc?a,Madrid\n").encode()


def test_upload_csv_and_see_per_column_result(page, e2e_dirs, tmp_path):
    """Two damaged names and one damaged city: flagged per column, with a chart."""
    from playwright.sync_api import expect

    path = tmp_path / "customers.csv"
    path.write_bytes(CSV)
    page.goto("/")
    wait_ready(page)
    page.get_by_test_id("stSidebarNavLink").filter(has_text="CSV scan").click()
    page.get_by_test_id("stFileUploader").filter(has_text="Upload a CSV file").get_by_test_id(
        "stFileUploaderDropzoneInput").set_input_files(str(path))
    flagged = page.get_by_test_id("stMetric").filter(has_text="Flagged")
    expect(flagged.get_by_test_id("stMetricValue")).to_have_text("3")
    repairable = page.get_by_test_id("stMetric").filter(
        has=page.get_by_test_id("stMetricLabel").get_by_text("Repairable", exact=True))
    expect(repairable.get_by_test_id("stMetricValue")).to_have_text("2")
    expect(page.get_by_test_id("stDataFrame").first).to_be_visible()  # per-column table
    expect(page.get_by_test_id("stVegaLiteChart").locator("canvas, svg").first).to_be_visible()
    page.screenshot(path=str(e2e_dirs["artifacts"] / "csv_scan.png"), full_page=True)
    page.get_by_test_id("stTab").filter(has_text="Export").click()
    with page.expect_download() as download:
        page.locator(".st-key-csv_download_summary button").click()
    summary = json.loads(Path(download.value.path()).read_text("utf-8"))
    per_column = {c["column"]: c for c in summary["columns"]}
    assert (per_column["name"]["flagged"], per_column["name"]["lossy"]) == (2, 1)
    assert (per_column["city"]["flagged"], per_column["city"]["repairable"]) == (1, 1)
    assert per_column["id"]["flagged"] == 0
