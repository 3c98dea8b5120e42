"""utf8profile: valid multi-byte sequences against malformed ones, counted from the bytes."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from encoding_core.decision.attempt import decode_as
from encoding_core.decision.utf8profile import (
    Utf8Profile,
    ascii_byte_count,
    first_non_ascii,
    may_be_mostly_utf8,
    utf8_profile,
    valid_utf8_profile,
)

# UTF-8 pieces, stray legacy bytes, ASCII and an encoded U+FFFD, in any order.
_PIECES = st.sampled_from([b"a", b" ", b"\xc3\xa9", b"\xe2\x80\x99", b"\xf0\x9f\x98\x80",
                           b"\xe9", b"\x80", b"\xc3", b"\xe2\x80", b"\xff", b"\xef\xbf\xbd",
                           b"\xed\xa0\x80", b"\xc0\xaf"])
_BODIES = st.one_of(st.binary(max_size=200), st.lists(_PIECES, max_size=80).map(b"".join))


def _reference(body: bytes) -> Utf8Profile:
    """The count over the decoded text, character by character."""
    text = body.decode("utf-8", "replace")
    replacements = text.count("\ufffd") - body.count(b"\xef\xbf\xbd")
    return Utf8Profile(sum(c > "\x7f" for c in text) - replacements, replacements)


@given(_BODIES)
def test_profile_counts_as_the_text_does(body):
    """Counting ASCII bytes gives what counting the decoded text's characters gives."""
    assert utf8_profile(body) == _reference(body)


@given(_BODIES)
def test_profile_reuses_a_utf8_attempt(body):
    """A UTF-8 attempt over the same bytes gives the same profile (a BOM body never gets
    here: the walk decides it by its BOM, and ``decode_as`` would drop the BOM's U+FEFF)."""
    assume(not body.startswith(b"\xef\xbb\xbf"))
    assert utf8_profile(body, decode_as(body, "utf-8", skip=0)) == utf8_profile(body)


@given(_BODIES)
def test_valid_profile_only_for_valid_utf8(body):
    found = valid_utf8_profile(body)
    assert (found is not None) == _reference(body).valid
    if found is not None:
        assert found == _reference(body)


@given(st.binary(max_size=300))
def test_ascii_byte_count(body):
    assert ascii_byte_count(body) == sum(b < 0x80 for b in body)


@given(st.binary(max_size=3000), st.integers(min_value=0, max_value=2999),
       st.integers(min_value=0x80, max_value=0xFF))
def test_first_non_ascii_is_the_first_high_byte(data: bytes, at: int, high: int) -> None:
    """first_non_ascii finds what a byte-by-byte search finds, wherever the byte is."""
    ascii_only = bytes(b & 0x7F for b in data)
    placed = ascii_only[:at] + bytes([high]) + ascii_only[at + 1:] if at < len(data) else data
    for sample in (ascii_only, placed, data):
        expected = next((i for i, b in enumerate(sample) if b >= 0x80), -1)
        assert first_non_ascii(sample) == expected


@pytest.mark.parametrize("head", [0, 255, 256, 16 * 1024 - 1, 16 * 1024, 16 * 1024 + 255,
                                  32_767, 32_768, 32_769, 100_000, 300_001])
def test_first_non_ascii_past_a_long_ascii_head(head: int) -> None:
    """A long ASCII head (the steps stop doubling at 16 KiB) and a byte at each step's edge."""
    assert first_non_ascii(b"a" * head + b"\xe9" + b"b" * 5000) == head
    assert first_non_ascii(b"a" * head) == -1


def test_valid_profile_past_a_character_cut_by_the_first_look():
    """The first 64 bytes from the first non-ASCII one end inside a ’ (3 bytes): still valid;
    a malformed byte after them is still found."""
    body = "’".encode() * 30
    assert valid_utf8_profile(body) == Utf8Profile(30, 0)
    assert valid_utf8_profile(body + b"\xe9") is None


@given(_BODIES)
def test_the_detectors_mostly_utf8_test_counts_as_it_did(body):
    """detect._utf8 now reads the shared profile: the same answer as its own count did
    (a U+FFFD in the bytes an error there), and the walk's count of the same body is the
    same (no longer remembered per thread: issue 27 took the memo out)."""
    from encoding_core.decision.detect import _utf8

    text = body.decode("utf-8", "replace")
    errors = text.count("\ufffd")
    mostly = len(text) - sum(b < 0x80 for b in body) - errors >= 4 * errors
    found = _utf8(body)
    if not isinstance(found, bool):  # valid UTF-8: a Detection, decided before any count
        assume(False)
    assert found is mostly
    if not body.isascii():
        assert utf8_profile(body) == utf8_profile(bytes(bytearray(body)))


def test_first_non_ascii_remembers_only_the_same_bytes_object() -> None:
    """The answer remembered for the last body is never another body's, nor a buffer's that
    changed since: bodies asked about in turn, and a bytearray changed in place."""
    one, two = b"ab\xe9" + b"x" * 300, b"x" * 300 + b"\xe9"
    assert [first_non_ascii(body) for body in (one, two, one, one, two)] == [2, 300, 2, 2, 300]
    buffer = bytearray(b"abc\xe9def")
    assert first_non_ascii(buffer) == 3
    buffer[1] = 0xE9
    assert first_non_ascii(buffer) == 1
    assert first_non_ascii(bytes(one[:2])) == -1


def test_a_mostly_utf8_body_is_counted_as_any_other() -> None:
    """Counted by the capped decode that also finds the errors (a few malformed sequences,
    or more than the cap after a valid start), or by Python's replace: the same counts."""
    def expected(body: bytes) -> tuple[int, int]:
        text = body.decode("utf-8", "replace")
        invalid = text.count("\ufffd") - body.count(b"\xef\xbf\xbd")
        return len(text) - sum(b < 0x80 for b in body) - invalid, invalid

    few = "<p>José “ok” ".encode() * 50 + b"\xff\xe9 " + "\ufffd naïve".encode()
    many = "<p>José ".encode() + b"\xe9 " * 1500
    legacy = "<p>Jos\xe9 na\xefve</p>".encode("cp1252") + "é".encode()
    for body in (few, many, legacy):
        found = utf8_profile(body)
        assert (found.multibyte, found.invalid) == expected(body)


@settings(max_examples=500)
@given(st.lists(st.sampled_from([b"a", b" ", "é".encode(), "Ж".encode(), "€".encode(),
                                 "😀".encode(), b"\xe9", b"\xc3", b"\x80", b"\xbf", b"\xff",
                                 b"\xe2\x82", b"\xf0\x9f", b"\xf0\x9f\x98", b"\xef\xbf\xbd",
                                 b"\xd0", b"\xc0", b"\xc1\x80", b"\xf5", b"\xe0\x80",
                                 b"\xed\xa0\x80", b"\xf4\x90\x80\x80"]),
                max_size=60).map(b"".join), st.sampled_from([1, 4]))
def test_may_be_mostly_utf8_never_clears_a_mostly_utf8_body(body, ratio):
    """The byte-role bound says no only where the count says no too (the walk's guard asks
    with ratio 1, the detector with 4)."""
    found = utf8_profile(body)
    if found.multibyte > 0 and found.multibyte >= ratio * found.invalid:
        assert may_be_mostly_utf8(bytes(bytearray(body)), ratio)


def test_may_be_mostly_utf8_clears_legacy_text_without_counting() -> None:
    """The point of it: legacy prose in any script is cleared by the bound; UTF-8 with a
    stray byte is not."""
    prose = "Съешь же ещё этих мягких французских булок, да выпей чаю. " * 20
    for text, encoding in ((prose, "cp1251"), ("Größe, café, naïve – «ok» " * 20, "cp1252"),
                           ("Žluťoučký kůň úpěl ďábelské ódy " * 20, "cp1250")):
        assert may_be_mostly_utf8(b"\xff" + text.encode(encoding)) is False, encoding
        assert may_be_mostly_utf8(b"\xff" + text.encode("utf-8"), 4) is True
