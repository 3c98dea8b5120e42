# cython: language_level=3
# Byte loops shared by the compiled parts (``decision/_utf8scan.pyx``, ``decision/_bytetest_c.pyx``,
# ``decision/_front_c.pyx``, ``whatwg/_cjk_c.pyx``, ``whatwg/_prescan_c.pyx``,
# ``whatwg/_single_byte_c.pyx``):
# inline C, no module of its own (a .pxd is read by the .pyx files that cimport it).

from libc.stdint cimport uint64_t
from libc.string cimport memcpy


cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    #if defined(__SSE2__) && defined(__GNUC__)
    #include <emmintrin.h>
    #endif
    /* The first offset from i whose byte is not ASCII (n when none is): sixteen bytes at a
       time with SSE2 where the compiler has it, then eight (a word with no high bit set),
       then byte by byte. */
    static inline Py_ssize_t et_skip_ascii(const unsigned char* p, Py_ssize_t i,
                                           Py_ssize_t n) {
        uint64_t word;
    #if defined(__SSE2__) && defined(__GNUC__)
        while (i + 16 <= n) {
            int m = _mm_movemask_epi8(_mm_loadu_si128((const __m128i*)(p + i)));
            if (m) return i + __builtin_ctz((unsigned int)m);
            i += 16;
        }
    #endif
        while (i + 8 <= n) {
            memcpy(&word, p + i, 8);
            if (word & 0x8080808080808080ULL) break;
            i += 8;
        }
        while (i < n && p[i] < 0x80) i++;
        return i;
    }
    /* Bit k set where p[k] (k < 16) is a, b or c: a 16-byte block's matches, SSE2 where the
       compiler has it, else byte by byte. */
    static inline unsigned int et_mask3(const unsigned char* p, unsigned char a,
                                        unsigned char b, unsigned char c) {
    #if defined(__SSE2__) && defined(__GNUC__)
        __m128i v = _mm_loadu_si128((const __m128i*)p);
        return (unsigned int)_mm_movemask_epi8(_mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8((char)a)),
                         _mm_cmpeq_epi8(v, _mm_set1_epi8((char)b))),
            _mm_cmpeq_epi8(v, _mm_set1_epi8((char)c))));
    #else
        unsigned int m = 0;
        for (int k = 0; k < 16; k++) {
            if (p[k] == a || p[k] == b || p[k] == c) m |= 1u << k;
        }
        return m;
    #endif
    }
    /* Bit k set where p[k] (k < 16) is below limit (1 to 255), SSE2 where the compiler has
       it, else byte by byte. */
    static inline unsigned int et_below16(const unsigned char* p, unsigned char limit) {
    #if defined(__SSE2__) && defined(__GNUC__)
        __m128i v = _mm_loadu_si128((const __m128i*)p);
        return (unsigned int)_mm_movemask_epi8(
            _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8((char)(limit - 1))), v));
    #else
        unsigned int m = 0;
        for (int k = 0; k < 16; k++) {
            if (p[k] < limit) m |= 1u << k;
        }
        return m;
    #endif
    }
    /* Bit k set where p[k] (k < 16) is not ASCII (0x80 or above): SSE2 where the compiler
       has it, else byte by byte. */
    static inline unsigned int et_high16(const unsigned char* p) {
    #if defined(__SSE2__) && defined(__GNUC__)
        return (unsigned int)_mm_movemask_epi8(_mm_loadu_si128((const __m128i*)p));
    #else
        unsigned int m = 0;
        for (int k = 0; k < 16; k++) {
            if (p[k] >= 0x80) m |= 1u << k;
        }
        return m;
    #endif
    }
    /* The lowest set bit's index of m, m not 0. */
    static inline int et_lowest_bit(unsigned int m) {
    #if defined(__GNUC__)
        return __builtin_ctz(m);
    #else
        int k = 0;
        while (!(m & 1u)) { m >>= 1; k++; }
        return k;
    #endif
    }
    /* The first offset j from i with p[j] == first and p[j + 1] equal to a, b or c, both
       in p[:n] (n when none): sixteen pairs at a time with SSE2 where the compiler has it. */
    static inline Py_ssize_t et_find_pair(const unsigned char* p, Py_ssize_t i, Py_ssize_t n,
                                          unsigned char first, unsigned char a,
                                          unsigned char b, unsigned char c) {
    #if defined(__SSE2__) && defined(__GNUC__)
        const __m128i vf = _mm_set1_epi8((char)first);
        const __m128i va = _mm_set1_epi8((char)a);
        const __m128i vb = _mm_set1_epi8((char)b);
        const __m128i vc = _mm_set1_epi8((char)c);
        while (i + 17 <= n) {
            __m128i v = _mm_loadu_si128((const __m128i*)(p + i));
            __m128i w = _mm_loadu_si128((const __m128i*)(p + i + 1));
            int m = _mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(v, vf), _mm_or_si128(
                _mm_or_si128(_mm_cmpeq_epi8(w, va), _mm_cmpeq_epi8(w, vb)),
                _mm_cmpeq_epi8(w, vc))));
            if (m) return i + __builtin_ctz((unsigned int)m);
            i += 16;
        }
    #endif
        for (; i + 1 < n; i++) {
            if (p[i] == first && (p[i + 1] == a || p[i + 1] == b || p[i + 1] == c)) return i;
        }
        return n;
    }
    """
    # The first offset ``j`` from ``i`` where ``p[j]`` is ``first`` and ``p[j + 1]`` is ``a``,
    # ``b`` or ``c``, both before ``n`` (``n`` when none): sixteen pairs at a time (SSE2) where
    # the compiler has it, else byte by byte.
    Py_ssize_t find_pair "et_find_pair"(const unsigned char* p, Py_ssize_t i, Py_ssize_t n,
                                        unsigned char first, unsigned char a, unsigned char b,
                                        unsigned char c) noexcept nogil
    # Bit ``k`` set where ``p[k]`` (``k`` < 16; sixteen bytes must be there) is ``a``, ``b`` or
    # ``c``; and the index of the lowest set bit of a mask that is not 0.
    unsigned int mask3 "et_mask3"(const unsigned char* p, unsigned char a, unsigned char b,
                                  unsigned char c) noexcept nogil
    int lowest_bit "et_lowest_bit"(unsigned int m) noexcept nogil
    # Bit ``k`` set where ``p[k]`` (``k`` < 16; sixteen bytes must be there) is not ASCII.
    unsigned int high16 "et_high16"(const unsigned char* p) noexcept nogil
    # Bit ``k`` set where ``p[k]`` (``k`` < 16; sixteen bytes must be there) is below ``limit``
    # (1 to 255).
    unsigned int below16 "et_below16"(const unsigned char* p, unsigned char limit) noexcept nogil
    # The first offset from ``i`` whose byte is not ASCII (``n`` when none is): sixteen bytes
    # at a time (SSE2) where the compiler has it, then eight, then byte by byte.
    Py_ssize_t skip_ascii "et_skip_ascii"(const unsigned char* p, Py_ssize_t i,
                                          Py_ssize_t n) noexcept nogil


cdef inline Py_ssize_t utf8_count(const unsigned char* p, Py_ssize_t n, bint stop,
                                  Py_ssize_t* first, Py_ssize_t* invalid,
                                  Py_ssize_t* first_error) noexcept:
    # The Encoding Standard's UTF-8 decoder (https://encoding.spec.whatwg.org/#utf-8-decoder),
    # counting instead of decoding: the valid multi-byte sequences; ``first`` (the first
    # non-ASCII offset, -1), ``invalid`` (malformed sequences, each a maximal subpart) and
    # ``first_error`` (-1) filled in; with ``stop``, -1 at the first malformed sequence.
    cdef Py_ssize_t i = 0, start = 0, multibyte = 0
    cdef int needed = 0, seen = 0
    cdef unsigned char b, lower = 0x80, upper = 0xBF
    first[0] = -1
    invalid[0] = 0
    first_error[0] = -1
    while i < n:
        if needed == 0:
            i = skip_ascii(p, i, n)
            if i >= n:
                break
            b = p[i]
            if first[0] < 0:
                first[0] = i
            if 0xC2 <= b <= 0xDF:
                needed = 1
            elif 0xE0 <= b <= 0xEF:
                if b == 0xE0:
                    lower = 0xA0
                elif b == 0xED:
                    upper = 0x9F
                needed = 2
            elif 0xF0 <= b <= 0xF4:
                if b == 0xF0:
                    lower = 0x90
                elif b == 0xF4:
                    upper = 0x8F
                needed = 3
            else:   # 80-C1, F5-FF: no sequence starts so
                invalid[0] += 1
                if first_error[0] < 0:
                    first_error[0] = i
                if stop:
                    return -1
                i += 1
                continue
            start = i
            seen = 0
            i += 1
            continue
        b = p[i]
        if b < lower or b > upper:
            # the sequence so far is one malformed sequence; this byte is read again
            invalid[0] += 1
            if first_error[0] < 0:
                first_error[0] = start
            if stop:
                return -1
            needed = 0
            lower = 0x80
            upper = 0xBF
            continue
        lower = 0x80
        upper = 0xBF
        seen += 1
        i += 1
        if seen == needed:
            multibyte += 1
            needed = 0
    if needed:   # cut short by the end
        invalid[0] += 1
        if first_error[0] < 0:
            first_error[0] = start
        if stop:
            return -1
    return multibyte


cdef inline Py_ssize_t count_flagged_in(const unsigned char* b, Py_ssize_t n,
                                        const unsigned char* f) noexcept:
    # How many of the ``n`` bytes at ``b`` (``n`` <= 0: none) are flagged in the 256-byte
    # table ``f``, which flags only bytes below 0x20 (the control bytes a binary body is told
    # by): sixteen bytes at a time, only those below 0x20 looked up (``below16``), then eight:
    # a word with no byte below 0x20 is passed over whole (the test is "hasless" of Bit
    # Twiddling Hacks, exact for whether one is there).
    cdef Py_ssize_t i = 0, j, count = 0
    cdef uint64_t word
    cdef unsigned int mask
    while i + 16 <= n:
        mask = below16(b + i, 0x20)
        while mask:
            count += f[b[i + lowest_bit(mask)]] != 0
            mask &= mask - 1
        i += 16
    while i + 8 <= n:
        memcpy(&word, b + i, 8)
        if (word - 0x2020202020202020ULL) & ~word & 0x8080808080808080ULL:
            for j in range(i, i + 8):
                count += f[b[j]] != 0
        i += 8
    for j in range(i, n):
        count += f[b[j]] != 0
    return count
