"""One pass over a body's bytes: where its ASCII ends, how it reads as UTF-8, NULs at its head.

``body_scan`` reads a body once, at C speed, into a ``ByteScan``: the first non-ASCII byte,
the valid multi-byte UTF-8 sequences and the malformed ones (each maximal subpart one, as the
Encoding Standard's UTF-8 decoder replaces it: https://encoding.spec.whatwg.org/#utf-8-decoder),
where the first malformed one starts, and whether a NUL is among the first ``NUL_WINDOW``
bytes. ``decode`` asks it once and hands the answer to the walk's checks.

The pass is the compiled extension ``_utf8scan`` (Cython, built by ``setup.py`` where a C
compiler is found, beside ``_bytetest``'s ``_bytetest_c``). ``scan_reference`` is the same
answer in pure Python, from Python's codecs; the tests hold the two equal on any bytes
(Hypothesis). ``encoding_core.speedups`` loads the extensions and says which are in use
(``speedups.SPEEDUPS``); ``ENCODING_TRIAGE_PURE=1`` forces the references. Without the
extension ``body_scan`` gives None: the reference costs a whole decode with replacement (the
slowest there is on a legacy page), so the pure path keeps asking only what it needs, when
it needs it (``utf8profile``'s functions).
"""

from __future__ import annotations

import codecs
import threading
from dataclasses import dataclass
from types import ModuleType

from ..speedups import compiled

__all__ = ["BYTETEST_C", "NUL_WINDOW", "REMEMBER_FROM", "ByteScan", "body_scan", "compiled_module",
           "first_non_ascii_fast", "first_non_ascii_reference", "forget_last_scan", "is_ascii",
           "scan_reference", "valid_multibyte_fast"]

#: How far ``ByteScan.nul_head`` looks: NUL bytes are rare in text, and UTF-16 or UTF-32 laid
#: out without a BOM (``nulpattern``) shows them at once.
NUL_WINDOW = 4096


def compiled_module(name: str) -> ModuleType | None:
    """The compiled extension ``encoding_core.decision.<name>``, or None (``speedups.compiled``)."""
    return compiled(f"{__package__}.{name}")


# each loaded on its own, as ``speedups.SPEEDUPS`` reports them (each tested equal to its
# reference, so one without the other answers the same)
_C = compiled_module("_utf8scan")
#: ``_bytetest``'s compiled pass (``_bytetest_c.pyx``), or None
BYTETEST_C = compiled_module("_bytetest_c")


@dataclass(frozen=True, slots=True)
class ByteScan:
    """What one pass over a body finds (offsets are -1 when there is none)."""

    first_non_ascii: int
    multibyte: int
    invalid: int
    first_error: int
    nul_head: bool


def body_scan(body: bytes) -> ByteScan | None:
    """The body's ``ByteScan`` from the compiled pass; None without it (see the module).

    >>> found = body_scan("caf\\u00e9 \\u2019".encode() + b"\\xff")
    >>> found is None or found == ByteScan(3, 2, 1, 9, False)
    True
    """
    if _C is None or type(body) is not bytes:
        return None
    if len(body) < REMEMBER_FROM:
        return ByteScan(*_C.scan(body, NUL_WINDOW))
    last: tuple[bytes, ByteScan] | None = getattr(_last, "scan", None)
    if last is not None and last[0] is body:
        return last[1]
    found = ByteScan(*_C.scan(body, NUL_WINDOW))
    _last.scan = (body, found)
    return found


def is_ascii(body: bytes) -> bool:
    """Whether every byte of ``body`` is ASCII: from its scan when one is remembered (a
    decision that asked ``body_scan`` asks this five times or more, and ``bytes.isascii``
    reads a page's ASCII head again each time: 4 us over 120 KB), else ``bytes.isascii``
    (which stops at the first non-ASCII byte, where a scan would read on to the end).

    >>> is_ascii(b"plain"), is_ascii("caf\u00e9".encode())
    (True, False)
    """
    last: tuple[bytes, ByteScan] | None = getattr(_last, "scan", None)
    if last is not None and last[0] is body:
        return last[1].first_non_ascii < 0
    return body.isascii()


#: From this size on, a body's scan is remembered per thread with its ``bytes`` object
#: (immutable: the same object scans the same) until the next such body or
#: ``forget_last_scan``, as ``whatwg.decoders`` remembers its last decode: ``decode`` forgets
#: both when it returns; a caller of the scans outside ``decode`` holds one body until its
#: next one. A decision asks about an undeclared or failed body's UTF-8 three times or more
#: (the walk's guard, the detector's UTF-8 test, the mixed-page and rare-Latin checks): on a
#: 10 MiB UTF-8 page with one bad byte that was five whole scans, about half of the decision
#: (bench_memory); on the generated corpus's undeclared legacy pages (20 KB on average) 2.85
#: scans of 2-400 us a page. A hit costs 0.1 us, a scan of 256 legacy bytes 1.3 us.
REMEMBER_FROM = 256
_last = threading.local()


def forget_last_scan() -> None:
    """Let go of the body ``body_scan`` remembers in this thread: ``decision.decode``
    calls it when it returns, so no page is held after its decision."""
    _last.scan = None


def scan_reference(body: bytes) -> ByteScan:
    """``body_scan``'s answer in pure Python, from Python's codecs (which decode UTF-8 as the
    Encoding Standard does, each maximal subpart one U+FFFD).

    >>> scan_reference(b"\\x00caf\\xc3\\xa9 \\xe2\\x80")
    ByteScan(first_non_ascii=4, multibyte=1, invalid=1, first_error=7, nul_head=True)
    """
    nul = body.find(b"\x00", 0, NUL_WINDOW) >= 0
    first = first_non_ascii_reference(body)
    if first < 0:
        return ByteScan(-1, 0, 0, -1, nul)
    text = body.decode("utf-8", "replace")
    # a U+FFFD already in the bytes is a valid sequence, not an error
    invalid = text.count("\ufffd") - body.count(b"\xef\xbf\xbd")
    ascii_bytes = len(body.translate(None, _HIGH_BYTES))
    try:
        codecs.utf_8_decode(memoryview(body)[first:], "strict", True)
        first_error = -1
    except UnicodeDecodeError as exc:
        first_error = first + exc.start
    return ByteScan(first, len(text) - ascii_bytes - invalid, invalid, first_error, nul)


_HIGH_BYTES = bytes(range(0x80, 0x100))
_MAX_STEP = 16 * 1024


def first_non_ascii_reference(data: bytes) -> int:
    """The offset of the first non-ASCII byte of ``data``, or -1 when there is none.

    ``bytes.isascii`` over doubling steps, then halving: C speed, where a regular
    expression walks byte by byte (five times as slow on a page's ASCII head).

    >>> first_non_ascii_reference(b"caf\\xc3\\xa9"), first_non_ascii_reference(b"cafe")
    (3, -1)
    """
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
    return low


def valid_multibyte_fast(body: bytes) -> int | None:
    """The valid multi-byte sequences of ``body`` when it is all valid UTF-8, -1 as soon as
    it is not; None without the compiled pass (``utf8profile.valid_utf8_profile`` then
    decodes).

    >>> valid_multibyte_fast("café ’".encode()) in (2, None)
    True
    """
    if _C is None or type(body) is not bytes:
        return None
    found: int = _C.valid_multibyte(body)
    return found


def first_non_ascii_fast(data: bytes) -> int:
    """``first_non_ascii_reference``, compiled when the extension is there."""
    if _C is not None and type(data) is bytes:
        found: int = _C.first_non_ascii(data)
        return found
    return first_non_ascii_reference(data)
