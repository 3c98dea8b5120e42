"""Tests for how unlike real text a reading is (encoding_core.decision._plausibility)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from encoding_core.decision._bytetest import may_be_implausible
from encoding_core.decision._plausibility import (
    MAX_CACHED_WORD,
    _cached_word_score,
    _non_ascii_words,
    _score_word,
    _word_score,
    implausibility,
    implausibility_reference,
    implausible_words,
)

TEXTS = Path(__file__).resolve().parents[2] / "bench" / "texts"

# The definition the fast paths must match, match for match.
WORD = re.compile(r"\S*[^\x00-\x7f]\S*")


@given(st.text(alphabet="ab .é©Ã\xa0\u3000\u2028\x85\x1c\t\n", max_size=40))
def test_non_ascii_words_are_the_regex_matches(text: str) -> None:
    """The split fast path and the anchored regex find exactly \\S*[^\\x00-\\x7f]\\S*'s words."""
    assert _non_ascii_words(text) == WORD.findall(text)


@pytest.mark.parametrize(("text", "implausible"), [
    ("Le cœur a ses raisons", False),
    ("Le c½ur a ses raisons", True),
    ("Crème brûlée, déjà vu", False),
    ("ÐŸÑ€Ð¸Ð²ÐµÑ‚", True),
    ("日本語のテキストです。", False),
], ids=["french", "iso-8859-15-as-1252", "accents", "utf-8-as-1252", "japanese"])
def test_implausibility(text: str, implausible: bool) -> None:
    """Real text scores 0; a wrong reading scores more, and its words are named."""
    bad, count = implausibility(text)
    assert (bad > 0) == implausible and count > 0
    assert bool(implausible_words(text)) == implausible


def test_hebrew_abbreviation_marks_are_text():
    """Geresh, gershayim and maqaf sit inside Hebrew words (every price says ש״ח): a right
    windows-1255 page with them is cleared at C speed and scores nothing; the same bytes
    read as windows-1252 still do not pass."""
    text = "מכונת קפה ביתית – 649 ש״ח, משלוח חינם לבית־ספר, צה״ל ומע׳"
    data = text.encode("cp1255")
    assert may_be_implausible(data, "windows-1255") is False
    assert implausibility(text)[0] == 0
    assert implausibility(data.decode("cp1252"))[0] > 1


def test_utf8_hebrew_under_windows_1255_is_still_caught():
    """The marks now read as text come from byte 0xD7, the lead byte of every UTF-8 Hebrew
    letter: a UTF-8 Hebrew page declared windows-1255 is still flagged, with the override."""
    from encoding_core import decode

    decided = decode("<p>מכונת קפה ביתית – 649 ש״ח, משלוח חינם</p>".encode(),
                     "text/html; charset=windows-1255")
    assert decided.encoding == "windows-1255" and decided.needs_review
    assert decided.suggested_encoding == "utf-8"


def test_the_non_ascii_spaces_are_every_one_python_splits_on():
    from encoding_core.decision._plausibility import NON_ASCII_SPACES

    assert list(NON_ASCII_SPACES) == [chr(c) for c in range(0x80, 0x110000) if chr(c).isspace()]


WORDS = st.text(alphabet="abЖжé½Ã©\u0301", min_size=1, max_size=MAX_CACHED_WORD * 2)


@given(WORDS)
def test_a_word_scores_the_same_remembered_or_not(word: str) -> None:
    assert _word_score(word) == _score_word(word)
    assert _word_score(word) == _score_word(word)   # (the second time from the cache, if short)


def test_a_long_word_is_not_remembered() -> None:
    """A run of letters longer than MAX_CACHED_WORD is scored afresh: remembered, 65,536
    hostile runs were held (a 3,000-letter word is 6-12 KB)."""
    _cached_word_score.cache_clear()
    long_word = "жé" * MAX_CACHED_WORD
    implausible_words(long_word)
    implausibility_reference(long_word)
    assert _cached_word_score.cache_info().currsize == 0
    implausibility_reference("жé")
    assert _cached_word_score.cache_info().currsize == 1
