"""The compiled single-byte decoder (``whatwg._single_byte_c``) against its reference,
Python's ``codecs.charmap_decode`` over the same WHATWG table: the same text, of the same
string kind, or the same offset of the first unmapped byte. Skipped where the extension is
not built (or ``ENCODING_TRIAGE_PURE=1``); ``decoders.py`` then decodes with the reference."""

from __future__ import annotations

import codecs
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from encoding_core.speedups import compiled
from encoding_core.whatwg.decoders import SINGLE_BYTE_TABLES, decode_strict, decode_strict_once
from tests.repomodules import repo_module

_C = compiled("encoding_core.whatwg._single_byte_c")
pytestmark = pytest.mark.skipif(_C is None, reason="the compiled extension is not in use")

ENCODINGS = sorted(SINGLE_BYTE_TABLES)
#: Runs that put a high byte at each place in a 16-byte block and at the very end, the bytes
#: each table leaves unmapped (U+FFFE), and the characters that widen a string's kind.
_PIECES = [b"", b"a", b"<p>", b"x" * 15, b"y" * 16, b"z" * 17, bytes(range(0x80, 0x100)),
           b"\x80", b"\x81", b"\x8d", b"\x90", b"\x98", b"\xa0", b"\xa1", b"\xd2", b"\xe9",
           b"\xfe", b"\xff", bytes(range(0x20, 0x80))]


def _same(encoding: str, data: bytes) -> None:
    """The compiled answer is the reference's: text and kind, or the error's offset."""
    assert _C is not None
    table = SINGLE_BYTE_TABLES[encoding]
    found = _C.SingleByteDecoder(table).decode_strict(data)
    try:
        expected = codecs.charmap_decode(data, "strict", table)[0]
    except UnicodeDecodeError as exc:
        assert found == exc.start, encoding
        return
    assert type(found) is str and found == expected, encoding
    # the same layout (ASCII, or 1, 2 or 4 bytes a character): a canonical string. Compared
    # on copies (a repeat keeps its source's layout): a one-character result of the reference
    # is CPython's shared string for that character, which may carry a cached UTF-8 form
    assert sys.getsizeof(found * 2) == sys.getsizeof(expected * 2), encoding
    assert hash(found) == hash(expected) and found.isascii() == expected.isascii()


@settings(max_examples=1500, deadline=None)
@given(st.sampled_from(ENCODINGS),
       st.one_of(st.binary(max_size=80),
                 st.lists(st.sampled_from(_PIECES), max_size=10).map(b"".join)))
def test_the_compiled_decoder_is_charmap_decode(encoding: str, data: bytes) -> None:
    _same(encoding, data)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_every_byte_at_every_place_of_a_block(encoding: str) -> None:
    """Each byte alone, and after 0 to 31 ASCII bytes (every place in a block and the tail)."""
    for byte in range(256):
        for pad in range(32):
            _same(encoding, b"a" * pad + bytes([byte]) + b"b" * (pad % 3))


@pytest.mark.parametrize("encoding", [e for e in ENCODINGS if "\ufffe" in SINGLE_BYTE_TABLES[e]])
def test_an_unmapped_byte_after_the_string_is_laid_out(encoding: str) -> None:
    """A first high byte that gives the string its widest layout (then one pass decodes),
    an unmapped byte after it at every distance: found at its offset, as the reference."""
    table = SINGLE_BYTE_TABLES[encoding]
    wide = [b for b in range(0x80, 0x100) if ord(table[b]) >= 0x100 and table[b] != "\ufffe"]
    narrow = [b for b in range(0x80, 0x100) if ord(table[b]) < 0x100]
    unmapped = [b for b in range(0x80, 0x100) if table[b] == "\ufffe"]
    for first in wide[:3] + narrow[:2]:
        for bad in unmapped:
            for gap in range(34):
                _same(encoding, b"ab" + bytes([first]) + b"c" * gap + bytes([bad]) + b"d")
                _same(encoding, bytes([first]) + b"c" * gap + bytes([first, bad]))


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_every_pair_of_high_bytes(encoding: str) -> None:
    """Each high byte then each other one, a block apart: the string laid out by the first
    (one byte a character or two) and widened, or failed, by the second."""
    for first in range(0x80, 0x100):
        for second in range(0x80, 0x100):
            _same(encoding, b"a" + bytes([first]) + b"b" * 17 + bytes([second]))


def test_the_real_world_pages_under_their_own_and_other_tables() -> None:
    """Every real-world-shaped page under every single-byte table."""
    for page in repo_module("realworld", "bench").pages():
        for encoding in ENCODINGS:
            _same(encoding, page.body)


def test_decode_strict_answers_from_it_as_from_the_reference() -> None:
    """``decode_strict`` and ``decode_strict_once`` raise at the same offset either way."""
    for decode in (decode_strict, decode_strict_once):
        with pytest.raises(UnicodeDecodeError) as raised:
            decode(b"ok \xaa then", "windows-1253")
        assert (raised.value.start, raised.value.end) == (3, 4)
        assert decode(b"caf\xe9 \x80", "windows-1252") == "café €"


def test_a_table_that_is_not_one_is_refused() -> None:
    assert _C is not None
    with pytest.raises(ValueError):
        _C.SingleByteDecoder("x" * 255)
    with pytest.raises(ValueError):
        _C.SingleByteDecoder("".join(map(chr, range(1, 257))))   # ASCII not itself
    with pytest.raises(ValueError):
        _C.SingleByteDecoder("".join(map(chr, range(128))) + "a" * 128)   # high bytes as ASCII
    with pytest.raises(ValueError):
        _C.SingleByteDecoder("".join(map(chr, range(128))) + "\U0001F600" * 128)


def test_only_bytes_themselves() -> None:
    """``decode_strict`` takes exactly ``bytes`` (its callers convert anything else first)."""
    assert _C is not None
    decoder = _C.SingleByteDecoder(SINGLE_BYTE_TABLES["windows-1252"])
    with pytest.raises(TypeError):
        decoder.decode_strict(bytearray(b"caf\xe9"))
