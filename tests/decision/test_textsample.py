"""Tests for the sample facts the text checks read once (encoding_core.decision.textsample)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from encoding_core.decision import utf8scan
from encoding_core.decision._agreement import QUICK_SAMPLE
from encoding_core.decision.disputes import TELLS
from encoding_core.decision.textsample import (
    BINARY_HEAD,
    CONTROL_BYTES,
    CONTROL_FLAGS,
    TELL_FLAGS,
    TextSample,
    control_bytes_in_head,
    control_bytes_in_head_reference,
    sample_arguments,
    text_sample,
    text_sample_reference,
)
from encoding_core.decision.utf8profile import valid_utf8_profile
from encoding_core.whatwg.decoders import SINGLE_BYTE_ENCODINGS
from tests.repomodules import repo_module

_ENCODINGS = sorted(SINGLE_BYTE_ENCODINGS)
# Tags, lines and words around high bytes (the tell bytes among them), at the sizes where
# the window's rules turn: the first non-ASCII byte before and after 1024, a window cut at
# 2048 with a last "<" open, the tells' 4096
_PIECES = st.one_of(st.sampled_from([b" ", b"a", b"Z", b"<", b">", b"<p>", b"</b>", b"\n",
                                     b"\xf5\xf6", b"\xe3\xee", b"\xfd\xe7", b"\xe4"]),
                    st.integers(0x80, 0xFF).map(lambda b: bytes([b])))
_BODIES = st.one_of(
    st.binary(max_size=300),
    st.lists(_PIECES, max_size=150).map(b"".join),
    st.tuples(st.sampled_from([0, 1000, 1030, 2040, 4090]), st.lists(_PIECES, max_size=80))
      .map(lambda pair: b"x" * pair[0] + b"".join(pair[1])),
    st.tuples(st.lists(_PIECES, max_size=40), st.sampled_from([b"<", b"<a", b"\n<", b">"]),
              st.sampled_from([1990, 2030, 2047, 2048, 2060]))
      .map(lambda t: (b"".join(t[0]) + b" " * t[2])[: t[2]] + t[1] + b" tail"),
)

@settings(max_examples=1500)
@given(_BODIES, st.sampled_from(_ENCODINGS))
def test_the_sample_is_the_references(body: bytes, encoding: str) -> None:
    """The one-pass answer equals the one from the checks' functions, in every single-byte
    encoding (compiled or not: without the extension both are the reference)."""
    assert text_sample(body, encoding) == text_sample_reference(body, encoding)


@settings(max_examples=1500)
@given(st.one_of(_BODIES, _BODIES.map(lambda body: body + b"\x1b"),
                 _BODIES.map(lambda body: b"\x01\x02" * 30 + body),
                 _BODIES.map(lambda body: "café ’".encode() + body.decode("latin-1").encode())),
       st.sampled_from(_ENCODINGS))
def test_the_single_byte_clearance_is_the_references(body: bytes, encoding: str) -> None:
    """``single_byte_clear``: None when the body is valid UTF-8 with a multi-byte sequence,
    holds an ESC, control bytes past one in a hundred of its head or a sample that doubts;
    else the sample's tells, as the references give them one by one."""
    compiled = utf8scan.BYTETEST_C
    if compiled is None:
        pytest.skip("the compiled extension is not in use")
    sample = text_sample_reference(body, encoding)
    head = min(len(body), BINARY_HEAD)
    utf8 = valid_utf8_profile(body)
    expected = (None if (utf8 is not None and utf8.multibyte) or 0x1B in body or sample.doubt
                or control_bytes_in_head_reference(body) > head // 100 else sample.tells)
    assert compiled.single_byte_clear(
        body, QUICK_SAMPLE, *sample_arguments(encoding), TELL_FLAGS, CONTROL_FLAGS,
        BINARY_HEAD) == expected


def test_the_sample_on_the_real_world_and_case_pages() -> None:
    """The same answer on every real-world page and seed case body, in the encodings the
    checks read them in."""
    bodies = [page.body for page in repo_module("realworld", "bench").pages()]
    for path in sorted((Path(__file__).parents[1] / "cases").glob("*.json")):
        loaded = json.loads(path.read_text(encoding="utf-8"))
        cases = loaded if isinstance(loaded, list) else loaded.get("cases", [])
        bodies += [bytes.fromhex(c["body_hex"]) for c in cases
                   if isinstance(c, dict) and isinstance(c.get("body_hex"), str)]
    assert len(bodies) > 300
    for body in bodies:
        for encoding in ("windows-1252", "windows-1251", "iso-8859-2", "windows-1253",
                         "windows-874", "koi8-r"):
            assert text_sample(body, encoding) == text_sample_reference(body, encoding)


@pytest.mark.parametrize("body", [
    b"<" * 100_000, b">" * 100_000, b"\xe9" * 1_048_576, b"a" * 1_048_576 + b"\xe9",
    b"<!--" + b"\xf5\xf6 " * 300_000, b"\n" * 50_000 + b"\xe9<p",
], ids=["open-angles", "close-angles", "one-high-byte-mib", "late-high-byte", "comment",
        "lines-then-open-tag"])
def test_the_sample_on_hostile_shapes(body: bytes) -> None:
    """Long runs of one shape: the same answer, without raising."""
    for encoding in ("windows-1252", "windows-1251"):
        assert text_sample(body, encoding) == text_sample_reference(body, encoding)


def test_what_the_sample_says() -> None:
    """A plausible Russian page is no doubt; KOI8-R read as windows-1251 is; a Hungarian
    page under a Western label reads as letters (no doubt) but shows its tells."""
    ru = "<p>Москва — столица России</p>".encode("cp1251")
    assert not text_sample(ru, "windows-1251").doubt
    assert text_sample("<p>Москва</p>".encode("koi8-r"), "windows-1251").doubt
    hu = "<p>hősök és öröm</p>".encode("iso-8859-2")
    assert text_sample(hu, "windows-1252") == TextSample(False, b"\xe9\xf5\xf6")


@settings(max_examples=1500)
@given(st.one_of(st.binary(max_size=300),
                 st.lists(st.sampled_from([b"\x00", b"\t", b"\x1b", b"\x1f", b"a", b"\xff"]),
                          max_size=5000).map(b"".join)),
       st.sampled_from([0, 1, 100, 4096]))
def test_the_control_count_is_the_references(body: bytes, head: int) -> None:
    """The compiled count (no copy of the head) equals the count by two translates."""
    assert control_bytes_in_head(body, head) == control_bytes_in_head_reference(body, head)


def test_the_control_count_on_hostile_shapes() -> None:
    """A MiB of controls counts only its head."""
    for body in (b"\x00" * 1_048_576, b"\x1b" * 1_048_576, b""):
        assert control_bytes_in_head(body) == control_bytes_in_head_reference(body)


def test_the_control_bytes_are_below_0x20() -> None:
    """The compiled count looks up only the bytes below 0x20 (``count_flagged``): a control
    byte at or above it (0x7F, say) would go uncounted, silently."""
    assert not any(CONTROL_FLAGS[0x20:])
    assert bytes(b for b in range(256) if CONTROL_FLAGS[b]) == CONTROL_BYTES


def test_the_tells_are_high_bytes() -> None:
    """The compiled pass passes over ASCII words looking for tells: every high byte is one
    (``TELLS`` looks for some, ``one_alphabet`` reads the letters of all)."""
    assert all(byte >= 0x80 for byte in range(256) if TELL_FLAGS[byte])
    assert sum(TELL_FLAGS) == 128
    assert {b for t in TELLS for part in t[1:] for b in part} <= {
        byte for byte in range(256) if TELL_FLAGS[byte]}


@pytest.mark.parametrize("head", [-5, -1, 0])
def test_no_head_counts_no_control_bytes(head):
    """A head of 0 or less holds nothing, compiled or not (a negative slice counts from the
    end: the reference once did)."""
    body = b"\x00\x01ab\x00"
    assert control_bytes_in_head(body, head) == control_bytes_in_head_reference(body, head) == 0


def test_a_reading_the_sample_is_not_for_is_the_references():
    """A multi-byte or Unicode reading, or a bytearray: the reference answers, as before."""
    body = "日本語のテキスト".encode("shift_jis") * 10
    assert text_sample(body, "Shift_JIS") == text_sample_reference(body, "Shift_JIS")
    legacy = "Größe".encode("cp1252") * 10
    assert text_sample(bytearray(legacy), "windows-1252") == text_sample(legacy, "windows-1252")
