"""``host_report(spark, paths)``: seed 000's per-host numbers over many WARC files on Spark.

The paths are distributed one task per file (``sc.parallelize(paths, len(paths))``); a task
reads its file with the project's own WARC reader (``warc.warcfile``, which names a damaged
record where resiliparse's Beam reader drops it) and decides each record with
``hostreport.outcome``. Per host, the outcomes are combined into ``HostTally`` values before
the shuffle (``combineByKey``), so no host's records need to meet in one place; the report is
built from the merged tallies with ``hostreport.report_of``, the function the single-machine
report uses. A file that cannot be read, or is damaged after some records, is named in
``problem`` with what was read from it kept, and so is a record that cannot be read or decided
(the others of its file go on): nothing is dropped silently.

Overrides are applied as the single-machine report applies them: the driver reads the file once
(``overrides.lookup.ActiveOverrides``) and ships that snapshot to the tasks. With
``records_out``, every record is written as Parquet by the executors (one row per record,
``RECORD_COLUMNS``), so a crawl's records never pass through the driver.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..decision.overridden import OverrideSource
from ..limits import MAX_BODY_BYTES
from ..warc.hostmodels import RecordOutcome
from ..warc.hostreport import (
    HostReport,
    report_of,
    unreadable_problem,
    warc_outcomes,
)
from ..warc.hosttally import HostTally
from ..warc.warcfile import WarcFormatError
from .remote import is_uri, open_input

__all__ = ["RECORD_COLUMNS", "FileProblem", "host_report", "records_of_file"]

#: The columns of the per-record Parquet output (Spark SQL types), for analysts to query.
RECORD_COLUMNS = (
    ("url", "string"), ("host", "string"), ("status", "int"), ("content_type", "string"),
    ("encoding", "string"), ("source", "string"), ("replacements", "int"),
    ("quarantined", "boolean"), ("conflicts", "array<string>"), ("needs_review", "boolean"),
    ("suggested", "string"), ("body_length", "long"), ("not_a_page", "string"),
    ("warc_file", "string"), ("record_index", "int"))

_SKIPPED, _PROBLEM = "~skipped", "~problem"


@dataclass(frozen=True, slots=True)
class FileProblem:
    """A WARC file that could not be read whole: which, where it stopped, and why."""

    path: str
    records_read: int
    reason: str


def records_of_file(path: str, max_bytes: int = MAX_BODY_BYTES,
                    overrides: OverrideSource | None = None) -> Iterator[tuple[str, Any]]:
    """(host, RecordOutcome) per decided record of one file; ("~skipped", reason) per record
    not decided; ("~problem", FileProblem) when the file stops early or does not open."""
    read = 0
    stream = None
    try:
        stream = open_input(path) if is_uri(path) else None
        for item in warc_outcomes(stream if stream is not None else path, max_bytes=max_bytes,
                                  overrides=overrides, warc_file=path):
            read += 1
            if isinstance(item, str):
                yield _SKIPPED, item
            else:
                yield item.host, item
    except WarcFormatError as exc:
        yield _PROBLEM, FileProblem(path, read, str(exc))
    except OSError as exc:
        yield _PROBLEM, FileProblem(path, read, f"cannot be read: {exc}")
    finally:
        if stream is not None:
            stream.close()


def _start(record: RecordOutcome) -> HostTally:
    return HostTally(record.host).add(record)


def _add(tally: HostTally, record: RecordOutcome) -> HostTally:
    return tally.add(record)


def _merge(a: HostTally, b: HostTally) -> HostTally:
    return a.merge(b)


def _row(record: RecordOutcome) -> tuple[Any, ...]:
    return (record.url, record.host, record.status, record.content_type, record.encoding,
            record.source, record.replacements, record.quarantined, list(record.conflicts),
            record.needs_review, record.suggested, record.body_length, record.not_a_page,
            record.warc_file, record.record_index)


def host_report(spark: Any, paths: Sequence[str], *, max_bytes: int = MAX_BODY_BYTES,
                with_records: bool = True, max_records: int | None = None,
                overrides: OverrideSource | None = None,
                records_out: str | None = None, input_problems: Sequence[str] = ()
                ) -> HostReport:
    """The host report over the WARC files at ``paths`` (local paths or what the cluster's
    Hadoop file systems read), computed on ``spark`` (a SparkSession).

    ``with_records``: also collect every record's outcome (the single-machine report keeps
    them), if there are no more than ``max_records``; off for a crawl, whose records belong
    in ``records_out`` (a Parquet folder the executors write), not in the driver's memory.
    ``overrides``: a picklable ``OverrideSource`` (an ``ActiveOverrides``), applied in the
    tasks through the call Fetch decides with (``decision.overridden.decode_overridden``).
    ``input_problems``: what was wrong before the job (a manifest's bad line), named first in
    ``problem``.
    """
    context = spark.sparkContext
    items = context.parallelize(list(paths), max(1, len(paths))).flatMap(
        lambda path: records_of_file(path, max_bytes, overrides)).cache()
    decided = items.filter(lambda kv: kv[0] not in (_SKIPPED, _PROBLEM))
    tallies = decided.combineByKey(_start, _add, _merge).values().collect()
    others = items.filter(lambda kv: kv[0] in (_SKIPPED, _PROBLEM)).collect()
    if records_out is not None:
        schema = ", ".join(f"{name} {kind}" for name, kind in RECORD_COLUMNS)
        spark.createDataFrame(decided.values().map(_row), schema).write.mode(
            "overwrite").parquet(records_out)
    total = sum(tally.records for tally in tallies)
    keep = with_records and (max_records is None or total <= max_records)
    records = decided.values().collect() if keep else []
    # the records that could not be read or decided: few, so always brought to the driver
    unreadable = decided.values().filter(lambda r: r.error is not None).collect()
    items.unpersist()
    skipped = Counter(reason for key, reason in others if key == _SKIPPED)
    problems = [p for key, p in others if key == _PROBLEM]
    problem = "; ".join([*input_problems, *(
        f"{p.path}: {p.reason} (after {p.records_read} records)" for p in problems),
        *filter(None, [unreadable_problem(
            sorted(unreadable, key=lambda r: (r.warc_file, r.record_index or 0)))])]) or None
    return report_of(tallies, records, skipped.items(), problem,
                     records_omitted=0 if keep else total)
