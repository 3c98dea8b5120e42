"""Tests for how unlike real text a reading is (encoding_core.decision._plausibility)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from encoding_core.decision._plausibility import _non_ascii_words, implausibility, implausible_words

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
