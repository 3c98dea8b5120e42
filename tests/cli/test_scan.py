"""Tests for ``python -m encoding_core scan-csv`` (encoding_core.cli.scan)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from encoding_core.cli.main import main
from encoding_core.cli.scan import NOT_IN_PLACE

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "customers_mojibake.csv"


def test_text_report_per_column_and_host(capsys: pytest.CaptureFixture[str]) -> None:
    """The text report has the decision, a row per column and host, examples and the caveat."""
    assert main(["scan-csv", str(SAMPLE), "--host-column", "source_url", "--examples", "3"]) == 0
    out = capsys.readouterr().out
    assert "encoding: utf-8 (valid utf-8); delimiter ','; 20 rows, 23 flagged cells" in out
    assert any(line.split()[:3] == ["name", "20", "9"] for line in out.splitlines())
    assert any(line.startswith("shop-br.example ") for line in out.splitlines())
    assert "line 3, name: mojibake: 'JosÃ© GarcÃ\\xada' -> 'José García'" in out
    assert "flagged cells (first 3 of 23)" in out and NOT_IN_PLACE in out


def test_json_with_chosen_columns(capsys: pytest.CaptureFixture[str]) -> None:
    """--json prints the summary and every flagged cell; --column limits the scan."""
    assert main(["scan-csv", str(SAMPLE), "--column", "city", "--column", "street",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [c["column"] for c in data["columns"]] == ["city", "street"]
    assert data["flagged"] == len(data["findings"]) == 11
    assert data["findings"][0]["repaired"] == "São Paulo"


@pytest.mark.parametrize(("body", "args", "message"), [
    (b"PK\x03\x04\x14\x00", [], "ZIP archive"),
    (b"", [], "the file is empty"),
    (b"name\nx\n", ["--column", "nope"], "no column named 'nope'"),
    (b"PAR1\x15\x04\x15", [], "scan it with encoding-triage scan-parquet FILE"),
], ids=["xlsx", "empty", "unknown-column", "parquet"])
def test_unreadable_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                  body: bytes, args: list[str], message: str) -> None:
    """A file that is not CSV, or a wrong column, is an error message and status 2."""
    path = tmp_path / "in.csv"
    path.write_bytes(body)
    assert main(["scan-csv", str(path), *args]) == 2
    assert message in capsys.readouterr().err


def test_terminal_escapes_in_cells_are_shown_escaped(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """A cell with an ANSI escape and mojibake does not reach the terminal raw."""
    path = tmp_path / "in.csv"
    path.write_text("name\n\x1b[31mJosÃ©\u202e\n", encoding="utf-8")
    assert main(["scan-csv", str(path)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\u202e" not in out and "\\x1b[31mJosÃ©\\u202e" in out


def test_module_entry_point_reads_stdin() -> None:
    """python -m encoding_core scan-csv - reads the CSV from standard input."""
    done = subprocess.run([sys.executable, "-m", "encoding_core", "scan-csv", "-", "--json"],
                          input="name\nJosÃ©\n".encode(), capture_output=True, cwd=ROOT,
                          check=True, timeout=60)
    assert json.loads(done.stdout)["findings"][0]["repaired"] == "José"


def test_scan_parquet_reports_columns_hosts_and_skips_what_is_not_text(tmp_path, capsys):
    """scan-parquet: the same report as scan-csv, row group by row group; a number column
    named on the command line is skipped and said so; a file that is not Parquet exits 2."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from encoding_core.cli.main import main

    names = [f"JosÃ© {i}" if i % 10 == 0 else f"Name {i}" for i in range(5_000)]
    path = tmp_path / "people.parquet"
    pq.write_table(pa.table({"name": names, "n": list(range(5_000)),
                             "url": ["http://shop.example/p"] * 5_000}), path,
                   row_group_size=700)
    assert main(["scan-parquet", str(path), "--column", "name", "--column", "n",
                 "--host-column", "url", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (column,) = data["columns"]
    assert (column["column"], column["flagged"], column["repairable"]) == ("name", 500, 500)
    assert data["hosts"][0]["host"] == "shop.example"
    assert any("'n' is int64, not text" in note for note in data["notes"])
    assert main(["scan-parquet", str(path)]) == 0
    assert "row 0, name: mojibake" in capsys.readouterr().out
    (tmp_path / "bad.parquet").write_bytes(b"PAR1 this is not parquet")
    assert main(["scan-parquet", str(tmp_path / "bad.parquet")]) == 2
    assert "not a readable Parquet file" in capsys.readouterr().err
    assert main(["scan-parquet", str(path), "--column", "nope"]) == 2
