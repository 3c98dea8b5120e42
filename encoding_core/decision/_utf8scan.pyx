# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The compiled form of ``utf8scan``'s pure-Python references: passes over a body's bytes.

Built by ``setup.py`` (``pip install .``, ``make``) when a C compiler is there; without it,
``utf8scan`` answers with the pure-Python reference. ``tests/decision/test_utf8scan.py``
checks the two give the same answer on any bytes (Hypothesis).

One loop, eight ASCII bytes at a time, and the Encoding Standard's UTF-8 decoder
(https://encoding.spec.whatwg.org/#utf-8-decoder) on the rest, counting instead of decoding:
each malformed sequence (a maximal subpart, as the decoder's replacement mode emits one
U+FFFD for it) is one ``invalid``, each sequence it completes one ``multibyte``.
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from libc.string cimport memchr

from encoding_core._bytes_c cimport skip_ascii

cdef Py_ssize_t _count(const unsigned char* p, Py_ssize_t n, bint stop, Py_ssize_t* first,
                       Py_ssize_t* invalid, Py_ssize_t* first_error) noexcept:
    """Valid multi-byte sequences; ``invalid`` and ``first_error`` filled in; with ``stop``,
    -1 at the first malformed sequence."""
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


def first_non_ascii(bytes data):
    """The offset of the first byte of ``data`` above 0x7F, or -1."""
    cdef Py_ssize_t n = PyBytes_GET_SIZE(data)
    cdef Py_ssize_t i = skip_ascii(<const unsigned char*> PyBytes_AS_STRING(data), 0, n)
    return -1 if i >= n else i


def valid_multibyte(bytes body):
    """The multi-byte sequences of ``body`` when it is valid UTF-8; -1 at its first error."""
    cdef Py_ssize_t first, invalid, first_error
    return _count(<const unsigned char*> PyBytes_AS_STRING(body), PyBytes_GET_SIZE(body), 1,
                  &first, &invalid, &first_error)


def scan(bytes body, Py_ssize_t nul_window):
    """(first non-ASCII offset or -1, valid multi-byte sequences, malformed sequences,
    offset of the first malformed one or -1, a NUL in the first ``nul_window`` bytes)."""
    cdef const unsigned char* p = <const unsigned char*> PyBytes_AS_STRING(body)
    cdef Py_ssize_t n = PyBytes_GET_SIZE(body)
    cdef Py_ssize_t first, invalid, first_error
    cdef Py_ssize_t multibyte = _count(p, n, 0, &first, &invalid, &first_error)
    cdef bint nul = memchr(p, 0, <size_t> (n if n < nul_window else nul_window)) != NULL
    return first, multibyte, invalid, first_error, nul
