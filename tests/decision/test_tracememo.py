"""TraceMemo: what is remembered, and what a body that differs gets instead."""

from __future__ import annotations

import pytest

from encoding_core.decision import decode as decode_module
from encoding_core.decision.attempt import DecodeAttempt
from encoding_core.decision.checks import check_input
from encoding_core.decision.decode import decode
from encoding_core.decision.mixedpage import mixed_single_byte
from encoding_core.decision.resolve import Opinions, Walk
from encoding_core.decision.tracememo import (
    _FIRST_WINNERS,
    MAX_LABELS,
    Remembered,
    TraceMemo,
    long_labels,
    memo_key,
)
from encoding_core.whatwg.content_type import http_content_type_charset
from encoding_core.whatwg.prescan import find_declaration


def _walked(body: bytes, header: str, memo: TraceMemo) -> Opinions:
    opinions = Opinions(None, http_content_type_charset(header), find_declaration(body))
    walk = Walk(body, opinions)
    walk.silent_sources()
    walk.declared(None, None)
    if walk.winner is None:   # (nothing decoded: nothing to remember)
        return opinions
    attempt, source = walk.winner
    given = check_input(body, opinions, attempt.encoding, source, False, walk.evidence)
    memo.remember(memo_key(header, opinions.declaration, None), attempt, source, given, (),
                  first_tried=len(walk.tried) == 1, body_read=False)
    return opinions


def _key(header: str, body: bytes) -> tuple[object, ...] | None:
    return memo_key(header, find_declaration(body), None)


def test_a_body_the_trace_is_not_for_gets_the_attempt_for_its_walk():
    """A truncated body under a remembered UTF-8 trace: no trace, but the strict attempt,
    which the walk then takes instead of decoding again."""
    memo = TraceMemo()
    header = "text/html; charset=utf-8"
    opinions = _walked("<p>café</p>".encode(), header, memo)
    known = memo.recall("<p>naïve</p>".encode(), _key(header, b""))
    assert isinstance(known, tuple) and isinstance(known[0], Remembered)
    assert known[0].source == "http-header" and known[0].encoding == "utf-8"
    assert known[1] == "<p>naïve</p>"
    cut = "<p>naïve café".encode()[:-1]
    tried = memo.recall(cut, _key(header, b""))
    assert isinstance(tried, DecodeAttempt) and tried.truncated
    assert Walk(cut, opinions, tried).attempt("utf-8") is tried


def test_what_is_not_remembered():
    """A header value past 200 characters, and a walk whose first source failed."""
    memo = TraceMemo()
    long_header = "text/html; charset=utf-8; " + "x=y; " * 50
    _walked(b"<p>a</p>", long_header, memo)
    assert _key(long_header, b"<p>a</p>") is None
    body = b'<meta charset="utf-8"><p>caf\xe9</p>'
    _walked(body, "text/html; charset=utf-8", memo)
    assert memo.recall(body, _key("text/html; charset=utf-8", body)) is None


def test_the_key_has_the_offset_of_a_late_declaration_only():
    """Two pages whose <meta> stands at different offsets in the first 1024 bytes share a
    key; a late one's offset is quoted in the trace, so it is part of the key."""
    early = [b"<p>x</p>" * n + b'<meta charset="utf-8">' for n in (0, 3)]
    assert _key("text/html", early[0]) == _key("text/html", early[1])
    late = [b"<!-- x -->" * n + b'<meta charset="utf-8">' for n in (120, 130)]
    assert _key("text/html", late[0]) != _key("text/html", late[1])


LONG_LABELS = {
    # a known label with white space around it (the prescan trims it), late and early
    "padded late": b"<!-- x -->" * 110 + b"<meta charset='utf-8" + b" " * 50_000 + b"'>",
    "padded early": b"<meta charset='utf-8" + b" " * (MAX_LABELS + 1) + b"'>",
    # unknown labels skipped before a known one
    "skipped": b"<!-- x -->" * 110 + b"<meta charset='x" + b"y" * 20_000 + b"'>"
               b"<meta charset=utf-8>",
    "many skipped": b"".join(b"<meta charset=x%d>" % n for n in range(80))
                    + b"<meta charset=utf-8>",
}


@pytest.mark.parametrize("body", LONG_LABELS.values(), ids=LONG_LABELS.keys())
def test_a_declaration_with_long_labels_is_not_remembered(body):
    """Labels longer than MAX_LABELS in all make no key: a hostile site's pages, each with
    its own 50 KB label, were each held by the memo (4,096 of them)."""
    declaration = find_declaration(body)
    assert declaration is not None and declaration.encoding == "utf-8"
    assert long_labels(declaration)
    assert memo_key("text/html", declaration, None) is None
    before = dict(decode_module._TRACES.known)
    page = body + b"<p>caf\xc3\xa9</p>"
    assert decode(page, "text/html").encoding == "utf-8"
    assert decode_module._TRACES.known == before


def test_long_labels_is_the_sum_of_every_label():
    near = b"<meta charset=x" + b"y" * (MAX_LABELS - 10) + b"><meta charset=utf-8>"
    assert not long_labels(find_declaration(near))
    assert long_labels(find_declaration(near.replace(b"y" * 10, b"y" * 20, 1)))


def test_hostile_labels_hold_no_memory_after_their_decisions():
    """Deciding 40 pages, each with its own 20 KB late label, holds next to nothing after
    (71 KB a page before the key left long labels out)."""
    import gc
    import tracemalloc

    pages = [b"<!-- x -->" * 110 + b"<meta charset='utf-8" + b" " * 20_000 + b"%d'>" % n
             + b"<meta charset=utf-8><p>x</p>" for n in range(40)]
    decode(pages[0], "text/html")
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        for page in pages[1:]:
            decode(page, "text/html")
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    assert held < 39 * 1024, held


@pytest.mark.parametrize("pad", [0, 1, 7, 90], ids=["0", "1", "7", "90"])
def test_a_recalled_decision_at_another_offset_is_the_walks(pad):
    """A page whose early <meta> stands elsewhere than the remembered page's is decided as
    a fresh walk decides it, field by field."""
    saved = decode_module._TRACES
    body = b"<p>x</p>" * pad + '<meta charset="windows-1251"><p>Москва</p>'.encode("cp1251")
    try:
        decode_module._TRACES = TraceMemo()
        fresh = decode(body, "text/html")
        decode_module._TRACES = TraceMemo()
        decode('<meta charset="windows-1251"><p>Жж</p>'.encode("cp1251"), "text/html")
        assert decode_module._TRACES.known
        recalled = decode(body, "text/html")
    finally:
        decode_module._TRACES = saved
    assert recalled == fresh


@pytest.mark.parametrize("source", sorted(_FIRST_WINNERS), ids=str)
def test_a_remembered_source_never_reads_as_a_mixed_page(source):
    """What the memo relies on: a declared source's single-byte reading is never mapped as a
    mixed page (so a recalled record has no segment map)."""
    body = "<p>café — “quoted” €</p>".encode() * 3 + "<p>Müller</p>".encode("cp1252")
    assert mixed_single_byte(body, "windows-1252", source, None) is None
