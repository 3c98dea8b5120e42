"""In-document declarations: the HTML Standard's prescan and the XML declaration.

``prescan`` implements "prescan a byte stream to determine its encoding" over the first
1024 bytes; its steps ("get an attribute", "extracting a character encoding from a meta
element", "get an XML encoding when sniffing") are in ``_prescan_steps.py``.
``find_declaration`` returns the same answer with where it was found and the declarations
the prescan skipped (unknown labels), and, when nothing is declared in the first 1024
bytes, looks further for a late one. Where it is built, the compiled prescan
(``_prescan_c.pyx``) answers ``find_declaration``; ``find_declaration_reference`` is the same
in Python, the reference it is tested equal to (and what ``ENCODING_TRIAGE_PURE=1`` runs).

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
from collections.abc import Callable

from ..speedups import compiled
from ._prescan_steps import (
    LOWER_TABLE,
    PRESCAN_MAP,
    SPACE_OR_SLASH,
    TAG_NAME_END,
    Declaration,
    DeclarationKind,
    EndOfInput,
    SkippedLabel,
    encoding_from_content,
    get_attribute,
    lower,
    meta_branch,
    xml_encoding,
)
from .labels import get_encoding

__all__ = ["PRESCAN_LIMIT", "Declaration", "DeclarationKind", "SkippedLabel", "find_declaration",
           "find_declaration_in_bytes", "find_declaration_reference", "prescan"]

#: The prescan reads this many bytes, as the HTML Standard advises.
PRESCAN_LIMIT = 1024
# A late declaration is looked for in this many bytes at most (keeps decode cheap).
_LATE_LIMIT = 1 << 20

# The compiled prescan (None: not built, or ENCODING_TRIAGE_PURE is set).
_C = compiled("encoding_core.whatwg._prescan_c")

_META_OPEN = re.compile(rb"<meta[\t\n\x0c\r /]", re.IGNORECASE)
_CANDIDATE = re.compile(rb"<(?:!--|meta[\t\n\x0c\r /])", re.IGNORECASE)


# Bytes before the first "<meta" through which the prescan's loop provably moves tag by tag
# and reaches that "<meta" at its "loop" step: no comment can start, every "<!", "<?" or "</"
# not followed by a letter ends at the first ">", a "<" followed by none of these is passed
# over, and every tag is read as "get an attribute" reads it and holds neither "<" nor ">" but
# its last byte. Then the loop may start at the "<meta" itself. Atomic groups and possessive
# runs keep the one reading the spec's steps make: a quote opens a value only right after an
# attribute's "=" (and spaces); elsewhere it is a byte of a name or of an unquoted value
# (``<a b"c=" x>``: the name is ``b"c`` and the value a quoted one that runs past the ">").
_PLAIN_PREFIX = re.compile(rb"""(?:
      [^<]++
    | <(?![A-Za-z!/?])                             # "any other byte"
    | <(?:[!?]|/(?![A-Za-z]))(?!--)[^>]*+>         # "<!", "</", "<?": up to the first ">"
    | </?[A-Za-z][^\t\n\x0c\r <>]*+               # a tag: its name, then "get an attribute"s
      (?>[\t\n\x0c\r /]*+                            # step 1
         (?:=[^\t\n\x0c\r /=<>]*+|[^\t\n\x0c\r /=<>]++)   # step 4: the name
         [\t\n\x0c\r ]*+                              # step 5
         (?:=[\t\n\x0c\r ]*+                          # steps 7 to 10: after "=", a value
            (?:"[^"<>]*+"|'[^'<>]*+'|(?=>)|[^\t\n\x0c\r >"'<][^\t\n\x0c\r <>]*+)
          |(?!=)))*+
      [\t\n\x0c\r /]*+>
)*+""", re.VERBOSE)


# The commonest declaration, a <meta> whose only attribute is charset: what the loop's <meta>
# branch would read from it (a quoted value, or an unquoted one up to a space or ">"), so that
# a known label can be returned without running "get an attribute" byte by byte. An unknown
# label goes through the loop, which records it as skipped.
_SIMPLE_META_CHARSET = re.compile(rb"""<meta[\t\n\x0c\r ]+charset[\t\n\x0c\r ]*=[\t\n\x0c\r ]*
    (?:"([^"]*)"|'([^']*)'|([^\t\n\x0c\r >"'][^\t\n\x0c\r >]*))[\t\n\x0c\r /]*>""",
                                  re.IGNORECASE | re.VERBOSE)
# The next commonest, a <meta> whose only attributes are http-equiv="content-type" and a quoted
# content, in either order: what the <meta> branch reads from it (a charset found in content,
# with the pragma), so that a known label needs no byte-by-byte "get an attribute" either. A
# content without a charset, or with an unknown label, goes through the loop.
_PRAGMA_META = re.compile(rb"""<meta[\t\n\x0c\r /]+(?:
      http-equiv[\t\n\x0c\r ]*=[\t\n\x0c\r ]*(?:"content-type"|'content-type')[\t\n\x0c\r /]*
      content[\t\n\x0c\r ]*=[\t\n\x0c\r ]*(?:"([^"]*)"|'([^']*)')
    | content[\t\n\x0c\r ]*=[\t\n\x0c\r ]*(?:"([^"]*)"|'([^']*)')[\t\n\x0c\r /]*
      http-equiv[\t\n\x0c\r ]*=[\t\n\x0c\r ]*(?:"content-type"|'content-type')
    )[\t\n\x0c\r /]*>""", re.IGNORECASE | re.VERBOSE)


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
            label = lower(simple.group(1) or simple.group(2) or simple.group(3) or b"")
            charset = get_encoding(label)
            if charset is not None:
                return PRESCAN_MAP.get(charset, charset), label, pos
        pragma = _PRAGMA_META.match(data, pos)
        if pragma is not None:  # http-equiv="content-type" and content: the loop's answer
            content = next(g for g in pragma.groups() if g is not None)
            found = encoding_from_content(lower(content))
            charset = get_encoding(found) if found is not None else None
            if found is not None and charset is not None:
                return PRESCAN_MAP.get(charset, charset), found, pos
    try:
        while 0 <= pos < n:
            nxt = data[pos + 1 : pos + 6]
            if nxt.startswith(b"!--"):
                end = data.find(b"-->", pos + 2)
                if end < 0:
                    return None
                pos = end + 2
            elif (len(nxt) == 5 and nxt[4] in SPACE_OR_SLASH
                  and nxt[:4].translate(LOWER_TABLE) == b"meta"):
                start = pos
                encoding, raw, pos = meta_branch(data, pos + 6, skipped)
                if encoding is not None and raw is not None:
                    return encoding, raw, start
            elif nxt[:1].isalpha() or (nxt[:1] == b"/" and nxt[1:2].isalpha()):
                tag_end = TAG_NAME_END.search(data, pos)
                if tag_end is None:
                    return None
                pos = tag_end.start()
                while (attr := get_attribute(data, pos)) is not None:
                    pos = attr[2]
            elif nxt[:1] in (b"!", b"/", b"?"):
                pos = data.find(b">", pos + 1)
                if pos < 0:
                    return None
            pos = data.find(b"<", pos + 1)
    except EndOfInput:
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

    The compiled prescan (``_prescan_c.pyx``) answers where it is built, and
    ``find_declaration_reference`` otherwise: the same answer (``tests/whatwg/test_prescan_c.py``).
    """
    if _C is not None and type(body) is bytes:
        found: Declaration | None = _C.find_declaration(body, late)
        return found
    return find_declaration_reference(body, late=late)


def find_declaration_reference(body: bytes, *, late: bool = True) -> Declaration | None:
    """``find_declaration`` in Python: the reference the compiled prescan is held equal to."""
    head = body[:PRESCAN_LIMIT]
    skipped: list[SkippedLabel] = []
    found = _scan(head, skipped)
    if found is not None:
        return Declaration(found[0], found[1], DeclarationKind.META, found[2],
                           skipped=tuple(skipped))
    xml = xml_encoding(head)
    if xml is not None and xml[0] is not None:
        return Declaration(xml[0], xml[1], DeclarationKind.XML_DECLARATION, 0,
                           skipped=tuple(skipped))
    if xml is not None:  # an unknown label: the prescan fails and a parser reads on
        skipped.append(SkippedLabel(xml[1], 0))
    if late and len(body) > PRESCAN_LIMIT:
        found_late = _late(body, skipped)
        if found_late is not None:
            return found_late
    if skipped:
        return Declaration(None, skipped[0].raw_label, DeclarationKind.META, skipped[0].offset,
                           skipped=tuple(skipped))
    return None


def _late(body: bytes, skipped: list[SkippedLabel]) -> Declaration | None:
    """The first ``<meta>`` declaration that the 1024-byte prescan could not see.

    Every ``<meta`` outside comments is tried with the prescan's rules; the first one that
    declares a known encoding wins (see the differences table).
    """
    if len(body) > _LATE_LIMIT:   # the limit holds inside one tag too (a 10 MB ``<meta ...``)
        body = body[:_LATE_LIMIT]
    limit = len(body)
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
            encoding, raw, pos = meta_branch(body, match.end(), late_skipped)
        except EndOfInput:
            return None
        if encoding is not None:
            merged = {(s.offset, s.raw_label): s for s in (*skipped, *late_skipped)}
            return Declaration(encoding, raw, DeclarationKind.META, match.start(), late=True,
                               skipped=tuple(sorted(merged.values(), key=lambda s: s.offset)))


#: ``find_declaration(body)`` for a caller that holds ``bytes`` (never a bytearray or a
#: view): the compiled function itself where it is built, with no wrapper call
#: (``decision.decode`` asks it of every page), else the reference.
find_declaration_in_bytes: Callable[[bytes], Declaration | None] = (
    _C.find_declaration if _C is not None else find_declaration_reference)
