"""_browser_meta: the compiled attribute reading gives the reference's tags, on any bytes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from encoding_core.decision import _browser_meta
from encoding_core.decision._browser_meta import (
    CHROMIUM_RAW_TEXT,
    FIREFOX_RAW_TEXT,
    meta_tags,
    tag_attributes,
    tag_attributes_reference,
)
from encoding_core.whatwg._prescan_steps import EndOfInput
from tests.conformance import case_body, html5lib_encoding_cases, load_cases
from tests.repomodules import repo_module

needs_compiled = pytest.mark.skipif(_browser_meta._C is None,
                                    reason="the compiled extension is not in use")


def _read(reader, data: bytes, pos: int, keep: bool):
    """The reader's answer, or "end" where it raises EndOfInput."""
    try:
        return reader(data, pos, keep=keep)
    except EndOfInput:
        return "end"


_PIECES = st.sampled_from([b" ", b"\t", b"/", b"=", b"==", b'"', b"'", b">", b"a", b"B",
                           b"charset", b"CONTENT", b"x=y", b'x="y z"', b"x='>'", b'b"c',
                           b"\xe9", b"\x00", b"<", b" = "])
_TAGS = st.lists(_PIECES, max_size=16).map(b"".join)


@needs_compiled
@settings(max_examples=1500, deadline=None)
@given(st.one_of(st.binary(max_size=64), _TAGS), st.integers(0, 70), st.booleans())
def test_the_compiled_attributes_are_the_references(data, pos, keep):
    """From any position of any bytes: the same pairs and ">" position, or both run out."""
    assert _read(tag_attributes, data, pos, keep) == _read(tag_attributes_reference, data, pos,
                                                           keep)


def _pages() -> list[bytes]:
    """html5lib's encoding cases, prescan.json's, and both bench sets' pages."""
    realworld = repo_module("realworld", "bench")
    corpus = repo_module("corpus", "bench")
    return ([case.data for case in html5lib_encoding_cases()]
            + [case_body(case) for case in load_cases("prescan.json")]
            + [page.body for page in realworld.pages()]
            + [sample.body for sample in corpus.build_corpus(quick=True)])


@needs_compiled
def test_meta_tags_are_the_references(monkeypatch):
    """Every page: the same <meta> tags, for both browsers, compiled or not."""
    pages = _pages()
    compiled = [[list(meta_tags(page, raw)) for raw in (CHROMIUM_RAW_TEXT, FIREFOX_RAW_TEXT)]
                for page in pages]
    monkeypatch.setattr(_browser_meta, "_C", None)
    for page, found in zip(pages, compiled, strict=True):
        assert found == [list(meta_tags(page, raw))
                         for raw in (CHROMIUM_RAW_TEXT, FIREFOX_RAW_TEXT)], page[:200]


def test_tag_attributes():
    """Names and values lower-cased, the ">" position; out of bytes: EndOfInput."""
    data = b'<meta Charset="UTF-8" x=Y/>'
    assert tag_attributes(data, 5) == ([("charset", "utf-8"), ("x", "y/")], 26)
    assert tag_attributes(data, 5, keep=False) == ([], 26)
    with pytest.raises(EndOfInput):
        tag_attributes(data[:-1], 5)
