"""``encoding-triage spark report PATHS --out DIR`` and ``spark scan PATHS --out DIR``: the host
report and the field scan on Apache Spark (the ``spark`` extra and Java 17).

``report``: PATHS are WARC files, or manifests (``*.paths``, ``*.paths.gz``: one path a line,
as Common Crawl publishes them; ``--prefix`` is put before each relative line, e.g.
``s3a://commoncrawl/``). DIR gets ``report.json`` in exactly the format of ``report --json``
(its records listed when there are at most ``--json-records``) and ``records.parquet``, a
Parquet folder the executors write with one row per record, for analysts to query.

``scan``: PATHS are Parquet files or folders (read by Spark, ``s3a://`` included), CSV files
(one task per file, each in the encoding the core decides), or ``--table NAME`` of the
session's catalog. DIR gets ``report.json`` in exactly the format of ``scan-csv --json`` and
``findings.parquet`` with the flagged cells kept (the first ``--max-findings``).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from ..wording import plural
from ._help import examples
from ._overrides_file import add_overrides_arguments, overrides_file

__all__ = ["add_parser", "run_report", "run_scan"]

_CSV_SUFFIXES = (".csv", ".tsv", ".txt", ".csv.gz")


def add_parser(subparsers: Any) -> None:
    """Register ``spark`` with its ``report`` and ``scan`` actions."""
    parser = subparsers.add_parser(
        "spark", help="the host report and the field scan on Apache Spark (spark extra, Java 17)",
        description="Run the host report over many WARC files, or the field scan over a "
                    "table, on Apache Spark.",
        **examples("encoding-triage spark report crawl/*.warc.gz --out out/",
                   "encoding-triage spark report warc.paths.gz --prefix s3a://commoncrawl/ "
                   "--out out/ --master yarn",
                   "encoding-triage spark scan s3a://bucket/records/ --column title "
                   "--host-column url --out scan/"))
    actions = parser.add_subparsers(dest="spark_command", required=True, metavar="ACTION")
    report = actions.add_parser(
        "report", help="per-host decisions over WARC files, into DIR",
        description="Per-host decisions over WARC files (or manifests of them), written to DIR "
                    "as report.json (the format of report --json) and records.parquet.",
        **examples("encoding-triage spark report a.warc.gz b.warc.gz --out out/",
                   "encoding-triage spark report crawl/*.warc.gz --overrides overrides.yaml "
                   "--out out/"))
    report.add_argument("paths", nargs="+", help="WARC files, or *.paths[.gz] manifests")
    report.add_argument("--prefix", default="", help="put before relative manifest lines")
    add_overrides_arguments(report)
    report.add_argument("--json-records", type=int, default=100_000, metavar="N",
                        help="list the records in report.json when there are at most N "
                             "(default 100,000); records.parquet always has them")
    report.add_argument("--records-out", default=None, metavar="URI",
                        help="where the executors write records.parquet (default "
                             "DIR/records.parquet; on a cluster, a path every executor "
                             "reaches: s3a://..., hdfs://...)")
    scan = actions.add_parser(
        "scan", help="mojibake per column and host over a table, into DIR",
        description="Find mojibake and lost characters in a table's text columns (Parquet "
                    "files or folders, CSV files, or a catalog table), written to DIR as "
                    "report.json (the format of scan-csv --json) and findings.parquet.",
        **examples("encoding-triage spark scan records.parquet --out scan/",
                   "encoding-triage spark scan exports/*.csv --column name --host-column url "
                   "--out scan/",
                   "encoding-triage spark scan --table crawl.records --column title --out scan/"))
    scan.add_argument("paths", nargs="*", help="Parquet files or folders, or CSV files")
    scan.add_argument("--table", default=None, metavar="NAME",
                      help="scan this table of the session's catalog instead of PATHS")
    scan.add_argument("--column", action="append", default=None, metavar="NAME",
                      help="scan only this column (repeat for more); default: all text ones")
    scan.add_argument("--host-column", default=None, metavar="NAME",
                      help="a host or URL column: also count per host")
    scan.add_argument("--max-findings", type=int, default=10_000, metavar="N",
                      help="keep the first N flagged cells (default 10,000; counts are complete)")
    for action, run in ((report, run_report), (scan, run_scan)):
        action.add_argument("--out", type=Path, required=True, metavar="DIR",
                            help="the folder for report.json and the Parquet output")
        action.add_argument("--master", default="local[*]",
                            help="Spark master (default local[*])")
        action.set_defaults(func=run)


def _session(master: str, name: str) -> Any:
    """A SparkSession, or None with a message when pyspark is not installed."""
    from ..spark.quiet import pandas_warning_ignored

    try:
        with pandas_warning_ignored():
            from pyspark.sql import SparkSession
    except ImportError:
        print("error: pyspark is not installed: pip install 'encoding-triage[spark]'",
              file=sys.stderr)
        return None
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    with pandas_warning_ignored():
        session = (SparkSession.builder.master(master).appName(name)
                   .config("spark.ui.enabled", "false").getOrCreate())
    session.sparkContext.setLogLevel("ERROR")   # the job's own lines, not Spark's INFO/WARN
    return session


def run_report(args: argparse.Namespace) -> int:
    """Run the host report job; 2 when Spark cannot start, there is no path or the overrides
    file is missing or broken; 1 when no record could be read (every file named)."""
    from ..errors import EncodingCoreError
    from ..overrides.lookup import ActiveOverrides
    from ..overrides.store import OverrideStore
    from ..spark.manifest import expand_paths
    from ..spark.remote import is_uri

    overrides = None
    try:   # as `report` does: the file named, none, else the app's when it exists
        applied = overrides_file(args)
    except EncodingCoreError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if applied is not None:
        try:
            overrides = ActiveOverrides.of(OverrideStore(applied))
        except EncodingCoreError as exc:   # (its message names the file)
            print(f"error: {exc}", file=sys.stderr)
            return 2
        except OSError as exc:
            print(f"error: {applied}: {exc}", file=sys.stderr)
            return 2
    found = expand_paths(args.paths, args.prefix)
    if not found.paths:
        print("error: no WARC paths to read" + "".join(f"; {p}" for p in found.problems),
              file=sys.stderr)
        return 2
    records_out = args.records_out or str((args.out / "records.parquet").resolve())
    if not args.master.startswith("local") and not is_uri(records_out):
        print(f"warning: {records_out} is a local path and the master is {args.master}: each "
              "executor writes its part on its own machine; give --records-out a URI every "
              "executor reaches (s3a://..., hdfs://...)", file=sys.stderr)
    spark = _session(args.master, "encoding-triage report")
    if spark is None:
        return 2
    from ..spark.hostjob import host_report

    args.out.mkdir(parents=True, exist_ok=True)
    report = host_report(spark, found.paths, overrides=overrides, max_records=args.json_records,
                         records_out=records_out, input_problems=found.problems)
    (args.out / "report.json").write_text(report.to_json() + "\n", encoding="utf-8")
    records = sum(h.records for h in report.hosts)
    print(f"{plural(len(found.paths), 'WARC file')}, {plural(records, 'record')}, "
          f"{plural(len(report.hosts), 'host')} -> {args.out}/report.json, {records_out}"
          + (f"; {plural(found.skipped, 'manifest line')} skipped" if found.skipped else "")
          + (f"; {overrides.summary(applied)}" if overrides is not None else ""))
    if report.records_omitted:
        print(f"report.json lists no records (records_omitted: {report.records_omitted:,}, "
              f"more than {args.json_records:,}); records.parquet has them", file=sys.stderr)
    if report.problem:
        print(f"problem: {report.problem}", file=sys.stderr)
    return 1 if not records and report.problem else 0


def run_scan(args: argparse.Namespace) -> int:
    """Run the field scan job; 2 when there is nothing to scan or a column is not there."""
    if bool(args.paths) == bool(args.table):
        print("error: give PATHS or --table NAME (one of them)", file=sys.stderr)
        return 2
    spark = _session(args.master, "encoding-triage scan")
    if spark is None:
        return 2
    from pyspark.errors import AnalysisException, IllegalArgumentException

    from ..fields.scanjson import scan_to_json
    from ..spark.scanjob import scan_csv_files, scan_table

    csv = bool(args.paths) and all(p.lower().endswith(_CSV_SUFFIXES) for p in args.paths)
    try:
        if csv:
            report = scan_csv_files(spark, args.paths, args.column, args.host_column,
                                    max_findings=args.max_findings)
        else:
            df = spark.table(args.table) if args.table else spark.read.parquet(*args.paths)
            report = scan_table(df, args.column, args.host_column,
                                max_findings=args.max_findings)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except (AnalysisException, IllegalArgumentException) as exc:  # no such path or table
        print(f"error: {str(exc).splitlines()[0]}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    name = args.table or " ".join(args.paths)
    (args.out / "report.json").write_text(scan_to_json(report, name) + "\n", encoding="utf-8")
    _write_findings(report.findings, args.out / "findings.parquet")
    print(f"{plural(report.rows, 'row')}, {plural(report.flagged, 'flagged cell')} -> "
          f"{args.out}/report.json, findings.parquet")
    for note in report.notes:
        print(f"note: {note}", file=sys.stderr)
    return 0


def _write_findings(findings: Any, path: Path) -> None:
    """The flagged cells as Parquet; row labels of mixed types (a frame's index) as text."""
    try:
        findings.to_parquet(path, index=False)
    except (TypeError, ValueError):   # pyarrow's ArrowInvalid and ArrowTypeError are these
        findings.assign(row=findings["row"].astype(str)).to_parquet(path, index=False)
