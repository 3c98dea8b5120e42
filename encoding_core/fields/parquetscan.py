"""Scan a Parquet file's text columns for mojibake: ``scan_parquet``, row group by row group.

The same counting as ``scan_frame`` (``scanreport.Tally``), fed one row group at a time so a
large file never sits in memory whole. Parquet stores text as text (UTF-8), so there is no
encoding to decide: what is found is damage done before the file was written. A column that
is not text (numbers, dates, binary) cannot hold mojibake: asked for by name, it is named in
the report's notes and skipped; a file that is not Parquet is refused with ``ParquetError``, and
so is one with two columns of one name. A text cell that is not UTF-8 (Arrow does not check what
a writer stored) is read with U+FFFD, so it counts as lossy, and its column is named in the notes.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from ..errors import EncodingCoreError
from ..extras import needs_extra
from ..wording import plural
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


def _text(column: pa.ChunkedArray, name: str, bad: dict[str, int]) -> pa.Array:
    """A text column as ``large_string``; cells that are not UTF-8 (Arrow does not check what
    a writer stored) decoded with U+FFFD, counted in ``bad`` under the column's name."""
    array = column.combine_chunks().cast(pa.large_string())
    try:
        array.validate(full=True)
        return array
    except pa.ArrowInvalid:
        pass
    raw = array.view(pa.large_binary()).to_pylist()
    cells: list[str | None] = []
    for value in raw:
        if value is None:
            cells.append(None)
            continue
        text = value.decode("utf-8", errors="replace")
        if "\ufffd" in text and not _utf8(value):
            bad[name] = bad.get(name, 0) + 1
        cells.append(text)
    return pa.array(cells, type=pa.large_string())


def _utf8(value: bytes) -> bool:
    try:
        value.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


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
    twice = sorted({n for n in names if names.count(n) > 1}) if len(set(names)) < len(names) \
        else []
    if twice:
        raise ParquetError(f"the file has more than one column named {twice[0]!r}: a column "
                           "cannot be told from its namesake; rename them and scan again")
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
    bad: dict[str, int] = {}   # per column: cells that were not UTF-8
    try:
        for group in range(parquet.num_row_groups):
            table = parquet.read_row_group(group, columns=read) if read else None
            rows = parquet.metadata.row_group(group).num_rows
            labels = range(start, start + rows)
            hosts = None
            if host_column is not None and table is not None:
                values = _text(table.column(host_column), host_column, bad).to_pylist() \
                    if _is_text(schema.field(host_column).type) \
                    else table.column(host_column).to_pylist()
                hosts = [host_label(v) for v in values]
            cells = [_text(table.column(n), n, bad) for n in chosen] if table else []
            tally.add(cells, labels, None, hosts)
            start += rows
    except (pa.ArrowException, OSError) as exc:
        raise ParquetError(f"damaged at row group {group + 1} of {parquet.num_row_groups}: "
                           f"{exc}") from exc
    notes += [f"column {name!r}: {plural(count, 'cell')} not UTF-8 (Parquet text must be): "
              "read with U+FFFD for each malformed sequence, so they count as lossy"
              for name, count in bad.items()]
    return tally.report(with_lines=False, notes=tuple(notes), encoding="utf-8",
                        encoding_reason="Parquet stores text as UTF-8")
