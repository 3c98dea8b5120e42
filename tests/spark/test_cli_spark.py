"""Tests for ``encoding-triage spark report``: report.json in the format of report --json,
records.parquet, and manifests as Common Crawl publishes them."""

from __future__ import annotations

import gzip
import json

import pyarrow as pa
import pyarrow.parquet as pq

from encoding_core.cli.main import main
from encoding_core.spark.manifest import Paths, expand_paths
from encoding_core.warc.hostreport import report_from_json, report_from_warc
from tests.overridefiles import approved_override
from tests.warcs import warc_file

GOOD = "<p>café “quoted”</p>".encode()


def test_spark_report_writes_what_report_json_writes(spark, tmp_path, capsys):
    """DIR/report.json reads back as the single-machine report; records.parquet has a row per
    record; a warc.paths.gz manifest with a relative line and a comment is expanded."""
    warc = tmp_path / "crawl" / "one.warc.gz"
    warc.parent.mkdir()
    warc.write_bytes(warc_file([("http://a.example/1", "text/html; charset=utf-8", GOOD),
                                ("http://b.example/1", "text/html; charset=iso-8859-1", GOOD)]))
    manifest = tmp_path / "warc.paths.gz"
    manifest.write_bytes(gzip.compress(b"# a comment\ncrawl/one.warc.gz\n\n"))
    assert expand_paths([str(manifest)], f"{tmp_path}/") == Paths((str(warc),), 2)
    out = tmp_path / "out"
    assert main(["spark", "report", str(manifest), "--prefix", f"{tmp_path}/", "--out",
                 str(out), "--master", "local[1]"]) == 0
    assert "1 WARC file, 2 records, 2 hosts" in capsys.readouterr().out
    written = report_from_json((out / "report.json").read_text("utf-8"))
    single = report_from_warc(str(warc))
    assert written.hosts == single.hosts and written.records == single.records
    assert json.loads((out / "report.json").read_text("utf-8")).keys() == json.loads(
        single.to_json()).keys()
    table = pq.read_table(out / "records.parquet")
    assert table.num_rows == 2 and "needs_review" in table.column_names


def test_spark_report_says_in_report_json_when_it_lists_no_records(spark, tmp_path, capsys):
    """Past --json-records, report.json lists no records and says how many it left out (the
    hosts still count them all), so a reader of the file is not shown an empty crawl."""
    warc = tmp_path / "one.warc.gz"
    warc.write_bytes(warc_file([("http://a.example/1", "text/html; charset=utf-8", GOOD),
                                ("http://b.example/1", "text/html; charset=utf-8", GOOD)]))
    out = tmp_path / "out"
    assert main(["spark", "report", str(warc), "--out", str(out), "--master", "local[1]",
                 "--json-records", "1"]) == 0
    assert "records_omitted: 2" in capsys.readouterr().err
    written = json.loads((out / "report.json").read_text("utf-8"))
    assert (written["records"], written["records_omitted"]) == ([], 2)
    back = report_from_json((out / "report.json").read_text("utf-8"))
    assert back.records_omitted == 2 and sum(h.records for h in back.hosts) == 2
    assert pq.read_table(out / "records.parquet").num_rows == 2


def _rows_of(path):
    return pq.read_table(path).to_pylist()


def test_spark_report_applies_overrides_and_names_bad_manifest_lines(spark, tmp_path, capsys):
    """--overrides decides the host's records with its approved override (in the tasks);
    a manifest line that is no path, a gzip member that is not WARC and a path that does not
    exist are named in report.json's problem while the good file is reported whole."""
    warc = tmp_path / "one.warc.gz"
    warc.write_bytes(warc_file([("http://shop.example/", "text/html; charset=iso-8859-1", GOOD),
                                ("http://other.example/", "text/html; charset=utf-8", GOOD)]))
    (tmp_path / "notwarc.warc.gz").write_bytes(gzip.compress(b"just some text\n" * 20))
    manifest = tmp_path / "warc.paths"
    manifest.write_bytes(b"one.warc.gz\nbad line with spaces.warc.gz\nnotwarc.warc.gz\n"
                         b"missing.warc.gz\n\xff\xfe.warc.gz\n")
    overrides = tmp_path / "overrides.yaml"
    approved_override(overrides, "shop.example", "utf-8")
    out = tmp_path / "out"
    assert main(["spark", "report", str(manifest), "--prefix", f"{tmp_path}/", "--overrides",
                 str(overrides), "--out", str(out), "--master", "local[1]"]) == 0
    captured = capsys.readouterr()
    assert "3 WARC files, 2 records, 2 hosts" in captured.out
    assert f"1 approved override applied from {overrides}" in captured.out
    written = report_from_json((out / "report.json").read_text("utf-8"))
    by_host = {h.host: h for h in written.hosts}
    assert by_host["shop.example"].sources == (("override", 1),)
    assert by_host["other.example"].sources == (("http-header", 1),)
    problem = written.problem or ""
    assert "warc.paths line 2: not a path (a space inside)" in problem
    assert "warc.paths line 5: not a path (bytes that are not UTF-8)" in problem
    assert "notwarc.warc.gz" in problem and "missing.warc.gz" in problem
    rows = _rows_of(out / "records.parquet")
    assert sorted((r["host"], r["source"], r["content_type"]) for r in rows) == [
        ("other.example", "http-header", "text/html; charset=utf-8"),
        ("shop.example", "override", "text/html; charset=iso-8859-1")]
    assert {r["warc_file"] for r in rows} == {str(warc)}


def test_spark_report_applies_the_apps_overrides_file_as_report_does(spark, tmp_path, capsys):
    """Without --overrides, the app's overrides file (when it exists) is applied, as the
    single-machine report applies it: the two reports of one WARC file agree."""
    import os
    from pathlib import Path

    warc = tmp_path / "one.warc.gz"
    warc.write_bytes(warc_file([("http://shop.example/", "text/html; charset=iso-8859-1", GOOD)]))
    apps = Path(os.environ["ENCODING_TRIAGE_OVERRIDES"])   # (the test's own, see conftest)
    approved_override(apps, "shop.example", "utf-8")
    out = tmp_path / "out"
    assert main(["spark", "report", str(warc), "--out", str(out), "--master", "local[1]"]) == 0
    assert f"1 approved override applied from {apps}" in capsys.readouterr().out
    written = report_from_json((out / "report.json").read_text("utf-8"))
    assert written.hosts[0].sources == (("override", 1),)
    assert main(["report", str(warc), "--json"]) == 0
    single = report_from_json(capsys.readouterr().out)
    assert single.hosts == written.hosts
    assert main(["spark", "report", str(warc), "--out", str(out), "--master", "local[1]",
                 "--no-overrides"]) == 0
    assert "approved override" not in capsys.readouterr().out
    plain = report_from_json((out / "report.json").read_text("utf-8"))
    assert plain.hosts[0].sources == (("http-header", 1),)


def test_spark_scan_writes_what_scan_csv_json_writes(spark, tmp_path, capsys):
    """Parquet in, report.json in the format of scan-csv --json (read back by scan_from_json),
    findings.parquet beside it; CSV files scanned one per task; bad input a clear message."""
    from encoding_core.fields.parquetscan import scan_parquet
    from encoding_core.fields.scanjson import scan_from_json, scan_to_dict

    data = tmp_path / "fields.parquet"
    pq.write_table(pa.table({"name": ["JosÃ© Smith", "Ana", "MÃ¼ller", None] * 500,
                             "url": ["http://a.example/", "http://b.example/"] * 1000,
                             "n": list(range(2000))}), data, row_group_size=300)
    out = tmp_path / "scan"
    assert main(["spark", "scan", str(data), "--column", "name", "--column", "n",
                 "--host-column", "url", "--out", str(out), "--master", "local[1]"]) == 0
    captured = capsys.readouterr()
    assert "2,000 rows, 1,000 flagged cells" in captured.out
    assert "column 'n' is bigint, not text: skipped" in captured.err
    text = (out / "report.json").read_text("utf-8")
    single = scan_parquet(data, ["name", "n"], "url")
    assert json.loads(text).keys() == scan_to_dict(single, str(data)).keys()
    name, back = scan_from_json(text)
    assert name == str(data)
    assert back.columns.to_dict("records") == single.columns.to_dict("records")
    assert back.hosts.to_dict("records") == single.hosts.to_dict("records")
    assert len(_rows_of(out / "findings.parquet")) == 1_000
    csv = tmp_path / "a.csv"
    csv.write_bytes("name,url\nJosÃ© Smith,http://a.example/\n".encode())
    assert main(["spark", "scan", str(csv), str(tmp_path / "gone.csv"), "--out", str(out),
                 "--master", "local[1]"]) == 0
    captured = capsys.readouterr()
    assert "1 row, 1 flagged cell" in captured.out and "gone.csv: cannot open" in captured.err
    assert _rows_of(out / "findings.parquet")[0]["file"] == str(csv)
    assert main(["spark", "scan", str(tmp_path / "nothing.parquet"), "--out", str(out),
                 "--master", "local[1]"]) == 2
    assert "error:" in capsys.readouterr().err
    assert main(["spark", "scan", str(data), "--column", "nope", "--out", str(out),
                 "--master", "local[1]"]) == 2
    assert "no column named 'nope'" in capsys.readouterr().err


def test_spark_scan_reads_a_catalog_table(spark, tmp_path, capsys):
    """--table NAME scans a table of the session's catalog (here a temporary view)."""
    spark.createDataFrame([("JosÃ© Smith",), ("Ana",)], "name string").createOrReplaceTempView(
        "people")
    assert main(["spark", "scan", "--table", "people", "--out", str(tmp_path / "t"),
                 "--master", "local[1]"]) == 0
    assert "2 rows, 1 flagged cell" in capsys.readouterr().out
    assert main(["spark", "scan", "--out", str(tmp_path / "t")]) == 2
    assert "give PATHS or --table NAME" in capsys.readouterr().err


def test_spark_report_refuses_what_it_cannot_start_on(tmp_path, capsys):
    """No WARC path at all, or an overrides file that is not there: exit 2 before Spark."""
    empty = tmp_path / "warc.paths"
    empty.write_text("# nothing yet\n", encoding="utf-8")
    assert main(["spark", "report", str(empty), "--out", str(tmp_path / "o")]) == 2
    assert "no WARC paths to read" in capsys.readouterr().err
    assert main(["spark", "report", "a.warc.gz", "--overrides", str(tmp_path / "none.yaml"),
                 "--out", str(tmp_path / "o")]) == 2
    assert "no such overrides file" in capsys.readouterr().err


def test_spark_report_fails_when_no_file_can_be_read_and_reads_file_uris(spark, tmp_path,
                                                                         capsys):
    """Every path unreadable: exit 1, each named. A file:// URI is read through pyarrow's file
    systems (the code path of s3a:// on a cluster), and --records-out puts the Parquet there."""
    out = tmp_path / "out"
    assert main(["spark", "report", str(tmp_path / "gone.warc.gz"), "bogus://x/y.warc.gz",
                 "--out", str(out), "--master", "local[1]"]) == 1
    err = capsys.readouterr().err
    assert "gone.warc.gz" in err and "bogus://x/y.warc.gz" in err
    warc = tmp_path / "one.warc.gz"
    warc.write_bytes(warc_file([("http://a.example/1", "text/html; charset=utf-8", GOOD)]))
    elsewhere = tmp_path / "parquet" / "records"
    assert main(["spark", "report", f"file://{warc}", "--records-out", f"file://{elsewhere}",
                 "--out", str(out), "--master", "local[1]"]) == 0
    assert "1 WARC file, 1 record, 1 host" in capsys.readouterr().out
    assert [r["url"] for r in _rows_of(elsewhere)] == ["http://a.example/1"]
