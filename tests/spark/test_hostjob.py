"""Tests for spark.hostjob: the host report on a real local SparkSession equals the
single-machine report over the same WARC files, damaged ones included."""

from __future__ import annotations

import pytest

from encoding_core.spark.hostjob import host_report
from encoding_core.warc.hostreport import report_from_warc, summarise
from tests.warcs import poison_warc, response_record, warc_file

GOOD = "<p>café “quoted”</p>".encode()
BROKEN = "é".encode() * 50 + b"\xff" * 25
LYING = "<p>José Müller – “quoted” café</p>".encode()


@pytest.fixture
def warc_paths(tmp_path):
    files = {
        "one.warc.gz": warc_file([("http://a.example/1", "text/html; charset=utf-8", GOOD),
                                  ("http://b.example/1", "text/html; charset=utf-8", BROKEN),
                                  ("http://a.example/x.png", "image/png", b"\x89PNG")]),
        "two.warc.gz": warc_file([("http://c.example/1", "text/html; charset=iso-8859-1",
                                   LYING),
                                  ("http://a.example/2", "text/html; charset=utf-8", LYING)])
                       + response_record("http://d.example/", "text/html", b"",
                                         status="302 Found", headers=(("Location", "/x"),)),
    }
    paths = []
    for name, data in files.items():
        path = tmp_path / name
        path.write_bytes(data)
        paths.append(str(path))
    return paths


def test_spark_report_equals_the_single_machine_report(spark, warc_paths):
    """The same hosts, records and skips as report_from_warc over each file, in order."""
    found = host_report(spark, warc_paths)
    singles = [report_from_warc(path) for path in warc_paths]
    expected = summarise([r for s in singles for r in s.records],
                         [kv for s in singles for kv in s.skipped])
    assert found.hosts == expected.hosts
    assert found.records == expected.records
    assert found.skipped == expected.skipped
    assert found.problem is None


def test_a_damaged_or_missing_file_is_named_and_the_rest_kept(spark, warc_paths, tmp_path):
    """A WARC file cut short and a path that does not exist are named; nothing else is lost."""
    cut = tmp_path / "cut.warc.gz"
    data = (tmp_path / "one.warc.gz").read_bytes()
    cut.write_bytes(data[: len(data) - 40])
    found = host_report(spark, [*warc_paths, str(cut), str(tmp_path / "missing.warc.gz")])
    assert "cut.warc.gz" in (found.problem or "") and "missing.warc.gz" in (found.problem or "")
    complete = host_report(spark, warc_paths)
    by_host = {h.host: h.records for h in found.hosts}
    assert all(by_host[h.host] >= h.records for h in complete.hosts)


def test_a_poison_record_does_not_fail_the_task(spark, tmp_path):
    """A record with 1,000 content codings (a RecursionError that failed the task and aborted
    the job) is named in ``problem``; every good record of its file and of the others is kept,
    as in the single-machine report."""
    data, bad_url = poison_warc(50)
    poison = tmp_path / "poison.warc.gz"
    poison.write_bytes(data)
    other = tmp_path / "other.warc.gz"
    other.write_bytes(warc_file([("http://a.example/1", "text/html; charset=utf-8", GOOD)]))
    found = host_report(spark, [str(poison), str(other)])
    assert sum(1 for r in found.records if r.decided) == 51
    assert [r.url for r in found.records if r.error] == [bad_url]
    assert found.problem is not None and "record 26" in found.problem and bad_url in found.problem
    single = report_from_warc(str(poison))
    assert [r for r in found.records if r.warc_file == str(poison)] == list(single.records)
