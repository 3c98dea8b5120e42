"""A single-byte decision over a page that also holds UTF-8: mixed, whatever the proportion.

The walk hands a page that is *mostly* UTF-8 to a lossy UTF-8 reading (``resolve``), and the
``lossy`` finding maps its segments. A page where the legacy bytes outnumber the UTF-8
sequences (one UTF-8 paragraph, six in windows-1252) went to the detector, which chose one
single-byte encoding for all of it and turned the UTF-8 paragraph into mojibake, silently.

``mixed_single_byte`` asks the segment map (``segments.segment_map``) about such a decision:
when the body holds runs of valid multi-byte UTF-8 beside runs that are not UTF-8, the page is
``mixed-encoding`` (an error: no single encoding reads it), and the declaration that failed
is not answered with an override to the single-byte encoding (that would garble the UTF-8
part). The same bytes are what old mojibake leaves in a legacy export (``SÃ£o``: UTF-8 read
as windows-1252 and written back), so the finding says both, and the decision stays the
legacy reading, which is the right one for an old export.

Which way it errs: towards reporting on Latin pages, towards silence on others. A legacy run
that happens to be valid UTF-8 counts only as what UTF-8 text is made of: punctuation (``—``,
``“``; one is enough), or on a page read in a Latin encoding, Latin letters (``é``: two
needed). Cyrillic or Thai legacy words that are valid UTF-8 by chance decode to other
scripts (``сам`` in IBM866 is U+182C, Mongolian) and do not count.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..whatwg.decoders import SINGLE_BYTE_ENCODINGS
from ..wording import plural
from .models import Conflict, Severity, Source
from .resolve import Detector
from .segments import SegmentMap, segment_map
from .utf8scan import NUL_WINDOW, body_scan

__all__ = ["MIN_UTF8_RUNS", "mixed_conflict", "mixed_single_byte", "utf8_runs",
           "utf8_runs_reference"]

#: Valid UTF-8 runs needed (one of three bytes or more is enough: ``—``, ``“``).
MIN_UTF8_RUNS = 2
# A run of non-ASCII bytes made of valid UTF-8 multi-byte sequences only (Encoding Standard
# "UTF-8 decoder" byte ranges), with no non-ASCII byte either side.
_UTF8_RUN = re.compile(rb"(?<![\x80-\xff])(?:[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]"
                       rb"|[\xe1-\xec\xee\xef][\x80-\xbf]{2}|\xed[\x80-\x9f][\x80-\xbf]"
                       rb"|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}"
                       rb"|\xf4[\x80-\x8f][\x80-\xbf]{2})+(?![\x80-\xff])")
# Where a run can start: a lead byte and a continuation byte (every match of _UTF8_RUN starts so)
_UTF8_PAIR = re.compile(rb"[\xc2-\xf4][\x80-\xbf]")
_ASCII_BYTE = re.compile(rb"[\x00-\x7f]")
# The first bytes of general punctuation, the euro sign and the trade mark sign in UTF-8 (what
# counts on a page not read in a Latin encoding): one search, where three substring searches
# (``b"\xe2\x80" in body``...) each stopped at every E2 byte, which windows-1251 text is full
# of ("в"): 88 us a 62 KB Cyrillic page against 16.
_PUNCTUATION_LEADS = re.compile(rb"\xe2(?:\x80|\x82\xac|\x84\xa2)")
# Candidates tried one by one before the rest is left to ``finditer`` (a real page has a few)
_MAX_TRIES = 64
_UNDECLARED = frozenset({Source.DETECTOR, Source.FALLBACK, Source.SITE_DEFAULT})


def mixed_single_byte(body: bytes, encoding: str, source: str,
                      detector: Detector | None) -> SegmentMap | None:
    """The segment map of a body decided in a single-byte encoding by the detector, the site
    default or the fallback, when it mixes UTF-8 with another encoding; else None."""
    if encoding not in SINGLE_BYTE_ENCODINGS or source not in _UNDECLARED:
        return None
    scan = body_scan(body)   # (the detector's, remembered)
    if scan is not None:
        if scan.multibyte == 0 or scan.nul_head:
            return None   # no valid multi-byte sequence, so no run (utf8_runs asks the same)
    elif body.isascii() or body.find(b"\x00", 0, NUL_WINDOW) >= 0:
        return None   # (NUL bytes: UTF-16 or binary, reported apart)
    latin = encoding in _LATIN_ENCODINGS
    if not latin and _PUNCTUATION_LEADS.search(body) is None:
        return None   # (only punctuation, € and ™ count here)
    runs = 0
    for start, end in utf8_runs(body):   # a legacy page has none, or one by chance
        text = body[start:end].decode("utf-8")
        if text.translate(_PUNCTUATION) == "":
            runs += MIN_UTF8_RUNS   # — “ ” … € ™: what UTF-8 text is full of, legacy never
        elif latin and text.translate(_LATIN) == "":
            runs += 1   # é ü ß ã as UTF-8 in a Latin page; chance needs two
        if runs >= MIN_UTF8_RUNS:
            return segment_map(body, detector)
    return None


def utf8_runs(body: bytes) -> Iterator[tuple[int, int]]:
    """The (start, end) of each run of non-ASCII bytes of ``body`` that is all valid
    multi-byte UTF-8, with no non-ASCII byte either side, in order: ``utf8_runs_reference``'s.

    The regular expression's ``finditer`` tries its lookbehind at every byte (55 us a 1.6 KB
    legacy page); here the compiled UTF-8 scan (``utf8scan.body_scan``, 1 us) first says
    whether the body holds any valid multi-byte sequence at all (three legacy pages in four
    hold none), and the expression is then tried only where a lead byte meets a continuation
    byte (``_UTF8_PAIR``, searched at C speed), where every match starts, and after a failed
    try only from the next ASCII byte on (a match starts after one or at the body's start).
    After ``_MAX_TRIES`` candidates the rest is ``finditer``'s (from where the tries ended: its
    lookbehind still sees the byte before), so no shape costs much more than the reference.

    >>> list(utf8_runs("caf\\u00e9 ".encode() + b"caf\\xe9 \\xe2\\x80\\x94"))
    [(3, 5), (11, 14)]
    """
    scan = body_scan(body)
    if scan is not None and scan.multibyte == 0:
        return
    pos = 0
    for _ in range(_MAX_TRIES):
        pair = _UTF8_PAIR.search(body, pos)
        if pair is None:
            return
        # (``match`` at an offset still sees the bytes before it: the lookbehind holds)
        run = _UTF8_RUN.match(body, pair.start())
        if run is None:
            # no run starts inside this one's non-ASCII bytes (the lookbehind): go on at the
            # next ASCII byte, so that a long non-ASCII stretch costs one step, not one a pair
            ascii_byte = _ASCII_BYTE.search(body, pair.start())
            if ascii_byte is None:
                return
            pos = ascii_byte.start()
        else:   # as ``finditer`` goes on: after the match, which is never empty
            yield run.span()
            pos = run.end()
    # a body with many candidates (hostile, or many short runs): the rest at finditer's pace,
    # a step in C per byte rather than one in Python per candidate
    for rest in _UTF8_RUN.finditer(body, pos):
        yield rest.span()


def utf8_runs_reference(body: bytes) -> Iterator[tuple[int, int]]:
    """``utf8_runs`` by the definition: every match of the run expression, in order.

    >>> list(utf8_runs_reference(b"\\xc3\\xa9\\xe9 \\xc3\\xa9"))
    [(4, 6)]
    """
    for run in _UTF8_RUN.finditer(body):
        yield run.span()


# Characters a valid UTF-8 run decodes to that count as text written in UTF-8: in any page,
# general punctuation, the euro and trade mark signs (three bytes each, which a legacy page
# of Cyrillic, Thai or Greek letters forms by chance only as other characters); in a page
# read in a Latin encoding, Latin letters too (two bytes: a capital and a symbol in windows-1252,
# rare beside real Latin text).
_PUNCTUATION = {c: None for c in [*range(0x2010, 0x2027), *range(0x2030, 0x203B), 0x20AC, 0x2122]}
_LATIN = {**_PUNCTUATION, **{c: None for c in range(0xA0, 0x250)}}


_LATIN_ENCODINGS = frozenset({
    "windows-1252", "iso-8859-15", "windows-1250", "iso-8859-2", "iso-8859-3", "iso-8859-4",
    "iso-8859-10", "iso-8859-13", "iso-8859-14", "iso-8859-16", "windows-1254", "windows-1257",
    "windows-1258", "macintosh"})


def mixed_conflict(segmented: SegmentMap, encoding: str) -> Conflict:
    """``mixed-encoding`` (an error) for a single-byte decision over a page with UTF-8 runs."""
    utf8 = segmented.byte_ranges("utf-8")
    shown = ", ".join(f"{a}-{b}" for a, b in utf8[:3]) + (", ..." if len(utf8) > 3 else "")
    return Conflict(
        "mixed-encoding", Severity.ERROR,
        f"The page was read as {encoding}, but it also holds valid UTF-8: "
        f"{plural(len(utf8), 'segment')} of UTF-8 (bytes {shown}) beside "
        f"{segmented.legacy} ({segmented.reason}). Read as {encoding}, the UTF-8 part is "
        "mojibake (Ã© for é).",
        "No single encoding reads it: read it segment by segment (the Bytes view shows the "
        "map, Compare the text read so). If it is an old export whose UTF-8 cells were "
        f"already damaged (SÃ£o), {encoding} is right and the field scan reports them; "
        "otherwise fix the template that writes the other encoding.")
