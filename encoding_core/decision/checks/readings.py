"""The checks of the reading against what the bytes say: UTF-8 under a legacy label, a
single-byte page with UTF-8 runs, UTF-16 or UTF-32 without a BOM, text unlike real text, a
body that is no text.

A strict decode that succeeds is not proof: every byte is valid iso-8859-1 and windows-1252,
so a page of UTF-8 served as iso-8859-1 decodes "successfully" into mojibake. These err
towards reporting; each costs at most one extra decode, and only when its precondition holds.
Each is a ``Check`` (``record``); ``implausible_text`` and ``ascii_label_escapes`` defer to an
earlier finding (see each).
"""

from __future__ import annotations

from ...whatwg.decoders import ESC, SINGLE_BYTE_ENCODINGS
from .. import conflicts_text, disputes
from ..mixedpage import mixed_conflict
from ..models import Conflict, Severity, Source
from ..textsample import text_sample
from ..utf8profile import valid_utf8_profile
from ..utf8scan import is_ascii
from .record import DECLARED, UNICODE, CheckInput, Found

__all__ = ["ascii_label_escapes", "binary_body", "implausible_text", "mixed_single_byte_page",
           "utf8_under_legacy", "without_bom"]


def utf8_under_legacy(given: CheckInput, found: Found) -> Found:
    """``utf8-under-legacy``: a legacy reading of a body that is valid UTF-8 with at least one
    multi-byte sequence (a strict decode stops at the first malformed byte: enough)."""
    if given.encoding in UNICODE or is_ascii(given.body):
        return ()
    profile = given.utf8 or valid_utf8_profile(given.body)
    if profile is None or not profile.valid or not profile.multibyte:
        return ()
    # One sequence is enough for an error: a name (José as JosÃ©) is often the only
    # non-ASCII text of a page, and the whole body being valid UTF-8 is the evidence.
    return (Conflict(
        "utf8-under-legacy", Severity.ERROR,
        f"{given.said()}; the bytes are UTF-8 ({profile.multibyte} multi-byte sequences, "
        "all valid).",
        f"An override to utf-8 would remove {profile.multibyte} mojibake sequences.",
        suggested_encoding="utf-8", mojibake_removed=profile.multibyte),)


def mixed_single_byte_page(given: CheckInput, found: Found) -> Found:
    """``mixed-encoding``: a single-byte decision over a page that also holds UTF-8 runs
    (``mixedpage``; the map is made once, in ``check_input``)."""
    return () if given.mixed is None else (mixed_conflict(given.mixed, given.encoding),)


def without_bom(given: CheckInput, found: Found) -> Found:
    """``utf16-without-bom`` / ``utf32-without-bom``: decided from the NUL pattern (a
    warning: browsers do not do this), or a decision the pattern contradicts (an error)."""
    pattern = given.pattern
    if pattern is None or not given.wide:
        return ()
    kind = f"utf{pattern.encoding[4:6]}-without-bom"
    encoding, browser = given.encoding, given.browser
    if given.source is Source.BYTE_PATTERN and not given.lossy:
        return (Conflict(
            kind, Severity.WARNING,
            f"Decided from the NUL bytes: {pattern.describe()}. A browser does not look for "
            f"this: it decodes the page as {browser} and shows a NUL between the characters.",
            f"Serve it with a byte-order mark, or with charset={pattern.encoding} in the "
            "Content-Type header, or convert it to UTF-8."),)
    said = given.said() if not given.lossy else f"Nothing decoded strictly; {encoding}"
    return (Conflict(
        kind, Severity.ERROR,
        f"{said}, but {pattern.describe()}: the {encoding} text has a NUL between its "
        "characters.",
        f"An override to {pattern.encoding} reads it as text. A browser shows what this "
        f"decision does ({browser}): fix the page's declaration or give it a byte-order mark.",
        suggested_encoding=pattern.encoding),)


def implausible_text(given: CheckInput, found: Found) -> Found:
    """``implausible-reading`` or ``declaration-disputed``: a strict legacy reading unlike
    real text (``conflicts_text``), or with another language's letters (``disputes``).

    Not for a BOM's or the detector's reading (the detector is what would be asked), a
    lossy one, wide text, without a detector (neither check asks anything without one), or
    when ``utf8_under_legacy`` already found the body UTF-8.
    """
    if (given.encoding in UNICODE or given.source in (Source.BOM, Source.DETECTOR)
            or given.lossy or given.wide or given.detector is None
            or (found and any(c.kind == "utf8-under-legacy" for c in found))):
        return ()   # (without a detector, neither asks anything)
    body, encoding = given.body, given.encoding
    # the window both read, read once (``textsample``): a legacy reading with non-ASCII bytes
    sample = (text_sample(body, encoding)
              if encoding in SINGLE_BYTE_ENCODINGS and not is_ascii(body) else None)
    reading = None
    # each is asked only when the sample leaves it something to find (ESC: ISO-2022-JP's
    # tell, which the implausible reading looks for apart from the window)
    if sample is None or sample.doubt or ESC in body:
        reading = conflicts_text.implausible_reading(   # who said it: worded only for one
            body, encoding, given.said, given.detector,
            doubt=None if sample is None else sample.doubt)
    if reading is None and (sample is None or disputes.tell(sample.tells, encoding)):
        reading = disputes.letters_of_another_language(
            body, encoding, given.said, given.detector,
            tells=None if sample is None else sample.tells)
    return () if reading is None else (reading,)


def ascii_label_escapes(given: CheckInput, found: Found) -> Found:
    """``implausible-reading``: ISO-2022-JP escapes under a declared label that reads them
    as text (``disputes``); not when ``implausible_text`` already reported the reading."""
    if (ESC not in given.body or given.source not in DECLARED or given.lossy
            or given.wide
            or (found and any(c.kind == "implausible-reading" for c in found))):
        return ()
    escapes = disputes.escapes_under_ascii_label(given.body, given.encoding, given.said)
    return () if escapes is None else (escapes,)


def binary_body(given: CheckInput, found: Found) -> Found:
    """``binary-body``: a body that is no text (``conflicts_text``); wide text is text."""
    if given.wide:
        return ()
    binary = conflicts_text.binary_body(given.body, given.encoding)
    return () if binary is None else (binary,)
