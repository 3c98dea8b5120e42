"""Reading a CSV file of unknown encoding and dialect: in chunks, never assuming UTF-8.

Design. The file's own encoding is decided by the core, in this order:

- a byte-order mark (``bom.bom_sniff``);
- UTF-16 without a BOM, when every other byte of the head is NUL (a heuristic, see below);
- UTF-8, when the head decodes strictly; the rest of the file is read optimistically and the
  first malformed sequence further on makes the reader stop (``NotUtf8``), so the caller can
  decide again and start over: valid UTF-8 is then known for the *whole* file, not a sample;
- otherwise ``decode.decode`` on a sample (the head, and the lines around the first malformed
  UTF-8 sequence): its detector, then its fallbacks (windows-1252, or UTF-8 with replacements
  when the bytes are mostly UTF-8).

The dialect is sniffed (``csv.Sniffer``) on the first lines, with ``,;\\t|`` as the only
delimiters and a count over the header line as the fallback. The first record is the header.
Bytes are read in pieces of about ``chunk_bytes`` cut after a newline (a newline byte is never
inside a character in the ASCII-compatible encodings, and UTF-16 pieces are cut at an even
offset), each decoded on its own, so memory is bounded by the piece size and the longest line.

It errs towards reading: undecodable bytes become U+FFFD (counted, first offset kept), a record
the csv module rejects is reported with its line number and skipped, and only a file with no
readable text at all (empty, binary, too large) raises ``CsvError``.

Differences from the standards:

===========================  ===================================================================
where                        what and why
===========================  ===================================================================
UTF-16 without a BOM         taken from the NUL pattern of the head; WHATWG never guesses UTF-16
                             (browsers read such bytes as windows-1252), but spreadsheet
                             exports ("Unicode text") write it and the alternative is no rows.
``csv.field_size_limit``     raised (never lowered) to ``FIELD_LIMIT`` characters for the whole
                             process: the csv module's limit is process-wide, and its default
                             (131,072) would refuse a long cell that is perfectly readable.
RFC 4180 quoting             the quote character is ``"`` unless the sniffer says ``'`` and the
                             sample has no ``"`` (apostrophes in names fool it otherwise).
===========================  ===================================================================
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from .bom import bom_sniff
from .decode import decode
from .decoders import SUPPORTED_ENCODINGS, decode_replace, decode_strict, encode_strict
from .errors import EncodingCoreError

__all__ = ["FIELD_LIMIT", "CsvError", "CsvFormat", "NotUtf8", "ReadStats", "decide_format",
           "open_source", "read_records", "redecide_format"]

HEAD_BYTES = 64 * 1024
SNIFF_CHARS = 16 * 1024
FIELD_LIMIT = 1 << 27
_DELIMITERS = ",;\t|"
# Formats that are not CSV, by their first bytes
_MAGIC = (
    (b"PK\x03\x04", "a ZIP archive (an .xlsx or .ods workbook?); export it as CSV first"),
    (b"\xd0\xcf\x11\xe0", "an old Office document (an .xls workbook?); export it as CSV first"),
    (b"%PDF", "a PDF document"),
    (b"\x1f\x8b", "gzip-compressed data; decompress it first"),
    (b"\x89PNG", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"), (b"GIF8", "a GIF image"),
    (b"SQLite format 3\x00", "an SQLite database"),
)

Source = str | os.PathLike[str] | bytes | BinaryIO


class CsvError(EncodingCoreError, ValueError):
    """A file with nothing readable as CSV text: empty, binary, too large, or a misnamed column."""


class NotUtf8(Exception):
    """Raised while reading optimistically as UTF-8 when a malformed sequence turns up."""

    def __init__(self, offset: int) -> None:
        super().__init__(f"malformed UTF-8 at byte offset {offset}")
        self.offset = offset


@dataclass(frozen=True, slots=True)
class CsvFormat:
    """How to read the file: its encoding and why, and its dialect."""

    encoding: str
    encoding_reason: str
    bom_length: int
    delimiter: str
    quotechar: str
    newline: str
    tentative: bool = False   # UTF-8 from the head only; reading stops at a malformed sequence


@dataclass(slots=True)
class ReadStats:
    """What reading found besides records: progress and undecodable bytes."""

    bytes_read: int = 0
    decode_errors: int = 0
    first_error_offset: int | None = None
    lines: int = 0


def open_source(source: Source) -> tuple[BinaryIO, int | None, bool]:
    """The stream, its size in bytes (``None`` when unknown) and whether the caller closes it."""
    if isinstance(source, bytes | bytearray | memoryview):
        return io.BytesIO(bytes(source)), len(source), True
    if isinstance(source, str | os.PathLike):
        try:
            stream: BinaryIO = open(source, "rb")  # noqa: SIM115 (closed by the caller)
        except OSError as exc:
            raise CsvError(f"cannot open {os.fspath(source)!r}: {exc.strerror}") from exc
        return stream, os.fstat(stream.fileno()).st_size, True
    size: int | None = None
    if source.seekable():
        position = source.tell()
        size = source.seek(0, io.SEEK_END) - position
        source.seek(position)
    return source, size, False


def _utf16_without_bom(head: bytes) -> str | None:
    sample = head[:4096]
    pairs = len(sample) // 2
    if pairs < 2:
        return None
    even = sum(1 for i in range(0, 2 * pairs, 2) if sample[i] == 0)
    odd = sum(1 for i in range(1, 2 * pairs, 2) if sample[i] == 0)
    if odd >= 0.4 * pairs and even <= 0.05 * pairs:
        return "utf-16le"
    if even >= 0.4 * pairs and odd <= 0.05 * pairs:
        return "utf-16be"
    return None


def _magic(head: bytes) -> str | None:
    return next((what for magic, what in _MAGIC if head.startswith(magic)), None)


def _refuse_binary(head: bytes) -> None:
    if (what := _magic(head)) is not None:
        kind, _, advice = what.partition("; ")
        raise CsvError(f"this is {kind}, not a CSV file" + (f": {advice}" if advice else ""))
    nul = head.find(b"\x00")
    if nul >= 0:
        raise CsvError(f"this looks like binary data, not a CSV file (a NUL byte at offset {nul})")
    controls = sum(1 for byte in head if byte < 0x20 and byte not in b"\t\n\r\f\x1a")
    if controls > max(8, len(head) // 20):
        raise CsvError(f"this looks like binary data, not a CSV file ({controls} control bytes "
                       f"in the first {len(head):,} bytes)")


def _cut_at_newline(data: bytes, newline: bytes) -> bytes:
    """``data`` up to its last complete line (all of it when there is no newline)."""
    cut = _last_newline(data, newline)
    return data[:cut] if cut > 0 else data


def _last_newline(data: bytes | bytearray, newline: bytes, end: int | None = None) -> int:
    """The offset just after the last newline (before ``end``) at a code-unit boundary, or 0."""
    unit = len(newline)
    end = len(data) if end is None else min(end, len(data))
    while True:
        pos = data.rfind(newline, 0, end)
        if pos < 0:
            return 0
        if pos % unit == 0:
            return pos + unit
        end = pos + unit - 1


def decide_format(head: bytes, complete: bool) -> CsvFormat:
    """The encoding and dialect from the first bytes of the file (``complete``: that is all)."""
    if not head.strip(b" \t\r\n\x00"):
        raise CsvError("the file is empty" if not head else "the file holds only blank lines")
    bom = bom_sniff(head)
    encoding, reason, bom_length, tentative = "utf-8", "", 0, False
    if bom is not None:
        encoding, bom_length = bom
        reason = "byte-order mark"
        if encoding not in SUPPORTED_ENCODINGS:
            raise CsvError(f"the file is {encoding.upper()} (byte-order mark), which the Encoding "
                           "Standard does not define: re-save it as UTF-8")
    elif (utf16 := _utf16_without_bom(head)) is not None and not _magic(head):
        encoding, reason = utf16, "every other byte is NUL (UTF-16 without a byte-order mark)"
    else:
        _refuse_binary(head)
        body = head if complete else _cut_at_newline(head, b"\n")
        try:
            decode_strict(body, "utf-8")
            reason = "valid utf-8" + ("" if complete else " (checked as the file is read)")
            tentative = not complete
        except UnicodeDecodeError:
            encoding, reason = _decide_by_core(body)
    return _with_dialect(head[bom_length:], encoding, reason, bom_length, tentative)


def redecide_format(stream: BinaryIO, fmt: CsvFormat, offset: int, start: int = 0) -> CsvFormat:
    """Decide again with ``decode`` once UTF-8 failed at ``offset``: the head and that region.

    ``offset`` counts from the file's first byte, at ``start`` in ``stream``.
    """
    stream.seek(start)
    head = _cut_at_newline(stream.read(HEAD_BYTES), b"\n")
    stream.seek(start + max(0, offset - HEAD_BYTES // 2))
    window = stream.read(HEAD_BYTES)
    start = window.find(b"\n") + 1 if offset > HEAD_BYTES // 2 else 0
    encoding, reason = _decide_by_core(head + b"\n" + _cut_at_newline(window[start:], b"\n"))
    reason += f"; utf-8 failed at byte offset {offset:,}"
    return CsvFormat(encoding, reason, fmt.bom_length, fmt.delimiter, fmt.quotechar, fmt.newline)


def _decide_by_core(sample: bytes) -> tuple[str, str]:
    decided = decode(sample, "text/csv")
    return decided.encoding, f"decided by the core on a sample ({decided.source})"


def _with_dialect(head: bytes, encoding: str, reason: str, bom_length: int,
                  tentative: bool) -> CsvFormat:
    text, _ = decode_replace(head, encoding)
    newline = "\n" if "\n" in text else "\r" if "\r" in text else "\n"
    sample = text[:SNIFF_CHARS]
    if len(text) > SNIFF_CHARS and newline in sample:
        sample = sample[: sample.rindex(newline) + 1]
    delimiter, quotechar = ",", '"'
    try:
        sniffed = csv.Sniffer().sniff(sample, delimiters=_DELIMITERS)
        delimiter = sniffed.delimiter
        if sniffed.quotechar == "'" and '"' not in sample:
            quotechar = "'"
    except csv.Error:
        header = sample.split(newline, 1)[0]
        counts = {d: header.count(d) for d in _DELIMITERS}
        best = max(counts, key=lambda d: counts[d])
        delimiter = best if counts[best] else ","
    return CsvFormat(encoding, reason, bom_length, delimiter, quotechar, newline, tentative)


def _pieces(stream: BinaryIO, prefix: bytes, newline: bytes, chunk_bytes: int,
            stats: ReadStats, progress: Callable[[int], None]) -> Iterator[tuple[int, bytes]]:
    """Pieces of about ``chunk_bytes`` ending after a newline, with their file offsets.

    A line longer than ``chunk_bytes`` is one piece (the csv reader needs it whole anyway).
    ``stats.bytes_read`` counts the bytes handed on, from the file's start.
    """
    buffer, eof = bytearray(prefix), False
    while True:
        while not eof and len(buffer) < chunk_bytes:
            data = stream.read(chunk_bytes)
            eof = not data
            buffer += data
        if not buffer:
            return
        cut = len(buffer) if eof and len(buffer) <= chunk_bytes else _last_newline(
            buffer, newline, chunk_bytes)
        while not cut:   # no newline in the first chunk_bytes: up to the first one after
            cut = _next_newline(buffer, newline, chunk_bytes)
            if cut or eof:
                cut = cut or len(buffer)
                break
            data = stream.read(chunk_bytes)
            eof = not data
            buffer += data
        offset = stats.bytes_read
        piece = bytes(buffer[:cut])
        del buffer[:cut]
        stats.bytes_read += cut
        yield offset, piece
        progress(stats.bytes_read)


def _next_newline(data: bytes | bytearray, newline: bytes, start: int) -> int:
    """The offset just after the first newline at or after ``start`` (code-unit aligned), or 0."""
    unit = len(newline)
    pos = data.find(newline, start - start % unit)
    while pos >= 0 and pos % unit:
        pos = data.find(newline, pos + 1)
    return pos + unit if pos >= 0 else 0


def _lines(stream: BinaryIO, prefix: bytes, fmt: CsvFormat, chunk_bytes: int, stats: ReadStats,
           progress: Callable[[int], None]) -> Iterator[str]:
    newline_bytes = encode_strict(fmt.newline, fmt.encoding) or b"\n"
    carry: list[str] = []
    for offset, piece in _pieces(stream, prefix, newline_bytes, chunk_bytes, stats, progress):
        text, errors = decode_replace(piece, fmt.encoding)
        if errors:
            if fmt.tentative:
                raise NotUtf8(offset + errors[0])
            if stats.first_error_offset is None:
                stats.first_error_offset = offset + errors[0]
            stats.decode_errors += len(errors)
        parts = text.split(fmt.newline)
        if carry:
            parts[0] = "".join(carry) + parts[0]
            carry = []
        for part in parts[:-1]:
            yield part + fmt.newline
        if parts[-1]:
            carry.append(parts[-1])
    if carry:
        yield "".join(carry)


def read_records(stream: BinaryIO, prefix: bytes, fmt: CsvFormat, *, chunk_bytes: int,
                 stats: ReadStats, progress: Callable[[int], None]
                 ) -> Iterator[tuple[int, list[str] | None, str | None]]:
    """``(line, fields, problem)`` for each record: fields, or ``None`` and what went wrong.

    ``line`` is the 1-based physical line where the record starts. Blank lines are skipped.
    """
    if csv.field_size_limit() < FIELD_LIMIT:
        csv.field_size_limit(FIELD_LIMIT)  # deviation: see the module docstring
    lines = _lines(stream, prefix, fmt, chunk_bytes, stats, progress)
    reader = csv.reader(lines, delimiter=fmt.delimiter, quotechar=fmt.quotechar,
                        doublequote=True, strict=False)
    while True:
        start = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            stats.lines = reader.line_num
            return
        except csv.Error as exc:
            yield start, None, f"unreadable record: {exc}"
            continue
        if row:
            yield start, row, None
