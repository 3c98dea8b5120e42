"""``encoding-triage spark report PATHS --out DIR``: the host report on Apache Spark.

PATHS are WARC files, or manifests (``*.paths``, ``*.paths.gz``: one path a line, as Common
Crawl publishes them; ``--prefix`` is put before each relative line, e.g. ``s3a://commoncrawl/``).
DIR gets ``report.json`` in exactly the format of ``report --json``, and ``records.parquet``
with one row per record for analysts to query. Needs the ``spark`` extra and Java 17.
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import os
import sys
from pathlib import Path
from typing import Any

from ._help import examples

__all__ = ["add_parser", "expand_paths", "run_report"]


def add_parser(subparsers: Any) -> None:
    """Register ``spark`` with its ``report`` action."""
    parser = subparsers.add_parser(
        "spark", help="run the host report on Apache Spark (the spark extra, Java 17)",
        description="Run the host report over many WARC files on Apache Spark.",
        **examples("encoding-triage spark report crawl/*.warc.gz --out out/",
                   "encoding-triage spark report warc.paths.gz --prefix s3a://commoncrawl/ "
                   "--out out/ --master yarn"))
    actions = parser.add_subparsers(dest="spark_command", required=True, metavar="ACTION")
    report = actions.add_parser(
        "report", help="per-host decisions over WARC files, into DIR",
        description="Per-host decisions over WARC files (or manifests of them), written to DIR "
                    "as report.json (the format of report --json) and records.parquet.",
        **examples("encoding-triage spark report a.warc.gz b.warc.gz --out out/"))
    report.add_argument("paths", nargs="+", help="WARC files, or *.paths[.gz] manifests")
    report.add_argument("--out", type=Path, required=True, metavar="DIR",
                        help="the folder for report.json and records.parquet")
    report.add_argument("--master", default="local[*]", help="Spark master (default local[*])")
    report.add_argument("--prefix", default="", help="put before relative manifest lines")
    report.set_defaults(func=run_report)


def expand_paths(paths: list[str], prefix: str = "") -> tuple[list[str], int]:
    """The WARC paths: files as given, manifests read line by line; and how many manifest
    lines were not paths (blank, or a comment)."""
    found: list[str] = []
    skipped = 0
    for path in paths:
        if not path.endswith((".paths", ".paths.gz")):
            found.append(path)
            continue
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8", errors="replace") as lines:
            for line in lines:
                line = line.strip()
                if not line or line.startswith("#"):
                    skipped += 1
                    continue
                found.append(line if "://" in line or line.startswith("/") else prefix + line)
    return found, skipped


def run_report(args: argparse.Namespace) -> int:
    """Run the job; 2 when Spark cannot start or a manifest cannot be read."""
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        print("error: pyspark is not installed: pip install 'encoding-triage[spark]'",
              file=sys.stderr)
        return 2
    try:
        paths, skipped = expand_paths(list(args.paths), args.prefix)
    except OSError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    from ..spark.hostjob import host_report

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = (SparkSession.builder.master(args.master).appName("encoding-triage report")
             .config("spark.ui.enabled", "false").getOrCreate())
    report = host_report(spark, paths)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "report.json").write_text(report.to_json() + "\n", encoding="utf-8")
    _write_records(report.records, args.out / "records.parquet")
    print(f"{len(paths):,} WARC files, {len(report.records):,} records, "
          f"{len(report.hosts):,} hosts -> {args.out}/report.json, records.parquet"
          + (f"; {skipped} manifest lines skipped" if skipped else ""))
    if report.problem:
        print(f"problem: {report.problem}", file=sys.stderr)
    return 0


def _write_records(records: Any, path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = [dataclasses.asdict(r) | {"conflicts": " ".join(r.conflicts)} for r in records]
    pq.write_table(pa.Table.from_pylist(rows) if rows else pa.table({}), path)
