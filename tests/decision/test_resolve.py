"""resolve.browser_encoding's order, and the properties of the whole decision (decode)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from encoding_core.decision.decode import decode
from encoding_core.decision.resolve import BROWSER_DEFAULT, Opinions, browser_encoding
from encoding_core.whatwg.bom import bom_sniff
from encoding_core.whatwg.content_type import http_content_type_charset
from encoding_core.whatwg.decoders import encode_strict
from encoding_core.whatwg.labels import ENCODING_NAMES
from encoding_core.whatwg.prescan import find_declaration
from tests.conformance import encoding_groups, label_table


def _opinions(body: bytes, content_type: str | None) -> Opinions:
    return Opinions(bom_sniff(body), http_content_type_charset(content_type),
                    find_declaration(body))


META = b'<meta charset="koi8-r"><p>x</p>'
LATE = b"<p>" + b"x" * 2000 + b'<meta charset="gbk">'

ORDER = [
    ("nothing", b"<p>caf\xe9</p>", None, "windows-1252"),
    ("empty-body", b"", None, "windows-1252"),
    ("utf8-bom-beats-header-and-meta", b"\xef\xbb\xbf" + META, "text/html; charset=gbk", "utf-8"),
    ("utf16le-bom-beats-header", b"\xff\xfe<\x00p\x00", "text/html; charset=gbk", "utf-16le"),
    ("utf16be-bom", b"\xfe\xff\x00<\x00p", None, "utf-16be"),
    # the UTF-32 deviation is ours, not the browser's
    ("utf32le-bom-is-utf16le", b"\xff\xfe\x00\x00<\x00\x00\x00", "text/html; charset=gbk",
     "utf-16le"),
    ("utf32be-bom-is-no-bom", b"\x00\x00\xfe\xff\x00\x00\x00<", "text/html; charset=gbk", "gbk"),
    ("utf32be-bom-no-header", b"\x00\x00\xfe\xff\x00\x00\x00<", None, "windows-1252"),
    ("header-beats-meta", META, "text/html; charset=gbk", "gbk"),
    ("header-beats-late-meta", LATE, "text/html; charset=euc-kr", "euc-kr"),
    ("header-utf16-not-mapped", META, "text/html; charset=utf-16", "utf-16le"),
    ("header-x-user-defined-not-mapped", META, "text/html; charset=x-user-defined",
     "x-user-defined"),
    ("header-replacement", META, "text/html; charset=iso-2022-kr", "replacement"),
    ("header-unknown-label-then-meta", META, "text/html; charset=utf-7", "koi8-r"),
    ("header-empty-quoted-then-meta", META, 'text/html; charset=""', "koi8-r"),
    ("header-invalid-mime-then-meta", META, "charset=gbk", "koi8-r"),
    ("header-star-star-then-meta", META, "*/*; charset=gbk", "koi8-r"),
    ("header-no-charset-then-meta", META, "text/html", "koi8-r"),
    ("header-essence-change-then-meta", META, "text/html; charset=gbk, text/plain", "koi8-r"),
    ("meta", META, None, "koi8-r"),
    ("meta-utf16-means-utf8", b'<meta charset="utf-16">', None, "utf-8"),
    ("meta-x-user-defined", b'<meta charset="x-user-defined">', None, "windows-1252"),
    ("xml-declaration", b'<?xml version="1.0" encoding="Shift_JIS"?><p>', None, "shift_jis"),
    ("utf16le-xml-pattern", b"<\x00?\x00x\x00m\x00l\x00", None, "utf-16le"),
    ("late-meta", LATE, None, "gbk"),
    ("skipped-label-only", b'<meta charset="bogus"><p>', None, "windows-1252"),
]


ORDER_PARAMS = [pytest.param(*c[1:], id=c[0]) for c in ORDER] + [
    pytest.param(b'<?xml version="1.0" encoding="bogus"?>' + LATE, None, "gbk",
                 id="unknown-xml-label-then-late-meta"),
]


@pytest.mark.parametrize(("body", "content_type", "expected"), ORDER_PARAMS)
def test_browser_order(body, content_type, expected):
    """BOM (no UTF-32), then the header's charset, then the prescan, a late <meta>, windows-1252."""
    assert browser_encoding(body, _opinions(body, content_type)) == expected
    assert decode(body, content_type, detector=None).browser_encoding == expected


def _utf32_bom(body: bytes) -> bool:
    found = bom_sniff(body)
    return found is not None and found[0].startswith("utf-32")


@pytest.mark.parametrize(("body", "encoding", "text"), [
    pytest.param(b"\xff\xfe\x00\x00<\x00\x00\x00p\x00\x00\x00", "utf-32le", "<p", id="utf-32le"),
    pytest.param(b"\x00\x00\xfe\xff\x00\x00\x00<\x00\x00\x00p", "utf-32be", "<p", id="utf-32be"),
])
def test_decode_utf32_bom(body, encoding, text):
    """A UTF-32 BOM decides (our deviation); the browser still reads UTF-16LE or no BOM."""
    result = decode(body, detector=None)
    assert (result.encoding, result.source, result.bom_length, result.text) == (
        encoding, "bom", 4, text)


def test_browser_default():
    """The default is windows-1252."""
    assert BROWSER_DEFAULT == "windows-1252"


def test_browser_ignores_opinions_bom():
    """browser_encoding sniffs the BOM itself; the opinions' (UTF-32) BOM does not count."""
    body = b"\x00\x00\xfe\xff\x00\x00\x00<"
    opinions = _opinions(body, None)
    assert opinions.bom == ("utf-32be", 4)
    assert browser_encoding(body, opinions) == "windows-1252"


LABELS = label_table()


@pytest.mark.parametrize(("label", "name"), LABELS, ids=[label for label, _ in LABELS])
def test_every_label_decodes(label, name):
    """Every label, from a header, a <meta> or an override, gives a decision, never an error."""
    body = b"<p>caf\xc3\xa9 \x81\x8d\xff\x00</p>"
    for result in (
        decode(body, f"text/html; charset={label}", detector=None),
        decode(f'<meta charset="{label}">'.encode("ascii") + body, detector=None),
        decode(body, override=label, site_default=label, detector=None),
    ):
        assert result.encoding in ENCODING_NAMES and result.encoding != "replacement"
        assert result.browser_encoding in ENCODING_NAMES
        json.loads(result.to_json())


# Properties -------------------------------------------------------------------------------

_LABEL_STRINGS = [label for label, _ in LABELS]
_HEADER_PIECES = st.sampled_from([
    "text/html", "text/plain", "*/*", ";", "; ", ",", ", ", "=", '"', "'", "\\", " ", "\t",
    "\r\n", "charset=", "Charset=", "foo=bar", "\u00e9", "\u2028", "\u4e2d", "\x00", "\x7f",
    "\ud800",
])
HEADERS = st.one_of(
    st.none(),
    st.text(max_size=60),
    st.lists(st.one_of(_HEADER_PIECES, st.sampled_from(_LABEL_STRINGS), st.text(max_size=3)),
             max_size=12).map("".join),
)
_BODY_PIECES = st.one_of(
    st.sampled_from([
        b"<meta ", b"charset=", b'"', b"'", b"<!--", b"-->", b">", b"<?xml encoding=", b"<p>",
        b"http-equiv=content-type content=", b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff",
        b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff", b"\xc3\xa9", b"\xe2\x80\x99", b"\x93", b"\x81",
        b"\x82\xa0", b"\xa4\xa4", b"\x1b$B", b"\x00",
    ]),
    st.sampled_from(_LABEL_STRINGS).map(lambda label: label.encode("ascii")),
    st.binary(max_size=6),
)
BODIES = st.one_of(
    st.binary(max_size=600),
    st.lists(_BODY_PIECES, max_size=40).map(b"".join),
    st.tuples(st.integers(0, 1100), st.lists(_BODY_PIECES, max_size=10).map(b"".join)).map(
        lambda t: b"x" * t[0] + t[1]),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(BODIES, HEADERS)
def test_decode_never_raises(body, content_type):
    """Any bytes and any header string: a decision, a browser's answer and JSON, no error."""
    result = decode(body, content_type, detector=None)
    assert result.encoding in ENCODING_NAMES or result.encoding in ("utf-32le", "utf-32be")
    assert result.encoding != "replacement"
    assert result.browser_encoding in ENCODING_NAMES
    assert result.browser_encoding == browser_encoding(body, _opinions(body, content_type))
    assert json.loads(result.to_json())["encoding"] == result.encoding
    json.loads(result.to_json(include_text=False, indent=None))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(BODIES, HEADERS)
def test_decode_with_default_detector_never_raises(body, content_type):
    """The same with the default detector in the walk."""
    result = decode(body, content_type)
    assert result.encoding in ENCODING_NAMES or result.encoding in ("utf-32le", "utf-32be")
    json.loads(result.to_json())


# Round trip: single-byte encodings (and x-user-defined) and utf-8 map bytes to text one-to-one,
# so a strict decode encodes back to the same bytes. Multi-byte legacy encodings are left out:
# iso-2022-jp has several byte spellings of one text, and gb18030/big5 decoders accept
# sequences their encoders never produce.
ROUND_TRIP = frozenset(encoding_groups()["Legacy single-byte encodings"]) | {
    "utf-8", "x-user-defined"}
_ROUND_TRIP_LABELS = [label for label, name in LABELS if name in ROUND_TRIP]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(
        st.binary(max_size=300),
        st.text(max_size=80).map(str.encode),
        st.lists(_BODY_PIECES, max_size=30).map(b"".join),
    ),
    st.one_of(st.none(), st.sampled_from(_ROUND_TRIP_LABELS).map(
        lambda label: f"text/html; charset={label}")),
)
@example(b"\xc2\x80\xc2", None)  # UTF-8 cut inside its last character
def test_strict_decode_round_trips(body, content_type):
    """A strict decode without BOM of a single-byte encoding or utf-8 encodes back to the body.

    A body cut inside its last character counts as strict with that character replaced
    (``truncated-body``): everything before the cut encodes back.
    """
    result = decode(body, content_type, detector=None)
    if result.lossy or result.bom_length or result.encoding not in ROUND_TRIP:
        return
    if any(c.kind == "truncated-body" for c in result.conflicts):
        assert result.replacements == 1 and result.text.endswith("\ufffd")
        cut = result.error_offsets[0]
        assert encode_strict(result.text[:-1], result.encoding) == body[:cut]
        return
    assert encode_strict(result.text, result.encoding) == body
