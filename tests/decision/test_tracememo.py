"""TraceMemo: what is remembered, and what a body that differs gets instead."""

from __future__ import annotations

from encoding_core.decision.resolve import Opinions, Walk
from encoding_core.decision.tracememo import TraceMemo
from encoding_core.whatwg.content_type import http_content_type_charset
from encoding_core.whatwg.prescan import find_declaration


def _walked(body: bytes, header: str, memo: TraceMemo) -> Opinions:
    opinions = Opinions(None, http_content_type_charset(header), find_declaration(body))
    walk = Walk(body, opinions)
    walk.silent_sources()
    walk.declared(None, None)
    memo.remember(walk, None)
    return opinions


def test_a_body_the_trace_is_not_for_gets_the_attempt_for_its_walk():
    """A truncated body under a remembered UTF-8 trace: no trace, but the strict attempt,
    which the walk then takes instead of decoding again."""
    memo = TraceMemo()
    opinions = _walked("<p>café</p>".encode(), "text/html; charset=utf-8", memo)
    _, trace = memo.recall("<p>naïve</p>".encode(), opinions, None)
    assert trace is not None and trace[0] == "http-header"
    cut = "<p>naïve café".encode()[:-1]
    tried, trace = memo.recall(cut, opinions, None)
    assert trace is None and tried is not None and tried.truncated
    assert Walk(cut, opinions, tried).attempt("utf-8") is tried


def test_what_is_not_remembered():
    """A header value past 200 characters, a BOM, and a walk whose first source failed."""
    memo = TraceMemo()
    long_header = "text/html; charset=utf-8; " + "x=y; " * 50
    assert memo.recall(b"<p>a</p>", _walked(b"<p>a</p>", long_header, memo), None) == (None, None)
    failed = _walked(b'<meta charset="utf-8"><p>caf\xe9</p>', "text/html; charset=utf-8", memo)
    assert memo.recall(b'<meta charset="utf-8"><p>caf\xe9</p>', failed, None) == (None, None)
