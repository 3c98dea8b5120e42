# cython: language_level=3
"""The compiled form of ``front.decided_or_front``: what is read of a body before any walk,
and the recalled plain page decided there.

The reference's steps, in its order, with its collaborators (imported from the modules it
imports them from). Done here in C rather than through a Python call, each as the function
named does it:

- the test of the BOM's first byte (``bom.BOM_FIRST_BYTES``) and the search for a NUL in the
  head (``read_front``);
- the memo key of a body with no BOM (``tracememo.memo_key``; a sample key is checked
  against it when this module is imported) and its lookup in the memo's ``known`` dict
  (``TraceMemo.recall``'s first step);
- the strict decode of a UTF-8 or single-byte body (``decode_strict_once``'s: ``bytes.decode``
  as ``PyUnicode_DecodeUTF8``; the compiled single-byte decoder, ``single_byte_decoder``, or
  where it is not built ``charmap_decode`` as ``PyUnicode_DecodeCharmap`` over
  ``decoders.SINGLE_BYTE_TABLES``);
- the clearance of a UTF-8 or single-byte reading (``clearance.body_clears``'s two branches:
  no ESC and control bytes within one in a hundred of the head; ``single_byte_clear`` with
  ``clear_arguments``, kept per encoding);
- the recalled page's ``Decoded`` (``models.new_decoded``'s record, its slots filled in
  ``DECODED_FIELDS``' order, ``_slots_c``).

Everything else calls the reference's function: the BOM sniff, the prescan, the NUL
pattern, a BOM body's key and recall, another encoding's decode and clearance, and the failed
attempt of a strict decode that fails (``attempt.failed_attempt_at``, as ``recall`` builds
it, once the error is let go of: a long body's error holds a copy of its bytes). On the
pages most of a crawl is (recalled, plain, UTF-8 or single-byte) that is about 0.5 us less a
page: the Python calls between the steps.

``memo`` must be a ``TraceMemo`` (its ``known`` dict is read here; its ``recall`` is called
for the rest). ``tests/decision/test_front.py`` holds ``FrontReader`` equal to
``front.decided_or_front``, a ``Decoded`` or a ``Front`` field by field, on both corpora and
on random bodies and headers, each decided fresh and recalled.
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.unicode cimport PyUnicode_DecodeCharmap, PyUnicode_DecodeUTF8
from libc.string cimport memchr

from encoding_core._bytes_c cimport count_flagged_in
from encoding_core._slots_c cimport new_record, set_slot, slot_offsets

from encoding_core.decision._bytetest_c import single_byte_clear
from encoding_core.decision.attempt import failed_attempt_at
from encoding_core.decision.checks.clearance import (
    COMPILED,
    body_clears,
    clear_arguments,
    no_language,
)
from encoding_core.decision.models import Decoded
from encoding_core.decision.nulpattern import nul_pattern
from encoding_core.decision.textsample import BINARY_HEAD, CONTROL_FLAGS
from encoding_core.decision.tracememo import (MAX_HEADER, MAX_LABELS, Remembered, long_labels,
                                              memo_key)
from encoding_core.whatwg.bom import BOM_FIRST_BYTES, bom_sniff
from encoding_core.whatwg.decoders import ESC, SINGLE_BYTE_TABLES, single_byte_decoder
from encoding_core.whatwg.prescan import find_declaration_in_bytes


cdef Py_ssize_t _MAX_LABELS = MAX_LABELS


cdef object _key(object content_type, object declaration, object override):
    """``tracememo.memo_key(content_type, declaration, override)`` for a body with no BOM."""
    if content_type is not None and len(content_type) > MAX_HEADER:
        return None
    if declaration is None:
        return (content_type, override)
    label = declaration.raw_label
    if (declaration.skipped or (label is not None and len(label) > _MAX_LABELS)) \
            and long_labels(declaration):
        return None
    return (content_type, override, declaration.encoding, declaration.raw_label,
            declaration.source, declaration.offset if declaration.late else -1,
            declaration.skipped)


# what this module reads by position, tests in C or builds as another module does: a change
# there fails here, when the module is imported (and the reference answers instead)
if Remembered._fields[:5] != ("encoding", "source", "evidence", "browser", "plain"):
    raise ImportError("tracememo.Remembered's fields moved: update _front_c")
if BOM_FIRST_BYTES != (b"\xef", b"\xfe", b"\xff", b"\x00") or len(CONTROL_FLAGS) != 256:
    raise ImportError("bom.BOM_FIRST_BYTES or textsample.CONTROL_FLAGS changed: update _front_c")


def _check_key():
    """``_key`` against ``memo_key``: no declaration, an early one, a late one; headers short
    and too long to remember."""
    for body in (b"", b'<meta charset="utf-8">', b"<!-- x -->" * 120 + b"<meta charset=euc-jp>",
                 b'<meta charset="utf-8' + b" " * MAX_LABELS + b'">',
                 b"<meta charset=x" + b"y" * MAX_LABELS + b"><meta charset=koi8-r>"):
        declaration = find_declaration_in_bytes(body)
        for header in (None, "text/html", "text/html; charset=" + "x" * MAX_HEADER):
            if _key(header, declaration, "koi8-r") != memo_key(header, declaration, "koi8-r"):
                raise ImportError("tracememo.memo_key's key changed: update _front_c._key")


_check_key()


#: ``Decoded``'s fields in the order ``_decoded`` fills them (the reference's ``new_decoded``
#: arguments'), and each one's slot offset (``_slots_c``), found when the module is imported.
DECODED_FIELDS = ("text", "encoding", "source", "replacements", "evidence", "conflicts",
                  "browser_encoding", "bom_length", "error_offsets", "needs_review",
                  "body_length", "lossy")
cdef Py_ssize_t _TEXT, _ENCODING, _SOURCE, _REPLACEMENTS, _EVIDENCE, _CONFLICTS, _BROWSER
cdef Py_ssize_t _BOM_LENGTH, _ERROR_OFFSETS, _NEEDS_REVIEW, _BODY_LENGTH, _LOSSY


def _find_slots():
    """The offsets above, or ImportError (the reference then answers) when a ``Decoded`` can
    no longer be built by filling its slots."""
    global _TEXT, _ENCODING, _SOURCE, _REPLACEMENTS, _EVIDENCE, _CONFLICTS, _BROWSER
    global _BOM_LENGTH, _ERROR_OFFSETS, _NEEDS_REVIEW, _BODY_LENGTH, _LOSSY
    try:
        (_TEXT, _ENCODING, _SOURCE, _REPLACEMENTS, _EVIDENCE, _CONFLICTS, _BROWSER,
         _BOM_LENGTH, _ERROR_OFFSETS, _NEEDS_REVIEW, _BODY_LENGTH, _LOSSY) = slot_offsets(
            Decoded, DECODED_FIELDS)
    except TypeError as exc:
        raise ImportError(f"_front_c cannot build a Decoded: {exc}") from exc


_find_slots()


cdef object _decoded(text, encoding, source, evidence, browser, Py_ssize_t bom_length,
                     Py_ssize_t body_length):
    """``new_decoded(text, encoding, source, 0, evidence, (), browser, bom_length, (), False,
    body_length, False)``, as the reference builds the recalled page's record."""
    record = new_record(Decoded)
    set_slot(record, _TEXT, text)
    set_slot(record, _ENCODING, encoding)
    set_slot(record, _SOURCE, source)
    set_slot(record, _REPLACEMENTS, 0)
    set_slot(record, _EVIDENCE, evidence)
    set_slot(record, _CONFLICTS, ())
    set_slot(record, _BROWSER, browser)
    set_slot(record, _BOM_LENGTH, bom_length)
    set_slot(record, _ERROR_OFFSETS, ())
    set_slot(record, _NEEDS_REVIEW, False)
    set_slot(record, _BODY_LENGTH, body_length)
    set_slot(record, _LOSSY, False)
    return record


cdef class _SingleByte:
    """What the reader keeps of a single-byte encoding, looked up once."""

    cdef object decoder       # ``decoders.single_byte_decoder``'s (None where not built)
    cdef object table         # its decoding table (``decoders.SINGLE_BYTE_TABLES``)
    cdef tuple clearance      # ``clearance.clear_arguments``'

    def __cinit__(self, decoder, table, tuple clearance):
        self.decoder, self.table, self.clearance = decoder, table, clearance


cdef class FrontReader:
    """``FrontReader(Front, nul_window)(body, content_type, override, memo)``:
    ``front.decided_or_front(body, content_type, override, memo)`` (see the module), a NUL in
    the first ``nul_window`` bytes read as ``read_front`` reads it."""

    cdef object front_type
    cdef Py_ssize_t nul_window
    cdef Py_ssize_t binary_head
    cdef bytes controls
    cdef bint inline_clearance
    cdef dict single_byte   # encoding -> its ``_SingleByte``, or None for another encoding

    def __init__(self, front_type, Py_ssize_t nul_window):
        self.front_type = front_type
        self.nul_window = nul_window
        self.binary_head = BINARY_HEAD
        self.controls = CONTROL_FLAGS
        # without its compiled passes, ``body_clears`` answers False: ask it then
        self.inline_clearance = COMPILED
        self.single_byte = {}

    def __call__(self, bytes body not None, content_type, override, memo):
        cdef const unsigned char* p = <const unsigned char*> PyBytes_AS_STRING(body)
        cdef Py_ssize_t n = PyBytes_GET_SIZE(body)
        cdef Py_ssize_t head = n if n < self.nul_window else self.nul_window
        cdef Py_ssize_t skip = 0, binary = n if n < self.binary_head else self.binary_head
        cdef Py_ssize_t failed
        cdef bint nul, cleared, utf8 = False
        cdef _SingleByte single = None
        bom = known = encoding = None
        if n and (p[0] == 0xEF or p[0] == 0xFE or p[0] == 0xFF or p[0] == 0x00):
            bom = bom_sniff(body)
        declaration = find_declaration_in_bytes(body)
        nul = bom is None and memchr(p, 0, head) != NULL
        pattern = nul_pattern(body) if nul else None
        if nul:
            key = None
        elif bom is not None:
            key = memo_key(content_type, declaration, override, bom)
        else:
            key = _key(content_type, declaration, override)
        if key is not None:
            parts = memo.known.get(key)
            if parts is not None:   # (``recall``, from here on)
                skip = 0 if bom is None else bom[1]
                encoding = parts[0]
                utf8 = encoding == "utf-8"
                single = None if utf8 else self._single_byte(encoding)
                if skip or not (utf8 or single is not None):
                    known = memo.recall(body, key, skip)
                else:
                    # ``recall``'s decode (``decode_strict_once``'s), and for a body that
                    # fails it, its failed attempt; the error let go of first (a long body's
                    # error holds a copy of its bytes)
                    failed = -1
                    try:
                        if utf8:
                            text = PyUnicode_DecodeUTF8(<const char*> p, n, "strict")
                        elif single.decoder is not None:
                            text = single.decoder.decode_strict(body)   # (text, or an offset)
                            if type(text) is int:
                                failed = text
                        else:
                            text = PyUnicode_DecodeCharmap(<char*> p, n, single.table, "strict")
                    except UnicodeDecodeError as exc:
                        failed = exc.start
                    known = (parts, text) if failed < 0 else failed_attempt_at(
                        body, encoding, failed)
        if type(known) is tuple:   # (then ``encoding``, ``utf8`` and ``single`` are its)
            parts, text = <tuple> known
            if parts[4]:   # plain
                if not self.inline_clearance or not (utf8 or single is not None):
                    cleared = body_clears(body, encoding)
                elif utf8:
                    cleared = (memchr(p, ESC, n) == NULL and count_flagged_in(
                        p, binary, <const unsigned char*> PyBytes_AS_STRING(self.controls))
                        <= binary // 100)
                else:
                    tells = single_byte_clear(body, *single.clearance)
                    cleared = tells is not None and (not tells or no_language(tells, encoding))
                if cleared:
                    return _decoded(text, encoding, parts[1], parts[2], parts[3], skip, n)
        return tuple.__new__(self.front_type, (bom, declaration, pattern, key, known))

    cdef _SingleByte _single_byte(self, encoding):
        """What is kept of single-byte ``encoding``; None for an encoding of another kind."""
        if encoding in self.single_byte:
            return self.single_byte[encoding]
        table = SINGLE_BYTE_TABLES.get(encoding)
        found = None if table is None else _SingleByte(
            single_byte_decoder(encoding), table, clear_arguments(encoding))
        self.single_byte[encoding] = found
        return found
