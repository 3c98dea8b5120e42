"""The offending bytes of a body, and the bytes behind a piece of text.

``inspect_bytes`` lists the sequences an engineer needs to look at under one encoding: the
malformed ones if there are any, otherwise the non-ASCII runs (where a wrong single-byte
decode hides: every byte is valid, the text is mojibake). Each comes with its byte offset,
line and column, a hex window, and what every candidate encoding makes of those bytes.

``explain_text`` goes the other way: for text such as ``cafÃ©`` it finds the bytes that
would have produced it and the decode chain (``utf-8 read as windows-1252``), by encoding
the text back under each legacy encoding and checking whether the bytes are UTF-8. It
errs towards showing chains: a chain is only offered when every step decodes strictly.
When no UTF-8 chain explains it, text like ``îÏ×ÏÓÔÉ ÄÎÑ`` (KOI8-R read as windows-1252,
where no byte is UTF-8) gets the decision's own check (``conflicts_text.better_reading``, as
Fetch runs it on a page): its words hold characters that do not belong in text, and the
detector reads its bytes clearly better. A pasted phrase is short, so an unsure detector is
still heard here, and the chain says it was unsure.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..decision.conflicts_text import better_reading
from ..decision.decode import decode_as
from ..decision.detect import default_detector
from ..decision.resolve import Detector
from ..fields.mojibake import Mojibake, find_mojibake
from ..whatwg.decoders import decode_replace, decode_strict, encode_strict
from ..whatwg.labels import get_encoding_no_replacement
from .hexview import HexRow, byte_rows

__all__ = ["ByteFinding", "ByteReport", "CodePoint", "DecodeChain", "TextExplanation",
           "code_points", "explain_text", "inspect_bytes"]

_NON_ASCII_RUN = re.compile(rb"[\x80-\xff]+")
# After one of these bytes every decoder below is back in its initial state: no multi-byte
# encoding takes them as a trail byte (Shift_JIS trails start at 40, Big5 at 40, EUC-KR at 41,
# GBK at 40 and gb18030's four-byte form uses 30-39), and as ASCII they end any pending lead.
_RESETS = frozenset(range(0x00, 0x30)) | frozenset(range(0x3A, 0x40))
# Decoders whose state survives ASCII bytes or that read two-byte units: never re-synced.
_STATEFUL = frozenset({"iso-2022-jp", "utf-16le", "utf-16be", "utf-32le", "utf-32be"})
_MAX_CHAR = 4        # the longest character of any WHATWG encoding, in bytes
_MAX_ROUNDS = 8      # widening rounds; in practice two (one that grows, one that checks)
# Legacy encodings whose misreading of UTF-8 is common on the web, most common first.
_MISREADINGS = ("windows-1252", "iso-8859-2", "windows-1250", "windows-1251", "koi8-r",
                "iso-8859-15", "macintosh", "shift_jis", "gbk", "big5", "euc-kr")
# Single-byte readings under which legacy bytes become Latin-looking text, most common first.
_LEGACY_MISREADINGS = ("windows-1252", "windows-1250", "iso-8859-2")


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
    sequences: int = 1   # the report's sequences it holds (a candidate's character joined them)


@dataclass(frozen=True, slots=True)
class ByteReport:
    """The findings under one encoding; ``kind`` is ``malformed`` or ``non-ascii``.

    ``total`` counts the malformed sequences (one U+FFFD each) or the runs of bytes 80-FF;
    ``findings`` shows the first of them, at most ``limit`` findings, a finding holding more
    than one when a candidate's character joins them (``ByteFinding.sequences``).
    """

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
    note: str = ""           # why to double-check it (an unsure detector), or nothing


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


def _sync_before(body: bytes, pos: int, floor: int) -> int:
    """The last position in ``[floor, pos]`` where every (non-stateful) decoder is at rest.

    ``floor`` must be such a position (0, or the end of the previous finding).
    """
    while pos > floor and body[pos - 1] not in _RESETS:
        pos -= 1
    return pos


def _char_span(body: bytes, sync: int, start: int, end: int, encoding: str) -> tuple[int, int]:
    """``[start, end)`` grown to whole characters of ``encoding``, decoding from ``sync``.

    A position is a boundary when decoding up to it and from it gives the same text as
    decoding across it: a split character would leave a U+FFFD on one side instead.
    """
    high = min(len(body), end + 2 * _MAX_CHAR)   # the bytes after ``end`` that decide it
    whole = decode_replace(body[sync:high], encoding)[0]

    def boundary(k: int) -> bool:
        return k in (sync, high) or (decode_replace(body[sync:k], encoding)[0]
                                     + decode_replace(body[k:high], encoding)[0] == whole)

    while not boundary(start):
        start -= 1
    while not boundary(end):
        end += 1
    return start, end


def _widen(body: bytes, start: int, end: int, candidates: tuple[str, ...],
           sync: int) -> tuple[int, int]:
    """``[start, end)`` grown until it starts and ends between characters of every candidate."""
    for _ in range(_MAX_ROUNDS):
        before = start, end
        for candidate in candidates:
            if candidate not in _STATEFUL:
                start, end = _char_span(body, sync, start, end, candidate)
        if (start, end) == before:
            break
    return start, end


def inspect_bytes(body: bytes, encoding: str, candidates: Iterable[str] = (), *,
                  limit: int = 50, window: int = 16) -> ByteReport:
    """The offending sequences of ``body`` under ``encoding`` (at most ``limit`` findings).

    Each finding is cut on the character boundaries of every candidate (see the module
    docstring), so it can hold several of the sequences ``total`` counts.
    """
    attempt = decode_as(body, encoding)
    names = (get_encoding_no_replacement(c) for c in (attempt.encoding, *candidates))
    candidates = tuple(dict.fromkeys(n for n in names if n is not None))
    spans: Iterator[tuple[int, int]]
    if not attempt.strict_ok:
        kind, offsets = "malformed", attempt.error_offsets
        spans = ((o, _malformed_end(body, attempt.encoding, o, nxt))
                 for o, nxt in zip(offsets, (*offsets[1:], len(body)), strict=True))
        total = attempt.replacements
    else:
        kind = "non-ascii"
        spans = ((m.start(), m.end()) for m in _NON_ASCII_RUN.finditer(body))
        total = sum(1 for _ in _NON_ASCII_RUN.finditer(body))
    findings: list[ByteFinding] = []
    floor, pending = 0, next(spans, None)
    while pending is not None and len(findings) < limit:
        start, end = pending
        sync = _sync_before(body, start, floor)
        start, end = _widen(body, start, end, candidates, sync)
        held, pending = 1, next(spans, None)
        while pending is not None and pending[0] < end:   # a character reaches into it
            if pending[1] > end:   # widen the new part only, from the verified end
                end = _widen(body, end, pending[1], candidates, end)[1]
            held, pending = held + 1, next(spans, None)
        floor = end
        data = body[start:end]
        readings = tuple((candidate, *_reading(data, candidate)) for candidate in candidates)
        line, column = _line_column(body, start)
        rows = byte_rows(body, highlight=[(start, end)], start=start - window,
                         end=end + window)
        findings.append(ByteFinding(start, end - start, line, column, data, rows, readings,
                                    held))
    return ByteReport(attempt.encoding, kind, total, tuple(findings))


def explain_text(text: str, *, max_depth: int = 3,
                 detector: Detector | None = default_detector) -> TextExplanation:
    """The bytes behind ``text`` and the decode chains that would have produced it.

    - UTF-8 read as a legacy encoding, up to ``max_depth`` times (``cafÃ©``, ``JosÃƒÂ©``);
    - else legacy bytes read as windows-1252 (or 1250, iso-8859-2) when the decision's
      implausible-reading check says so, with ``detector`` (``None``: not looked for).

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
    if not chains and detector is not None:
        legacy = _legacy_chain(text, detector)
        chains = [legacy] if legacy is not None else []
    return TextExplanation(code_points(text), text.encode("utf-8", "surrogatepass"),
                           tuple(chains), find_mojibake(text))


def _legacy_chain(text: str, detector: Detector) -> DecodeChain | None:
    """Legacy bytes read as a single-byte encoding: the decision's check, on pasted text."""
    for misreading in _LEGACY_MISREADINGS:
        raw = encode_strict(text, misreading)
        if raw is None or raw.isascii():
            continue
        better = better_reading(raw, misreading, text, detector, sure_only=False)
        if better is None or better.encoding == "utf-8":
            continue
        note = "" if better.sure else (
            f"the detector is not sure of {better.encoding} on so short a text: check it on "
            "more of the same text, or on the page in Compare")
        return DecodeChain((f"{better.encoding} read as {misreading}",), raw, better.text,
                           misreading, note)
    return None


def _summarise(steps: list[str]) -> tuple[str, ...]:
    if len(steps) > 1 and len(set(steps)) == 1:
        times = {2: "twice", 3: "three times"}.get(len(steps), f"{len(steps)} times")
        return (f"{steps[0]}, {times}",)
    return tuple(steps)
