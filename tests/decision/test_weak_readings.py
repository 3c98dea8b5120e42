"""A reading that rests on too little is flagged (tests/cases/weak_readings.json).

Pages from a newcomer review (a few Cyrillic or Arabic words on an English page), each
decided wrongly with no review before 2026-12-07 by one of two paths:

- the ensemble elected a reading that no voter of weight ``MIN_BACKING`` put first
  (charset-normalizer alone, or no voter at all): koi8-u as shift_jis half-width katakana,
  ibm866 as macintosh symbols;
- the quick path took chardetng's double-byte reading alone (uchardet had no answer) of
  fewer than ``SHORT_TEXT`` non-ASCII characters: 29 bytes of koi8-r as 15 ideographs.

Each must now be right or flagged; the rules themselves are tested on made-up votes below.
"""

from __future__ import annotations

import pytest

from encoding_core import decode
from encoding_core.decision._ensemble import MIN_BACKING, elect
from encoding_core.decision.detect import default_detector
from tests.conformance import case_params, load_cases

CASES = load_cases("weak_readings.json")
HEART = ("Le cœur a ses raisons que la raison ne connaît point. " * 3).encode("iso-8859-15")


@pytest.mark.parametrize("case", case_params(CASES))
def test_a_weak_reading_is_right_or_flagged(case: dict) -> None:
    body = bytes.fromhex(case["body_hex"])
    decided = decode(body, case["content_type"])
    assert decided.encoding == case["truth"] or decided.needs_review
    found = default_detector(body)
    assert found is not None
    assert found.encoding == case["truth"] or found.needs_review
    if found.encoding == case["wrong_encoding"]:   # (the reason says which rule flagged it)
        assert ("no voter of weight" in found.reason
                or "non-ASCII characters)" in found.reason), found.reason


def test_the_cases_cover_both_rules() -> None:
    kinds = {case["label"].rsplit("-", 2)[1] for case in CASES}
    assert kinds == {"quick", "cn", "none"}


@pytest.mark.parametrize(("voter", "weak"), [("charset-normalizer", True), ("resiliparse", False),
                                            ("chardet", False)])
def test_an_election_backed_by_less_than_min_backing_needs_review(voter: str, weak: bool) -> None:
    """The same reading, put first by one voter: only charset-normalizer's (weight 0.4,
    under ``MIN_BACKING``) is for review, and it says so."""
    assert MIN_BACKING == 0.6
    found = elect(HEART, [(voter, "iso-8859-15", 0.9)], {voter: {"iso-8859-15": 1.0}},
                  lambda e: True)
    assert found is not None and found[0] == "iso-8859-15"
    assert found[4] is weak and (found[2] or not weak)   # (HEART is short: review anyway)
    assert ("no voter of weight 0.6 put it first" in found[3]) is weak


def test_a_reading_no_voter_put_first_needs_review() -> None:
    """chardet's windows-1252 reads c½ur; the sibling iso-8859-15 wins on plausibility alone
    (no voter chose it), so a person should look."""
    found = elect(HEART, [("chardet", "windows-1252", 0.9)], {"chardet": {"windows-1252": 1.0}},
                  lambda e: True)
    assert found is not None and found[0] == "iso-8859-15"
    assert found[4] is True and found[3].startswith("plausibility")


@pytest.mark.parametrize("words", [["ありがと", "勝っ", "だっ", "くせ", "そのもの"],
                                   ["まだまだ", "わずか", "あまりに", "ひ", "若い"]])
def test_a_short_reading_that_beat_a_rival_is_not_flagged(words: list[str]) -> None:
    """Rule 2's short reading counts only where the other detector has no answer that
    decodes the body: here uchardet reads these Japanese words (wordfreq's, 14 characters)
    as shift_jis and chardetng as windows-1251, which decodes them but reads implausibly, so
    uchardet's reading beat a rival and stands (counted too, it flagged 18 of 480 such
    pages, right)."""
    text = ("<html><body><p>Welcome to our store. Free shipping on orders over $50.</p><p>"
            + " ".join(words) + "</p><p>Contact us: help@example.com</p></body></html>")
    found = default_detector(text.encode("shift_jis"))
    assert found is not None and found.encoding == "shift_jis"
    assert found.reason.startswith("uchardet alone reads plausibly"), found.reason
    assert not found.needs_review
