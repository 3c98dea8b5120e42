"""Tests for whatwg._decoders_cjk: the multi-byte fast path and the index tables behind it.

The fast path (Python's codec with the WHATWG decoder on its errors, plus the generated fixes)
must equal the pure-Python WHATWG decoder, whose tables must be WHATWG's indexes.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from encoding_core.whatwg import _decoders_cjk
from encoding_core.whatwg.decoders import decode_replace
from tests.whatwg.test_decoders import INDEXES, chunks

# --- the index tables of the slow path -----------------------------------------------------


@pytest.mark.parametrize("index", ["gb18030", "big5", "jis0208", "jis0212", "euc-kr"])
def test_slow_path_index_tables_equal_indexes_json(index):
    """The pure-Python decoders' tables (codec-derived, corrected) are WHATWG's indexes."""
    table = _decoders_cjk._index(index)
    assert [None if c == "\ufffe" else ord(c) for c in table] == INDEXES[index]


# --- the fast path (Python codec + WHATWG on its errors) equals the slow path ---------------

PIECES = {
    "gb18030": (b"\x80", b"\xa3\xa0", b"\xa6\xd9", b"\x81\x35\xf4\x37", b"\xa8\xbc", b"\x81\x30",
                b"\x81\x30\x81", b"\x84\x31\xa5\x30", b"\x90\x30\x81\x30", b"\xff", b"\x81\x7f",
                "中文".encode("gb18030"), b"\xfe\x59"),
    "big5": (b"\x88\x62", b"\xa2A", b"\xa2B", b"\xa1\x45", b"\x87\x7a", b"\x81\x40", b"\xc8\xa0",
             "中文".encode("big5"), b"\xf9\xf9", b"\xa2\x41", b"\xa2"),
    "euc-jp": (b"\x8e\xa1", b"\x8f\xa2\xb7", b"\x8f\xa1", b"\xa1\xc1", b"\xad\xa1", b"\x8e",
               b"\x8f", "日本".encode("euc_jp"), b"\xa1", b"~", b"\xa1\xf1"),
    "shift_jis": (b"\x80", b"\xa0", b"\xfd", b"\xf0\x40", b"\x81", b"\x87\x40", b"\xfa\x40",
                  "日本".encode("cp932"), b"\x81\x20", b"\x81\x7f"),
    "euc-kr": (b"\x81\x41", "한국".encode("cp949"), b"\x80", b"\xc9\xa1", b"\x81", b"\xff"),
}


@pytest.mark.parametrize("encoding", ["gbk", "big5", "euc-jp", "shift_jis", "euc-kr"])
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_fast_path_equals_the_pure_whatwg_decoder(encoding, data):
    """Python's codec with WHATWG on its errors, plus fixes, equals the pure-Python decoder."""
    name = _decoders_cjk._CJK_DECODER[encoding]
    raw = data.draw(chunks(*PIECES[name], b"A", b"@", b"~", b"\\", b"0"))
    out, errors = [], []
    _decoders_cjk._slow_decoder(name)(raw, 0, False, out, errors)
    text, offsets = decode_replace(raw, encoding)
    assert (text, tuple(offsets)) == ("".join(out), tuple(errors))


# --- ISO-2022-JP: a well-formed input is read run by run, its two-byte runs as EUC-JP ---------

_ASCII_RUN = st.binary(min_size=1, max_size=6).map(
    lambda b: bytes(c for c in b if c < 0x80 and c not in (0x0E, 0x0F, 0x1B)) or b"a")
_KANA_RUN = st.lists(st.integers(0x21, 0x5F), min_size=1, max_size=4).map(bytes)
# level-1 kanji (rows 0x30-0x4E, all mapped), and the row-1 symbols EUC-JP's codec reads
# otherwise than WHATWG (〜 ‖ − ¢ £ ¬), which the EUC-JP path fixes
_PAIR = st.one_of(st.tuples(st.integers(0x30, 0x4E), st.integers(0x21, 0x7E)).map(bytes),
                  st.sampled_from([b"!A", b"!B", b"!]", b"!q", b"!r", b'"L', b"$\"", b"%!"]))
_PAIR_RUN = st.lists(_PAIR, min_size=1, max_size=4).map(b"".join)
_RUN = st.one_of(*(st.tuples(st.just(escape), run) for escape, run in (
    (b"\x1b(B", _ASCII_RUN), (b"\x1b(J", _ASCII_RUN), (b"\x1b(I", _KANA_RUN),
    (b"\x1b$B", _PAIR_RUN), (b"\x1b$@", _PAIR_RUN))))
WELL_FORMED = st.tuples(st.one_of(st.just(b""), _ASCII_RUN), st.lists(_RUN, max_size=8),
                        st.sampled_from([b"", b"\x1b(B", b"\x1b$B"])).map(
    lambda t: t[0] + b"".join(e + r for e, r in t[1]) + t[2])
# what makes an input not well-formed: two escapes in a row, a stray ESC or shift byte, a
# high byte, a two-byte run cut short or unmapped, an unknown escape
BREAKS = st.sampled_from([b"\x1b(B\x1b$B", b"\x1b", b"\x0e", b"\x0f", b"\x80", b"\x1b$B!",
                          b"\x1b$B)!", b"\x1b$(D", b"\x1b(I`", b"\x1b(B\x1b(B"])


@settings(max_examples=300, deadline=None)
@given(data=WELL_FORMED)
def test_well_formed_iso_2022_jp_is_read_run_by_run(data):
    """A well-formed input takes the run-by-run path, and reads as the spec's state machine."""
    from tests.whatwg.test_decoders import reference_iso_2022_jp

    text, offsets = reference_iso_2022_jp(data)
    assert offsets == ()
    assert _decoders_cjk._well_formed_iso_2022_jp(data) == text


@settings(max_examples=300, deadline=None)
@given(head=WELL_FORMED, broken=BREAKS, tail=WELL_FORMED)
def test_iso_2022_jp_with_an_error_goes_to_the_state_machine(head, broken, tail):
    """Any error sends the input to the full decoder, which says where: the text and offsets
    are the spec's."""
    from tests.whatwg.test_decoders import reference_iso_2022_jp

    data = head + broken + tail
    expected = reference_iso_2022_jp(data)
    if expected[1]:
        assert _decoders_cjk._well_formed_iso_2022_jp(data) is None
    text, offsets = decode_replace(data, "iso-2022-jp")
    assert (text, tuple(offsets)) == expected


@pytest.mark.parametrize("escape", [b"\x1b$B", b"\x1b$@"])
def test_every_iso_2022_jp_pair_reads_as_the_state_machine(escape):
    """Every two-byte character, alone after its escape sequence and all in one run: a mapped
    pair reads as index jis0208 says (NEC row 13 and the corrected symbols among them), an
    unmapped one sends the input to the state machine."""
    from tests.whatwg.test_decoders import reference_iso_2022_jp

    mapped = []
    for lead in range(0x21, 0x7F):
        for trail in range(0x21, 0x7F):
            data = escape + bytes((lead, trail))
            text, offsets = reference_iso_2022_jp(data)
            fast = _decoders_cjk._well_formed_iso_2022_jp(data)
            assert fast == (None if offsets else text), data
            if not offsets:
                mapped.append(bytes((lead, trail)))
    assert len(mapped) > 7000
    data = escape + b"".join(mapped)
    assert _decoders_cjk._well_formed_iso_2022_jp(data) == reference_iso_2022_jp(data)[0]


def test_concurrent_decodes_keep_their_own_error_offsets():
    """The codec error handler's per-call state is per thread: parallel decodes do not mix."""
    from concurrent.futures import ThreadPoolExecutor

    inputs = [(b"\x81\x20" * 50 + b"\xff" * i, "shift_jis") for i in range(20)]
    inputs += [(b"\x80\xff\x81\x30" * 50 + b"A" * i, "gbk") for i in range(20)]
    expected = [decode_replace(raw, enc) for raw, enc in inputs]
    with ThreadPoolExecutor(max_workers=4) as pool:
        for _ in range(5):
            assert list(pool.map(lambda case: decode_replace(*case), inputs)) == expected
