"""Evidence from the text itself against a successful decode: a reading unlike real text, and
a body that is no text at all.

Every byte is valid windows-1252, so a Shift_JIS, KOI8-R or windows-1250 page under a wrong
``iso-8859-1`` declaration decodes "successfully" into characters that do not belong. Only
single-byte decisions are checked: a wrong multi-byte declaration fails its strict decode.
``utf8-under-legacy`` (``conflicts.py``) catches UTF-8 bytes; ``implausible_reading`` catches
the rest: when words of the decision's reading of a sample hold characters that do not belong
in text (``_plausibility``: a symbol between two letters, a control character, a case turn;
not a symbol beside one letter or digit, as in ``x²``, ``1º``, ``±5``), the detector is asked,
and when it answers surely with another encoding that reads the sample with at most half the
implausible characters per non-ASCII one, that is reported, with the override to make.

It errs towards silence on correct pages: the detector runs only on such words (correct
prose almost never has one), an unsure answer is no evidence, and the other reading must be
clearly better. Measured on the bench corpus (1,478 right single-byte pages, the reviewers'
math, currency, ordinal and stray-C1 pages among them): none flagged; of 1,567 pages decoded
as windows-1252 when they are not, two in three flagged (the rest are short, or differ
from windows-1252 in a letter or two that read as letters). Cost: one decode of a 2 KiB
sample per single-byte decision with non-ASCII bytes, and the detector on the pages that
fail that test.

Deviation (from the sample the detectors see): a sample whose text outside markup is all
ASCII is not doubted; the detectors' sample gives the markup back then, and this check read
attributes and scripts as the page's words.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from ..whatwg.decoders import ESC, SINGLE_BYTE_ENCODINGS, decode_replace
from ..whatwg.labels import get_encoding
from ..wording import quoted
from ._agreement import QUICK_SAMPLE, QUICK_WORDS
from ._bytetest import may_be_implausible, non_latin_letters
from ._plausibility import MAX_IMPLAUSIBLE_RATE, implausibility, implausible_words
from .detect import sample, sample_text, sample_window, sample_window_words
from .models import Conflict, Severity
from .resolve import Detector
from .textsample import BINARY_HEAD, control_bytes_in_head
from .utf8scan import is_ascii

__all__ = ["BetterReading", "better_reading", "binary_body", "implausible_characters",
           "implausible_reading"]

# More than 1% of bytes text never holds (``detect.CONTROL_BYTES``) in the first 4 KiB
# (``textsample.BINARY_HEAD``) is binary (as detect._binary).
_WIDE = frozenset({"utf-16le", "utf-16be", "utf-32le", "utf-32be"})


@dataclass(frozen=True, slots=True)
class BetterReading:
    """The detector's reading of bytes whose ``encoding`` reading looks unlike real text."""

    encoding: str          # the detector's encoding
    text: str              # the bytes read in it
    what: str              # what is wrong with the first reading, in words
    sure: bool             # the detector was sure (``Detection.needs_review`` was False)
    flawless: bool         # the better reading has no implausible character at all


def better_reading(part: bytes, encoding: str, text: str, detector: Detector, *,
                   sure_only: bool = True, whole: bytes | None = None) -> BetterReading | None:
    """The detector's reading of ``part`` when ``text`` (its reading in ``encoding``) holds
    words unlike real text and the detector's has at most half as many implausible characters
    per non-ASCII one; ``None`` otherwise. ``sure_only`` refuses an unsure detector (the
    decision's rule); the Bytes view asks without it for a short pasted text, and says so.
    ``whole`` is the body ``part`` was sampled from, where escape characters are counted.
    """
    if part.isascii():  # 7-bit: ISO-2022-JP's escape sequences are the only tell
        count = (part if whole is None else whole).count(b"\x1b")
        bad = float(count)
        what = f"{count} escape characters (ESC) that text never holds"
    else:
        bad, count = implausibility(text, QUICK_WORDS)
        # A symbol beside one letter (x², 1º, ±5) is text; a word needs a strong sign.
        strong = implausible_words(text, QUICK_WORDS, strong=True) if bad >= 1 else []
        if not strong:
            return None
        examples = ", ".join(quoted(w if len(w) <= 24 else w[:24] + "…") for w in strong[:3])
        holds = "holds" if len(strong) == 1 else "hold"
        what = (f"{len(strong)} of its words {holds} characters that do not belong in text "
                f"({examples})")
    try:
        found = detector(part)
    except Exception:  # a third-party detector must not break the decision
        return None
    other = get_encoding(found.encoding) if found is not None else None
    if (found is None or (sure_only and found.needs_review) or other is None
            or other in (encoding, "replacement")):
        return None  # an unsure detector is no evidence against a strict decode
    reading = decode_replace(part, other)[0]
    other_bad, other_count = implausibility(reading, QUICK_WORDS)
    if reading == text or other_bad / max(other_count, 1) > bad / max(count, 1) / 2:
        return None
    return BetterReading(other, reading, what, not found.needs_review, not other_bad)


def implausible_reading(body: bytes, encoding: str, said: str | Callable[[], str],
                        detector: Detector | None, *,
                        doubt: bool | None = None) -> Conflict | None:
    """An ``implausible-reading`` conflict when ``encoding``'s text looks unlike real text
    and ``detector`` reads the bytes as another encoding, clearly more plausibly.

    ``said`` names who chose ``encoding`` ("The <meta> declaration says 'iso-8859-1'"), or
    words it when called (only a page with the conflict pays for the wording). ``doubt`` is
    the byte test over the sample's window when the caller has it (``textsample``'s
    ``TextSample.doubt``, the same answer as the test below, read in one compiled pass).

    >>> from encoding_core.decision.detect import default_detector
    >>> body = "<p>日本語のテキストです。東京都の天気は晴れ。</p>".encode("shift_jis")
    >>> implausible_reading(body, "windows-1252", "The header says it", default_detector).kind
    'implausible-reading'
    """
    if (detector is None or encoding not in SINGLE_BYTE_ENCODINGS
            or (is_ascii(body) and ESC not in body)):
        return None  # a wrong multi-byte declaration fails its strict decode instead
    if ESC in body:  # (ISO-2022-JP's tell is in the markup-free ASCII sample)
        part = sample(body, QUICK_SAMPLE, 0)
    else:
        # the byte test over the sample's raw window finds all it would in the sample (see
        # sample_window), so a no here is a no there, without stripping the markup first; an
        # ASCII window (the text starts after it) is a no. Where the window's tags pair up,
        # it is tested with them read as spaces (sample_window_words): then the tags' letters
        # no longer touch the text. Otherwise the byte test is skipped for a non-Latin
        # script, where tags touching the text make nearly every window a maybe.
        words = sample_window_words(body, QUICK_SAMPLE) if doubt is None else None
        if doubt is not None:
            if not doubt:
                return None
        elif words is not None:
            if words.isascii() or not may_be_implausible(words, encoding):
                return None
        else:
            window = sample_window(body, QUICK_SAMPLE)
            if window.isascii() or (not non_latin_letters(encoding)
                                    and not may_be_implausible(window, encoding)):
                return None
        part = sample_text(body, QUICK_SAMPLE)
        if part.isascii():
            # Deviation (from the sample detectors see): text whose non-ASCII bytes are all
            # in markup (attributes, scripts, comments) has no word to doubt, where the
            # detectors' sample would give the markup back and the test would read it.
            return None
    if not part.isascii() and not may_be_implausible(part, encoding):
        return None  # no word can score as implausible: the C-speed test says so exactly
    text = decode_replace(part, encoding)[0]
    better = better_reading(part, encoding, text, detector, whole=body)
    if better is None:
        return _unlike_text(part, encoding, text, said, detector)
    other, what = better.encoding, better.what
    return Conflict(
        "implausible-reading", Severity.ERROR,
        f"{said() if callable(said) else said}, and the bytes decode strictly, but the text "
        "reads unlike real text: "
        f"{what}. The detector reads the page as {other}, "
        + ("with none out of place." if better.flawless else "with fewer characters out of place."),
        f"An override to {other} would read them so; check the two side by side in Compare.",
        suggested_encoding=other)


def _unlike_text(part: bytes, encoding: str, text: str, said: str | Callable[[], str],
                 detector: Detector) -> Conflict | None:
    """Seed 000's "a low confidence is no answer", from the other side: a reading with at
    least ``MAX_IMPLAUSIBLE_RATE`` implausible characters per non-ASCII one, in words that
    real text never has (``c½ur``, ``annŽe``), is no reading either, whether or not the
    detector is sure of a better one; so is a reading with such words that the detector,
    unsure, reads with no implausible character at all. Flagged with the detector's unsure
    guess, if any; no override proposed."""
    if part.isascii():
        return None
    bad, count = implausibility(text, QUICK_WORDS)
    strong = implausible_words(text, 3, strong=True) if bad >= 1 else []
    if not strong:
        return None
    guess = better_reading(part, encoding, text, detector, sure_only=False)
    # below the rate, an unsure detector's flawless reading of the same bytes is the support
    if bad / max(count, 1) < MAX_IMPLAUSIBLE_RATE and (guess is None or not guess.flawless):
        return None
    examples = ", ".join(quoted(w if len(w) <= 24 else w[:24] + "…") for w in strong)
    return Conflict(
        "implausible-reading", Severity.ERROR,
        f"{said() if callable(said) else said}, and the bytes decode strictly, but the text "
        f"reads unlike real text: {bad:g} implausible characters in {count} non-ASCII ones "
        f"({examples}). "
        + (f"The detector's unsure guess is {guess.encoding}." if guess is not None else
           "No encoding the detector names reads it better."),
        (f"Compare {encoding} and {guess.encoding} side by side before any override."
         if guess is not None else
         "Look at the bytes (Bytes view) and the source of the page before trusting this text."),
        suggested_encoding=None)


def implausible_characters(text: str) -> int:
    """How many characters of ``text`` do not belong in real text (``_plausibility``: box
    drawing, controls, symbols inside words, case turns, words mixing alphabets), rounded up.

    >>> implausible_characters("Müller, Straße"), implausible_characters("Mц╪ller, Straц÷e")
    (0, 4)
    """
    return math.ceil(implausibility(text)[0])


def binary_body(body: bytes, encoding: str) -> Conflict | None:
    """A ``binary-body`` conflict when the body holds bytes text never does.

    >>> binary_body(bytes.fromhex("89504e470d0a1a0a0000000d49484452"), "windows-1252").kind
    'binary-body'
    >>> binary_body(b"<p>plain</p>", "windows-1252") is None
    True
    """
    if encoding in _WIDE:  # UTF-16 and UTF-32 text is full of NUL bytes
        return None
    head = min(len(body), BINARY_HEAD)
    controls = control_bytes_in_head(body)   # (compiled: a count, with no copy of the head)
    if controls <= head // 100:
        return None
    return Conflict(
        "binary-body", Severity.WARNING,
        f"The body does not look like text: {controls} of its first {head} bytes are "
        "control bytes that text never holds.",
        "No encoding reads it as text: check the Content-Type and the URL (an image, a PDF, "
        "a body still compressed?). The Bytes view shows what it holds.")
