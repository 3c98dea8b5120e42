"""_prescan_c: the compiled prescan gives find_declaration_reference's Declaration on any bytes."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from encoding_core.whatwg import prescan
from encoding_core.whatwg._prescan_steps import Declaration
from encoding_core.whatwg.labels import ENCODING_NAMES
from tests.conformance import case_body, html5lib_encoding_cases, label_table, load_cases
from tests.repomodules import repo_module

_C = prescan._C
needs_compiled = pytest.mark.skipif(_C is None, reason="the compiled extension is not in use")
pytestmark = needs_compiled


def _same(body: bytes) -> None:
    """The compiled answer is the reference's, with and without the late search."""
    assert _C is not None
    for late in (True, False):
        assert _C.find_declaration(body, late) == prescan.find_declaration_reference(
            body, late=late), (body[:200], late)


def test_the_limits_are_the_references():
    """The compiled module reads as many bytes as the reference does."""
    assert _C is not None
    assert (_C.PRESCAN_LIMIT, _C.LATE_LIMIT) == (prescan.PRESCAN_LIMIT, prescan._LATE_LIMIT)


def test_the_records_fields_are_the_dataclass_fields():
    """The compiled module sets every field of Declaration, and Declaration has no
    __post_init__ that its way of building one would skip."""
    assert _C is not None
    assert tuple(field.name for field in dataclasses.fields(Declaration)) == _C.FIELDS
    assert not hasattr(Declaration, "__post_init__")
    found = _C.find_declaration(b'<meta charset="gbk">', True)
    assert type(found) is Declaration
    with pytest.raises(dataclasses.FrozenInstanceError):
        found.offset = 1  # type: ignore[misc]


def test_find_declaration_uses_the_compiled_prescan(monkeypatch):
    """find_declaration answers through the compiled module where it is built."""
    calls = []

    class Stub:
        @staticmethod
        def find_declaration(body, late):
            calls.append((body, late))

    monkeypatch.setattr(prescan, "_C", Stub)
    prescan.find_declaration(b"x", late=False)
    assert calls == [(b"x", False)]


_HTML5LIB = html5lib_encoding_cases()


@pytest.mark.parametrize("case", _HTML5LIB, ids=[c.id for c in _HTML5LIB])
def test_html5lib_cases(case):
    """html5lib-tests' encoding cases, and each cut at every 7th offset."""
    for cut in (*range(0, len(case.data), 7), len(case.data)):
        _same(case.data[:cut])


_CASES = load_cases("prescan.json")


@pytest.mark.parametrize("case", _CASES, ids=[c["label"] for c in _CASES])
def test_prescan_json_cases_at_every_offset(case):
    """The hand cases, whole and truncated at every offset."""
    body = case_body(case)
    for cut in range(len(body) + 1):
        _same(body[:cut])


def _corpora() -> list[bytes]:
    """The real-world-shaped set's pages and the generated corpus's (quick)."""
    realworld = repo_module("realworld", "bench")
    corpus = repo_module("corpus", "bench")
    return ([page.body for page in realworld.pages()]
            + [sample.body for sample in corpus.build_corpus(quick=True)])


def test_corpora():
    """Every page of both bench sets, and its first 1,100 bytes cut at every 13th offset."""
    for body in _corpora():
        _same(body)
        for cut in range(0, min(len(body), 1100), 13):
            _same(body[:cut])


_HOSTILE = {
    "lt-200000": b"<" * 200_000,
    "meta-50000": b"<meta " * 50_000,
    "meta-charset-run": b"<meta charset=" * 50_000,
    "unterminated-comment": b"<!--" + b"x" * 300_000,
    "comments": b"<!--" * 100_000,
    "unterminated-quote": b'<meta charset="' + b"x" * 300_000,
    "unterminated-tag": b"<a " + b"b=c " * 100_000,
    "bang-run": b"<!" * 100_000,
    "late-after-mib": b"<p>" + b" " * (1 << 20) + b'<meta charset="gbk">',
    "dashes": b"<!--" + b"-" * 200_000,
    "mib-of-x": b"x" * (1 << 20),
    "content-charset-run": b'<meta http-equiv=content-type content="' + b"charset " * 50_000
                           + b'">',
    "nul": b"\x00" * 100_000,
    "high": b"\xff" * 100_000,
}


@pytest.mark.parametrize("body", _HOSTILE.values(), ids=_HOSTILE.keys())
def test_hostile_shapes(body):
    """Long runs of one shape: the same answer (time: bench/bench_prescan.py --hostile)."""
    _same(body)


# Properties -------------------------------------------------------------------------------

_LABELS = [label.encode("ascii") for label, _ in label_table()]
_SPACE = st.sampled_from([b" ", b"\t", b"\n", b"\x0c", b"\r", b"/", b""])
_QUOTE = st.sampled_from([b'"', b"'", b""])
_NAME = st.sampled_from([b"charset", b"CHARSET", b"content", b"Content", b"http-equiv",
                         b"HTTP-EQUIV", b"x", b"=", b'b"c', b"d'e", b"charset2", b""])
_VALUE = st.one_of(
    st.sampled_from([b"content-type", b"Content-Type", b"text/html; charset=gbk",
                     b"charset = 'koi8-r' ;", b'charset="sjis"', b"charsetcharset=big5",
                     b"charset", b"x-user-defined", b"utf-16le", b"bogus", b"", b">", b"<",
                     b" koi8-r "]),
    st.sampled_from(_LABELS),
    st.binary(max_size=6),
)
_ATTRIBUTE = st.tuples(_SPACE, _NAME, _SPACE, st.sampled_from([b"=", b" = ", b""]), _QUOTE,
                       _VALUE, _QUOTE).map(b"".join)
_TAG = st.tuples(
    st.sampled_from([b"<meta", b"<META", b"<meta", b"<p", b"</p", b"<a", b"<1", b"</ ",
                     b"<!", b"<?", b"<!--", b"<?xml", b"<"]),
    _SPACE,
    st.lists(_ATTRIBUTE, max_size=5).map(b"".join),
    _SPACE,
    st.sampled_from([b">", b"/>", b"", b"-->", b"--", b" ?>"]),
).map(b"".join)
_TEXT = st.sampled_from([b"x", b"text ", b"-->", b"\xe9", b"\x00", b"<\x00?\x00x\x00",
                         b"\x00<\x00?\x00x", b" encoding='gbk'", b'encoding="bogus"?>'])
_HTMLISH = st.lists(st.one_of(_TAG, _TAG, _TEXT), max_size=12).map(b"".join)
_BODIES = st.one_of(
    st.binary(max_size=2048),
    _HTMLISH,
    st.tuples(st.integers(0, 1100), _HTMLISH).map(lambda t: b"x" * t[0] + t[1]),
    st.tuples(_HTMLISH, st.integers(900, 1100), _HTMLISH).map(
        lambda t: t[0] + b" " * t[1] + t[2]),
)


@settings(max_examples=1500, deadline=None)
@given(_BODIES)
def test_the_compiled_prescan_is_the_reference(body):
    """Arbitrary bytes and HTML-ish ones (tags, attributes, quotes, comments, "</", "<!",
    "<?", declarations around byte 1024): the same Declaration."""
    _same(body)


@settings(max_examples=300, deadline=None)
@given(_HTMLISH)
def test_truncated_at_every_offset(body):
    """An HTML-ish body cut at every offset: the same Declaration each time."""
    for cut in range(len(body) + 1):
        _same(body[:cut])


@settings(max_examples=300, deadline=None)
@given(_BODIES)
def test_the_compiled_answer_is_a_name(body):
    """Never x-user-defined, always a canonical name or None."""
    assert _C is not None
    found = _C.find_declaration(body, True)
    assert found is None or found.encoding is None or found.encoding in ENCODING_NAMES
