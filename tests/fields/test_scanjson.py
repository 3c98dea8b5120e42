"""Tests for fields.scanjson: a scan written as scan-csv --json reads back the same."""

from __future__ import annotations

import json

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
