"""Field scans on Spark: ``scan_table`` over a DataFrame, ``scan_csv_files`` over CSV paths.

``scan_table(df, columns, host_column)`` runs the single-machine counting (``scanreport.Tally``)
inside ``mapInArrow``: each partition's Arrow batches are scanned in order into one tally, and
the partition's ``ScanReport`` travels back pickled, with its partition number and row count.
The driver numbers rows as ``df.collect()`` orders them (partition order, then position),
shifts each partition's findings by the rows before it and merges the reports
(``ScanReport.merge``), so the result equals ``scan_frame`` over the collected rows: the same
counts and, up to ``max_findings``, the same findings. (``mapInPandas`` fails on string
output columns; ``mapInArrow`` does not.)

``scan_csv_files(spark, paths)`` scans one file per task with ``scan_csv``, because the core
decides each file's encoding (Spark's CSV reader assumes one for all). A file that cannot be
read is named in the notes and the job goes on; each finding says which file it is from.

Spark strings are UTF-8, so a table has no encoding to decide: what is found is damage done
before the data was written. A named column that is not text is named and skipped; a table
with no rows gives an empty report that says so.
"""

from __future__ import annotations

import dataclasses
import pickle
from collections.abc import Iterator, Sequence
from functools import reduce
from typing import Any

import pyarrow as pa  # type: ignore[import-untyped, unused-ignore]

from ..fields.csvformat import CsvError
from ..fields.csvscan import scan_csv
from ..fields.scanreport import MAX_FINDINGS, ScanReport, Tally, host_label
from .quiet import pandas_warning_ignored
from .remote import is_uri, open_input

__all__ = ["scan_csv_files", "scan_table"]

_OUT = "partition int, rows long, report binary"
_TEXT = ("string", "varchar", "char")


def _partition(batches: Iterator[pa.RecordBatch], chosen: list[str], host_column: str | None,
               max_findings: int) -> Iterator[pa.RecordBatch]:
    """One partition's batches scanned in order into one tally; one row out. The batches'
    columns are ``chosen`` then the host column, by position (see ``scan_table``)."""
    from pyspark import TaskContext

    tally = Tally(chosen, host_column is not None, max_findings)
    width, start = len(chosen), 0
    for batch in batches:
        rows = batch.num_rows
        hosts = None
        if host_column is not None:
            hosts = [host_label(v) for v in batch.column(width).to_pylist()]
        tally.add([batch.column(i) for i in range(width)], range(start, start + rows), None,
                  hosts)
        start += rows
    report = dataclasses.replace(tally.report(with_lines=False), notes=())
    context = TaskContext.get()
    number = context.partitionId() if context is not None else 0
    yield pa.RecordBatch.from_pylist(
        [{"partition": number, "rows": start, "report": pickle.dumps(report)}],
        schema=pa.schema([("partition", pa.int32()), ("rows", pa.int64()),
                          ("report", pa.binary())]))


def _shifted(report: ScanReport, offset: int) -> ScanReport:
    if not offset or not len(report.findings):
        return report
    findings = report.findings.copy()
    findings["row"] = findings["row"] + offset
    return dataclasses.replace(report, findings=findings)


def _finish(parts: list[ScanReport], empty: ScanReport, notes: list[str],
            max_findings: int, rows: int) -> ScanReport:
    merged = reduce(lambda a, b: a.merge(b, max_findings=max_findings), parts, empty)
    if not rows:
        notes.append("the table has no rows")
    if merged.findings_truncated:
        notes.append(f"{merged.flagged:,} cells are flagged; the findings list keeps the first "
                     f"{max_findings:,} (the counts are complete)")
    return dataclasses.replace(merged, notes=(*merged.notes, *notes))


def _choose(fields: dict[str, str], columns: Sequence[str] | None,
            host_column: str | None) -> tuple[list[str], list[str]]:
    names = list(fields)
    if host_column is not None and host_column not in fields:
        raise ValueError(f"no host column named {host_column!r}; the table has: {names}")
    if columns is None:
        return [n for n in names if n != host_column and fields[n].startswith(_TEXT)], []
    missing = [n for n in columns if n not in fields]
    if missing:
        raise ValueError(f"no column named {missing[0]!r}; the table has: {names}")
    chosen = [n for n in columns if fields[n].startswith(_TEXT)]
    return chosen, [f"column {n!r} is {fields[n]}, not text: skipped"
                    for n in columns if n not in chosen]


def scan_table(df: Any, columns: Sequence[str] | None = None,
               host_column: str | None = None, *, max_findings: int = MAX_FINDINGS
               ) -> ScanReport:
    """Scan the text columns of the Spark DataFrame ``df`` (or ``columns``), per host with
    ``host_column`` (a URL or host column); ``ValueError`` naming a column the table lacks."""
    fields = {f.name: f.dataType.simpleString() for f in df.schema.fields}
    chosen, notes = _choose(fields, columns, host_column)
    read = [*chosen, *([host_column] if host_column and host_column not in chosen else [])]
    empty = dataclasses.replace(
        Tally(chosen, host_column is not None, max_findings).report(with_lines=False),
        encoding="utf-8", encoding_reason="Spark holds text as UTF-8 strings")
    if not read:
        notes.append("the table has no text columns to scan")
        return dataclasses.replace(empty, rows=df.count(), notes=tuple(notes))

    from pyspark.sql import functions as F

    def scan(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        return _partition(batches, chosen, host_column, max_findings)

    # the columns by position, renamed: PySpark's mapInArrow resolves each input column by
    # its bare name, so a name with a dot (user.name) fails there unless it is renamed first
    wanted = [*chosen, *([host_column] if host_column is not None else [])]
    renamed = [F.col("`" + name.replace("`", "``") + "`").alias(f"_{i}")
               for i, name in enumerate(wanted)]
    with pandas_warning_ignored():   # PySpark 4.3 warns on any pandas >= 3 (see quiet)
        rows = sorted(df.select(*renamed).mapInArrow(scan, _OUT).collect(),
                      key=lambda row: row["partition"])
    parts, offset = [], 0
    for row in rows:
        parts.append(_shifted(pickle.loads(row["report"]), offset))
        offset += row["rows"]
    return _finish(parts, empty, notes, max_findings, offset)


def _scan_file(index: int, path: str, columns: Sequence[str] | None, host_column: str | None,
               max_findings: int) -> tuple[int, str, bytes | None, str | None]:
    """One CSV file's report (pickled), or why it could not be read."""
    stream = None
    try:
        stream = open_input(path) if is_uri(path) else None
        report = scan_csv(stream if stream is not None else path, columns, host_column,
                          max_findings=max_findings)
    except CsvError as exc:
        return index, path, None, str(exc)
    except OSError as exc:
        return index, path, None, f"cannot be read: {exc.strerror or exc}"
    finally:
        if stream is not None:
            stream.close()
    findings, malformed = report.findings.copy(), report.malformed.copy()
    findings.insert(0, "file", path)
    malformed.insert(0, "file", path)
    report = dataclasses.replace(report, findings=findings, malformed=malformed, notes=tuple(
        f"{path}: {note}" for note in report.notes))
    return index, path, pickle.dumps(report), None


def scan_csv_files(spark: Any, paths: Sequence[str], columns: Sequence[str] | None = None,
                   host_column: str | None = None, *, max_findings: int = MAX_FINDINGS
                   ) -> ScanReport:
    """Scan CSV files one task per file (each in the encoding the core decides for it) and
    merge; a file that cannot be read is named in the notes. The files must be readable by
    the executors: a local path on ``local[*]``, or a URI (``s3a://``, ``hdfs://``: see
    ``remote``) on a cluster."""
    jobs = list(enumerate(paths))
    results = sorted(spark.sparkContext.parallelize(jobs, max(1, len(jobs))).map(
        lambda job: _scan_file(job[0], job[1], columns, host_column, max_findings)).collect())
    parts = [pickle.loads(blob) for _, _, blob, _ in results if blob is not None]
    notes = [f"{path}: {why}" for _, path, blob, why in results if blob is None]
    empty = Tally(list(columns or []), host_column is not None, max_findings).report(
        with_lines=True)
    rows = sum(part.rows for part in parts)
    if not parts:
        notes.append(f"none of the {len(jobs):,} CSV files could be read")
        return dataclasses.replace(empty, notes=tuple(notes))
    first, *rest = parts
    return _finish(rest, first, notes, max_findings, rows)
