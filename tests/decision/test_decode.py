"""decode and decode_as: the seed cases as they stand, the seeds' examples, the walk's order."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from encoding_core.decision.decode import decode, decode_as
from encoding_core.decision.models import Source

# Seed 000, "Verification & Testing", kept exactly as the seed writes them.
CASES = [
    (b"\xef\xbb\xbfcaf\xc3\xa9", None, "café", "bom"),
    (b"caf\xc3\xa9", "text/html; charset=utf-8", "café", "http-header"),
    (b'<meta charset="utf-8">caf\xc3\xa9', None, "café", "meta-tag"),
    # Header says latin-1, bytes are Windows-1252: the smart quote must survive.
    (b"\x93quoted\x94", "text/html; charset=iso-8859-1", "“quoted”", "http-header"),
    # Header lies (says latin-1, bytes are UTF-8): strict decode succeeds as latin-1,
    # so this case documents why observability matters more than cleverness.
    (b"caf\xc3\xa9", "text/html; charset=utf-8", "café", "http-header"),
]
# (The seed's last case passes charset=utf-8, not the latin-1 its comment names: it is kept as
# the seed writes it, and test_header_says_latin1_bytes_are_utf8 below is the case described.)


@pytest.mark.parametrize("body,ctype,expected,source", CASES)
def test_decoding(body, ctype, expected, source):
    result = decode(body, ctype)
    assert expected in result.text
    assert result.source == source


def test_header_says_latin1_bytes_are_utf8():
    """The seed's "header lies" case as its comment describes it: the header (latin-1, which
    is windows-1252) decodes strictly and wins, as in a browser, and the decision says the
    bytes are UTF-8 (observability, not cleverness)."""
    result = decode(b"caf\xc3\xa9", "text/html; charset=iso-8859-1")
    assert (result.text, result.encoding, result.source) == ("cafÃ©", "windows-1252",
                                                             "http-header")
    assert [c.kind for c in result.conflicts] == ["utf8-under-legacy"]
    assert result.suggested_encoding == "utf-8"


def test_lossy_decode_is_counted():
    result = decode(b"\xff\xfe\xff invalid", "text/html; charset=utf-8")
    assert result.replacements > 0


# Seed 004's three examples.
GBK_HTML = ('<html><head><meta charset="gbk"><title>中文网页</title></head>'
            "<body><article><h1>你好世界</h1><p>这是一段中文内容。</p></article></body></html>")
SJIS_HTML = ("<html><head><title>日本語ページ</title></head><body><article><h1>こんにちは</h1>"
             "<p>東京の天気は晴れです。</p></article></body></html>")
WIN_HTML = ("<html><head><title>Café Menu</title></head><body><article><h1>Café</h1>"
            "<p>Price: 100 €. Résumé available.</p></article></body></html>")


def test_seed004_gbk_from_meta():
    """A GBK page is recognised from its meta declaration."""
    result = decode(GBK_HTML.encode("gbk"))
    assert (result.encoding, result.source) == ("gbk", "meta-tag")
    assert "中文网页" in result.text and "这是一段中文内容。" in result.text


def test_seed004_shift_jis_without_meta():
    """A Shift_JIS page with no declaration is recognised by the detector."""
    result = decode(SJIS_HTML.encode("shift_jis"))
    assert (result.encoding, result.source) == ("shift_jis", "detector")
    assert "東京の天気は晴れです。" in result.text


def test_seed004_windows_1252_override():
    """A manually specified windows-1252 (a site override) decodes é and €."""
    result = decode(WIN_HTML.encode("cp1252"), override="windows-1252")
    assert (result.encoding, result.source) == ("windows-1252", "override")
    assert "Price: 100 €. Résumé available." in result.text


def _trace(result):
    return [(str(e.source), e.encoding, e.used) for e in result.evidence]


def test_header_that_lies_is_reported():
    """iso-8859-1 over UTF-8 bytes: the order holds; the conflict says so and suggests utf-8."""
    body = "<p>José Müller – “quoted” café</p>".encode()
    result = decode(body, "text/html; charset=iso-8859-1")
    assert result.encoding == "windows-1252" and result.source == "http-header"
    conflict = next(c for c in result.conflicts if c.kind == "utf8-under-legacy")
    assert conflict.suggested_encoding == "utf-8"
    assert conflict.mojibake_removed == 6  # é ü – “ ” é
    assert "'iso-8859-1'" in conflict.message
    assert result.needs_review


def test_failed_declaration_falls_through_and_is_recorded():
    """A header that fails strictly is passed over; the trace keeps its error offset."""
    body = b"<p>caf\xe9 cr\xe8me</p>"
    result = decode(body, "text/html; charset=utf-8", detector=None)
    assert result.encoding == "windows-1252" and result.source == "fallback"
    header = next(e for e in result.evidence if e.source == Source.HTTP_HEADER)
    assert header.strict_ok is False and header.error_offset == 6 and not header.used
    assert any(c.kind == "declaration-fails-strict" for c in result.conflicts)


def test_mixed_page_stays_utf8_with_replacements():
    """Mostly-UTF-8 bytes with a few windows-1252 bytes: lossy UTF-8, not page-wide mojibake."""
    body = "<p>Café – naïve – crème brûlée</p>".encode() + b"<p>it\x92s</p>"
    result = decode(body, "text/html; charset=utf-8", detector=lambda b: None)
    assert (result.source, result.lossy, result.decided_by) == (
        Source.HTTP_HEADER, True, "http-header-lossy")
    assert result.encoding == "utf-8" and result.replacements == 1
    assert "crème brûlée" in result.text
    assert result.error_offsets == (body.index(b"\x92"),)
    assert any(c.kind == "lossy" and "mixes encodings" in c.message for c in result.conflicts)


def test_override_beats_header_but_not_bom():
    """An override comes after the BOM and before the header."""
    body = "café".encode()
    assert decode(body, "text/html; charset=windows-1252", override="utf-8").source == "override"
    with_bom = b"\xef\xbb\xbf" + body
    result = decode(with_bom, None, override="windows-1252")
    assert result.source == "bom" and result.text == "café"
    assert ("override", "windows-1252", False) in _trace(result)


def test_detector_is_a_parameter_and_never_wins_with_a_failing_encoding():
    """A detector's answer that fails strictly is recorded and passed over."""

    class Answer:
        encoding, confidence, needs_review, reason = "utf-8", 0.99, False, "test"

    body = b"caf\xe9"
    result = decode(body, None, detector=lambda b: Answer())
    detector = next(e for e in result.evidence if e.source == Source.DETECTOR)
    assert detector.strict_ok is False and not detector.used
    assert result.encoding == "windows-1252"


def test_site_default_before_utf8():
    """The site default is tried before the UTF-8 and windows-1252 fallbacks."""
    body = "Привет".encode("koi8-r")
    result = decode(body, None, site_default="koi8-r", detector=None)
    assert (result.encoding, result.source, result.text) == ("koi8-r", "site-default", "Привет")


def test_replacement_label_is_not_used():
    """A header naming iso-2022-kr (the replacement encoding) is reported, not applied."""
    result = decode(b"hello", "text/html; charset=iso-2022-kr")
    assert result.text == "hello"
    assert result.browser_encoding == "replacement"
    assert any(c.kind == "replacement-label" for c in result.conflicts)


def test_late_meta_is_found_and_reported():
    """A <meta> after byte 1024 decides (as a parser would) and is reported as late."""
    body = (b"<html><head>" + b"<!-- pad -->" * 100 + b'<meta charset="koi8-r"></head>'
            + "Привет".encode("koi8-r"))
    result = decode(body, None)
    assert (result.encoding, result.source) == ("koi8-r", "meta-tag")
    assert any(c.kind == "late-declaration" for c in result.conflicts)
    assert result.browser_encoding == "koi8-r"


def test_repeated_content_type_headers():
    """Repeated Content-Type values resolve as Fetch does and are reported."""
    result = decode(b"abc", "text/html; charset=utf-8, text/html; charset=iso-8859-1")
    assert result.encoding == "windows-1252"
    conflict = next(c for c in result.conflicts if c.kind == "repeated-content-type")
    assert conflict.severity == "error"


def test_header_meta_disagree_but_not_latin1_vs_1252():
    """iso-8859-1 and windows-1252 are one encoding on the web: no conflict between them."""
    same = decode(b'<meta charset="windows-1252">x', "text/html; charset=ISO-8859-1")
    assert not any(c.kind == "header-meta-disagree" for c in same.conflicts)
    differ = decode(b'<meta charset="utf-8">x', "text/html; charset=ISO-8859-1")
    assert any(c.kind == "header-meta-disagree" for c in differ.conflicts)


def test_bom_contradicting_declaration():
    """A UTF-8 BOM with a windows-1252 header: the BOM wins, the header is flagged."""
    result = decode(b"\xef\xbb\xbfcaf\xc3\xa9", "text/html; charset=windows-1252")
    assert result.text == "café"
    assert any(c.kind == "bom-contradicts-declaration" for c in result.conflicts)


def test_utf16_page_with_bom():
    """A UTF-16LE page with a BOM decodes, the BOM stripped."""
    body = "\ufeff<p>Ελληνικά</p>".encode("utf-16-le")
    result = decode(body, "text/html")
    assert (result.encoding, result.text, result.bom_length) == ("utf-16le", "<p>Ελληνικά</p>", 2)


def test_unknown_labels_are_reported():
    """An unknown header label is ignored and reported."""
    result = decode(b"abc", "text/html; charset=no-such-thing")
    assert any(c.kind == "unknown-label" for c in result.conflicts)
    assert result.encoding == "utf-8"


def test_result_is_json_and_picklable():
    """The decision serialises to JSON and pickles (st.cache_data needs that)."""
    import pickle

    result = decode(b"caf\xc3\xa9", "text/html; charset=iso-8859-1")
    data = json.loads(result.to_json())
    assert data["source"] == "http-header" and data["conflicts"][0]["kind"]
    assert pickle.loads(pickle.dumps(result)) == result


def test_decode_as_reports_strict_failure_and_offsets():
    """decode_as tries strictly first, then counts replacements with offsets."""
    attempt = decode_as(b"a\xffb\xfe", "utf-8")
    assert (attempt.strict_ok, attempt.error_offset, attempt.replacements) == (False, 1, 2)
    assert attempt.error_offsets == (1, 3)
    with pytest.raises(ValueError):
        decode_as(b"x", "no-such-encoding")


TRUNCATED = [
    ("utf-8", "text/html; charset=utf-8", "<p>Grüße aus Köln – “hallo”</p>".encode(), 2),
    ("gbk", "text/html; charset=gbk", "<p>这是一段中文内容</p>".encode("gbk"), 1),
    ("shift_jis", None, '<meta charset="shift_jis"><p>東京の天気</p>'.encode("shift_jis"), 1),
    ("utf-16le", None, "\ufeff<p>Καλημέρα</p>".encode("utf-16-le"), 1),
]


@pytest.mark.parametrize("encoding,ctype,page,cut", TRUNCATED, ids=[c[0] for c in TRUNCATED])
def test_truncated_body_keeps_its_declaration(encoding, ctype, page, cut):
    """A body cut inside its last character keeps its encoding; one U+FFFD marks the cut."""
    body = page[: -len("</p>".encode(encoding if encoding != "utf-16le" else "utf-16-le"))]
    body = body[:-cut]
    result = decode(body, ctype)
    assert result.encoding == encoding
    assert result.text.endswith("\ufffd") and result.replacements == 1
    assert not result.lossy
    assert any(c.kind == "truncated-body" for c in result.conflicts)


def test_legacy_byte_at_the_end_is_not_taken_for_truncation():
    """'caf\\xe9' under a utf-8 header is windows-1252 text, not UTF-8 cut after a lead byte."""
    result = decode(b"caf\xe9", "text/html; charset=utf-8", detector=None)
    assert (result.encoding, result.text) == ("windows-1252", "café")


SAMPLES_DIR = __import__("pathlib").Path(__file__).resolve().parents[2] / "samples"
SAMPLE_BODIES = [(s["name"], (SAMPLES_DIR / s["file"]).read_bytes(), s["content_type"])
                 for s in json.loads((SAMPLES_DIR / "samples.json").read_text())]


@pytest.mark.parametrize("name,body,ctype", SAMPLE_BODIES, ids=[s[0] for s in SAMPLE_BODIES])
def test_every_prefix_of_every_sample_decodes(name, body, ctype):
    """Cut at every offset (as a size cap or a record limit would), a sample still decodes."""
    for end in range(len(body) + 1):
        result = decode(body[:end], ctype, detector=None)
        assert result.text is not None and result.encoding
        json.loads(result.to_json(include_text=False))


_HEADERS = [None, "text/html", "text/html; charset=utf-8", "text/html; charset=windows-1252",
            "text/html; charset=koi8-r", "text/html; charset=shift_jis", "text/html;charset=bogus",
            "text/html; charset=gbk, text/html", "text/html; charset=utf-16le"]
_PREFIXES = [b"", b'<meta charset="utf-8">', b"<meta charset=gbk>", b'<?xml encoding="latin1"?>',
             b"<meta charset=nonsense>", b"<!-- x -->" * 120 + b'<meta charset="euc-jp">',
             # BOMs: a BOM's decision is remembered under it (``tracememo``)
             b"\xef\xbb\xbf", b"\xef\xbb\xbf<meta charset=gbk>", b"\xff\xfe", b"\xfe\xff",
             b"\xff\xfe\x00\x00"]


# pieces valid in some encodings and not others, so that two bodies of one page can differ
# in which declaration decodes them strictly
_PIECES = [b"plain ", "café".encode(), "café".encode("cp1252"), "中文".encode("gbk"),
           "日本".encode("shift_jis"), b"\xff", b"\x81", "Жж".encode("koi8-r"), b"\xe2\x80"]
_TEXTS = st.one_of(st.lists(st.sampled_from(_PIECES), max_size=6).map(b"".join),
                   st.binary(max_size=30))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(_HEADERS), st.sampled_from(_PREFIXES), st.sampled_from([None, "iso-8859-2"]),
       _TEXTS, _TEXTS)
def test_a_remembered_trace_is_the_walk_of_the_next_body(header, prefix, override, first, second):
    """A body decided from a trace remembered for another body with the same opinions is
    decided exactly as a fresh walk decides it: text, source, evidence, conflicts, all."""
    from encoding_core.decision import decode as module
    from encoding_core.decision.tracememo import TraceMemo

    saved = module._TRACES
    try:
        module._TRACES = TraceMemo()
        fresh = decode(prefix + second, header, override=override)
        module._TRACES = TraceMemo()
        decode(prefix + first, header, override=override)  # may remember its trace
        recalled = decode(prefix + second, header, override=override)
    finally:
        module._TRACES = saved
    assert recalled == fresh


def test_no_body_is_held_after_its_decision() -> None:
    """The decoders and UTF-8 counts remember the body they are asked about while a decision
    runs (one decode per question); none of it outlives ``decode``."""
    import sys

    pages = [("<p>café</p>".encode() * 500, "text/html; charset=utf-8"),
             ("<p>Москва</p>".encode("cp1251") * 500, None),
             # NULs in the head, read as no UTF-16 (control characters): the NUL pattern's
             # decode is remembered while it is looked for (a review found it held)
             (("\x01\x02\x03\x04" * 40).encode("utf-16-le"), "text/html; charset=utf-16le"),
             ("<p>café</p>".encode() * 500 + b"\xff", "text/html; charset=utf-8"),
             ("<p>café</p>".encode() * 500 + "<p>Müller</p>".encode("cp1252"), None)]
    for body, content_type in pages:
        before = sys.getrefcount(body)
        decode(body, content_type)
        assert sys.getrefcount(body) == before, content_type
        # the next page of the same opinions is recalled (``tracememo``), cleared or not
        again = bytes(bytearray(body))
        before = sys.getrefcount(again)
        decode(again, content_type)
        assert sys.getrefcount(again) == before, content_type


def test_the_decoders_last_call_is_let_go_when_the_decision_returns():
    """The one per-thread memo left (issue 27 measured it paying on undeclared and mixed
    pages, where the walk and the detector decode the same body): ``decode`` empties it, so
    no page is held after its decision, whichever way the walk went."""
    from encoding_core.whatwg import decoders

    for body, content_type in ((b"caf\xe9 au lait" * 20, "text/html; charset=utf-8"),
                               ("Größe, café ".encode() * 20, None),
                               (b"plain", "text/html; charset=windows-1252"),
                               (b"plain", "text/html; charset=windows-1252"),   # recalled
                               ("café".encode() * 20, "text/html; charset=windows-1252"),
                               ("日本語のテキストです。".encode("utf-16-le"),
                                "text/html; charset=utf-16le"),
                               (("\x01\x02\x03\x04" * 40).encode("utf-16-le"),
                                "text/html; charset=utf-16le")):
        decode(bytes(bytearray(body)), content_type)
        assert not vars(decoders._last)


_UNICODE_BODIES = st.one_of(st.lists(st.sampled_from([*_PIECES, b"\x1b$B", b"\x00", b"\x07"]),
                                     max_size=8).map(b"".join), st.binary(max_size=60))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["text/html; charset=utf-8", "text/html; charset=utf-16le", "text/html"]),
       st.sampled_from([b"", b'<meta charset="utf-8">']), _UNICODE_BODIES)
def test_a_plain_unicode_record_needs_only_its_checks(header, prefix, body):
    """``PLAIN_UNICODE_CHECKS`` finds in a plain record of a Unicode reading what every check
    of ``CHECKS`` finds (run as another tuple: no shortcut)."""
    from encoding_core.decision.checks.record import UNICODE
    from encoding_core.decision.conflicts import CHECKS, find_conflicts
    from encoding_core.decision.decode import PLAIN_UNICODE_CHECKS, what_checks_read

    given_ = what_checks_read(prefix + body, header, detector=None)
    if given_.plain and given_.encoding in UNICODE:
        assert find_conflicts(given_, PLAIN_UNICODE_CHECKS) == find_conflicts(
            given_, tuple(list(CHECKS)))


class _Body(bytes):
    """A ``bytes`` subclass, as some HTTP clients hand out."""


@pytest.mark.parametrize("wrap", [bytearray, memoryview, _Body,
                                  lambda b: memoryview(b"xx" + b)[2:]])
@pytest.mark.parametrize(("body", "content_type"), [
    ("café — “quoted”".encode(), "text/html; charset=iso-8859-1"),
    ("Привет, как дела? Всё хорошо.".encode("koi8-r") * 20, None),
    (b"\xff\xfeh\x00i\x00", None),
    ("é".encode() * 600_000 + b"\xff", "text/html; charset=utf-8"),   # long: scanned once
])
def test_any_bytes_like_body_is_decided_as_its_bytes(wrap, body, content_type):
    """A ``bytearray``, ``memoryview`` (a slice too) or ``bytes`` subclass: the decision of
    the same bytes, field for field."""
    assert decode(wrap(body), content_type) == decode(body, content_type)


@pytest.mark.parametrize(("body", "says"), [
    ("café", "this is a str"), (None, "not NoneType"), (3, "not int"), ([1, 2], "not list"),
])
def test_a_body_that_is_no_bytes_is_a_clear_type_error(body, says):
    with pytest.raises(TypeError, match=says):
        decode(body, "text/html")
    with pytest.raises(TypeError, match=says):
        decode_as(body, "utf-8")


def test_decode_as_reads_a_bytes_like_body_as_its_bytes():
    body = "café".encode("cp1252")
    assert decode_as(memoryview(body), "windows-1252") == decode_as(body, "windows-1252")
