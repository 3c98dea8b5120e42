"""How a body reads as UTF-8: valid multi-byte sequences against malformed ones.

The evidence behind two judgements: a legacy declaration over bytes that are valid UTF-8
(``conflicts``), and a page that is *mostly* UTF-8 with a few stray bytes, which the walk
will not hand to a single-byte fallback (``resolve``).
"""

from __future__ import annotations

import codecs
from collections.abc import Sequence
from dataclasses import dataclass

from ..whatwg.decoders import decode_utf8_if_few_errors
from .utf8scan import body_scan, first_non_ascii_fast, valid_multibyte_fast

__all__ = ["Utf8Profile", "ascii_byte_count", "first_non_ascii", "may_be_mostly_utf8",
           "may_hold_utf8_sequence", "utf8_profile", "valid_utf8_profile"]

_HIGH_BYTES = bytes(range(0x80, 0x100))
#: Bytes from the first non-ASCII one that ``valid_utf8_profile`` decodes before the rest.
_FIRST_LOOK = 64
#: A mostly UTF-8 body with at most this many malformed sequences is counted by the decode
#: that also finds them, which the lossy reading then reuses; more, by Python's "replace",
#: faster when errors are many. Only speed depends on it.
_FEW_ERRORS = 1000


@dataclass(frozen=True, slots=True)
class Utf8Profile:
    """How the body reads as UTF-8: multi-byte sequences that are valid, and malformed ones."""

    multibyte: int
    invalid: int

    @property
    def valid(self) -> bool:
        """The whole body is valid UTF-8."""
        return self.invalid == 0

    @property
    def mostly_utf8(self) -> bool:
        """More valid multi-byte sequences than malformed ones (and at least one)."""
        return self.multibyte > 0 and self.multibyte >= self.invalid


def ascii_byte_count(data: bytes) -> int:
    """How many bytes of ``data`` are ASCII.

    A text decoded from ``data`` as UTF-8, strictly or with U+FFFD for each malformed
    sequence, has exactly these ASCII characters (an ASCII byte is never part of a
    multi-byte or malformed sequence), so its non-ASCII characters are ``len(text)`` minus
    this: no pass over the text.

    >>> ascii_byte_count(b"caf\\xc3\\xa9 \\xff")
    4
    """
    return len(data.translate(None, _HIGH_BYTES))


def first_non_ascii(data: bytes) -> int:
    """The offset of the first non-ASCII byte of ``data``, or -1 when there is none
    (``utf8scan``: compiled, or ``bytes.isascii`` over halving steps).

    >>> first_non_ascii(b"caf\\xc3\\xa9"), first_non_ascii(b"cafe"), first_non_ascii(b"")
    (3, -1, -1)
    """
    return first_non_ascii_fast(data)


# Each byte's part in UTF-8: ASCII ".", continuation "C", lead "L" (C2 to F4), never "X"
_UTF8_ROLES = bytes(46 if b < 0x80 else 67 if b < 0xC0 else 76 if 0xC2 <= b <= 0xF4 else 88
                    for b in range(256))


def may_be_mostly_utf8(body: bytes, ratio: int = 1) -> bool:
    """False only when ``body`` cannot have ``ratio`` times as many valid multi-byte UTF-8
    sequences as malformed ones (and at least one), by its bytes' roles alone: C speed, no
    decode (a legacy page read as UTF-8 is an error a letter, the slowest decode there is).

    Each valid sequence is a lead byte followed by a continuation byte, and holds no other
    lead, so there are at most as many as such pairs (``most``). A lead byte not followed by
    a continuation byte, and a byte no sequence holds (C0, C1, F5 to FF), are each a malformed
    sequence of their own, so there are at least as many as those (``fewest``); pairs that are
    no valid sequence (E0 80, ED A0, F4 90, one cut at the end) count in ``most``, which only
    loosens the bound. A body whose first non-ASCII bytes are valid UTF-8 is a maybe at once:
    its count is the answer, and counting pairs in UTF-8 (half its bytes) is slow.

    >>> may_be_mostly_utf8("Größe café".encode()), may_be_mostly_utf8("Größe".encode("cp1252"))
    (True, False)
    """
    scanned = body_scan(body)
    if scanned is not None:  # the exact count, from the compiled pass: no bound needed
        return scanned.multibyte > 0 and scanned.multibyte >= ratio * scanned.invalid
    if _starts_valid(body):
        return True
    roles = body.translate(_UTF8_ROLES)
    high, conts, most = len(body) - roles.count(b"."), roles.count(b"C"), roles.count(b"LC")
    fewest = high - conts - most  # the lone leads and the never bytes
    return most > 0 and most >= ratio * fewest


def may_hold_utf8_sequence(body: bytes) -> bool:
    """False only when ``body`` holds no valid multi-byte UTF-8 sequence (exact when the
    compiled scan is in use, else by its bytes' roles: ``may_be_mostly_utf8`` with no ratio).

    >>> may_hold_utf8_sequence("café".encode()), may_hold_utf8_sequence("café".encode("cp1252"))
    (True, False)
    """
    return may_be_mostly_utf8(body, 0)


def utf8_profile(body: bytes, attempt: object | None = None) -> Utf8Profile:
    """Count valid multi-byte UTF-8 sequences and malformed ones in ``body``.

    ``attempt`` may be an existing UTF-8 ``DecodeAttempt`` to reuse.

    >>> utf8_profile("café ’".encode())
    Utf8Profile(multibyte=2, invalid=0)
    >>> utf8_profile(b"caf\\xe9 \\xc3\\xa9")
    Utf8Profile(multibyte=1, invalid=1)
    """
    if body.isascii():
        return Utf8Profile(0, 0)
    text = getattr(attempt, "text", None)
    replacements = getattr(attempt, "replacements", None)
    if isinstance(text, str) and isinstance(replacements, int) and replacements >= 0:
        return Utf8Profile(len(text) - ascii_byte_count(body) - replacements, replacements)
    scanned = body_scan(body)
    if scanned is not None:
        return Utf8Profile(scanned.multibyte, scanned.invalid)
    few = _few_errors(body)
    if few is not None:  # (the lossy UTF-8 reading the walk may come to: decoded once)
        text, errors = few
        found = Utf8Profile(len(text) - ascii_byte_count(body) - len(errors), len(errors))
    else:
        # Python's C decoder replaces each maximal subpart with one U+FFFD, as the Encoding
        # Standard's UTF-8 decoder does; U+FFFD already in the bytes is not an error.
        text = body.decode("utf-8", "replace")
        replacements = text.count("\ufffd") - body.count(b"\xef\xbf\xbd")
        found = Utf8Profile(len(text) - ascii_byte_count(body) - replacements, replacements)
    return found


def _starts_valid(body: bytes) -> bool:
    """Whether the first ``_FIRST_LOOK`` bytes from the first non-ASCII one are valid UTF-8
    (a sequence cut by the look is no error); False for an ASCII body."""
    first = first_non_ascii(body)
    if first < 0:
        return False
    try:  # a legacy page fails at once: its first non-ASCII bytes are no UTF-8 sequence
        codecs.utf_8_decode(body[first:first + _FIRST_LOOK], "strict", False)
    except UnicodeDecodeError:
        return False
    return True


def _few_errors(body: bytes) -> tuple[str, Sequence[int]] | None:
    """The lossy UTF-8 reading of a body that is mostly UTF-8 (its first non-ASCII bytes are
    valid and it has at most ``_FEW_ERRORS`` malformed sequences), with where they are; None
    otherwise, at once for a legacy page (whose first non-ASCII bytes are malformed)."""
    return decode_utf8_if_few_errors(body, _FEW_ERRORS) if _starts_valid(body) else None


def valid_utf8_profile(body: bytes) -> Utf8Profile | None:
    """The profile of a body that is valid UTF-8; None as soon as it is not.

    Decoded from the first non-ASCII byte: a page's ASCII head (inline scripts and styles,
    often most of a long page) is valid UTF-8 whatever follows, and decoding it is most of
    the cost for a legacy page, whose first non-ASCII byte is usually already malformed.

    >>> valid_utf8_profile("<p>café ’</p>".encode()), valid_utf8_profile(b"<p>caf\\xe9</p>")
    (Utf8Profile(multibyte=2, invalid=0), None)
    """
    multibyte = valid_multibyte_fast(body)
    if multibyte is not None:   # compiled: one pass, to the first malformed byte
        return Utf8Profile(multibyte, 0) if multibyte >= 0 else None
    first = first_non_ascii(body)
    if first < 0:
        return Utf8Profile(0, 0)
    if not _starts_valid(body):  # a legacy page fails at once
        return None
    try:  # a view, not a copy of the tail; Python's codec is what decode_strict runs for UTF-8
        text = codecs.utf_8_decode(memoryview(body)[first:], "strict", True)[0]
    except UnicodeDecodeError:
        return None
    return Utf8Profile(len(text) - (ascii_byte_count(body) - first), 0)


