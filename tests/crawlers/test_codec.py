"""The registered codecs decode exactly as the decision did, so a client's re-decode agrees."""

from __future__ import annotations

import codecs

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from encoding_core.crawlers.codec import PREFIX, codec_name
from encoding_core.decision.attempt import decode_as
from encoding_core.whatwg.decoders import BOM_ONLY_ENCODINGS, SUPPORTED_ENCODINGS

ENCODINGS = sorted(SUPPORTED_ENCODINGS | BOM_ONLY_ENCODINGS)


@pytest.mark.parametrize("encoding", ENCODINGS)
@settings(max_examples=25, deadline=None)  # a loaded machine, first-call tables: no timing
@given(data=st.binary(max_size=64))
def test_decode_is_the_decisions(encoding, data):
    """Any bytes: the codec's replacement decode is decode_as's text (BOM of it skipped)."""
    assert data.decode(codec_name(encoding), "replace") == decode_as(data, encoding).text


@pytest.mark.parametrize("encoding", ["utf-8", "shift_jis", "windows-1252", "utf-16le"])
def test_incremental_decoder_waits_for_the_end(encoding):
    """httpx feeds chunks: the text is the whole body's, not each chunk's."""
    body = "ü中文ü".encode("utf-16-le" if encoding == "utf-16le" else
                        "shift_jis" if encoding == "shift_jis" else "utf-8", "ignore") * 3
    decoder = codecs.getincrementaldecoder(codec_name(encoding))("replace")
    pieces = [decoder.decode(body[i:i + 1]) for i in range(len(body))]
    pieces.append(decoder.decode(b"", True))
    assert "".join(pieces) == decode_as(body, encoding).text


def test_python_cp1252_differs_and_this_does_not():
    """0x81: U+0081 in the Encoding Standard, U+FFFD in Python's cp1252."""
    assert b"\x81".decode("cp1252", "replace") == "\ufffd"
    assert b"\x81".decode(codec_name("windows-1252"), "replace") == "\x81"


def test_strict_raises_where_the_bytes_are_bad():
    """errors="strict" raises UnicodeDecodeError at the first malformed byte."""
    with pytest.raises(UnicodeDecodeError) as raised:
        b"ab\xffcd".decode(codec_name("utf-8"))
    assert raised.value.start == 2


def test_encode_is_the_whatwg_encoder():
    """Encoding (a followed URL, a form) uses the WHATWG encoder; unencodable text raises."""
    assert "€ café".encode(codec_name("windows-1252")) == b"\x80 caf\xe9"
    with pytest.raises(UnicodeEncodeError):
        "中".encode(codec_name("windows-1252"))


def test_names():
    """Only WHATWG names have a codec; lookups of other prefixed names fail as usual."""
    assert codecs.lookup(codec_name("euc-kr")).name == PREFIX + "euc-kr"
    with pytest.raises(ValueError, match="not a WHATWG encoding"):
        codec_name("cp1252")
    with pytest.raises(LookupError):
        codecs.lookup(PREFIX + "klingon")
