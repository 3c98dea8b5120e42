"""``encoding-triage scan-csv FILE`` and ``scan-parquet FILE`` (``--column NAME ...``,
``--host-column NAME``, ``--json``): the same report for a CSV in any encoding and a Parquet
file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..fields.csvformat import CsvError
from ..fields.csvscan import ScanReport, scan_csv
from ..fields.scanjson import scan_to_json
from ..fields.scanwords import repair_in_words
from ._help import examples

__all__ = ["add_parser", "format_report"]

NOT_IN_PLACE = ("Nothing is repaired in place: re-decode from the retained bytes where they "
                "exist (seed 000); the repairs are proposals.")


# The options scan-csv and scan-parquet share.
_SHARED: tuple[tuple[tuple[str, ...], dict[str, Any]], ...] = (
    (("--column",), {"action": "append", "default": None, "metavar": "NAME",
                     "help": "scan only this column (repeat for more); default: all text ones"}),
    (("--host-column",), {"default": None, "metavar": "NAME",
                          "help": "a host or URL column: also count per host"}),
    (("--examples",), {"type": int, "default": 10, "metavar": "N",
                       "help": "how many flagged cells to show (text output)"}),
    (("--json",), {"action": "store_true",
                   "help": "print the summary and the flagged cells as JSON"}),
)


def add_parser(subparsers: Any) -> None:
    """Register the ``scan-csv`` subcommand."""
    parser = subparsers.add_parser(
        "scan-csv", help="find mojibake and lost characters in a CSV file's columns",
        description="Find mojibake and lost characters in a CSV file's columns, per column and "
                    "per host; the file's encoding is decided, never assumed.",
        **examples("encoding-triage scan-csv export.csv",
                   "encoding-triage scan-csv export.csv --column name --host-column url --json",
                   "gzip -dc export.csv.gz | encoding-triage scan-csv -"))
    parser.add_argument("file", type=Path, help="the CSV file, in any encoding ('-' for stdin)")
    for args, kwargs in _SHARED:
        parser.add_argument(*args, **kwargs)
    parser.set_defaults(func=run)
    parquet = subparsers.add_parser(
        "scan-parquet", help="find mojibake and lost characters in a Parquet file's text columns",
        description="Find mojibake and lost characters in a Parquet file's text columns, per "
                    "column and per host, row group by row group (a column that is not text "
                    "is named and skipped).",
        **examples("encoding-triage scan-parquet records.parquet",
                   "encoding-triage scan-parquet records.parquet --column title "
                   "--host-column url --json"))
    parquet.add_argument("file", type=Path, help="the Parquet file")
    for args, kwargs in _SHARED:
        parquet.add_argument(*args, **kwargs)
    parquet.set_defaults(func=run_parquet)


def _shown(text: object, limit: int = 80) -> str:
    """A cell for a terminal, quoted: non-printable characters escaped (repr), long text cut."""
    if not isinstance(text, str):
        return "-"
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def format_report(name: str, report: ScanReport, examples: int = 10) -> str:
    """The report as plain text: how the file was read, per column and host, examples, notes."""
    lines = [f"file: {name}",
             f"encoding: {report.encoding} ({report.encoding_reason}); delimiter "
             f"{report.delimiter!r}; {report.rows:,} rows, {report.flagged:,} flagged cells", "",
             f"{'column':<24} {'cells':>9} {'flagged':>8} {'repairable':>10} {'partly':>7} "
             f"{'lossy':>6} {'rate':>7}"]
    for row in report.columns.itertuples():
        lines.append(f"{_shown(row.column, 22)[1:-1]:<24} {row.cells:>9,} {row.flagged:>8,} "
                     f"{row.repairable:>10,} {row.partly_repairable:>7,} {row.lossy:>6,} "
                     f"{row.rate:>7.1%}")
    if report.hosts is not None:
        lines += ["", f"{'host':<32} {'rows':>8} {'flagged':>8} {'repairable':>10} "
                      f"{'partly':>7} {'lossy':>6}"]
        for row in report.hosts.itertuples():
            lines.append(f"{_shown(row.host, 30)[1:-1]:<32} {row.rows:>8,} {row.flagged:>8,} "
                         f"{row.repairable:>10,} {row.partly_repairable:>7,} {row.lossy:>6,}")
    if examples > 0 and len(report.findings):
        shown = report.findings.head(examples)
        lines += ["", f"flagged cells (first {len(shown)} of {report.flagged:,}):"]
        for row in shown.itertuples():
            repaired = (_shown(row.repaired) if isinstance(row.repaired, str)
                        else repair_in_words(str(row.kind), None, row.original))
            where = f"line {row.line}" if hasattr(row, "line") else f"row {row.row}"
            lines.append(f"  {where}, {row.column}: {row.kind}: {_shown(row.excerpt)}"
                         f" -> {repaired}  [{row.chain}]")
    if report.malformed_count:
        lines += ["", f"malformed rows ({report.malformed_count:,}):"]
        lines += [f"  line {row.line}: {row.problem}" for row in report.malformed.head(10)
                  .itertuples()]
    if report.notes:
        lines += ["", "notes:", *(f"  {note}" for note in report.notes)]
    if report.flagged:
        lines += ["", NOT_IN_PLACE]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Scan the file and print; 2 when it cannot be read as CSV."""
    source = sys.stdin.buffer if str(args.file) == "-" else args.file
    try:
        report = scan_csv(source, args.column, args.host_column)
    except CsvError as exc:
        print(f"error: {args.file}: {exc}", file=sys.stderr)
        return 2
    return _print(args, report)


def run_parquet(args: argparse.Namespace) -> int:
    """Scan the Parquet file and print; 2 when it cannot be read or lacks a column."""
    from ..fields.parquetscan import ParquetError, scan_parquet

    try:
        report = scan_parquet(args.file, args.column, args.host_column)
    except (ParquetError, ValueError, OSError) as exc:
        print(f"error: {args.file}: {exc}", file=sys.stderr)
        return 2
    return _print(args, report)


def _print(args: argparse.Namespace, report: ScanReport) -> int:
    if args.json:
        print(scan_to_json(report, str(args.file)))
    else:
        print(format_report(str(args.file), report, args.examples))
    return 0
