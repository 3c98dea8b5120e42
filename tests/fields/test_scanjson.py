"""Tests for fields.scanjson: a scan written as scan-csv --json reads back the same."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest

from encoding_core import scan_csv
from encoding_core.fields.scanjson import scan_from_json, scan_to_dict, scan_to_json

CSV = ("name,url\nJosÃ© Smith,http://a.example/\nJos? Garc?a,http://b.example/\n"
       "Ana,http://a.example/\n\"broken,http://c.example/\n").encode()


def test_a_scan_round_trips_through_its_json():
    """Counts per column and host, findings, notes and how the file was read all come back."""
    report = scan_csv(CSV, ["name"], "url")
    name, back = scan_from_json(scan_to_json(report, "export.csv"))
    assert name == "export.csv"
    pd.testing.assert_frame_equal(back.columns, report.columns, check_dtype=False)
    pd.testing.assert_frame_equal(back.hosts, report.hosts, check_dtype=False)
    pd.testing.assert_frame_equal(back.findings, report.findings, check_dtype=False)
    assert back.summary() == report.summary()


def test_the_json_is_what_the_cli_prints(tmp_path, capsys):
    from encoding_core.cli.main import main

    path = tmp_path / "export.csv"
    path.write_bytes(CSV)
    assert main(["scan-csv", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == scan_to_dict(scan_csv(path), str(path))


@pytest.mark.parametrize("text", [b"", b"[]", b'{"columns": 3}', b'{"columns": [], "rows": "x"}',
                                  b"\xff\xfe not json", b'{"hosts": []}'])
def test_anything_else_is_refused_with_a_message(text):
    with pytest.raises(ValueError, match="not a field scan written by encoding-triage"):
        scan_from_json(text)


def test_a_scan_of_nothing_reads_back_with_every_column():
    """A scan with no text column (what spark scan writes for such a table) reads back with
    the columns a page shows, not a frame it cannot show; a finding without its fields is
    refused."""
    from encoding_core.fields.scanreport import COLUMN_FIELDS, HOST_FIELDS

    empty = scan_csv(b"n,m\n1,2\n", [], None)
    _, back = scan_from_json(scan_to_json(empty, "numbers.csv"))
    assert list(back.columns.columns) == list(COLUMN_FIELDS) and back.columns.empty
    data = json.loads(scan_to_json(scan_csv(CSV, ["name"], "url"), "x.csv"))
    _, back = scan_from_json(json.dumps(data | {"hosts": []}))
    assert list(back.hosts.columns) == list(HOST_FIELDS)
    del data["findings"][0]["kind"]
    with pytest.raises(ValueError, match="a row of findings lacks kind"):
        scan_from_json(json.dumps(data))


@pytest.mark.parametrize(("change", "says"), [
    (lambda d: d.update(rows="3"), "rows is '3', not a count"),
    (lambda d: d.update(flagged=2.5), "flagged is 2.5, not a count"),
    (lambda d: d.update(decode_errors=True), "decode_errors is True, not a count"),
    (lambda d: d["columns"][0].update(cells="12"), "columns[0].cells is '12', not a count"),
    (lambda d: d["columns"][0].update(flagged=1.9), "columns[0].flagged is 1.9, not a count"),
    (lambda d: d["hosts"][0].update(rows=-1), "hosts[0].rows is -1, not a count"),
    (lambda d: d.update(findings_truncated="no"), "findings_truncated is 'no'"),
    (lambda d: d.update(notes="a note"), "notes is not a list of text"),
    (lambda d: d.update(encoding=1252), "encoding is 1252, not text"),
], ids=["rows-text", "flagged-float", "errors-bool", "cells-text", "column-flagged-float",
        "host-rows-negative", "truncated-text", "notes-text", "encoding-number"])
def test_counts_are_checked_not_coerced(change, says):
    """A count of the wrong type is refused by name (``"3"`` became 3 and 1.9 became 1
    silently before)."""
    data = json.loads(scan_to_json(scan_csv(CSV, ["name"], "url"), "x.csv"))
    change(data)
    with pytest.raises(ValueError, match=re.escape(says)):
        scan_from_json(json.dumps(data))


def test_a_deeply_nested_scan_json_is_a_value_error():
    """100,000 nested lists are refused with a message, not a RecursionError."""
    with pytest.raises(ValueError, match="nested too deeply"):
        scan_from_json('{"columns": ' + "[" * 100_000 + "]" * 100_000 + "}")
