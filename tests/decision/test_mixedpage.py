"""Tests for a single-byte decision over UTF-8 runs (encoding_core.decision.mixedpage)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from encoding_core.decision import mixedpage
from encoding_core.decision.mixedpage import mixed_single_byte, utf8_runs, utf8_runs_reference
from tests.repomodules import repo_module

RU = "Москва и Кремль, сам три года"


@pytest.mark.parametrize(("body", "encoding", "source", "mixed"), [
    ("<p>Grüße aus Köln — “schön”</p>".encode() + "<p>Résumé</p>".encode("cp1252") * 6,
     "windows-1252", "detector", True),
    ("<p>Привет — “мир”</p>".encode() + RU.encode("cp1251") * 3, "windows-1251", "detector",
     True),
    # IBM866 Russian forms valid UTF-8 by chance (сам is E1 A0 AC, U+182C): not UTF-8 text
    ((RU + " ").encode("cp866") * 40, "ibm866", "detector", False),
    # one old-mojibake word among Latin-1 text: chance or damage, one is not enough
    ("São".encode() + " Très bien, déjà vu".encode("cp1252") * 20, "windows-1252",
     "detector", False),
    # a declaration decided it: the mixed check is for undeclared decisions
    ("<p>Grüße — “schön”</p>".encode() + "Résumé".encode("cp1252"), "windows-1252",
     "http-header", False),
], ids=["newcomer-page", "cyrillic-punctuation", "ibm866-by-chance", "one-old-mojibake",
        "declared"])
def test_mixed_single_byte(body: bytes, encoding: str, source: str, mixed: bool) -> None:
    """Valid UTF-8 text (punctuation, or Latin letters twice in a Latin page) beside legacy
    bytes is a mixed page; legacy bytes that are valid UTF-8 by chance are not."""
    assert (mixed_single_byte(body, encoding, source, None) is not None) is mixed


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from([b"a", b" ", b"\xc3", b"\xa9", b"\xe2\x80", b"\x94", b"\xe9",
                                 b"\xf0\x9f", b"\x98", b"\xed\xa0", b"\xff", b"\x80"]),
                max_size=60).map(b"".join))
def test_no_utf8_sequence_means_no_run_to_search(body):
    """The shortcut before ``rare_latin.without_utf8``'s run search: a body
    ``may_hold_utf8_sequence(body)`` rules out holds no run that regex, or this module's run
    expression, would find."""
    from encoding_core.decision import mixedpage, rare_latin, utf8scan
    from encoding_core.decision.utf8profile import may_hold_utf8_sequence

    if not may_hold_utf8_sequence(body):
        assert mixedpage._UTF8_RUN.search(body) is None
        assert rare_latin.without_utf8(body) == body
    if utf8scan.body_scan(body) is not None:   # compiled: the exact count, both ways
        assert may_hold_utf8_sequence(body) == (rare_latin._UTF8.search(body) is not None)

# Lead, continuation and other high bytes beside ASCII: valid runs, runs cut short, runs with
# a stray high byte on either side, surrogates and overlongs (which the run expression refuses)
_UTF8ISH = st.one_of(
    st.binary(max_size=300),
    st.lists(st.one_of(st.sampled_from([b" ", b"a", b"<", b"\xc3\xa9", b"\xe2\x80\x94",
                                        b"\xf0\x9f\x98\x80", b"\xed\xa0\x80", b"\xc0\xaf",
                                        b"\xe0\x80\x80", b"\xf4\x90\x80\x80"]),
                       st.integers(0x80, 0xFF).map(lambda b: bytes([b]))),
             max_size=150).map(b"".join))


@settings(max_examples=3000)
@given(_UTF8ISH)
def test_utf8_runs_are_the_run_expressions_matches(data: bytes) -> None:
    """The scan-then-candidates search finds what ``finditer`` finds, on any bytes."""
    assert list(utf8_runs(data)) == list(utf8_runs_reference(data))


def test_utf8_runs_on_the_real_world_and_case_pages() -> None:
    """The same runs on every real-world page and every seed case body, each also with a
    valid UTF-8 run around it."""
    bodies = [page.body for page in repo_module("realworld", "bench").pages()]
    for path in sorted((Path(__file__).parents[1] / "cases").glob("*.json")):
        bodies += [bytes.fromhex(case["body_hex"]) for case in _cases(path)]
    assert len(bodies) > 300
    for body in bodies:
        for data in (body, "— ".encode() + body + " “x”".encode()):
            assert list(utf8_runs(data)) == list(utf8_runs_reference(data))


def _cases(path: Path) -> list[dict[str, str]]:
    loaded = json.loads(path.read_text(encoding="utf-8"))
    found = loaded if isinstance(loaded, list) else loaded.get("cases", [])
    return [c for c in found if isinstance(c, dict) and isinstance(c.get("body_hex"), str)]


@pytest.mark.parametrize("body", [
    b"\xc3\xa9" * 200_000 + b"\xff", b"\xe9\xc3\xa9" * 100_000, b"<" * 100_000,
    b"\xc3" * 300_000, b"a\xc3\xa9" * 200_000, b"\xe2\x80" * 200_000 + b"\x94",
], ids=["one-long-run-then-stray", "candidates-behind-high-bytes", "angles",
        "leads-only", "many-short-runs", "long-cut-run"])
def test_utf8_runs_on_hostile_shapes(body: bytes) -> None:
    """Long runs of one shape stay linear (each byte tried a bounded number of times) and
    equal to the reference."""
    assert list(utf8_runs(body)) == list(utf8_runs_reference(body))


@settings(max_examples=300)
@given(st.lists(st.sampled_from([b" ", b"a", b"\xc3\xa9", b"\xe9\xc3\xa9", b"\xe2\x80\x94",
                                 b"\xed\xa0\x80", b"\xff", b"\xc3\xa9\xe9"]),
                min_size=150, max_size=600).map(b"".join))
def test_utf8_runs_past_the_tries_are_finditers(data: bytes) -> None:
    """Bodies with more candidates than are tried one by one: the rest, left to
    ``finditer`` from where the tries ended, are the same runs."""
    assert list(utf8_runs(data)) == list(utf8_runs_reference(data))


_PUNCTUATION_BYTES = [b"a", b"\xe2", b"\x80", b"\x82", b"\xac", b"\x84", b"\xa2", b"\xe9"]


@given(st.lists(st.sampled_from(_PUNCTUATION_BYTES), max_size=40).map(b"".join))
def test_the_punctuation_search_is_the_three_substring_searches(body: bytes) -> None:
    """One search for the UTF-8 lead bytes of punctuation, € and ™, as the three it replaces."""
    three = any(lead in body for lead in (b"\xe2\x80", b"\xe2\x82\xac", b"\xe2\x84\xa2"))
    assert (mixedpage._PUNCTUATION_LEADS.search(body) is not None) is three
