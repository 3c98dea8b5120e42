"""Deciding how to read a CSV file from its first bytes: its encoding and its dialect.

Design. The file's own encoding is decided by the core, in this order:

- a byte-order mark (``bom.bom_sniff``);
- UTF-16 without a BOM, when every other byte of the head is NUL (a heuristic, see below);
- UTF-8, when the head decodes strictly; the rest of the file is read optimistically and the
  first malformed sequence further on makes the reader stop (``csvread.NotUtf8``), so the
  caller can decide again (``redecide_format``) and start over: valid UTF-8 is then known for
  the *whole* file, not a sample;
- otherwise ``decode.decode`` on a sample (the head, and the lines around the first malformed
  UTF-8 sequence): its detector, then its fallbacks (windows-1252, or UTF-8 with replacements
  when the bytes are mostly UTF-8).

A file read as UTF-8 (a UTF-8 byte-order mark, which is checked as the file is read too, or
mostly UTF-8) whose lines do not all decode is looked at again by ``csvmixed``: the lines that
fail may all be one other encoding (two exports appended), read in it (``CsvFormat.legacy``).
So is the mirror case: a sample the core decided that holds valid multi-byte UTF-8 sequences
as well as bytes that are not UTF-8 (``CsvFormat.utf8_in_sample``): ``csvutf8lines`` counts
its lines, and may decide the file as UTF-8 with lines in one other encoding after all.

The dialect is sniffed (``csv.Sniffer``) on the first lines, with ``,;\\t|`` as the only
delimiters and a count over the header line as the fallback. The first record is the header.

It errs towards reading: only a head with no readable text at all (empty, blank, or binary:
a known file signature, or more than 5 % control bytes) raises ``CsvError``. A stray NUL in a
text export is read and counted (``csvread``), not taken for binary data.

Differences from the standards:

===========================  ===================================================================
where                        what and why
===========================  ===================================================================
UTF-16 without a BOM         taken from the NUL pattern of the head; WHATWG never guesses UTF-16
                             (browsers read such bytes as windows-1252), but spreadsheet
                             exports ("Unicode text") write it and the alternative is no rows.
RFC 4180 quoting             the quote character is ``"`` unless the sniffer says ``'`` and the
                             sample has no ``"`` (apostrophes in names fool it otherwise).
===========================  ===================================================================
"""

from __future__ import annotations

import csv
import dataclasses
from dataclasses import dataclass
from typing import BinaryIO

from ..decision.decode import decode
from ..decision.utf8profile import utf8_profile
from ..errors import EncodingCoreError
from ..whatwg.bom import bom_sniff
from ..whatwg.decoders import SUPPORTED_ENCODINGS, decode_replace, decodes_strictly

__all__ = ["HEAD_BYTES", "SNIFF_CHARS", "CsvError", "CsvFormat", "decide_format",
           "redecide_format"]

HEAD_BYTES = 64 * 1024
SNIFF_CHARS = 16 * 1024
_DELIMITERS = ",;\t|"
# Formats that are not CSV, by their first bytes
_MAGIC = (
    (b"PK\x03\x04", "a ZIP archive (an .xlsx or .ods workbook?); export it as CSV first"),
    (b"\xd0\xcf\x11\xe0", "an old Office document (an .xls workbook?); export it as CSV first"),
    (b"%PDF", "a PDF document"),
    (b"\x1f\x8b", "gzip-compressed data; decompress it first"),
    (b"\x89PNG", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"), (b"GIF8", "a GIF image"),
    (b"SQLite format 3\x00", "an SQLite database"),
    (b"PAR1", "a Parquet file; scan it with encoding-triage scan-parquet FILE (scan_parquet), or "
              "upload it to the CSV scan page, which reads Parquet"),
)


class CsvError(EncodingCoreError, ValueError):
    """A file with nothing readable as CSV text: empty, binary, too large, or a misnamed column."""


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
    legacy: str | None = None  # UTF-8 with lines in one other encoding: theirs (``csvmixed``)
    legacy_reason: str = ""    # why those lines are read in it, or why they are not
    utf8_in_sample: bool = False  # decided by the core on bytes with valid UTF-8 sequences too


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


# Control bytes (NUL included) in the head above this share mean binary data. Measured on first
# 64 KiB: executables, shared libraries, fonts and .pyc files hold 28-71 %, compressed or random
# bytes about 10.5 % (27 of 256 byte values count); a text export with stray NULs or control
# bytes holds a handful, well under 1 %. 5 % sits between the two with room on both sides.
_BINARY_SHARE = 0.05
# ...and at least this many of them: a short file with one or two stray bytes is still read.
_BINARY_MIN = 4
_CONTROL_BYTES = bytes(b for b in range(0x20) if b not in b"\t\n\r\f\x1a")


def _refuse_binary(head: bytes) -> None:
    """Raise ``CsvError`` for a known file signature, or a head with many control bytes.

    A few NUL or control bytes in text are not binary: they are read, and the reader counts
    the NULs (``csvread.ReadStats.nul_chars``).

    >>> _refuse_binary(b"id,name\\n1,a\\x00b\\n")   # one stray NUL: read
    >>> _refuse_binary(b"a,b\\n\\x00\\x01\\x02\\x03\\x04")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    encoding_core.fields.csvformat.CsvError: this looks like binary data, ... (5 control ...)
    """
    if (what := _magic(head)) is not None:
        kind, _, advice = what.partition("; ")
        raise CsvError(f"this is {kind}, not a CSV file" + (f": {advice}" if advice else ""))
    controls = len(head) - len(head.translate(None, _CONTROL_BYTES))
    if controls >= _BINARY_MIN and controls > _BINARY_SHARE * len(head):
        raise CsvError(f"this looks like binary data, not a CSV file ({controls:,} control bytes, "
                       f"{controls / len(head):.0%} of the first {len(head):,} bytes)")


def _cut_at_newline(data: bytes) -> bytes:
    """``data`` up to its last complete line (all of it when there is no newline).

    The heads cut here are UTF-8 or another ASCII-compatible encoding (UTF-16 is decided
    before), where a ``\\n`` byte is never inside a character.

    >>> _cut_at_newline(b"a,b\\n1,2\\n3,"), _cut_at_newline(b"a,b")
    (b'a,b\\n1,2\\n', b'a,b')
    """
    cut = data.rfind(b"\n") + 1
    return data[:cut] if cut > 0 else data


def decide_format(head: bytes, complete: bool) -> CsvFormat:
    """The encoding and dialect from the first bytes of the file (``complete``: that is all)."""
    if not head.strip(b" \t\r\n\x00"):
        raise CsvError("the file is empty" if not head else "the file holds only blank lines")
    bom = bom_sniff(head)
    encoding, reason, bom_length, tentative, utf8_seen = "utf-8", "", 0, False, False
    if bom is not None:
        encoding, bom_length = bom
        reason = "byte-order mark"
        if encoding not in SUPPORTED_ENCODINGS:
            raise CsvError(f"the file is {encoding.upper()} (byte-order mark), which the Encoding "
                           "Standard does not define: re-save it as UTF-8")
        # UTF-8 after its BOM is checked as the file is read too: an export appended to it in
        # another encoding stops the reader, and its lines are looked at (``csvmixed``)
        tentative = encoding == "utf-8" and not complete and decodes_strictly(
            _cut_at_newline(head[bom_length:]))
    elif (utf16 := _utf16_without_bom(head)) is not None and not _magic(head):
        encoding, reason = utf16, "every other byte is NUL (UTF-16 without a byte-order mark)"
    else:
        _refuse_binary(head)
        body = head if complete else _cut_at_newline(head)
        if decodes_strictly(body):
            reason = "valid utf-8" + ("" if complete else " (checked as the file is read)")
            tentative = not complete
        else:
            encoding, reason, utf8_seen = _decide_by_core(body)
    fmt = _with_dialect(head[bom_length:], encoding, reason, bom_length, tentative)
    return dataclasses.replace(fmt, utf8_in_sample=True) if utf8_seen else fmt


def redecide_format(stream: BinaryIO, fmt: CsvFormat, offset: int, start: int = 0) -> CsvFormat:
    """Decide again with ``decode`` once UTF-8 failed at ``offset``: the head and that region.

    ``offset`` counts from the file's first byte, at ``start`` in ``stream``. After a UTF-8
    byte-order mark the file stays UTF-8 (the mark cannot be wrong), read lossily.
    """
    if fmt.bom_length and fmt.encoding == "utf-8":
        return dataclasses.replace(fmt, tentative=False, encoding_reason=(
            f"{fmt.encoding_reason}; utf-8 failed at byte offset {offset:,}"))
    stream.seek(start)
    head = _cut_at_newline(stream.read(HEAD_BYTES))
    # the region around the failure, after the head (not the head's bytes twice), whole lines
    begin = max(len(head), offset - HEAD_BYTES // 2)
    stream.seek(start + begin)
    window = stream.read(HEAD_BYTES)
    skip = window.find(b"\n") + 1 if begin > len(head) else 0
    encoding, reason, utf8_seen = _decide_by_core(head + b"\n" + _cut_at_newline(window[skip:]))
    reason += f"; utf-8 failed at byte offset {offset:,}"
    return CsvFormat(encoding, reason, fmt.bom_length, fmt.delimiter, fmt.quotechar, fmt.newline,
                     utf8_in_sample=utf8_seen)


def _decide_by_core(sample: bytes) -> tuple[str, str, bool]:
    """The core's encoding for ``sample``, why, and whether it holds valid UTF-8 sequences.

    ``sample`` is not valid UTF-8 (it failed a strict decode); a valid multi-byte sequence in
    it as well may mean lines of both kinds (``csvutf8lines``), so the caller says so.
    """
    decided = decode(sample, "text/csv")
    return (decided.encoding, f"decided by the core on a sample ({decided.decided_by})",
            utf8_profile(sample).multibyte > 0)


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
