"""one_alphabet: a Latin reading whose letters are no one language's, where another reading's
are the page's language's, is flagged for review."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from encoding_core.decision.decode import decode
from encoding_core.decision.detect import QUICK_SAMPLE, _sample, default_detector
from encoding_core.decision.one_alphabet import (
    _HOLDING,
    ALTERNATIVES,
    ANSWERS,
    foreign_letters,
    letters_of,
    one_language_bytes,
    one_language_elsewhere,
    one_language_instead,
)
from encoding_core.decision.settled import held_by_one, one_language, one_language_reference
from tests.conformance import case_body, case_params, load_cases
from tests.decision.strictness import strict_of as _strict

CASES = load_cases("one_alphabet.json")


@pytest.mark.parametrize("case", case_params(CASES))
def test_the_alternative_named(case) -> None:
    body = case_body(case)
    part, _seen = _sample(body, QUICK_SAMPLE, 0)
    reason = foreign_letters(part, case["answer"], _strict(body))
    if case["expect_alternative"] is None:
        assert reason is None
    else:
        assert reason is not None and f"{case['expect_alternative']} reads them" in reason


@pytest.mark.parametrize("case", case_params([c for c in CASES if "expect_needs_review" in c]))
def test_two_detectors_agreeing_are_flagged(case) -> None:
    """The walk: both detectors agree on the wrong Latin encoding, and the page is for review
    (with the rule taken out, it is decided so with no review)."""
    body = case_body(case)
    found = default_detector(body)
    assert found is not None and found.encoding == case["expect_encoding"]
    assert "chardetng and uchardet agree" in found.reason
    assert found.needs_review is case["expect_needs_review"]
    assert "no one language's" in found.reason
    decided = decode(body, "text/html")
    assert (decided.encoding, decided.needs_review) == (case["expect_encoding"], True)


def test_letters_are_cased_letters_lower_case() -> None:
    assert letters_of("Žürii, ÉTÉ ©".encode("cp1257"), "windows-1257") == frozenset("žüé")
    assert letters_of("ÉTÉ nº 1ª ©".encode("cp1252"), "windows-1252") == frozenset("é")
    # symbols Unicode calls letters: µ (upper case: Greek Mu) and the florin ƒ
    assert letters_of("400 µg, ƒ 10".encode("cp1252"), "windows-1252") == frozenset()
    # İ is i lower case (Turkish), not i with a combining dot: no letter of any alphabet
    assert letters_of("İSTANBUL ŞİŞLİ".encode("cp1254"), "windows-1254") == frozenset("ş")


def test_only_latin_single_byte_answers_are_asked() -> None:
    assert set(ALTERNATIVES) <= ANSWERS
    assert "windows-1258" not in ANSWERS and "windows-1251" not in ANSWERS
    body = "Žürii õues ÄÖÜ".encode("cp1257")
    assert foreign_letters(body, "windows-1251", _strict(body)) is None


def test_romanian_as_legacy_encodings_write_it() -> None:
    """ş and ţ (cedilla) are Romanian letters here: windows-1250 and ISO-8859-2 have no ș, ț."""
    assert one_language("ăâîşţ") and one_language_reference("ăâîşţ")
    assert one_language("ăâîșț")
    assert not one_language("ăâîşţť")


def test_an_alternative_that_fails_the_body_is_not_named() -> None:
    case = next(c for c in CASES if c["label"] == "et-zyrii-as-1252")
    body = case_body(case)
    part, _seen = _sample(body, QUICK_SAMPLE, 0)
    assert foreign_letters(part, "windows-1252", lambda encoding: False) is None


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.sets(st.integers(0x80, 0xFF), max_size=24),
       st.sampled_from(sorted(ANSWERS)))
def test_one_language_bytes_is_its_definition(present: set[int], encoding: str) -> None:
    """The clearance's one ``&`` a byte is ``held_by_one`` of the bytes' letters."""
    body = bytes(sorted(present))
    assert one_language_bytes(body, encoding) == held_by_one(letters_of(body, encoding),
                                                             _HOLDING)


def test_one_language_elsewhere() -> None:
    """Czech in windows-1250 read as windows-1252 is no one language's; windows-1250 reads the
    same bytes as Czech. An English page's names are no one language's anywhere."""
    czech = "řekl že příliš drahý úřad".encode("cp1250")
    present = bytes(sorted(set(czech) - set(range(0x80))))
    assert not one_language_bytes(present, "windows-1252")
    assert one_language_elsewhere(present, "windows-1252") == "windows-1250"
    names = "São Paulo, Zoë, Müller, Perú".encode("cp1252")
    present = bytes(sorted(set(names) - set(range(0x80))))
    assert not one_language_bytes(present, "windows-1252")
    assert one_language_elsewhere(present, "windows-1252") is None


def test_one_language_instead() -> None:
    """windows-1250 reads a Croatian page quoting Rhône as letters of no one language (``ô``),
    but the letters it reads in place of windows-1252's (``ć č đ`` for ``æ è ð``) are
    Croatian's. An English page's names read ``ã`` as ``ă`` in windows-1250: Romanian's, but
    in place of a letter that is one language's (Portuguese) already."""
    croatian = "vijeće odlučilo građani Rhône šetnica žene".encode("cp1250")
    present = bytes(sorted(set(croatian) - set(range(0x80))))
    assert one_language_instead(present, "windows-1252", "windows-1250")
    assert not one_language_instead(present, "windows-1252", "windows-1252")
    names = "São Paulo, Zoë, Müller, Perú".encode("cp1252")
    present = bytes(sorted(set(names) - set(range(0x80))))
    assert not one_language_instead(present, "windows-1252", "windows-1250")
