"""Tests for whatwg._cjk_c (through _cjk_compiled): the compiled WHATWG multi-byte decoders.

The compiled decoders must give exactly what the reference, ``_decoders_cjk.decode_cjk_codec``,
gives: the same text, the same error offsets, and in strict mode the offset of the first error.
Skipped where the extension is not built (or ``ENCODING_TRIAGE_PURE=1``); ``decoders.py`` then
answers with the reference, which the other whatwg tests check against the spec.
"""

from __future__ import annotations

import contextlib
import json
import threading
import tracemalloc
from array import array
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from encoding_core.whatwg._cjk_compiled import CJK_C, compiled_decoder
from encoding_core.whatwg._decoders_cjk import decode_cjk_codec
from encoding_core.whatwg.decoders import decode_replace, decode_strict, encode_strict
from tests.repomodules import repo_module
from tests.whatwg.test_decoders import INDEXES, POINTER_CASES, chunks, reference_iso_2022_jp
from tests.whatwg.test_decoders_cjk import PIECES

pytestmark = pytest.mark.skipif(CJK_C is None, reason="the compiled extension is not in use")

ENCODINGS = ["gbk", "gb18030", "big5", "euc-jp", "iso-2022-jp", "shift_jis", "euc-kr"]
# bytes that start, break or end sequences in one of the decoders
_ISO_PIECES = (b"\x1b", b"\x1b$B", b"\x1b$@", b"\x1b(B", b"\x1b(J", b"\x1b(I", b"\x1b(", b"\x1b$",
               b"\x1b$A", b"\x0e", b"\x0f", b"!!", b"0!", b"\\~", b"t&", b"\x80")
_PIECES = {**PIECES, "gbk": PIECES["gb18030"], "iso-2022-jp": _ISO_PIECES}
# Python's codec that writes text in each encoding (for the encoded-text property)
_WRITER = {"gbk": "gb18030", "gb18030": "gb18030", "big5": "big5hkscs", "euc-jp": "euc_jp",
           "iso-2022-jp": "iso2022_jp_ext", "shift_jis": "cp932", "euc-kr": "cp949"}


def compiled(data: bytes, encoding: str) -> tuple[str, tuple[int, ...], str | int]:
    """(text, error offsets, strict answer) from the compiled decoder."""
    decoder = compiled_decoder(encoding)
    assert decoder is not None
    offsets = array("I")
    text = decoder.decode(data, offsets)
    return text, tuple(offsets), decoder.decode_strict(data)


def reference(data: bytes, encoding: str) -> tuple[str, tuple[int, ...], str | int]:
    """The same from ``decode_cjk_codec``."""
    text, errors = decode_cjk_codec(data, encoding)
    return text, tuple(errors), errors[0] if errors else text


@pytest.mark.parametrize("encoding", ENCODINGS)
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_compiled_equals_the_reference_on_arbitrary_bytes(encoding, data):
    """Arbitrary bytes and bytes made of each decoder's hard pieces: the same answer."""
    raw = data.draw(st.one_of(st.binary(max_size=40),
                              chunks(*_PIECES[encoding], b"A", b"~", b"\\", b"0")))
    assert compiled(raw, encoding) == reference(raw, encoding)


_TEXT = st.text(st.one_of(
    st.sampled_from("中文简体繁體測試日本語のテキストｱｲｳ한국어텍스트¥‾€ÊĀ①〜‖−¢£¬"),
    st.characters(codec="utf-8", max_codepoint=0x2FFFF), st.sampled_from("<p>a \n")),
    max_size=30)


@pytest.mark.parametrize("encoding", ENCODINGS)
@settings(max_examples=200, deadline=None)
@given(text=_TEXT, cuts=st.lists(st.tuples(st.integers(0, 200), st.integers(0, 255)),
                                 max_size=3))
def test_compiled_equals_the_reference_on_encoded_text_corrupted(encoding, text, cuts):
    """Text written in the encoding, then some bytes overwritten: the same answer."""
    raw = bytearray(text.encode(_WRITER[encoding], "ignore"))
    for at, byte in cuts:
        if raw:
            raw[at % len(raw)] = byte
    assert compiled(bytes(raw), encoding) == reference(bytes(raw), encoding)


@pytest.mark.parametrize(("encoding", "index", "to_bytes", "limit"), POINTER_CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in POINTER_CASES])
def test_every_index_pointer_decodes_as_the_reference_and_round_trips(encoding, index, to_bytes,
                                                                       limit):
    """Every pointer's bytes, all in one input: the reference's answer; each mapped pointer's
    character that the WHATWG encoder writes (not every one: Big5's HKSCS pointers, jis0212)
    decodes back to itself."""
    pointers = range(limit or len(INDEXES[index]))
    raw = b"".join(to_bytes(pointer) + b" " for pointer in pointers)
    assert compiled(raw, encoding) == reference(raw, encoding)
    for pointer in pointers:
        code_point = INDEXES[index][pointer]
        if code_point is None:
            continue
        encoded = encode_strict(chr(code_point), encoding)
        assert encoded is None or compiled(encoded, encoding)[0] == chr(code_point)


def _samples() -> list[tuple[bytes, str]]:
    """The real-world-shaped set's CJK pages (bench/realworld.py), with their encoding."""
    realworld = repo_module("realworld", "bench")
    return [(page.body, page.encoding) for page in realworld.pages()
            if page.encoding in ENCODINGS]


def test_real_world_pages_and_every_truncation_equal_the_reference():
    """Each real-world CJK page, cut at every offset (a page cut short mid-character), and
    read in every CJK encoding (the wrong ones too): the reference's answer."""
    samples = _samples()
    assert {encoding for _, encoding in samples} >= {"gbk", "big5", "euc-jp", "shift_jis",
                                                     "euc-kr"}
    for body, encoding in samples:
        assert compiled(body, encoding) == reference(body, encoding)
        for other in ENCODINGS:
            assert compiled(body, other) == reference(body, other), (encoding, other)
        for cut in range(0, len(body), 3 if len(body) > 1500 else 1):
            assert compiled(body[:cut], encoding) == reference(body[:cut], encoding)


def _case_bodies(found: object) -> list[bytes]:
    """Every ``body_hex`` in a case file's JSON, at any depth."""
    if isinstance(found, dict):
        return [bytes.fromhex(value) if key == "body_hex" and isinstance(value, str) else b""
                for key, value in found.items()] + [
            body for value in found.values() for body in _case_bodies(value)]
    if isinstance(found, list):
        return [body for value in found for body in _case_bodies(value)]
    return []


def test_the_seed_cases_bodies_equal_the_reference_in_every_cjk_encoding():
    """Every body of ``tests/cases/*.json``, read in each CJK encoding: the reference's answer."""
    cases = Path(__file__).resolve().parents[1] / "cases"
    bodies = {body for path in sorted(cases.glob("*.json"))
              for body in _case_bodies(json.loads(path.read_text(encoding="utf-8"))) if body}
    assert len(bodies) > 50
    for body in bodies:
        for encoding in ENCODINGS:
            assert compiled(body, encoding) == reference(body, encoding), (body[:40], encoding)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_every_truncation_of_a_sample_equals_the_reference(encoding):
    """A sample of every kind of sequence, cut at every offset and with every byte dropped."""
    text = "中文简体日本語ｱｲｳ한국어¥‾€①" * 2
    raw = text.encode(_WRITER[encoding], "ignore") + b"".join(_PIECES[encoding])
    for cut in range(len(raw) + 1):
        assert compiled(raw[:cut], encoding) == reference(raw[:cut], encoding)
        dropped = raw[:cut] + raw[cut + 1:]
        assert compiled(dropped, encoding) == reference(dropped, encoding)


_HOSTILE = [
    b"\x1b" * 100_000,                      # ESC runs: every one an error (iso-2022-jp)
    b"\x1b$B" * 50_000,                     # escape after escape: the output flag's errors
    b"\x1b$B" + b"!" * 100_001,             # a two-byte run cut short at the end
    b"\x81" * 100_000,                      # lone lead bytes
    b"\x81\x30" * 50_000,                   # gb18030 four-byte starts that never finish
    b"\x8f\xa1" * 50_000,                   # EUC-JP three-byte starts
    b"<" * 100_000,
    b"\xff" * 100_000,
    b"\xa1\x41" * 50_000,
]


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("raw", _HOSTILE, ids=lambda raw: raw[:4].hex())
def test_hostile_shapes_equal_the_reference(encoding, raw):
    """Long runs of one byte or one broken sequence: the reference's answer, never raising."""
    assert compiled(raw, encoding) == reference(raw, encoding)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_a_1_mib_page_decodes_with_memory_about_its_text(encoding):
    """1 MiB of text (and 1 MiB of lone lead bytes): the reference's answer, and the peak
    memory of the compiled decode about the text and its offsets, no more."""
    text = ("<p>中文简体日本語한국어 text 123</p>\n" * 40_000)[: 1 << 19]
    body = text.encode(_WRITER[encoding], "ignore")
    broken = b"\x8e" * (1 << 20)
    for raw in (body, broken):
        tracemalloc.start()
        decoded, offsets = decode_replace(raw, encoding)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        size = len(decoded) * (4 if max(decoded, default="a") > "\uffff" else 2) + 4 * len(offsets)
        assert peak < size * 1.3 + 100_000, (peak, size)
        assert (decoded, tuple(offsets)) == reference(raw, encoding)[:2]


def test_decoders_use_the_compiled_decoder_and_keep_strict_behaviour():
    """``decode_strict`` raises at the reference's first error, with the WHATWG name."""
    with pytest.raises(UnicodeDecodeError) as raised:
        decode_strict(b"ok \x81\x20 \xff", "shift_jis")
    assert (raised.value.start, raised.value.end, raised.value.encoding) == (3, 4, "shift_jis")
    assert decode_strict(bytearray("中文".encode("gbk")), "gbk") == "中文"
    assert decode_replace(b"\x1b$B\x1b(B", "iso-2022-jp") == ("\ufffd", (3,))


def test_iso_2022_jp_is_the_spec_state_machine_on_escape_runs():
    """Runs of escapes and broken escapes follow the spec's state machine (test_decoders)."""
    raw = b"\x1b(B\x1b$B!!\x1b(\x1b$\x1b(I!\x1b(J\\~\x1b\x1b$B!\x1b(B" * 50
    text, offsets, _ = compiled(raw, "iso-2022-jp")
    assert (text, offsets) == reference_iso_2022_jp(raw)



def test_a_decoder_made_without_its_tables_refuses_rather_than_crashes():
    """``Decoder.__new__`` alone leaves no tables: decoding says so (it read a NULL table)."""
    bare = CJK_C.Decoder.__new__(CJK_C.Decoder)
    with pytest.raises(ValueError, match="not initialised"):
        bare.decode_strict(b"\x81\x40")
    with pytest.raises(ValueError, match="not initialised"):
        bare.decode(b"\x81\x40", array("I"))



def test_the_offsets_array_cannot_move_while_a_long_decode_writes_into_it():
    """A long input is decoded without the GIL, writing error offsets into the caller's array:
    the array is held for the pass, so another thread's append fails (BufferError) instead of
    moving the memory being written (it crashed the process before)."""
    decoder = compiled_decoder("euc-kr")
    offsets: array[int] = array("I")
    refused: list[BaseException] = []
    done = threading.Event()

    def grow() -> None:
        while not done.is_set():
            try:
                offsets.append(7)
            except BufferError as exc:
                refused.append(exc)
            if len(offsets) > 100_000:
                with contextlib.suppress(BufferError):
                    del offsets[:]

    other = threading.Thread(target=grow)
    other.start()
    try:
        for _ in range(3):
            text = decoder.decode(b"\xff" * (4 << 20), offsets)
            assert text == "\ufffd" * (4 << 20)
    finally:
        done.set()
        other.join()
    assert refused, "the other thread never met the held array"
