"""What real browsers would use for the same bytes and header: Chromium and Firefox, and why.

``Decoded.browser_encoding`` is the HTML Standard's answer for a browser with no detector.
Real browsers differ, and the difference is what a user sees when the pipeline stores one
text and the browser shows another:

=====================  ==========================================================================
step                   Chromium (checked in CI against Debian's Chromium, tests/e2e) / Firefox
=====================  ==========================================================================
BOM                    both: the Encoding Standard's BOM sniff (UTF-8, UTF-16; no UTF-32)
Content-Type charset   both: a label of the Encoding Standard (``replacement`` and
                       ``x-user-defined`` as they are); an unknown label is ignored
prescan                both: the first 1024 bytes (``x-user-defined`` means windows-1252, a
                       UTF-16 label UTF-8); an XML declaration only at the very start
late ``<meta>``        Chromium: honoured in the head, not inside ``<script>``, ``<style>`` or a
                       comment, not after ``<body>``; Firefox: as the HTML Standard says
                       (not checked against a real Firefox here)
no declaration         both: ASCII is windows-1252. Chromium runs its detector (CED): not
                       predicted, except that it never answers UTF-8 (valid UTF-8 shows as
                       windows-1252) nor UTF-16 without a BOM (windows-1252, NULs and all);
                       Firefox runs chardetng with the URL's top-level domain
                       as a hint and UTF-8 not allowed, as it does for text/html over http
=====================  ==========================================================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from ..hosts import host_of
from ..whatwg.bom import browser_bom_sniff
from ..whatwg.content_type import http_content_type_charset
from ..whatwg.decoders import decodes_strictly
from ..whatwg.labels import get_encoding
from ..whatwg.prescan import Declaration, find_declaration
from .nulpattern import nul_pattern

__all__ = ["BrowserAnswer", "browser_answers"]

Browser = Literal["chromium", "firefox"]
_BODY = re.compile(rb"<body[\t\n\x0c\r />]", re.IGNORECASE)
# A raw-text or RCDATA element's start tag; its text runs to the matching end tag (or to the
# end of the page when there is none, as the tokenizer reads it).
_RAW_OPEN = re.compile(rb"<(script|style|textarea|title|noscript)\b", re.IGNORECASE)
_RAW_CLOSE = {name: re.compile(rb"</" + name + rb"\s*>", re.IGNORECASE)
              for name in (b"script", b"style", b"textarea", b"title", b"noscript")}


@dataclass(frozen=True, slots=True)
class BrowserAnswer:
    """The encoding a browser would use, or ``None`` when it cannot be predicted, and why."""

    browser: Browser
    encoding: str | None
    why: str


def _declared(body: bytes, content_type: str | None,
              declaration: Declaration | None) -> tuple[str, str] | None:
    """What the BOM, the header and the prescan say, as both browsers read them."""
    sniffed = browser_bom_sniff(body)
    if sniffed is not None:
        return sniffed[0], "the byte-order mark"
    header = http_content_type_charset(content_type)
    if header.charset is not None:
        encoding = get_encoding(header.charset)
        if encoding is not None:
            return encoding, f"the Content-Type charset ({header.charset})"
    if declaration is not None and declaration.encoding is not None and not declaration.late:
        return declaration.encoding, "the declaration in the first 1024 bytes"
    return None


def _late_in_head(body: bytes, declaration: Declaration | None) -> bool:
    """A late ``<meta>`` as Chromium honours it: before ``<body>``, outside raw text."""
    if declaration is None or not declaration.late or declaration.encoding is None:
        return False
    offset = declaration.offset
    opened = _BODY.search(body, 0, offset)
    if opened is not None:
        return False
    return not _inside_raw_text(body, offset)


def _inside_raw_text(body: bytes, offset: int) -> bool:
    """Whether ``offset`` lies in the text of a ``<script>``, ``<style>``, ``<title>``...

    One pass from the start: each element's end tag is looked for once, from its start tag
    and never past ``offset``, so the work grows with ``offset``, not with ``offset`` times
    the number of start tags (an unclosed ``<script>`` runs to the end of the page).
    """
    pos = 0
    while (raw := _RAW_OPEN.search(body, pos, offset)) is not None:
        close = _RAW_CLOSE[raw.group(1).lower()].search(body, raw.end(), offset)
        if close is None:
            return True  # inside a script, a style, a title...: text, not a tag
        pos = close.end()
    return False


def _tld(url: str | None) -> bytes | None:
    """The rightmost DNS label of the URL's host, lower-case Punycode, for chardetng."""
    host = host_of(url)
    if not host or host.replace(".", "").isdigit() or ":" in host:
        return None   # no host, or an IP address: chardetng's default (as for .com)
    label = host.rstrip(".").rsplit(".", 1)[-1]
    try:
        return label.encode("idna").lower() or None
    except UnicodeError:
        return None


def _chardetng(body: bytes, url: str | None) -> str | None:
    try:
        from chardetng_py import EncodingDetector
    except ImportError:  # pragma: no cover - a dependency; without it, no prediction
        return None
    detector = EncodingDetector()
    detector.feed(body, last=True)
    try:
        guessed = detector.guess(tld=_tld(url), allow_utf8=False)
    except Exception:  # (the TLD is checked above: chardetng panics only on a malformed one)
        return None
    return get_encoding(str(guessed))


def browser_answers(body: bytes, content_type: str | None = None,
                    url: str | None = None) -> tuple[BrowserAnswer, ...]:
    """What Chromium and Firefox would use for ``body`` served with ``content_type`` from
    ``url`` (the module docstring has the steps, and where each was checked).

    >>> [(a.browser, a.encoding) for a in browser_answers(b"<p>plain</p>")]
    [('chromium', 'windows-1252'), ('firefox', 'windows-1252')]
    >>> [a.encoding for a in browser_answers("<p>Москва</p>".encode("cp1251"))][0] is None
    True
    """
    declaration = find_declaration(body)
    declared = _declared(body, content_type, declaration)
    if declared is not None:
        encoding, why = declared
        return (BrowserAnswer("chromium", encoding, f"{why} says so"),
                BrowserAnswer("firefox", encoding, f"{why} says so"))
    late = declaration if declaration is not None and declaration.late else None
    if late is not None and late.encoding is not None and _late_in_head(body, late):
        chromium = BrowserAnswer("chromium", late.encoding,
                                 f"the <meta> in the head at offset {late.offset} (after the "
                                 "first 1024 bytes: Chromium re-decodes)")
    elif body.isascii():
        chromium = BrowserAnswer("chromium", "windows-1252",
                                 "no declaration; ASCII reads the same in its default")
    elif decodes_strictly(body, "utf-8"):
        chromium = BrowserAnswer("chromium", "windows-1252",
                                 "no declaration; Chromium's detector does not answer UTF-8, so "
                                 "valid UTF-8 shows as windows-1252 mojibake")
    elif (pattern := nul_pattern(body)) is not None:
        chromium = BrowserAnswer("chromium", "windows-1252",
                                 f"no declaration and no BOM: Chromium does not sniff "
                                 f"{pattern.encoding.upper()} from its NUL bytes and shows them "
                                 "as windows-1252 text")
    else:
        chromium = BrowserAnswer("chromium", None,
                                 "no declaration: Chromium's own detector (CED) decides, which "
                                 "this core does not predict")
    if late is not None and late.encoding is not None:
        firefox = BrowserAnswer("firefox", late.encoding,
                                f"the <meta> at offset {late.offset}, after the first 1024 bytes "
                                "(the HTML Standard's change of encoding)")
    elif body.isascii():
        firefox = BrowserAnswer("firefox", "windows-1252",
                                "no declaration; ASCII reads the same in its default")
    else:
        guessed = _chardetng(body, url)
        tld = _tld(url)
        firefox = BrowserAnswer(
            "firefox", guessed,
            f"no declaration: chardetng, Firefox's detector, with the top-level domain "
            f"{'.' + tld.decode() if tld else '(none: as .com)'} as a hint, UTF-8 not allowed"
            if guessed else "no declaration: chardetng is not available to predict it")
    return chromium, firefox
