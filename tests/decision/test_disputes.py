"""Tests for Western readings with another language's letters, and ISO-2022-JP escapes under
another label (encoding_core.decision.disputes)."""

from __future__ import annotations

import pytest

from encoding_core.decision.detect import Detection, default_detector
from encoding_core.decision.disputes import (
    escapes_under_ascii_label,
    letters_of_another_language,
    tell_language,
)

HU = "<p>A hősök tere Budapesten van. Öt fő tűzoltó érkezett a helyszínre.</p>" * 3
TR = "<p>Kız kardeşim İstanbul'da çalışıyor, üç gün önce geldi. Ağaç.</p>" * 3
PT = "<p>Informações sobre São Paulo: não está lá, ótimo, avaliações e opções.</p>" * 3


def _said() -> str:
    return "The Content-Type header says 'iso-8859-1' (windows-1252)"


@pytest.mark.parametrize(("text", "encoding", "other"), [
    (HU, "iso-8859-2", "iso-8859-2"), (TR, "cp1254", "windows-1254")],
    ids=["hungarian", "turkish"])
def test_a_tell_and_the_detector_dispute_the_declaration(text: str, encoding: str,
                                                         other: str) -> None:
    """ő as õ beside ö; ı as ý beside ç: the detector's other reading is an error."""
    found = letters_of_another_language(text.encode(encoding), "windows-1252", _said,
                                        default_detector)
    assert found is not None and found.kind == "declaration-disputed"
    assert str(found.severity) == "error"
    assert found.suggested_encoding in {other, "windows-1250" if other == "iso-8859-2" else other}


def test_no_tell_no_detector_call() -> None:
    """Portuguese õ ã hold no tell: the detector is never asked."""
    def never(data: bytes) -> Detection | None:
        raise AssertionError("asked")

    assert letters_of_another_language(PT.encode("cp1252"), "windows-1252", _said,
                                       never) is None


def test_escapes_under_utf8() -> None:
    """ISO-2022-JP is valid UTF-8; its ESC $ B sequences give it away."""
    body = "<p>日本語のテキストです。</p>".encode("iso2022_jp")
    found = escapes_under_ascii_label(body, "utf-8", _said)
    assert found is not None and found.suggested_encoding == "iso-2022-jp"
    assert escapes_under_ascii_label(b"<p>\x1b[1m ANSI</p>", "utf-8", _said) is None


@pytest.mark.parametrize(("text", "encoding", "language"), [
    (HU, "iso-8859-2", "Hungarian"), (TR, "cp1254", "Turkish"), (PT, "cp1252", None),
    ("<p>Păun şi Ţara, în</p>", "iso-8859-2", "Romanian"), ("", "ascii", None)],
    ids=["hungarian", "turkish", "portuguese", "romanian", "empty"])
def test_tell_language(text: str, encoding: str, language: str | None) -> None:
    """The first combination of tell bytes present names its language; Portuguese has none."""
    present = bytes(sorted(set(text.encode(encoding))))
    assert tell_language(present) == language
