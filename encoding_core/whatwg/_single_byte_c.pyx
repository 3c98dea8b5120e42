# cython: language_level=3, boundscheck=False, wraparound=False
"""The compiled single-byte decoder in fatal mode: https://encoding.spec.whatwg.org/#single-byte-decoder

``SingleByteDecoder(table)`` over a 256-character decoding table (``decoders.SINGLE_BYTE_TABLES``:
the byte's code point, U+FFFE where the index has none, ASCII as itself), whose reference is
Python's ``codecs.charmap_decode(data, "strict", table)`` (``decoders.decode_strict``'s):
``decode_strict(data)`` (``data`` exactly ``bytes``) is that text, or the offset of the first
byte the table does not map (the reference's ``UnicodeDecodeError.start``).
``tests/whatwg/test_single_byte_c.py`` holds the two equal on every table, the string's
layout included (a string is canonical: ASCII, one byte a character below U+0100, else two).

One pass, usually. The string is laid out as its first high byte says: one byte a character
when that byte's character is below U+0100 (é), else two (Ж, €); each byte is then looked up
as it is stored, sixteen ASCII bytes at a time stored (or widened) at once, and one flag table
says whether some byte was unmapped or, in the one-byte layout, needs two: then the offset of
the first unmapped byte is the answer, or the string is laid out again two bytes a character.
Python's charmap decoder looks every byte up and widens as it goes: this is about a third of
its time on the real-world single-byte pages (mostly ASCII markup) and faster on every shape
measured but one, text whose high bytes are nearly all characters below U+0100 with one above
late in the page (a second pass; ``bench/README.md``).

Tables are refused (``ValueError``) unless ASCII maps to itself, every other byte to U+0080 or
above, and nothing past U+FFFF: every WHATWG single-byte encoding's does, and the layouts
above rest on it.
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.unicode cimport PyUnicode_DecodeASCII
from libc.stdint cimport uint8_t, uint16_t

from encoding_core._bytes_c cimport skip_ascii


cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    #if defined(__SSE2__) && defined(__GNUC__)
    #include <emmintrin.h>
    #endif
    /* Whether the sixteen bytes at p are ASCII; then stored at d as they are (one byte a
       character) or widened (two): ASCII maps to itself. */
    static inline int et_ascii16_1(uint8_t* d, const unsigned char* p) {
    #if defined(__SSE2__) && defined(__GNUC__)
        __m128i v = _mm_loadu_si128((const __m128i*)p);
        if (_mm_movemask_epi8(v)) return 0;
        _mm_storeu_si128((__m128i*)d, v);
    #else
        uint64_t a, b;
        memcpy(&a, p, 8);
        memcpy(&b, p + 8, 8);
        if ((a | b) & 0x8080808080808080ULL) return 0;
        memcpy(d, p, 16);
    #endif
        return 1;
    }
    static inline int et_ascii16_2(uint16_t* d, const unsigned char* p) {
    #if defined(__SSE2__) && defined(__GNUC__)
        const __m128i zero = _mm_setzero_si128();
        __m128i v = _mm_loadu_si128((const __m128i*)p);
        if (_mm_movemask_epi8(v)) return 0;
        _mm_storeu_si128((__m128i*)d, _mm_unpacklo_epi8(v, zero));
        _mm_storeu_si128((__m128i*)(d + 8), _mm_unpackhi_epi8(v, zero));
    #else
        for (int k = 0; k < 16; k++) if (p[k] >= 0x80) return 0;
        for (int k = 0; k < 16; k++) d[k] = p[k];
    #endif
        return 1;
    }
    /* NAME(d, p, n, t, flags): d[i] = t[p[i]] for i < n, a block of sixteen ASCII bytes at a
       time at once (ASCII16), any other byte looked up; the OR of flags[p[i]] over the bytes
       looked up. One function a layout, UNIT bytes a character. */
    #define ET_DEFINE_FILL(NAME, UNIT, ASCII16)                                        \
        static inline uint8_t NAME(UNIT* d, const unsigned char* p, Py_ssize_t n,      \
                                   const UNIT* t, const uint8_t* flags) {             \
            Py_ssize_t i = 0;                                                           \
            uint8_t found = 0;                                                          \
            for (; i + 16 <= n; i += 16) {                                              \
                if (ASCII16(d + i, p + i)) continue;                                    \
                for (int k = 0; k < 16; k++) {                                          \
                    d[i + k] = t[p[i + k]];                                             \
                    found |= flags[p[i + k]];                                           \
                }                                                                       \
            }                                                                           \
            for (; i < n; i++) {                                                        \
                d[i] = t[p[i]];                                                         \
                found |= flags[p[i]];                                                   \
            }                                                                           \
            return found;                                                               \
        }
    ET_DEFINE_FILL(et_fill1, uint8_t, et_ascii16_1)
    ET_DEFINE_FILL(et_fill2, uint16_t, et_ascii16_2)
    """
    uint8_t fill1 "et_fill1"(uint8_t* d, const unsigned char* p, Py_ssize_t n,
                             const uint8_t* t, const uint8_t* flags) noexcept nogil
    uint8_t fill2 "et_fill2"(uint16_t* d, const unsigned char* p, Py_ssize_t n,
                             const uint16_t* t, const uint8_t* flags) noexcept nogil


cdef extern from "Python.h":
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    void* PyUnicode_DATA(object text)


cdef enum:
    UNMAPPED = 1    # the table has U+FFFE for the byte
    WIDE = 2        # the byte's character is U+0100 or above


cdef class SingleByteDecoder:
    """``SingleByteDecoder(table).decode_strict(data)``: ``charmap_decode(data, "strict",
    table)[0]``, or the offset of its first unmapped byte (see the module)."""

    cdef uint16_t two[256]      # each byte's character (U+FFFE where unmapped)
    cdef uint8_t one[256]       # the same cut to one byte: right wherever ``flags`` is 0
    cdef uint8_t flags[256]     # UNMAPPED, WIDE or 0, a byte

    def __cinit__(self, str table not None):
        if len(table) != 256 or any(ord(table[b]) != b for b in range(128)) or any(
                ord(c) < 0x80 or ord(c) > 0xFFFF for c in table[128:]):
            raise ValueError("not a single-byte decoding table (256 characters, ASCII as "
                             "itself, every other byte U+0080 to U+FFFF)")
        for b in range(256):
            self.two[b] = ord(table[b])
            self.one[b] = <uint8_t> self.two[b]
            self.flags[b] = (UNMAPPED if self.two[b] == 0xFFFE else
                             WIDE if self.two[b] >= 0x100 else 0)

    def decode_strict(self, bytes data not None):
        """The text of ``data`` (exactly ``bytes``), or the offset of the first byte the
        table does not map."""
        cdef const unsigned char* p = <const unsigned char*> PyBytes_AS_STRING(data)
        cdef Py_ssize_t n = PyBytes_GET_SIZE(data)
        cdef Py_ssize_t first = skip_ascii(p, 0, n)
        cdef uint8_t found
        if first >= n:
            return PyUnicode_DecodeASCII(<const char*> p, n, NULL)
        if self.flags[p[first]] & UNMAPPED:
            return first
        if not self.flags[p[first]] & WIDE:   # (one byte a character, unless a later one)
            text = PyUnicode_New(n, 0xFF)
            found = fill1(<uint8_t*> PyUnicode_DATA(text), p, n, self.one, self.flags)
            if found & UNMAPPED:
                return self._first_unmapped(p, first, n)
            if not found & WIDE:
                return text
        text = PyUnicode_New(n, 0xFFFF)
        if fill2(<uint16_t*> PyUnicode_DATA(text), p, n, self.two, self.flags) & UNMAPPED:
            return self._first_unmapped(p, first, n)
        return text

    cdef Py_ssize_t _first_unmapped(self, const unsigned char* p, Py_ssize_t i,
                                    Py_ssize_t n) noexcept:
        """The offset of the first unmapped byte from ``i`` (``n`` when none is)."""
        while i < n and not self.flags[p[i]] & UNMAPPED:
            i += 1
        return i
