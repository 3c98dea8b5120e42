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
    assert decode_replace(raw, encoding) == ("".join(out), tuple(errors))


def test_concurrent_decodes_keep_their_own_error_offsets():
    """The codec error handler's per-call state is per thread: parallel decodes do not mix."""
    from concurrent.futures import ThreadPoolExecutor

    inputs = [(b"\x81\x20" * 50 + b"\xff" * i, "shift_jis") for i in range(20)]
    inputs += [(b"\x80\xff\x81\x30" * 50 + b"A" * i, "gbk") for i in range(20)]
    expected = [decode_replace(raw, enc) for raw, enc in inputs]
    with ThreadPoolExecutor(max_workers=4) as pool:
        for _ in range(5):
            assert list(pool.map(lambda case: decode_replace(*case), inputs)) == expected
