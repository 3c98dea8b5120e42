"""Tests for a single-byte decision over UTF-8 runs (encoding_core.decision.mixedpage)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from encoding_core.decision.mixedpage import mixed_single_byte

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
    """The shortcut before the UTF-8 run searches (here and ``rare_latin.without_utf8``): a
    body ``may_be_mostly_utf8(body, 0)`` rules out holds no run either regex would find."""
    from encoding_core.decision import mixedpage, rare_latin, utf8scan
    from encoding_core.decision.utf8profile import may_be_mostly_utf8

    if not may_be_mostly_utf8(body, 0):
        assert mixedpage._UTF8_RUN.search(body) is None
        assert rare_latin.without_utf8(body) == body
    if utf8scan.body_scan(body) is not None:   # compiled: the exact count, both ways
        assert may_be_mostly_utf8(body, 0) == (rare_latin._UTF8.search(body) is not None)
