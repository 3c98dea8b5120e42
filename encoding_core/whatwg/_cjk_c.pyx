# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""The compiled WHATWG multi-byte (CJK) decoders: gb18030 (and GBK), Big5, EUC-JP, ISO-2022-JP,
Shift_JIS, EUC-KR, each following its Encoding Standard algorithm
(https://encoding.spec.whatwg.org/commit-snapshots/a985b62a9b45/, each decoder's section).

Built by ``setup.py`` where a C compiler is found; ``_cjk_compiled.py`` loads it (through
``encoding_core.speedups.compiled``) and gives it its index tables. The reference is
``_decoders_cjk.decode_cjk_codec`` (Python's codecs with the pure-Python WHATWG decoders of
``_cjk_*.py`` on their errors); ``tests/whatwg/test_cjk_c.py`` holds the two equal (the same text,
the same error offsets) on arbitrary bytes and on encoded text, corrupted and truncated.

Each decoder reads the input with lookahead, as the pure-Python decoders do, instead of the
spec's one-byte-at-a-time state machine: the same outputs and errors, the "restore to the I/O
queue" steps being where the next sequence starts. An input under 64 KiB is decoded in one
pass into 4-byte code points that CPython narrows to the ``str``'s kind (replacement mode with
errors goes on as below, to size the offsets). A larger one in two passes, without the GIL:
the first counts the characters, the errors and the largest code point, the second writes
them into a ``str`` of exactly that size (and the error offsets into an array of exactly that
size), so a 1 MiB page needs its text and nothing else (no 4-byte-a-character buffer). Every
pass is linear in the input: every step consumes at least one byte.

Tables: each index is an array of uint32 code points, one per pointer, U+FFFE where the index
has none (``_decoders_cjk._index``: the generated ``_tables/cjk.py`` applied to Python's codec).
"""

from cpython.array cimport array, resize
from cpython.buffer cimport PyBUF_WRITABLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy

from encoding_core._bytes_c cimport skip_ascii


cdef extern from "Python.h":
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    void* PyUnicode_DATA(object text)
    object PyUnicode_DecodeASCII(const char* data, Py_ssize_t size, const char* errors)
    object PyUnicode_FromKindAndData(int kind, const void* buffer, Py_ssize_t size)
    void* PyMem_Malloc(size_t size)
    void PyMem_Free(void* buffer)

# which decoder (``ENCODINGS``: the WHATWG name's code)
cdef enum:
    GB18030 = 0
    BIG5 = 1
    EUC_JP = 2
    ISO_2022_JP = 3
    SHIFT_JIS = 4
    EUC_KR = 5

ENCODINGS = {"gbk": GB18030, "gb18030": GB18030, "big5": BIG5, "euc-jp": EUC_JP,
             "iso-2022-jp": ISO_2022_JP, "shift_jis": SHIFT_JIS, "euc-kr": EUC_KR}

# no code point at this pointer (``_cjk_common.NUL_CP``)
cdef uint32_t NONE = 0xFFFE
# no code point at this gb18030 ranges pointer (U+FFFE and U+FFFF are there: pointers 39418, 39419)
cdef uint32_t NO_RANGE = 0xFFFFFFFF


cdef struct Out:
    Py_ssize_t count        # characters emitted so far
    Py_UCS4 maxchar         # the largest non-ASCII one (counting pass)
    Py_ssize_t nerr         # malformed sequences so far
    Py_ssize_t first_error  # offset of the first, or -1
    bint stop               # (strict mode) stop at the first error
    int kind                # 0: counting pass; 1, 2, 4: writing a str of that kind
    void* text
    uint32_t* err32         # where the error offsets go (writing pass), or NULL
    uint64_t* err64


cdef struct Tables:
    const uint32_t* index     # gb18030, big5, jis0208 or euc-kr
    const uint32_t* index2    # jis0212 (EUC-JP)
    const uint32_t* range_pointers   # index gb18030 ranges, both ascending
    const uint32_t* range_code_points
    Py_ssize_t ranges


cdef inline void emit(Out* o, Py_UCS4 c) noexcept nogil:
    if o.kind == 0:
        if c > o.maxchar:
            o.maxchar = c
    elif o.kind == 1:
        (<uint8_t*> o.text)[o.count] = <uint8_t> c
    elif o.kind == 2:
        (<uint16_t*> o.text)[o.count] = <uint16_t> c
    else:
        (<uint32_t*> o.text)[o.count] = c
    o.count += 1


cdef inline void error(Out* o, Py_ssize_t at) noexcept nogil:
    """A decoder's "return error" for the sequence starting at ``at``: one U+FFFD."""
    if o.nerr == 0:
        o.first_error = at
    if o.err32 != NULL:
        o.err32[o.nerr] = <uint32_t> at
    elif o.err64 != NULL:
        o.err64[o.nerr] = <uint64_t> at
    o.nerr += 1
    emit(o, 0xFFFD)


cdef inline void copy_run(Out* o, const unsigned char* p, Py_ssize_t start,
                          Py_ssize_t end) noexcept nogil:
    """Emit the ASCII bytes ``p[start:end]``, each its code point."""
    cdef Py_ssize_t k
    if o.kind == 1:
        memcpy((<uint8_t*> o.text) + o.count, p + start, <size_t> (end - start))
    elif o.kind == 2:
        for k in range(end - start):
            (<uint16_t*> o.text)[o.count + k] = p[start + k]
    elif o.kind == 4:
        for k in range(end - start):
            (<uint32_t*> o.text)[o.count + k] = p[start + k]
    o.count += end - start   # (ASCII: no change to maxchar, which decides the str's kind)


cdef inline Py_ssize_t ascii_run(Out* o, const unsigned char* p, Py_ssize_t i,
                                 Py_ssize_t n) noexcept nogil:
    """Emit the ASCII run at ``i`` (each byte its code point); return where it ends."""
    cdef Py_ssize_t end = skip_ascii(p, i, n)
    copy_run(o, p, i, end)
    return end


cdef inline uint32_t gb18030_ranges_code_point(const Tables* t, Py_ssize_t pointer) noexcept nogil:
    """Encoding "index gb18030 ranges code point" (NO_RANGE for null):
    https://encoding.spec.whatwg.org/#index-gb18030-ranges-code-point"""
    cdef Py_ssize_t lo = 0, hi = t.ranges, mid
    if (39419 < pointer < 189000) or pointer > 1237575:
        return NO_RANGE
    if pointer == 7457:
        return 0xE7C7
    while hi - lo > 1:   # the last range whose pointer is <= pointer (the first is 0)
        mid = (lo + hi) // 2
        if t.range_pointers[mid] <= pointer:
            lo = mid
        else:
            hi = mid
    return <uint32_t> (t.range_code_points[lo] + pointer - t.range_pointers[lo])


cdef void gb18030(Out* o, const unsigned char* p, Py_ssize_t n, const Tables* t) noexcept nogil:
    """Encoding "gb18030 decoder" (also GBK's): https://encoding.spec.whatwg.org/#gb18030-decoder"""
    cdef Py_ssize_t i = 0, pointer
    cdef unsigned char b, b2
    cdef uint32_t c
    while i < n:
        b = p[i]
        if b < 0x80:
            i = ascii_run(o, p, i, n)
            continue
        if b == 0x80:
            emit(o, 0x20AC)
            i += 1
        elif b == 0xFF or i + 1 >= n:   # or the end of the queue with gb18030 first set
            error(o, i)
            i += 1
        else:
            b2 = p[i + 1]
            if 0x30 <= b2 <= 0x39:
                if i + 2 < n and not (0x81 <= p[i + 2] <= 0xFE):
                    error(o, i)   # restore « second, byte »
                    i += 1
                elif i + 3 < n and not (0x30 <= p[i + 3] <= 0x39):
                    error(o, i)   # restore « second, third, byte »
                    i += 1
                elif i + 3 >= n:   # the end of the queue
                    error(o, i)
                    i = n
                else:
                    pointer = ((b - 0x81) * 12600 + (b2 - 0x30) * 1260
                               + (p[i + 2] - 0x81) * 10 + p[i + 3] - 0x30)
                    c = gb18030_ranges_code_point(t, pointer)
                    if c == NO_RANGE:
                        error(o, i)
                    else:
                        emit(o, c)
                    i += 4
            else:
                c = NONE
                if 0x40 <= b2 <= 0x7E or 0x80 <= b2 <= 0xFE:
                    c = t.index[(b - 0x81) * 190 + b2 - (0x40 if b2 < 0x7F else 0x41)]
                if c != NONE:
                    emit(o, c)
                    i += 2
                else:   # an ASCII byte is restored
                    error(o, i)
                    i += 1 if b2 < 0x80 else 2
        if o.stop and o.nerr:
            return


cdef void big5(Out* o, const unsigned char* p, Py_ssize_t n, const Tables* t) noexcept nogil:
    """Encoding "Big5 decoder": https://encoding.spec.whatwg.org/#big5-decoder"""
    cdef Py_ssize_t i = 0, pointer
    cdef unsigned char b, b2
    cdef uint32_t c
    while i < n:
        b = p[i]
        if b < 0x80:
            i = ascii_run(o, p, i, n)
            continue
        if b == 0x80 or b == 0xFF or i + 1 >= n:   # or a lead byte at the end of the queue
            error(o, i)
            i += 1
        else:
            b2 = p[i + 1]
            c = NONE
            if 0x40 <= b2 <= 0x7E or 0xA1 <= b2 <= 0xFE:
                pointer = (b - 0x81) * 157 + b2 - (0x40 if b2 < 0x7F else 0x62)
                # the four pointers that decode to two code points (step 3.6)
                if pointer == 1133 or pointer == 1135 or pointer == 1164 or pointer == 1166:
                    emit(o, 0xCA if pointer < 1164 else 0xEA)
                    emit(o, 0x0304 if pointer == 1133 or pointer == 1164 else 0x030C)
                    i += 2
                    continue
                c = t.index[pointer]
            if c != NONE:
                emit(o, c)
                i += 2
            else:   # an ASCII byte is restored
                error(o, i)
                i += 1 if b2 < 0x80 else 2
        if o.stop and o.nerr:
            return


cdef void euc_jp(Out* o, const unsigned char* p, Py_ssize_t n, const Tables* t) noexcept nogil:
    """Encoding "EUC-JP decoder": https://encoding.spec.whatwg.org/#euc-jp-decoder"""
    cdef Py_ssize_t i = 0, last
    cdef unsigned char b, b2, b3
    cdef uint32_t c
    while i < n:
        b = p[i]
        if b < 0x80:
            i = ascii_run(o, p, i, n)
            continue
        if not (b == 0x8E or b == 0x8F or 0xA1 <= b <= 0xFE) or i + 1 >= n:
            error(o, i)   # or a lead byte at the end of the queue
            i += 1
        else:
            b2 = p[i + 1]
            c = NONE
            last = i + 1   # the byte that completes or breaks the sequence
            if b == 0x8E and 0xA1 <= b2 <= 0xDF:
                c = 0xFF61 - 0xA1 + b2
            elif b == 0x8F and 0xA1 <= b2 <= 0xFE:
                if i + 2 < n:   # else the end of the queue: an error that consumes b2
                    last = i + 2
                    b3 = p[last]
                    if 0xA1 <= b3 <= 0xFE:
                        c = t.index2[(b2 - 0xA1) * 94 + b3 - 0xA1]
            elif 0xA1 <= b <= 0xFE and 0xA1 <= b2 <= 0xFE:
                c = t.index[(b - 0xA1) * 94 + b2 - 0xA1]
            if c != NONE:
                emit(o, c)
                i = last + 1
            else:   # an ASCII byte is restored
                error(o, i)
                i = last if p[last] < 0x80 else last + 1
        if o.stop and o.nerr:
            return


cdef void shift_jis(Out* o, const unsigned char* p, Py_ssize_t n, const Tables* t) noexcept nogil:
    """Encoding "Shift_JIS decoder": https://encoding.spec.whatwg.org/#shift_jis-decoder"""
    cdef Py_ssize_t i = 0, pointer
    cdef unsigned char b, b2
    cdef uint32_t c
    while i < n:
        b = p[i]
        if b < 0x80:
            i = ascii_run(o, p, i, n)
            continue
        if b == 0x80:
            emit(o, 0x80)
            i += 1
        elif 0xA1 <= b <= 0xDF:
            emit(o, 0xFF61 - 0xA1 + b)
            i += 1
        elif not (0x81 <= b <= 0x9F or 0xE0 <= b <= 0xFC) or i + 1 >= n:
            error(o, i)   # or a lead byte at the end of the queue
            i += 1
        else:
            b2 = p[i + 1]
            c = NONE
            if 0x40 <= b2 <= 0x7E or 0x80 <= b2 <= 0xFC:
                pointer = ((b - (0x81 if b < 0xA0 else 0xC1)) * 188
                           + b2 - (0x40 if b2 < 0x7F else 0x41))
                if 8836 <= pointer <= 10715:   # EUDC: the Private Use Area
                    c = <uint32_t> (0xE000 - 8836 + pointer)
                else:
                    c = t.index[pointer]
            if c != NONE:
                emit(o, c)
                i += 2
            else:   # an ASCII byte is restored
                error(o, i)
                i += 1 if b2 < 0x80 else 2
        if o.stop and o.nerr:
            return


cdef void euc_kr(Out* o, const unsigned char* p, Py_ssize_t n, const Tables* t) noexcept nogil:
    """Encoding "EUC-KR decoder": https://encoding.spec.whatwg.org/#euc-kr-decoder"""
    cdef Py_ssize_t i = 0
    cdef unsigned char b, b2
    cdef uint32_t c
    while i < n:
        b = p[i]
        if b < 0x80:
            i = ascii_run(o, p, i, n)
            continue
        if b == 0x80 or b == 0xFF or i + 1 >= n:   # or a lead byte at the end of the queue
            error(o, i)
            i += 1
        else:
            b2 = p[i + 1]
            c = t.index[(b - 0x81) * 190 + b2 - 0x41] if 0x41 <= b2 <= 0xFE else NONE
            if c != NONE:
                emit(o, c)
                i += 2
            else:   # an ASCII byte is restored
                error(o, i)
                i += 1 if b2 < 0x80 else 2
        if o.stop and o.nerr:
            return


# ISO-2022-JP decoder states at a sequence boundary (each also the "output state" there)
cdef enum:
    ASCII = 0
    ROMAN = 1
    KATAKANA = 2
    LEAD = 3


cdef void iso_2022_jp(Out* o, const unsigned char* p, Py_ssize_t n, const Tables* t) noexcept nogil:
    """Encoding "ISO-2022-JP decoder": https://encoding.spec.whatwg.org/#iso-2022-jp-decoder

    The states "escape start", "escape" and "trail byte" are read ahead from ESC or the leading
    byte; the state at each sequence boundary is the output state. Where the spec restores
    bytes after a failed escape (and where "trail byte" meets ESC and goes to "escape start"),
    decoding goes on at the byte after ESC (at the ESC) in the output state: the same bytes,
    the same state.
    """
    cdef Py_ssize_t i = 0, start
    cdef int state = ASCII, new_state
    cdef bint output = False   # the ISO-2022-JP output flag
    cdef unsigned char b, b2
    cdef uint32_t c
    while i < n:
        b = p[i]
        if b == 0x1B:   # "escape start", then "escape"
            new_state = -1
            if i + 2 < n:
                b2 = p[i + 2]
                if p[i + 1] == 0x28:
                    if b2 == 0x42:
                        new_state = ASCII
                    elif b2 == 0x4A:
                        new_state = ROMAN
                    elif b2 == 0x49:
                        new_state = KATAKANA
                elif p[i + 1] == 0x24 and (b2 == 0x40 or b2 == 0x42):
                    new_state = LEAD
            if new_state >= 0:
                if output:   # two escape sequences in a row: "escape" returns error
                    error(o, i)
                state = new_state
                output = True
                i += 3
            else:   # what followed ESC is restored, and read in the output state
                output = False
                error(o, i)
                i += 1
        elif state == LEAD:
            output = False
            if 0x21 <= b <= 0x7E and i + 1 < n and 0x21 <= p[i + 1] <= 0x7E:
                c = t.index[(b - 0x21) * 94 + p[i + 1] - 0x21]
                if c == NONE:
                    error(o, i)
                else:
                    emit(o, c)
                i += 2
            elif 0x21 <= b <= 0x7E:
                # "trail byte" with a byte outside 0x21-0x7E: an ESC goes on to "escape
                # start", the end of the queue ends, any other byte is consumed with the lead
                error(o, i)
                i += 1 if i + 1 >= n or p[i + 1] == 0x1B else 2
            else:
                error(o, i)
                i += 1
        elif state == KATAKANA:
            output = False
            if 0x21 <= b <= 0x5F:
                emit(o, 0xFF61 - 0x21 + b)
            else:
                error(o, i)
            i += 1
        elif state == ASCII and b < 0x80 and b != 0x0E and b != 0x0F:
            # a run of what the ASCII state outputs as itself (up to ESC, SO, SI, a high byte)
            output = False
            start = i
            while i < n and p[i] < 0x80 and p[i] != 0x1B and p[i] != 0x0E and p[i] != 0x0F:
                i += 1
            copy_run(o, p, start, i)
        else:   # ASCII (its errors), Roman
            output = False
            if b > 0x7F or b == 0x0E or b == 0x0F:
                error(o, i)
            elif state == ROMAN and b == 0x5C:
                emit(o, 0xA5)
            elif state == ROMAN and b == 0x7E:
                emit(o, 0x203E)
            else:
                emit(o, b)
            i += 1
        if o.stop and o.nerr:
            return


cdef void run(int encoding, Out* o, const unsigned char* p, Py_ssize_t n,
              const Tables* t) noexcept nogil:
    if encoding == GB18030:
        gb18030(o, p, n, t)
    elif encoding == BIG5:
        big5(o, p, n, t)
    elif encoding == EUC_JP:
        euc_jp(o, p, n, t)
    elif encoding == ISO_2022_JP:
        iso_2022_jp(o, p, n, t)
    elif encoding == SHIFT_JIS:
        shift_jis(o, p, n, t)
    else:
        euc_kr(o, p, n, t)


#: inputs from this size on are decoded without the GIL (other threads run meanwhile)
cdef Py_ssize_t _NOGIL_FROM = 1 << 16
#: inputs below this size are decoded in one pass into 4 bytes a byte, then narrowed (a page's
#: worth of memory for a while, against a second pass over it); larger ones count, then fill
cdef Py_ssize_t _ONE_PASS_BELOW = 1 << 16


cdef void _run(int encoding, Out* o, bytes data, const Tables* t):
    """One pass over ``data`` (immutable: safe to read without the GIL)."""
    cdef const unsigned char* p = <const unsigned char*> PyBytes_AS_STRING(data)
    cdef Py_ssize_t n = PyBytes_GET_SIZE(data)
    if n < _NOGIL_FROM:
        run(encoding, o, p, n, t)
    else:
        with nogil:
            run(encoding, o, p, n, t)


cdef const uint32_t* _table(array table, Py_ssize_t least) except NULL:
    if table.ob_descr.itemsize != 4 or table.ob_descr.typecode not in (c"I", c"L"):
        raise TypeError("an index table is an array of 4-byte unsigned ints")
    if len(table) < least:
        raise ValueError(f"an index table needs {least} pointers, not {len(table)}")
    return <const uint32_t*> table.data.as_voidptr


cdef class Decoder:
    """One WHATWG multi-byte decoder over its index tables (arrays of uint32 code points, one per
    pointer, 0xFFFE for none): ``index`` (gb18030, big5, jis0208, euc-kr, or jis0208 for
    ISO-2022-JP and Shift_JIS), ``index2`` (jis0212, EUC-JP only), ``ranges`` (the index
    gb18030 ranges as pointers and code points, gb18030 only)."""

    cdef int encoding
    cdef Tables tables
    cdef object keep   # the arrays the tables point into

    def __cinit__(self):
        # an instance made by __new__ alone has no tables: its decode methods refuse it
        self.tables.index = NULL
        self.tables.index2 = NULL
        self.tables.range_pointers = self.tables.range_code_points = NULL
        self.tables.ranges = 0

    def __init__(self, str encoding, array index, array index2=None,
                 array range_pointers=None, array range_code_points=None):
        cdef int kind = ENCODINGS[encoding]
        cdef Tables tables
        # the largest pointer each decoder computes, plus one
        least = {GB18030: 23940, BIG5: 19782, EUC_JP: 8836, ISO_2022_JP: 8836,
                 SHIFT_JIS: 11280, EUC_KR: 23940}[kind]
        # every table checked before any is kept: a failed second __init__ leaves the
        # decoder as it was (its tables still point into the arrays it keeps)
        tables.index = _table(index, least)
        tables.index2 = NULL
        tables.range_pointers = tables.range_code_points = NULL
        tables.ranges = 0
        if kind == EUC_JP:
            tables.index2 = _table(index2, 8836)
        elif kind == GB18030:
            tables.range_pointers = _table(range_pointers, 1)
            tables.range_code_points = _table(range_code_points, len(range_pointers))
            tables.ranges = len(range_pointers)
            if range_pointers[0] != 0:
                raise ValueError("the index gb18030 ranges start at pointer 0")
        self.encoding = kind
        self.keep = (index, index2, range_pointers, range_code_points)
        self.tables = tables

    cdef int _ready(self) except -1:
        if self.tables.index == NULL:
            raise ValueError("this Decoder was not initialised (call it with its tables)")
        return 0

    cdef Out _count(self, bytes data, bint stop):
        cdef Out o
        o.count = 0
        o.maxchar = 0
        o.nerr = 0
        o.first_error = -1
        o.stop = stop
        o.kind = 0
        o.text = NULL
        o.err32 = NULL
        o.err64 = NULL
        _run(self.encoding, &o, data, &self.tables)
        return o

    cdef object _one_pass(self, bytes data, bint stop, Out* o):
        """A small input's decode in one pass, into 4-byte code points that CPython narrows
        to the str's kind; None (``o.nerr`` set) when there was an error: strict mode has its
        answer, replacement mode takes the two passes (to size the offsets)."""
        cdef const unsigned char* p = <const unsigned char*> PyBytes_AS_STRING(data)
        cdef Py_ssize_t n = PyBytes_GET_SIZE(data)
        if self.encoding != ISO_2022_JP and skip_ascii(p, 0, n) == n:
            o.nerr = 0
            return PyUnicode_DecodeASCII(PyBytes_AS_STRING(data), n, NULL)
        cdef uint32_t* buffer = <uint32_t*> PyMem_Malloc(<size_t> n * 4 + 4)
        if buffer == NULL:
            raise MemoryError
        o.count = 0
        o.maxchar = 0
        o.nerr = 0
        o.first_error = -1
        o.stop = True
        o.kind = 4
        o.text = buffer
        o.err32 = NULL
        o.err64 = NULL
        try:
            run(self.encoding, o, p, n, &self.tables)
            if o.nerr:
                return None
            return PyUnicode_FromKindAndData(4, buffer, o.count)
        finally:
            PyMem_Free(buffer)

    cdef str _write(self, bytes data, Out* o):
        """The writing pass, into a str of the counted size and kind."""
        cdef Py_ssize_t n = PyBytes_GET_SIZE(data)
        if o.count == n and o.maxchar < 0x80:   # every byte read as itself: ASCII
            return PyUnicode_DecodeASCII(PyBytes_AS_STRING(data), n, NULL)
        text = PyUnicode_New(o.count, o.maxchar)
        o.kind = 1 if o.maxchar < 0x100 else 2 if o.maxchar < 0x10000 else 4
        o.text = PyUnicode_DATA(text)
        o.count = 0
        o.nerr = 0
        _run(self.encoding, o, data, &self.tables)
        return text

    def decode(self, bytes data not None, array offsets not None):
        """Encoding "decode" in "replacement" mode, without BOM handling: the text; the
        offset where each malformed sequence starts is appended to ``offsets`` (an array of
        4- or 8-byte unsigned ints, ``decoders.offsets_array``)."""
        cdef Out o
        self._ready()
        if PyBytes_GET_SIZE(data) < _ONE_PASS_BELOW:
            text = self._one_pass(data, False, &o)
            if text is not None:
                return text
        o = self._count(data, False)
        if not o.nerr:
            return self._write(data, &o)
        if offsets.ob_descr.typecode not in (c"I", c"L", c"Q"):
            raise TypeError("offsets: an array of unsigned ints")
        cdef Py_ssize_t width = offsets.ob_descr.itemsize
        if not (width == 8 or (width == 4 and PyBytes_GET_SIZE(data) < (1 << 32))):
            raise TypeError("offsets: an array of unsigned ints wide enough for len(data)")
        cdef Py_ssize_t had = len(offsets)
        resize(offsets, had + o.nerr)
        # the writing pass may run without the GIL: a buffer held on ``offsets`` for its
        # whole length keeps another thread from resizing (moving) the array meanwhile
        cdef Py_buffer held
        PyObject_GetBuffer(offsets, &held, PyBUF_WRITABLE)
        try:
            if width == 4:
                o.err32 = (<uint32_t*> held.buf) + had
            else:
                o.err64 = (<uint64_t*> held.buf) + had
            return self._write(data, &o)
        finally:
            PyBuffer_Release(&held)

    def decode_strict(self, bytes data not None):
        """Encoding "decode" in "fatal" mode, without BOM handling: the text, or the offset
        (an int) of the first malformed sequence."""
        cdef Out o
        self._ready()
        if PyBytes_GET_SIZE(data) < _ONE_PASS_BELOW:
            text = self._one_pass(data, True, &o)
            return o.first_error if text is None else text
        o = self._count(data, True)
        if o.nerr:
            return o.first_error
        return self._write(data, &o)
