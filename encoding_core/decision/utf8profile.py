"""How a body reads as UTF-8: valid multi-byte sequences against malformed ones.

The evidence behind two judgements: a legacy declaration over bytes that are valid UTF-8
(``conflicts``), and a page that is *mostly* UTF-8 with a few stray bytes, which the walk
will not hand to a single-byte fallback (``resolve``).
"""

from __future__ import annotations

import codecs
import threading
from collections.abc import Sequence
from dataclasses import dataclass

from ..whatwg.decoders import decode_utf8_if_few_errors

__all__ = ["Utf8Profile", "ascii_byte_count", "first_non_ascii", "forget_last_body",
           "may_be_mostly_utf8", "utf8_profile", "valid_utf8_profile"]

_HIGH_BYTES = bytes(range(0x80, 0x100))
# The last body counted in this thread, and its profile: the detector's "mostly UTF-8" test
# and the walk's guard ask about the same body one after the other, and the count is a whole
# decode (62 ms on a 10 MiB legacy page). Holds one body per thread until the next count.
_last = threading.local()
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


def forget_last_body() -> None:
    """Let go of the body this module's functions remember in this thread (``decode`` calls
    it when it returns)."""
    _last.__dict__.clear()


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


_MAX_STEP = 16 * 1024


def first_non_ascii(data: bytes) -> int:
    """The offset of the first non-ASCII byte of ``data``, or -1 when there is none.

    ``bytes.isascii`` over doubling steps, then halving: C speed, where a regular
    expression walks byte by byte (five times as slow on a page's ASCII head).

    >>> first_non_ascii(b"caf\\xc3\\xa9"), first_non_ascii(b"cafe"), first_non_ascii(b"")
    (3, -1, -1)

    The last non-ASCII answer is remembered per thread with its ``bytes`` object: one
    decision asks about the same body three times (the UTF-8 check, the sample window, the
    sample).
    """
    last: tuple[bytes, int] | None = getattr(_last, "first", None)
    if last is not None and last[0] is data:
        return last[1]
    if data.isascii():
        return -1
    low, size = 0, 256  # data[:low] is ASCII; data[:low + size] is not, once found
    while data[low:low + size].isascii():
        # doubling to at most 16 KiB: each slice is a copy, and one that overshoots a long
        # ASCII head by as much again would be halved back through as many copies
        low, size = low + size, min(size * 2, _MAX_STEP)
    while size > 1:
        half = size // 2
        if data[low:low + half].isascii():
            low += half
            size -= half
        else:
            size = half
    if type(data) is bytes:  # (immutable: the same object has the same answer)
        _last.first = (data, low)
    return low


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
    if _starts_valid(body):
        return True
    last: tuple[bytes, int, int, int] | None = getattr(_last, "roles", None)
    if last is not None and last[0] is body:
        high, conts, most = last[1:]
    else:
        roles = body.translate(_UTF8_ROLES)
        high, conts, most = len(body) - roles.count(b"."), roles.count(b"C"), roles.count(b"LC")
        if type(body) is bytes:
            _last.roles = (body, high, conts, most)
    fewest = high - conts - most  # the lone leads and the never bytes
    return most > 0 and most >= ratio * fewest


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
    last: tuple[bytes, Utf8Profile] | None = getattr(_last, "profile", None)
    if last is not None and last[0] is body:  # the detector counted this very body
        return last[1]
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
    if type(body) is bytes:  # (immutable: the same object has the same profile)
        _last.profile = (body, found)
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


