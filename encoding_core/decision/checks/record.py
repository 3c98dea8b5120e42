"""What every check reads: the walk's result and what the body says, as one record.

``CheckInput`` is built once per decision (``check_input``) and handed to each check in
``conflicts.CHECKS``; a check is a function ``(given, found) -> its conflicts``, where
``found`` is what the checks before it reported (a check that defers to an earlier one's
finding says so, and its place in ``CHECKS`` is after that one). The wording helpers here
name a source and the label it used the way every conflict names them. A new fact about the
body that checks share (a one-pass byte profile) is one more field, with a default, that
``check_input`` fills.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from ...whatwg.labels import get_encoding
from ...wording import quoted
from ..mixedpage import mixed_single_byte
from ..models import Conflict, Evidence, Source
from ..nulpattern import NulPattern
from ..resolve import Detector, Opinions, browser_encoding
from ..segments import SegmentMap
from ..utf8profile import Utf8Profile

__all__ = ["DECLARED", "UNICODE", "Check", "CheckInput", "Found", "check_input", "plain",
           "source_name"]

#: The encodings a UTF-8 byte sequence is no evidence against.
UNICODE = frozenset({"utf-8", "utf-16le", "utf-16be", "utf-32le", "utf-32be"})
#: The sources that declare an encoding (rather than guess or fall back to one).
DECLARED = frozenset({Source.OVERRIDE, Source.HTTP_HEADER, Source.META, Source.XML_DECLARATION})
_NAMES = {
    Source.OVERRIDE: "site override", Source.HTTP_HEADER: "Content-Type header",
    Source.META: "<meta> declaration", Source.XML_DECLARATION: "XML declaration",
    Source.DETECTOR: "detector", Source.SITE_DEFAULT: "site default",
    Source.BYTE_PATTERN: "NUL-byte pattern",
    Source.FALLBACK: "fallback", Source.BOM: "byte-order mark",
}


def source_name(source: Source) -> str:
    """A source in words, as a conflict names it.

    >>> source_name(Source.HTTP_HEADER)
    'Content-Type header'
    """
    return _NAMES[source]


class CheckInput(NamedTuple):
    """The decision the checks look at and what the body says, read once for all of them.

    Immutable, as a result is, but a ``NamedTuple`` rather than the frozen dataclass the
    results are (a deviation from STYLE): it is built for every page, and a frozen
    dataclass of these 14 fields took 3.7-4.1 us to build here against 0.45-0.9 us (measured
    with ``time.process_time``, Python 3.11), a fifth of a small declared page's decision.

    ``encoding``, ``source`` and ``lossy`` are the walk's winner, ``evidence`` its trace;
    ``browser`` what a browser would use; ``utf8`` the walk's UTF-8 profile of the body when
    it made one (a check makes its own otherwise); ``truncated_at`` where an incomplete last
    character starts; ``detector`` the one the decision ran with (None: checks that would ask
    it are skipped); ``pattern`` the NUL-byte layout of UTF-16 or UTF-32 text without a BOM;
    ``utf8_errors`` every malformed UTF-8 offset, when a lossy UTF-8 reading found them all;
    ``mixed`` the segment map of a single-byte decision over a page with UTF-8 runs
    (``mixedpage``); ``wide`` is True when the NUL bytes say UTF-16 or UTF-32 text and that
    finding is reported (decided from it, or contradicting the decision): such a body is
    text, and the checks of a single-byte reading leave it to that finding. ``plain`` is
    True when no check of ``conflicts.CHECKS`` but the four that read the body's text can
    find anything (``plain``, computed once in ``check_input``; ``conflicts.PLAIN_CHECKS``).
    """

    body: bytes
    opinions: Opinions
    encoding: str
    source: Source
    lossy: bool
    evidence: tuple[Evidence, ...]
    browser: str
    utf8: Utf8Profile | None = None
    truncated_at: int | None = None
    detector: Detector | None = None
    pattern: NulPattern | None = None
    utf8_errors: tuple[int, ...] | None = None
    mixed: SegmentMap | None = None
    wide: bool = False
    plain: bool = False

    def said(self) -> str:
        """"The <source> says <label>": how a conflict opens about the decision's source."""
        return f"The {_NAMES[self.source]} says {_used_label(self.evidence, self.encoding)}"


#: Conflicts, in the order found: what the checks before one found, and what it finds.
Found = tuple[Conflict, ...]
#: A check: the record, what the checks before it found -> the conflicts it finds.
Check = Callable[[CheckInput, Found], Found]


def check_input(body: bytes, opinions: Opinions, encoding: str, source: Source, lossy: bool,
                evidence: Sequence[Evidence], *, browser: str | None = None,
                utf8: Utf8Profile | None = None, truncated_at: int | None = None,
                detector: Detector | None = None, pattern: NulPattern | None = None,
                utf8_errors: tuple[int, ...] | None = None) -> CheckInput:
    """The record the checks read, with what it derives once: the browser's encoding (when
    not given), the segment map of a mixed single-byte page, whether the text is wide."""
    # a lossy reading is never a single-byte page's mixed reading (``mixedpage`` decides)
    mixed = None if lossy else mixed_single_byte(body, encoding, source, detector)
    wide = pattern is not None and (
        (source is Source.BYTE_PATTERN and not lossy)   # decided from the NUL bytes
        or (source is not Source.BOM and encoding != pattern.encoding))   # contradicted
    evidence = tuple(evidence)
    browser = browser or browser_encoding(body, opinions)
    # every field, in order, with ``tuple.__new__`` (the NamedTuple's own ``__new__`` is a
    # Python call: 0.6 against 0.19 us here)
    return tuple.__new__(CheckInput, (
        body, opinions, encoding, source, lossy, evidence, browser, utf8, truncated_at,
        detector, pattern, utf8_errors, mixed, wide,
        not lossy and pattern is None and truncated_at is None and mixed is None
        and browser == encoding and plain(opinions, evidence)))


def plain(opinions: Opinions, evidence: tuple[Evidence, ...]) -> bool:
    """Whether the opinions and the trace leave nothing for the checks that read only them.

    The shared guard of ``conflicts.PLAIN_CHECKS``: with it, and a strict reading (not
    ``lossy``, not ``truncated_at``) that is no mixed page (``mixed``), no NUL pattern
    (``pattern``) and the browser's encoding (``browser``), each check left out there finds
    nothing, by the condition under which it can fire:

    =========================== ==========================================================
    declaration_fails_strict    a trace entry with ``strict_ok`` False
    labels_passed_over          a trace entry with a label and no encoding, or "replacement"
    skipped_meta_labels         a declaration with ``skipped`` labels
    mixed_single_byte_page      ``mixed``
    without_bom                 ``pattern`` (and ``wide``)
    header_meta_disagree        a header charset and a declared encoding that differ
    bom_contradicts_declaration a BOM, with a header charset or a declaration
    late_declaration            a ``late`` declaration
    repeated_content_type       more than one Content-Type value
    lossy_reading               ``lossy``
    truncated_body              ``truncated_at``
    browser_differs             ``browser`` other than the decision's encoding
    =========================== ==========================================================

    ``tests/decision/checks/test_record.py`` runs every check on plain records to hold it.
    """
    header, declaration = opinions.header, opinions.declaration
    if len(header.values) > 1 or (opinions.bom is not None
                                  and (header.charset is not None or declaration is not None)):
        return False
    if declaration is not None and (
            declaration.skipped or declaration.late
            or (header.charset and declaration.encoding is not None
                and get_encoding(header.charset) != declaration.encoding)):
        return False
    for ev in evidence:
        if ev.strict_ok is False or ev.encoding == "replacement" \
                or (ev.encoding is None and ev.raw_label):
            return False
    return True


def _used_label(evidence: Sequence[Evidence], encoding: str) -> str:
    for ev in evidence:
        if ev.used and ev.raw_label and get_encoding(ev.raw_label) == encoding \
                and ev.raw_label.strip().lower() != encoding:
            return f"{quoted(ev.raw_label)} ({encoding})"
    return encoding
