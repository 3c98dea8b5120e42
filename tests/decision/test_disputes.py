"""Tests for Western readings with another language's letters, and ISO-2022-JP escapes under
another label (encoding_core.decision.disputes)."""

from __future__ import annotations

import pytest

from encoding_core import decode
from encoding_core.decision.detect import Detection, default_detector
from encoding_core.decision.disputes import (
    NO_ONE_LANGUAGE,
    escapes_under_ascii_label,
    letters_of_another_language,
    tell,
    tell_language,
)
from tests.conformance import case_body, load_cases

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


_ONE_ALPHABET = {case["label"]: case_body(case) for case in load_cases("one_alphabet.json")}


@pytest.mark.parametrize(("label", "written", "meant"), [
    ("cs-iso-8859-2-as-1250", "cp1250", {"windows-1250"}),
    ("hr-rhone-as-1252", "cp1250", {"windows-1250"}),
])
def test_letters_of_no_one_language_under_a_lying_header(label: str, written: str,
                                                         meant: set[str]) -> None:
    """Czech in windows-1250 under ``charset=iso-8859-1``: every letter reads as a Western
    letter (``č`` as ``è``, ``ř`` as ``ø``, ``ů`` as ``ù``), but together they are no one
    language's; the detector's Latin reading is one language's, and the declaration is
    disputed (before, it was decided with no review). Croatian quoting ``Rhône`` is no one
    language's in windows-1250 either, but the letters it reads differently (``ć č đ`` for
    ``æ è ð``) are Croatian's. (Estonian's ``ž`` as ``þ`` beside ``ü`` is a tell of
    ``TELLS`` already.)"""
    case = next(c for c in load_cases("one_alphabet.json") if c["label"] == label)
    text = case_body(case).decode("iso8859-2" if label.startswith("cs") else written)
    body = text.encode(written)
    assert tell(body, "windows-1252") == NO_ONE_LANGUAGE
    decided = decode(body, "text/html; charset=iso-8859-1")
    disputed = [c for c in decided.conflicts if c.kind == "declaration-disputed"]
    assert decided.needs_review and disputed
    assert disputed[0].suggested_encoding in meant
    assert "letters no one language writes together" in disputed[0].message


@pytest.mark.parametrize("label", ["fr-czech-names", "it-spanish-name", "es-ordinals"])
def test_a_western_page_quoting_names_is_not_disputed(label: str) -> None:
    """Under its own header, a page with a few letters of another language keeps no conflict
    (the detector, asked or not, reads it as the header says)."""
    decided = decode(_ONE_ALPHABET[label], "text/html; charset=windows-1252")
    assert not decided.needs_review
    assert not [c for c in decided.conflicts if c.kind == "declaration-disputed"]


_PRICES = ("<p>Prix : 10 € TTC. Le produit est fabriqué en France, très élégant. Livraison "
           "offerte dès 50 € d'achat, retour gratuit sous 30 jours.</p>") * 2


def test_a_euro_written_in_iso_8859_15_under_latin_1() -> None:
    """``10 €`` in ISO-8859-15 under ``charset=iso-8859-1`` reads ``10 ¤``: every letter the same,
    so nothing else tells; a currency sign beside a number is a price, and the declaration is
    disputed (before, decided with no review)."""
    decided = decode(_PRICES.encode("iso8859-15"), "text/html; charset=iso-8859-1")
    disputed = [c for c in decided.conflicts if c.kind == "declaration-disputed"]
    assert decided.needs_review and disputed
    assert disputed[0].suggested_encoding == "iso-8859-15" and "10 ¤" in disputed[0].message


@pytest.mark.parametrize("text", [
    _PRICES,                                                  # € is 0x80 in windows-1252
    "<p>Le signe ¤ est le symbole monétaire générique, très rare en français.</p>" * 3,
])
def test_no_price_in_windows_1252_no_dispute(text: str) -> None:
    decided = decode(text.encode("cp1252"), "text/html; charset=windows-1252")
    assert not [c for c in decided.conflicts if c.kind == "declaration-disputed"]
    assert not decided.needs_review
