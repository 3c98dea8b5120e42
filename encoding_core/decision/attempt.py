"""One encoding's reading of a body: ``decode_as`` and its result, ``DecodeAttempt``.

Strict first, then (only when asked) with replacement; a body cut inside its last character
is recognised as truncated rather than malformed (see ``truncated_attempt``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..whatwg.bom import bom_sniff
from ..whatwg.decoders import BOM_ONLY_ENCODINGS, decode_replace, decode_strict, decodes_strictly
from ..whatwg.labels import get_encoding
from .models import slot_builder

__all__ = ["MAX_ERROR_OFFSETS", "DecodeAttempt", "as_body", "decode_as", "failed_attempt",
           "failed_attempt_at", "incomplete_tail", "new_attempt", "strict_attempt",
           "truncated_attempt"]

#: At most this many malformed-sequence offsets are kept in a result.
MAX_ERROR_OFFSETS = 1000


@dataclass(frozen=True, slots=True)
class DecodeAttempt:
    """``body`` decoded under one encoding: strictly if it could, else with replacement.

    ``truncated`` marks a body that decodes strictly but for an incomplete character in its
    last bytes (then ``strict_ok`` is true, ``replacements`` 1, ``error_offsets`` where it
    starts): a body cut by a size cap or a crawler's record limit.
    """

    encoding: str
    text: str
    strict_ok: bool
    error_offset: int | None
    replacements: int
    error_offsets: tuple[int, ...]
    truncated: bool = False


#: ``DecodeAttempt`` from all seven fields, in their order (``models.slot_builder``).
new_attempt: Callable[..., DecodeAttempt] = slot_builder(DecodeAttempt)

# Bytes that complete an incomplete final character in some web encoding: UTF-8
# continuations, a UTF-16 low surrogate or second byte, CJK trail bytes, gb18030's
# four-byte form.
_COMPLETIONS = (b"\x80", b"\xa1", b"\x40", b"\x00", b"\xdc", b"\x80\x80", b"\xa1\xa1",
                b"\x81\x30", b"\x00\xdc", b"\xdc\x00", b"\x80\x80\x80", b"\x30\x81\x30")
_MAX_INCOMPLETE = 3


def truncated_attempt(body: bytes, encoding: str, start: int,
                       skip: int = 0) -> DecodeAttempt | None:
    """The attempt for a body whose only error is an incomplete character at its very end.

    Only when the bytes before it hold non-ASCII text that decodes strictly: ``caf\\xe9`` is
    windows-1252 more likely than UTF-8 cut after a lead byte, and is not taken for truncation.
    """
    if (not 0 < len(body) - start <= _MAX_INCOMPLETE   # (no copy of a long head or tail)
            or not incomplete_tail(body[start:], encoding) or body[skip:start].isascii()):
        return None
    try:
        head = decode_strict(body[skip:start], encoding)
    except UnicodeDecodeError:
        return None
    return new_attempt(encoding, head + "\ufffd", True, None, 1, (start,), True)


def incomplete_tail(tail: bytes, encoding: str) -> bool:
    """Whether ``tail`` (at most 3 bytes) is a character of ``encoding`` cut short.

    >>> incomplete_tail(b"\\xe2\\x80", "utf-8"), incomplete_tail(b"\\xff", "utf-8")
    (True, False)
    """
    return (0 < len(tail) <= _MAX_INCOMPLETE
            and any(decodes_strictly(tail + more, encoding) for more in _COMPLETIONS))


def as_body(body: object) -> bytes:
    """``body`` as ``bytes``: a ``bytearray``, ``memoryview`` or ``bytes`` subclass copied
    into one (the decision remembers and compares bodies by their ``bytes`` object); a
    ``TypeError`` that says so for anything else (a ``str`` is text already).

    >>> as_body(memoryview(b"caf\\xc3\\xa9"))
    b'caf\\xc3\\xa9'
    """
    if isinstance(body, str):
        raise TypeError("decode takes a body's bytes; this is a str (text already decoded): "
                        "encode it, or pass the bytes as received")
    try:
        return bytes(memoryview(body))  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"decode takes a body's bytes (bytes, bytearray, memoryview), not "
                        f"{type(body).__name__}") from None


def decode_as(body: bytes, encoding: str, *, skip: int = 0,
              failed_at: int | None = None) -> DecodeAttempt:
    """Implements Encoding "decode" for one encoding: strict first, then replacement.

    https://encoding.spec.whatwg.org/#decode

    ``encoding`` is a label or name; a BOM of that same encoding is skipped (as "UTF-8
    decode" does for UTF-8). ``skip`` drops that many leading bytes first (a BOM already
    sniffed). Offsets are into ``body``. ``failed_at``: a strict decode of the same bytes
    already failed there (``strict_attempt``), so it is not tried again.

    >>> decode_as(b"caf\\xe9", "latin1").text
    'café'
    >>> attempt = decode_as(b"caf\\xe9", "utf-8")
    >>> (attempt.strict_ok, attempt.error_offset, attempt.replacements, attempt.text)
    (False, 3, 1, 'caf\\ufffd')
    """
    if type(body) is not bytes:
        body = as_body(body)
    name = get_encoding(encoding) or (encoding if encoding in BOM_ONLY_ENCODINGS else None)
    if name is None or name == "replacement":
        raise ValueError(f"cannot decode as {encoding!r}: not a WHATWG encoding label")
    if skip == 0:
        sniffed = bom_sniff(body)
        if sniffed is not None and sniffed[0] == name:
            skip = sniffed[1]
    data = body[skip:] if skip else body
    if failed_at is not None:
        first = failed_at
    else:
        try:
            return new_attempt(name, decode_strict(data, name), True, None, 0, (), False)
        except UnicodeDecodeError as exc:
            first = exc.start + skip
    text, offsets = decode_replace(data, name)
    return new_attempt(name, text, False, first, len(offsets),
                       tuple(o + skip for o in offsets[:MAX_ERROR_OFFSETS]), False)


def strict_attempt(body: bytes, encoding: str) -> DecodeAttempt:
    """A strict attempt only: on failure, no text and ``replacements`` -1 (not yet counted).

    ``decode_as`` counts the replacements when they are needed; the walk rarely needs them.
    A body that is only truncated counts as decoded (``truncated_attempt``).
    """
    try:
        return new_attempt(encoding, decode_strict(body, encoding), True, None, 0, (), False)
    except UnicodeDecodeError as exc:
        return failed_attempt(body, encoding, exc)


def failed_attempt(body: bytes, encoding: str, exc: UnicodeDecodeError) -> DecodeAttempt:
    """The attempt a failed strict decode of ``body`` makes (``exc``): truncated when only an
    incomplete last character failed, else no text and ``replacements`` -1 (not yet counted)."""
    return failed_attempt_at(body, encoding, exc.start)


def failed_attempt_at(body: bytes, encoding: str, start: int) -> DecodeAttempt:
    """``failed_attempt`` for a strict decode that failed at offset ``start`` (for a caller
    that lets go of the error first: on a long body it holds a copy of the bytes)."""
    return (truncated_attempt(body, encoding, start)
            or new_attempt(encoding, "", False, start, -1, (), False))
