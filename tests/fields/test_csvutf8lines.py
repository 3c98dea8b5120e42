"""Tests for encoding_core.fields.csvutf8lines: a legacy-decided CSV whose lines are partly UTF-8.

The cases are data: each file is built from blocks of rows (the encoding, how many rows), the
same table's text in every block (two exports of one table appended), and scanned whole.
"""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

import pytest

from encoding_core.fields.csvformat import decide_format
from encoding_core.fields.csvscan import scan_csv
from encoding_core.fields.csvutf8lines import count_line_kinds, utf8_or_not

TEXT = {   # non-ASCII text the legacy encoding has, two cells a row
    "cp1252": ["“Zoë” — naïve café", "José García’s", "Crème brûlée…", "Ça va – très bien"],
    "koi8-r": ["Привет мир", "улица Ленина", "Москва и Кремль", "ёлка и щука"],
}
# UTF-8 "José García" read as windows-1252 and stored so: its bytes are valid UTF-8 by chance
STORED_MOJIBAKE = "JosÃ© GarcÃ­a"


def _csv(blocks: list[tuple[str, int]], repeat: int = 1) -> bytes:
    """A header, then ``blocks`` of (encoding, rows) ``repeat`` times (or "ascii", "mojibake").

    The text is the legacy encoding's (the first one named that is not utf-8).
    """
    texts = TEXT[next(e for e, _ in blocks if e in TEXT)]
    rows, i = [b"id,name,note\n"], 0
    for _ in range(repeat):
        for encoding, count in blocks:
            for _ in range(count):
                if encoding == "mojibake":   # stored in the legacy file, an ASCII cell beside
                    rows.append(f"{i},{STORED_MOJIBAKE},ok\n".encode("cp1252"))
                elif encoding == "ascii":
                    rows.append(f"{i},Ana,{'ok ' * 300}\n".encode())   # 900 bytes
                else:
                    rows.append(f"{i},{texts[i % 4]},{texts[(i + 1) % 4]}\n".encode(encoding))
                i += 1
    return b"".join(rows)


CASES = {   # id: (body, file encodings, lines read in another encoding and which, lines counted)
    # 30 UTF-8 rows among 120 windows-1252 ones: the core said windows-1257 before
    "utf8-minority-cp1252-majority": (
        _csv([("utf-8", 2), ("cp1252", 8)], repeat=15), {"utf-8"}, 120, {"windows-1252"},
        "30 lines are valid utf-8 with non-ASCII text, 120 not utf-8"),
    # ... and among 120 koi8-r ones: x-mac-cyrillic before, every line misread
    "utf8-minority-koi8-r-majority": (
        _csv([("utf-8", 2), ("koi8-r", 8)], repeat=15), {"utf-8"}, 120, {"koi8-r", "koi8-u"},
        "30 lines are valid utf-8 with non-ASCII text, 120 not utf-8"),
    # the legacy block first, the UTF-8 lines in the same 64 KiB
    "cp1252-block-then-utf8": (
        _csv([("cp1252", 300), ("utf-8", 100)]), {"utf-8"}, 300, {"windows-1252"},
        "100 lines are valid utf-8 with non-ASCII text, 300 not utf-8"),
    # valid UTF-8 for 64 KiB (3 lines not ASCII), then windows-1252: decided again from there
    "utf8-head-then-cp1252": (
        _csv([("utf-8", 3), ("ascii", 80), ("cp1252", 120)]), {"utf-8"}, 120,
        {"windows-1252"}, "3 lines are valid utf-8 with non-ASCII text, 120 not utf-8"),
    # unchanged, and nothing counted
    "pure-cp1252": (_csv([("cp1252", 150)]), {"windows-1252"}, 0, {None}, None),
    "pure-koi8-r": (_csv([("koi8-r", 150)]), {"koi8-r", "koi8-u"}, 0, {None}, None),
    # one or two lines valid UTF-8 by chance (stored mojibake): fewer than MIN_UTF8_LINES
    "cp1252-one-chance-line": (
        _csv([("cp1252", 75), ("mojibake", 1), ("cp1252", 75)]), {"windows-1252"}, 0, {None},
        "1 line is valid utf-8 with non-ASCII text, 150 not utf-8"),
    "cp1252-two-chance-lines": (
        _csv([("cp1252", 75), ("mojibake", 1)], repeat=2), {"windows-1252"}, 0, {None},
        "2 lines are valid utf-8 with non-ASCII text, 150 not utf-8"),
}


@pytest.mark.parametrize("chunk_bytes", [1 << 20, 64], ids=["one-piece", "64-bytes"])
@pytest.mark.parametrize("case", list(CASES))
def test_legacy_decided_file_with_utf8_lines(case: str, chunk_bytes: int) -> None:
    """Enough UTF-8 lines make the file UTF-8 with mixed lines; else the core's answer stands."""
    body, encodings, lines, mixed, counted = CASES[case]
    report = scan_csv(body, chunk_bytes=chunk_bytes, chunk_rows=7)
    assert report.encoding in encodings and report.mixed_encoding in mixed
    assert (report.mixed_lines, report.decode_errors, report.malformed_count) == (lines, 0, 0)
    reason = report.encoding_reason or ""
    if counted is None:   # unchanged: decided by the core, no note
        assert reason == "decided by the core on a sample (detector)"
        assert report.flagged == 0 and not report.notes
    elif lines:   # every cell read as written; the legacy ones count as mixed encoding
        assert reason.startswith(f"utf-8 with lines in another encoding: {counted}, and a ")
        assert "Decided as utf-8 with lines in another encoding, not " in report.notes[0]
        assert f"{counted}, and a legacy line is valid utf-8 only by rare chance (" in (
            report.notes[0])
        assert set(report.findings["repaired"]) == set(TEXT["koi8-r" if "koi8" in case
                                                            else "cp1252"])
        assert report.columns["mixed_encoding"].sum() == report.flagged == 2 * lines
    else:   # the stored mojibake is found as such, repairable; the reason says why
        assert reason.endswith(f"; {counted}: too few to read it as utf-8 with lines in another "
                               "encoding (that takes 3)")
        assert set(report.findings["repaired"]) == {"José García"}
        assert report.flagged == report.columns["repairable"].sum() == int(counted[0])
        assert not report.notes


def test_the_format_says_when_its_sample_held_utf8() -> None:
    """Only a sample with valid multi-byte UTF-8 in it is looked at line by line."""
    mixed, pure = CASES["utf8-minority-cp1252-majority"][0], CASES["pure-cp1252"][0]
    assert decide_format(mixed, complete=True).utf8_in_sample
    assert not decide_format(pure, complete=True).utf8_in_sample


def test_only_the_first_bytes_are_counted() -> None:
    """UTF-8 lines past ``max_bytes`` are not counted: the core's answer stands, said so."""
    body = _csv([("cp1252", 200), ("utf-8", 50)])
    fmt = decide_format(body[:8_000], complete=False)   # the head: windows-1252 alone
    kinds = count_line_kinds(io.BytesIO(body), b"\n", chunk_bytes=256, max_bytes=4_000)
    assert (kinds.utf8, kinds.whole_file) == (0, False) and 3_950 < kinds.bytes_read <= 4_000
    assert utf8_or_not(io.BytesIO(body), 0, fmt, chunk_bytes=256, progress=lambda done: None,
                       max_bytes=4_000) is fmt
    whole = utf8_or_not(io.BytesIO(body), 0, fmt, chunk_bytes=256, progress=lambda done: None)
    assert (whole.encoding, whole.legacy) == ("utf-8", "windows-1252")
    # UTF-8 lines first: the lines that fail, after the bytes counted, are found all the same
    body = _csv([("utf-8", 50), ("cp1252", 200)])
    first = utf8_or_not(io.BytesIO(body), 0, fmt, chunk_bytes=256, progress=lambda done: None,
                        max_bytes=4_000)
    assert (first.encoding, first.legacy) == ("utf-8", "windows-1252")
    assert first.encoding_reason.startswith(
        "utf-8 with lines in another encoding: 50 lines of the first 4,000 bytes are valid utf-8 "
        "with non-ASCII text, 47 not utf-8, and a legacy line")


def test_no_one_encoding_for_the_rest_keeps_the_core_answer() -> None:
    """UTF-8 lines, but no one encoding named for the others: the core's answer stands."""
    body = CASES["utf8-minority-cp1252-majority"][0]
    fmt = dataclasses.replace(decide_format(body, complete=True), encoding_reason="the core")
    stream = io.BytesIO(b"xx" + body)   # the file starts at offset 2 of the stream
    kept = utf8_or_not(stream, 2, fmt, chunk_bytes=1 << 20, progress=lambda done: None,
                       detector=lambda data: None)
    assert (kept.encoding, kept.legacy, stream.tell()) == (fmt.encoding, None, 2)
    assert kept.encoding_reason == (
        "the core; 30 lines are valid utf-8 with non-ASCII text, 120 not utf-8, but no one other "
        f"encoding reads every line that is not utf-8, so {fmt.encoding} stands")


_NEWCOMER = Path(__file__).resolve().parents[1] / "fixtures" / "silent"


def test_latin1_export_with_old_mojibake_is_read_as_windows_1252() -> None:
    """Issue 21's newcomer CSV: windows-1252, not iso-8859-10 or utf-8 with windows-1250
    lines; only its old mojibake is offered for repair, and no right letter is broken."""
    report = scan_csv(_NEWCOMER / "latin1_old_mojibake.csv")
    assert report.encoding == "windows-1252" and report.mixed_lines == 0
    findings = report.findings
    assert len(findings) == 6 and set(findings["kind"]) == {"mojibake"}
    assert all("Ã" in value for value in findings["original"])
    assert not any(c in value for value in findings["repaired"] for c in "ĂčįāĆ")


def test_two_exports_read_their_legacy_lines_as_windows_1252() -> None:
    """150 UTF-8 lines then 50 windows-1252 ones: the legacy lines in windows-1252 (not
    iso-8859-2's Lefčvre), their cells repaired to the right letters."""
    report = scan_csv(_NEWCOMER / "two_exports.csv")
    assert (report.encoding, report.mixed_encoding, report.mixed_lines) == (
        "utf-8", "windows-1252", 50)
    repaired = list(report.findings["repaired"])
    assert repaired and not any(c in value for value in repaired for c in "ĂčřěŕĺĹ")


# (blocks, repeat): stored mojibake lines scattered among windows-1252 ones, or in a block
OLD_DAMAGE = {
    # 8 lines of 168 (4.8%), each alone: old damage in a windows-1252 file
    "scattered-5-percent": ([("cp1252", 20), ("mojibake", 1)], 8, True),
    # the same share, ASCII lines between the damaged ones and the next legacy line
    "scattered-beside-ascii": ([("cp1252", 20), ("mojibake", 1), ("ascii", 1)], 8, True),
    # the same lines in one block: an appended export, read as utf-8 with mixed lines
    "one-block": ([("cp1252", 160), ("mojibake", 8)], 1, False),
    # scattered, but a fifth of the lines: no longer "a little"
    "scattered-20-percent": ([("cp1252", 4), ("mojibake", 1)], 20, False),
}


@pytest.mark.parametrize("case", list(OLD_DAMAGE))
def test_a_legacy_file_with_a_little_old_mojibake_keeps_its_encoding(case: str) -> None:
    """Issue 21: UTF-8 lines scattered over a few percent of a windows-1252 file are its old
    mojibake (reported as such, repairable), not lines of another export."""
    blocks, repeat, old = OLD_DAMAGE[case]
    body = _csv(blocks, repeat=repeat)
    kinds = count_line_kinds(io.BytesIO(body), b"\n", chunk_bytes=64)
    assert kinds.old_damage is old
    report = scan_csv(body, chunk_bytes=256, chunk_rows=7)
    if old:
        assert (report.encoding, report.mixed_encoding, report.mixed_lines) == (
            "windows-1252", None, 0)
        assert "old mojibake scattered in a windows-1252 file" in (report.encoding_reason or "")
        assert set(report.findings["kind"]) == {"mojibake"}
        assert set(report.findings["repaired"]) == {"José García"}
    else:
        assert (report.encoding, report.mixed_encoding) == ("utf-8", "windows-1252")


def test_line_kinds_count_runs_of_utf8_lines() -> None:
    """Runs of UTF-8 lines: a line that is not UTF-8 ends one, an ASCII line does not."""
    body = "a,é\nb,é\n".encode() + b"c,\xe9\n" + "d,é\ne,x\nf,é\n".encode()
    kinds = count_line_kinds(io.BytesIO(body), b"\n", chunk_bytes=64)
    assert (kinds.utf8, kinds.not_utf8, kinds.utf8_runs) == (4, 1, 2)
