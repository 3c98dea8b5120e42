"""Tests for the C-speed byte test (encoding_core.decision._bytetest): a no is exact.

Each test compares ``may_be_implausible`` with the scorer it stands in front of
(``_plausibility.implausible_words(..., strong=True)``) on bytes of every kind.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from encoding_core.decision._bytetest import class_tables, may_be_implausible
from encoding_core.decision._plausibility import implausible_words
from encoding_core.whatwg.decoders import SINGLE_BYTE_ENCODINGS, decode_replace, encode_strict

TEXTS = Path(__file__).resolve().parents[2] / "bench" / "texts"


SINGLE_BYTE = sorted(SINGLE_BYTE_ENCODINGS)


@settings(max_examples=300)
@given(st.binary(min_size=1, max_size=300), st.sampled_from(SINGLE_BYTE))
def test_the_byte_test_never_misses_an_implausible_word(data, encoding):
    """When may_be_implausible says no, no word of the reading scores 1 or more."""
    if not may_be_implausible(data, encoding):
        text = decode_replace(data, encoding)[0]
        assert implausible_words(text, strong=True) == []


@pytest.mark.parametrize("encoding", SINGLE_BYTE)
def test_the_byte_test_on_every_language_in_every_reading(encoding):
    """Real prose of every bundled language, as bytes of every legacy encoding that holds it,
    read as ``encoding``: the byte test never says no where a word scores 1 or more."""
    for path in sorted(TEXTS.glob("*.txt")):
        prose = path.read_text("utf-8")
        for source in SINGLE_BYTE:
            data = encode_strict(prose, source)
            if data is None or data.isascii():
                continue
            if not may_be_implausible(data, encoding):
                text = decode_replace(data, encoding)[0]
                assert implausible_words(text, strong=True) == [], (path.name, source)


def test_right_readings_are_mostly_cleared_by_the_byte_test():
    """The point of the test: prose read in its own encoding is cleared without Python."""
    cleared = [may_be_implausible(t.encode("cp1251"), "windows-1251") for t in (
        "Москва — столица России, крупнейший город страны.",
        "Погода сегодня: +5 °C, облачно, ветер 3 м/с.")]
    assert cleared == [False, False]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from([b"<p>", b"</p>", b"<script>var x='\xe9';</script>",
                                 b"<!-- \xc0 -->", b"<a href='/\xe0'>", b" ", b"\n", b">",
                                 b"<", b"x", b"Q", b"1", b"ascii line " * 30 + b"\n",
                                 b"\xe9", b"\xc0", b"\xd7", b"\x93", b"\xbd", b"\xa9", b"\xff"]),
                max_size=60),
       st.sampled_from(["windows-1252", "windows-1251", "windows-1255", "iso-8859-7",
                        "koi8-r"]))
def test_a_no_on_the_raw_window_is_a_no_on_the_sample(pieces, encoding):
    """implausible_reading asks the byte test of the sample's raw window first: whenever that
    says no, the stripped sample would have said no (or been ASCII) too."""
    from encoding_core.decision.detect import sample, sample_window

    body = b"".join(pieces)
    # a small head, so that the sample is cut (at <, > or a line break) as on a long page
    window, part = sample_window(body, 64), sample(body, 64, 0)
    if window.isascii() or not may_be_implausible(window, encoding):
        assert part.isascii() or not may_be_implausible(part, encoding)



@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from([b"<p>", b"</p>", b"<title>", b"</title>", b"<b>",
                                 b"<script>var x='\xe9';</script>", b"<script>", b"</script>",
                                 b"<style>p{}</style>", b"<!-- \xc0 -->", b"<!--", b"-->",
                                 b"<a href='/\xe0'>", b"<img alt='\xd7\xe5'>", b" ", b"\n",
                                 b">", b"<", b"x", b"Q", b"1", b"-", b"ascii line " * 30 + b"\n",
                                 b"\xe9", b"\xc0", b"\xd7", b"\x93", b"\xbd", b"\xa9", b"\xff",
                                 b"\xec", b"\xe0\xe8"]), max_size=60),
       st.sampled_from(["windows-1252", "windows-1251", "windows-1255", "iso-8859-7",
                        "koi8-r", "windows-874", "windows-1258"]),
       st.sampled_from([64, 2048]))
def test_a_no_on_the_words_window_is_a_no_on_the_text_sample(pieces, encoding, head):
    """The window with its paired tags read as spaces (``sample_window_words``): whenever the
    byte test says no there, it says no on the stripped sample too (or that is ASCII)."""
    from encoding_core.decision.detect import sample_text, sample_window_words

    body = b"".join(pieces)
    words, part = sample_window_words(body, head), sample_text(body, head)
    if words is not None:   # what makes it so: each word of the sample is a word there
        assert set(part.split()) <= set(words.split())
        if not may_be_implausible(words, encoding):
            assert part.isascii() or not may_be_implausible(part, encoding)


def test_the_words_window_clears_text_between_tags():
    """The point of it: a right Cyrillic page's tags touch its words (``<title>Москва``),
    which the raw window reads as two alphabets in one word; a stray ``>`` gives no window."""
    from encoding_core.decision.detect import sample_window, sample_window_words

    body = "<title>Москва</title><p>Погода: <b>ясно</b></p>".encode("cp1251")
    assert may_be_implausible(sample_window(body), "windows-1251") is True
    words = sample_window_words(body)
    assert words is not None and may_be_implausible(words, "windows-1251") is False
    assert sample_window_words("<p>a > b Москва</p>".encode("cp1251")) is None
    assert sample_window_words("Москва p></p>".encode("cp1251")) is None   # ">" opens it
    assert sample_window_words("<p>Москва <".encode("cp1251")) is None   # kept by the sample
    cut = "<p>Москва <b\nxx".encode("cp1251") + b"y" * 200   # ... before its line ends
    assert sample_window_words(cut, 32) is None
    assert sample_window_words(cut.replace(b"\n", b" "), 32) == " p Москва ".encode("cp1251")


_WITH_MARKS = ["windows-874", "windows-1255", "windows-1256", "windows-1258", "iso-8859-6",
               "iso-8859-8"]


@settings(max_examples=600)
@given(st.lists(st.one_of(st.sampled_from(b" aZ.,1"), st.integers(0x80, 0xFF)), min_size=1,
                max_size=24).map(bytes), st.sampled_from(_WITH_MARKS))
def test_the_byte_test_places_marks_as_the_scorer_does(data, encoding):
    """Dense high bytes in the encodings with combining marks (Thai, Hebrew and Arabic points,
    Vietnamese tones), so that marks land after letters, marks, spaces and punctuation: a no
    from the byte test is still never a word that scores 1 or more."""
    if not may_be_implausible(data, encoding):
        text = decode_replace(data, encoding)[0]
        assert implausible_words(text, strong=True) == []


def test_marks_on_their_letters_are_cleared_at_c_speed():
    """Thai vowels and tone marks, Hebrew points and Vietnamese tones on their letters are
    text; a mark after a space or on a letter of another script is not cleared."""
    for text, encoding in (("ภาษาไทย ที่นี่ น้ำ", "windows-874"), ("שָׁלוֹם", "windows-1255"),
                           ("Tiê\u0301ng Viê\u0323t", "windows-1258")):
        data = encode_strict(text, encoding)
        assert data is not None
        assert may_be_implausible(data, encoding) is False, text
    assert may_be_implausible(encode_strict("ภาษา \u0e49", "windows-874") or b"", "windows-874")
    assert may_be_implausible(encode_strict("a\u0e49", "windows-874") or b"", "windows-874")
    for data in (b"x.\xec", b"\xecx", b"x \xec", b"\xd0\xec"):  # a tone after no letter
        assert may_be_implausible(data, "windows-1258") is bool(
            implausible_words(decode_replace(data, "windows-1258")[0], strong=True)), data


@settings(max_examples=500)
@given(st.text(alphabet="abéЖж «»—–…\u00a0„“’", min_size=1, max_size=24),
       st.sampled_from(["windows-1251", "windows-1252"]))
def test_the_byte_test_counts_marks_between_letters_as_the_scorer_does(text, encoding):
    """Quotes, dashes and no-break spaces around and inside words: a no from the byte test
    is never a word with two marks between letters (or any other word scoring 1)."""
    data = encode_strict(text, encoding)
    if data is not None and not may_be_implausible(data, encoding):
        assert implausible_words(decode_replace(data, encoding)[0], strong=True) == []


def test_quotes_around_a_word_are_cleared():
    """«Галактика» and „Žaibas“ are quoted words, not a reading gone wrong."""
    assert may_be_implausible("Смартфон «Галактика» 128 ГБ".encode("cp1251"),
                              "windows-1251") is False
    assert may_be_implausible("Dviratis „Žaibas“".encode("cp1257"), "windows-1257") is False
    assert may_be_implausible("a—b—c".encode("cp1252"), "windows-1252") is True


def test_the_words_table_reads_angles_as_spaces() -> None:
    """The second class table is the first but for ``<`` and ``>``, read as spaces."""
    tables = class_tables("windows-1251")
    assert tables is not None
    table, words = tables
    assert [i for i in range(256) if table[i] != words[i]] == [0x3C, 0x3E]
    assert words[0x3C] == words[0x3E] == ord(" ")
