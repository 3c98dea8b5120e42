"""Tests for ``encoding-triage spark report``: report.json in the format of report --json,
records.parquet, and manifests as Common Crawl publishes them."""

from __future__ import annotations

import gzip
import json

import pyarrow.parquet as pq

from encoding_core.cli.main import main
from encoding_core.cli.spark import expand_paths
from encoding_core.warc.hostreport import report_from_json, report_from_warc
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
    assert expand_paths([str(manifest)], f"{tmp_path}/") == ([str(warc)], 2)
    out = tmp_path / "out"
    assert main(["spark", "report", str(manifest), "--prefix", f"{tmp_path}/", "--out",
                 str(out), "--master", "local[1]"]) == 0
    assert "1 WARC files, 2 records, 2 hosts" in capsys.readouterr().out
    written = report_from_json((out / "report.json").read_text("utf-8"))
    single = report_from_warc(str(warc))
    assert written.hosts == single.hosts and written.records == single.records
    assert json.loads((out / "report.json").read_text("utf-8")).keys() == json.loads(
        single.to_json()).keys()
    table = pq.read_table(out / "records.parquet")
    assert table.num_rows == 2 and "needs_review" in table.column_names
