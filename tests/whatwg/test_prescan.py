"""prescan and find_declaration: html5lib-tests, hand cases, the 1024-byte limit, properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from encoding_core.decision.decode import decode
from encoding_core.whatwg.bom import browser_bom_sniff
from encoding_core.whatwg.labels import ENCODING_NAMES, get_encoding
from encoding_core.whatwg.prescan import PRESCAN_LIMIT, find_declaration, prescan
from tests.conformance import (
    case_body,
    case_params,
    html5lib_encoding_cases,
    label_table,
    load_cases,
)

DAT = html5lib_encoding_cases()


def _meta_end(data: bytes) -> int:
    """The offset just past the first ``<meta`` tag's ``>`` (-1 when there is none)."""
    start = data.lower().find(b"<meta")
    end = data.find(b">", start) if start >= 0 else -1
    return end + 1 if end >= 0 else -1


def _is_late(data: bytes) -> bool:
    """The html5lib cases whose declaration the 1024-byte prescan cannot see complete."""
    return _meta_end(data) > PRESCAN_LIMIT


BOM_CASES = [c for c in DAT if browser_bom_sniff(c.data) is not None]
LATE_CASES = [c for c in DAT if c not in BOM_CASES and _is_late(c.data)]
PRESCAN_CASES = [c for c in DAT if c not in BOM_CASES and c not in LATE_CASES]


def test_html5lib_cases_found():
    """All 82 cases are read, 2 of them BOM cases and 7 late ones."""
    assert len(DAT) == 82
    assert [c.id for c in BOM_CASES] == ["tests1.dat:276", "tests1.dat:282"]
    assert len(LATE_CASES) == 7
    assert all(get_encoding(c.encoding) is not None for c in DAT)


@pytest.mark.parametrize("case", PRESCAN_CASES, ids=[c.id for c in PRESCAN_CASES])
def test_html5lib_prescan(case):
    """A declaration in the first 1024 bytes is what the prescan finds (windows-1252: none)."""
    assert (prescan(case.data) or "windows-1252") == get_encoding(case.encoding)


@pytest.mark.parametrize("case", LATE_CASES, ids=[c.id for c in LATE_CASES])
def test_html5lib_late(case):
    """A declaration after byte 1024: not the prescan's, but find_declaration's, marked late."""
    assert prescan(case.data) is None
    assert find_declaration(case.data, late=False) is None
    found = find_declaration(case.data)
    assert found is not None
    assert (found.encoding, found.late) == (get_encoding(case.encoding), True)
    assert found.offset == case.data.lower().find(b"<meta")


@pytest.mark.parametrize("case", BOM_CASES, ids=[c.id for c in BOM_CASES])
def test_html5lib_bom(case):
    """A document that starts with a BOM is decoded by the BOM, whatever it declares."""
    result = decode(case.data)
    assert result.encoding == get_encoding(case.encoding)
    assert result.source == "bom"


@pytest.mark.parametrize("case", DAT, ids=[c.id for c in DAT])
def test_html5lib_browser_encoding(case):
    """decode's browser_encoding is what html5lib-tests expects, for every case."""
    assert decode(case.data, detector=None).browser_encoding == get_encoding(case.encoding)


CASES = load_cases("prescan.json")


@pytest.mark.parametrize("case", case_params(CASES))
def test_prescan_case(case):
    """Hand cases: the prescan's answer, and what find_declaration reports beside it."""
    body = case_body(case)
    expected = case["expect_encoding"]
    assert prescan(body) == expected
    found = find_declaration(body)
    if expected is not None:
        assert found is not None
        assert (found.encoding, found.late) == (expected, False)
    if "expect_raw_label" in case:
        assert found is not None and found.raw_label == case["expect_raw_label"]
    if "expect_source" in case:
        assert found is not None and str(found.source) == case["expect_source"]
    if "expect_skipped" in case:
        skipped = [s.raw_label for s in found.skipped] if found is not None else []
        assert skipped == case["expect_skipped"]
    if browser_bom_sniff(body) is None:
        assert decode(body, detector=None).browser_encoding == (expected or "windows-1252")


TAG = b'<meta charset="koi8-r">'


@pytest.mark.parametrize("start", range(PRESCAN_LIMIT - len(TAG) - 2, PRESCAN_LIMIT + 2))
def test_meta_across_the_limit(start):
    """A <meta> counts for the prescan only if it ends within the first 1024 bytes."""
    body = b"x" * start + TAG + b"<p>" + b"y" * 50
    inside = start + len(TAG) <= PRESCAN_LIMIT
    assert prescan(body) == ("koi8-r" if inside else None)
    found = find_declaration(body)
    assert found is not None
    assert (found.encoding, found.late, found.offset) == ("koi8-r", not inside, start)


@pytest.mark.parametrize("cut", range(1, len(TAG)), ids=lambda cut: f"cut-{cut}")
def test_meta_split_at_1024(cut):
    """A <meta> split by the 1024-byte limit is late: its head alone decides nothing."""
    start = PRESCAN_LIMIT - cut
    body = b"x" * start + TAG
    assert prescan(body) is None
    assert prescan(body[:PRESCAN_LIMIT]) is None
    found = find_declaration(body)
    assert found is not None and (found.encoding, found.late) == ("koi8-r", True)


def test_late_declaration_in_comment_ignored():
    """A late <meta> inside a comment is not a declaration."""
    body = b"x" * 2000 + b'<!-- <meta charset="koi8-r"> -->'
    assert find_declaration(body) is None


def test_late_after_unknown_label():
    """After byte 1024 too, an unknown label is passed over and reported, and the next used."""
    body = b"x" * 2000 + b'<meta charset="bogus"><meta charset="gbk">'
    found = find_declaration(body)
    assert found is not None
    assert (found.encoding, found.late, found.offset) == ("gbk", True, 2022)
    assert [(s.raw_label, s.offset) for s in found.skipped] == [("bogus", 2000)]


def test_late_content_needs_pragma():
    """The late search applies the prescan's rules: content alone declares nothing."""
    body = b"x" * 2000 + b'<meta content="text/html; charset=gbk"><meta charset=utf-16>'
    found = find_declaration(body)
    assert found is not None and (found.encoding, found.late) == ("utf-8", True)


def test_early_skipped_then_late():
    """A label skipped in the head and one skipped after it are both reported, once each."""
    body = (b'<meta charset="bogusa">' + b"x" * 2000
            + b'<meta charset="bogusb"><meta charset="koi8-r">')
    found = find_declaration(body)
    assert found is not None and (found.encoding, found.late) == ("koi8-r", True)
    assert [s.raw_label for s in found.skipped] == ["bogusa", "bogusb"]


def test_late_skipped_after_comment_lookalike():
    """'<!--' inside an attribute value does not make the late search lose skipped labels."""
    head = b'<p title="<!--"><meta charset="bogusa"><p title="-->">'
    body = head + b"x" * 2000 + b'<meta charset="bogusb"><meta charset="koi8-r">'
    found = find_declaration(body)
    assert found is not None and (found.encoding, found.late) == ("koi8-r", True)
    assert [s.raw_label for s in found.skipped] == ["bogusa", "bogusb"]


def test_late_skipped_no_duplicates():
    """Each skipped declaration is reported at most once."""
    head = b'<div title="<meta charset=bogusx>"><meta charset="bogusa">'
    body = head + b"x" * 2000 + b'<meta charset="bogusb"><meta charset="koi8-r">'
    found = find_declaration(body)
    assert found is not None and found.encoding == "koi8-r"
    labels = [s.raw_label for s in found.skipped]
    assert len(labels) == len(set(labels))
    assert {"bogusa", "bogusb"} <= set(labels)


def test_unknown_xml_label_then_late_meta():
    """An XML declaration with an unknown label does not stop the search for a late <meta>."""
    body = b'<?xml version="1.0" encoding="bogus"?>' + b"x" * 2000 + b'<meta charset="gbk">'
    assert prescan(body) is None
    found = find_declaration(body)
    assert found is not None and (found.encoding, found.late) == ("gbk", True)


def test_unknown_xml_label_then_meta():
    """Within the first 1024 bytes a <meta> after an unknown XML label is the prescan's answer."""
    body = b'<?xml version="1.0" encoding="bogus"?><meta charset="gbk">'
    assert prescan(body) == "gbk"


def test_prescan_reads_only_1024_bytes():
    """Bytes after the first 1024 never change the prescan's answer."""
    body = b"<!--" + b"-" * 1100 + b'--><meta charset="gbk">'
    assert prescan(body) is None
    assert prescan(body[:PRESCAN_LIMIT] + b'"><meta charset=gbk>') is None


# Properties -------------------------------------------------------------------------------

_LABELS = [label.encode("ascii") for label, _ in label_table()]
FRAGMENTS = st.one_of(
    st.sampled_from([
        b"<meta", b"<META", b"<meta ", b"<meta/", b" ", b"\t", b"\n", b"/", b"charset", b"CHARSET",
        b"charset=", b"=", b'"', b"'", b"<!--", b"-->", b"--", b">", b"<", b"</", b"<!", b"<?",
        b"<?xml", b"encoding=", b"http-equiv", b"http-equiv=content-type", b"content=",
        b"text/html;", b"; charset=", b"<p", b"x", b"\x00", b"\xff", b"<\x00?\x00x\x00",
    ]),
    st.sampled_from(_LABELS),
    st.sampled_from(_LABELS).map(bytes.upper),
    st.binary(max_size=4),
)
TAGLIKE = st.lists(FRAGMENTS, max_size=40).map(b"".join)
BODIES = st.one_of(
    st.binary(max_size=2048),
    TAGLIKE,
    st.tuples(st.integers(0, 1100), TAGLIKE).map(lambda t: b"x" * t[0] + t[1]),
)


@settings(max_examples=200, deadline=None)
@given(BODIES)
def test_prescan_never_raises(body):
    """Any bytes: no exception, and None or a canonical name (never x-user-defined)."""
    found = prescan(body)
    assert found is None or found in ENCODING_NAMES
    assert found != "x-user-defined"
    if found in ("utf-16le", "utf-16be"):
        assert body[:6] in (b"<\x00?\x00x\x00", b"\x00<\x00?\x00x")
    assert prescan(body[:PRESCAN_LIMIT]) == found


@settings(max_examples=200, deadline=None)
@given(BODIES)
def test_find_declaration_never_raises(body):
    """Any bytes: no exception; agrees with the prescan; a late one starts with '<meta'."""
    found = find_declaration(body)
    answer = prescan(body)
    if found is None or found.late:
        assert answer is None
    else:
        assert found.encoding == answer
    if found is not None:
        assert found.encoding is None or found.encoding in ENCODING_NAMES
        assert 0 <= found.offset < len(body)
        if found.late:
            assert found.encoding is not None
            assert body[found.offset:found.offset + 5].lower() == b"<meta"
        else:
            assert found.offset < PRESCAN_LIMIT
        for skipped in found.skipped:
            assert get_encoding(skipped.raw_label) is None


_FRAGMENTS = [b"<meta", b"<META ", b"<meta/", b" charset=", b'charset="koi8-r"', b"'", b'"',
              b"<!--", b"-->", b">", b"<", b"<!", b"<?", b"</", b"<p ", b"a=", b"=", b" ",
              b"gbk", b"http-equiv=content-type", b"content='text/html;charset=utf-8'", b"x",
              b"\n", b"<!DOCTYPE html>", b'<html lang="en">', b"<title>", b"</title>",
              b'http-equiv="Content-Type"', b"http-equiv='content-type'", b"http-equiv=refresh",
              b' content="text/html; charset=koi8-r"', b" content='text/html'",
              b'content="charset=nope"', b"content='x;charset=\"gbk\"'", b"/", b"\t",
              # quotes where "get an attribute" reads them as bytes of a name or an unquoted
              # value (the shortcut once read them as opening a value)
              b'<a ', b'b"c', b"d'e", b'="', b"='", b'x=b"', b'<a b"c=" x>']


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_FRAGMENTS), max_size=16))
def test_scan_shortcut_gives_the_loops_answer(parts):
    """Starting the loop at the first <meta> after a plain prefix changes nothing."""
    from encoding_core.whatwg.prescan import _scan

    data = b"".join(parts)
    slow: list = []
    fast: list = []
    assert _scan(data, fast) == _scan(data, slow, shortcut=False)
    assert fast == slow


def test_the_late_search_stops_at_its_limit_inside_one_tag():
    """A ``<meta`` whose attributes run past the late search's 1 MiB (read to their end before:
    4.3 s at 10 MB) is cut at the limit: a charset after it is not found; one before it is."""
    from encoding_core.whatwg import prescan as module

    head = b"<html>" + b" " * 2000
    past = head + b"<meta " + b"a" * (2 * module._LATE_LIMIT) + b' charset="koi8-r">'
    assert find_declaration(past) is None
    within = head + b"<meta " + b"a" * 1000 + b' charset="koi8-r">' + b" " * module._LATE_LIMIT
    found = find_declaration(within)
    assert found is not None and found.encoding == "koi8-r" and found.late
