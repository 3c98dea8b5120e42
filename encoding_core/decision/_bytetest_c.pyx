# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The compiled form of ``_bytetest.classes_may_be_implausible_reference``: one pass.

The reference reads a part's class bytes through five ``bytes.translate`` reductions and a
regular expression (``_bytetest``); this reads them once, keeping for each rule the little
it needs of the bytes before (the previous class, the previous letter in the word, the
letter-mark-letter runs of the word). ``tests/decision/test_bytetest_c.py`` holds the two equal
on random bytes in every single-byte encoding (Hypothesis). Built by ``setup.py`` where a C
compiler is found (``utf8scan.SPEEDUPS``).
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE


cdef inline unsigned char _context(unsigned char c) noexcept:
    """The class in ``_MARK_CONTEXT``: L Latin or no-script letter, N the table's script's
    letter, m and g marks, space, "." anything else."""
    if c == 32:
        return 32
    if c in b"aAluoyYz":
        return 76    # L
    if c in b"ckC":
        return 78    # N
    if c == 109 or c == 103:   # m g
        return c
    return 46


def classes_may_be_implausible(bytes part, bytes table):
    """Whether a word of ``part`` read through the class ``table`` may score (see
    ``_bytetest.may_be_implausible``)."""
    cdef const unsigned char* p = <const unsigned char*> PyBytes_AS_STRING(part)
    cdef const unsigned char* t = <const unsigned char*> PyBytes_AS_STRING(table)
    cdef Py_ssize_t n = PyBytes_GET_SIZE(part)
    cdef Py_ssize_t i
    cdef unsigned char c, ctx, letters
    cdef unsigned char prev = 0            # the previous class (0: none yet)
    cdef unsigned char prev_ctx = 0        # the previous context class, marks of no script too
    cdef unsigned char prev_ctx_nog = 0    # the same, marks of no script passed over
    cdef unsigned char word_alphabet = 0   # the last L or N of the word (_ALPHABETS)
    cdef unsigned char lm1 = 0, lm2 = 0    # the two previous _LETTERS_MARKS classes
    cdef int between = 0                   # letter-mark-letter runs in the word
    for i in range(n):
        c = t[p[i]]
        if c == 88 or c == 77 or c == 83:   # X M S: anywhere
            return True
        # a mark not after a letter or a mark; one of the script not after its letter
        ctx = _context(c)
        if c == 103:   # g
            if prev_ctx == 0 or prev_ctx == 46 or prev_ctx == 32:
                return True
        elif c == 109:   # m
            if prev_ctx_nog == 0 or prev_ctx_nog == 76 or prev_ctx_nog == 46 \
                    or prev_ctx_nog == 32:
                return True
        prev_ctx = ctx
        if c != 103:
            prev_ctx_nog = ctx
        # a case turn: a lower-case letter, then a non-ASCII capital
        if (c == 117 or c == 67 or c == 89) and prev != 0 and prev in b"alcy":
            return True
        prev = c
        # two usual marks in one word, each between two letters
        letters = 32 if c == 32 else 80 if c == 80 else 76 if c in b"aAluockCyYz" else 46
        if letters == 32:
            between = 0
        elif letters == 76 and lm1 == 80 and lm2 == 76:
            between += 1
            if between >= 2:
                return True
        lm2 = lm1
        lm1 = letters
        # two alphabets in one word
        if c == 32:
            word_alphabet = 0
        elif c in b"aAluo":
            if word_alphabet == 78:
                return True
            word_alphabet = 76
        elif c in b"ckC":
            if word_alphabet == 76:
                return True
            word_alphabet = 78
    return False
