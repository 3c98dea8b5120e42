"""The host a URL names: one rule for the report, the scan, the CLI and the app.

One of the root's shared basics. A URL from crawled data can be anything: this never raises.
"""

from __future__ import annotations

from urllib.parse import urlsplit

__all__ = ["host_of"]


def host_of(url: str | None) -> str | None:
    """The host of ``url`` (or of a bare ``host/path``), lower case; ``None`` when it has none.

    >>> host_of("https://Shop.Example:8443/a?b"), host_of("shop.example/path")
    ('shop.example', 'shop.example')
    >>> host_of("http://[::1"), host_of(""), host_of(None)
    (None, None, None)
    """
    text = (url or "").strip()
    if not text:
        return None
    try:
        return urlsplit(text if "//" in text else "//" + text).hostname or None
    except ValueError:  # an unclosed IPv6 bracket, a bad port
        return None
