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
