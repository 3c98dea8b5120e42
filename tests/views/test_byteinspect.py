"""Tests for the bytes behind findings and text (encoding_core.views.byteinspect)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from encoding_core.views.byteinspect import code_points, explain_text, inspect_bytes
from encoding_core.whatwg.decoders import decode_replace, encode_strict
from encoding_core.whatwg.labels import get_encoding

MIXED = b"line one\nit\x92s caf\xe9\n\xff end"


def test_malformed_findings_under_utf8() -> None:
    """Each malformed byte has its offset, line and column (from 1), and a bracketed hex cell."""
    report = inspect_bytes(MIXED, "utf-8", ["windows-1252"])
    assert (report.encoding, report.kind, report.total) == ("utf-8", "malformed", 3)
    got = [(f.offset, f.length, f.line, f.column, f.data) for f in report.findings]
    assert got == [(11, 1, 2, 3, b"\x92"), (17, 1, 2, 9, b"\xe9"), (19, 1, 3, 1, b"\xff")]
    for finding in report.findings:
        cells = [f"[{b:02X}]" for row in finding.rows
                 for b, h in zip(row.data, row.highlighted, strict=True) if h]
        assert cells == [f"[{finding.data[0]:02X}]"]
        assert any(f"[{finding.data[0]:02X}]" in row.hex for row in finding.rows)


@pytest.mark.parametrize(("body", "line", "column"), [
    (b"\xff", 1, 1),
    (b"abc\xff", 1, 4),
    (b"\n\xff", 2, 1),
    (b"a\r\nbc\xff", 2, 3),
    (b"a\n\n\nxyz\xff", 4, 4),
], ids=["first-byte", "first-line", "line-start", "crlf", "blank-lines"])
def test_line_and_column_count_from_one(body: bytes, line: int, column: int) -> None:
    """Lines are counted by LF, columns in bytes, both from 1."""
    (finding,) = inspect_bytes(body, "utf-8").findings
    assert (finding.line, finding.column) == (line, column)


def test_hex_window_around_a_finding() -> None:
    """The rows cover window bytes either side of the finding, aligned to 16."""
    body = bytes(range(0x20, 0x7F)) * 2
    body = body[:100] + b"\xff" + body[100:]
    (finding,) = inspect_bytes(body, "utf-8", window=16).findings
    assert finding.offset == 100
    assert finding.rows[0].offset == 80 and finding.rows[-1].offset == 112
    assert finding.rows[-1].offset + len(finding.rows[-1].data) == 100 + 1 + 16


def test_non_ascii_runs_when_the_encoding_decodes_strictly() -> None:
    """Under a strict single-byte decode the findings are the non-ASCII runs, with readings."""
    body = "café naïve ’".encode()
    report = inspect_bytes(body, "windows-1252", ["utf-8"])
    assert (report.encoding, report.kind, report.total) == ("windows-1252", "non-ascii", 3)
    assert [(f.offset, f.data) for f in report.findings] == [
        (3, b"\xc3\xa9"), (8, b"\xc3\xaf"), (13, b"\xe2\x80\x99")]
    last = report.findings[-1]
    assert last.readings == (("windows-1252", "â€™", True), ("utf-8", "’", True))
    assert all(sum(r.highlighted.count(True) for r in f.rows) == f.length
               for f in report.findings)


def test_ascii_body_has_no_findings() -> None:
    """Plain ASCII under utf-8 has nothing to show."""
    report = inspect_bytes(b"plain ascii\n", "utf-8")
    assert (report.kind, report.total, report.findings) == ("non-ascii", 0, ())


@pytest.mark.parametrize(("body", "encoding", "limit", "total", "shown"), [
    (b"\xff" * 10, "utf-8", 3, 10, 3),
    (b"\xff" * 10, "utf-8", 0, 10, 0),
    (b"\xff" * 10, "utf-8", 50, 10, 10),
    (b"a\xe9b\xe9c\xe9d", "windows-1252", 2, 3, 2),
], ids=["malformed-3", "malformed-0", "malformed-under-limit", "runs-2"])
def test_limit_caps_findings_not_total(body: bytes, encoding: str, limit: int, total: int,
                                       shown: int) -> None:
    """limit caps the findings listed; total still counts every one."""
    report = inspect_bytes(body, encoding, limit=limit)
    assert (report.total, len(report.findings)) == (total, shown)


@pytest.mark.parametrize(("byte", "candidate", "text", "strict"), [
    (b"\x92", "windows-1252", "’", True),
    (b"\x92", "iso-8859-1", "’", True),
    (b"\xe9", "koi8-r", "И", True),
    (b"\xe9", "windows-1251", "й", True),
    (b"\xe9", "iso-8859-7", "ι", True),
    (b"\x92", "utf-8", "\ufffd", False),
], ids=["1252-quote", "latin1-label-is-1252", "koi8-r", "1251", "greek", "utf-8-fails"])
def test_readings_per_candidate(byte: bytes, candidate: str, text: str, strict: bool) -> None:
    """Each candidate's reading of the offending bytes, under its canonical name."""
    report = inspect_bytes(b"it" + byte + b"s", "utf-8", [candidate])
    (finding,) = report.findings
    assert finding.readings[0] == ("utf-8", "\ufffd", False)
    reading = {enc: (txt, ok) for enc, txt, ok in finding.readings}
    assert reading[get_encoding(candidate)] == (text, strict)


def test_readings_name_each_encoding_once() -> None:
    """Candidates that are labels of one encoding (iso-8859-1, windows-1252) read once."""
    (finding,) = inspect_bytes(b"it\x92s", "utf-8", ["windows-1252", "iso-8859-1",
                                                      "latin1"]).findings
    assert [enc for enc, _, _ in finding.readings] == ["utf-8", "windows-1252"]


def test_malformed_sequence_is_the_whole_maximal_subpart() -> None:
    """A cut four-byte sequence is one finding covering all its bytes."""
    (finding,) = inspect_bytes(b"a\xf0\x9f\x98", "utf-8", ["windows-1252"]).findings
    assert (finding.offset, finding.length, finding.data) == (1, 3, b"\xf0\x9f\x98")
    assert ("windows-1252", "ðŸ˜", True) in finding.readings


@pytest.mark.parametrize(("text", "steps", "repaired", "original", "misread_as"), [
    ("cafÃ©", ("utf-8 read as windows-1252",), "café", b"caf\xc3\xa9", "windows-1252"),
    ("itâ€™s", ("utf-8 read as windows-1252",), "it’s", b"it\xe2\x80\x99s", "windows-1252"),
    ("JosÃƒÂ©", ("utf-8 read as windows-1252, twice",), "José", b"Jos\xc3\xa9",
     "windows-1252"),
    ("РњРѕСЃРєРІР°", ("utf-8 read as windows-1251",), "Москва", "Москва".encode(),
     "windows-1251"),
    ("Ð¿Ñ€Ð¸Ð²ÐµÑ‚", ("utf-8 read as windows-1252",), "привет", "привет".encode(),
     "windows-1252"),
], ids=["cafe", "apostrophe", "double", "cyrillic-1251", "cyrillic-1252"])
def test_explain_text_finds_the_chain(text: str, steps: tuple[str, ...], repaired: str,
                                      original: bytes, misread_as: str) -> None:
    """Mojibake text is explained by its decode chain, best first, with the original bytes."""
    explanation = explain_text(text)
    best = explanation.chains[0]
    assert (best.steps, best.repaired, best.original_bytes, best.misread_as) == (
        steps, repaired, original, misread_as)
    assert explanation.utf8 == text.encode("utf-8")


@pytest.mark.parametrize("text", ["café", "plain", "", "Москва", "東京", "it’s"],
                         ids=["latin", "ascii", "empty", "cyrillic", "cjk", "quote"])
def test_clean_text_has_no_chain(text: str) -> None:
    """Text that is not mojibake gets no chain (and still its code points and bytes)."""
    explanation = explain_text(text)
    assert explanation.chains == ()
    assert [c.char for c in explanation.code_points] == list(text)
    assert explanation.utf8 == text.encode()


def test_explain_text_lone_surrogate_does_not_raise() -> None:
    """A lone surrogate (from a bad paste) is shown, as its surrogatepass bytes."""
    explanation = explain_text("a\ud800")
    assert explanation.utf8 == b"a\xed\xa0\x80"
    assert explanation.code_points[1].code == "U+D800"


@pytest.mark.parametrize(("char", "code", "name"), [
    ("é", "U+00E9", "LATIN SMALL LETTER E WITH ACUTE"),
    ("\x00", "U+0000", "<control>"),
    ("\x92", "U+0092", "<control>"),
    ("\x85", "U+0085", "<control>"),
    ("\x7f", "U+007F", "<control>"),
    ("\ufffd", "U+FFFD", "REPLACEMENT CHARACTER"),
    ("\ue000", "U+E000", "<unnamed>"),
    ("😀", "U+1F600", "GRINNING FACE"),
], ids=["e-acute", "nul", "c1-0x92", "nel", "del", "fffd", "private-use", "astral"])
def test_code_point_names(char: str, code: str, name: str) -> None:
    """Each character gets U+XXXX and its name; controls are '<control>'."""
    (point,) = code_points(char)
    assert (point.char, point.code, point.name) == (char, code, name)


# Characters whose trail byte is ASCII in their encoding (ソ = 83 5C, ー = 81 5B, 這 = DF 40,
# 許 = B3 5C, 똠 = 8C 63), gb18030's four-byte form (😀 = 94 39 FC 36, digits inside), and
# EUC-JP as a control whose trail bytes are never ASCII.
TRAILS = [
    ("shift_jis", "ソース 表示"),
    ("shift_jis", "十能"),
    ("gbk", "這時 無學"),
    ("gb18030", "😀Ä"),
    ("gb18030", "這😀"),
    ("big5", "許功 蓋"),
    ("euc-kr", "똠햏 쌰"),
    ("euc-jp", "表ソ"),
]
TRAIL_IDS = ["sjis-katakana", "sjis-kanji", "gbk", "gb18030-four-byte", "gb18030-mixed",
             "big5", "euc-kr-uhc", "euc-jp-control"]
PAGE_CANDIDATES = ("utf-8", "windows-1252", "iso-8859-2", "windows-1251", "shift_jis", "gbk",
                   "gb18030", "big5", "euc-kr", "euc-jp", "iso-2022-jp")


@pytest.mark.parametrize("under", ["windows-1252", "utf-8", "itself"])
@pytest.mark.parametrize(("encoding", "text"), TRAILS, ids=TRAIL_IDS)
def test_the_right_candidate_reads_whole_characters(encoding: str, text: str,
                                                    under: str) -> None:
    """Findings are cut on the right candidate's characters, even where a trail byte is ASCII."""
    raw = encode_strict(text, encoding)
    assert raw is not None
    body = b"<p>" + raw + b"</p>\n"
    report = inspect_bytes(body, encoding if under == "itself" else under, PAGE_CANDIDATES)
    readings = [dict((enc, (txt, ok)) for enc, txt, ok in f.readings)[encoding]
                for f in report.findings]
    assert readings and all(ok and txt in text for txt, ok in readings), readings
    if under != "utf-8":   # under utf-8 only the malformed bytes are findings (C9 BD is valid)
        assert "".join(txt for txt, _ in readings) == text.replace(" ", "")


def test_an_ascii_trail_byte_joins_the_run() -> None:
    """日表 in Shift_JIS (93 FA 95 5C) under windows-1252: one finding of four bytes, not three."""
    (finding,) = inspect_bytes(b"<p>\x93\xfa\x95\x5c</p>", "windows-1252", ["shift_jis"]).findings
    assert (finding.offset, finding.data, finding.sequences) == (3, b"\x93\xfa\x95\x5c", 1)
    assert finding.readings == (("windows-1252", "“ú•\\", True), ("shift_jis", "日表", True))


def test_malformed_bytes_of_one_character_are_one_finding() -> None:
    """Under utf-8, 日 in Shift_JIS is two malformed bytes; the finding holds both."""
    report = inspect_bytes(b"a\x93\xfab", "utf-8", ["shift_jis"])
    assert (report.kind, report.total) == ("malformed", 2)
    (finding,) = report.findings
    assert (finding.offset, finding.data, finding.sequences) == (1, b"\x93\xfa", 2)
    assert ("shift_jis", "日", True) in finding.readings


_PIECES = st.one_of(
    st.sampled_from([b" ", b"\n", b"<p>", b"A", b"5", b"\\", b"@", b"~"]),
    st.sampled_from(TRAILS).map(lambda t: encode_strict(t[1], t[0]) or b""),
    st.binary(min_size=1, max_size=3),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=12).map(b"".join), st.sampled_from(["windows-1252", "utf-8",
                                                                      "shift_jis", "gb18030"]))
def test_every_reading_is_the_candidates_own_slice(body: bytes, under: str) -> None:
    """The findings and the gaps between them, each decoded alone, give the whole decode."""
    report = inspect_bytes(body, under, PAGE_CANDIDATES)
    spans = [(f.offset, f.offset + f.length) for f in report.findings]
    assert all(a < b <= c for (a, b), (c, _) in itertools.pairwise(spans))
    for encoding in PAGE_CANDIDATES:
        if encoding == "iso-2022-jp":   # stateful: read as it is (module docstring)
            continue
        pieces, done = [], 0
        for finding, (start, end) in zip(report.findings, spans, strict=True):
            pieces += [decode_replace(body[done:start], encoding)[0],
                       dict((e, t) for e, t, _ in finding.readings)[encoding]]
            done = end
        pieces.append(decode_replace(body[done:], encoding)[0])
        assert "".join(pieces) == decode_replace(body, encoding)[0], encoding


def test_legacy_bytes_read_as_windows_1252_are_explained():
    """KOI8-R text read as windows-1252: the bytes, the Cyrillic reading, a caution when short."""
    short = explain_text("îÏ×ÏÓÔÉ ÄÎÑ")
    (chain,) = short.chains
    assert chain.misread_as == "windows-1252" and chain.repaired == "Новости дня"
    assert chain.steps[0].endswith("read as windows-1252")
    assert chain.original_bytes == "Новости дня".encode("koi8-r")
    assert chain.note  # a phrase this short leaves the detector unsure: said so
    long = "Последние новости дня: погода в Москве".encode("koi8-r").decode("windows-1252")
    assert explain_text(long).chains[0].note == ""
    assert explain_text("îÏ×ÏÓÔÉ ÄÎÑ", detector=None).chains == ()


@pytest.mark.parametrize("text", ["Æsir Ødegaard", "Crème brûlée à Paris", "Hello world"],
                         ids=["nordic", "french", "ascii"])
def test_real_latin_text_gets_no_legacy_chain(text):
    """Text that is right in windows-1252 is not explained as another encoding's bytes."""
    assert explain_text(text).chains == ()
