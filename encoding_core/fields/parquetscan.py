"""Scan a Parquet file's text columns for mojibake: ``scan_parquet``, row group by row group.

The same counting as ``scan_frame`` (``scanreport.Tally``), fed one row group at a time so a
large file never sits in memory whole. Parquet stores text as text (UTF-8), so there is no
encoding to decide: what is found is damage done before the file was written. A column that
is not text (numbers, dates, binary) cannot hold mojibake: asked for by name, it is named in
the report's notes and skipped; a file that is not Parquet is refused with ``ParquetError``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from ..errors import EncodingCoreError
from ..extras import needs_extra
from .scanreport import MAX_FINDINGS, ScanReport, Tally, host_label

with needs_extra("fields", "the Parquet scan"):
    import pyarrow as pa  # type: ignore[import-untyped, unused-ignore]
    import pyarrow.parquet as pq  # type: ignore[import-untyped, unused-ignore]

__all__ = ["ParquetError", "is_parquet", "parquet_columns", "scan_parquet"]

Source = str | Path | IO[bytes] | bytes


class ParquetError(EncodingCoreError):
    """The file cannot be read as Parquet (damaged, truncated, or something else)."""


def _is_text(kind: Any) -> bool:
    return bool(pa.types.is_string(kind) or pa.types.is_large_string(kind)
                or (pa.types.is_dictionary(kind) and _is_text(kind.value_type)))


def is_parquet(source: Source) -> bool:
    """True when ``source`` starts with Parquet's magic bytes (``PAR1``); never raises.

    >>> is_parquet(b"PAR1..."), is_parquet(b"id,name\\n")
    (True, False)
    """
    try:
        if isinstance(source, bytes | bytearray):
            return bytes(source[:4]) == b"PAR1"
        if isinstance(source, str | Path):
            with open(source, "rb") as handle:
                return handle.read(4) == b"PAR1"
        position = source.tell()
        head = source.read(4)
        source.seek(position)
        return bool(head == b"PAR1")
    except (OSError, ValueError):
        return False


def _open(source: Source) -> Any:
    try:
        return pq.ParquetFile(pa.BufferReader(source) if isinstance(source, bytes | bytearray)
                              else source)
    except (pa.ArrowException, OSError, ValueError) as exc:
        raise ParquetError(f"not a readable Parquet file: {exc}") from exc


def parquet_columns(source: Source) -> list[str]:
    """The column names of a Parquet file (``ParquetError`` when it is not one)."""
    return list(_open(source).schema_arrow.names)


def scan_parquet(source: Source, columns: Sequence[str] | None = None,
                 host_column: str | None = None, *,
                 max_findings: int = MAX_FINDINGS) -> ScanReport:
    """Scan the text columns of a Parquet file (or ``columns``), per host with ``host_column``.

    - every text column when ``columns`` is None; a named column that is not text is skipped
      and named in the notes; a name the file lacks raises ``ValueError``;
    - ``ParquetError`` when the file is not Parquet or is damaged.
    """
    parquet = _open(source)
    schema = parquet.schema_arrow
    names = list(schema.names)
    notes: list[str] = []
    if columns is None:
        chosen = [n for n in names if n != host_column and _is_text(schema.field(n).type)]
    else:
        missing = [n for n in columns if n not in names]
        if missing:
            raise ValueError(f"no column named {missing[0]!r}; the file has: {names}")
        chosen = [n for n in columns if _is_text(schema.field(n).type)]
        notes += [f"column {n!r} is {schema.field(n).type}, not text: skipped"
                  for n in columns if n not in chosen]
    if host_column is not None and host_column not in names:
        raise ValueError(f"no host column named {host_column!r}; the file has: {names}")
    tally = Tally(chosen, host_column is not None, max_findings)
    read = [*chosen, *([host_column] if host_column and host_column not in chosen else [])]
    start = 0
    try:
        for group in range(parquet.num_row_groups):
            table = parquet.read_row_group(group, columns=read) if read else None
            rows = parquet.metadata.row_group(group).num_rows
            labels = range(start, start + rows)
            hosts = None
            if host_column is not None and table is not None:
                values = table.column(host_column).to_pylist()
                hosts = [host_label(v) for v in values]
            cells = [table.column(n).cast(pa.large_string()) for n in chosen] if table else []
            tally.add(cells, labels, None, hosts)
            start += rows
    except (pa.ArrowException, OSError) as exc:
        raise ParquetError(f"damaged at row group {group + 1} of {parquet.num_row_groups}: "
                           f"{exc}") from exc
    return tally.report(with_lines=False, notes=tuple(notes), encoding="utf-8",
                        encoding_reason="Parquet stores text as UTF-8")
