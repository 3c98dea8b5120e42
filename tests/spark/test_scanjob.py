"""Tests for spark.scanjob: a field scan on a real local SparkSession equals the single-machine
scan of the same rows (multi-row-group Parquet split over partitions, CSV files in several
encodings), and bad input is named."""

from __future__ import annotations

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from encoding_core import scan_csv, scan_frame
from encoding_core.fields.parquetscan import scan_parquet
from encoding_core.spark.scanjob import scan_csv_files, scan_table

NAMES = ["JosÃ© Smith", "Ana Lima", "MÃ¼ller", "Oâ€™Brien", "Jos? Garc?a", "Plain", None,
         "Ð£Ð»Ð¸Ñ†Ð° 12", "Zoë Ørsted", "東京"]
ALL = 100_000   # more than the cells flagged: every finding is kept, none left to chance
URLS = ["http://a.example/1", "http://b.example/2", "shop.example", None]


def _rows(df) -> pd.DataFrame:
    """The table's rows in Spark's order (``toPandas`` is broken under pandas 3 in PySpark
    4.3: its Arrow path passes ``copy=``, which pandas 3 deprecates)."""
    return pd.DataFrame([row.asDict() for row in df.collect()], columns=df.columns)


def _sorted(findings: pd.DataFrame) -> pd.DataFrame:
    return findings.sort_values(["row", "column"], kind="stable").reset_index(drop=True)


def _same(found, expected, *, findings: bool = True) -> None:
    pd.testing.assert_frame_equal(found.columns, expected.columns)
    if expected.hosts is None:
        assert found.hosts is None
    else:
        pd.testing.assert_frame_equal(found.hosts, expected.hosts)
    assert (found.rows, found.flagged) == (expected.rows, expected.flagged)
    if findings:
        pd.testing.assert_frame_equal(_sorted(found.findings), _sorted(expected.findings),
                                      check_dtype=False)


@pytest.fixture
def parquet_file(tmp_path):
    """12,000 rows in 6 row groups, so Spark reads it in several partitions."""
    rows = 12_000
    table = pa.table({"id": list(range(rows)),
                      "name": [NAMES[(i * 7) % len(NAMES)] for i in range(rows)],
                      "comment": [f"row {i} " + (NAMES[i % len(NAMES)] or "")
                                  for i in range(rows)],
                      "url": [URLS[i % len(URLS)] for i in range(rows)]})
    path = tmp_path / "fields.parquet"
    pq.write_table(table, path, row_group_size=2_000)
    return path


def test_scan_table_equals_the_single_machine_scans(spark, parquet_file):
    """Over several partitions: the counts per column and host, and the findings with their
    row numbers, equal scan_parquet on the file and scan_frame on _rows(df)."""
    spark.conf.set("spark.sql.files.maxPartitionBytes", "40000")
    try:
        df = spark.read.parquet(str(parquet_file))
        assert df.rdd.getNumPartitions() > 1
        found = scan_table(df, ["name", "comment"], "url", max_findings=ALL)
        frame = _rows(df)
    finally:
        spark.conf.unset("spark.sql.files.maxPartitionBytes")
    _same(found, scan_frame(frame, ["name", "comment"], "url", max_findings=ALL))
    _same(found, scan_parquet(parquet_file, ["name", "comment"], "url", max_findings=ALL))
    assert found.flagged > 0 and found.encoding == "utf-8"


def test_scan_table_keeps_the_first_findings_under_a_cap(spark, parquet_file):
    """With a cap, the counts stay complete and the findings are the first rows, flagged as cut."""
    df = spark.read.parquet(str(parquet_file))
    found = scan_table(df, ["name"], max_findings=50)
    whole = scan_frame(_rows(df), ["name"])
    _same(found, whole, findings=False)
    assert len(found.findings) == 50 and found.findings_truncated
    assert found.findings["row"].tolist() == sorted(_sorted(whole.findings)["row"])[:50]
    assert sum("findings list keeps the first 50" in note for note in found.notes) == 1


def test_a_column_that_is_not_text_and_an_empty_table_are_named(spark, parquet_file):
    df = spark.read.parquet(str(parquet_file))
    found = scan_table(df, ["name", "id"])
    assert found.columns["column"].tolist() == ["name"]
    assert "column 'id' is bigint, not text: skipped" in found.notes
    empty = scan_table(df.limit(0), ["name"], "url")
    assert (empty.rows, empty.flagged) == (0, 0) and "the table has no rows" in empty.notes
    assert empty.columns["cells"].tolist() == [0]
    with pytest.raises(ValueError, match="no column named 'nope'"):
        scan_table(df, ["nope"])


def test_csv_files_are_scanned_one_task_each_in_their_own_encodings(spark, tmp_path):
    """Three CSVs in three encodings: each file's counts as scan_csv finds them, the findings
    say their file, and a missing and a binary file are named without stopping the job."""
    text = "name,url\nJosÃ© Smith,http://a.example/\nZoë Ørsted,http://b.example/\n" \
           "MÃ¼ller,http://a.example/\n"
    files = {"utf8.csv": text.encode("utf-8"), "latin.csv": text.replace("Ã", "A").replace(
        "â", "a").encode("windows-1252", "replace"),
        "bom16.csv": text.encode("utf-16")}
    paths = []
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
        paths.append(str(tmp_path / name))
    (tmp_path / "binary.csv").write_bytes(b"\x00\x01\x02PK\x03\x04" * 100)
    found = scan_csv_files(spark, [*paths, str(tmp_path / "missing.csv"),
                                   str(tmp_path / "binary.csv")], ["name"], "url")
    singles = [scan_csv(path, ["name"], "url") for path in paths]
    assert found.rows == sum(s.rows for s in singles)
    assert found.flagged == sum(s.flagged for s in singles) > 0
    assert found.columns["flagged"].tolist() == [sum(s.flagged for s in singles)]
    assert set(found.findings["file"]) == {p for p, s in zip(paths, singles, strict=True)
                                           if s.flagged}
    assert set(found.encoding.split(" + ")) == {s.encoding for s in singles}
    assert {"utf-8", "utf-16le"} <= {s.encoding for s in singles}
    assert any("missing.csv: cannot open" in note for note in found.notes)
    assert any(note.startswith(f"{tmp_path / 'binary.csv'}: this looks like binary data")
               for note in found.notes)


def test_the_findings_kept_under_a_cap_do_not_depend_on_the_partitions(spark, parquet_file):
    """Two columns, a cap, several partitions: the findings kept are the first by (row,
    column), the ones scan_parquet keeps on one machine."""
    spark.conf.set("spark.sql.files.maxPartitionBytes", "40000")
    try:
        df = spark.read.parquet(str(parquet_file))
        assert df.rdd.getNumPartitions() > 1
        found = scan_table(df, ["name", "comment"], max_findings=25)
    finally:
        spark.conf.unset("spark.sql.files.maxPartitionBytes")
    single = scan_parquet(parquet_file, ["name", "comment"], max_findings=25)
    assert found.findings[["row", "column"]].values.tolist() == \
        single.findings[["row", "column"]].values.tolist()
    assert len({column for column in found.findings["column"]}) == 2


def test_column_names_with_dots_and_unreadable_csvs(spark, tmp_path):
    """A column named a.b is one column; when no CSV can be read, the notes say so."""
    df = spark.createDataFrame([("JosÃ© Smith",), ("Ana",)], "`user.name` string")
    found = scan_table(df)
    assert found.columns["column"].tolist() == ["user.name"] and found.flagged == 1
    none = scan_csv_files(spark, [str(tmp_path / "a.csv"), str(tmp_path / "b.csv")])
    assert "none of the 2 CSV files could be read" in none.notes
    assert "the table has no rows" not in none.notes
