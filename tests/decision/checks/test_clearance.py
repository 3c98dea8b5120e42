"""Tests for the one-pass clearance of plain records (encoding_core.decision.checks.clearance).

What it must never do: clear a record in which a check finds anything (the conflicts a
decision reports would go missing, silently). What would make it useless: clearing nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from encoding_core.decision.checks.clearance import ANSWERS_FOR, clears
from encoding_core.decision.conflicts import PLAIN_CHECKS, find_conflicts
from encoding_core.decision.decode import what_checks_read
from encoding_core.speedups import compiled
from tests.repomodules import repo_module

_COMPILED = (compiled("encoding_core.decision._bytetest_c") is not None
             and compiled("encoding_core.decision._utf8scan") is not None)
_CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parents[2] / "cases" / "clearance.json").read_text(encoding="utf-8"))["cases"]
# labels a page is served under: its own, and the lies the checks exist to catch
_LABELS = ("utf-8", "windows-1252", "iso-8859-1", "iso-8859-2", "windows-1251", "koi8-r",
           "windows-1253", "windows-1254", "shift_jis", "euc-kr", "gbk", "big5", "utf-16le")


def test_it_answers_for_every_check_of_a_plain_record() -> None:
    """A check added to PLAIN_CHECKS is one the clearance does not know: it must be added to
    ``ANSWERS_FOR`` with the fact it starts from, or the clearance would skip it."""
    assert ANSWERS_FOR == PLAIN_CHECKS


def _body(case: dict[str, Any]) -> bytes:
    if "body_hex" in case:
        return bytes.fromhex(case["body_hex"])
    return str(case["text"]).encode(case["encoding"])


def _sound(body: bytes, content_type: str | None) -> bool:
    """Whether ``clears`` is right about this page's record (it never clears a record any
    check finds something in); returns whether it cleared it."""
    record = what_checks_read(body, content_type)
    if not (record.plain and clears(record)):
        return False
    assert find_conflicts(record) == (), (body[:80], content_type)
    return True


@pytest.mark.parametrize("case", _CASES, ids=[c["name"] for c in _CASES])
def test_the_cases(case: dict[str, Any]) -> None:
    """Each case clears as written where the compiled passes are in use (never without
    them), and its checks find what they find, cleared or not."""
    record = what_checks_read(_body(case), case["content_type"])
    assert record.plain
    assert clears(record) is (case["clears"] and _COMPILED)
    kinds = [c.kind for c in find_conflicts(record)]
    assert (kinds == []) if case["clears"] else bool(kinds)
    if case["kinds"] is not None:
        assert kinds == case["kinds"]


def test_the_real_world_set_under_every_label() -> None:
    """Every real-world page under its own header and under each label of ``_LABELS``: no
    record it clears holds a conflict, and it clears most pages served as they are."""
    pages = repo_module("realworld", "bench").pages()
    cleared = own = 0
    for page in pages:
        if page.served == "declared":
            own += 1
            cleared += _sound(page.body, page.content_type)
        for label in _LABELS:
            _sound(page.body, f"text/html; charset={label}")
    if _COMPILED:
        assert cleared >= own * 0.9, (cleared, own)


def test_the_generated_corpus() -> None:
    """The corpus's pages, as declared and under a windows-1252 header: none wrongly cleared."""
    cleared = 0
    for sample in repo_module("corpus", "bench").build_corpus(quick=True):
        cleared += _sound(sample.body, None)
        _sound(sample.body, "text/html; charset=windows-1252")
    assert cleared > 0 or not _COMPILED


_PIECES = st.one_of(
    st.sampled_from([b" ", b"word ", b"<p>", b"</b>", b"\n", b"\x1b$B", b"\x1b(B", b"\x00",
                     b"\x01\x02\x03", b"\xf5\xf6", b"\xe3\xee", b"\xfd\xe7", b"\xe4",
                     "é".encode(), "’".encode(), "日本".encode(), "Ж".encode()]),
    st.integers(0x80, 0xFF).map(lambda b: bytes([b])),
    st.binary(max_size=4))


@settings(max_examples=2000, deadline=None)
@given(st.one_of(st.lists(_PIECES, max_size=120).map(b"".join),
                 st.tuples(st.sampled_from([0, 1020, 1100, 4090]), st.lists(_PIECES, max_size=60))
                   .map(lambda pair: b"x" * pair[0] + b"".join(pair[1]))),
       st.sampled_from(_LABELS))
def test_never_clears_a_finding(body: bytes, label: str) -> None:
    """Any bytes under any label: a record it clears gets no conflict from the checks."""
    _sound(body, f"text/html; charset={label}")
