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

from ..whatwg.decoders import SINGLE_BYTE_ENCODINGS
from ..wording import plural
from .models import Conflict, Severity, Source
from .resolve import Detector
from .segments import SegmentMap, segment_map
from .utf8profile import may_be_mostly_utf8

__all__ = ["MIN_UTF8_RUNS", "mixed_conflict", "mixed_single_byte"]

#: Valid UTF-8 runs needed (one of three bytes or more is enough: ``—``, ``“``).
MIN_UTF8_RUNS = 2
# A run of non-ASCII bytes made of valid UTF-8 multi-byte sequences only (Encoding Standard
# "UTF-8 decoder" byte ranges), with no non-ASCII byte either side.
_UTF8_RUN = re.compile(rb"(?<![\x80-\xff])(?:[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]"
                       rb"|[\xe1-\xec\xee\xef][\x80-\xbf]{2}|\xed[\x80-\x9f][\x80-\xbf]"
                       rb"|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}"
                       rb"|\xf4[\x80-\x8f][\x80-\xbf]{2})+(?![\x80-\xff])")
_UNDECLARED = frozenset({Source.DETECTOR, Source.FALLBACK, Source.SITE_DEFAULT})


def mixed_single_byte(body: bytes, encoding: str, source: str,
                      detector: Detector | None) -> SegmentMap | None:
    """The segment map of a body decided in a single-byte encoding by the detector, the site
    default or the fallback, when it mixes UTF-8 with another encoding; else None."""
    if (encoding not in SINGLE_BYTE_ENCODINGS or source not in _UNDECLARED
            or body.isascii() or b"\x00" in body[:4096]):
        return None   # (NUL bytes: UTF-16 or binary, reported apart)
    latin = encoding in _LATIN_ENCODINGS
    if not latin and b"\xe2\x80" not in body and b"\xe2\x82\xac" not in body \
            and b"\xe2\x84\xa2" not in body:
        return None   # (only punctuation, € and ™ count here: three byte searches, no regex)
    if not may_be_mostly_utf8(body, 0):
        return None   # (no valid UTF-8 sequence at all, so no run: one C pass, not the regex's
        #              search at every byte of a long legacy page)
    runs = 0
    for run in _UTF8_RUN.finditer(body):   # C speed: a legacy page has none, or one by chance
        text = run.group().decode("utf-8")
        if text.translate(_PUNCTUATION) == "":
            runs += MIN_UTF8_RUNS   # — “ ” … € ™: what UTF-8 text is full of, legacy never
        elif latin and text.translate(_LATIN) == "":
            runs += 1   # é ü ß ã as UTF-8 in a Latin page; chance needs two
        if runs >= MIN_UTF8_RUNS:
            return segment_map(body, detector)
    return None


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
