"""_ensemble: votes weighed against plausibility, siblings brought in, strict failures out."""

from __future__ import annotations

import pytest

from encoding_core.decision._ensemble import MIN_CONFIDENCE, SHORT_TEXT, elect, non_ascii_count

HEART = ("Le cœur a ses raisons que la raison ne connaît point. " * 3).encode("iso-8859-15")


def _votes(encoding: str):
    return [("chardet", encoding, 0.9)], {"chardet": {encoding: 1.0}}


def test_a_sibling_that_reads_plausibly_outscores_the_voted_encoding():
    """A vote for windows-1252 on iso-8859-15 bytes: c½ur loses to cœur."""
    votes, support = _votes("windows-1252")
    found = elect(HEART, votes, support, lambda e: True)
    assert found is not None
    assert found[0] == "iso-8859-15" and found[1] >= MIN_CONFIDENCE


def test_the_voted_reading_wins_when_it_is_plausible():
    votes, support = _votes("iso-8859-15")
    found = elect(HEART, votes, support, lambda e: True)
    assert found is not None and found[0] == "iso-8859-15"
    assert found[3].startswith("chardet")


@pytest.mark.parametrize("rejected", ["iso-8859-15", "windows-1252"])
def test_an_encoding_that_fails_the_strict_decode_is_never_the_answer(rejected):
    votes, support = _votes("iso-8859-15")
    found = elect(HEART, votes, support, lambda e: e != rejected)
    assert found is None or found[0] != rejected


def test_short_text_needs_review():
    votes, support = _votes("windows-1252")
    found = elect(b"caf\xe9", votes, support, lambda e: True)
    assert found is not None and found[2] is True
    assert non_ascii_count(b"caf\xe9") < SHORT_TEXT
