# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The compiled form of ``prescan.find_declaration_reference``: the prescan, byte by byte in C.

Implements HTML "prescan a byte stream to determine its encoding" and its steps ("get an
attribute", the ``<meta>`` branch, "extracting a character encoding from a meta element"),
then the late search, exactly as the pure-Python reference does (``prescan.py``,
``_prescan_steps.py``; its differences table holds here too): the same ``Declaration``, label,
offset, skipped labels. Where the reference runs regular expressions and shortcuts over the
bytes, this walks them once with a pointer and builds a string only for a ``<meta>``'s
``charset`` value and the label its ``content`` holds. "get an encoding" and "get an XML
encoding when sniffing" (only for a page that starts with ``<?xml``) are the reference's own.
``tests/whatwg/test_prescan_c.py`` holds the two equal (Hypothesis, html5lib's cases, the
corpora, hostile shapes). ``attributes`` is its "get an attribute" over one tag, for the
browsers' tag walk (``decision/_browser_meta.py``).

Spec snapshot: https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.unicode cimport PyUnicode_DecodeLatin1
from libc.string cimport memchr

from encoding_core._bytes_c cimport find_pair
from encoding_core._slots_c cimport new_record, set_slot, slot_offsets

from ._prescan_steps import (
    LOWER_TABLE,
    PRESCAN_MAP,
    Declaration,
    DeclarationKind,
    SkippedLabel,
    xml_encoding,
)
from ._tables.labels import LABELS
from .labels import get_encoding

#: The same limits as ``prescan.py``'s (a test holds them equal).
PRESCAN_LIMIT = 1024
LATE_LIMIT = 1 << 20

cdef Py_ssize_t _END = -2     # the bytes ran out (the reference's EndOfInput)
cdef Py_ssize_t _NONE = -1    # "get an attribute": no attribute (a ">")

_META = DeclarationKind.META
_XML = DeclarationKind.XML_DECLARATION

#: The fields ``_declaration`` sets: ``Declaration``'s (a test holds them equal).
FIELDS = ("encoding", "raw_label", "source", "offset", "late", "skipped")
# the slot offset of each of ``FIELDS`` in a ``Declaration`` (``_slots_c``)
cdef Py_ssize_t _SLOTS[6]


def _find_slots():
    """``_SLOTS``, or ImportError (the reference prescan then answers) when a ``Declaration``
    can no longer be built by filling its slots."""
    try:
        for place, offset in enumerate(slot_offsets(Declaration, FIELDS)):
            _SLOTS[place] = offset
    except TypeError as exc:
        raise ImportError(f"_prescan_c cannot build a Declaration: {exc}") from exc


_find_slots()


cdef inline tuple _tuple(list skipped):
    """``tuple(skipped)``; the empty tuple itself for none (most pages)."""
    return tuple(skipped) if skipped else ()


cdef object _declaration(encoding, raw, source, Py_ssize_t offset, bint late, tuple skipped):
    """``Declaration(encoding, raw, source, offset, late, skipped)``, its slots filled
    (``_slots_c``): the frozen dataclass's ``__init__`` (one ``object.__setattr__`` call a
    field) took 1.2 us of the 1.5 a short page cost, setting each through
    ``PyObject_GenericSetAttr`` 0.25, this less than 0.1. The same record."""
    found = new_record(Declaration)
    set_slot(found, _SLOTS[0], encoding)
    set_slot(found, _SLOTS[1], raw)
    set_slot(found, _SLOTS[2], source)
    set_slot(found, _SLOTS[3], offset)
    set_slot(found, _SLOTS[4], late)
    set_slot(found, _SLOTS[5], skipped)
    return found


cdef inline bint _space(unsigned char c) noexcept:
    """The prescan's whitespace: TAB, LF, FF, CR, SPACE."""
    return c == 0x20 or c == 0x09 or c == 0x0A or c == 0x0C or c == 0x0D


cdef inline bint _alpha(unsigned char c) noexcept:
    """An ASCII letter (``bytes.isalpha``)."""
    return (c | 0x20) >= 0x61 and (c | 0x20) <= 0x7A


cdef inline unsigned char _low(unsigned char c) noexcept:
    """ASCII lowercase (``LOWER_TABLE``)."""
    return c | 0x20 if 0x41 <= c <= 0x5A else c


cdef inline bint _is(const unsigned char* d, Py_ssize_t s, Py_ssize_t e, bytes word) noexcept:
    """Whether ``d[s:e]`` ASCII-lowered is ``word`` (lower case)."""
    cdef const unsigned char* w = <const unsigned char*> PyBytes_AS_STRING(word)
    cdef Py_ssize_t i
    if e - s != PyBytes_GET_SIZE(word):
        return False
    for i in range(e - s):
        if _low(d[s + i]) != w[i]:
            return False
    return True


cdef inline Py_ssize_t _find(const unsigned char* d, Py_ssize_t n, Py_ssize_t pos,
                             unsigned char c) noexcept:
    """The first ``c`` at or after ``pos`` before ``n``, or -1."""
    if pos >= n:
        return -1
    cdef const void* at = memchr(d + pos, c, <size_t> (n - pos))
    return -1 if at == NULL else <Py_ssize_t> (<const unsigned char*> at - d)


cdef inline Py_ssize_t _comment_end(const unsigned char* d, Py_ssize_t n,
                                    Py_ssize_t pos) noexcept:
    """Where the first "-->" at or after ``pos`` starts, or -1 (``bytes.find``): looked for
    by its ">", the rarer byte (a run of dashes is then one ``memchr``)."""
    cdef Py_ssize_t close = pos + 2
    while True:
        close = _find(d, n, close, 0x3E)
        if close < 0:
            return -1
        if d[close - 1] == 0x2D and d[close - 2] == 0x2D:
            return close - 2
        close += 1


cdef str _lower(const unsigned char* d, Py_ssize_t s, Py_ssize_t e):
    """``_prescan_steps.lower(d[s:e])``: ASCII-lowered, read as Latin-1."""
    cdef Py_ssize_t i
    for i in range(s, e):
        if 0x41 <= d[i] <= 0x5A:
            return (<bytes> d[s:e]).translate(LOWER_TABLE).decode("latin-1")
    return PyUnicode_DecodeLatin1(<const char*> d + s, e - s, NULL)


cdef Py_ssize_t _attribute(const unsigned char* d, Py_ssize_t n, Py_ssize_t pos,
                           Py_ssize_t* span) noexcept:
    """Implements HTML "get an attribute" (``_prescan_steps.get_attribute``) on positions.

    https://html.spec.whatwg.org/multipage/parsing.html#concept-get-attributes-when-sniffing
    Returns the position after the attribute, with the name in ``span[0]:span[1]`` and the
    value in ``span[2]:span[3]`` (not yet lowered); ``_NONE`` at a ">", ``_END`` when the bytes
    run out.
    """
    cdef unsigned char c
    cdef Py_ssize_t end
    while pos < n and (_space(d[pos]) or d[pos] == 0x2F):  # step 1
        pos += 1
    if pos >= n:
        return _END
    if d[pos] == 0x3E:  # step 2
        return _NONE
    span[0] = pos  # step 4: the name; a leading "=" is part of it
    if d[pos] == 0x3D:
        pos += 1
    while pos < n:
        c = d[pos]
        if _space(c) or c == 0x2F or c == 0x3D or c == 0x3E:
            break
        pos += 1
    if pos >= n:
        return _END
    span[1] = pos
    span[2] = span[3] = pos
    if _space(d[pos]):  # step 5: spaces, then "=" or the end of this attribute
        while pos < n and _space(d[pos]):
            pos += 1
        if pos >= n:
            return _END
        if d[pos] != 0x3D:
            return pos
    elif d[pos] != 0x3D:  # "/" or ">"
        return pos
    pos += 1  # steps 7 and 8
    while pos < n and _space(d[pos]):
        pos += 1
    if pos >= n:
        return _END
    c = d[pos]
    if c == 0x22 or c == 0x27:  # step 9: a quoted value
        end = _find(d, n, pos + 1, c)
        if end < 0:
            return _END
        span[2] = pos + 1
        span[3] = end
        return end + 1
    if c == 0x3E:
        return pos
    end = pos + 1  # steps 9 and 10: an unquoted value
    while end < n and not (_space(d[end]) or d[end] == 0x3E):
        end += 1
    if end >= n:
        return _END
    span[2] = pos
    span[3] = end
    return end


cdef object _content_label(const unsigned char* d, Py_ssize_t pos, Py_ssize_t n):
    """Implements HTML "extracting a character encoding from a meta element" on ``d[pos:n]``
    (``_prescan_steps.encoding_from_content`` on its lowered string); the raw label or None.

    https://html.spec.whatwg.org/multipage/urls-and-fetching.html#algorithm-for-extracting-a-character-encoding-from-a-meta-element
    """
    cdef Py_ssize_t end, i
    cdef unsigned char q
    cdef bint hit
    while True:
        hit = False  # "charset", ASCII case-insensitively, at or after pos
        while pos + 7 <= n:
            if _low(d[pos]) == 0x63:
                hit = True
                for i in range(1, 7):
                    if _low(d[pos + i]) != b"charset"[i]:
                        hit = False
                        break
                if hit:
                    break
            pos += 1
        if not hit:
            return None
        pos += 7
        while pos < n and _space(d[pos]):
            pos += 1
        if pos >= n or d[pos] != 0x3D:
            continue  # "move position to just before that character, and jump back to loop"
        pos += 1
        while pos < n and _space(d[pos]):
            pos += 1
        if pos >= n:
            return None
        q = d[pos]
        if q == 0x22 or q == 0x27:
            end = _find(d, n, pos + 1, q)
            return None if end < 0 else _lower(d, pos + 1, end)
        end = pos
        while end < n and not (_space(d[end]) or d[end] == 0x3B):
            end += 1
        return _lower(d, pos, end)


cdef inline object _encoding_of(str label):
    """``labels.get_encoding(label)``: a label as the table has it (what most pages write) is
    looked up at once, as ``get_encoding`` first does; any other goes through it."""
    found = LABELS.get(label)
    return found if found is not None else get_encoding(label)


cdef Py_ssize_t _meta(const unsigned char* d, Py_ssize_t n, Py_ssize_t pos, list skipped,
                      list out) except? -3:
    """The prescan's ``<meta`` branch (``_prescan_steps.meta_branch``) from just after
    ``<meta`` and its space or slash: the position of the tag's ">" (``_END``: the bytes ran
    out), and in ``out`` the (encoding, raw label) it declares, if it does."""
    cdef Py_ssize_t start = pos - 6
    cdef Py_ssize_t span[4]
    cdef Py_ssize_t after
    cdef bint seen_equiv = False, seen_content = False, seen_charset = False
    cdef bint got_pragma = False, charset_failed = False
    cdef int need_pragma = -1  # the spec's null
    charset = None
    raw = None
    while True:
        after = _attribute(d, n, pos, span)
        if after == _END:
            return _END
        if after == _NONE:
            break
        pos = after
        # Only these three names change the answer, so only their first copies are kept in
        # mind (the reference's "attribute list" holds every name, to the same effect).
        if _is(d, span[0], span[1], b"http-equiv"):
            if seen_equiv:
                continue
            seen_equiv = True
            if _is(d, span[2], span[3], b"content-type"):
                got_pragma = True
        elif _is(d, span[0], span[1], b"content"):
            if seen_content:
                continue
            seen_content = True
            label = _content_label(d, span[2], span[3])
            if label is not None and charset is None and not charset_failed:
                found = _encoding_of(label)
                if found is None:
                    skipped.append(SkippedLabel(label, start))
                else:
                    charset, raw, need_pragma = found, label, 1
        elif _is(d, span[0], span[1], b"charset"):
            if seen_charset:
                continue
            seen_charset = True
            raw = _lower(d, span[2], span[3])
            charset = _encoding_of(raw)
            need_pragma = 0
            if charset is None:
                charset_failed = True
                skipped.append(SkippedLabel(raw, start))
    if need_pragma == -1 or (need_pragma == 1 and not got_pragma) or charset is None:
        return pos
    out.append(PRESCAN_MAP.get(charset, charset))
    out.append(raw)
    return pos


cdef inline bint _meta_at(const unsigned char* d, Py_ssize_t n, Py_ssize_t pos) noexcept:
    """Whether ``<meta`` and a space or slash start at ``pos`` (any case)."""
    cdef unsigned char c
    if pos + 5 >= n:
        return False
    c = d[pos + 5]
    return ((_space(c) or c == 0x2F) and _low(d[pos + 1]) == 0x6D and _low(d[pos + 2]) == 0x65
            and _low(d[pos + 3]) == 0x74 and _low(d[pos + 4]) == 0x61)


cdef object _scan(const unsigned char* d, Py_ssize_t n, list skipped):
    """The prescan's loop over ``d[:n]`` (``prescan._scan``): the ``Declaration`` of what it
    finds (a ``<meta>``'s, the UTF-16 ``<?x`` pattern's), or None."""
    cdef Py_ssize_t pos, start, after
    cdef Py_ssize_t span[4]
    cdef unsigned char c
    cdef list out = []
    if n >= 6 and d[0] == 0x3C and d[1] == 0 and d[2] == 0x3F and d[3] == 0 and d[4] == 0x78 \
            and d[5] == 0:
        return _declaration("utf-16le", "<?x (UTF-16LE)", _META, 0, False, _tuple(skipped))
    if n >= 6 and d[0] == 0 and d[1] == 0x3C and d[2] == 0 and d[3] == 0x3F and d[4] == 0 \
            and d[5] == 0x78:
        return _declaration("utf-16be", "<?x (UTF-16BE)", _META, 0, False, _tuple(skipped))
    # past those, only a "<meta" gives the loop anything to find (a declaration, a skipped
    # label): bytes with no "<" before an "m" or "M" are passed over whole
    if find_pair(d, 0, n, 0x3C, 0x4D, 0x6D, 0x6D) >= n:
        return None
    pos = _find(d, n, 0, 0x3C)
    while 0 <= pos < n:
        c = d[pos + 1] if pos + 1 < n else 0
        if c == 0x21 and pos + 3 < n and d[pos + 2] == 0x2D and d[pos + 3] == 0x2D:  # "<!--"
            pos = _comment_end(d, n, pos + 2)
            if pos < 0:
                return None
            pos += 2
        elif _meta_at(d, n, pos):
            start = pos
            pos = _meta(d, n, pos + 6, skipped, out)
            if pos == _END:
                return None
            if out:
                return _declaration(out[0], out[1], _META, start, False, _tuple(skipped))
        elif pos + 1 < n and (_alpha(c) or (c == 0x2F and pos + 2 < n and _alpha(d[pos + 2]))):
            while pos < n and not (_space(d[pos]) or d[pos] == 0x3E):  # the tag's name
                pos += 1
            if pos >= n:
                return None
            while True:  # its attributes, up to the ">" where "get an attribute" finds none
                after = _attribute(d, n, pos, span)
                if after == _END:
                    return None
                if after == _NONE:
                    break
                pos = after
        elif c == 0x21 or c == 0x2F or c == 0x3F:  # "<!", "</", "<?"
            pos = _find(d, n, pos + 1, 0x3E)
            if pos < 0:
                return None
        pos = _find(d, n, pos + 1, 0x3C)
    return None


def find_declaration(bytes body not None, bint late=True):
    """The in-document declaration with where it was, skipped labels, and (optionally) a late
    one: ``prescan.find_declaration_reference``'s answer.

    - the prescan of the first 1024 bytes (``<meta>``, then the XML declaration);
    - if that finds nothing and ``late`` is true, the first ``<meta>`` declaration after them.
    """
    cdef const unsigned char* d = <const unsigned char*> PyBytes_AS_STRING(body)
    cdef Py_ssize_t n = PyBytes_GET_SIZE(body)
    cdef Py_ssize_t head = n if n < PRESCAN_LIMIT else PRESCAN_LIMIT
    cdef list skipped = []
    found = _scan(d, head, skipped)
    if found is not None:
        return found
    if head >= 5 and d[0] == 0x3C and d[1] == 0x3F and d[2] == 0x78 and d[3] == 0x6D \
            and d[4] == 0x6C:  # "<?xml": the reference's "get an XML encoding when sniffing"
        xml = xml_encoding(body[:PRESCAN_LIMIT])
        if xml is not None and xml[0] is not None:
            return _declaration(xml[0], xml[1], _XML, 0, False, tuple(skipped))
        if xml is not None:  # an unknown label: the prescan fails and a parser reads on
            skipped.append(SkippedLabel(xml[1], 0))
    if late and n > PRESCAN_LIMIT:
        found_late = _late(d, n if n < LATE_LIMIT else LATE_LIMIT, skipped)
        if found_late is not None:
            return found_late
    if skipped:
        first = skipped[0]
        return _declaration(None, first.raw_label, _META, first.offset, False,
                            tuple(skipped))
    return None


cdef object _late(const unsigned char* d, Py_ssize_t n, list skipped):
    """The first ``<meta>`` declaration in ``d[:n]`` (``prescan._late``): every ``<meta``
    outside comments is tried with the prescan's rules, the first known encoding wins."""
    cdef Py_ssize_t pos = 0, start, end
    cdef list late_skipped = []
    cdef list out = []
    while True:
        # a "<" that can start neither "<!--" nor "<meta" is passed over
        pos = find_pair(d, pos, n, 0x3C, 0x21, 0x4D, 0x6D)   # "<" then "!", "M" or "m"
        if pos >= n:
            return None
        if pos + 3 < n and d[pos + 1] == 0x21 and d[pos + 2] == 0x2D and d[pos + 3] == 0x2D:
            end = _comment_end(d, n, pos + 2)
            if end < 0:
                return None
            pos = end + 3
            continue
        if not _meta_at(d, n, pos):
            pos += 1
            continue
        start = pos
        pos = _meta(d, n, pos + 6, late_skipped, out)
        if pos == _END:
            return None
        if out:
            merged = {(s.offset, s.raw_label): s for s in (*skipped, *late_skipped)}
            return _declaration(out[0], out[1], _META, start, True,
                                tuple(sorted(merged.values(), key=_offset)))


def _offset(skipped):
    """A skipped label's offset (the sort key of the merged list)."""
    return skipped.offset


def attributes(bytes data not None, Py_ssize_t pos, bint keep=True):
    """Every "get an attribute" from ``pos`` to the tag's ">": (the (name, value) pairs, names
    and values ASCII-lowered as ``_prescan_steps.get_attribute`` gives them, or none when
    ``keep`` is false; the position of the ">"), or None when the bytes run out (the
    reference's ``EndOfInput``). For ``decision/_browser_meta.meta_tags``."""
    cdef const unsigned char* d = <const unsigned char*> PyBytes_AS_STRING(data)
    cdef Py_ssize_t n = PyBytes_GET_SIZE(data)
    cdef Py_ssize_t span[4]
    cdef Py_ssize_t after
    cdef list found = []
    if pos < 0:
        raise ValueError("pos must not be negative")
    while True:
        after = _attribute(d, n, pos, span)
        if after == _END:
            return None
        if after == _NONE:
            return found, pos
        pos = after
        if keep:
            found.append((_lower(d, span[0], span[1]), _lower(d, span[2], span[3])))
