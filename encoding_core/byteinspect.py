"""The offending bytes of a body, and the bytes behind a piece of text.

``inspect_bytes`` lists the sequences an engineer needs to look at under one encoding: the
malformed ones if there are any, otherwise the non-ASCII runs (where a wrong single-byte
decode hides: every byte is valid, the text is mojibake). Each comes with its byte offset,
line and column, a hex window, and what every candidate encoding makes of those bytes.

``explain_text`` goes the other way: for text such as ``cafÃ©`` it finds the bytes that
would have produced it and the decode chain (``utf-8 read as windows-1252``), by encoding
the text back under each legacy encoding and checking whether the bytes are UTF-8. It
errs towards showing chains: a chain is only offered when every step decodes strictly.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from .decode import decode_as
from .decoders import decode_replace, decode_strict, encode_strict
from .hexview import HexRow, byte_rows
from .labels import get_encoding_no_replacement
from .mojibake import Mojibake, find_mojibake

__all__ = ["ByteFinding", "ByteReport", "CodePoint", "DecodeChain", "TextExplanation",
           "code_points", "explain_text", "inspect_bytes"]

_NON_ASCII_RUN = re.compile(rb"[\x80-\xff]+")
# Legacy encodings whose misreading of UTF-8 is common on the web, most common first.
_MISREADINGS = ("windows-1252", "iso-8859-2", "windows-1250", "windows-1251", "koi8-r",
                "iso-8859-15", "macintosh", "shift_jis", "gbk", "big5", "euc-kr")


@dataclass(frozen=True, slots=True)
class CodePoint:
    """One character: itself, ``U+XXXX``, and its Unicode name."""

    char: str
    code: str
    name: str


@dataclass(frozen=True, slots=True)
class ByteFinding:
    """One offending sequence: where it is, its bytes, and each candidate's reading."""

    offset: int
    length: int
    line: int
    column: int
    data: bytes
    rows: tuple[HexRow, ...]
    readings: tuple[tuple[str, str, bool], ...]   # (encoding, text, decodes strictly)


@dataclass(frozen=True, slots=True)
class ByteReport:
    """The findings under one encoding; ``kind`` is ``malformed`` or ``non-ascii``."""

    encoding: str
    kind: str
    total: int
    findings: tuple[ByteFinding, ...]


@dataclass(frozen=True, slots=True)
class DecodeChain:
    """Bytes that, read as ``steps`` in turn, give the text that was pasted."""

    steps: tuple[str, ...]
    original_bytes: bytes
    repaired: str
    misread_as: str


@dataclass(frozen=True, slots=True)
class TextExplanation:
    """A piece of text: its code points, its UTF-8 bytes, and what explains it.

    ``chains`` are exact: the whole text undone step by step. ``finding`` is ftfy's reading
    (``mojibake.find_mojibake``), which also explains text damaged only in parts or lost to
    ``?`` and U+FFFD; ``None`` when the text looks clean.
    """

    code_points: tuple[CodePoint, ...]
    utf8: bytes
    chains: tuple[DecodeChain, ...]
    finding: Mojibake | None = None


def code_points(text: str) -> tuple[CodePoint, ...]:
    """Each character with its code point and name.

    >>> [c.name for c in code_points("é\\x92")]
    ['LATIN SMALL LETTER E WITH ACUTE', '<control>']
    """
    out = []
    for char in text:
        name = unicodedata.name(char, "")
        if not name and unicodedata.category(char) == "Cc":
            name = "<control>"
        out.append(CodePoint(char, f"U+{ord(char):04X}", name or "<unnamed>"))
    return tuple(out)


def _line_column(body: bytes, offset: int) -> tuple[int, int]:
    line = body.count(b"\n", 0, offset) + 1
    return line, offset - (body.rfind(b"\n", 0, offset) + 1) + 1


def _reading(data: bytes, encoding: str) -> tuple[str, bool]:
    """What ``encoding`` makes of a fragment (no BOM handling), and whether it is strict."""
    try:
        return decode_strict(data, encoding), True
    except UnicodeDecodeError:
        return decode_replace(data, encoding)[0], False


def _malformed_end(body: bytes, encoding: str, start: int, limit: int) -> int:
    """Where the malformed sequence at ``start`` ends: the longest run that is one U+FFFD.

    The decoders report where each malformed sequence starts; its length is the longest
    prefix (at most 4 bytes, not past the next one) that still decodes to a single U+FFFD,
    as a broken multi-byte character does (``F0 9F 98`` is one, not three).
    """
    end = start + 1
    while end < min(limit, start + 4, len(body)):
        if _reading(body[start : end + 1], encoding)[0] != "\ufffd":
            break
        end += 1
    return end


def inspect_bytes(body: bytes, encoding: str, candidates: Iterable[str] = (), *,
                  limit: int = 50, window: int = 16) -> ByteReport:
    """The offending sequences of ``body`` under ``encoding`` (at most ``limit``)."""
    attempt = decode_as(body, encoding)
    names = (get_encoding_no_replacement(c) for c in (attempt.encoding, *candidates))
    candidates = tuple(dict.fromkeys(n for n in names if n is not None))
    spans: list[tuple[int, int]]
    if not attempt.strict_ok:
        kind, offsets = "malformed", attempt.error_offsets
        spans = [(o, _malformed_end(body, attempt.encoding, o, nxt))
                 for o, nxt in zip(offsets[:limit], (*offsets[1:limit + 1], len(body)),
                                   strict=False)]
        total = attempt.replacements
    else:
        kind = "non-ascii"
        runs = [(m.start(), m.end()) for m in _NON_ASCII_RUN.finditer(body)]
        spans, total = runs, len(runs)
    findings = []
    for start, end in spans[:limit]:
        data = body[start:end]
        readings = []
        for candidate in candidates:
            readings.append((candidate, *_reading(data, candidate)))
        line, column = _line_column(body, start)
        rows = byte_rows(body, highlight=[(start, end)], start=start - window,
                         end=end + window)
        findings.append(ByteFinding(start, end - start, line, column, data, rows,
                                    tuple(readings)))
    return ByteReport(attempt.encoding, kind, total, tuple(findings))


def explain_text(text: str, *, max_depth: int = 3) -> TextExplanation:
    """The bytes behind ``text`` and the decode chains that would have produced it.

    >>> explain_text("cafÃ©").chains[0].steps
    ('utf-8 read as windows-1252',)
    >>> explain_text("cafÃ©").chains[0].repaired
    'café'
    >>> explain_text("JosÃƒÂ©").chains[0].steps
    ('utf-8 read as windows-1252, twice',)
    """
    chains: list[DecodeChain] = []
    for misreading in _MISREADINGS:
        current, steps = text, []
        for _ in range(max_depth):
            raw = encode_strict(current, misreading)
            if raw is None or raw.isascii():
                break
            try:
                undone = decode_strict(raw, "utf-8")
            except UnicodeDecodeError:
                break
            if undone == current:
                break
            steps.append(f"utf-8 read as {misreading}")
            current = undone
        if steps:
            original = current.encode("utf-8")
            chains.append(DecodeChain(_summarise(steps), original, current, misreading))
    # the most layers undone (the shortest repair) first, then the most common misreading
    chains.sort(key=lambda c: (len(c.repaired), _MISREADINGS.index(c.misread_as)))
    return TextExplanation(code_points(text), text.encode("utf-8", "surrogatepass"),
                           tuple(chains), find_mojibake(text))


def _summarise(steps: list[str]) -> tuple[str, ...]:
    if len(steps) > 1 and len(set(steps)) == 1:
        times = {2: "twice", 3: "three times"}.get(len(steps), f"{len(steps)} times")
        return (f"{steps[0]}, {times}",)
    return tuple(steps)
