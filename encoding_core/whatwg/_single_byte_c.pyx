# cython: language_level=3, boundscheck=False, wraparound=False
"""The compiled single-byte decoder in fatal mode: https://encoding.spec.whatwg.org/#single-byte-decoder

``SingleByteDecoder(table)`` over a 256-character decoding table (``decoders.SINGLE_BYTE_TABLES``:
the byte's code point, U+FFFE where the index has none, ASCII as itself), whose reference is
Python's ``codecs.charmap_decode(data, "strict", table)`` (``decoders.decode_strict``'s):
``decode_strict(data)`` is that text, or the offset of the first byte the index does not map
(the reference's ``UnicodeDecodeError.start``). ``tests/whatwg/test_single_byte_c.py`` holds
the two equal, the string's kind included (a string is canonical: the narrowest kind that
holds its largest character), on every table.

When the first high byte already gives the string its widest layout (two bytes a character
for every table here: a Cyrillic or Greek letter, say), one pass fills it and looks for an
unmapped byte. Otherwise two: the first finds the first unmapped byte and the largest
character, looking only at the high bytes, sixteen bytes at a time (SSE2 where the compiler
has it), and stops, for a table that maps every byte, as soon as no later byte can widen the
string; the second fills it. Either fill stores a block of sixteen ASCII bytes (or widens it
to two bytes a character) at once and looks any other byte up, where Python's charmap decoder
looks up every byte: on the real-world single-byte pages, mostly ASCII markup, about a third
of its time (``bench/README.md``).
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.unicode cimport PyUnicode_DecodeASCII
from libc.stdint cimport uint8_t, uint16_t, uint32_t

from encoding_core._bytes_c cimport high16, lowest_bit, skip_ascii


cdef extern from *:
    """
    #include <stdint.h>
    #if defined(__SSE2__) && defined(__GNUC__)
    #include <emmintrin.h>
    #endif
    /* d[i] = t[p[i]] for i < n (one byte a character): sixteen ASCII bytes at a time stored as
       they are (ASCII maps to itself), any other block byte by byte. */
    static inline void et_fill1(uint8_t* d, const unsigned char* p, Py_ssize_t n,
                                const uint8_t* t) {
        Py_ssize_t i = 0;
    #if defined(__SSE2__) && defined(__GNUC__)
        while (i + 16 <= n) {
            __m128i v = _mm_loadu_si128((const __m128i*)(p + i));
            if (!_mm_movemask_epi8(v)) {
                _mm_storeu_si128((__m128i*)(d + i), v);
            } else {
                for (int k = 0; k < 16; k++) d[i + k] = t[p[i + k]];
            }
            i += 16;
        }
    #endif
        for (; i < n; i++) d[i] = t[p[i]];
    }
    /* The same, two bytes a character: sixteen ASCII bytes widened at once. */
    static inline void et_fill2(uint16_t* d, const unsigned char* p, Py_ssize_t n,
                                const uint16_t* t) {
        Py_ssize_t i = 0;
    #if defined(__SSE2__) && defined(__GNUC__)
        const __m128i zero = _mm_setzero_si128();
        while (i + 16 <= n) {
            __m128i v = _mm_loadu_si128((const __m128i*)(p + i));
            if (!_mm_movemask_epi8(v)) {
                _mm_storeu_si128((__m128i*)(d + i), _mm_unpacklo_epi8(v, zero));
                _mm_storeu_si128((__m128i*)(d + i + 8), _mm_unpackhi_epi8(v, zero));
            } else {
                for (int k = 0; k < 16; k++) d[i + k] = t[p[i + k]];
            }
            i += 16;
        }
    #endif
        for (; i < n; i++) d[i] = t[p[i]];
    }
    /* et_fill2, each byte also looked up in unmapped: whether one is (then d is garbage). */
    static inline int et_fill2_checked(uint16_t* d, const unsigned char* p, Py_ssize_t n,
                                       const uint16_t* t, const uint8_t* unmapped) {
        Py_ssize_t i = 0;
        uint8_t bad = 0;
    #if defined(__SSE2__) && defined(__GNUC__)
        const __m128i zero = _mm_setzero_si128();
        while (i + 16 <= n) {
            __m128i v = _mm_loadu_si128((const __m128i*)(p + i));
            if (!_mm_movemask_epi8(v)) {
                _mm_storeu_si128((__m128i*)(d + i), _mm_unpacklo_epi8(v, zero));
                _mm_storeu_si128((__m128i*)(d + i + 8), _mm_unpackhi_epi8(v, zero));
            } else {
                for (int k = 0; k < 16; k++) {
                    d[i + k] = t[p[i + k]];
                    bad |= unmapped[p[i + k]];
                }
            }
            i += 16;
        }
    #endif
        for (; i < n; i++) {
            d[i] = t[p[i]];
            bad |= unmapped[p[i]];
        }
        return bad != 0;
    }
    """
    bint fill2_checked "et_fill2_checked"(uint16_t* d, const unsigned char* p, Py_ssize_t n,
                                          const uint16_t* t, const uint8_t* unmapped) noexcept nogil
    void fill1 "et_fill1"(uint8_t* d, const unsigned char* p, Py_ssize_t n,
                          const uint8_t* t) noexcept nogil
    void fill2 "et_fill2"(uint16_t* d, const unsigned char* p, Py_ssize_t n,
                          const uint16_t* t) noexcept nogil


cdef extern from "Python.h":
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    void* PyUnicode_DATA(object text)


cdef inline int _kind(uint32_t maxchar) noexcept:
    """The layout of a canonical string whose largest character is ``maxchar``: 0 ASCII, else
    the bytes a character (``PyUnicode_New`` chooses it so; only the layout must be exact)."""
    return 0 if maxchar < 0x80 else 1 if maxchar < 0x100 else 2 if maxchar < 0x10000 else 4


cdef class SingleByteDecoder:
    """``SingleByteDecoder(table).decode_strict(data)``: ``charmap_decode(data, "strict",
    table)[0]``, or the offset of its first unmapped byte (see the module)."""

    cdef uint32_t wide[256]
    cdef uint16_t narrow[256]
    cdef uint8_t byte[256]
    cdef uint8_t unmapped[256]  # 1 where the table has U+FFFE
    cdef bint maps_all          # no byte is unmapped
    cdef int widest             # the layout (``_kind``) of its largest character

    def __init__(self, str table not None):
        cdef uint32_t top = 0x7F
        if len(table) != 256 or any(ord(table[b]) != b for b in range(128)):
            raise ValueError("not a single-byte decoding table (256 characters, ASCII as itself)")
        self.maps_all = True
        for b in range(256):
            self.wide[b] = ord(table[b])
            self.unmapped[b] = self.wide[b] == 0xFFFE
            if self.unmapped[b]:
                self.maps_all = False
            elif self.wide[b] > top:
                top = self.wide[b]
            self.narrow[b] = <uint16_t> self.wide[b]
            self.byte[b] = <uint8_t> self.wide[b]
        self.widest = _kind(top)

    def decode_strict(self, bytes data not None):
        """The text, or the offset of the first byte the table does not map."""
        cdef const unsigned char* p = <const unsigned char*> PyBytes_AS_STRING(data)
        cdef Py_ssize_t n = PyBytes_GET_SIZE(data), i
        cdef uint32_t maxchar = 0x7F, u
        cdef unsigned int mask
        cdef bint settled = False   # the string's layout is the widest the table can give
        i = skip_ascii(p, 0, n)
        if i >= n:
            return PyUnicode_DecodeASCII(<const char*> p, n, NULL)
        u = self.wide[p[i]]
        if u == 0xFFFE:
            return i
        if self.widest == 2 and _kind(u) == 2:
            # the first high byte settles the layout (a Cyrillic or Greek letter, say): one
            # pass, each byte also looked up for an unmapped one
            text = PyUnicode_New(n, u)
            if fill2_checked(<uint16_t*> PyUnicode_DATA(text), p, n, self.narrow,
                             self.unmapped):
                return i + _first_unmapped(p + i, self.unmapped)
            return text
        i -= i % 16   # (from the block of the first high byte)
        while i < n:
            mask = high16(p + i) if i + 16 <= n else _tail_mask(p + i, n - i)
            if settled:   # (only an unmapped byte matters now: every byte looked up at once)
                if mask and _any_unmapped(p + i, 16 if i + 16 <= n else n - i, self.unmapped):
                    return i + _first_unmapped(p + i, self.unmapped)
                i += 16
                continue
            while mask:
                u = self.wide[p[i + lowest_bit(mask)]]
                if u == 0xFFFE:
                    return i + lowest_bit(mask)
                if u > maxchar:
                    maxchar = u
                mask &= mask - 1
            if _kind(maxchar) == self.widest:   # (nothing later can widen the string)
                if self.maps_all:
                    break   # (nor fail)
                settled = True
            i += 16
        text = PyUnicode_New(n, maxchar)
        if maxchar < 0x100:
            fill1(<uint8_t*> PyUnicode_DATA(text), p, n, self.byte)
        elif maxchar < 0x10000:
            fill2(<uint16_t*> PyUnicode_DATA(text), p, n, self.narrow)
        else:
            _fill4(<uint32_t*> PyUnicode_DATA(text), p, n, self.wide)
        return text


cdef inline unsigned int _tail_mask(const unsigned char* p, Py_ssize_t n) noexcept:
    """``high16`` of the last ``n`` (< 16) bytes, read one by one (no read past the end)."""
    cdef unsigned int mask = 0
    cdef Py_ssize_t k
    for k in range(n):
        if p[k] >= 0x80:
            mask |= 1u << k
    return mask


cdef inline bint _any_unmapped(const unsigned char* p, Py_ssize_t n,
                               const uint8_t* unmapped) noexcept:
    """Whether one of the ``n`` bytes at ``p`` is unmapped (no branch a byte)."""
    cdef uint8_t found = 0
    cdef Py_ssize_t k
    for k in range(n):
        found |= unmapped[p[k]]
    return found != 0


cdef inline Py_ssize_t _first_unmapped(const unsigned char* p,
                                       const uint8_t* unmapped) noexcept:
    """The offset of the first unmapped byte at ``p`` (the caller knows there is one)."""
    cdef Py_ssize_t k = 0
    while not unmapped[p[k]]:
        k += 1
    return k


cdef void _fill4(uint32_t* d, const unsigned char* p, Py_ssize_t n,
                 const uint32_t* t) noexcept:
    cdef Py_ssize_t i
    for i in range(n):
        d[i] = t[p[i]]
