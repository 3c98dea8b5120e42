# cython: language_level=3
# Byte loops shared by the compiled parts (``decision/_utf8scan.pyx``, ``whatwg/_cjk_c.pyx``):
# inline C, no module of its own (a .pxd is read by the .pyx files that cimport it).

from libc.stdint cimport uint64_t
from libc.string cimport memcpy


cdef inline Py_ssize_t skip_ascii(const unsigned char* p, Py_ssize_t i,
                                  Py_ssize_t n) noexcept nogil:
    # The first offset from ``i`` whose byte is not ASCII (``n`` when none is): eight bytes
    # at a time while none has its high bit set, then byte by byte.
    cdef uint64_t word
    while i + 8 <= n:
        memcpy(&word, p + i, 8)
        if word & 0x8080808080808080ULL:
            break
        i += 8
    while i < n and p[i] < 0x80:
        i += 1
    return i


cdef extern from *:
    """
    #if defined(__SSE2__) && defined(__GNUC__)
    #include <emmintrin.h>
    #endif
    /* The first offset from i of a byte equal to a, b or c in p[:n] (n when none): sixteen
       bytes at a time with SSE2 where the compiler has it (every x86-64), then byte by byte. */
    static inline Py_ssize_t et_find_any3(const unsigned char* p, Py_ssize_t i, Py_ssize_t n,
                                          unsigned char a, unsigned char b, unsigned char c) {
    #if defined(__SSE2__) && defined(__GNUC__)
        const __m128i va = _mm_set1_epi8((char)a);
        const __m128i vb = _mm_set1_epi8((char)b);
        const __m128i vc = _mm_set1_epi8((char)c);
        while (i + 16 <= n) {
            __m128i v = _mm_loadu_si128((const __m128i*)(p + i));
            int m = _mm_movemask_epi8(_mm_or_si128(
                _mm_or_si128(_mm_cmpeq_epi8(v, va), _mm_cmpeq_epi8(v, vb)),
                _mm_cmpeq_epi8(v, vc)));
            if (m) return i + __builtin_ctz((unsigned int)m);
            i += 16;
        }
    #endif
        while (i < n && p[i] != a && p[i] != b && p[i] != c) i++;
        return i;
    }
    """
    # The first offset from ``i`` of a byte equal to ``a``, ``b`` or ``c`` in ``p[:n]`` (``n``
    # when none): sixteen bytes at a time (SSE2) where the compiler has it, else byte by byte.
    Py_ssize_t find_any3 "et_find_any3"(const unsigned char* p, Py_ssize_t i, Py_ssize_t n,
                                        unsigned char a, unsigned char b,
                                        unsigned char c) noexcept nogil
