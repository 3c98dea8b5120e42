"""The lines of a UTF-8 CSV that are not UTF-8: one other encoding for all of them, or none.

Design. A pipeline that appends one export to another (a common accident) writes a file that
is mostly UTF-8 with blocks of windows-1252, koi8-r or shift_jis lines. Read as UTF-8, those
lines' non-ASCII characters become U+FFFD and the scan would count them lost, although the
right bytes are in the file. So before the scan, one pass over the file in pieces of
``chunk_bytes`` (each decoded strictly as UTF-8 at C speed; only a piece that fails is split
into lines) collects the lines that fail a strict UTF-8 decode, and the detector is asked
*once* about all of them together (the first ``MAX_SAMPLE`` bytes of them, when there are
more). Its answer is taken only when it is an answer (not a fallback), shares ASCII with UTF-8
(so a newline byte is a newline in both) and reads *every* failing line strictly; ``csvread``
then reads those lines in it, and the scan counts their non-ASCII cells as mixed encoding,
repairable (``scanreport``). Nothing is read per line by a guess of its own.

Which way it errs: towards lossy. Stray or random bytes in UTF-8 text make failing lines that
are themselves mostly UTF-8, for which the detector has no answer; lines it cannot place, or a
single failing line that its encoding does not read, leave every failing line lossy, and the
reason (``MixedLines.reason``) says which.

Known limits: a stream that cannot be read twice is not looked at (the caller says so). A file
whose legacy lines carry more non-ASCII bytes than its UTF-8 ones is decided in a legacy
encoding by the core: ``csvutf8lines`` counts its lines and may hand it here, when the core's
sample held UTF-8 too. One that starts with over 64 KiB of legacy lines is not (its UTF-8 lines
read as mojibake, flagged as repairable).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import BinaryIO, NamedTuple

from ..decision.detect import Detector, default_detector
from ..whatwg.decoders import decode_replace, decodes_strictly, encode_strict
from ..wording import plural
from .csvformat import CsvFormat
from .csvread import ReadStats, pieces

__all__ = ["MAX_SAMPLE", "MixedCells", "MixedLines", "Shown", "find_mixed_lines", "mixed_cells",
           "with_mixed_lines"]



class Shown(NamedTuple):
    """A finding as the scan shows it: its kind, repair, chain and excerpt."""

    kind: str
    repaired: str | None
    chain: str
    excerpt: str

_WEB_DEFAULT = "windows-1252"
#: The detector sees the failing lines up to this many bytes; every one of them is checked.
MAX_SAMPLE = 1 << 20
_ASCII = bytes(range(0x80))


@dataclass(frozen=True, slots=True)
class MixedLines:
    """The lines that are not valid UTF-8 and the one encoding that reads them all, if any."""

    encoding: str | None   # reads every failing line strictly; None: they stay lossy
    lines: int             # lines that are not valid UTF-8 (up to the line that decided it)
    first_line: int | None
    reason: str            # what was decided and why; "" when every line is UTF-8


def find_mixed_lines(stream: BinaryIO, newline: bytes, *, chunk_bytes: int = 1 << 20,
                     detector: Detector = default_detector, max_sample: int = MAX_SAMPLE,
                     progress: Callable[[int], None] = lambda done: None) -> MixedLines:
    """The one encoding that reads every line of ``stream`` that fails a strict UTF-8 decode.

    - no such line: ``encoding`` None, ``reason`` "";
    - the detector's answer on those lines together (the first ``max_sample`` bytes of them),
      when it shares ASCII with UTF-8 and reads every one of them strictly;
    - otherwise None, and ``reason`` says why.

    >>> body = "id,name\\n1,Zoë\\n".encode() + "2,Zoë\\n".encode("cp1252")
    >>> import io; found = find_mixed_lines(io.BytesIO(body), b"\\n")
    >>> found.encoding, found.lines, found.first_line
    ('windows-1252', 1, 3)
    """
    sample = bytearray()
    lines, first, line = 0, None, 1
    chosen: str | None = None   # decided once the sample is full; later lines are checked
    why = ""
    for _offset, piece in pieces(stream, b"", newline, chunk_bytes, ReadStats(), progress):
        if not decodes_strictly(piece):
            for number, raw in enumerate(piece.split(newline), line):
                if decodes_strictly(raw):
                    continue
                lines += 1
                first = first or number
                if chosen is None:
                    sample += raw + newline
                    if len(sample) >= max_sample:
                        chosen, why = _ask(bytes(sample), detector, lines, sampled=True)
                        if chosen is None:
                            return MixedLines(None, lines, first, why)
                elif not decodes_strictly(raw, chosen):
                    return MixedLines(None, lines, first, (
                        f"{chosen}, the detector's answer on the first lines that are not "
                        f"utf-8 ({plural(len(sample), 'byte')}), does not read line "
                        f"{number:,}, so no one encoding reads them all"))
        line += piece.count(newline)
    if not lines:
        return MixedLines(None, 0, None, "")
    if chosen is None:
        chosen, why = _ask(bytes(sample), detector, lines, sampled=False)
    elif len(sample) >= max_sample:
        why += f"; it reads all {lines:,} strictly"
    return MixedLines(chosen, lines, first, why)


def _ask(sample: bytes, detector: Detector, lines: int, sampled: bool) -> tuple[str | None, str]:
    """The detector's encoding for the failing lines, if it reads them; and what was decided."""
    which = f"the {plural(lines, 'line')} that {'is' if lines == 1 else 'are'} not utf-8"
    if sampled:
        which = f"the first {which[4:]} ({plural(len(sample), 'byte')})"
    found = detector(sample)
    if found is None:
        return None, (f"the detector names no encoding for {which} (stray bytes, or lines that "
                      "are mostly utf-8 themselves), so they stay lossy")
    if encode_strict(_ASCII.decode("ascii"), found.encoding) != _ASCII:
        return None, (f"the detector says {found.encoding} for {which}, which does not share "
                      "ASCII with utf-8, so they stay lossy")
    if not decodes_strictly(sample, found.encoding):
        return None, f"{found.encoding} (the detector) does not read {which}, so they stay lossy"
    if found.needs_review and found.encoding != _WEB_DEFAULT:
        # Issue 21: no repair is offered from a reading the detector itself doubts (a wrong
        # one breaks right letters: Lefèvre as iso-8859-2 Lefčvre); the lines stay lossy.
        # An unsure windows-1252 is kept, saying so: the web's default and the one bs4's
        # detwingle assumes (a lone Zoë in one line is all a detector gets).
        return None, (f"the detector is unsure of {found.encoding} for {which} "
                      f"({found.reason}), so they stay lossy: no repair is offered from an "
                      "unsure reading")
    doubt = " (unsure: few non-ASCII bytes; check the examples)" if found.needs_review else ""
    return found.encoding, (f"{found.encoding} is the detector's answer on {which}, all "
                            f"together{doubt}: {found.reason}")


def with_mixed_lines(stream: BinaryIO, start: int, fmt: CsvFormat, *, chunk_bytes: int,
                     progress: Callable[[int], None],
                     detector: Detector = default_detector) -> CsvFormat:
    """``fmt`` (UTF-8) with the encoding of its lines that are not UTF-8, and why (or why not).

    Reads the file from ``start`` (its first byte, where the BOM is) and leaves ``stream`` at
    its first byte after the BOM.
    """
    body = start + fmt.bom_length
    stream.seek(body)
    newline = encode_strict(fmt.newline, "utf-8") or b"\n"
    found = find_mixed_lines(stream, newline, chunk_bytes=chunk_bytes, detector=detector,
                             progress=lambda done: progress(fmt.bom_length + done))
    stream.seek(body)
    if found.encoding is None:
        return dataclasses.replace(fmt, legacy_reason=found.reason)
    return dataclasses.replace(
        fmt, legacy=found.encoding, legacy_reason=found.reason,
        encoding_reason=f"{fmt.encoding_reason}; {plural(found.lines, 'line')} that "
                        f"{'is' if found.lines == 1 else 'are'} not utf-8 read as "
                        f"{found.encoding}")


@dataclass(frozen=True, slots=True)
class MixedCells:
    """The cells of lines read in the other encoding whose UTF-8 reading differs.

    ``texts`` and ``about`` hold each distinct cell once: its UTF-8 reading (U+FFFD where its
    bytes do not decode), and (kind, repaired, chain, excerpt). ``codes``, ``columns``,
    ``rows``: per cell, its text's index, its column and its row.
    """

    texts: list[str]
    about: list[Shown]
    codes: list[int]
    columns: list[int]
    rows: list[int]


def mixed_cells(columns: Sequence[Sequence[str | None]], rows: Sequence[int], legacy: str,
                flagged: Callable[[str], bool]) -> MixedCells:
    """The mixed-encoding cells among ``columns[c][i]``, the cells of row ``rows[i]``.

    Not counted: empty or ASCII cells (they read alike), a cell ``flagged`` as read (the
    finder's finding), a cell whose bytes UTF-8 reads alike.

    >>> found = mixed_cells([["Zoë", "Ana"]], [4, 7], "windows-1252", lambda text: False)
    >>> found.texts, found.about[0].repaired, found.rows
    (['Zo\ufffd'], 'Zoë', [4])
    """
    found = MixedCells([], [], [], [], [])
    seen: dict[str, int] = {}
    for column, values in enumerate(columns):
        for row, value in zip(rows, values, strict=True):
            if not value or value.isascii():
                continue
            code = seen.get(value)
            if code is None:
                code = seen[value] = _mixed(value, legacy, found, flagged)
            if code >= 0:
                found.codes.append(code)
                found.columns.append(column)
                found.rows.append(row)
    return found


def _mixed(value: str, legacy: str, found: MixedCells, flagged: Callable[[str], bool]) -> int:
    """The index of ``value`` appended to ``found``'s texts, or -1 when it is not counted."""
    if flagged(value):
        return -1
    raw = encode_strict(value, legacy)
    as_utf8 = value if raw is None else decode_replace(raw, "utf-8")[0]
    if as_utf8 == value:
        return -1
    at = max(0, as_utf8.find("\ufffd"))
    found.texts.append(as_utf8)
    found.about.append(Shown("mixed-encoding", value, f"a {legacy} line in a utf-8 file",
                             as_utf8[max(0, at - 40): at + 41]))
    return len(found.texts) - 1
