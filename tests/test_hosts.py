"""Tests for hosts.host_of: one rule for every host taken from a URL, that never raises."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from encoding_core.hosts import host_of


@pytest.mark.parametrize(("url", "host"), [
    ("https://Shop.Example/a", "shop.example"),
    ("http://[2001:db8::1]:8080/", "2001:db8::1"),
    ("shop.example", "shop.example"),
    ("//cdn.example/x.js", "cdn.example"),
    ("http://[::1", None),
    ("http://host:99999999999/", "host"),
    ("   ", None),
], ids=["upper-case", "ipv6", "bare", "scheme-relative", "open-bracket", "bad-port", "blank"])
def test_host_of(url, host):
    """Lower-case host names; None for what names no host, including malformed URLs."""
    assert host_of(url) == host


@given(st.text())
def test_host_of_never_raises(text):
    """Any text a crawl or a CSV cell holds: a host or None, never an exception."""
    found = host_of(text)
    assert found is None or (isinstance(found, str) and found)


def _reference(url):
    """What host_of is defined as: urlsplit's hostname (its fast path must agree)."""
    from urllib.parse import urlsplit

    text = (url or "").strip()
    if not text:
        return None
    try:
        return urlsplit(text if "//" in text else "//" + text).hostname or None
    except ValueError:
        return None


_URLISH = st.lists(st.sampled_from(["http", "https", "HTTP", "ftp", ":", "/", "//", "a", "Z",
                                    "0", ".", "-", "@", "[", "]", "::1", "?", "#", "%41", "\t",
                                    "\n", " ", "\x00", "é", "ß", "\u3002", "xn--", "80"]),
                    max_size=12).map("".join)


_HTTPISH = st.builds(lambda scheme, host, rest: f"{scheme}://{host}{rest}",
                     st.sampled_from(["http", "https", "HTTP", "htt"]),
                     st.text(alphabet="aZ0.-@:[]é\t%_~", max_size=10),
                     st.sampled_from(["", "/", "/x", "?q", "#f", ":80/", "\t/", "@h/", ";p"]))


@given(st.one_of(_URLISH, _HTTPISH, st.text(max_size=30)))
def test_host_of_is_urlsplits_hostname(url):
    """The fast path for plain http(s) URLs gives what urlsplit gives, on URL-shaped text."""
    assert host_of(url) == _reference(url)


def test_the_plain_urls_of_a_crawl_take_the_fast_path():
    """The shapes of a crawl's URLs, with what urlsplit says of each."""
    for url in ("http://en-3.example/17", "https://Shop.Example?q=1", "http://a.b#x",
                "https://host.example", "http://host.example:80/", "http://user@host/",
                "http://ho\tst.example/", "http://host.example/pa\tth", "http://-/"):
        assert host_of(url) == _reference(url), url
