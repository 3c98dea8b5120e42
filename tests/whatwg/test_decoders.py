"""Tests for whatwg.decoders: WHATWG decoding, checked against the standard's indexes.json.

The index tests are generated from indexes.json at test time (as encoding_rs does): every byte of
every single-byte index and every pointer of every multi-byte index. UTF-8, UTF-16 and ISO-2022-JP
are checked against byte-at-a-time transcriptions of the spec's algorithms below.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from encoding_core.whatwg._tables.labels import NAMES
from encoding_core.whatwg.decoders import (
    SUPPORTED_ENCODINGS,
    decode_replace,
    decode_replace_text,
    decode_strict,
    decode_strict_once,
    decode_utf8_if_few_errors,
    encode_strict,
    forget_last_calls,
)


def replaced(data: bytes, encoding: str) -> tuple[str, tuple[int, ...]]:
    """``decode_replace``'s text and offsets, the offsets as a tuple (they come compact, in an
    ``array.array``) to compare with the references."""
    text, offsets = decode_replace(data, encoding)
    return text, tuple(offsets)

CONFORMANCE = Path(__file__).resolve().parents[2] / "conformance" / "whatwg-encoding"
INDEXES: dict[str, list] = json.loads((CONFORMANCE / "indexes.json").read_text(encoding="utf-8"))
CASES = json.loads((Path(__file__).parents[1] / "cases" / "decoders_errors.json")
                   .read_text("utf-8"))
SINGLE_BYTE = sorted([n for n, index in INDEXES.items() if len(index) == 128] + ["iso-8859-8-i"])
CJK = ("gbk", "gb18030", "big5", "euc-jp", "iso-2022-jp", "shift_jis", "euc-kr")
BIG5_PAIRS = {1133: "\u00ca\u0304", 1135: "\u00ca\u030c", 1164: "\u00ea\u0304",
              1166: "\u00ea\u030c"}
FFFD = "\ufffd"


def single_byte_index(name: str) -> list[int | None]:
    return INDEXES["iso-8859-8" if name == "iso-8859-8-i" else name]


# --- names ---------------------------------------------------------------------------------


def test_supported_encodings_are_every_whatwg_name_but_replacement():
    """SUPPORTED_ENCODINGS is every canonical name of encodings.json except replacement."""
    groups = json.loads((CONFORMANCE / "encodings.json").read_text(encoding="utf-8"))
    names = {enc["name"].lower() for group in groups for enc in group["encodings"]}
    assert names == set(NAMES)
    assert names - {"replacement"} == SUPPORTED_ENCODINGS


@pytest.mark.parametrize("name", ["replacement", "latin1", "UTF-8", "utf-32", "cp1252", ""])
def test_a_name_that_is_not_canonical_raises_value_error(name):
    """Programmer misuse (a label, Python codec name, or replacement) raises ValueError."""
    with pytest.raises(ValueError):
        decode_strict(b"abc", name)
    with pytest.raises(ValueError):
        decode_replace(b"abc", name)
    with pytest.raises(ValueError):
        encode_strict("abc", name)


# --- single-byte ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", SINGLE_BYTE, ids=SINGLE_BYTE)
def test_single_byte_decodes_every_byte_as_its_index(name):
    """Every byte decodes to its index code point; unmapped bytes are errors at their offset."""
    index = single_byte_index(name)
    expected = "".join(map(chr, range(128))) + "".join(
        FFFD if cp is None else chr(cp) for cp in index)
    unmapped = tuple(128 + i for i, cp in enumerate(index) if cp is None)
    assert replaced(bytes(range(256)), name) == (expected, unmapped)
    for byte in range(256):
        if byte in unmapped:
            with pytest.raises(UnicodeDecodeError) as info:
                decode_strict(b"ok" + bytes((byte,)), name)
            assert (info.value.start, info.value.encoding) == (2, name)
        else:
            assert decode_strict(bytes((byte,)), name) == expected[byte]


@pytest.mark.parametrize("name", SINGLE_BYTE, ids=SINGLE_BYTE)
def test_single_byte_encodes_every_code_point_to_its_first_pointer(name):
    """The single-byte encoder gives each index code point its (first) byte."""
    index = single_byte_index(name)
    for cp in index:
        if cp is not None:
            assert encode_strict(chr(cp), name) == bytes((0x80 + index.index(cp),))
    assert encode_strict("\ufffe", name) is None
    assert encode_strict("\ud800", name) is None


def test_x_user_defined():
    """x-user-defined: ASCII, then 0x80-0xFF as U+F780-U+F7FF, and back."""
    text = "".join(map(chr, range(128))) + "".join(map(chr, range(0xF780, 0xF800)))
    assert decode_strict(bytes(range(256)), "x-user-defined") == text
    assert encode_strict(text, "x-user-defined") == bytes(range(256))
    assert encode_strict("\u00e9", "x-user-defined") is None


# --- multi-byte indexes --------------------------------------------------------------------


def gb18030_bytes(p):
    return bytes((p // 190 + 0x81, p % 190 + (0x40 if p % 190 < 0x3F else 0x41)))


def big5_bytes(p):
    return bytes((p // 157 + 0x81, p % 157 + (0x40 if p % 157 < 0x3F else 0x62)))


def shift_jis_bytes(p):
    lead, trail = divmod(p, 188)
    return bytes((lead + (0x81 if lead < 0x1F else 0xC1), trail + (0x40 if trail < 0x3F else 0x41)))


def euc_bytes(p):
    return bytes((p // 94 + 0xA1, p % 94 + 0xA1))


# encoding, index, pointer -> bytes, number of pointers the encoding can reach
POINTER_CASES = [
    ("gbk", "gb18030", gb18030_bytes, None),
    ("gb18030", "gb18030", gb18030_bytes, None),
    ("big5", "big5", big5_bytes, None),
    ("shift_jis", "jis0208", shift_jis_bytes, None),
    ("euc-jp", "jis0208", euc_bytes, 8836),
    ("euc-jp", "jis0212", lambda p: b"\x8f" + euc_bytes(p), 8836),
    ("iso-2022-jp", "jis0208",
     lambda p: b"\x1b$B" + bytes((p // 94 + 0x21, p % 94 + 0x21)) + b"\x1b(B", 8836),
    ("euc-kr", "euc-kr", lambda p: bytes((p // 190 + 0x81, p % 190 + 0x41)), None),
]


def expected_for_pointer(encoding, index, pointer, data):
    """What WHATWG decodes ``data`` (the bytes of ``pointer``) to: (text, offsets)."""
    if encoding == "big5" and pointer in BIG5_PAIRS:
        return BIG5_PAIRS[pointer], ()
    if encoding == "shift_jis" and 8836 <= pointer <= 10715:
        return chr(0xE000 - 8836 + pointer), ()
    cp = INDEXES[index][pointer]
    if cp is not None:
        return chr(cp), ()
    if encoding == "iso-2022-jp":
        return FFFD, (3,)
    trail = data[-1]
    return FFFD + (chr(trail) if trail < 0x80 else ""), (0,)  # an ASCII trail is restored


@pytest.mark.parametrize(("encoding", "index", "to_bytes", "limit"), POINTER_CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in POINTER_CASES])
def test_every_pointer_of_every_multi_byte_index_decodes_as_whatwg(encoding, index, to_bytes,
                                                                    limit):
    """Each pointer's byte sequence decodes to the index code point (or the spec's error)."""
    wrong = []
    for pointer in range(limit or len(INDEXES[index])):
        data = to_bytes(pointer)
        expected = expected_for_pointer(encoding, index, pointer, data)
        got = replaced(data, encoding)
        if got != expected:
            wrong.append((pointer, data.hex(), got, expected))
    assert not wrong, f"{len(wrong)} pointers differ, e.g. {wrong[:5]}"


def gb18030_ranges_code_point(pointer):
    if 39419 < pointer < 189000 or pointer > 1237575:
        return None
    if pointer == 7457:
        return 0xE7C7
    ranges = INDEXES["gb18030-ranges"]
    offset, cp = ranges[bisect_right([p for p, _ in ranges], pointer) - 1]
    return cp + pointer - offset


def gb18030_four_bytes(pointer):
    b1, rest = divmod(pointer, 12600)
    b2, rest = divmod(rest, 1260)
    b3, b4 = divmod(rest, 10)
    return bytes((b1 + 0x81, b2 + 0x30, b3 + 0x81, b4 + 0x30))


def test_gb18030_four_byte_sequences_follow_the_ranges_index():
    """Every BMP four-byte pointer, a sample of the others, and the null pointers around them."""
    pointers = [*range(39420 + 5), *range(189000 - 3, 1237576 + 3, 997), 1237575, 1237576,
                1237577, 1587599]
    for encoding in ("gb18030", "gbk"):
        data = b"".join(map(gb18030_four_bytes, pointers))
        text, offsets = replaced(data, encoding)
        cps = [gb18030_ranges_code_point(p) for p in pointers]
        assert text == "".join(FFFD if cp is None else chr(cp) for cp in cps)
        assert offsets == tuple(4 * i for i, cp in enumerate(cps) if cp is None)


# --- error offsets -------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES["cases"], ids=[c["id"] for c in CASES["cases"]])
def test_replacement_text_and_offsets(case):
    """Hand-worked spec cases: the text, and where each malformed sequence starts."""
    data = bytes.fromhex(case["hex"])
    assert replaced(data, case["encoding"]) == (case["text"], tuple(case["offsets"]))
    if case["offsets"]:
        with pytest.raises(UnicodeDecodeError) as info:
            decode_strict(data, case["encoding"])
        assert info.value.start == case["offsets"][0]
        assert info.value.encoding == case["encoding"]
    else:
        assert decode_strict(data, case["encoding"]) == case["text"]


# --- reference decoders: the spec's algorithms, one byte at a time --------------------------


def reference_utf8(data):
    """Encoding "UTF-8 decoder" (https://encoding.spec.whatwg.org/#utf-8-decoder), literally."""
    out, offsets = [], []
    cp = seen = needed = 0
    lower, upper = 0x80, 0xBF
    i = start = 0
    while i <= len(data):
        if i == len(data):
            if needed:
                out.append(FFFD)
                offsets.append(start)
            break
        b = data[i]
        if needed == 0:
            start = i
            i += 1
            if b <= 0x7F:
                out.append(chr(b))
            elif 0xC2 <= b <= 0xDF:
                needed, cp = 1, b & 0x1F
            elif 0xE0 <= b <= 0xEF:
                lower = 0xA0 if b == 0xE0 else 0x80
                upper = 0x9F if b == 0xED else 0xBF
                needed, cp = 2, b & 0xF
            elif 0xF0 <= b <= 0xF4:
                lower = 0x90 if b == 0xF0 else 0x80
                upper = 0x8F if b == 0xF4 else 0xBF
                needed, cp = 3, b & 0x7
            else:
                out.append(FFFD)
                offsets.append(start)
            continue
        if not lower <= b <= upper:
            cp = needed = seen = 0
            lower, upper = 0x80, 0xBF
            out.append(FFFD)
            offsets.append(start)
            continue  # the byte is restored
        lower, upper = 0x80, 0xBF
        cp = (cp << 6) | (b & 0x3F)
        seen += 1
        i += 1
        if seen == needed:
            out.append(chr(cp))
            cp = needed = seen = 0
    return "".join(out), tuple(offsets)


def reference_utf16(data, big_endian):
    """Encoding "shared UTF-16 decoder" (https://encoding.spec.whatwg.org/#shared-utf-16-decoder)."""
    out, offsets = [], []
    lead_byte = lead_surrogate = None
    i = start = 0
    while True:
        if i == len(data):
            if lead_byte is not None or lead_surrogate is not None:
                out.append(FFFD)
                offsets.append(start)
            break
        b = data[i]
        i += 1
        if lead_byte is None:
            if lead_surrogate is None:
                start = i - 1
            lead_byte = b
            continue
        unit = (lead_byte << 8) + b if big_endian else (b << 8) + lead_byte
        lead_byte = None
        if lead_surrogate is not None:
            lead, lead_surrogate = lead_surrogate, None
            if 0xDC00 <= unit <= 0xDFFF:
                out.append(chr(0x10000 + ((lead - 0xD800) << 10) + unit - 0xDC00))
                continue
            out.append(FFFD)
            offsets.append(start)
            i -= 2  # the two bytes are restored
            continue
        if 0xD800 <= unit <= 0xDBFF:
            lead_surrogate = unit
        elif 0xDC00 <= unit <= 0xDFFF:
            out.append(FFFD)
            offsets.append(start)
        else:
            out.append(chr(unit))
    return "".join(out), tuple(offsets)


def reference_iso_2022_jp(data):
    """Encoding "ISO-2022-JP decoder" (https://encoding.spec.whatwg.org/#iso-2022-jp-decoder)."""
    ascii_, roman, katakana, lead_state, trail, escape_start, escape = range(7)
    jis0208 = INDEXES["jis0208"]
    state = output_state = ascii_
    lead, output = 0, False
    out, offsets = [], []
    i = seq = 0
    n = len(data)

    def error(at):
        out.append(FFFD)
        offsets.append(at)

    while True:
        b = data[i] if i < n else None
        if state in (ascii_, roman, katakana, lead_state):
            seq = i
        i += 1
        if state in (ascii_, roman, katakana, lead_state):
            if b == 0x1B:
                state = escape_start
            elif b is None:
                break
            elif state in (ascii_, roman) and b <= 0x7F and b not in (0x0E, 0x0F):
                output = False
                out.append({0x5C: "\u00a5", 0x7E: "\u203e"}.get(b, chr(b))
                           if state == roman else chr(b))
            elif state == katakana and 0x21 <= b <= 0x5F:
                output = False
                out.append(chr(0xFF61 - 0x21 + b))
            elif state == lead_state and 0x21 <= b <= 0x7E:
                output, lead, state = False, b, trail
            else:
                output = False
                error(seq)
        elif state == trail:
            if b == 0x1B:
                state = escape_start
                error(seq)
                seq = i - 1
            elif b is not None and 0x21 <= b <= 0x7E:
                state = lead_state
                cp = jis0208[(lead - 0x21) * 94 + b - 0x21]
                if cp is None:
                    error(seq)
                else:
                    out.append(chr(cp))
            else:
                state = lead_state
                error(seq)
                i = min(i, n)
        elif state == escape_start:
            if b in (0x24, 0x28):
                lead, state = b, escape
                continue
            i = i - 1 if b is not None else n  # restore the byte
            output, state = False, output_state
            error(seq)
        else:  # escape
            leading, lead = lead, 0
            new = {(0x28, 0x42): ascii_, (0x28, 0x4A): roman, (0x28, 0x49): katakana,
                   (0x24, 0x40): lead_state, (0x24, 0x42): lead_state}.get((leading, b))
            if new is not None:
                state = output_state = new
                if output:
                    error(seq)
                output = True
                continue
            i = seq + 1  # restore leading (and byte)
            output, state = False, output_state
            error(seq)
    return "".join(out), tuple(offsets)


def chunks(*pieces):
    """Byte strings made of interesting pieces and random bytes."""
    piece = st.one_of(st.sampled_from(pieces), st.binary(min_size=1, max_size=2))
    return st.lists(piece, max_size=12).map(b"".join)


@settings(max_examples=300, deadline=None)
@given(chunks(b"\xe2\x82", b"\xf0\x90\x80", b"\xed\xa0\x80", b"\xc2", b"\xf4\x8f\xbf\xbf",
              b"\xe0\xa0", b"\xf4\x90", "é€𝄞".encode(), b"A", b"\x80", b"\xbf"))
def test_utf8_is_the_whatwg_utf8_decoder(data):
    """Python's UTF-8 codec, as used here, gives the spec's text and error offsets."""
    assert replaced(data, "utf-8") == reference_utf8(data)


@settings(max_examples=300, deadline=None)
@given(chunks(b"\x00\xd8", b"\x00\xdc", b"\xd8\x00", b"\xdc\x00", b"A\x00", b"\x00A", b"\xff"))
def test_utf16_is_the_whatwg_utf16_decoder(data):
    """Python's UTF-16 codecs give the spec's text and error offsets, in both byte orders."""
    assert replaced(data, "utf-16le") == reference_utf16(data, big_endian=False)
    assert replaced(data, "utf-16be") == reference_utf16(data, big_endian=True)


@settings(max_examples=400, deadline=None)
@given(chunks(b"\x1b$B", b"\x1b$@", b"\x1b(B", b"\x1b(J", b"\x1b(I", b"\x1b", b"$", b"(",
              b"B", b"!!", b"$\"", b"t'", b"\x7f", b"\n", b"\x0e", b"\x80", b"\\", b"~", b"!"))
def test_iso_2022_jp_is_the_whatwg_decoder(data):
    """The run-based ISO-2022-JP decoder equals the spec's byte-at-a-time state machine."""
    assert replaced(data, "iso-2022-jp") == reference_iso_2022_jp(data)


@settings(max_examples=150, deadline=None)
@given(chunks(b"\x1b$B", b"\x1b(B", b"F|" * 40, b"$\"" * 33, b"t'" * 31, b")!", b"!!" * 32,
              b"\n", b"\x80", b"~"))
def test_iso_2022_jp_long_runs_equal_the_state_machine(data):
    """Runs of 32 two-byte characters or more are looked up in bulk; an unmapped pair (``)!``)
    inside one still gives U+FFFD at its own offset."""
    assert replaced(data, "iso-2022-jp") == reference_iso_2022_jp(data)


# --- properties over every encoding -------------------------------------------------------

ALL = sorted(SUPPORTED_ENCODINGS)


@pytest.mark.parametrize("encoding", ALL)
@settings(max_examples=40, deadline=None)
@given(raw=st.binary(max_size=48))
def test_decode_replace_never_raises_and_agrees_with_strict(encoding, raw):
    """Any bytes: replacement mode returns; strict raises exactly at the first offset."""
    text, offsets = decode_replace(raw, encoding)
    assert list(offsets) == sorted(set(offsets))
    assert all(0 <= offset < len(raw) for offset in offsets)
    assert text.count(FFFD) >= len(offsets)
    if offsets:
        with pytest.raises(UnicodeDecodeError) as info:
            decode_strict(raw, encoding)
        assert info.value.start == offsets[0]
    else:
        assert decode_strict(raw, encoding) == text


@pytest.mark.parametrize("encoding", ALL)
@settings(max_examples=40, deadline=None)
@given(raw=st.binary(max_size=48))
def test_decode_replace_text_is_decode_replaces_text(encoding, raw):
    """The text alone, equal to ``decode_replace``'s, and the last call it remembers kept."""
    assert decode_replace_text(raw, encoding) == decode_replace(bytes(raw), encoding)[0]
    probe = bytes([0xE9])
    remembered = decode_replace(probe, encoding)
    decode_replace_text(raw, encoding)
    assert decode_replace(probe, encoding) is remembered
    forget_last_calls()


@pytest.mark.parametrize("encoding", [*SINGLE_BYTE, "x-user-defined", "utf-8"])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_strict_round_trip_through_the_encoder(encoding, data):
    """Text the encoding can represent encodes and decodes back to itself, and bytes too."""
    if encoding == "utf-8":
        text = data.draw(st.text(st.characters(exclude_categories=["Cs"])))
    else:
        table = "".join(decode_replace(bytes(range(256)), encoding)[0].split(FFFD))
        text = data.draw(st.text(st.sampled_from(table)))
    encoded = encode_strict(text, encoding)
    assert encoded is not None
    assert decode_strict(encoded, encoding) == text
    raw = data.draw(st.binary(max_size=32))
    if not decode_replace(raw, encoding)[1]:
        assert encode_strict(decode_strict(raw, encoding), encoding) == raw


SAMPLES = {
    "gbk": "中文网页€ abc\n", "gb18030": "中文\u3000\ufe10\U00020087 €",
    "big5": "繁體中文 ═十 abc", "euc-jp": "日本語ｱ～① abc", "iso-2022-jp": "日本語ア ¥ abc",
    "shift_jis": "日本語ｱ～ abc", "euc-kr": "한국어 똠방각하 abc", "utf-8": "día 中文 𝄞",
    "utf-16le": "día 𝄞", "utf-16be": "día 𝄞",
}


@pytest.mark.parametrize("encoding", sorted(SAMPLES))
def test_every_split_of_a_multi_byte_sample_decodes_without_raising(encoding):
    """Cutting a sample at any offset gives halves that decode (with U+FFFD) and never raise."""
    data = encode_strict(SAMPLES[encoding], encoding)
    assert data is not None
    assert decode_strict(data, encoding) == SAMPLES[encoding]
    for i in range(len(data) + 1):
        for part in (data[:i], data[i:]):
            text, offsets = decode_replace(part, encoding)
            assert text.count(FFFD) >= len(offsets)


# --- multi-byte encoders ------------------------------------------------------------------

ENCODE_CASES = [
    ("gbk", "€", b"\x80"),
    ("gb18030", "€", b"\xa2\xe3"),
    ("gbk", "\ue5e5", None),
    ("gb18030", "\ue5e5", None),
    ("gb18030", "\ue78d", b"\xa6\xd9"),
    ("gb18030", "\ufe10", b"\xa6\xd9"),
    ("gb18030", "\u3000", b"\xa1\xa1"),
    ("gb18030", "\ue7c7", b"\x81\x35\xf4\x37"),
    ("gb18030", "\U00010000", b"\x90\x30\x81\x30"),
    ("gbk", "\U00010000", None),
    ("gb18030", "\x80", b"\x81\x30\x81\x30"),
    ("big5", "\u2550", b"\xf9\xf9"),
    ("big5", "\u5341", b"\xa4\x51"),
    ("big5", "\u3875", None),
    ("big5", "\u00ca", None),
    ("shift_jis", "\u2212", b"\x81\x7c"),
    ("shift_jis", "\xa5\u203e\x80", b"\x5c\x7e\x80"),
    ("shift_jis", "\uff71", b"\xb1"),
    ("shift_jis", "\ue000", None),
    ("shift_jis", "\u2252", b"\x81\xe0"),
    ("euc-jp", "\uff71", b"\x8e\xb1"),
    ("euc-jp", "\xa5", b"\x5c"),
    ("euc-jp", "\u2170", b"\xfc\xf1"),
    ("euc-kr", "\uac02", b"\x81\x41"),
    ("iso-2022-jp", "a\xa5b", b"a\x1b(J\x5cb\x1b(B"),
    ("iso-2022-jp", "\uff71", b"\x1b$B%\"\x1b(B"),
    ("iso-2022-jp", "\u3042a", b"\x1b$B$\"\x1b(Ba"),
    ("iso-2022-jp", "a\x0e", None),
    ("iso-2022-jp", "\u00e9", None),
    ("iso-2022-jp", "", b""),
    ("utf-16le", "A\U00010000", b"A\x00\x00\xd8\x00\xdc"),
    ("utf-16be", "A", b"\x00A"),
    ("utf-8", "\ud800", None),
    ("utf-16le", "\udc00", None),
]


@pytest.mark.parametrize(("encoding", "text", "expected"), ENCODE_CASES,
                         ids=[f"{c[0]}-{c[1].encode('unicode_escape').decode()}"
                              for c in ENCODE_CASES])
def test_encoder_cases(encoding, text, expected):
    """Spec encoder details: GBK's euro, gb18030's PUA table, Big5's last pointers, JIS quirks."""
    assert encode_strict(text, encoding) == expected


@pytest.mark.parametrize("encoding", CJK)
def test_cjk_encoders_round_trip_every_index_code_point(encoding):
    """Every code point the encoder accepts decodes back to itself; lone surrogates give None."""
    index = {"gbk": "gb18030", "gb18030": "gb18030", "big5": "big5", "euc-kr": "euc-kr"}.get(
        encoding, "jis0208")
    for cp in {cp for cp in INDEXES[index] if cp is not None}:
        encoded = encode_strict(chr(cp), encoding)
        if encoded is not None:
            assert decode_strict(encoded, encoding) == chr(cp), (hex(cp), encoded)
    assert encode_strict("a\ud800", encoding) is None


def test_the_last_call_is_remembered_only_for_the_same_bytes_and_encoding():
    """decode_strict and decode_replace remember their last call per thread: the same bytes
    object and encoding get the same answer (an error raised again, at the same offset);
    another encoding, another object, or a bytearray changed in place is decoded afresh."""
    body = "café ".encode() * 100 + b"\xff" + "naïve".encode()
    for _ in range(2):
        with pytest.raises(UnicodeDecodeError) as caught:
            decode_strict(body, "utf-8")
        assert caught.value.start == 600
    assert decode_strict(body, "windows-1252").endswith("ÿnaÃ¯ve")
    assert decode_strict(bytes(body[:600]), "utf-8") == "café " * 100
    buffer = bytearray(b"caf\xc3\xa9")
    assert decode_strict(buffer, "utf-8") == "café"
    buffer[3:] = b"e!"
    assert decode_strict(buffer, "utf-8") == "cafe!"
    assert replaced(body, "utf-8") == ("café " * 100 + "\ufffdnaïve", (600,))
    assert decode_replace(body, "utf-8")[1] is decode_replace(body, "utf-8")[1]
    assert decode_replace(body, "windows-1252")[0].endswith("ÿnaÃ¯ve")
    buffer[3:] = b"\xff"
    assert replaced(buffer, "utf-8") == ("caf\ufffd", (3,))


@settings(max_examples=300)
@given(st.lists(st.sampled_from([b"a", b" ", "é".encode(), "€".encode(), b"\xff", b"\xe2\x82",
                                 b"\xc3", "😀".encode()]), max_size=40).map(b"".join),
       st.integers(0, 6))
def test_decode_utf8_if_few_errors_is_decode_replace_or_none(data, most):
    """The capped UTF-8 reading is decode_replace's exactly, or None when there are more
    malformed sequences than the cap."""
    expected = decode_replace(bytes(data), "utf-8")
    found = decode_utf8_if_few_errors(data, most)
    assert found == (expected if len(expected[1]) <= most else None)


@pytest.mark.parametrize(("encoding", "unit"), [("utf-8", "é".encode() + b"x\xe9y"),
                                               ("windows-1253", b"\xaax\xe9yz")],
                         ids=["utf-8", "single-byte"])
def test_the_offsets_are_kept_compactly(encoding: str, unit: bytes) -> None:
    """Issue 28: a page that switches between UTF-8 and windows-1252 every few bytes has one
    malformed sequence per 5 bytes; their offsets are 4-byte unsigned ints in an array, not a
    tuple of Python ints (36 bytes each: about 10.5 bytes of memory per input byte before)."""
    import tracemalloc

    body = unit * 200_000
    forget_last_calls()
    tracemalloc.start()
    try:
        text, offsets = decode_replace(body, encoding)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert offsets.itemsize == 4   # (an array handed out read-only)
    assert len(offsets) == text.count(FFFD) == 200_000
    # the text (2 bytes a character once it holds U+FFFD) and 4 bytes an offset, with room
    # to spare: a tuple of ints alone would take 36 bytes an offset, 7.2 bytes an input byte
    assert peak < 5 * len(body), f"{peak / len(body):.1f} bytes per input byte"


@pytest.mark.parametrize("encoding", ["utf-8", "windows-1253", "shift_jis", "utf-16le"])
def test_the_offsets_handed_out_are_a_read_only_tuple_alike(encoding):
    """The offsets are kept compactly but handed out read-only, equal to the tuple of their
    ints (and JSON-ready through ``tuple``): a caller changing its answer cannot change the
    answer handed out again for the same bytes (the last call is remembered)."""
    import pickle

    data = b"\xff\xfe\x81" if encoding == "utf-16le" else b"a\xff\x81 b\xff"
    text, offsets = decode_replace(data, encoding)
    expected = tuple(offsets)
    assert expected and all(type(o) is int for o in expected)
    assert offsets == expected and hash(offsets) == hash(expected)
    assert json.loads(json.dumps(tuple(offsets))) == list(expected)
    with pytest.raises((TypeError, AttributeError)):
        offsets[0] = 99                    # type: ignore[index]
    with pytest.raises(AttributeError):
        offsets.append(99)                 # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        offsets.extend([99])               # type: ignore[attr-defined]
    assert decode_replace(data, encoding) == (text, expected)   # the remembered answer
    assert pickle.loads(pickle.dumps(offsets)) == expected
    few = decode_utf8_if_few_errors(b"a\xff", 5)
    assert few is not None and few[1] == (1,)


def _outcome(decoder, data: bytes, encoding: str) -> object:
    try:
        return decoder(data, encoding)
    except UnicodeDecodeError as exc:
        return (exc.encoding, exc.start, exc.end, exc.reason)


@settings(max_examples=600, deadline=None)
@given(st.binary(max_size=40), st.sampled_from(sorted(SUPPORTED_ENCODINGS)))
def test_decode_strict_once_is_decode_strict(data: bytes, encoding: str) -> None:
    """The same text, or the same error (encoding, start, end, reason), without the memo."""
    forget_last_calls()
    assert _outcome(decode_strict_once, data, encoding) == _outcome(decode_strict, data,
                                                                    encoding)
    forget_last_calls()


@pytest.mark.parametrize("encoding", ["windows-1252", "koi8-r", "gbk", "shift_jis", "utf-8"])
@pytest.mark.parametrize("data", [5, [65, 66], "text"], ids=["int", "list", "str"])
def test_only_bytes_like_objects_are_decoded(encoding, data):
    """An int, a list or a str is not a body: an error, never text, compiled or not
    (``bytes(5)`` would be five NULs)."""
    for decode in (decode_strict, decode_strict_once):
        with pytest.raises((TypeError, AttributeError)):
            decode(data, encoding)
