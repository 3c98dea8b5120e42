"""Tests for fields.csvformat: a CSV's encoding and dialect, decided from its first bytes.

Most go through ``scan_csv``, as the format is met there; reading is tested in test_csvscan.py.
"""

from __future__ import annotations

import io
import random

import pytest

from encoding_core.fields.csvformat import HEAD_BYTES, CsvError, decide_format, redecide_format
from encoding_core.fields.csvscan import ScanReport, scan_csv

MOJIBAKE = "JosÃ© GarcÃ­a"          # UTF-8 "José García" read as windows-1252


def _counts(report: ScanReport) -> dict[str, tuple[int, int, int, int]]:
    frame = report.columns
    return {row.column: (row.cells, row.flagged, row.repairable, row.lossy)
            for row in frame.itertuples()}


# --- decide_format, redecide_format -----------------------------------------------------------

def test_utf8_from_a_head_is_tentative_until_the_whole_file_is_seen() -> None:
    """Valid UTF-8 in a head is tentative (checked as the file is read); in a whole file, final."""
    head = b"name;city\nAna;Paris\n"
    partial, whole = decide_format(head, complete=False), decide_format(head, complete=True)
    assert (partial.encoding, partial.tentative, partial.delimiter) == ("utf-8", True, ";")
    assert partial.encoding_reason == "valid utf-8 (checked as the file is read)"
    assert (whole.encoding_reason, whole.tentative) == ("valid utf-8", False)
    stream = io.BytesIO(head + "Zoë;Größe\n".encode("cp1252"))
    again = redecide_format(stream, partial, len(head) + 2)
    assert (again.tentative, again.delimiter, again.newline) == (False, ";", "\n")
    assert again.encoding_reason.startswith("decided by the core on a sample")
    assert again.encoding_reason.endswith("; utf-8 failed at byte offset 22")


def test_utf8_after_a_bom_is_checked_as_the_file_is_read() -> None:
    """After a UTF-8 BOM the head is tentative too; failing later, the file stays UTF-8."""
    head = "\ufeffname\nZoë\n".encode()
    partial, whole = decide_format(head, complete=False), decide_format(head, complete=True)
    assert (partial.encoding, partial.tentative, whole.tentative) == ("utf-8", True, False)
    again = redecide_format(io.BytesIO(head + "Zoë\n".encode("cp1252")), partial, len(head) + 2)
    assert (again.encoding, again.tentative, again.bom_length) == ("utf-8", False, 3)
    assert again.encoding_reason == "byte-order mark; utf-8 failed at byte offset 15"


# --- through scan_csv: encodings ----------------------------------------------------------------

def test_windows_1252_csv_is_decided_by_the_core() -> None:
    """A windows-1252 file is not read as UTF-8: its accents are not mojibake."""
    body = "name;note\nJosé;“quoted” – 5 €\nZoë;Größe\n".encode("cp1252")
    report = scan_csv(body)
    assert report.encoding == "windows-1252"
    assert "decided by the core" in (report.encoding_reason or "")
    assert report.delimiter == ";" and report.flagged == 0 and report.decode_errors == 0


def test_utf8_that_fails_after_the_head_is_read_again() -> None:
    """A file that is ASCII for 64 KiB then windows-1252 is decided again, from the start."""
    body = b"id,name\n" + b"1,Ana\n" * 20_000 + "2,José\n".encode("cp1252")
    report = scan_csv(body)
    # one accented letter: windows-1252 or a sibling, the detector's call (detect.py)
    assert report.encoding in ("windows-1252", "windows-1250") and report.rows == 20_001
    assert "utf-8 failed at byte offset 120,013" in (report.encoding_reason or "")
    assert report.flagged == 0 and report.decode_errors == 0


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-16-le"],
                         ids=["bom-le", "no-bom-be", "no-bom-le"])
def test_utf16_csv(encoding: str) -> None:
    """UTF-16, with or without a byte-order mark, is read; its cells are scanned."""
    body = f"name\tcity\nJosé\t{MOJIBAKE}\n".encode(encoding)
    report = scan_csv(body)
    assert report.encoding in ("utf-16le", "utf-16be")
    assert report.delimiter == "\t"
    assert _counts(report) == {"name": (1, 0, 0, 0), "city": (1, 1, 1, 0)}


def test_utf8_bom_is_not_part_of_the_header() -> None:
    """A UTF-8 BOM is recorded as the reason and stripped from the first column name."""
    report = scan_csv(b"\xef\xbb\xbfname\nx\n")
    assert report.encoding_reason == "byte-order mark"
    assert report.columns["column"].tolist() == ["name"]


# --- through scan_csv: what is not CSV, and dialects -------------------------------------------

@pytest.mark.parametrize(("body", "message"), [
    (b"", "empty"),
    (b"\n\r\n  \n", "only blank lines"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "PNG image"),
    (b"PK\x03\x04\x14\x00\x06\x00", "export it as CSV"),
    (b"name,x\nab\x00\x01\x02\x03cd\n", "binary data"),
    (bytes(range(1, 32)) * 40, "binary data"),
    (b"name,x\n" + bytes(500), r"500 control bytes, 99% of the first 507 bytes"),
    (random.Random(0).randbytes(HEAD_BYTES), "binary data"),
], ids=["empty", "blank-lines", "png", "xlsx", "short-and-controls", "control-bytes",
        "nul-padding", "random-bytes"])
def test_unreadable_files_raise_a_clear_error(body: bytes, message: str) -> None:
    """Empty and binary files raise CsvError with a message a person can act on."""
    with pytest.raises(CsvError, match=message):
        scan_csv(body)


def _rows_with_nuls(nuls: int, rows: int = 100) -> bytes:
    """A header, ``rows`` good rows of 20 bytes, and ``nuls`` NUL bytes in the last row."""
    return (b"id,name\n" + b"".join(b"%04d,Jos\xc3\xa9 Garcia__\n" % i for i in range(rows))
            + b"9999,a" + bytes(nuls) + b"b\n")


# share of control bytes in the head: read up to 5 %, refused above (csvformat._BINARY_SHARE)
@pytest.mark.parametrize(("nuls", "read"), [
    (1, True), (3, True), (100, True), (110, False), (2_000, False),
], ids=["one-nul", "three-nuls", "under-5-percent", "over-5-percent", "mostly-nuls"])
def test_stray_nuls_are_counted_and_only_many_refuse_the_file(nuls: int, read: bool) -> None:
    """A stray NUL in a text export is read and reported; only a high share means binary."""
    body = _rows_with_nuls(nuls)
    if not read:
        with pytest.raises(CsvError, match="looks like binary data"):
            scan_csv(body)
        return
    report = scan_csv(body, chunk_bytes=256)
    assert (report.rows, report.nul_chars, report.encoding) == (101, nuls, "utf-8")
    assert ("1 NUL byte (00) on line 102" if nuls == 1 else
            f"{nuls} NUL bytes (00), the first on line 102") in report.notes[0]
    assert report.summary()["nul_chars"] == nuls


def test_nuls_after_the_head_and_in_windows_1252() -> None:
    """NULs past the first 64 KiB are counted; a windows-1252 file with one is still decided."""
    body = b"id,name\n" + b"1,Ana\n" * 20_000 + b"2,a\x00b\n3,\x00\n"
    report = scan_csv(body)
    assert (report.nul_chars, report.rows) == (2, 20_002)
    assert "the first on line 20,002" in report.notes[0]
    legacy = scan_csv("id;name\n1;José\n2;a\x00b\n".encode("cp1252"))
    assert (legacy.encoding, legacy.nul_chars, legacy.flagged) == ("windows-1252", 1, 0)


@pytest.mark.parametrize(("body", "delimiter"), [
    (b"a;b;c\n1;2;3\n", ";"), (b"a\tb\n1\t2\n", "\t"), (b"a|b\n1|2\n", "|"),
    (b"a,b\r\n1,2\r\n", ","), (b"a,b\r1,2\r", ","),
], ids=["semicolon", "tab", "pipe", "crlf", "cr-only"])
def test_dialects(body: bytes, delimiter: str) -> None:
    """Delimiters and line endings are sniffed."""
    report = scan_csv(body)
    assert report.delimiter == delimiter and report.rows == 1
    assert report.columns["cells"].tolist() == [1] * len(report.columns)
