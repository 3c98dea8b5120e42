"""In-document declarations as Chromium and Firefox find them (the steps of ``browsers.py``).

Neither browser runs the HTML Standard's byte prescan as written: both tokenize, so a
``<meta>`` in the text of a ``<script>``, ``<style>``, ``<title>``, ``<textarea>`` or
``<noscript>`` is text, not a tag, even in the first 1024 bytes; and both read past byte 1024
while still in the document's head. ``meta_tags`` walks the tags as the tokenizer sees them
(comments and raw text skipped, a tag's attributes in order, duplicates kept); each browser
then reads a ``<meta>`` its own way. Checked against both real browsers (tests/e2e).

Differences from the HTML Standard ("prescan a byte stream", "extracting a character encoding
from a meta element"), each commented where it happens:

=======================  =====================================================================
where                    what the browser does
=======================  =====================================================================
raw text                 both: a ``<meta>`` inside ``<script>``, ``<style>``, ``<title>``,
                         ``<textarea>``... is not read (the prescan reads it); inside
                         ``<noscript>``, Chromium reads it and Firefox does not
past byte 1024           both: a ``<meta>`` in the head still counts; the head ends at the
                         first tag that has no place there (``<p>``, ``<body>``, ``</head>``)
XML declaration          both: ``encoding=`` anywhere in a declaration at byte 0, even past
                         byte 1024; a UTF-16 ``<?x`` signature needs 8 bytes in Chromium
duplicated attributes    Chromium: the last ``charset`` or ``content`` counts, and
                         ``http-equiv`` if any copy says content-type; Firefox: the first
                         copy (as the standard says)
``charset`` in content   Firefox: "charset" not followed by "=" ends the search
                         (``charsetcharset=x`` declares nothing), and a mismatch restarts at
                         the next character (``ccharset=x`` neither); Chromium as the standard
scan length              at most ``SCAN_LIMIT`` bytes (a browser has no limit; this bounds
                         the cost, as the core's own late search does)
=======================  =====================================================================
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from ..speedups import compiled
from ..whatwg._prescan_steps import PRESCAN_MAP, EndOfInput, encoding_from_content, get_attribute
from ..whatwg.labels import get_encoding

__all__ = ["CHROMIUM_RAW_TEXT", "FIREFOX_RAW_TEXT", "PRESCAN_LIMIT", "SCAN_LIMIT", "MetaTag",
           "chromium_meta", "firefox_meta", "meta_tags", "tag_attributes",
           "tag_attributes_reference"]

PRESCAN_LIMIT = 1024
#: The tags are walked in this many bytes at most.
SCAN_LIMIT = 1 << 20

# Elements whose content the tokenizer reads as text up to their end tag. Firefox's includes
# <noscript> (scripting is enabled); Chromium's charset scan reads a <meta> inside it.
FIREFOX_RAW_TEXT = frozenset({"script", "style", "title", "textarea", "noscript", "xmp",
                              "iframe", "noembed", "noframes", "plaintext"})
CHROMIUM_RAW_TEXT = FIREFOX_RAW_TEXT - {"noscript"}
_RAW_CLOSE = {name: re.compile(rb"</" + name.encode() + rb"[\t\n\x0c\r />]", re.IGNORECASE)
              for name in FIREFOX_RAW_TEXT}
# Chromium's HTMLMetaCharsetParser stays "in the head" through these start tags (and <html>,
# <head>); any other tag, or any end tag but theirs, leaves it.
_HEAD_TAGS = frozenset({"script", "noscript", "style", "link", "meta", "object", "title",
                        "base"})
_CHARSET = "charset"
_NAME_END = re.compile(rb"[\t\n\x0c\r />]")
_META_OPEN = re.compile(rb"<meta[\t\n\x0c\r />]", re.IGNORECASE)
# The compiled prescan, whose "get an attribute" reads the tags (None: the reference's).
_C = compiled("encoding_core.whatwg._prescan_c")


@dataclass(frozen=True, slots=True)
class MetaTag:
    """A ``<meta>`` start tag as the tokenizer sees it."""

    offset: int                               # where "<meta" starts
    attributes: tuple[tuple[str, str], ...]   # as written (names and values lower-cased)
    in_head: bool                             # no tag out of the head's before it


def meta_tags(body: bytes, raw_text: frozenset[str]) -> Iterator[MetaTag]:
    """Every ``<meta>`` start tag the HTML tokenizer would see in ``body``, in order, the
    elements of ``raw_text`` holding text only.

    One pass: a comment, a bogus comment or a raw-text element is skipped with one search for
    its end; a tag's attributes are read by the prescan's "get an attribute". An unclosed
    comment, raw-text element, quote or tag ends the walk (the rest of the page is its text),
    and so does leaving the head past byte 1024 (neither browser reads on) or the last
    ``<meta``.
    """
    data = body[:SCAN_LIMIT]
    in_head = True
    pos = data.find(b"<")
    next_meta = -1
    try:
        while pos >= 0:
            if not in_head and pos >= PRESCAN_LIMIT:
                return  # past the first 1024 bytes and out of the head: neither browser reads on
            if pos > next_meta:
                found = _META_OPEN.search(data, pos)
                if found is None:
                    return  # no "<meta" left to find
                next_meta = found.start()
            nxt = data[pos + 1:pos + 2]
            if data.startswith(b"<!--", pos):
                end = data.find(b"-->", pos + 4)
                if end < 0:
                    return
                pos = data.find(b"<", end + 3)
                continue
            closing = nxt == b"/"
            start = pos + 1 + closing
            if not data[start:start + 1].isalpha():
                if nxt in (b"!", b"?", b"/"):  # a bogus comment, up to ">"
                    end = data.find(b">", pos + 1)
                    if end < 0:
                        return
                    pos = end
                pos = data.find(b"<", pos + 1)
                continue
            name_end = _NAME_END.search(data, start)
            if name_end is None:
                return
            name = data[start:name_end.start()].decode("latin-1").lower()
            attributes, end = tag_attributes(data, name_end.start(),
                                             keep=not closing and name == "meta")
            if not closing and name == "meta":
                yield MetaTag(pos, tuple(attributes), in_head)
            if name not in _HEAD_TAGS and (closing or name not in ("html", "head")):
                in_head = False
            if not closing and name in raw_text:
                if name == "plaintext":  # text to the end of the page
                    return
                close = _RAW_CLOSE[name].search(data, end + 1)
                if close is None:
                    return
                pos = close.start()
                continue
            pos = data.find(b"<", end + 1)
    except EndOfInput:
        return


def tag_attributes(data: bytes, pos: int, *, keep: bool = True
                   ) -> tuple[list[tuple[str, str]], int]:
    """The prescan's "get an attribute" from ``pos`` until it finds none: the (name, value)
    pairs (none when ``keep`` is false) and the position of the tag's ">".

    Raises EndOfInput when the bytes run out. The compiled prescan's ``attributes``
    (``whatwg/_prescan_c.pyx``) answers where it is built, the same
    (``tests/decision/test_browser_meta.py``).
    """
    if _C is not None and type(data) is bytes:
        found: tuple[list[tuple[str, str]], int] | None = _C.attributes(data, pos, keep)
        if found is None:
            raise EndOfInput
        return found
    return tag_attributes_reference(data, pos, keep=keep)


def tag_attributes_reference(data: bytes, pos: int, *, keep: bool = True
                             ) -> tuple[list[tuple[str, str]], int]:
    """``tag_attributes`` in Python, by ``get_attribute``: the reference."""
    attributes: list[tuple[str, str]] = []
    while (attribute := get_attribute(data, pos)) is not None:
        if keep:
            attributes.append(attribute[:2])
        pos = attribute[2]
    return attributes, pos


def _label(raw: str | None) -> str | None:
    """"get an encoding", then the prescan's own mappings (UTF-16 means UTF-8...)."""
    encoding = get_encoding(raw) if raw is not None else None
    return PRESCAN_MAP.get(encoding, encoding) if encoding is not None else None


def firefox_meta(tag: MetaTag) -> tuple[str, str] | None:
    """(encoding, raw label) Firefox reads from ``tag``: the standard's rules on the first copy
    of each attribute, and Firefox's own charset search in ``content``."""
    first: dict[str, str] = {}
    for name, value in tag.attributes:
        first.setdefault(name, value)
    if "charset" in first:
        raw: str | None = first["charset"]
    elif first.get("http-equiv") == "content-type" and "content" in first:
        raw = _firefox_content_charset(first["content"])
    else:
        return None
    encoding = _label(raw)
    return (encoding, raw) if encoding is not None and raw is not None else None


def _firefox_content_charset(content: str) -> str | None:
    """Firefox's "extract a charset from content" (TreeBuilder.extractCharsetFromContent).

    Deviation from the standard, as Firefox does: the word "charset" is matched one character
    at a time, a mismatch starting over at the next character ("ccharset" is not found), and
    a "charset" followed (after spaces) by anything but "=" ends the search, where the
    standard looks for the next "charset" ("charsetcharset=x" declares nothing).
    """
    matched = 0
    for i, char in enumerate(content):
        if matched < len(_CHARSET):
            matched = matched + 1 if char == _CHARSET[matched] else 0
        elif char == "=":
            return encoding_from_content("charset=" + content[i + 1:])
        elif char not in "\t\n\x0c\r ":
            return None
    return None


def chromium_meta(tag: MetaTag) -> tuple[str, str] | None:
    """(encoding, raw label) Chromium reads from ``tag`` (HTMLMetaElement's
    EncodingFromMetaAttributes). Deviation from the standard, as Chromium does: every copy of
    an attribute counts, so the last ``charset`` or ``content`` wins, and ``http-equiv`` is a
    pragma if any copy says content-type."""
    charset: str | None = None
    content: str | None = None
    pragma = False
    for name, value in tag.attributes:
        if name == "charset":
            charset = value
        elif name == "content":
            content = value
        elif name == "http-equiv":
            pragma = pragma or value == "content-type"
    raw: str | None
    if charset is not None:
        raw = charset
    elif pragma and content is not None:
        raw = encoding_from_content(content)
    else:
        return None
    encoding = _label(raw)
    return (encoding, raw) if encoding is not None and raw is not None else None
