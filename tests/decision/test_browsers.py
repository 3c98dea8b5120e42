"""Tests for decision.browsers: what Chromium and Firefox would use (the grid against a real
Chromium is tests/e2e/test_browsers_e2e.py)."""

from __future__ import annotations

import time

import pytest

from encoding_core import browser_answers
from tests.conformance import case_body, case_params, load_cases

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


@pytest.mark.parametrize("opener",
                         [b"<script>", b"<style>", b"<title>", b"<script></script><style>"],
                         ids=["script", "style", "title", "closed-then-open"])
def test_unclosed_raw_text_elements_take_linear_time(opener):
    """Thousands of start tags that never close, a late <meta>, a long tail (issue 28: 256 KB
    took 30 s, 4 MB 144 s): a generous limit, far below what rescanning would take."""
    body = opener * (900_000 // len(opener)) + b'<meta charset="koi8-r">' + b"x" * 3_000_000
    started = time.process_time()
    answers = _answers(body)
    # a very generous limit: about 0.02 s of CPU here; the rescanning regex took 144 s at 4 MB
    assert time.process_time() - started < 60
    # the <meta> sits in the text of an element that never closed: Chromium does not see it
    assert answers["chromium"].encoding == "windows-1252"


def test_a_late_meta_after_closed_raw_text_counts():
    """Closed scripts and styles before the <meta>: it is a tag again."""
    body = (f"<html><head>{PAD}<script>var a = 1;</script><style>p {{}}</style >"
            '<title>t</title><meta charset="windows-1250"></head>').encode()
    assert _answers(body)["chromium"].encoding == "windows-1250"


@pytest.mark.parametrize("case", case_params(load_cases("browsers.json")))
def test_cases_seen_in_both_browsers(case):
    """Each case of tests/cases/browsers.json: what Debian's Chromium and Firefox ESR were seen
    to use (the e2e grid checks the same rules against the browsers themselves)."""
    answers = _answers(case_body(case), case.get("content_type"), case["url"])
    assert answers["chromium"].encoding == case["expect_chromium"], answers["chromium"].why
    assert answers["firefox"].encoding == case["expect_firefox"], answers["firefox"].why


@pytest.mark.parametrize("unit", [b"<p a='", b"<!--", b"<meta ", b"</", b"<a>", b"<?xml ",
                                  b"<meta charset=", b"<script></script>"],
                         ids=["open-quote", "comment", "meta", "end", "tags", "xml", "charset",
                              "closed-scripts"])
def test_hostile_tag_soups_take_linear_time(unit, monkeypatch):
    """Pages of one repeated fragment (4 MB): the tag walk reads 1 MiB of it, each fragment
    once (counted: the attributes read and the <meta> tags weighed, per browser)."""
    from encoding_core.decision import _browser_meta, browsers

    work = {"attributes": 0, "metas": 0}

    def counted(kind, fn):
        def call(*args):
            work[kind] += 1
            return fn(*args)
        return call

    monkeypatch.setattr(_browser_meta, "get_attribute",
                        counted("attributes", _browser_meta.get_attribute))
    for name in ("chromium_meta", "firefox_meta"):
        monkeypatch.setattr(browsers, name, counted("metas", getattr(browsers, name)))
    body = unit * (4_000_000 // len(unit)) + b'<meta charset="koi8-r">'
    browser_answers(body, url="http://shop.example.ru/")
    fragments = _browser_meta.SCAN_LIMIT // len(unit) + 1   # in the 1 MiB the walk reads
    # two browsers walk the page; a tag holds at most one attribute per fragment and a
    # <meta> is weighed once
    assert work["metas"] <= 2 * fragments
    assert work["attributes"] <= 2 * 2 * fragments
