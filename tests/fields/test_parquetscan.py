"""Tests for fields.parquetscan: hostile Parquet files (issue 28) get a clear answer."""

from __future__ import annotations

import io

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from encoding_core.fields.parquetscan import ParquetError, scan_parquet


def _parquet(table: pa.Table) -> bytes:
    out = io.BytesIO()
    pq.write_table(table, out)
    return out.getvalue()


def _not_utf8(values: list[bytes | None]) -> pa.Array:
    """A string column holding what a careless writer stored (Arrow does not check it)."""
    return pa.array(values, type=pa.binary()).view(pa.string())


def test_cells_that_are_not_utf8_are_flagged_and_named():
    """A string column with invalid UTF-8 (0 flagged, silently, before) counts those cells as
    lossy and names the column in the notes."""
    data = _parquet(pa.table({"name": _not_utf8([b"Ana", b"Jos\xe9", b"Ren\xe9e", None])}))
    report = scan_parquet(data)
    row = report.columns.iloc[0]
    assert (row["cells"], row["flagged"], row["lossy"]) == (3, 2, 2)
    assert any("column 'name': 2 cells not UTF-8" in note for note in report.notes)


def test_a_host_column_that_is_not_utf8_is_read():
    """Invalid UTF-8 in the host column (a UnicodeDecodeError before) is read with U+FFFD."""
    data = _parquet(pa.table({"name": pa.array(["JosÃ©", "Ana"]),
                              "url": _not_utf8([b"http://a.example/", b"http://b\xff.example/"])}))
    report = scan_parquet(data, host_column="url")
    assert set(report.hosts["host"]) == {"a.example", "b\ufffd.example"}
    assert report.flagged == 1


def test_duplicate_column_names_are_a_clear_error():
    """Two columns of one name (a KeyError before) are refused, the name given."""
    data = _parquet(pa.Table.from_arrays([pa.array(["a"]), pa.array(["b"])], names=["x", "x"]))
    with pytest.raises(ParquetError, match="more than one column named 'x'"):
        scan_parquet(data)
