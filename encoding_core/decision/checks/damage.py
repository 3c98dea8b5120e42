"""The checks of damage in the reading itself: replacement characters (and the map of a
UTF-8 page with parts in another encoding), an incomplete last character.

Each is a ``Check`` (``record``); neither reads the earlier findings.
"""

from __future__ import annotations

from ...wording import plural
from ..models import Conflict, Severity
from ..segments import SegmentMap, segment_map
from ..utf8profile import utf8_profile
from .record import CheckInput, Found

__all__ = ["lossy_reading", "mixed_encoding", "truncated_body"]


def lossy_reading(given: CheckInput, found: Found) -> Found:
    """``lossy``: nothing decoded strictly; then, for a mostly UTF-8 page read as UTF-8,
    ``mixed-encoding`` where its other encoding's parts are (``segments``)."""
    if not given.lossy:
        return ()
    body, encoding = given.body, given.encoding
    profile = given.utf8 or utf8_profile(body)
    mixed = encoding == "utf-8" and profile.mostly_utf8
    lossy = Conflict(
        "lossy", Severity.ERROR,
        "Nothing decoded strictly; the text holds replacement characters (U+FFFD) "
        f"where {encoding} found malformed bytes."
        + (f" The page mixes encodings: {profile.multibyte} valid UTF-8 sequences and "
           f"{profile.invalid} malformed ones." if mixed else ""),
        "The replaced characters are lost in the text but not in the retained bytes: "
        "look at them in the Bytes view; fix the page or the pipeline that built it.")
    segmented = (segment_map(body, given.detector, utf8_errors=given.utf8_errors)
                 if mixed else None)
    return (lossy,) if segmented is None else (lossy, mixed_encoding(segmented))


def truncated_body(given: CheckInput, found: Found) -> Found:
    """``truncated-body``: the body ends in an incomplete character (a size cap, a crawl's
    record limit), decoded up to there."""
    if given.truncated_at is None:
        return ()
    return (Conflict(
        "truncated-body", Severity.WARNING,
        f"The last {len(given.body) - given.truncated_at} bytes (from offset "
        f"{given.truncated_at}) are an incomplete {given.encoding} character: the body looks "
        "cut short.",
        "It was decoded up to there and the incomplete character replaced by U+FFFD. "
        "A size cap or a crawler's record limit (WARC-Truncated) does this; re-fetch "
        "with a larger cap if the end of the page matters."),)


def mixed_encoding(segmented: SegmentMap) -> Conflict:
    """``mixed-encoding``: the page is UTF-8 with parts in one other encoding, and where."""
    other = segmented.byte_ranges(segmented.legacy)
    shown = ", ".join(f"{a}-{b}" for a, b in other[:3]) + (", ..." if len(other) > 3 else "")
    unsure = sum(not s.sure for s in segmented.segments)
    return Conflict(
        "mixed-encoding", Severity.WARNING,
        f"The page mixes UTF-8 and {segmented.legacy}: {len(segmented.segments)} segments, "
        f"{len(other)} of them {segmented.legacy} (bytes {shown}; {segmented.reason})."
        + (f" {plural(unsure, 'boundary', 'boundaries')} between them "
           f"{'lies' if unsure == 1 else 'lie'} in ASCII bytes, put at a line break or tag."
           if unsure else ""),
        "No single encoding reads it; read it segment by segment (the Bytes view shows the "
        "map, Compare the text read so) and fix the template that writes "
        f"{segmented.legacy}.")
