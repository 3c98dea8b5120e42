"""utf8scan: the compiled pass and its pure-Python reference give the same answer on any bytes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from encoding_core.decision import utf8scan
from encoding_core.decision.utf8scan import (
    NUL_WINDOW,
    ByteScan,
    body_scan,
    first_non_ascii_fast,
    first_non_ascii_reference,
    scan_reference,
)

# UTF-8 pieces of every length, every kind of malformed sequence, ASCII, NUL and U+FFFD
_PIECES = st.sampled_from([b"a", b" ", b"\x00", b"\xc3\xa9", b"\xe2\x80\x99", b"\xf0\x9f\x98\x80",
                           b"\xe9", b"\x80", b"\xc3", b"\xe2\x80", b"\xff", b"\xef\xbf\xbd",
                           b"\xed\xa0\x80", b"\xc0\xaf", b"\xe0\x80", b"\xf4\x90\x80\x80",
                           b"\xf5", b"\xf0\x9f", b"abcdefgh" * 3])
_BODIES = st.one_of(st.binary(max_size=300), st.lists(_PIECES, max_size=120).map(b"".join))

needs_compiled = pytest.mark.skipif(utf8scan.BYTETEST_C is None,
                                    reason="the compiled extension is not in use")


def _by_the_codec(body: bytes) -> ByteScan:
    """The reference's answer counted character by character from Python's decoder."""
    text = body.decode("utf-8", "replace")
    invalid = text.count("\ufffd") - body.count(b"\xef\xbf\xbd")
    try:
        body.decode("utf-8")
        first_error = -1
    except UnicodeDecodeError as exc:
        first_error = exc.start
    first = next((i for i, b in enumerate(body) if b > 0x7F), -1)
    return ByteScan(first, sum(c > "\x7f" for c in text) - invalid, invalid, first_error,
                    0 in body[:NUL_WINDOW])


@settings(max_examples=400)
@given(_BODIES)
def test_the_reference_counts_as_the_codec_does(body):
    """The pure reference agrees with a character-by-character count of Python's decode."""
    assert scan_reference(body) == _by_the_codec(body)


@needs_compiled
@settings(max_examples=1500)
@given(_BODIES)
def test_the_compiled_scan_is_the_reference(body):
    """The compiled pass gives the reference's answer, and its first non-ASCII byte too."""
    assert body_scan(body) == scan_reference(body)
    assert first_non_ascii_fast(body) == first_non_ascii_reference(body)


@needs_compiled
@given(st.integers(0, 9000), st.sampled_from([b"\x00", b"\xe9", b"\xc3\xa9", b"\xe2\x80"]))
def test_the_compiled_scan_at_every_distance(at, piece):
    """Past the word-at-a-time ASCII skip and the NUL window's edge, at any offset."""
    body = b"x" * at + piece + b"y" * 9
    assert body_scan(body) == scan_reference(body)


def test_pure_when_asked(monkeypatch):
    """ENCODING_TRIAGE_PURE=1 leaves the extension unused; the scan then gives None."""
    monkeypatch.setenv("ENCODING_TRIAGE_PURE", "1")
    assert utf8scan.compiled_module("_utf8scan") is None
    assert utf8scan.compiled_module("_bytetest_c") is None
    monkeypatch.setattr(utf8scan, "_C", None)
    assert body_scan(b"caf\xc3\xa9") is None
    assert first_non_ascii_fast(b"caf\xc3\xa9") == 3


@needs_compiled
@settings(max_examples=1000)
@given(_BODIES)
def test_the_compiled_validity_is_the_reference(body):
    """Valid UTF-8: its multi-byte sequences; else -1, as the full count says."""
    from encoding_core.decision.utf8scan import valid_multibyte_fast

    found = scan_reference(body)
    assert valid_multibyte_fast(body) == (found.multibyte if found.invalid == 0 else -1)


@needs_compiled
def test_a_long_bodys_scan_is_remembered_until_forgotten():
    """From ``REMEMBER_FROM`` on, the same ``bytes`` object is scanned once (the decision asks
    several times when its declaration fails); a short one each time; ``forget`` lets go."""
    long_body = "é".encode() * (utf8scan.REMEMBER_FROM // 2) + b"\xff"
    first = utf8scan.body_scan(long_body)
    assert first is not None and first == scan_reference(long_body)
    assert utf8scan.body_scan(long_body) is first
    assert utf8scan.body_scan(bytes(bytearray(long_body))) == first   # an equal copy: rescanned
    assert utf8scan.body_scan(bytes(bytearray(long_body))) is not first
    short = "é".encode() * 10
    assert utf8scan.body_scan(short) is not utf8scan.body_scan(short)
    utf8scan.forget_last_scan()
    assert utf8scan.body_scan(long_body) is not first


@needs_compiled
def test_decode_holds_no_long_body_after_it_returns():
    """``decode`` scans a 2 MiB UTF-8 page with one bad byte and forgets it when it returns."""
    from encoding_core import decode

    body = "é".encode() * (1 << 20) + b"\xff"
    utf8scan.body_scan(bytes(bytearray(body)))   # something held before, to be let go of
    assert getattr(utf8scan._last, "scan", None) is not None
    found = decode(body, "text/html; charset=utf-8")
    assert found.encoding == "utf-8" and found.replacements == 1
    assert getattr(utf8scan._last, "scan", None) is None


@given(_BODIES)
@settings(max_examples=300)
def test_is_ascii_is_bytes_isascii_remembered_or_not(body: bytes) -> None:
    """``is_ascii`` answers from a remembered scan when there is one, else ``bytes.isascii``:
    the same answer either way (and a copy of a remembered body is not taken for it)."""
    utf8scan.forget_last_scan()
    assert utf8scan.is_ascii(body) is body.isascii()
    long_body = body * (utf8scan.REMEMBER_FROM // max(len(body), 1) + 1) or b"a" * 300
    utf8scan.body_scan(long_body)   # remembered from REMEMBER_FROM on
    assert getattr(utf8scan._last, "scan", None) is None or utf8scan._last.scan[0] is long_body
    assert utf8scan.is_ascii(long_body) is long_body.isascii()
    other = bytes(bytearray(long_body)) + b"\xe9"
    assert utf8scan.is_ascii(other) is False
    utf8scan.forget_last_scan()


@needs_compiled
def test_a_pages_scan_is_asked_once_per_decision():
    """An undeclared legacy page's decision scans it once: the detector's UTF-8 test, the
    walk's guard, the mixed-page and rare-Latin checks and the ASCII tests share one scan
    (``REMEMBER_FROM`` is small), and ``decode`` lets it go when it returns."""
    from encoding_core import decode

    body = ("<p>" + "Größere Städte, schöne Grüße. " * 40 + "</p>").encode("windows-1252")
    assert len(body) >= utf8scan.REMEMBER_FROM
    scans = []
    real_scan = utf8scan._C.scan

    class Counting:   # the compiled module, its scans counted
        def __getattr__(self, name: str) -> object:
            return getattr(compiled, name)

        @staticmethod
        def scan(data: bytes, window: int) -> object:
            scans.append(data)
            return real_scan(data, window)

    compiled = utf8scan._C
    utf8scan._C = Counting()
    try:
        found = decode(body, "text/html")
    finally:
        utf8scan._C = compiled
    assert found.encoding == "windows-1252"
    assert len(scans) == 1 and scans[0] is body
    assert getattr(utf8scan._last, "scan", None) is None
