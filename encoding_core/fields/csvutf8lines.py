"""A CSV the core decided in a legacy encoding that has UTF-8 lines too: UTF-8 with mixed lines?

Design. ``csvmixed`` reads the lines of a UTF-8 file that are not UTF-8 in one other encoding.
The mirror case escapes it: when the legacy lines carry more non-ASCII bytes than the UTF-8
ones, the core decides the whole file in a legacy encoding, often a wrong one (the detector's
statistics see both kinds at once: UTF-8 + koi8-r lines came out as windows-1256 or
x-mac-cyrillic), and every line of one kind is misread. So when the core's sample held valid
multi-byte UTF-8 sequences as well as bytes that are not UTF-8 (``CsvFormat.utf8_in_sample``),
the lines of the file's first ``UTF8_CHECK_BYTES`` are counted, one strict UTF-8 decode each (a
piece that decodes whole is counted at C speed): valid UTF-8 with a multi-byte sequence, or
not UTF-8; ASCII lines say nothing. The rule:

- at least ``MIN_UTF8_LINES`` lines of the first kind (lines of the second are in the sample,
  if not in the bytes counted): the file is UTF-8, and its lines that fail go to
  ``csvmixed.with_mixed_lines`` unchanged (one encoding, named by the detector for all of them
  together, that reads every one strictly);
- otherwise, or when no one encoding reads them all, the core's answer stands.

Why a count suffices: a line of legacy text is valid UTF-8 only by rare chance. Every byte over
7F on it must fall into a lead-and-continuation pattern, which in windows-1252 means a capital
Â-ß followed by a symbol (``Ã©``: mojibake already in the data, whose bytes *are* UTF-8) and in
koi8-r a lowercase letter followed by ``ё`` or a box-drawing character, with no other letter
over 7F anywhere on the line.

- but a legacy file with a little old mojibake keeps its own encoding (issue 21): when the
  UTF-8 lines are at most ``MAX_OLD_DAMAGE`` of the non-ASCII lines counted *and* stand
  alone among the legacy ones (fewer than ``MIN_RUN`` in a row on average, ASCII lines
  between them not counted), they are old damage, not an export: appended exports come in
  blocks of lines (two exports, or a UTF-8 head), while text that an earlier pipeline turned
  into ``SÃ£o`` is scattered over a few percent of the rows. The core's answer stands and the
  finder reports those cells as mojibake, repairable.

Which way it errs: towards the core's answer. Fewer than ``MIN_UTF8_LINES`` such lines (a
legacy file with one or two lines of stored ``Ã©``), scattered ones in a small share, or UTF-8
lines only after the first ``UTF8_CHECK_BYTES``, keep it; their UTF-8 text then reads as
mojibake, which the scan flags as repairable (the same letters as reading those lines as
UTF-8, reported as old mojibake). Its known wrong answer: a legacy file in which stored
mojibake is the only non-ASCII text of many lines, in blocks or over more than a tenth of its
lines, is read as UTF-8 with mixed lines (those lines' bytes are UTF-8, and read so give the
repaired text); the note gives both counts, so the analyst can tell. A file whose first 64 KiB
hold no UTF-8 (the core's sample) is not looked at.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import BinaryIO

from ..decision.detect import Detector, default_detector
from ..whatwg.decoders import decodes_strictly, encode_strict
from ..wording import plural
from .csvformat import CsvFormat
from .csvmixed import with_mixed_lines
from .csvread import ReadStats, pieces

__all__ = ["MAX_OLD_DAMAGE", "MIN_RUN", "MIN_UTF8_LINES", "UTF8_CHECK_BYTES", "LineKinds",
           "count_line_kinds",
           "utf8_or_not", "with_other_lines"]

#: The lines of the file's first this many bytes are counted...
UTF8_CHECK_BYTES = 4 << 20
#: ...and this many of them valid multi-byte UTF-8 make the file UTF-8 with mixed lines.
MIN_UTF8_LINES = 3
#: UTF-8 lines at most this share of the non-ASCII lines counted ...
MAX_OLD_DAMAGE = 0.1
#: ... fewer than this many in a row on average: old mojibake in a legacy file, not an export.
MIN_RUN = 2
_ASCII = bytes(range(0x80))


@dataclass(frozen=True, slots=True)
class LineKinds:
    """The lines of a file's first bytes by how they read as UTF-8 (ASCII lines are neither)."""

    utf8: int          # valid UTF-8 with a multi-byte sequence
    not_utf8: int      # fail a strict UTF-8 decode
    bytes_read: int
    whole_file: bool   # the count reached the end of the file
    utf8_runs: int = 0   # runs of UTF-8 lines with no line that is not UTF-8 between them

    @property
    def old_damage(self) -> bool:
        """Whether the UTF-8 lines look like old mojibake scattered in a legacy file: a small
        share of the non-ASCII lines (``MAX_OLD_DAMAGE``), standing alone (``MIN_RUN``).

        >>> LineKinds(6, 150, 0, True, 6).old_damage, LineKinds(6, 150, 0, True, 1).old_damage
        (True, False)
        """
        share = self.utf8 / max(self.utf8 + self.not_utf8, 1)
        return share <= MAX_OLD_DAMAGE and self.utf8 < MIN_RUN * self.utf8_runs


def count_line_kinds(stream: BinaryIO, newline: bytes, *, chunk_bytes: int = 1 << 20,
                     max_bytes: int = UTF8_CHECK_BYTES,
                     progress: Callable[[int], None] = lambda done: None) -> LineKinds:
    """Count the lines of ``stream`` (the whole ones in its first ``max_bytes``) by how they read.

    >>> body = "id,name\\n1,Zoë\\n".encode() + "2,Zoë\\n".encode("cp1252") + b"3,Ana\\n"
    >>> import io; count_line_kinds(io.BytesIO(body), b"\\n")
    LineKinds(utf8=1, not_utf8=1, bytes_read=27, whole_file=True, utf8_runs=1)
    """
    utf8 = not_utf8 = runs = 0
    in_run = False
    stats = ReadStats()
    for offset, piece in pieces(stream, b"", newline, chunk_bytes, stats, progress):
        over = offset + len(piece) > max_bytes
        if over:   # its whole lines up to max_bytes
            piece = piece[:piece.rfind(newline, 0, max_bytes - offset) + len(newline)]
        valid = decodes_strictly(piece)   # then each non-ASCII line of it is UTF-8
        for raw in piece.split(newline):
            if raw.isascii():
                continue
            if valid or decodes_strictly(raw):
                utf8 += 1
                runs += not in_run
                in_run = True
            else:
                not_utf8 += 1
                in_run = False
        if over:
            return LineKinds(utf8, not_utf8, offset + len(piece), False, runs)
    return LineKinds(utf8, not_utf8, stats.bytes_read, True, runs)


def utf8_or_not(stream: BinaryIO, start: int, fmt: CsvFormat, *, chunk_bytes: int,
                progress: Callable[[int], None], max_bytes: int = UTF8_CHECK_BYTES,
                detector: Detector = default_detector) -> CsvFormat:
    """UTF-8 with lines in one other encoding, or ``fmt`` (the core's legacy answer) as it was.

    - at least ``MIN_UTF8_LINES`` lines of the first ``max_bytes`` are valid multi-byte UTF-8,
      not scattered old damage (``LineKinds.old_damage``), and one encoding reads every line
      of the file that is not
      (``with_mixed_lines``, asking ``detector``): UTF-8 with those lines in it, the reason
      giving both counts;
    - otherwise ``fmt``, its reason saying what was counted when a line was UTF-8.

    Reads the file from ``start`` and leaves ``stream`` at the first byte of its body.
    """
    body = start + fmt.bom_length
    stream.seek(body)
    newline = encode_strict(fmt.newline, "utf-8") or b"\n"
    if encode_strict(_ASCII.decode("ascii"), fmt.encoding) != _ASCII:
        return fmt   # its newline bytes are not UTF-8's: not split as UTF-8 lines
    kinds = count_line_kinds(stream, newline, chunk_bytes=chunk_bytes, max_bytes=max_bytes,
                             progress=lambda done: progress(fmt.bom_length + done))
    stream.seek(body)
    if not kinds.utf8:
        return fmt
    size = f"{max_bytes / 2**20:,.0f} MiB" if max_bytes >= 2**20 else plural(max_bytes, "byte")
    where = "" if kinds.whole_file else f" of the first {size}"
    counted = (f"{plural(kinds.utf8, 'line')}{where} {'is' if kinds.utf8 == 1 else 'are'} "
               f"valid utf-8 with non-ASCII text, {kinds.not_utf8:,} not utf-8")
    if kinds.utf8 < MIN_UTF8_LINES:
        return dataclasses.replace(fmt, encoding_reason=(
            f"{fmt.encoding_reason}; {counted}: too few to read it as utf-8 with lines in "
            f"another encoding (that takes {MIN_UTF8_LINES})"))
    if kinds.old_damage:
        return dataclasses.replace(fmt, encoding_reason=(
            f"{fmt.encoding_reason}; {counted}, in {plural(kinds.utf8_runs, 'place')}: old "
            f"mojibake scattered in a {fmt.encoding} file (an appended utf-8 export comes in "
            "blocks of lines), so it stands and the finder reports them"))
    why = (f"{counted}, and a legacy line is valid utf-8 only by rare chance "
           f"({fmt.encoding} was the core's answer on a sample holding both)")
    mixed = with_mixed_lines(stream, start, dataclasses.replace(
        fmt, encoding="utf-8", encoding_reason=f"utf-8 with lines in another encoding: {why}",
        legacy=None, legacy_reason=""), chunk_bytes=chunk_bytes, progress=progress,
        detector=detector)
    if mixed.legacy is None:
        return dataclasses.replace(fmt, encoding_reason=(
            f"{fmt.encoding_reason}; {counted}, but no one other encoding reads every line "
            f"that is not utf-8, so {fmt.encoding} stands"))
    return dataclasses.replace(mixed, legacy_reason=(
        f"Decided as utf-8 with lines in another encoding, not {fmt.encoding}: {why}. "
        f"{mixed.legacy_reason}"))


def with_other_lines(stream: BinaryIO, start: int, fmt: CsvFormat, *, chunk_bytes: int,
                     progress: Callable[[int], None]) -> CsvFormat:
    """``fmt`` with the one encoding of the lines that are not in it, if any, and why.

    - UTF-8: its lines that are not UTF-8, ``csvmixed.with_mixed_lines``;
    - decided by the core on a sample with UTF-8 in it: ``utf8_or_not``;
    - otherwise ``fmt`` itself.

    Leaves ``stream`` at the first byte of the file's body.
    """
    if fmt.encoding == "utf-8":
        return with_mixed_lines(stream, start, fmt, chunk_bytes=chunk_bytes, progress=progress)
    if fmt.utf8_in_sample:
        return utf8_or_not(stream, start, fmt, chunk_bytes=chunk_bytes, progress=progress)
    stream.seek(start + fmt.bom_length)
    return fmt
