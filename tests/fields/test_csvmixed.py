"""Tests for encoding_core.fields.csvmixed: the lines of a UTF-8 CSV that are in one other encoding.

Whole files through ``scan_csv`` are in test_csvscan.py; these look at the decision alone, with
detectors passed as lambdas where the answer matters more than the statistics.
"""

from __future__ import annotations

import io
import random

import pytest

from encoding_core.decision.detect import Detection
from encoding_core.fields.csvmixed import find_mixed_lines, mixed_cells

UTF8 = ["José García", "Zoë Müller", "Crème brûlée", "Ångström", "Łódź"]
CP1252 = ["“Zoë” — naïve café", "José García’s", "Crème brûlée…", "Ça va – très bien"]


def _lines(legacy: list[bytes], utf8: int = 100, block: int = 10) -> bytes:
    """A header, then ``utf8`` UTF-8 rows and the ``legacy`` rows, in alternating blocks."""
    rows, left = [b"id,name\n"], list(legacy)
    for start in range(0, max(utf8, 2 * len(legacy)), block):
        rows += [f"{i},{UTF8[i % 5]}\n".encode() for i in range(start, min(start + block, utf8))]
        rows += [left.pop(0) for _ in range(min(block // 2, len(left)))]
    return b"".join(rows)


def _says(encoding: str) -> object:
    return lambda data: Detection(encoding, 0.9, False, "test detector")


CP_LINES = [f"{i},{CP1252[i % 4]}\n".encode("cp1252") for i in range(50)]


@pytest.mark.parametrize("chunk_bytes", [1 << 20, 100, 1], ids=["one-piece", "small", "tiny"])
def test_failing_lines_are_counted_and_read_together(chunk_bytes: int) -> None:
    """50 windows-1252 lines among 100 UTF-8 ones: one answer, whatever the piece size."""
    found = find_mixed_lines(io.BytesIO(_lines(CP_LINES)), b"\n", chunk_bytes=chunk_bytes)
    assert (found.encoding, found.lines, found.first_line) == ("windows-1252", 50, 12)
    assert "windows-1252 is the detector's answer on the 50 lines that are not utf-8" in (
        found.reason)


def test_every_line_utf8_has_nothing_to_say() -> None:
    """A valid UTF-8 stream: no encoding, no lines, no reason."""
    found = find_mixed_lines(io.BytesIO(_lines([])), b"\n")
    assert (found.encoding, found.lines, found.reason) == (None, 0, "")


def test_the_detector_is_asked_once_about_all_lines() -> None:
    """Per line, windows-1252 and windows-1251 would win in turn; together, one answer."""
    asked: list[bytes] = []

    def detector(data: bytes) -> Detection:
        asked.append(data)
        return Detection("windows-1251", 0.9, False, "test detector")

    found = find_mixed_lines(io.BytesIO(_lines(CP_LINES)), b"\n", chunk_bytes=64,
                             detector=detector)   # type: ignore[arg-type]
    assert found.encoding == "windows-1251" and len(asked) == 1
    assert asked[0] == b"".join(CP_LINES)


@pytest.mark.parametrize(("detector", "reason"), [
    (lambda data: None, "the detector names no encoding for the 51 lines"),
    (_says("utf-16le"), "does not share ASCII with utf-8"),
    (_says("windows-1253"), "windows-1253 (the detector) does not read the 51 lines"),
], ids=["no-answer", "not-ascii", "does-not-read"])
def test_no_single_encoding_keeps_them_lossy(detector: object, reason: str) -> None:
    """No answer, an answer that does not share ASCII or does not read them all: no encoding."""
    body = _lines([*CP_LINES, "1,ª\n".encode("cp1252")])   # ª (AA) is not in windows-1253
    found = find_mixed_lines(io.BytesIO(body), b"\n", detector=detector)  # type: ignore[arg-type]
    assert found.encoding is None and reason in found.reason and "stay lossy" in found.reason


def test_a_line_after_the_sample_that_does_not_read_undoes_the_choice() -> None:
    """More failing lines than the sample holds: each later line is checked, one fails them all."""
    body = _lines([*CP_LINES, b"99,\xaa\n"])
    found = find_mixed_lines(io.BytesIO(body), b"\n", max_sample=200,
                             detector=_says("windows-1253"))  # type: ignore[arg-type]
    assert found.encoding is None
    assert "windows-1253, the detector's answer on the first lines that are not utf-8 (2" in (
        found.reason)
    assert found.reason.endswith("does not read line 152, so no one encoding reads them all")


def test_more_lines_than_the_sample_holds_are_each_checked() -> None:
    """The detector sees the first lines; the reason says it reads every one of them."""
    found = find_mixed_lines(io.BytesIO(_lines(CP_LINES)), b"\n", max_sample=200)
    assert (found.encoding, found.lines) == ("windows-1252", 50)
    assert found.reason.startswith("windows-1252 is the detector's answer on the first 11 lines "
                                   "that are not utf-8 (2")
    assert found.reason.endswith("; it reads all 50 strictly")


def test_random_bytes_in_utf8_lines_stay_lossy() -> None:
    """Random bytes in UTF-8 text: the failing lines are mostly UTF-8, no encoding is named."""
    rng = random.Random(5)
    body = b"id,name\n" + b"".join(
        f"{i},{UTF8[i % 5]} ".encode() + (rng.randbytes(2) if i % 7 == 0 else b"") + b"\n"
        for i in range(150))
    found = find_mixed_lines(io.BytesIO(body), b"\n")
    assert found.encoding is None and found.lines > 10
    assert "names no encoding" in found.reason


def test_mixed_cells_are_the_ones_utf8_reads_differently() -> None:
    """ASCII, empty and finder-flagged cells are not mixed; the rest once per distinct text."""
    found = mixed_cells([["Zoë", "Ana", None, "Zoë"], ["JosÃ©", "naïve", "", "x"]], [1, 2, 3, 4],
                        "windows-1252", lambda text: "Ã" in text)
    assert found.texts == ["Zo\ufffd", "na\ufffdve"]
    assert [(c, r) for c, r in zip(found.columns, found.rows, strict=True)] == [
        (0, 1), (0, 4), (1, 2)]
    assert found.about[0] == ("mixed-encoding", "Zoë", "a windows-1252 line in a utf-8 file",
                              "Zo\ufffd")


@pytest.mark.parametrize(("answer", "expected"), [
    ("iso-8859-2", None), ("windows-1250", None), ("windows-1252", "windows-1252")],
    ids=["iso-8859-2", "windows-1250", "windows-1252"])
def test_an_unsure_answer_offers_no_repair_but_windows_1252(answer: str,
                                                           expected: str | None) -> None:
    """Issue 21: an unsure detector's iso-8859-2 would repair Lefèvre into Lefčvre: the lines
    stay lossy, saying why; an unsure windows-1252 (the web's default) is kept, saying so."""
    body = "id,name\n1,Zoë\n".encode() + "2,Lefèvre à São Paulo\n".encode("cp1252")

    def unsure(data: bytes) -> Detection:
        return Detection(answer, 0.6, True, "test detector")

    found = find_mixed_lines(io.BytesIO(body), b"\n", detector=unsure)
    assert found.encoding == expected
    assert "unsure" in found.reason
    if expected is None:
        assert "no repair is offered" in found.reason
