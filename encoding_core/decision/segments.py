"""Pages that mix encodings: which byte ranges are UTF-8 and which are in one other encoding.

A page assembled from two templates is UTF-8 with windows-1252 runs (or the reverse). No single
encoding decodes it as meant; ``decode`` reads it as UTF-8 and counts U+FFFD. ``segment_map``
says where each part is: every run of non-ASCII bytes is UTF-8 when it is made of valid UTF-8
sequences only, and *legacy* otherwise; the legacy runs, all together, are given to the
detector once (a single-byte answer only; windows-1252 when it has none, as bs4's
``detwingle`` assumes), and that encoding must read each of them strictly. A segment is a
stretch of runs of one kind with the ASCII around them. Where two kinds meet across ASCII
bytes, the boundary is put after the last line break of that ASCII gap, else after its last
``>`` (templates join at markup); it is *sure* only when the two runs touch (no ASCII between
them: the boundary is exact).

A page with more than ``limits.MAX_MIXED_RUNS`` such runs gets no map (a deviation from this
module's own rule, for time and memory: a page switching encodings every few bytes is no two
templates joined).

Which way it errs: a legacy run that happens to be valid UTF-8 (windows-1252 ``Ã©`` is UTF-8
``é``) is taken for UTF-8; such runs are rare beside real legacy text, and the segment map
then shows the page as less mixed than it is, never more.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..whatwg.decoders import SINGLE_BYTE_ENCODINGS, decode_replace, decode_strict
from .limits import MAX_MIXED_RUNS
from .resolve import Detector

__all__ = ["Segment", "SegmentMap", "segment_map"]

# One valid UTF-8 multi-byte sequence (Encoding Standard "UTF-8 decoder" byte ranges).
_UTF8_SEQUENCE = (rb"(?:[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]"
                  rb"|[\xe1-\xec\xee\xef][\x80-\xbf]{2}|\xed[\x80-\x9f][\x80-\xbf]"
                  rb"|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}"
                  rb"|\xf4[\x80-\x8f][\x80-\xbf]{2})")
_ALL_UTF8 = re.compile(_UTF8_SEQUENCE + rb"+")
_NON_ASCII_RUN = re.compile(rb"[\x80-\xff]+")
FALLBACK = "windows-1252"


@dataclass(frozen=True, slots=True)
class Segment:
    """Bytes ``start`` to ``end`` of the body, read in ``encoding``.

    ``sure`` is True when the boundary at ``start`` is exact (the runs on either side touch);
    else it lies somewhere in the ASCII gap ``gap`` (start, end) and was put after its last
    line break, else its last ``>``. The first segment's boundary is the body's start: sure.
    ``body`` is the whole body the map was made of (not compared: the segment is its bounds);
    ``text`` is decoded from it when asked for (a conflict needs the bounds only).
    """

    start: int
    end: int
    encoding: str
    body: bytes = field(repr=False, compare=False)
    sure: bool = True
    gap: tuple[int, int] | None = None

    @property
    def text(self) -> str:
        """The segment's bytes read in its encoding (strictly: the map checked they decode)."""
        return decode_strict(self.body[self.start:self.end], self.encoding)


@dataclass(frozen=True, slots=True)
class SegmentMap:
    """The segments of a body that mixes UTF-8 with ``legacy`` (one other encoding)."""

    segments: tuple[Segment, ...]
    legacy: str
    reason: str          # how the legacy encoding was chosen

    @property
    def text(self) -> str:
        """The body decoded segment by segment."""
        return "".join(segment.text for segment in self.segments)

    def byte_ranges(self, encoding: str) -> tuple[tuple[int, int], ...]:
        """The (start, end) byte ranges read in ``encoding``."""
        return tuple((s.start, s.end) for s in self.segments if s.encoding == encoding)


def _legacy_runs(body: bytes, errors: Sequence[int] | None = None,
                 limit: int = MAX_MIXED_RUNS) -> list[tuple[int, int]] | None:
    """(start, end) of every run of non-ASCII bytes that is not made of valid UTF-8 sequences;
    None past ``limit`` runs (no two templates switch so often: see ``limits``).

    A UTF-8 sequence holds no ASCII byte, so a run is valid UTF-8 exactly when no malformed
    sequence starts in it: the runs around the decoder's error offsets (``errors``, when the
    caller has them all) are the legacy ones. A run's end is a regular-expression match (C
    speed); its start is a short walk back, or, for a long run (CJK text has no ASCII for
    pages), a match in the body reversed.
    """
    runs: list[tuple[int, int]] = []
    backwards: bytes | None = None
    if errors is None:
        errors = decode_replace(body, "utf-8")[1]
    for offset in errors:   # where each malformed sequence starts
        if runs and offset < runs[-1][1]:
            continue   # another malformed sequence of the same run
        start, floor = offset, max(0, offset - _WALK)
        while start > floor and body[start - 1] >= 0x80:
            start -= 1
        if start == floor and start > 0 and body[start - 1] >= 0x80:
            backwards = body[::-1] if backwards is None else backwards
            found = _NON_ASCII_RUN.match(backwards, len(body) - 1 - offset)
            assert found is not None   # the byte at offset is not ASCII
            start = len(body) - found.end()
        run = _NON_ASCII_RUN.match(body, offset)
        assert run is not None
        runs.append((start, run.end()))
        if len(runs) > limit:
            return None
    return runs


_WALK = 64   # bytes walked back before a long run is matched in the reversed body


_ASCII = bytes(range(0x80))


def _stretches(body: bytes, legacy: list[tuple[int, int]]) -> list[tuple[int, int, bool]]:
    """(first run start, last run end, is_utf8) for each stretch of runs of one kind: the
    legacy runs with only ASCII between them, and the UTF-8 runs between those."""
    stretches: list[tuple[int, int, bool]] = []

    def utf8_between(a: int, b: int) -> None:
        first = _NON_ASCII_RUN.search(body, a, b)
        if first is not None:   # to the last non-ASCII byte before b (C speed, from the end)
            stretches.append((first.start(), a + len(body[a:b].rstrip(_ASCII)), True))

    position = 0
    for a, b in legacy:
        utf8_between(position, a)
        if stretches and not stretches[-1][2]:
            stretches[-1] = (stretches[-1][0], b, False)   # only ASCII since the last one
        else:
            stretches.append((a, b, False))
        position = b
    utf8_between(position, len(body))
    return stretches


def _legacy_encoding(body: bytes, legacy: list[tuple[int, int]],
                     detector: Detector | None) -> tuple[str, str] | None:
    """The one encoding that reads every legacy run strictly, and why; None if none does."""
    joined = b" ".join(body[a:b] for a, b in legacy)
    found = None
    if detector is not None:
        try:
            found = detector(joined)
        except Exception:  # a third-party detector must not break the map
            found = None
    candidates = []
    # single-byte only: a multi-byte encoding's trail bytes can be ASCII, so its characters
    # would not be within the runs of non-ASCII bytes this map is made of
    if found is not None and found.encoding in SINGLE_BYTE_ENCODINGS \
            and found.encoding != FALLBACK:
        candidates.append((found.encoding, f"the detector names {found.encoding} for the "
                                           f"{len(legacy)} runs that are not UTF-8"))
    candidates.append((FALLBACK, f"{FALLBACK}: the encoding such runs are in most often"
                                 + (" (the detector had no surer answer)" if found is None
                                    else "")))
    for encoding, why in candidates:
        try:   # single-byte: the runs joined decode strictly exactly when each one does
            decode_strict(joined, encoding)
        except (UnicodeDecodeError, LookupError):
            continue
        return encoding, why
    return None


def segment_map(body: bytes, detector: Detector | None = None, *,
                utf8_errors: tuple[int, ...] | None = None) -> SegmentMap | None:
    """Where ``body`` is UTF-8 and where it is one other encoding; None when it is not mixed.

    ``utf8_errors``: the offset where each malformed UTF-8 sequence of ``body`` starts, when
    the caller has them all (a lossy UTF-8 reading's), so that they are not looked for again.

    >>> page = "<p>José</p>\\n".encode() + "<p>Müller “quoted”</p>".encode("cp1252")
    >>> found = segment_map(page)
    >>> [(s.start, s.end, s.encoding) for s in found.segments], found.text[-22:]
    ([(0, 13, 'utf-8'), (13, 35, 'windows-1252')], '<p>Müller “quoted”</p>')
    """
    legacy = _legacy_runs(body, utf8_errors)
    if not legacy:
        return None  # all UTF-8 (or ASCII): one encoding; or past MAX_MIXED_RUNS runs
    stretches = _stretches(body, legacy)
    bom = body.startswith(b"\xef\xbb\xbf")
    # a UTF-8 byte-order mark alone (a stretch of that one run) is no UTF-8 text
    if not any(utf8 and not (bom and (a, b) == (0, 3)) for a, b, utf8 in stretches):
        return None  # no UTF-8 run: one encoding
    chosen = _legacy_encoding(body, legacy, detector)
    if chosen is None:
        return None
    other, reason = chosen
    segments: list[Segment] = []
    start, sure = 0, True
    gap: tuple[int, int] | None = None
    for index, (_, end, utf8) in enumerate(stretches):
        if index + 1 < len(stretches):
            following = stretches[index + 1][0]
            line = body.rfind(b"\n", end, following)
            tag = body.rfind(b">", end, following)
            cut = line + 1 if line >= 0 else tag + 1 if tag >= 0 else following
            next_sure, next_gap = following == end, (end, following)
        else:
            cut, next_sure, next_gap = len(body), True, None
        encoding = "utf-8" if utf8 else other
        segments.append(Segment(start, cut, encoding, body, sure, gap))
        start, sure, gap = cut, next_sure, None if next_sure else next_gap
    return SegmentMap(tuple(segments), other, reason)
