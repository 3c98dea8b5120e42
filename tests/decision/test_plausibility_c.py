"""_plausibility_c: the compiled scorer gives its pure-Python reference's answer, to the bit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from encoding_core.decision import _plausibility
from encoding_core.decision._plausibility import (
    MAX_WORDS,
    NON_ASCII_SPACES,
    implausibility,
    implausibility_reference,
)
from encoding_core.whatwg.decoders import SINGLE_BYTE_ENCODINGS, decode_replace
from tests.repomodules import repo_module

CASES = Path(__file__).resolve().parents[1] / "cases"

needs_compiled = pytest.mark.skipif(_plausibility._C is None,
                                    reason="the compiled extension is not in use")

# Letters of many scripts in both cases, combining marks (of no script and of one), symbols,
# usual and word-inner punctuation, controls, box drawing, CJK, rare letters, a lone
# surrogate, an astral character, and every kind of space: each rule and its neighbours.
_PIECES = ("a", "Z", "q", "1", ".", "'", "-", "é", "É", "ß", "ĸ", "þ", "Þ", "ŕ", "ª", "º",
           "ж", "Ж", "α", "Ω", "ا", "ש", "ก", "\u0301", "\u0300", "\u0483", "\u05b0",
           "\u0e31", "日", "本", "の", "テ", "ｱ", "한", "½", "©", "²", "°", "€", "»", "’",
           "·", "–", "…", "\u00ad", "\u05be", "。", "\x80", "\x9f", "\x81", "\u2500", "╗",
           "\ue000", "\ufffd", "\ud800", "\U0001f600", "\U00020000", "\u0378",
           " ", "\t", "\n", "\x1c", "\x1f", *NON_ASCII_SPACES)
_TEXT = st.one_of(st.text(max_size=60),
                  st.lists(st.sampled_from(_PIECES), max_size=60).map("".join))


def _same(text: str, max_words: int = MAX_WORDS) -> None:
    """The compiled answer is the reference's: same count, same float to the last bit."""
    assert _plausibility._C is not None
    compiled = _plausibility._C.implausibility(text, max_words)
    reference = implausibility_reference(text, max_words)
    assert compiled == reference, (text, max_words)
    assert compiled[0].hex() == reference[0].hex(), (text, max_words)
    assert type(compiled[1]) is int


@needs_compiled
@settings(max_examples=3000)
@given(_TEXT, st.sampled_from([MAX_WORDS, 0, 1, 2, 5]))
def test_the_compiled_scorer_is_the_reference(text, max_words):
    """Arbitrary text, and text of many scripts, marks, symbols and spaces, at any cut."""
    _same(text, max_words)


@needs_compiled
@settings(max_examples=500)
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=12).map("".join),
       st.sampled_from(NON_ASCII_SPACES), st.integers(0, 8))
def test_a_non_ascii_space_after_the_cut(word, space, max_words):
    """A non-ASCII space anywhere, even past the last word scored, joins words as the
    reference's regular expression does."""
    _same(f"{word} é{word} x{space}é {word}" * 3, max_words)


def _readings(bodies: list[bytes]) -> list[str]:
    return [decode_replace(body, encoding)[0]
            for body in bodies for encoding in sorted(SINGLE_BYTE_ENCODINGS)]


def _case_bodies() -> list[bytes]:
    bodies = []
    for path in sorted(CASES.glob("*.json")):
        cases = json.loads(path.read_text(encoding="utf-8"))
        for case in cases if isinstance(cases, list) else ():
            if isinstance(case, dict) and isinstance(case.get("body_hex"), str):
                bodies.append(bytes.fromhex(case["body_hex"]))
            elif isinstance(case, dict) and isinstance(case.get("body"), str):
                bodies.append(case["body"].encode("utf-8"))
    return bodies


@needs_compiled
def test_every_real_world_page_in_every_single_byte_encoding():
    """Every page of bench/realworld.py, read in every single-byte encoding."""
    realworld = repo_module("realworld", "bench")
    for text in _readings([page.body for page in realworld.pages()]):
        _same(text)
        _same(text, 3)


@needs_compiled
def test_every_seed_case_in_every_single_byte_encoding():
    """Every seed case body (tests/cases), read in every single-byte encoding."""
    for text in _readings(_case_bodies()):
        _same(text)


@needs_compiled
@pytest.mark.parametrize("text", ["", "plain ASCII words", " \t\n", "é", "\xa0", "\u3000é",
                                  "é\xa0", "\xa0é", "a\xa0\xa0b é"],
                         ids=["empty", "ascii", "spaces", "one", "nbsp", "ideographic-space",
                              "nbsp-after", "nbsp-before", "two-nbsp"])
def test_edges(text):
    """Empty, ASCII-only and space-only text, and non-ASCII spaces at the ends."""
    _same(text)
    _same(text, 0)


@needs_compiled
def test_the_max_words_cut():
    """Only the first ``max_words`` non-ASCII words count, ASCII words not counted."""
    text = " ".join(["plain", "c½ur"] * 50)
    assert implausibility(text, 10) == implausibility_reference(text, 10) == (10.0, 10)
    _same(text, 0)
    _same(text, 99)


def test_a_negative_or_huge_cut_is_the_reference_s():
    """A negative cut slices from the end (as the reference's list slice does)."""
    text = "c½ur é x½y"
    for max_words in (-1, -5, 2**70):
        assert implausibility(text, max_words) == implausibility_reference(text, max_words)


@needs_compiled
@pytest.mark.parametrize("piece", ["é", "c½ur ", "\u2500", "日本a", "ж\u0301", "a\u0301",
                                   "é" * 1000 + " ", "\xa0", "\xa0é "],
                         ids=["one-word", "words", "box", "cjk", "cyrillic-marks", "marks",
                              "long-words", "nbsp-run", "nbsp-words"])
def test_one_mebibyte_of_one_shape(piece):
    """1 MiB of one repeated shape, scored whole and cut: the reference's answer (one pass,
    each character read once or twice; the page table holds only the code points met)."""
    big = piece * ((1 << 20) // len(piece))
    _same(big)
    _same(big, 1 << 40)
