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

from ..whatwg.content_type import http_content_type_charset
from ..whatwg.decoders import forget_last_calls
from .attempt import MAX_ERROR_OFFSETS, DecodeAttempt, as_body, decode_as
from .checks import Check, CheckInput, check_input
from .checks import readings as _readings
from .checks.clearance import clears
from .checks.record import UNICODE
from .conflicts import CHECKS, PLAIN_CHECKS, find_conflicts
from .detect import default_detector
from .front import DECIDED_OR_FRONT, Front, read_front
from .models import Conflict, Decoded, Source, new_decoded
from .nulpattern import NulPattern
from .resolve import (
    DEFAULT_DETECTOR,
    Detector,
    Opinions,
    UseDefault,
    Walk,
    browser_encoding,
    new_opinions,
)
from .tracememo import Remembered, TraceMemo
from .utf8scan import forget_last_scan

__all__ = ["DEFAULT_DETECTOR", "MAX_ERROR_OFFSETS", "PLAIN_UNICODE_CHECKS", "DecodeAttempt",
           "Detector", "as_body", "decode", "decode_as", "what_checks_read"]

#: Decisions decided by their first source, by the opinions (``tracememo``): a page whose
#: header and declaration were seen before, and whose first declared encoding decodes it
#: strictly, gets that decision's trace, browser answer and checks without walking again.
_TRACES = TraceMemo()

#: The checks of ``conflicts.PLAIN_CHECKS`` (in its order) that can find anything in a plain
#: record of a Unicode reading: ``utf8_under_legacy`` and ``implausible_text`` return nothing
#: for an encoding of ``checks.record.UNICODE`` (their first test), and nothing they could
#: have found is left for ``ascii_label_escapes`` to defer to.
PLAIN_UNICODE_CHECKS: tuple[Check, ...] = tuple(
    check for check in PLAIN_CHECKS
    if check not in (_readings.utf8_under_legacy, _readings.implausible_text))


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

    Never raises for any bytes or header string. Any bytes-like ``body`` (``bytearray``,
    ``memoryview``) is read as its bytes; anything else is a ``TypeError`` (``as_body``).

    >>> decode(b"\\x93quoted\\x94", "text/html; charset=iso-8859-1").text
    '“quoted”'

    The decoders, and the UTF-8 scan of a body (from 256 bytes), remember their last body
    per thread while the walk, the detector and the checks ask about it; that is let go when
    the decision returns. A page recalled from a remembered decision (``tracememo``) whose
    checks have nothing to find (``checks.clearance``) is decided without them.
    """
    if type(body) is not bytes:
        body = as_body(body)
    front = DECIDED_OR_FRONT(body, content_type, override, _TRACES)
    if isinstance(front, Decoded):
        # a remembered decision whose checks have nothing to find here (``front``, the
        # clearance): nothing was remembered of this body, so nothing is let go
        return front
    known = front.known
    if isinstance(detector, UseDefault):
        detector = default_detector
    try:
        opinions = _opinions(front, content_type)
        if type(known) is tuple:
            given, text = _recalled_input(body, opinions, known[0], detector), known[1]
            attempt, needs_review, checks = None, False, known[0].checks
            conflicts = find_conflicts(given, checks)
        else:
            given, text, attempt, needs_review, checks = _walked(
                body, opinions, front, override, site_default, detector)
            # a plain record the compiled passes clear needs none of its checks
            conflicts = () if clears(given) else find_conflicts(given, checks)
    finally:
        forget_last_calls()
        forget_last_scan()
    # positional, in the field order of ``Decoded``: text, encoding, source, replacements,
    # evidence, conflicts, browser_encoding, bom_length, error_offsets, needs_review,
    # body_length, lossy (``new_decoded``: no frozen ``__init__`` where it is compiled)
    bom = given.opinions.bom
    return new_decoded(
        text, given.encoding, given.source, 0 if attempt is None else attempt.replacements,
        given.evidence, conflicts, given.browser, bom[1] if bom else 0,
        () if attempt is None else attempt.error_offsets,
        needs_review or (bool(conflicts) and _any_error(conflicts)), len(body), given.lossy)


def _any_error(conflicts: tuple[Conflict, ...]) -> bool:
    return any(c.severity == "error" for c in conflicts)


def what_checks_read(body: bytes, content_type: str | None = None, *,
                     override: str | None = None, site_default: str | None = None,
                     detector: Detector | UseDefault | None = DEFAULT_DETECTOR) -> CheckInput:
    """The record ``decode`` hands its checks for these arguments (``conflicts.CHECKS``):
    to run one check alone, in its test or when writing a new one. (For a recalled page the
    clearance passes, ``decode`` builds no record at all: this is the one it would hand.)

    >>> from encoding_core.decision.checks.readings import utf8_under_legacy
    >>> given = what_checks_read("café".encode(), "text/html; charset=iso-8859-1")
    >>> [c.kind for c in utf8_under_legacy(given, ())]
    ['utf8-under-legacy']
    """
    if type(body) is not bytes:
        body = as_body(body)
    if isinstance(detector, UseDefault):
        detector = default_detector
    front = read_front(body, content_type, override, _TRACES)
    try:
        opinions = _opinions(front, content_type)
        if type(front.known) is tuple:
            return _recalled_input(body, opinions, front.known[0], detector)
        return _walked(body, opinions, front, override, site_default, detector)[0]
    finally:
        forget_last_calls()
        forget_last_scan()


def _checks_for(given: CheckInput) -> tuple[Check, ...]:
    """The checks that can find anything in ``given`` (the same conflicts as ``CHECKS``)."""
    if not given.plain:
        return CHECKS
    return PLAIN_UNICODE_CHECKS if given.encoding in UNICODE else PLAIN_CHECKS


def _opinions(front: Front, content_type: str | None) -> Opinions:
    """The opinions ``read_front`` read of a body: its BOM, the header's charset, its
    declaration."""
    return new_opinions(front.bom, http_content_type_charset(content_type), front.declaration)


def _recalled_input(body: bytes, opinions: Opinions, parts: Remembered,
                    detector: Detector | None) -> CheckInput:
    """The checks' record of a body decided by a remembered decision's ``parts``."""
    # every field of ``CheckInput``, in its order, as ``check_input`` builds it (what it
    # derives is the remembered decision's: ``tracememo`` says why it holds here)
    return tuple.__new__(CheckInput, (
        body, opinions, parts.encoding, parts.source, False, parts.evidence, parts.browser,
        None, None, detector, None, None, None, False, parts.plain))


def _walked(body: bytes, opinions: Opinions, front: Front, override: str | None,
            site_default: str | None, detector: Detector | None,
            ) -> tuple[CheckInput, str, DecodeAttempt, bool, tuple[Check, ...]]:
    """A body ``read_front`` recalled no decision for, walked: the checks' record, the text,
    the winning attempt, whether the walk itself asks for review, and the checks to run."""
    known = front.known
    walk = _walk(body, opinions, override, site_default, detector, front.pattern,
                 known if isinstance(known, DecodeAttempt) else None)
    assert walk.winner is not None
    attempt, source = walk.winner
    given = check_input(body, opinions, attempt.encoding, source,
                        not attempt.strict_ok,   # (see ``Walk``: lossy is a failed winner)
                        walk.evidence, browser=browser_encoding(body, opinions),
                        utf8=walk.profile_if_known,
                        truncated_at=attempt.error_offsets[0] if attempt.truncated else None,
                        detector=detector, pattern=front.pattern,
                        utf8_errors=_all_utf8_errors(attempt))
    checks = _checks_for(given)
    _TRACES.remember(front.key, attempt, source, given, checks,
                     first_tried=len(walk.tried) == 1 or source is Source.BOM,
                     body_read=walk.needs_review or walk.profile_if_known is not None)
    return given, attempt.text, attempt, walk.needs_review, checks


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
