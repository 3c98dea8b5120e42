# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The compiled form of ``utf8scan``'s pure-Python references: passes over a body's bytes.

Built by ``setup.py`` (``pip install .``, ``make``) when a C compiler is there; without it,
``utf8scan`` answers with the pure-Python reference. ``tests/decision/test_utf8scan.py``
checks the two give the same answer on any bytes (Hypothesis).

One loop (``utf8_count`` in ``encoding_core/_bytes_c.pxd``, shared with ``_bytetest_c``), ASCII
runs sixteen bytes at a time with SSE2 (else eight), and the Encoding Standard's UTF-8 decoder
(https://encoding.spec.whatwg.org/#utf-8-decoder) on the rest, counting instead of decoding:
each malformed sequence (a maximal subpart, as the decoder's replacement mode emits one
U+FFFD for it) is one ``invalid``, each sequence it completes one ``multibyte``.
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from libc.string cimport memchr

from encoding_core._bytes_c cimport skip_ascii
from encoding_core._bytes_c cimport utf8_count as _count


def first_non_ascii(bytes data not None):
    """The offset of the first byte of ``data`` above 0x7F, or -1."""
    cdef Py_ssize_t n = PyBytes_GET_SIZE(data)
    cdef Py_ssize_t i = skip_ascii(<const unsigned char*> PyBytes_AS_STRING(data), 0, n)
    return -1 if i >= n else i


def valid_multibyte(bytes body not None):
    """The multi-byte sequences of ``body`` when it is valid UTF-8; -1 at its first error."""
    cdef Py_ssize_t first, invalid, first_error
    return _count(<const unsigned char*> PyBytes_AS_STRING(body), PyBytes_GET_SIZE(body), 1,
                  &first, &invalid, &first_error)


def scan(bytes body not None, Py_ssize_t nul_window):
    """(first non-ASCII offset or -1, valid multi-byte sequences, malformed sequences,
    offset of the first malformed one or -1, a NUL in the first ``nul_window`` bytes)."""
    cdef const unsigned char* p = <const unsigned char*> PyBytes_AS_STRING(body)
    cdef Py_ssize_t n = PyBytes_GET_SIZE(body)
    cdef Py_ssize_t first, invalid, first_error
    cdef Py_ssize_t multibyte = _count(p, n, 0, &first, &invalid, &first_error)
    cdef bint nul = memchr(p, 0, <size_t> (n if n < nul_window else nul_window)) != NULL
    return first, multibyte, invalid, first_error, nul
