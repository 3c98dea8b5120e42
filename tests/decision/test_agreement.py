"""_agreement: the quick path of default_detector answers only what two detectors agree on."""

from __future__ import annotations

import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from encoding_core.decision._agreement import QUICK_SAMPLE, SURE_TEXT, _siblings_agree, agreement
from encoding_core.decision._ensemble import non_ascii_count
from encoding_core.decision._plausibility import _cached_word_score, implausibility
from encoding_core.decision._voters import SIBLING_OF, chardetng_answer, resiliparse_answer
from encoding_core.decision.decode import decode
from encoding_core.decision.detect import _sample, default_detector
from encoding_core.whatwg.decoders import decode_strict
from encoding_core.whatwg.labels import ENCODING_NAMES
from tests.conformance import case_body, case_params, load_cases
from tests.decision.strictness import strict_of as _strict
from tests.repomodules import repo_module

LEGACY_SAMPLES = [c for c in load_cases("detect_samples.json")
                  if not c["expect_encoding"].startswith("utf-")]


def _quick(data: bytes):
    part, seen = _sample(data, QUICK_SAMPLE, 0)
    return agreement(data, part, _strict(data), seen)


@pytest.mark.parametrize("case", case_params(LEGACY_SAMPLES))
def test_quick_answer_reads_the_page_as_its_encoding(case):
    """Whatever the quick path answers gives the same text as the page's own encoding."""
    body = case_body(case)
    found = _quick(body)
    if found is not None:
        assert decode_strict(body, found.encoding) == decode_strict(body, case["expect_encoding"])


def test_quick_path_answers_most_clear_pages():
    """It is a quick path, not a no-op: most clear legacy samples need no ensemble."""
    answered = [c["label"] for c in LEGACY_SAMPLES if _quick(case_body(c)) is not None]
    assert len(answered) >= 0.7 * len(LEGACY_SAMPLES), answered


def test_default_detector_takes_the_quick_path_and_says_so():
    case = next(c for c in LEGACY_SAMPLES if c["expect_encoding"] == "windows-1251")
    found = default_detector(case_body(case), one_detector_when_sure=False)
    assert found is not None and found.encoding == "windows-1251"
    assert "chardetng and uchardet agree" in found.reason
    assert {name for name, _e, _c in found.votes} == {"chardetng", "uchardet"}


def _french(encoding: str, late: str) -> bytes:
    """A page whose first kilobytes hold é and à only, and ``late`` far after the sample."""
    prose = "<p>Le café est à côté de la gare, été comme hiver.</p>\n" * 80
    return (f"<html><body>{prose}<p>{late}</p></body></html>").encode(encoding)


def test_a_sibling_reading_late_bytes_differently_goes_to_the_ensemble():
    """Rule 4: iso-8859-15 œ after the quick sample; windows-1252 would read it as ½."""
    body = _french("iso-8859-15", "Il a du cœur à l'ouvrage.")
    assert body.index(b"c\xbdur") > QUICK_SAMPLE
    found = _quick(body)
    assert found is None or "cœur" in decode_strict(body, found.encoding)
    detected = default_detector(body)
    assert detected is not None and "cœur" in decode_strict(body, detected.encoding)


def test_siblings_agree_only_when_the_other_reading_is_implausible():
    quotes = _french("windows-1252", "Il a dit \u201cbonjour\u201d.")
    assert _siblings_agree(quotes, "windows-1252", _strict(quotes))  # iso-8859-15: C1 controls
    heart = _french("iso-8859-15", "Il a du cœur.")
    assert not _siblings_agree(heart, "windows-1252", _strict(heart))  # c½ur against cœur


@pytest.mark.parametrize("case", case_params(LEGACY_SAMPLES[::3]))
def test_answers_are_whatwg_names(case):
    body = case_body(case)
    for answer in (chardetng_answer(body, body), resiliparse_answer(body, body)):
        assert answer is None or answer in ENCODING_NAMES


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=3000))
def test_any_bytes_answer_decodes_strictly_or_none(data):
    """Rule 1, for any bytes: an answer decodes the whole body strictly; nothing raises."""
    found = _quick(data)
    if found is not None:
        assert _strict(data)(found.encoding)
        assert 0.0 <= found.rate <= 0.125


@given(st.text(max_size=300))
def test_word_cache_is_transparent(text):
    first = implausibility(text)
    _cached_word_score.cache_clear()
    assert implausibility(text) == first


def test_no_quick_path_without_both_detectors(monkeypatch):
    """One detector alone confirms nothing: without both installed, the ensemble decides."""
    from encoding_core.decision import _agreement

    case = next(c for c in LEGACY_SAMPLES if c["expect_encoding"] == "windows-1251")
    body = case_body(case)
    monkeypatch.setattr(_agreement, "QUICK_DETECTORS_INSTALLED", False)
    assert _quick(body) is None
    found = default_detector(body)
    assert found is not None and "agree" not in found.reason
    assert decode_strict(body, found.encoding) == decode_strict(body, "windows-1251")


def _asking(monkeypatch) -> list[str]:
    """The detectors the quick path asks, in order."""
    from encoding_core.decision import _agreement

    asked: list[str] = []
    for name, answer in (("chardetng_answer", chardetng_answer),
                         ("resiliparse_answer", resiliparse_answer)):
        def spy(part, data=b"", answer=answer, name=name):
            asked.append(name)
            return answer(part, data)
        monkeypatch.setattr(_agreement, name, spy)
    return asked


def test_both_detectors_are_asked_when_rule_0_is_off(monkeypatch):
    """``one_detector_when_sure=False``: a sure non-Latin page still asks uchardet."""
    case = next(c for c in LEGACY_SAMPLES if c["expect_encoding"] == "windows-1251")
    asked = _asking(monkeypatch)
    found = default_detector(case_body(case), one_detector_when_sure=False)
    assert asked == ["chardetng_answer", "resiliparse_answer"]
    assert found is not None and "chardetng and uchardet agree" in found.reason


def test_one_detector_when_sure_on_a_cyrillic_page(monkeypatch):
    """Rule 0, by default: chardetng's plausible Cyrillic reading needs no second detector,
    same text."""
    case = next(c for c in LEGACY_SAMPLES if c["expect_encoding"] == "windows-1251"
                and _quick(case_body(c)) is not None)
    body = case_body(case)
    asked = _asking(monkeypatch)
    found = default_detector(body)
    assert asked == ["chardetng_answer"]
    assert found is not None and "uchardet not asked" in found.reason
    assert decode_strict(body, found.encoding) == decode_strict(body, "windows-1251")
    assert [name for name, _e, _c in found.votes] == ["chardetng"]


def test_the_walk_asks_one_detector_when_sure(monkeypatch):
    """``decode``'s walk asks the default detector as a direct call does: chardetng alone on
    a page it is sure of, and the JSON says who was asked."""
    case = next(c for c in LEGACY_SAMPLES if c["expect_encoding"] == "windows-1251"
                and _quick(case_body(c)) is not None)
    asked = _asking(monkeypatch)
    found = decode(case_body(case), "text/html")
    assert asked == ["chardetng_answer"]
    assert found.source == "detector" and "uchardet not asked" in found.to_json()


def _cyrillic_page(sentences: int, capitals: bool = False) -> bytes:
    text = "Вчера вечером в городе прошёл сильный дождь, и улицы были пусты. " * sentences
    text = text.upper() if capitals else text
    return f"<html><body><p>News of the day.</p><p>{text}</p></body></html>".encode(
        "windows-1251")


def test_rule_0_is_not_sure_of_one_repeated_byte(monkeypatch):
    """5,000 bytes of 0xFF (windows-1256's one letter, a word of it): both detectors, review."""
    body = b"\xff" * 5000
    asked = _asking(monkeypatch)
    found = default_detector(body)
    assert asked == ["chardetng_answer", "resiliparse_answer"]
    assert found is None or found.needs_review


@pytest.mark.parametrize(("sentences", "capitals", "sure"), [
    (4, False, True),      # four sentences: over 200 non-ASCII bytes, small letters
    (2, False, False),     # two: fewer than SURE_TEXT non-ASCII bytes
    (4, True, False),      # the same in capitals: another script reads them as small letters
])
def test_rule_0_asks_for_plenty_of_small_letters(monkeypatch, sentences, capitals, sure):
    """Rule 0's floor (``SURE_TEXT``) and its capitals: below either, both detectors."""
    body = _cyrillic_page(sentences, capitals)
    quick, _seen = _sample(body, QUICK_SAMPLE, 0)
    assert (non_ascii_count(quick) >= SURE_TEXT) == (sentences == 4)
    asked = _asking(monkeypatch)
    default_detector(body)
    assert asked == (["chardetng_answer"] if sure
                     else ["chardetng_answer", "resiliparse_answer"])


@pytest.mark.parametrize("case", case_params(load_cases("one_detector_confusables.json")))
def test_pages_chardetng_alone_misreads_are_decided_by_both(case):
    """Short, sparse and all-capital pages where chardetng alone, asked with ``SHORT_TEXT``
    as rule 0's floor, was sure of a wrong or doubtful reading: with ``SURE_TEXT`` and
    ``_mostly_capitals``, the second detector is asked, and its dissent keeps the right
    encoding, or the flag."""
    found = decode(case_body(case), case["content_type"])
    if "expect_encoding" in case:
        assert found.encoding == case["expect_encoding"]
    if "expect_needs_review" in case:
        assert found.needs_review == case["expect_needs_review"]


def test_rule_0_compares_siblings_after_the_sample_too():
    """A sure Cyrillic reading whose words after the sample a sibling reads as plausibly is
    not sure: both detectors agree on the sample, rule 4 sends it to the ensemble, which asks
    for review (rule 4 from the body's start alone saw only the sample's words)."""
    corpus = repo_module("corpus", "bench")
    body = next(s.body for s in corpus.build_corpus(quick=False)
                if s.id == "dev/ru/windows-1251/sparse0")
    quick, seen = _sample(body, QUICK_SAMPLE, 0)
    strict = _strict(body)
    assert _siblings_agree(body, "windows-1251", strict, 0)
    assert not _siblings_agree(body, "windows-1251", strict, seen)
    assert agreement(body, quick, strict, seen, one_detector_when_sure=True) is None
    assert decode(body, "text/html").needs_review


@pytest.mark.parametrize("encoding", ["windows-1252", "windows-1250"])
def test_a_latin_answer_always_asks_the_second_detector(monkeypatch, encoding):
    """Rule 0 never applies to Latin answers: another Latin reading is plausible too often."""
    case = next(c for c in LEGACY_SAMPLES if c["expect_encoding"] == encoding)
    asked = _asking(monkeypatch)
    default_detector(case_body(case), one_detector_when_sure=True)
    assert "resiliparse_answer" in asked


def _words_at_reference(data: bytes, byte_class, seen: int = 0) -> list[bytes]:
    """``_words_at`` as it was written first: each word's start by a regex search."""
    import re

    word_start, word_end = re.compile(rb"[^\s<>]{0,32}\Z"), re.compile(rb"[^\s<>]{0,32}")
    words: list[bytes] = []
    end = 0
    for match in byte_class.finditer(data, seen):
        at = match.start()
        if at < end:
            continue
        left = word_start.search(data, max(at - 32, 0), at)
        right = word_end.match(data, at + 1)
        start = left.start() if left else at
        end = right.end() if right else at + 1
        words.append(data[start:end])
        if len(words) == 16:
            break
    return words


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400), st.integers(min_value=0, max_value=400))
def test_sibling_words_found_backwards_are_the_regexs(data, seen):
    """The words rule 4 compares start where the regex search said, on any bytes."""
    from encoding_core.decision._agreement import _differing, _words_at

    for pair in (("windows-1252", "iso-8859-15"), ("windows-1251", "koi8-r")):
        byte_class = _differing(*pair)
        assert _words_at(data, byte_class, seen) == _words_at_reference(data, byte_class, seen)


def test_sibling_words_on_separators_and_long_words():
    """Spaces of every kind, tags, NULs and words longer than 32 bytes, each side."""
    from encoding_core.decision._agreement import _differing, _words_at

    byte_class = _differing("windows-1252", "iso-8859-15")
    for data in (b"a" * 40 + b"\xa4" + b"b" * 40, b"\x00\xa4\x00", b"<p>\xa4</p>",
                 b"x\x0b\xa4\x0cy", b"\xa4", b" \t\n\r\xa4\x1c\x1d", b"\xa4" * 50):
        assert _words_at(data, byte_class) == _words_at_reference(data, byte_class)


SIBLING_PAIRS = sorted({(e, s) for e, siblings in SIBLING_OF.items() for s in siblings if s != e})
#: Bytes rule 4's words are made of: word ends of every kind, ASCII letters, high bytes.
WORD_BYTES = st.lists(st.sampled_from([b" ", b"\t", b"\n", b"\r", b"\x0b", b"\x0c", b"<", b">",
                                       b"\x00", b"\x1c", b"a", b"Z", b"\x80", b"\xa4", b"\xb8",
                                       b"\xc0", b"\xe9", b"\xff", b"abcdefghij" * 4]),
                      max_size=120).map(b"".join)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(WORD_BYTES, st.binary(max_size=400)), st.integers(min_value=-3, max_value=500),
       st.sampled_from(SIBLING_PAIRS))
def test_compiled_sibling_words_are_the_references(data, seen, pair):
    """The compiled pass finds rule 4's words as ``_words_at`` does, for every sibling pair."""
    _assert_sibling_words_are_the_references(data, seen, pair)


@pytest.mark.parametrize("seen", [sys.maxsize, sys.maxsize - 15, -sys.maxsize - 1, 10**6])
@pytest.mark.parametrize("data", [b"", b"\xe9", b"caf\xe9 " * 40])
def test_sibling_words_from_any_offset(data, seen):
    """An offset at or past the end finds no word, compiled or not (a compiled offset near
    the largest one overflowed its sixteen-byte steps and read past the body)."""
    _assert_sibling_words_are_the_references(data, seen, ("windows-1252", "iso-8859-15"))


def _assert_sibling_words_are_the_references(data: bytes, seen: int, pair: tuple[str, str]):
    """``_sibling_words``, and the compiled pass when built, give ``_words_at``'s words."""
    from encoding_core.decision import _agreement

    reference = b" ".join(_agreement._words_at(data, _agreement._differing(*pair), seen))
    assert _agreement._sibling_words(data, *pair, seen) == reference
    if _agreement._C is not None:
        flags = _agreement._differing_flags(*pair)
        assert _agreement._C.sibling_words(data, flags, seen, 16) == reference


def test_differing_flags_are_high_bytes_only():
    """The compiled pass passes over ASCII bytes whole: no pair may flag one."""
    from encoding_core.decision._agreement import _differing_flags

    for pair in SIBLING_PAIRS:
        flags = _differing_flags(*pair)
        assert len(flags) == 256 and not any(flags[:0x80]) and any(flags[0x80:])
