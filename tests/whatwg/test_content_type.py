"""content_type: MIME Sniffing "parse a MIME type" and Fetch "extract a MIME type" for the charset.

The cases (``tests/cases/content_type.json``) start from w3lib's ``test_http_encoding_header``
checklist, answered the way the standards answer (a few differ from w3lib; their comments say so).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from encoding_core.whatwg.content_type import (
    _LOOSE_CHARSET,
    http_content_type_charset,
    parse_mime_type,
)
from encoding_core.whatwg.labels import get_encoding
from tests.conformance import case_params, label_table, load_cases

CASES = load_cases("content_type.json")


@pytest.mark.parametrize("case", case_params(CASES))
def test_content_type_case(case):
    """Each case: the charset browsers take from the header, and what else is reported."""
    found = http_content_type_charset(case["content_type"])
    encoding = get_encoding(found.charset) if found.charset is not None else None
    assert encoding == case["expect_encoding"]
    if "expect_charset" in case:
        assert found.charset == case["expect_charset"]
    if "expect_valid" in case:
        assert found.valid is case["expect_valid"]
    if "expect_lenient" in case:
        assert found.lenient == case["expect_lenient"]
    if "expect_mime" in case:
        assert found.mime_type == case["expect_mime"]


def test_none_header():
    """No header at all: nothing, and nothing lenient."""
    found = http_content_type_charset(None)
    assert (found.charset, found.mime_type, found.values, found.valid, found.lenient) == (
        None, None, (), False, None)


def test_values_are_split_outside_quotes():
    """values holds each comma-separated value, quotes kept, tabs and spaces trimmed."""
    found = http_content_type_charset(' text/html;charset=gbk ,\ttext/plain; a="x, y" ')
    assert found.values == ("text/html;charset=gbk", 'text/plain; a="x, y"')
    assert found.charsets_seen == ("gbk",)


def test_valid_charset_is_never_lenient():
    """lenient is only reported when no value parses."""
    found = http_content_type_charset("text/html; charset=gbk, bogus; charset=utf-8")
    assert (found.charset, found.valid, found.lenient) == ("gbk", True, None)


PARSE = [
    ("basic", "text/html", ("text", "html", ())),
    ("lower-cased", "Text/HTML; Charset=UTF-8", ("text", "html", (("charset", "UTF-8"),))),
    ("order-kept", "a/b; y=1; x=2", ("a", "b", (("y", "1"), ("x", "2")))),
    ("first-duplicate-wins", "a/b; x=1; X=2", ("a", "b", (("x", "1"),))),
    ("quoted-escapes", 'a/b; x="q\\"\\\\"', ("a", "b", (("x", 'q"\\'),))),
    ("quoted-empty-kept", 'a/b; x=""', ("a", "b", (("x", ""),))),
    ("unquoted-empty-dropped", "a/b; x=; y=2", ("a", "b", (("y", "2"),))),
    ("trailing-semicolon", "a/b;", ("a", "b", ())),
    ("subtype-trailing-space", "a/b ;x=1", ("a", "b", (("x", "1"),))),
    ("value-trailing-space-removed", "a/b; x=1 \t; y=2", ("a", "b", (("x", "1"), ("y", "2")))),
    ("space-before-name-skipped", "a/b;   x=1", ("a", "b", (("x", "1"),))),
    ("name-with-space-dropped", "a/b; x y=1", ("a", "b", ())),
    ("star-star-parses", "*/*", ("*", "*", ())),
    ("no-slash", "text", None),
    ("empty", "", None),
    ("only-whitespace", " \t\r\n", None),
    ("empty-type", "/b", None),
    ("empty-subtype", "a/", None),
    ("subtype-only-space", "a/ ;x=1", None),
    ("slash-in-subtype", "a/b/c", None),
    ("comma-in-subtype", "a/b, c/d", None),
    ("leading-vertical-tab", "\x0ba/b", None),
]


PARSE_PARAMS = [pytest.param(*c[1:], id=c[0]) for c in PARSE] + [
    pytest.param("a/b; \u212a=1; k=2", ("a", "b", (("k", "2"),)), id="kelvin-sign-name"),
]


@pytest.mark.parametrize(("value", "expected"), PARSE_PARAMS)
def test_parse_mime_type(value, expected):
    """parse_mime_type: type, subtype and parameters as MIME Sniffing gives them, or None."""
    parsed = parse_mime_type(value)
    if expected is None:
        assert parsed is None
    else:
        assert parsed is not None
        assert (parsed.type, parsed.subtype, parsed.parameters) == expected
        assert parsed.essence == f"{expected[0]}/{expected[1]}"


_LABELS = [label for label, _ in label_table()]
_PIECES = st.sampled_from([
    "text/html", "text/plain", "*/*", "TEXT/HTML", ";", "; ", ",", ", ", "=", '"', "\\", " ", "\t",
    "\r\n", "charset", "charset=", "Charset=", "foo=bar", "x", "\u00e9", "\u2028", "\u4e2d",
    "\x00", "\x7f", "/",
])
HEADERS = st.one_of(
    st.text(max_size=60),
    st.lists(st.one_of(_PIECES, st.sampled_from(_LABELS), st.text(max_size=3)), max_size=14).map(
        "".join),
)


@settings(max_examples=200, deadline=None)
@given(HEADERS)
def test_never_raises_and_reports_consistently(header):
    """Any header string: no exception; a charset implies a valid MIME type; lenient otherwise."""
    found = http_content_type_charset(header)
    if found.charset is not None:
        assert found.valid and found.mime_type is not None
        assert found.charset in found.charsets_seen
    if found.valid:
        assert found.lenient is None
        assert found.mime_type is not None and found.mime_type != "*/*"
    else:
        assert found.charset is None and found.mime_type is None
    for value in found.values:
        parse_mime_type(value)


_BACKTRACKING_LOOSE = re.compile(r"charset\s*=\s*[\"']?\s*([^\s\"';,]+)", re.IGNORECASE)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(["charset", "CHARSET", "=", " ", "\t", "\u3000", '"', "'", ";",
                                 ",", "utf-8", "x", "text/html"]), max_size=25).map("".join))
def test_the_loose_charset_pattern_matches_as_the_backtracking_one(header):
    """The possessive pattern finds what its backtracking form found, on any mix of the
    pieces it reads (the backtracking form tried each split of a run of spaces: quadratic)."""
    found = _LOOSE_CHARSET.search(header)
    wanted = _BACKTRACKING_LOOSE.search(header)
    assert (found and found.span(1)) == (wanted and wanted.span(1))


def test_a_header_of_spaces_after_charset_is_read_in_one_pass():
    """40,000 spaces after ``charset=`` and no value (9 s with the backtracking pattern): no
    lenient charset, found the way a short header's is."""
    found = http_content_type_charset("charset=" + " " * 40_000 + ";")
    assert found.valid is False and found.lenient is None
    assert http_content_type_charset("charset=" + " " * 40_000 + "koi8-r").lenient == "koi8-r"
