"""The prescan's steps: "get an attribute", the ``<meta>`` branch, the XML declaration.

Also the records a declaration is reported in (``Declaration``, ``DeclarationKind``,
``SkippedLabel``; re-exported by ``prescan.py``), here so that the compiled prescan
(``_prescan_c.pyx``) builds the same ones without importing ``prescan.py``.

The sub-algorithms that ``prescan.py``'s loop calls, each implementing one named step of
the HTML Standard's "prescan a byte stream to determine its encoding"; the loop itself,
its shortcuts and the late-declaration search are in ``prescan.py``.

Spec snapshot: https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from .labels import get_encoding

__all__ = ["LOWER_TABLE", "PRESCAN_MAP", "SPACE_OR_SLASH", "TAG_NAME_END", "Declaration",
           "DeclarationKind", "EndOfInput", "SkippedLabel", "encoding_from_content",
           "get_attribute", "lower", "meta_branch", "xml_encoding"]

_SPACE = b"\t\n\x0c\r "           # the prescan's whitespace bytes
SPACE_OR_SLASH = b"\t\n\x0c\r /"
LOWER_TABLE = bytes.maketrans(bytes(range(0x41, 0x5B)), bytes(range(0x61, 0x7B)))  # ASCII only
#: The prescan's own mappings of a found encoding.
PRESCAN_MAP = {"utf-16be": "utf-8", "utf-16le": "utf-8", "x-user-defined": "windows-1252"}

_CHARSET = re.compile(r"charset", re.IGNORECASE)
_SKIP_SPACE_SLASH = re.compile(rb"[\t\n\x0c\r /]*")
_SKIP_SPACE = re.compile(rb"[\t\n\x0c\r ]*")
_NAME_RUN = re.compile(rb"[^\t\n\x0c\r /=>]*")
_VALUE_RUN = re.compile(rb"[^\t\n\x0c\r >]*")
TAG_NAME_END = re.compile(rb"[\t\n\x0c\r >]")


class EndOfInput(Exception):
    """The prescan ran out of bytes."""


@dataclass(frozen=True, slots=True)
class SkippedLabel:
    """A declaration the prescan passed over because "get an encoding" failed."""

    raw_label: str
    offset: int


class DeclarationKind(StrEnum):
    """Which in-document declaration was found.

    The values are the decision's ``Source`` strings for the same sources, so the decision
    records ``Source(kind)``; the standards layer does not import the decision's models.
    """

    META = "meta-tag"
    XML_DECLARATION = "xml-declaration"


@dataclass(frozen=True, slots=True)
class Declaration:
    """An in-document declaration: what it said, what it means, where it was.

    ``encoding`` is after the prescan's own mappings (a UTF-16 label means utf-8,
    x-user-defined means windows-1252); ``source`` is ``META`` or ``XML_DECLARATION``;
    ``late`` is true when it was found only after the first 1024 bytes.
    """

    encoding: str | None
    raw_label: str | None
    source: DeclarationKind
    offset: int
    late: bool = False
    skipped: tuple[SkippedLabel, ...] = ()


def _end(run: re.Pattern[bytes], data: bytes, pos: int) -> int:
    """Where a run of ``run``'s bytes starting at ``pos`` ends (the pattern matches empty)."""
    match = run.match(data, pos)
    return pos if match is None else match.end()


def lower(raw: bytes) -> str:
    """ASCII-lowercase bytes as a string (the prescan lowercases ASCII letters only)."""
    return raw.translate(LOWER_TABLE).decode("latin-1")


def get_attribute(data: bytes, pos: int) -> tuple[str, str, int] | None:
    """Implements HTML "get an attribute" (returns name, value, new position; None: no attribute).

    https://html.spec.whatwg.org/multipage/parsing.html#concept-get-attributes-when-sniffing
    Raises EndOfInput when the bytes run out. The spec's byte-at-a-time steps are run as
    regular-expression runs of the same byte classes (the prescan is on every decode's path).
    """
    n = len(data)
    pos = _end(_SKIP_SPACE_SLASH, data, pos)  # step 1
    if pos >= n:
        raise EndOfInput
    if data[pos] == 0x3E:  # step 2: ">"
        return None
    start = pos  # step 4: the name; a leading "=" is part of it
    pos = _end(_NAME_RUN, data, pos + 1 if data[pos] == 0x3D else pos)
    if pos >= n:
        raise EndOfInput
    name = lower(data[start:pos])
    if data[pos] in _SPACE:  # step 5: spaces, then "=" or the end of this attribute
        pos = _end(_SKIP_SPACE, data, pos)
        if pos >= n:
            raise EndOfInput
        if data[pos] != 0x3D:
            return name, "", pos
    elif data[pos] != 0x3D:  # "/" or ">"
        return name, "", pos
    pos = _end(_SKIP_SPACE, data, pos + 1)  # steps 7 and 8
    if pos >= n:
        raise EndOfInput
    c = data[pos]
    if c in b"\"'":  # step 9: a quoted value
        end = data.find(bytes((c,)), pos + 1)
        if end < 0:
            raise EndOfInput
        return name, lower(data[pos + 1 : end]), end + 1
    if c == 0x3E:
        return name, "", pos
    end = _end(_VALUE_RUN, data, pos + 1)  # steps 9 and 10: an unquoted value
    if end >= n:
        raise EndOfInput
    return name, lower(data[pos:end]), end


def encoding_from_content(content: str) -> str | None:
    """Implements HTML "extracting a character encoding from a meta element"; the raw label.

    https://html.spec.whatwg.org/multipage/urls-and-fetching.html#algorithm-for-extracting-a-character-encoding-from-a-meta-element
    Returns the label, not yet looked up (the caller runs "get an encoding").
    """
    pos = 0
    n = len(content)
    while True:
        match = _CHARSET.search(content, pos)
        if match is None:
            return None
        pos = match.end()
        while pos < n and content[pos] in "\t\n\f\r ":
            pos += 1
        if pos >= n or content[pos] != "=":
            continue  # "move position to just before that character, and jump back to loop"
        pos += 1
        while pos < n and content[pos] in "\t\n\f\r ":
            pos += 1
        if pos >= n:
            return None
        if content[pos] in "\"'":
            end = content.find(content[pos], pos + 1)
            return None if end < 0 else content[pos + 1 : end]
        end = pos
        while end < n and content[end] not in "\t\n\f\r ;":
            end += 1
        return content[pos:end]


def meta_branch(data: bytes, pos: int, skipped: list[SkippedLabel]
                ) -> tuple[str | None, str | None, int]:
    """The prescan's ``<meta`` branch, from just after ``<meta`` and its space or slash.

    Returns (encoding, raw label, position after the tag); encoding None: keep scanning.
    """
    start = pos - 6
    seen: set[str] = set()
    got_pragma = False
    need_pragma: bool | None = None
    charset: str | None = None
    charset_failed = False  # the spec's "failure", kept apart from "null"
    raw: str | None = None
    while True:
        attr = get_attribute(data, pos)
        if attr is None:
            break
        name, value, pos = attr
        if name in seen:
            continue
        seen.add(name)
        if name == "http-equiv":
            if value == "content-type":
                got_pragma = True
        elif name == "content":
            label = encoding_from_content(value)
            if label is not None and charset is None and not charset_failed:
                found = get_encoding(label)
                if found is None:
                    skipped.append(SkippedLabel(label, start))
                else:
                    charset, raw, need_pragma = found, label, True
        elif name == "charset":
            charset = get_encoding(value)
            raw = value
            need_pragma = False
            if charset is None:
                charset_failed = True
                skipped.append(SkippedLabel(value, start))
    if need_pragma is None or (need_pragma and not got_pragma) or charset is None:
        return None, None, pos
    return PRESCAN_MAP.get(charset, charset), raw, pos


def xml_encoding(data: bytes) -> tuple[str | None, str] | None:
    """Implements HTML "get an XML encoding when sniffing"; (encoding, raw label) or None.

    https://html.spec.whatwg.org/multipage/parsing.html#concept-get-xml-encoding-when-sniffing
    """
    if not data.startswith(b"<?xml"):
        return None
    end = data.find(b">")
    if end < 0:
        return None
    pos = data.find(b"encoding", 0, end)
    if pos < 0:
        return None
    pos += 8
    while pos < end and data[pos] <= 0x20:
        pos += 1
    if pos >= end or data[pos] != 0x3D:
        return None
    pos += 1
    while pos < end and data[pos] <= 0x20:
        pos += 1
    if pos >= len(data) or data[pos] not in b"\"'":
        return None
    close = data.find(data[pos : pos + 1], pos + 1)
    if close < 0:
        return None
    label_bytes = data[pos + 1 : close]
    if any(b <= 0x20 for b in label_bytes):
        return None
    raw = label_bytes.decode("latin-1")
    encoding = get_encoding(raw)
    if encoding in ("utf-16be", "utf-16le"):
        encoding = "utf-8"
    return encoding, raw
