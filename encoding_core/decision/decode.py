"""The decision: which encoding a body is in, by which source, and what contradicts it.

``decode`` walks the sources in a fixed order (seed 000's; README.md "Sources: the seeds" says
what the seeds are) and records every one it consulted; ``decode_as`` decodes under one named
encoding, strictly first.

Differences from the HTML Standard's encoding sniffing and from seed 000:

==========================  ==============================================================
where                       what and why
==========================  ==============================================================
BOM                         UTF-32 BOMs are honoured (seed 000); see ``bom.py``.
override                    a site override (seed 000) comes after the BOM and before the
                            header; browsers have no such step (only a user override).
strict then fall back       a declaration that fails a strict decode is passed over
                            (seed 000); a browser decodes with it and shows U+FFFD.
byte pattern                UTF-16 or UTF-32 without a BOM is decided from where its NUL
                            bytes are (``nulpattern.py``) when no declaration decodes; a
                            browser never sniffs this and shows the NULs (reported).
detector                    consulted only when no declaration decodes strictly; a browser
                            with no declaration uses its locale default (windows-1252 in
                            English), or its own detector in Firefox and Chrome.
windows-1252 fallback       not taken, and neither is a single-byte detector answer or site
                            default, when the body is mostly valid UTF-8 (more valid
                            multi-byte sequences than malformed ones): decoding such a page
                            as windows-1252 would turn every non-ASCII character into
                            mojibake, so the result is UTF-8 with replacements (lossy).
truncated body              a body whose only malformed bytes are an incomplete character at
                            its very end (a size cap, a crawl's record limit) counts as a
                            strict success with that character replaced (one U+FFFD),
                            reported as ``truncated-body``; without this, every multi-byte
                            declaration of a cut page would fail and windows-1252 would win.
lossy                       seed 000 decodes with the declared encoding; this picks, among
                            the declared encodings tried and utf-8, the one with the fewest
                            replacements (ties go to the earlier source).
==========================  ==============================================================
"""

from __future__ import annotations

from ..whatwg.bom import bom_sniff
from ..whatwg.content_type import http_content_type_charset
from ..whatwg.decoders import forget_last_calls
from ..whatwg.prescan import find_declaration
from .attempt import MAX_ERROR_OFFSETS, DecodeAttempt, decode_as
from .checks import CheckInput, check_input
from .conflicts import find_conflicts
from .detect import default_detector
from .models import Decoded, Source
from .nulpattern import NulPattern, nul_pattern
from .resolve import (
    DEFAULT_DETECTOR,
    Detector,
    Opinions,
    UseDefault,
    Walk,
    browser_encoding,
)
from .tracememo import TraceMemo

__all__ = ["DEFAULT_DETECTOR", "MAX_ERROR_OFFSETS", "DecodeAttempt", "Detector", "decode",
           "decode_as", "what_checks_read"]

#: Walks decided by their first source, by the opinions (``tracememo``): a page whose
#: header and declaration were seen before, and whose first declared encoding decodes it
#: strictly, gets that walk's trace without walking again.
_TRACES = TraceMemo()


def decode(body: bytes, content_type: str | None = None, *, override: str | None = None,
           site_default: str | None = None,
           detector: Detector | UseDefault | None = DEFAULT_DETECTOR) -> Decoded:
    """Decode a response body, recording every source consulted and what contradicts it.

    The first source whose encoding decodes the body strictly wins:

    - a byte-order mark (it cannot be wrong; decoded lossily if its bytes are malformed);
    - ``override``, an approved site override's encoding;
    - the ``charset`` of ``content_type`` (repeated headers joined with commas);
    - the document's ``<meta>`` or XML declaration (the prescan; a late one after it);
    - the NUL-byte pattern of UTF-16 or UTF-32 text without a BOM, when no declaration decoded;
    - ``detector``, only when no declaration decoded, and only a confident answer;
    - ``site_default``, then utf-8, then windows-1252;
    - lossy: the least damaged of the candidates tried, with U+FFFD counted.

    Never raises for any bytes or header string.

    >>> decode(b"\\x93quoted\\x94", "text/html; charset=iso-8859-1").text
    '“quoted”'

    The decoders remember their last body per thread while the walk, the detector and the
    checks ask about it; that is let go when the decision returns.
    """
    try:
        attempt, given, needs_review = _decide(body, content_type, override, site_default,
                                               detector)
        conflicts = find_conflicts(given)
    finally:
        forget_last_calls()
    # positional, in the field order of ``Decoded`` (a fifth cheaper than by keyword: 2.0
    # against 2.7 us a record here): text, encoding, source, replacements, evidence,
    # conflicts, browser_encoding, bom_length, error_offsets, needs_review, body_length, lossy
    return Decoded(
        attempt.text, attempt.encoding, given.source, attempt.replacements, given.evidence,
        conflicts, given.browser, given.opinions.bom[1] if given.opinions.bom else 0,
        attempt.error_offsets,
        needs_review or (bool(conflicts) and any(c.severity == "error" for c in conflicts)),
        len(body), given.lossy,
    )


def what_checks_read(body: bytes, content_type: str | None = None, *,
                     override: str | None = None, site_default: str | None = None,
                     detector: Detector | UseDefault | None = DEFAULT_DETECTOR) -> CheckInput:
    """The record ``decode`` hands its checks for these arguments (``conflicts.CHECKS``):
    to run one check alone, in its test or when writing a new one.

    >>> from encoding_core.decision.checks.readings import utf8_under_legacy
    >>> given = what_checks_read("café".encode(), "text/html; charset=iso-8859-1")
    >>> [c.kind for c in utf8_under_legacy(given, ())]
    ['utf8-under-legacy']
    """
    try:
        return _decide(body, content_type, override, site_default, detector)[1]
    finally:
        forget_last_calls()


def _decide(body: bytes, content_type: str | None, override: str | None,
            site_default: str | None, detector: Detector | UseDefault | None,
            ) -> tuple[DecodeAttempt, CheckInput, bool]:
    """The walk's winner, the checks' record and whether the walk itself asks for review."""
    opinions = Opinions(
        bom=bom_sniff(body),
        header=http_content_type_charset(content_type),
        declaration=find_declaration(body),
    )
    if isinstance(detector, UseDefault):
        detector = default_detector
    # NUL bytes are rare in text: look for UTF-16/32 laid out without a BOM only then
    pattern = (nul_pattern(body) if opinions.bom is None and body.find(b"\x00", 0, 4096) >= 0
               else None)   # (a search, not a slice: no copy of the head)
    tried, trace = (_TRACES.recall(body, opinions, override) if pattern is None
                    else (None, None))
    if tried is not None and trace is not None:
        attempt, (recorded, evidence) = tried, trace
        # the memo keeps the source as the walk recorded it: a ``Source`` (typed ``str`` there)
        source = recorded if isinstance(recorded, Source) else Source(recorded)
        profile, needs_review = None, False
    else:
        walk = _walk(body, opinions, override, site_default, detector, pattern, tried)
        if pattern is None:
            _TRACES.remember(walk, override)
        assert walk.winner is not None
        attempt, source = walk.winner
        evidence, profile, needs_review = (tuple(walk.evidence), walk.profile_if_known,
                                           walk.needs_review)
    given = check_input(body, opinions, attempt.encoding, source,
                        not attempt.strict_ok,   # (see ``Walk``: lossy is a failed winner)
                        evidence, browser=browser_encoding(body, opinions), utf8=profile,
                        truncated_at=attempt.error_offsets[0] if attempt.truncated else None,
                        detector=detector, pattern=pattern,
                        utf8_errors=_all_utf8_errors(attempt))
    return attempt, given, needs_review


def _all_utf8_errors(attempt: DecodeAttempt) -> tuple[int, ...] | None:
    """A lossy UTF-8 attempt's error offsets when it kept them all (else None)."""
    if attempt.encoding != "utf-8" or attempt.strict_ok \
            or len(attempt.error_offsets) != attempt.replacements:
        return None
    return attempt.error_offsets


def _walk(body: bytes, opinions: Opinions, override: str | None, site_default: str | None,
          detector: Detector | None, pattern: NulPattern | None,
          tried: DecodeAttempt | None = None) -> Walk:
    """The walk over the sources in ``decode``'s order, to its winner (``tried``: a strict
    attempt already made on this body)."""
    walk = Walk(body, opinions, tried)
    if opinions.bom is not None:
        walk.bom(override)
        return walk
    walk.silent_sources()
    walk.declared(override, site_default)
    if walk.winner is None:
        walk.byte_pattern(pattern)
    if walk.winner is None and detector is not None:
        walk.detect(detector)
    elif walk.winner is None:
        walk.note(Source.DETECTOR, None, None, "not used: no detector configured")
    if walk.winner is None:
        walk.fallbacks(site_default)
    if walk.winner is None:
        walk.lossy()
    return walk
