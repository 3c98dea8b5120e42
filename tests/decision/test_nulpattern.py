"""Tests for decision.nulpattern and its place in decode: UTF-16 and UTF-32 without a BOM."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from encoding_core import decode
from encoding_core.decision.nulpattern import nul_pattern

PAGE = ("<!DOCTYPE html><html><head><title>Kontakt</title></head><body><p>José Müller, "
        "Straße 5 — “Bitte klingeln”.</p></body></html>")
ASCII_PAGE = "<html><head><title>Contact</title></head><body><p>Ring twice.</p></body></html>"
WIDE = [("utf-16-le", "utf-16le"), ("utf-16-be", "utf-16be"), ("utf-32-le", "utf-32le"),
        ("utf-32-be", "utf-32be")]


@pytest.mark.parametrize(("codec", "encoding"), WIDE, ids=[e for _, e in WIDE])
def test_undeclared_wide_text_is_decided_from_its_nul_bytes(codec, encoding):
    """No BOM, no declaration: decided from the NUL pattern, the text right, and a warning
    that browsers do not do this (they show the NULs)."""
    decided = decode(PAGE.encode(codec))
    assert (decided.encoding, decided.source, decided.text) == (encoding, "byte-pattern", PAGE)
    (warning,) = [c for c in decided.conflicts if c.kind.endswith("-without-bom")]
    assert warning.severity == "warning" and "browser" in warning.message
    assert "binary-body" not in {c.kind for c in decided.conflicts}
    assert not decided.needs_review


@pytest.mark.parametrize("content_type", ["text/html; charset=utf-8",
                                          "text/html; charset=iso-8859-1"], ids=["utf-8", "latin1"])
@pytest.mark.parametrize(("codec", "encoding"), WIDE, ids=[e for _, e in WIDE])
def test_a_declaration_that_reads_nuls_is_honoured_and_flagged(codec, encoding, content_type):
    """The header decodes "strictly" into NUL-riddled text: the order is honoured, but the
    decision needs review and says which override reads it as text."""
    decided = decode(ASCII_PAGE.encode(codec), content_type)
    assert decided.source == "http-header" and "\x00" in decided.text
    assert decided.needs_review
    (error,) = [c for c in decided.conflicts if c.kind.endswith("-without-bom")]
    assert error.severity == "error" and error.suggested_encoding == encoding
    assert decided.suggested_encoding == encoding


@pytest.mark.parametrize(("codec", "encoding"), WIDE, ids=[e for _, e in WIDE])
def test_a_utf8_header_that_fails_gives_way_to_the_pattern(codec, encoding):
    """Non-ASCII text in UTF-16/32 is not valid UTF-8: the header fails strictly, the NUL
    pattern decides, and the failed header is reported."""
    decided = decode(PAGE.encode(codec), "text/html; charset=utf-8")
    assert (decided.encoding, decided.source, decided.text) == (encoding, "byte-pattern", PAGE)
    assert "declaration-fails-strict" in {c.kind for c in decided.conflicts}
    assert decided.needs_review


def test_a_bom_needs_no_pattern():
    """With a BOM the BOM decides, and nothing is said about NUL bytes."""
    decided = decode(b"\xff\xfe" + PAGE.encode("utf-16-le"))
    assert decided.source == "bom"
    assert not [c for c in decided.conflicts if c.kind.endswith("-without-bom")]


@pytest.mark.parametrize("body", [
    bytes.fromhex("89504e470d0a1a0a0000000d4948445200000010000000100806000000") * 8,
    b"<p>one stray NUL\x00 in a page of text, nothing else of the kind at all</p>",
    "<p>中文网页，这是一段中文内容。东京的天气很好。日本語のページです。</p>".encode("utf-16-le"),
    bytes(range(256)) * 4,
    b"\x00" * 400,
], ids=["png", "stray-nul", "cjk-utf16", "all-bytes", "all-nul"])
def test_no_pattern_in_what_is_not_ascii_heavy_wide_text(body):
    """Binary data, a stray NUL, and UTF-16 with almost no ASCII (documented) show none."""
    assert nul_pattern(body) is None


@given(st.binary(max_size=600))
def test_nul_pattern_never_raises(body):
    """Any bytes: a pattern or None."""
    found = nul_pattern(body)
    assert found is None or found.encoding in {"utf-16le", "utf-16be", "utf-32le", "utf-32be"}


def test_split_at_every_offset_is_still_text_or_nothing():
    """A body cut at any length (a size cap) is decided from its pattern, or not at all."""
    body = PAGE.encode("utf-16-le")
    for end in range(0, len(body), 7):
        found = nul_pattern(body[:end])
        assert found is None or found.encoding == "utf-16le"


@pytest.mark.parametrize("text", [
    "<p>Последние новости дня: погода в Москве, новые меры правительства.</p>",
    "<p>Νέα μέτρα για την ακρίβεια ανακοίνωσε η κυβέρνηση σήμερα.</p>",
    "<p>עיריית חיפה מתכננת קו רכבת קלה חדש לשכונות הכרמל</p>",
    "<p>افتتاح معرض الكتاب الدولي بمشاركة واسعة من دور النشر</p>",
], ids=["cyrillic", "greek", "hebrew", "arabic"])
@pytest.mark.parametrize(("codec", "encoding"), WIDE[:2], ids=["utf-16le", "utf-16be"])
def test_other_alphabets_in_utf16_without_bom(text, codec, encoding):
    """A page in one other alphabet: its high bytes take two values (the NUL of the markup
    and the alphabet's), and it is decided from them."""
    page = f"<html><body>{text}{text}</body></html>"
    decided = decode(page.encode(codec))
    assert (decided.encoding, decided.source, decided.text) == (encoding, "byte-pattern", page)
