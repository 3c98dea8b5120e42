"""Tests for encoding_core.fields.mojibake: find_mojibake, its prefilter and its explanations.

The chain's names (``fields.chain``) are tested in test_mojibake_chain.py.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from ftfy.badness import BADNESS_RE
from hypothesis import given, settings
from hypothesis import strategies as st

from encoding_core.fields import prefilter as mojibake_prefilter
from encoding_core.fields.mojibake import (
    Mojibake,
    MojibakeFinder,
    find_mojibake,
    suspicious_part,
)

CASES = Path(__file__).parents[1] / "cases"


def _cases(name: str) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads((CASES / name).read_text("utf-8"))["cases"]
    return cases


def _params(name: str) -> list[Any]:
    return [pytest.param(case, id=case["label"], marks=[pytest.mark.xfail(
        strict=True, reason=case["xfail"])] if "xfail" in case else [])
        for case in _cases(name)]


@pytest.mark.parametrize("case", _params("mojibake_clean.json"))
def test_clean_text_is_not_flagged(case: dict[str, Any]) -> None:
    """Legitimate text in many scripts gives None."""
    assert find_mojibake(case["text"]) is None


@pytest.mark.parametrize("case", _params("mojibake_hard_negatives.json"))
def test_hard_negatives_are_not_flagged(case: dict[str, Any]) -> None:
    """Real-world shapes that look like mojibake to a naive finder (CAFÉ®, 4×£10, ACHETÉ…)."""
    assert find_mojibake(case["text"]) is None


def test_against_ftfy_on_the_same_cases() -> None:
    """False alarms on the hard negatives no more than ftfy's is_bad; on the damaged cases,
    recall at least ftfy's and exact repairs at least as many as ftfy.fix_encoding."""
    import ftfy
    from ftfy.badness import is_bad

    negatives = [case["text"] for case in _cases("mojibake_hard_negatives.json")]
    assert sum(find_mojibake(t) is not None for t in negatives) <= sum(map(is_bad, negatives))
    damaged = [case for case in _cases("mojibake_damaged.json") if case["expect"] == "mojibake"]
    found = [find_mojibake(case["text"]) for case in damaged]
    assert sum(f is not None for f in found) >= sum(is_bad(c["text"]) for c in damaged)
    ours = sum(f is not None and f.repaired == c["repaired"] for f, c in zip(found, damaged,
                                                                            strict=True))
    theirs = sum(ftfy.fix_encoding(c["text"]) == c["repaired"] for c in damaged)
    assert ours >= theirs


@pytest.mark.parametrize("case", _params("mojibake_damaged.json"))
def test_damaged_text_is_found_and_explained(case: dict[str, Any]) -> None:
    """Damaged text gives its kind, the true text as the repair, and the chain."""
    found = find_mojibake(case["text"])
    assert found is not None
    assert found.kind == case["expect"]
    assert found.repaired == case["repaired"]
    if "chain" in case:
        assert found.chain == case["chain"]
    assert found.spans


@pytest.mark.parametrize(("text", "marked"), [
    ("Jos? Garc?a", ["Jos?", "Garc?a"]),
    ("?lvaro P?rez", ["?lvaro", "P?rez"]),
    ("Fran?ois", ["Fran?ois"]),
    ("Bj??rk", ["Bj??rk"]),
], ids=["name", "word-start", "one", "two-in-a-row"])
def test_question_mark_where_a_letter_was_is_lossy(text: str, marked: list[str]) -> None:
    """A ? inside a word is a lost letter; the spans point at each ?."""
    found = find_mojibake(text)
    assert found is not None and found.kind == "lossy" and found.repaired is None
    assert all(text[start:end].strip("?") == "" for start, end in found.spans)
    words = {word for word in text.split() if any(s <= text.index(word) + word.index("?") < e
                                                    for s, e in found.spans)}
    assert words == set(marked)


@pytest.mark.parametrize("text", [
    "Why?", "a?b=1", "https://shop.example/p?id=7&x=1", "x = a?b:c", "What?? Really?!",
    "¿Qué?", "mailto:a@b.example?subject=hi", "C:\\dir?x", "Où est l’école ?", "???", "3?",
], ids=["question", "query", "url", "ternary", "emphasis", "spanish", "mailto", "path",
        "french-space", "placeholder", "digit"])
def test_question_mark_that_is_punctuation_is_not_flagged(text: str) -> None:
    """Questions, URLs and code keep their ? without a finding."""
    assert find_mojibake(text) is None


def test_spans_cover_the_mojibake() -> None:
    """Each span covers one damaged sequence; a double-encoded one is one span."""
    found = find_mojibake("JosÃ© and JosÃƒÂ©!")
    assert found is not None
    assert found.spans == ((3, 5), (13, 17))


def test_c1_controls_kind_and_repair() -> None:
    """windows-1252 bytes read as ISO-8859-1 are repaired to the punctuation they were."""
    found = find_mojibake("1990\x962000 \x80 5")
    assert found == Mojibake("c1-controls", "1990–2000 € 5", "windows-1252 read as iso-8859-1",
                             ((4, 5), (10, 11)))


def test_replacement_character_is_lossy() -> None:
    """U+FFFD means bytes were lost: no repair is offered."""
    found = find_mojibake("Jos\ufffd")
    assert found is not None and found.kind == "lossy" and found.repaired is None
    assert "U+FFFD" in found.chain


def test_unexplained_mojibake_has_no_repair() -> None:
    """Text ftfy calls bad but no decode chain repairs is flagged without a repair."""
    found = find_mojibake("a ¢Ð€ b")
    assert found is not None and found.kind == "mojibake" and found.repaired is None
    assert found.chain.startswith("unexplained")


def test_result_is_frozen_and_serialisable() -> None:
    """Mojibake is an immutable record with a JSON-ready dict."""
    found = find_mojibake("JosÃ©")
    assert found is not None
    with pytest.raises(dataclasses.FrozenInstanceError):
        found.kind = "lossy"  # type: ignore[misc]
    assert json.loads(json.dumps(found.to_dict()))["repaired"] == "José"


def test_suspicious_part_is_a_window_around_the_first_span() -> None:
    """The excerpt keeps the suspicious part and the given context."""
    text = "x" * 1000 + "JosÃ©" + "y" * 1000
    found = find_mojibake(text)
    assert found is not None
    assert suspicious_part(text, found, context=5) == "xxJosÃ©yyyyy"


def _expensive_steps_counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The characters handed to the costly steps (ftfy's ``is_bad``, and each step of its
    repair), one entry per call: the real functions run, wrapped to count."""
    import ftfy

    from encoding_core.fields import finder

    handed: list[int] = []

    def counted(fn: Any) -> Any:
        def call(text: str, *args: Any, **kwargs: Any) -> Any:
            handed.append(len(text))
            return fn(text, *args, **kwargs)
        return call

    monkeypatch.setattr(finder, "is_bad", counted(finder.is_bad))
    monkeypatch.setattr(ftfy, "_fix_encoding_one_step_and_explain",
                        counted(ftfy._fix_encoding_one_step_and_explain))
    return handed


def test_million_character_cell_is_fast(monkeypatch: pytest.MonkeyPatch) -> None:
    """A clean million-character cell never reaches the costly steps; with mojibake at its end
    it is still found, and the work grows with the length, not faster (counted, not timed)."""
    handed = _expensive_steps_counted(monkeypatch)
    work = {}
    for repeat in (3_300, 33_000):
        clean = "Café crème, São Paulo, Москва. " * repeat
        assert find_mojibake(clean) is None and handed == []
        found = find_mojibake(clean + "JosÃ©")
        assert found is not None and found.spans[-1] == (len(clean) + 3, len(clean) + 5)
        work[len(clean)] = sum(handed)
        handed.clear()
    (short, short_work), (long, long_work) = sorted(work.items())
    # the text once to is_bad, once to each step of the repair (at most a few steps)
    assert long <= long_work <= 4 * (long + 5)
    assert long_work / short_work <= 1.1 * long / short
@settings(max_examples=300, deadline=None)
@given(st.text())
def test_never_raises(text: str) -> None:
    """Any text gives None or a finding whose spans lie inside it."""
    found = find_mojibake(text)
    if found is not None:
        assert all(0 <= start < end <= len(text) for start, end in found.spans)


_MIXED = st.sampled_from(sorted(set("".join("".join(s) for s in mojibake_prefilter.SHAPES))
                                | set("abZ 09#.,-_\t?\ufffd\x85é中Пё’É")))


def _variants(text: str, seed: int) -> list[str]:
    """``text`` with its ASCII letters, digits and punctuation changed (spaces and ? kept)."""
    out = []
    for k in range(3):
        chars = [c for c in text]
        for i, c in enumerate(chars):
            if c.isascii() and c not in " ?" and (i * 7 + seed + k) % 3 == 0:
                chars[i] = ("qZ" if c.isalpha() else "7,")[(i + k) % 2]
        out.append("".join(chars) + f" {seed * 31 + k}")
    return out


@pytest.mark.parametrize("name", ["mojibake_clean.json", "mojibake_damaged.json"])
def test_finder_shares_findings_only_where_they_cannot_differ(name: str) -> None:
    """MojibakeFinder gives find_mojibake's answer for texts that differ only in their ASCII."""
    finder = MojibakeFinder(size=50)
    extra = ["Rue de l’Église 12", "Rue de lвЂ™Г‰glise 7", "a ¢Ð€ b 5", "Ã¢Â€Â™ 9", "Ð Ð°Ð´ 1"]
    for seed, case in enumerate([c["text"] for c in _cases(name)] + extra):
        for text in [case, *_variants(case, seed)]:
            assert finder.find(text) == find_mojibake(text), text


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(_MIXED, max_size=14), min_size=1, max_size=40))
def test_finder_agrees_with_find_mojibake(texts: list[str]) -> None:
    """One finder over many texts (sharing its caches) answers as find_mojibake does."""
    finder = MojibakeFinder(size=8)
    for text in texts + [t.replace("a", "Z").replace("0", "9") for t in texts]:
        assert finder.find(text) == find_mojibake(text)


def test_is_bad_sees_every_ascii_digit_alike() -> None:
    """ftfy's is_bad pattern never tells one ASCII digit from another (the finder relies on it)."""
    from re import _compiler, _constants, _parser  # type: ignore[attr-defined]

    digits = [str(d) for d in range(10)]
    parsed = _parser.parse(BADNESS_RE.pattern, BADNESS_RE.flags)

    def walk(items: Any) -> None:
        for op, av in items:
            if op in (_constants.LITERAL, _constants.NOT_LITERAL):
                assert chr(av) not in digits
            elif op is _constants.IN:
                one = _parser.SubPattern(parsed.state, [(op, av)])
                pattern = _compiler.compile(one, BADNESS_RE.flags)
                assert len({bool(pattern.fullmatch(d)) for d in digits}) == 1
            elif op is _constants.BRANCH:
                for branch in av[1]:
                    walk(branch)
            elif op is _constants.SUBPATTERN:
                walk(av[-1])
            elif op in (_constants.MAX_REPEAT, _constants.MIN_REPEAT):
                walk(av[2])
            else:
                assert op in (_constants.ANY, _constants.AT), op

    walk(parsed)


CLEAN_TEXTS = Path(__file__).parents[2] / "bench" / "cleantexts"


@pytest.mark.parametrize("shape", ["as_is", "all_caps", "title_case", "emoticons", "box_drawing",
                                   "product_symbols", "quoted_mojibake"])
def test_clean_text_set_flags_no_more_than_ftfy(shape: str) -> None:
    """On clean text the project did not write (names, CLDR, words as they stand, upper- and
    title-cased; emoticons; box drawing; product symbols; prose quoting mojibake), no more
    false alarms than ftfy's is_bad, shape by shape (bench/cleantexts, issue 23)."""
    from ftfy.badness import is_bad

    texts = (CLEAN_TEXTS / f"{shape}.txt").read_text("utf-8").split("\n")[:-1]
    assert len(texts) > 5_000
    finder = MojibakeFinder()
    ours = [text for text in texts if finder.explain(text) is not None]
    assert len(ours) <= sum(map(is_bad, texts)), ours[:20]
