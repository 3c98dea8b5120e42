"""Tests for fields.scandownloads: each download holds what its label says."""

from __future__ import annotations

import csv
import io
import json

from encoding_core.fields.csvscan import scan_csv
from encoding_core.fields.scandownloads import scan_downloads

MOJIBAKE = "JosÃ©"


def test_each_download_is_what_its_label_says():
    """The CSV one is the flagged cells (a spreadsheet opens it), the JSON one the summary."""
    report = scan_csv(f"id,name\n1,{MOJIBAKE}\n2,Ana\n".encode())
    findings, summary = scan_downloads(report, "customers")
    assert (findings.label, findings.file_name, findings.mime) == (
        "Flagged cells with proposed repairs (CSV)", "customers_flagged.csv", "text/csv")
    assert findings.data.startswith(b"\xef\xbb\xbf")     # the BOM Excel needs
    rows = list(csv.DictReader(io.StringIO(findings.data.decode("utf-8-sig"))))
    assert [(r["column"], r["original"], r["repaired"]) for r in rows] == [
        ("name", MOJIBAKE, "José")]
    assert (summary.label, summary.file_name, summary.mime) == (
        "Summary (JSON)", "customers_summary.json", "application/json")
    assert json.loads(summary.data) == json.loads(report.summary_json())
    assert "findings" not in json.loads(summary.data)
    assert len({d.key for d in (findings, summary)}) == 2
