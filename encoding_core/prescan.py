"""In-document declarations: the HTML Standard's prescan and the XML declaration.

``prescan`` implements "prescan a byte stream to determine its encoding" over the first
1024 bytes, including "get an attribute", "extracting a character encoding from a meta
element" and "get an XML encoding when sniffing". ``find_declaration`` returns the same
answer with where it was found and the declarations the prescan skipped (unknown labels),
and, when nothing is declared in the first 1024 bytes, looks further for a late one.

Spec snapshot: https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding

Differences from the standard:

=====================  ===============================================================
where                  what and why
=====================  ===============================================================
``find_declaration``   a *late* declaration (after byte 1024) is found by running the
                       prescan's ``<meta>`` rules at each ``<meta`` outside comments.
                       A browser finds it while tree-building and then re-decodes; it
                       would not see a ``<meta>`` inside ``<script>`` or ``<textarea>``
                       text, which this search does. The trace reports it as late.
``Declaration``        records unknown labels the prescan skipped, so the trace can
                       report them; the spec silently moves on (so do we, for the answer).
=====================  ===============================================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .labels import get_encoding
from .models import Source

__all__ = ["PRESCAN_LIMIT", "Declaration", "SkippedLabel", "find_declaration", "prescan"]

#: The prescan reads this many bytes, as the HTML Standard advises.
PRESCAN_LIMIT = 1024
# A late declaration is looked for in this many bytes at most (keeps decode cheap).
_LATE_LIMIT = 1 << 20

_SPACE = b"\t\n\x0c\r "           # the prescan's whitespace bytes
_SPACE_OR_SLASH = b"\t\n\x0c\r /"
_UPPER = bytes(range(0x41, 0x5B))
_LOWER_TABLE = bytes.maketrans(_UPPER, bytes(range(0x61, 0x7B)))
_META_OPEN = re.compile(rb"<meta[\t\n\x0c\r /]", re.IGNORECASE)
_CHARSET = re.compile(r"charset", re.IGNORECASE)
_CANDIDATE = re.compile(rb"<(?:!--|meta[\t\n\x0c\r /])", re.IGNORECASE)


class _EndOfInput(Exception):
    """The prescan ran out of bytes."""


@dataclass(frozen=True, slots=True)
class SkippedLabel:
    """A declaration the prescan passed over because "get an encoding" failed."""

    raw_label: str
    offset: int


@dataclass(frozen=True, slots=True)
class Declaration:
    """An in-document declaration: what it said, what it means, where it was.

    ``encoding`` is after the prescan's own mappings (a UTF-16 label means utf-8,
    x-user-defined means windows-1252); ``source`` is ``META`` or ``XML_DECLARATION``;
    ``late`` is true when it was found only after the first 1024 bytes.
    """

    encoding: str | None
    raw_label: str | None
    source: Source
    offset: int
    late: bool = False
    skipped: tuple[SkippedLabel, ...] = ()


_SKIP_SPACE_SLASH = re.compile(rb"[\t\n\x0c\r /]*")
_SKIP_SPACE = re.compile(rb"[\t\n\x0c\r ]*")
_NAME_RUN = re.compile(rb"[^\t\n\x0c\r /=>]*")
_VALUE_RUN = re.compile(rb"[^\t\n\x0c\r >]*")
_TAG_NAME_END = re.compile(rb"[\t\n\x0c\r >]")


def _end(run: re.Pattern[bytes], data: bytes, pos: int) -> int:
    """Where a run of ``run``'s bytes starting at ``pos`` ends (the pattern matches empty)."""
    match = run.match(data, pos)
    return pos if match is None else match.end()


def _lower(raw: bytes) -> str:
    return raw.translate(_LOWER_TABLE).decode("latin-1")


def _get_attribute(data: bytes, pos: int) -> tuple[str, str, int] | None:
    """Implements HTML "get an attribute" (returns name, value, new position; None: no attribute).

    https://html.spec.whatwg.org/multipage/parsing.html#concept-get-attributes-when-sniffing
    Raises _EndOfInput when the bytes run out. The spec's byte-at-a-time steps are run as
    regular-expression runs of the same byte classes (the prescan is on every decode's path).
    """
    n = len(data)
    pos = _end(_SKIP_SPACE_SLASH, data, pos)  # step 1
    if pos >= n:
        raise _EndOfInput
    if data[pos] == 0x3E:  # step 2: ">"
        return None
    start = pos  # step 4: the name; a leading "=" is part of it
    pos = _end(_NAME_RUN, data, pos + 1 if data[pos] == 0x3D else pos)
    if pos >= n:
        raise _EndOfInput
    name = _lower(data[start:pos])
    if data[pos] in _SPACE:  # step 5: spaces, then "=" or the end of this attribute
        pos = _end(_SKIP_SPACE, data, pos)
        if pos >= n:
            raise _EndOfInput
        if data[pos] != 0x3D:
            return name, "", pos
    elif data[pos] != 0x3D:  # "/" or ">"
        return name, "", pos
    pos = _end(_SKIP_SPACE, data, pos + 1)  # steps 7 and 8
    if pos >= n:
        raise _EndOfInput
    c = data[pos]
    if c in b"\"'":  # step 9: a quoted value
        end = data.find(bytes((c,)), pos + 1)
        if end < 0:
            raise _EndOfInput
        return name, _lower(data[pos + 1 : end]), end + 1
    if c == 0x3E:
        return name, "", pos
    end = _end(_VALUE_RUN, data, pos + 1)  # steps 9 and 10: an unquoted value
    if end >= n:
        raise _EndOfInput
    return name, _lower(data[pos:end]), end


def _encoding_from_content(content: str) -> str | None:
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


def _meta(data: bytes, pos: int, skipped: list[SkippedLabel]) -> tuple[str | None, str | None, int]:
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
        attr = _get_attribute(data, pos)
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
            label = _encoding_from_content(value)
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
    return _PRESCAN_MAP.get(charset, charset), raw, pos


def _xml_encoding(data: bytes) -> tuple[str | None, str] | None:
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


# Bytes before the first "<meta" through which the prescan's loop provably moves tag by tag
# and reaches that "<meta" at its "loop" step: no comment can start, every "<!" or "<?" ends at
# the first ">", and every other "<" opens a tag whose only ">" is its last byte (quoted
# values hold neither "<" nor ">"). Then the loop may start at the "<meta" itself.
_PLAIN_PREFIX = re.compile(rb"""(?:
      [^<]
    | <[!?](?!--)[^>]*>
    | <[^!?<>"'](?:[^<>"']|"[^<>"]*"|'[^<>']*')*>
)*""", re.VERBOSE)


# The commonest declaration, a <meta> whose only attribute is charset: what the loop's <meta>
# branch would read from it (a quoted value, or an unquoted one up to a space or ">"), so that
# a known label can be returned without running "get an attribute" byte by byte. An unknown
# label goes through the loop, which records it as skipped.
_SIMPLE_META_CHARSET = re.compile(rb"""<meta[\t\n\x0c\r ]+charset[\t\n\x0c\r ]*=[\t\n\x0c\r ]*
    (?:"([^"]*)"|'([^']*)'|([^\t\n\x0c\r >"'][^\t\n\x0c\r >]*))[\t\n\x0c\r /]*>""",
                                  re.IGNORECASE | re.VERBOSE)
# The prescan's own mappings of a found encoding.
_PRESCAN_MAP = {"utf-16be": "utf-8", "utf-16le": "utf-8", "x-user-defined": "windows-1252"}


def _scan(data: bytes, skipped: list[SkippedLabel], *,
          shortcut: bool = True) -> tuple[str, str, int] | None:
    """The prescan's loop over ``data``; (encoding, raw label, offset) or None.

    ``shortcut`` starts the loop at the first ``<meta`` when the bytes before it are plain
    (``_PLAIN_PREFIX``): the same answer, without walking every tag of the head in Python.
    """
    if data.startswith(b"<\x00?\x00x\x00"):
        return "utf-16le", "<?x (UTF-16LE)", 0
    if data.startswith(b"\x00<\x00?\x00x"):
        return "utf-16be", "<?x (UTF-16BE)", 0
    first_meta = _META_OPEN.search(data)
    if first_meta is None:
        # Only a <meta> can declare; without one the loop below cannot find anything (and
        # skips nothing worth reporting), so it is not run: the answer is the same, faster.
        return None
    n = len(data)
    pos = data.find(b"<")
    if shortcut and _PLAIN_PREFIX.fullmatch(data, 0, first_meta.start()):
        pos = first_meta.start()
        simple = _SIMPLE_META_CHARSET.match(data, pos)
        if simple is not None:  # <meta charset="label"> and nothing else: the loop's answer
            label = _lower(simple.group(1) or simple.group(2) or simple.group(3) or b"")
            charset = get_encoding(label)
            if charset is not None:
                return _PRESCAN_MAP.get(charset, charset), label, pos
    try:
        while 0 <= pos < n:
            nxt = data[pos + 1 : pos + 6]
            if nxt.startswith(b"!--"):
                end = data.find(b"-->", pos + 2)
                if end < 0:
                    return None
                pos = end + 2
            elif (len(nxt) == 5 and nxt[4] in _SPACE_OR_SLASH
                  and nxt[:4].translate(_LOWER_TABLE) == b"meta"):
                start = pos
                encoding, raw, pos = _meta(data, pos + 6, skipped)
                if encoding is not None and raw is not None:
                    return encoding, raw, start
            elif nxt[:1].isalpha() or (nxt[:1] == b"/" and nxt[1:2].isalpha()):
                tag_end = _TAG_NAME_END.search(data, pos)
                if tag_end is None:
                    return None
                pos = tag_end.start()
                while (attr := _get_attribute(data, pos)) is not None:
                    pos = attr[2]
            elif nxt[:1] in (b"!", b"/", b"?"):
                pos = data.find(b">", pos + 1)
                if pos < 0:
                    return None
            pos = data.find(b"<", pos + 1)
    except _EndOfInput:
        return None
    return None


def prescan(body: bytes) -> str | None:
    """Implements HTML "prescan a byte stream to determine its encoding" on the first 1024 bytes.

    https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding

    - a ``<meta charset>``, or ``http-equiv="content-type"`` with a ``content`` charset;
    - comments are skipped; a UTF-16 label means utf-8; x-user-defined means windows-1252;
    - failing that, the XML declaration (``<?xml ... encoding="..."?>``).

    Returns the canonical name, or ``None`` when nothing is declared there.

    >>> prescan(b'<!-- <meta charset="koi8-r"> --><meta charset="GBK">')
    'gbk'
    >>> prescan(b'<?xml version="1.0" encoding="Shift_JIS"?><html>')
    'shift_jis'
    """
    found = find_declaration(body, late=False)
    return found.encoding if found is not None else None


def find_declaration(body: bytes, *, late: bool = True) -> Declaration | None:
    """The in-document declaration with where it was, skipped labels, and (optionally) a late one.

    - the prescan of the first 1024 bytes (``<meta>``, then the XML declaration);
    - if that finds nothing and ``late`` is true, the first ``<meta>`` declaration after them.
    """
    head = body[:PRESCAN_LIMIT]
    skipped: list[SkippedLabel] = []
    found = _scan(head, skipped)
    if found is not None:
        return Declaration(found[0], found[1], Source.META, found[2], skipped=tuple(skipped))
    xml = _xml_encoding(head)
    if xml is not None and xml[0] is not None:
        return Declaration(xml[0], xml[1], Source.XML_DECLARATION, 0, skipped=tuple(skipped))
    if xml is not None:  # an unknown label: the prescan fails and a parser reads on
        skipped.append(SkippedLabel(xml[1], 0))
    if late and len(body) > PRESCAN_LIMIT:
        found_late = _late(body, skipped)
        if found_late is not None:
            return found_late
    if skipped:
        return Declaration(None, skipped[0].raw_label, Source.META, skipped[0].offset,
                           skipped=tuple(skipped))
    return None


def _late(body: bytes, skipped: list[SkippedLabel]) -> Declaration | None:
    """The first ``<meta>`` declaration that the 1024-byte prescan could not see.

    Every ``<meta`` outside comments is tried with the prescan's rules; the first one that
    declares a known encoding wins (see the differences table).
    """
    limit = min(len(body), _LATE_LIMIT)
    pos = 0
    late_skipped: list[SkippedLabel] = []
    while True:
        match = _CANDIDATE.search(body, pos, limit)
        if match is None:
            return None
        if match.group().startswith(b"<!--"):
            end = body.find(b"-->", match.start() + 2, limit)
            if end < 0:
                return None
            pos = end + 3
            continue
        try:
            encoding, raw, pos = _meta(body, match.end(), late_skipped)
        except _EndOfInput:
            return None
        if encoding is not None:
            merged = {(s.offset, s.raw_label): s for s in (*skipped, *late_skipped)}
            return Declaration(encoding, raw, Source.META, match.start(), late=True,
                               skipped=tuple(sorted(merged.values(), key=lambda s: s.offset)))
