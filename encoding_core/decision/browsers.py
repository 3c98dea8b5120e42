"""What real browsers would use for the same bytes and header: Chromium and Firefox, and why.

``Decoded.browser_encoding`` is the HTML Standard's answer for a browser with no detector.
Real browsers differ, and the difference is what a user sees when the pipeline stores one
text and the browser shows another. Each step below is checked against Debian's Chromium and
Firefox ESR on a grid of pages served under many host names (tests/e2e/test_browsers_e2e.py);
``_browser_meta.py`` has the ``<meta>`` and XML declaration details.

=====================  ==========================================================================
step                   Chromium / Firefox
=====================  ==========================================================================
BOM                    both: the Encoding Standard's BOM sniff (UTF-8, UTF-16; no UTF-32)
Content-Type charset   both: a label of the Encoding Standard (``replacement`` and
                       ``x-user-defined`` as they are); an unknown label is ignored
UTF-16 ``<?x``         both: UTF-16 from ``<?x`` in UTF-16 at byte 0; Chromium only when the
                       body has 8 bytes or more
``<meta>``             both: found by tokenizing, not in raw text (``<script>``...), in the
                       first 1024 bytes or, past them, while still in the head (no limit at
                       1024: a late ``<meta>`` in the head counts). Chromium reads duplicated
                       attributes and ``<noscript>`` its own way, Firefox the ``content``
                       charset (``_browser_meta.py``)
XML declaration        both: at byte 0, ``encoding=`` anywhere in it (even past byte 1024);
                       a ``<meta>`` wins over it
no declaration, ASCII  Chromium: windows-1252, but text with ISO-2022-JP escapes gets the
                       TLD's default (Chromium does not answer ISO-2022-JP); Firefox: its
                       TLD's fallback (chardetng's, e.g. ``.ru`` windows-1251, ``.jp``
                       Shift_JIS), escapes or not
no declaration, UTF-8  Chromium: never UTF-8 over http: the TLD's default (``.ru``
                       windows-1251, ``.cn`` gbk...: ``CHROMIUM_TLD_DEFAULTS``, the TLDs
                       checked; another country's TLD is not predicted); Firefox: chardetng
                       with UTF-8 not allowed
no declaration, other  Chromium: UTF-16 without a BOM shows as windows-1252; otherwise its
                       detector (CED) decides: not predicted. Firefox: chardetng with the URL's
                       top-level domain as a hint and UTF-8 not allowed, its Python codec
                       names mapped to WHATWG names (gb18030 is Firefox's gbk, cp874
                       windows-874)
=====================  ==========================================================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from ..hosts import host_of
from ..whatwg._prescan_steps import xml_encoding
from ..whatwg.bom import browser_bom_sniff
from ..whatwg.content_type import http_content_type_charset
from ..whatwg.decoders import decodes_strictly
from ..whatwg.labels import get_encoding
from ._browser_meta import (
    CHROMIUM_RAW_TEXT,
    FIREFOX_RAW_TEXT,
    PRESCAN_LIMIT,
    SCAN_LIMIT,
    chromium_meta,
    firefox_meta,
    meta_tags,
)
from .nulpattern import nul_pattern

__all__ = ["CHROMIUM_TLD_DEFAULTS", "BrowserAnswer", "browser_answers"]

Browser = Literal["chromium", "firefox"]

# Chromium's default encoding for undeclared pages by top-level domain, where CED is not asked
# or not believed (valid UTF-8, ISO-2022-JP): each row seen in Debian's Chromium (tests/e2e).
# ``None`` stands for no TLD (an IP address, or no URL).
CHROMIUM_TLD_DEFAULTS: dict[str | None, str] = {
    None: "windows-1252", "com": "windows-1252", "org": "windows-1252", "net": "windows-1252",
    "de": "windows-1252", "fr": "windows-1252", "by": "windows-1252", "kz": "windows-1252",
    "sa": "windows-1252", "mo": "windows-1252", "sg": "windows-1252",
    "ru": "windows-1251", "ua": "windows-1251", "bg": "windows-1251", "rs": "windows-1251",
    "pl": "iso-8859-2", "hu": "iso-8859-2", "ro": "iso-8859-2", "cz": "windows-1250",
    "gr": "iso-8859-7", "tr": "windows-1254", "il": "windows-1255", "vn": "windows-1258",
    # as seen, though the languages suggest the other way round (Chromium's table, not ours)
    "lt": "windows-1256", "lv": "windows-1256", "ir": "windows-1257", "eg": "windows-1257",
    "jp": "shift_jis", "kr": "euc-kr", "cn": "gbk", "tw": "big5", "hk": "big5",
    "th": "windows-874",
}
# chardetng-py answers with Python codec names; the WHATWG name Firefox reports for each.
_CHARDETNG_NAMES = {"gb18030": "gbk", "cp874": "windows-874"}
_ISO2022JP_ESCAPE = re.compile(rb"\x1b(?:\$[@B]|\([BJ])")


@dataclass(frozen=True, slots=True)
class BrowserAnswer:
    """The encoding a browser would use, or ``None`` when it cannot be predicted, and why."""

    browser: Browser
    encoding: str | None
    why: str


def _transport(body: bytes, content_type: str | None) -> tuple[str, str] | None:
    """What the BOM and the header say, as both browsers read them."""
    sniffed = browser_bom_sniff(body)
    if sniffed is not None:
        return sniffed[0], "the byte-order mark"
    header = http_content_type_charset(content_type)
    if header.charset is not None:
        encoding = get_encoding(header.charset)
        if encoding is not None:
            return encoding, f"the Content-Type charset ({header.charset})"
    return None


def _in_document(body: bytes, browser: Browser) -> tuple[str, str] | None:
    """The in-document declaration ``browser`` honours: UTF-16 ``<?x``, ``<meta>``, XML."""
    if body.startswith((b"<\x00?\x00x\x00", b"\x00<\x00?\x00x")) and (
            browser == "firefox" or len(body) >= 8):  # Chromium looks at 8 bytes
        encoding = "utf-16le" if body[0] == 0x3C else "utf-16be"
        return encoding, "the UTF-16 signature of an XML declaration"
    raw_text, read = ((CHROMIUM_RAW_TEXT, chromium_meta) if browser == "chromium" else
                      (FIREFOX_RAW_TEXT, firefox_meta))
    for tag in meta_tags(body, raw_text):
        if not tag.in_head and tag.offset >= PRESCAN_LIMIT:
            break  # past the first 1024 bytes, only a <meta> in the head counts
        found = read(tag)
        if found is not None:
            where = ("in the first 1024 bytes" if tag.offset < PRESCAN_LIMIT else
                     f"in the head at offset {tag.offset}, past the first 1024 bytes (the "
                     "browser re-reads the page)")
            return found[0], f"the <meta> {where}"
    xml = xml_encoding(body[:SCAN_LIMIT])
    if xml is not None and xml[0] is not None:
        return xml[0], "the XML declaration"
    return None


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


def _chardetng(body: bytes, tld: bytes | None) -> str | None:
    """chardetng's guess as Firefox makes it (UTF-8 not allowed), as a WHATWG name."""
    try:
        from chardetng_py import EncodingDetector
    except ImportError:  # pragma: no cover - a dependency; without it, no prediction
        return None
    detector = EncodingDetector()
    detector.feed(body, last=True)
    try:
        guessed = str(detector.guess(tld=tld, allow_utf8=False))
    except Exception:  # (the TLD is checked above: chardetng panics only on a malformed one)
        return None
    # Deviation of chardetng-py from chardetng: Python codec names; Firefox reports these.
    return get_encoding(_CHARDETNG_NAMES.get(guessed.lower(), guessed))


def _chromium_undeclared(body: bytes, tld: bytes | None) -> BrowserAnswer:
    name = tld.decode() if tld else None
    default = CHROMIUM_TLD_DEFAULTS.get(name)
    where = f"on .{name}" if name else "with no top-level domain (an IP address)"
    if body.isascii() and _ISO2022JP_ESCAPE.search(body) is None:
        return BrowserAnswer("chromium", "windows-1252",
                             "no declaration; ASCII reads the same in its default")
    if body.isascii() or decodes_strictly(body, "utf-8"):
        what = ("ISO-2022-JP escapes: Chromium does not answer ISO-2022-JP" if body.isascii()
                else "valid UTF-8: Chromium's detector never answers UTF-8")
        if default is None:
            return BrowserAnswer("chromium", None,
                                 f"no declaration and {what}; its default {where} was not "
                                 "checked, so not predicted")
        return BrowserAnswer("chromium", default,
                             f"no declaration and {what}, so it uses its default {where}")
    pattern = nul_pattern(body)
    if pattern is not None:
        return BrowserAnswer("chromium", "windows-1252",
                             f"no declaration and no BOM: Chromium does not sniff "
                             f"{pattern.encoding.upper()} from its NUL bytes and shows them "
                             "as windows-1252 text")
    return BrowserAnswer("chromium", None,
                         "no declaration: Chromium's own detector (CED) decides, which "
                         "this core does not predict")


def _firefox_undeclared(body: bytes, tld: bytes | None) -> BrowserAnswer:
    hint = f".{tld.decode()}" if tld else "(none: as .com)"
    if body.isascii():  # escapes or not: Firefox does not detect ISO-2022-JP here
        guessed = _chardetng(b"", tld)
        why = (f"no declaration and only ASCII: the fallback for the top-level domain {hint} "
               "(chardetng's)")
    else:
        guessed = _chardetng(body, tld)
        why = (f"no declaration: chardetng, Firefox's detector, with the top-level domain "
               f"{hint} as a hint, UTF-8 not allowed")
    return BrowserAnswer("firefox", guessed,
                         why if guessed else "no declaration: chardetng is not available to "
                                             "predict it")


def browser_answers(body: bytes, content_type: str | None = None,
                    url: str | None = None) -> tuple[BrowserAnswer, ...]:
    """What Chromium and Firefox would use for ``body`` served with ``content_type`` from
    ``url``; the URL's top-level domain is a hint to both (the module docstring has the steps).

    - the BOM, then the Content-Type charset: both alike;
    - the in-document declarations, as each browser finds them;
    - undeclared: each browser's default or detector for the top-level domain.

    >>> [(a.browser, a.encoding) for a in browser_answers(b"<p>plain</p>")]
    [('chromium', 'windows-1252'), ('firefox', 'windows-1252')]
    >>> [a.encoding for a in browser_answers(b"<p>plain</p>", url="http://a.example.ru/")]
    ['windows-1252', 'windows-1251']
    >>> [a.encoding for a in browser_answers("<p>Москва</p>".encode("cp1251"))][0] is None
    True
    """
    declared = _transport(body, content_type)
    if declared is not None:
        encoding, why = declared
        return (BrowserAnswer("chromium", encoding, f"{why} says so"),
                BrowserAnswer("firefox", encoding, f"{why} says so"))
    tld = _tld(url)
    answers = []
    for browser in ("chromium", "firefox"):
        found = _in_document(body, browser)
        if found is not None:
            answers.append(BrowserAnswer(browser, found[0], f"{found[1]} says so"))
        elif browser == "chromium":
            answers.append(_chromium_undeclared(body, tld))
        else:
            answers.append(_firefox_undeclared(body, tld))
    return tuple(answers)
