"""The opinions a body and its header offer, and what a browser would make of them.

``Opinions`` is gathered once per body (BOM, Content-Type charset, in-document
declaration); ``decode`` walks it, and ``browser_encoding`` applies the HTML Standard's
order to it without the steps a browser does not have (site override, detector).
"""

from __future__ import annotations

from dataclasses import dataclass

from .bom import browser_bom_sniff
from .content_type import ContentTypeCharset
from .labels import get_encoding
from .prescan import Declaration

__all__ = ["BROWSER_DEFAULT", "Opinions", "browser_encoding"]

#: The fallback encoding of the HTML Standard for an English locale.
BROWSER_DEFAULT = "windows-1252"


@dataclass(frozen=True, slots=True)
class Opinions:
    """Every opinion the bytes and header offer, before any decoding."""

    bom: tuple[str, int] | None
    header: ContentTypeCharset
    declaration: Declaration | None


def browser_encoding(body: bytes, opinions: Opinions) -> str:
    """Implements HTML "encoding sniffing algorithm" for a browser with no detector.

    https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm

    - the Encoding Standard's BOM sniff (UTF-8, UTF-16; no UTF-32);
    - the transport layer's charset (``replacement`` included: the page shows one U+FFFD);
    - the prescan of the first 1024 bytes;
    - a ``<meta>`` found later while parsing ("change the encoding");
    - the locale default, windows-1252 (Firefox and Chrome may detect instead).

    >>> from encoding_core.content_type import http_content_type_charset
    >>> header = http_content_type_charset("text/html;charset=latin1")
    >>> browser_encoding(b"", Opinions(None, header, None))
    'windows-1252'
    """
    sniffed = browser_bom_sniff(body)
    if sniffed is not None:
        return sniffed[0]
    if opinions.header.charset is not None:
        encoding = get_encoding(opinions.header.charset)
        if encoding is not None:
            return encoding
    declaration = opinions.declaration
    if declaration is not None and declaration.encoding is not None:
        return declaration.encoding
    return BROWSER_DEFAULT
