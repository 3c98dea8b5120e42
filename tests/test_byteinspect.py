"""Tests for the bytes behind findings and text (encoding_core.byteinspect)."""

from __future__ import annotations

import pytest

from encoding_core.byteinspect import code_points, explain_text, inspect_bytes
from encoding_core.labels import get_encoding

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
