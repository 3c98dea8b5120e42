"""_bytetest_c: the compiled byte test gives its pure-Python reference's answer on any bytes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from encoding_core.decision import _bytetest
from encoding_core.decision._bytetest import _class_table, classes_may_be_implausible_reference
from encoding_core.whatwg.decoders import SINGLE_BYTE_ENCODINGS

_TABLES = sorted(e for e in SINGLE_BYTE_ENCODINGS if _class_table(e) is not None)
# ASCII letters, spaces and punctuation beside high bytes, so that words form and the rules
# about neighbours (case turns, marks, two alphabets in a word) are reached
_BYTES = st.one_of(
    st.binary(max_size=200),
    st.lists(st.one_of(st.sampled_from([b" ", b"a", b"Z", b"'", b".", b"-", b"<", b"1"]),
                       st.integers(0x80, 0xFF).map(lambda b: bytes([b]))),
             max_size=120).map(b"".join))

needs_compiled = pytest.mark.skipif(_bytetest._C is None,
                                    reason="the compiled extension is not in use")


@needs_compiled
@settings(max_examples=3000)
@given(_BYTES, st.sampled_from(_TABLES))
def test_the_compiled_byte_test_is_the_reference(data, encoding):
    """Same answer as the reference's reductions, in every single-byte encoding with a
    class table."""
    table = _class_table(encoding)
    assert table is not None
    compiled = _bytetest._C.classes_may_be_implausible(data, table)
    assert compiled is classes_may_be_implausible_reference(data, table)


@needs_compiled
@pytest.mark.parametrize("encoding", _TABLES)
def test_the_compiled_byte_test_on_every_pair_of_bytes(encoding):
    """Every two high bytes after a letter and before one: each neighbour rule is reached."""
    table = _class_table(encoding)
    assert table is not None
    for first in range(0x80, 0x100, 3):
        for second in range(0x80, 0x100, 5):
            for data in (bytes([0x61, first, second, 0x61]), bytes([first, 0x20, second]),
                         bytes([0x61, first, 0x61, first, 0x61])):
                assert (_bytetest._C.classes_may_be_implausible(data, table)
                        is classes_may_be_implausible_reference(data, table)), data


@needs_compiled
@pytest.mark.parametrize("encoding", _TABLES)
def test_the_compiled_byte_test_on_every_byte_in_every_context(encoding):
    """Each high byte (alone, twice, after and before each kind of ASCII class), and after
    each other high byte's class: every rule's start-of-part and neighbour cases."""
    table = _class_table(encoding)
    assert table is not None
    for byte in range(0x80, 0x100):
        high = bytes([byte])
        for before in (b"", b" ", b"a", b"Z", b".", b"'", b"ab'", high):
            for after in (b"", b" ", b"a", b"Z", high):
                data = before + high + after
                assert (_bytetest._C.classes_may_be_implausible(data, table)
                        is classes_may_be_implausible_reference(data, table)), data


# ASCII runs of 7 to 17 bytes (the compiled pass reads eight ASCII bytes at once) between high
# bytes: letters, spaces, digits, punctuation and tags at every offset of a run
_ASCII_RUNS = st.lists(
    st.one_of(st.text(alphabet="aZ 1.'<>-\n", min_size=7, max_size=17).map(str.encode),
              st.integers(0x80, 0xFF).map(lambda b: bytes([b])),
              st.binary(min_size=1, max_size=3)),
    max_size=40).map(b"".join)


@needs_compiled
@settings(max_examples=3000)
@given(_ASCII_RUNS, st.sampled_from(_TABLES))
def test_the_compiled_byte_test_over_ascii_runs(data, encoding):
    """Runs of ASCII passed over eight bytes at a time: the same answer as the reference."""
    table = _class_table(encoding)
    assert table is not None
    assert (_bytetest._C.classes_may_be_implausible(data, table)
            is classes_may_be_implausible_reference(data, table))


@needs_compiled
@pytest.mark.parametrize("encoding", _TABLES)
def test_the_compiled_byte_test_on_every_byte_before_an_ascii_run(encoding):
    """Each high byte, after a letter or after letter-byte-letter, then eight ASCII bytes or
    more: what the state carries into a run passed over whole (a usual mark just before,
    another script's letter in the word) is what the reference sees."""
    table = _class_table(encoding)
    assert table is not None
    runs = (b"abcdefgh", b"bcdefghij k", b"12345678b", b"........a", b"1234567 a",
            b"ABCDEFGH", b"<b>ab</b>c")
    for byte in range(0x80, 0x100):
        high = bytes([byte])
        for before in (b"", b"a", b"a" + high + b"b", b"x" + high + b"y "):
            for run in runs:
                for data in (before + high + run, before + high + run + high,
                             before + high + run + b"a" + high + b"b"):
                    assert (_bytetest._C.classes_may_be_implausible(data, table)
                            is classes_may_be_implausible_reference(data, table)), data
