"""Tests for decision.browsers: what Chromium and Firefox would use (the grid against a real
Chromium is tests/e2e/test_browsers_e2e.py)."""

from __future__ import annotations

import pytest

from encoding_core import browser_answers

PAD = "<!-- " + "x" * 1100 + " -->"


def _answers(body: bytes, content_type: str | None = None, url: str | None = None):
    return {a.browser: a for a in browser_answers(body, content_type, url)}


@pytest.mark.parametrize(("body", "content_type", "expected"), [
    (b"\xff\xfe<\x00p\x00>\x00", "text/html; charset=iso-8859-1", "utf-16le"),
    (b"<p>x</p>", "text/html; charset=latin1", "windows-1252"),
    (b'<meta charset="x-user-defined"><p>x</p>', None, "windows-1252"),
    (b"<p>x</p>", "text/html; charset=x-user-defined", "x-user-defined"),
    (b'<meta charset="utf-16"><p>x</p>', None, "utf-8"),
    (b'<?xml version="1.0" encoding="windows-1250"?><p>x</p>', None, "windows-1250"),
], ids=["bom-over-header", "latin1-label", "meta-x-user-defined", "header-x-user-defined",
        "meta-utf16", "xml-declaration"])
def test_declared_pages_read_alike_in_both(body, content_type, expected):
    """BOM, header and prescan: both browsers read them as the standards say."""
    answers = _answers(body, content_type)
    assert answers["chromium"].encoding == answers["firefox"].encoding == expected


def test_a_late_meta_counts_in_the_head_only_for_chromium():
    """After 1024 bytes: honoured in the head, not in a script, not after <body>."""
    head = f'<html><head>{PAD}<meta charset="windows-1250"></head><p>x</p>'.encode()
    script = f'<html><head>{PAD}<script>"<meta charset=windows-1250>"</script></head>'.encode()
    body = f'<html><body>{PAD}<meta charset="windows-1250"></body>'.encode()
    assert _answers(head)["chromium"].encoding == "windows-1250"
    assert _answers(script)["chromium"].encoding == "windows-1252"
    assert _answers(body)["chromium"].encoding == "windows-1252"


def test_undeclared_pages():
    """ASCII: windows-1252; valid UTF-8: Chromium shows windows-1252 (it never detects
    UTF-8); legacy text: Chromium not predicted, Firefox by chardetng with the TLD hint."""
    assert _answers(b"<p>plain</p>")["chromium"].encoding == "windows-1252"
    assert _answers("<p>café</p>".encode())["chromium"].encoding == "windows-1252"
    russian = "<p>Последние новости дня: погода в Москве, новые меры.</p>".encode("cp1251")
    answers = _answers(russian, url="https://news.example.ru/a")
    assert answers["chromium"].encoding is None and "CED" in answers["chromium"].why
    assert answers["firefox"].encoding == "windows-1251" and ".ru" in answers["firefox"].why


@pytest.mark.parametrize("url", [None, "http://127.0.0.1/", "http://[::1]/", "http://xn--p1ai/",
                                 "not a url", "http://münchen.example.DE./x"],
                         ids=["none", "ipv4", "ipv6", "punycode", "garbage", "idn-upper-dot"])
def test_any_url_gives_an_answer(url):
    """The TLD hint never breaks the answer, whatever the URL."""
    answers = _answers("<p>café crème</p>".encode("cp1252"), url=url)
    assert answers["firefox"].encoding is not None
