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
