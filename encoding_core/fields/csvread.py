"""Reading a CSV file in chunks, in the format ``csvformat`` decided (encoding and dialect).

Design. Bytes are read in pieces of about ``chunk_bytes`` cut after a newline (a newline byte is
never inside a character in the ASCII-compatible encodings, and UTF-16 pieces are cut at an even
offset), each decoded on its own, so memory is bounded by the piece size and the longest line.
A format that is only tentatively UTF-8 (decided from the head) makes the reader stop at the
first malformed sequence (``NotUtf8``), so the caller can decide again and start over. A UTF-8
format with a ``legacy`` encoding (``csvmixed``) reads a piece that is not valid UTF-8 line by
line: each line that fails a strict UTF-8 decode is decoded strictly in that encoding, and its
number is queued in ``ReadStats.legacy_at`` for the caller to attach to its record.

It errs towards reading: undecodable bytes become U+FFFD (counted, first offset kept), NUL
characters are read and counted (first line kept), a record the csv module rejects is reported
with its line number and skipped, a quote that never closes is reported with the line where it
opened and what it swallowed, and only a file with no readable text at all raises ``CsvError``
(one that cannot be opened here; an empty or binary one in ``csvformat``; one too large in
``csvscan``).

Differences from the standards:

===========================  ===================================================================
where                        what and why
===========================  ===================================================================
``csv.field_size_limit``     raised (never lowered) to ``FIELD_LIMIT`` characters for the whole
                             process: the csv module's limit is process-wide, and its default
                             (131,072) would refuse a long cell that is perfectly readable.
===========================  ===================================================================
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from dataclasses import field as _field
from typing import BinaryIO

from ..whatwg.decoders import decode_replace, decode_strict, encode_strict
from ..wording import plural

# The format is decided in csvformat; CsvError stays importable from here (the app, the package).
from .csvformat import CsvError, CsvFormat

__all__ = ["FIELD_LIMIT", "CsvError", "NotUtf8", "ReadStats", "field_lines", "open_source",
           "pieces", "read_records"]

#: The longest cell read, in characters (16 Mi). A quote that never closes in a 115 MB file made
#: the rest of it one cell (1.0 GB of memory); past this the record is reported and skipped,
#: and reading goes on at the next line.
FIELD_LIMIT = 1 << 24

Source = str | os.PathLike[str] | bytes | BinaryIO


class NotUtf8(Exception):
    """Raised while reading optimistically as UTF-8 when a malformed sequence turns up."""

    def __init__(self, offset: int) -> None:
        super().__init__(f"malformed UTF-8 at byte offset {offset}")
        self.offset = offset


@dataclass(slots=True)
class ReadStats:
    """What reading found besides records: progress and undecodable bytes."""

    bytes_read: int = 0
    decode_errors: int = 0
    first_error_offset: int | None = None
    lines: int = 0
    nul_chars: int = 0                  # U+0000 in the text: read, not taken for binary data
    first_nul_line: int | None = None
    unclosed_quote: str | None = None   # what an opening quote that never closes swallowed
    legacy_lines: int = 0               # lines not valid UTF-8, read in ``CsvFormat.legacy``
    legacy_at: deque[int] = _field(default_factory=deque)  # their numbers, for the caller to take


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


def pieces(stream: BinaryIO, prefix: bytes, newline: bytes, chunk_bytes: int,
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
    lines_done = 0
    for offset, piece in pieces(stream, prefix, newline_bytes, chunk_bytes, stats, progress):
        text, errors = decode_replace(piece, fmt.encoding)
        if errors and fmt.legacy is not None:
            text, errors = _read_mixed(piece, newline_bytes, fmt, lines_done + 1, stats)
        if errors:
            if fmt.tentative:
                raise NotUtf8(offset + errors[0])
            if stats.first_error_offset is None:
                stats.first_error_offset = offset + errors[0]
            stats.decode_errors += len(errors)
        if "\x00" in text:   # a stray NUL: counted (csvformat refuses only binary data)
            if stats.first_nul_line is None:
                stats.first_nul_line = lines_done + 1 + text.count(
                    fmt.newline, 0, text.index("\x00"))
            stats.nul_chars += text.count("\x00")
        parts = text.split(fmt.newline)
        lines_done += len(parts) - 1
        if carry:
            parts[0] = "".join(carry) + parts[0]
            carry = []
        for part in parts[:-1]:
            yield part + fmt.newline
        if parts[-1]:
            carry.append(parts[-1])
    if carry:
        yield "".join(carry)


def _read_mixed(piece: bytes, newline: bytes, fmt: CsvFormat, first_line: int,
                stats: ReadStats) -> tuple[str, tuple[int, ...]]:
    """A UTF-8 piece line by line: a line that is not UTF-8 is read in ``fmt.legacy``.

    A line that neither reads strictly is read as UTF-8 with replacements (``csvmixed`` checked
    every line, so none should be). Returns the text and the offsets of malformed sequences.
    """
    assert fmt.legacy is not None
    texts: list[str] = []
    errors: list[int] = []
    at = 0
    for number, raw in enumerate(piece.split(newline), first_line):
        try:
            texts.append(decode_strict(raw, "utf-8"))
        except UnicodeDecodeError:
            try:
                texts.append(decode_strict(raw, fmt.legacy))
                stats.legacy_lines += 1
                stats.legacy_at.append(number)
            except UnicodeDecodeError:
                text, bad = decode_replace(raw, "utf-8")
                texts.append(text)
                errors.extend(at + offset for offset in bad)
        at += len(raw) + len(newline)
    return fmt.newline.join(texts), tuple(errors)


def read_records(stream: BinaryIO, prefix: bytes, fmt: CsvFormat, *, chunk_bytes: int,
                 stats: ReadStats, progress: Callable[[int], None]
                 ) -> Iterator[tuple[int, int, list[str] | None, str | None]]:
    """``(line, last_line, fields, problem)`` per record: fields, or ``None`` and what went wrong.

    ``line`` and ``last_line`` are the 1-based physical lines where the record starts and
    ends (they differ when a quoted field holds newlines). Blank lines are skipped. A line that
    other line breaks split into rows (a bare CR in a file of LF lines) gives each of its rows,
    on that line, with a problem saying so (``_split_rows``). A record
    whose quote never closes (the csv module then reads to the end of the file) comes with
    its fields and a problem saying so, also kept in ``stats.unclosed_quote``.
    """
    if csv.field_size_limit() < FIELD_LIMIT:
        csv.field_size_limit(FIELD_LIMIT)  # deviation: see the module docstring
    ended = False
    last_line = ""

    def lines() -> Iterator[str]:
        nonlocal ended, last_line
        for text in _lines(stream, prefix, fmt, chunk_bytes, stats, progress):
            last_line = text   # kept: a line the csv module refuses may hold rows
            yield text
        ended = True   # the reader asked for more: only a quoted field reaches past the end

    reader = csv.reader(lines(), delimiter=fmt.delimiter, quotechar=fmt.quotechar,
                        doublequote=True, strict=False)
    while True:
        start = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            stats.lines = reader.line_num
            return
        except csv.Error as exc:
            split = (_split_rows(last_line, fmt) if start == reader.line_num
                     and "new-line character" in str(exc) else None)
            if split is not None:
                yield from ((start, start, row, problem) for row, problem in split)
                continue
            if "field limit" in str(exc):
                exc = csv.Error(f"a cell runs past {FIELD_LIMIT:,} characters (a quote that "
                                "never closes?): skipped, reading goes on at the next line")
            yield start, reader.line_num, None, f"unreadable record: {exc}"
            continue
        problem = None
        if ended and row:
            opened = field_lines(start, row, fmt.newline)[-1]
            problem = stats.unclosed_quote = (
                f"a quote opened on line {opened:,} never closes: the rest of the file "
                f"({plural(reader.line_num - opened + 1, 'line')}, "
                f"{plural(len(row[-1]), 'character')}) was read as one cell")
        if row:
            yield start, reader.line_num, row, problem


#: A line break other than the file's own, inside one of its lines (a bare CR in a file of LF
#: or CRLF lines, as ``csvformat`` takes LF whenever one is there): files joined from two
#: systems, or an old Mac export appended to another.
_OTHER_BREAK = re.compile(r"\r\n|\r(?!\n)|\n")


def _split_rows(line: str, fmt: CsvFormat) -> list[tuple[list[str], str]] | None:
    """The rows of one physical line that other line breaks split (the csv module refuses it
    whole: "new-line character seen in unquoted field"), each with the problem naming how many
    rows that line holds; None when the pieces do not read either.

    Each row is read and scanned, and each counts as malformed: the damage is counted in rows
    (a file of 66,666 such lines holds 133k rows, not 66,666 records).

    >>> fmt = CsvFormat("utf-8", "", 0, ",", '"', "\\n")
    >>> [row for row, _ in _split_rows("a,b\\rc,d\\n", fmt)]
    [['a', 'b'], ['c', 'd']]
    >>> _split_rows("a,b\\rc,d\\n", fmt)[0][1][:58]
    'a bare CR (carriage return) ends a row inside this line (t'
    """
    body = line.removesuffix(fmt.newline)
    breaks = {m.group() for m in _OTHER_BREAK.finditer(body)}
    pieces = [m for m in re.split(r"(?<=\r)(?!\n)|(?<=\n)", body) if m]
    try:
        rows = [row for row in csv.reader(pieces, delimiter=fmt.delimiter,
                                          quotechar=fmt.quotechar, doublequote=True,
                                          strict=False) if row]
    except csv.Error:
        return None
    names = {"\r": "a bare CR (carriage return)", "\n": "a bare LF (line feed)",
             "\r\n": "a CRLF"}
    ending = {"\n": "LF", "\r\n": "CRLF", "\r": "CR"}.get(fmt.newline, repr(fmt.newline))
    which = " and ".join(names[b] for b in sorted(breaks, key=len))
    problem = (f"{which} {'end' if ' and ' in which else 'ends'} a row inside this line (the "
               f"file's lines end in {ending}): it holds {plural(len(rows), 'row')}, each read "
               "as its own row")
    return [(row, problem) for row in rows]


def field_lines(line: int, fields: list[str], newline: str) -> list[int]:
    """The physical line where each field starts, for a record that starts on ``line``.

    >>> field_lines(4, ["3", "two\\nlines", "x"], "\\n")
    [4, 4, 5]
    """
    mark = newline[-1]   # "\n" of "\r\n"
    starts = []
    for field in fields:
        starts.append(line)
        line += field.count(mark)
    return starts

