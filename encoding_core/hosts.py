"""The host a URL names: one rule for the report, the scan, the CLI and the app.

One of the root's shared basics. A URL from crawled data can be anything: this never raises.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

__all__ = ["host_of"]

# The common URL whose host urlsplit would give as it stands, lower-cased: http or https, an
# ASCII host of letters, digits, dots and hyphens (no user, port or brackets), then the path,
# query, fragment or the end. Anything else goes to urlsplit.
_PLAIN = re.compile(r"https?://([A-Za-z0-9.-]+)(?:[/?#]|\Z)")


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
    plain = _PLAIN.match(text) if text.isascii() else None
    if plain is not None:   # (a crawl's hosts: 1 us, where urlsplit takes 5 to 10)
        return plain.group(1).lower()
    try:
        return urlsplit(text if "//" in text else "//" + text).hostname or None
    except ValueError:  # an unclosed IPv6 bracket, a bad port
        return None
