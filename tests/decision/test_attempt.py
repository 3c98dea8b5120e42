"""attempt: strict attempts, decode_as, and bodies cut inside their last character."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from encoding_core.decision.attempt import (
    decode_as,
    incomplete_tail,
    strict_attempt,
    truncated_attempt,
)

TAILS = [
    (b"\xe2\x80", "utf-8", True), (b"\xf0\x9f\x98", "utf-8", True), (b"\xff", "utf-8", False),
    (b"\x81", "gbk", True), (b"\x81\x30", "gb18030", True), (b"\x82", "shift_jis", True),
    (b"<", "utf-16le", True), (b"\x3d\xd8", "utf-16le", True), (b"", "utf-8", False),
    (b"\xe2\x80\x80\x80", "utf-8", False),
]


@pytest.mark.parametrize("tail,encoding,expected", TAILS,
                         ids=[f"{e}-{t.hex() or 'empty'}" for t, e, _ in TAILS])
def test_incomplete_tail(tail, encoding, expected):
    """A tail of at most 3 bytes that some bytes would complete is a character cut short."""
    assert incomplete_tail(tail, encoding) is expected


def test_strict_attempt_defers_replacement_counting():
    """A failed strict attempt has no text and replacements -1 until decode_as counts them."""
    failed = strict_attempt(b"caf\xe9 ok", "utf-8")
    assert (failed.strict_ok, failed.error_offset, failed.replacements, failed.text) == (
        False, 3, -1, "")
    full = decode_as(b"caf\xe9 ok", "utf-8")
    assert (full.replacements, full.text) == (1, "caf\ufffd ok")


def test_truncated_attempt_needs_non_ascii_before_the_cut():
    """'caf\\xe9' is not taken for truncated UTF-8; 'Grüße' cut after a lead byte is."""
    assert truncated_attempt(b"caf\xe9", "utf-8", 3) is None
    body = "Grüße €".encode()[:-1]
    cut = truncated_attempt(body, "utf-8", len(body) - 2)
    assert cut is not None and cut.truncated and cut.text == "Grüße \ufffd"
    assert strict_attempt(body, "utf-8") == cut


def test_decode_as_skips_a_bom_of_its_own_encoding_only():
    """A UTF-8 BOM is dropped under utf-8 and read as text under windows-1252."""
    assert decode_as(b"\xef\xbb\xbfhi", "utf-8").text == "hi"
    assert decode_as(b"\xef\xbb\xbfhi", "windows-1252").text == "ï»¿hi"


@given(st.binary(max_size=60), st.sampled_from(["utf-8", "shift_jis", "gbk", "utf-16le"]))
def test_a_known_strict_failure_is_not_decoded_again_and_gives_the_same(body, encoding):
    """decode_as told where a strict decode of the same bytes failed gives what it gives
    when it finds that out itself."""
    strict = strict_attempt(body, encoding)
    if strict.strict_ok:
        return
    assert decode_as(body, encoding, failed_at=strict.error_offset) == decode_as(body, encoding)
