"""Benchmark of the Spark layer (issue 13): the host report on Spark ``local[2]`` against the
single-process report over the same 20,000 records, and what a crawl would cost.

    .venv/bin/python bench/bench_spark.py [--quick] [--json PATH]

The records (pages from ``bench/corpus.py`` under 25 hosts a file, header charset right,
absent or wrong) are written to 8 WARC files. Measured in one run:

- single process: ``report_from_warc`` over each file, summarised (``summarise``);
- Spark: session start, the first job and a warm job of ``spark.hostjob.host_report`` on
  ``local[2]`` (2 cores: this machine has 2); the results must equal the single process's.

Reported: the overhead ratio (Spark seconds / single-process seconds), records per second per
core on each path, and what a Common Crawl monthly crawl (~3 billion records, ~90,000 WARC
files) would cost in core-hours at that rate (decoding only: S3 reads and the cluster's own
overhead are not in it). Needs Java 17 and pyspark; says so and stops when they are missing.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_fetch import build_warc  # noqa: E402

from encoding_core.warc.hostreport import report_from_warc, summarise  # noqa: E402

CRAWL_RECORDS = 3_000_000_000
CRAWL_FILES = 90_000


def single(paths: list[str]) -> Any:
    reports = [report_from_warc(path) for path in paths]
    return summarise([r for rep in reports for r in rep.records],
                     [kv for rep in reports for kv in rep.skipped])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="4,000 records, not 20,000")
    parser.add_argument("--json", type=Path, default=ROOT / "bench" / "out" / "spark.json")
    args = parser.parse_args(argv)
    if shutil.which("java") is None:
        print("skipped: no Java on this machine (apt-get install openjdk-17-jre-headless)")
        return 0
    from encoding_core.spark.quiet import pandas_warning_ignored

    try:
        with pandas_warning_ignored():
            from pyspark.sql import SparkSession
    except ImportError:
        print("skipped: pyspark is not installed (pip install '.[spark]')")
        return 0
    from encoding_core.spark.hostjob import host_report

    total, files = (4_000, 4) if args.quick else (20_000, 8)
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for n in range(files):
            path = Path(tmp) / f"crawl-{n}.warc.gz"
            build_warc(path, total // files, start=n * (total // files))
            paths.append(str(path))
        started = time.perf_counter()
        expected = single(paths)
        single_s = time.perf_counter() - started
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        started = time.perf_counter()
        with pandas_warning_ignored():
            spark = (SparkSession.builder.master("local[2]").appName("encoding-triage bench")
                     .config("spark.ui.enabled", "false")
                     .config("spark.executorEnv.PYTHONPATH", str(ROOT)).getOrCreate())
        spark.sparkContext.setLogLevel("ERROR")
        session_s = time.perf_counter() - started
        runs = []
        for _ in range(2 if args.quick else 3):
            started = time.perf_counter()
            found = host_report(spark, paths)
            runs.append(time.perf_counter() - started)
        spark.stop()
    records = len(expected.records)
    same = found.hosts == expected.hosts and found.records == expected.records
    warm = statistics.median(runs[1:])
    single_rate = records / single_s
    spark_rate = records / warm / 2
    result = {
        "records": records, "files": files, "identical": same,
        "single_process_s": round(single_s, 2), "spark_session_s": round(session_s, 2),
        "spark_first_job_s": round(runs[0], 2), "spark_warm_job_s": round(warm, 2),
        "overhead_first": round(runs[0] / single_s, 2),
        "overhead_warm": round(warm / single_s, 2),
        "records_per_s_per_core_single": round(single_rate),
        "records_per_s_per_core_spark": round(spark_rate),
        "crawl_core_hours_single_rate": round(CRAWL_RECORDS / single_rate / 3600),
        "crawl_core_hours_spark_rate": round(CRAWL_RECORDS / spark_rate / 3600),
    }
    print(f"Host report over {records:,} records in {files} WARC files "
          f"(results identical: {same})")
    print(f"   single process          {single_s:7.2f} s  "
          f"{single_rate:7,.0f} records/s/core")
    print(f"   Spark local[2] session  {session_s:7.2f} s (once)")
    print(f"   Spark local[2] first    {runs[0]:7.2f} s  x{result['overhead_first']}")
    print(f"   Spark local[2] warm     {warm:7.2f} s  x{result['overhead_warm']}  "
          f"{spark_rate:7,.0f} records/s/core")
    print(f"   a monthly crawl ({CRAWL_RECORDS / 1e9:.0f} B records, {CRAWL_FILES:,} files): "
          f"~{result['crawl_core_hours_single_rate']:,} core-hours at the single-process "
          f"rate, ~{result['crawl_core_hours_spark_rate']:,} at the Spark rate "
          "(decoding only)")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=1))
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
