"""Scan stored text fields for mojibake: a pandas frame (``scan_frame``) or a CSV (``scan_csv``).

Design. A chunk's columns are filtered in one vectorised call (RE2 through pyarrow,
``PREFILTER_RE2``; see ``scanreport``): a clean cell costs a fraction of a microsecond, and only
the cells that pass (mostly damaged ones) go to a ``MojibakeFinder`` and ftfy, once per distinct
value. Counts are complete; the list of findings keeps the first ``max_findings`` flagged cells.
Nothing is repaired in place: a repair is a proposal, and seed 000 says to re-decode from the
retained bytes where they exist.

``scan_csv`` reads the file with ``csvformat`` and ``csvread`` (its own encoding decided by the
core, the dialect sniffed, pieces of ``chunk_bytes``) and scans ``chunk_rows`` rows at a time, so
memory is bounded by the chunk size, not the file size. Malformed records are reported by line
number and skipped; ragged rows are scanned (missing fields are empty, extra fields are not
scanned). A UTF-8 file whose lines do not all decode, or a legacy one with UTF-8 lines too, is
read once more first (``csvutf8lines``, ``csvmixed``): lines in one other encoding (two exports
appended) are read in it, and their non-ASCII cells count as mixed encoding, repairable.
"""

from __future__ import annotations

import dataclasses
import io
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from ..extras import needs_extra
from ..whatwg.decoders import decodes_strictly
from .csvformat import (
    HEAD_BYTES,
    CsvError,
    CsvFormat,
    decide_format,
    redecide_format,
)
from .csvnotes import csv_fields, ragged
from .csvread import NotUtf8, ReadStats, Source, open_source, read_records
from .csvutf8lines import with_other_lines
from .scanreport import MAX_FINDINGS, ScanReport, Tally, host_label

with needs_extra("fields", "the field scan"):
    import pandas as pd
    import pyarrow as pa  # type: ignore[import-untyped, unused-ignore]

__all__ = ["CsvError", "Progress", "ScanReport", "guess_host_column", "read_header",
           "scan_csv", "scan_frame"]

#: ``progress(bytes_read, total_bytes)``; ``total_bytes`` is ``None`` when unknown.
Progress = Callable[[int, int | None], None]

MAX_MALFORMED = 1_000
#: A chunk is scanned once it holds ``chunk_bytes`` characters and at least this many per column
#: scanned: each chunk costs a few calls per column, so a very wide file (100,000 columns) is
#: scanned in chunks that grow with its width, and its time stays linear in its size.
_CHARS_PER_COLUMN = 256


def _cells_of(series: pd.Series) -> pa.Array:
    """The text cells of a column as an Arrow array; anything that is not a ``str`` is null."""
    if isinstance(series.dtype, pd.StringDtype):
        return pa.array(series, from_pandas=True, type=pa.large_string())
    values = series.to_numpy(dtype=object)
    return pa.array([v if isinstance(v, str) else None for v in values], type=pa.large_string())


def _is_text(series: pd.Series) -> bool:
    return (isinstance(series.dtype, pd.StringDtype | pd.CategoricalDtype)
            or pd.api.types.is_object_dtype(series.dtype))


def scan_frame(df: pd.DataFrame, columns: Sequence[str] | None = None,
               host_column: str | None = None, *, max_findings: int = MAX_FINDINGS,
               chunk_rows: int = 250_000) -> ScanReport:
    """Scan the text columns of ``df`` (or ``columns``), grouped by host when ``host_column``.

    >>> frame = pd.DataFrame({"name": ["Jos\\u00c3\\u00a9", "Ana", None], "n": [1, 2, 3]})
    >>> scan_frame(frame).columns[["column", "cells", "flagged", "repairable"]].values.tolist()
    [['name', 2, 1, 1]]
    """
    labels = [str(name) for name in df.columns]
    if columns is None:
        chosen = [i for i, name in enumerate(df.columns)
                  if name != host_column and _is_text(df.iloc[:, i])]
    else:
        missing = [name for name in columns if name not in df.columns]
        if missing:
            raise ValueError(f"no column named {missing[0]!r}; the frame has: {labels}")
        chosen = [list(df.columns).index(name) for name in columns]
    if host_column is not None and host_column not in df.columns:
        raise ValueError(f"no host column named {host_column!r}; the frame has: {labels}")
    tally = Tally([labels[i] for i in chosen], host_column is not None, max_findings)
    cache: dict[object, str] = {}
    for start in range(0, len(df), max(1, chunk_rows)):
        part = df.iloc[start:start + chunk_rows]
        hosts = None
        if host_column is not None:
            hosts = [cache[v] if v in cache else cache.setdefault(v, host_label(v))
                     for v in part[host_column].tolist()]
        cells = [_cells_of(part.iloc[:, i].astype(object) if isinstance(
            part.iloc[:, i].dtype, pd.CategoricalDtype) else part.iloc[:, i]) for i in chosen]
        tally.add(cells, part.index, None, hosts)
    return tally.report(with_lines=False)


_HOST_NAMES = ("host", "hostname", "domain", "site", "url", "source_url", "page_url", "link",
               "source", "website")


def guess_host_column(names: Sequence[str]) -> str | None:
    """The column that most likely holds hosts or URLs, by its name; ``None`` when none does.

    >>> guess_host_column(["id", "Name", "Source URL"]), guess_host_column(["a", "b"])
    ('Source URL', None)
    """
    normalised = {name.strip().lower().replace(" ", "_").replace("-", "_"): name for name in names}
    for wanted in _HOST_NAMES:
        if wanted in normalised:
            return normalised[wanted]
    return next((name for key, name in normalised.items()
                 if key.endswith(("_url", "_host", "_domain"))), None)


def read_header(source: Source, *, max_bytes: int | None = None) -> list[str]:
    """The column names ``scan_csv`` would use, from the first record only.

    Raises ``CsvError`` as ``scan_csv`` does. A file object is left where it was.
    """
    stream, size, owned = open_source(source)
    start = stream.tell() if stream.seekable() else 0
    try:
        if max_bytes is not None and size is not None and size > max_bytes:
            raise CsvError(_too_large(size, max_bytes))
        head = stream.read(HEAD_BYTES)
        fmt = dataclasses.replace(decide_format(head, complete=len(head) < HEAD_BYTES),
                                  tentative=False)
        for _, _, fields, _problem in read_records(io.BytesIO(head[fmt.bom_length:]), b"", fmt,
                                                chunk_bytes=HEAD_BYTES, stats=ReadStats(),
                                                progress=lambda done: None):
            if fields is not None:
                return _column_names(fields)
        raise CsvError("no header row could be read in the first "
                       f"{HEAD_BYTES // 1024} KiB of the file")
    finally:
        if owned:
            stream.close()
        elif stream.seekable():
            stream.seek(start)


def _too_large(size: int, max_bytes: int) -> str:
    return f"the file is {size / 2**20:,.1f} MiB, over the limit of {max_bytes / 2**20:,.0f} MiB"


def _column_names(fields: list[str]) -> list[str]:
    """The header made unique: a repeated name gets ``.1``, ``.2``...; an empty one its position.

    Linear in the header: the names taken are a set, and each name remembers the next suffix to
    try, so 4,000 columns all named ``a`` cost 4,000 steps, not billions.

    >>> _column_names(["a", "a", "a.1", "", "a"])
    ['a', 'a.1', 'a.1.1', 'column 4', 'a.2']
    """
    names: list[str] = []
    taken: set[str] = set()
    next_suffix: dict[str, int] = {}
    for i, name in enumerate(fields):
        name = name.strip() or f"column {i + 1}"
        unique, k = name, next_suffix.get(name, 1)
        if unique in taken:
            unique = f"{name}.{k}"
            while unique in taken:
                k += 1
                unique = f"{name}.{k}"
            next_suffix[name] = k + 1
        taken.add(unique)
        names.append(unique)
    return names


def scan_csv(source: Source, columns: Sequence[str] | None = None,
             host_column: str | None = None, *, chunk_rows: int = 50_000,
             chunk_bytes: int = 1 << 20, max_bytes: int | None = None,
             max_findings: int = MAX_FINDINGS, progress: Progress | None = None) -> ScanReport:
    """Scan a CSV file (a path, bytes or a binary file object) in chunks.

    Raises ``CsvError`` only when nothing can be read: an empty, binary or too large file, or a
    ``columns`` / ``host_column`` name that is not in the header (the message lists them).

    >>> scan_csv(b"name,city\\nJos\\xc3\\x83\\xc2\\xa9,Paris\\n").columns["flagged"].tolist()
    [1, 0]
    """
    stream, size, owned = open_source(source)
    try:
        if max_bytes is not None and size is not None and size > max_bytes:
            raise CsvError(_too_large(size, max_bytes))
        start = stream.tell() if stream.seekable() else 0
        head = stream.read(HEAD_BYTES)
        complete = len(head) < HEAD_BYTES
        fmt, prefix = decide_format(head, complete), b""
        args = (columns, host_column, chunk_rows, chunk_bytes, max_findings, progress, size)

        def mixed(fmt: CsvFormat) -> CsvFormat:   # UTF-8 that fails, or legacy with UTF-8 lines
            return with_other_lines(stream, start, fmt, chunk_bytes=chunk_bytes, progress=lambda
                                    done: progress(done, size) if progress else None)

        if not stream.seekable():
            fmt, prefix = dataclasses.replace(fmt, tentative=False, legacy_reason=(
                "a stream read once is not looked at for lines in another encoding")), head
        # legacy with UTF-8 in the sample, or UTF-8 not tentative: the head fails (or is whole)
        elif fmt.utf8_in_sample or (fmt.encoding == "utf-8" and not fmt.tentative and (
                not complete or not decodes_strictly(head[fmt.bom_length:]))):
            fmt = mixed(fmt)
        else:
            prefix = head
        try:
            return _scan_stream(stream, prefix[fmt.bom_length:], fmt, *args)
        except NotUtf8 as exc:
            fmt = redecide_format(stream, fmt, exc.offset, start)
            fmt = mixed(fmt) if fmt.encoding == "utf-8" or fmt.utf8_in_sample else fmt
            stream.seek(start + fmt.bom_length)
            return _scan_stream(stream, b"", fmt, *args)
    finally:
        if owned:
            stream.close()


def _scan_stream(stream: Any, prefix: bytes, fmt: CsvFormat, columns: Sequence[str] | None,
                 host_column: str | None, chunk_rows: int, chunk_bytes: int, max_findings: int,
                 progress: Progress | None, size: int | None) -> ScanReport:
    stats = ReadStats(bytes_read=fmt.bom_length)
    records = read_records(stream, prefix, fmt, chunk_bytes=chunk_bytes, stats=stats,
                           progress=lambda done: progress(done, size) if progress else None)
    malformed: list[dict[str, Any]] = []
    malformed_count = 0
    joined: str | None = None   # the first ragged record that a quote stretched over lines
    header: list[str] | None = None
    tally: Tally | None = None
    chosen: list[int] = []
    host_at: int | None = None
    buffers: list[list[str | None]] = []
    labels: list[int] = []
    lines: list[int] = []
    hosts: list[str] = []
    chars = 0
    legacy_at = stats.legacy_at   # lines read in fmt.legacy, queued by the reader
    legacy_rows: list[int] = []   # the rows of this chunk that hold one of them
    legacy_seen = 0               # the last of them taken: rows split out of one line share it
    flush_floor = 0

    def flush() -> None:
        nonlocal chars
        assert tally is not None
        tally.add([pa.array(b, type=pa.large_string()) for b in buffers], labels, lines,
                  hosts if host_at is not None else None, legacy_rows, fmt.legacy)
        for buffer in buffers:
            buffer.clear()
        for done in (labels, lines, hosts, legacy_rows):
            done.clear()
        chars = 0

    for line, last, fields, problem in records:
        if fields is not None and header is not None and len(fields) != len(header):
            if problem is None:
                problem = ragged(line, last, fields, len(header), fmt.newline)
                if joined is None and last > line:
                    joined = f"line {line:,}: {problem}"
            else:   # the quote that never closes is already the explanation
                problem = f"{ragged(line, line, fields, len(header), fmt.newline)}; {problem}"
        if problem is not None:
            malformed_count += 1
            if len(malformed) < MAX_MALFORMED:
                malformed.append({"line": line, "problem": problem})
        if fields is None:
            continue
        if header is None:
            header = _column_names(fields)
            chosen, host_at = _choose(header, columns, host_column)
            tally = Tally([header[i] for i in chosen], host_at is not None, max_findings)
            buffers = [[] for _ in chosen]
            flush_floor = _CHARS_PER_COLUMN * len(chosen)
            continue
        for buffer, i in zip(buffers, chosen, strict=True):
            value = fields[i] if i < len(fields) else None
            buffer.append(value)
            chars += len(value) if value else 0
        if host_at is not None:
            hosts.append(host_label(fields[host_at] if host_at < len(fields) else None))
        if legacy_at and legacy_at[0] <= last:
            legacy_seen = _take_lines(legacy_at, last)
        if legacy_seen >= line:   # (every row split out of a bare-CR line starts on it)
            legacy_rows.append(len(labels))
        labels.append(tally.rows + len(labels))  # type: ignore[union-attr]
        lines.append(line)
        if len(labels) >= chunk_rows or chars >= max(chunk_bytes, flush_floor):
            flush()
    if header is None or tally is None:
        raise CsvError("no header row could be read: " +
                       (malformed[0]["problem"] if malformed else "the file has no records"))
    flush()
    return tally.report(with_lines=True, **csv_fields(
        fmt, stats, malformed, malformed_count, tally.rows, joined,
        sum(counts["mixed_encoding"] for counts in tally.counts.values())))


def _take_lines(queue: deque[int], last: int) -> int:
    """Take the line numbers up to ``last`` from ``queue`` (which holds one): the last taken.

    >>> queue = deque([2, 5, 9]); _take_lines(queue, 6), list(queue)
    (5, [9])
    """
    taken = queue.popleft()
    while queue and queue[0] <= last:
        taken = queue.popleft()
    return taken


def _choose(header: list[str], columns: Sequence[str] | None,
            host_column: str | None) -> tuple[list[int], int | None]:
    for name in [*(columns or ()), *([host_column] if host_column else [])]:
        if name not in header:
            raise CsvError(f"no column named {name!r}; the header has: "
                           + ", ".join(repr(h) for h in header))
    host_at = header.index(host_column) if host_column else None
    if columns is None:
        return [i for i in range(len(header)) if i != host_at], host_at
    return [header.index(name) for name in columns], host_at
