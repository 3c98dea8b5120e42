# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The compiled form of ``_bytetest.classes_may_be_implausible_reference``: one pass.

The reference reads a part's class bytes through five ``bytes.translate`` reductions and a
regular expression (``_bytetest``); this reads them once, keeping for each rule the little
it needs of the bytes before (the previous class, the previous letter in the word, the
letter-mark-letter runs of the word). ``tests/decision/test_bytetest_c.py`` holds the two equal
on random bytes in every single-byte encoding (Hypothesis). Built by ``setup.py`` where a C
compiler is found (``speedups.SPEEDUPS``).

Beside it, the text checks' other byte passes, each with its reference in
``textsample``: ``sample_facts`` (the sample window's byte test and tell bytes, read once:
``text_sample_reference``), ``count_flagged`` (``control_bytes_in_head_reference``) and
``single_byte_clear`` (what ``checks.clearance`` asks of a single-byte reading: those two and
the UTF-8 validity, in one call); ``tests/decision/test_textsample.py`` holds those equal.
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from libc.string cimport memchr, memcmp, memcpy, memset

from encoding_core._bytes_c cimport (
    count_flagged_in,
    high16,
    lowest_bit,
    mask3,
    skip_ascii,
    utf8_count,
)


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


def classes_may_be_implausible(bytes part not None, bytes table not None):
    """Whether a word of ``part`` read through the class ``table`` may score (see
    ``_bytetest.may_be_implausible``)."""
    return _may_be_implausible(<const unsigned char*> PyBytes_AS_STRING(part),
                               PyBytes_GET_SIZE(part),
                               <const unsigned char*> PyBytes_AS_STRING(table))


# Per class byte, what each rule asks of it, read from tables rather than tested byte by byte
# (a branch per class in the loop cost twice as much): _FLAGS bits, _CTX the _MARK_CONTEXT
# class, _LETTERS the _LETTERS_MARKS class.
cdef enum:
    F_ANY = 1      # X M S: scores anywhere
    F_MARK = 2     # g m
    F_UPPER = 4    # u C Y: a non-ASCII capital (a case turn's second half)
    F_LOWER = 8    # a l c y: a lower-case letter (its first half)
    F_LATIN = 16   # a A l u o: _ALPHABETS' L
    F_OTHER = 32   # c k C: _ALPHABETS' N
cdef unsigned char _FLAGS[256]
cdef unsigned char _CTX[256]
cdef unsigned char _LETTERS[256]
cdef unsigned char _ALONE_SILENT[256]   # 1: a class no rule can score on without another
cdef unsigned char _RUN[256]            # 1: a Latin letter (a A l o), 2: another script's (c k)


cdef void _init_tables() noexcept:
    cdef int c
    for c in range(256):
        _FLAGS[c] = ((F_ANY if c == 88 or c == 77 or c == 83 else 0)
                     | (F_MARK if c == 103 or c == 109 else 0)
                     | (F_UPPER if c == 117 or c == 67 or c == 89 else 0)
                     | (F_LOWER if c in b"alcy" else 0)
                     | (F_LATIN if c in b"aAluo" else 0)
                     | (F_OTHER if c in b"ckC" else 0))
        _CTX[c] = _context(c)
        _LETTERS[c] = 32 if c == 32 else 80 if c == 80 else 76 if c in b"aAluockCyYz" else 46
        # every rule needs one of X M S (anywhere), a mark (g m), a non-ASCII capital (u C Y),
        # another script's letter (c k C) or a usual mark (P) in the word: a word of the
        # other classes cannot score, whatever surrounds it
        _ALONE_SILENT[c] = 0 if (c in b"XMSgmuCYckP") else 1
        # a letter after one of its own kind (both Latin: a A l o; or both of the other
        # script, lower-case or caseless: c k) moves no rule: see _may_be_implausible
        _RUN[c] = 1 if c in b"aAlo" else 2 if c in b"ck" else 0


_init_tables()


cdef struct _State:
    unsigned char prev_f         # the previous class's flags (0: none yet)
    unsigned char prev_ctx       # the previous context class, marks of no script too
    unsigned char prev_ctx_nog   # the same, marks of no script passed over
    unsigned char word_alphabet  # the last L or N of the word (_ALPHABETS)
    unsigned char lm1, lm2       # the two previous _LETTERS_MARKS classes
    int between                  # letter-mark-letter runs in the word


cdef inline bint _scores(_State* s, unsigned char c) noexcept:
    """Class ``c`` through every rule, after the classes ``s`` holds the little of: True when
    a word may score (``s`` is then left as it is)."""
    cdef unsigned char f = _FLAGS[c], ctx, letters
    if f & F_ANY:   # X M S: anywhere
        return True
    # a mark not after a letter or a mark; one of the script not after its letter
    ctx = _CTX[c]
    if f & F_MARK:
        if c == 103:   # g
            if s.prev_ctx == 0 or s.prev_ctx == 46 or s.prev_ctx == 32:
                return True
        elif s.prev_ctx_nog == 0 or s.prev_ctx_nog == 76 or s.prev_ctx_nog == 46 \
                or s.prev_ctx_nog == 32:   # m
            return True
    s.prev_ctx = ctx
    if c != 103:
        s.prev_ctx_nog = ctx
    # a case turn: a lower-case letter, then a non-ASCII capital
    if (f & F_UPPER) and (s.prev_f & F_LOWER):
        return True
    s.prev_f = f
    # two usual marks in one word, each between two letters
    letters = _LETTERS[c]
    if letters == 32:
        s.between = 0
    elif letters == 76 and s.lm1 == 80 and s.lm2 == 76:
        s.between += 1
        if s.between >= 2:
            return True
    s.lm2 = s.lm1
    s.lm1 = letters
    # two alphabets in one word
    if c == 32:
        s.word_alphabet = 0
    elif f & F_LATIN:
        if s.word_alphabet == 78:
            return True
        s.word_alphabet = 76
    elif f & F_OTHER:
        if s.word_alphabet == 76:
            return True
        s.word_alphabet = 78
    return False


# The last two tables ``_ascii_plain`` was asked about (their ASCII halves) and its answers:
# the tables' ASCII halves are few (every single-byte encoding's raw table has one, its words
# table another), so most calls compare 128 bytes instead of reading them through five tests
# each; the answer follows from those bytes alone, so it is exact. Module state, read and
# written with the GIL held (every caller holds it).
cdef unsigned char _plain_prefix[2][128]
cdef bint _plain_known[2]
cdef bint _plain_answer[2]
cdef int _plain_next = 0


cdef inline bint _ascii_plain(const unsigned char* t) noexcept:
    """Whether class table ``t`` reads every ASCII byte as one of " aA0." (see
    ``_may_be_implausible``)."""
    global _plain_next
    cdef Py_ssize_t j
    cdef int k
    cdef bint plain = True
    for k in range(2):
        if _plain_known[k] and memcmp(t, _plain_prefix[k], 128) == 0:
            return _plain_answer[k]
    for j in range(128):
        if t[j] != 32 and t[j] != 97 and t[j] != 65 and t[j] != 48 and t[j] != 46:
            plain = False
            break
    k = _plain_next
    memcpy(_plain_prefix[k], t, 128)
    _plain_known[k], _plain_answer[k] = True, plain
    _plain_next = 1 - k
    return plain


cdef inline Py_ssize_t _next_scoring(const unsigned char* p, Py_ssize_t i, Py_ssize_t n,
                                     const unsigned char* t) noexcept:
    """The first offset from ``i`` whose byte is not ASCII and of a class not in
    ``_ALONE_SILENT`` (``n`` when none is): the high bytes of sixteen at a time looked up."""
    cdef unsigned int mask
    cdef Py_ssize_t k
    while i + 16 <= n:
        mask = high16(p + i)
        while mask:
            k = i + lowest_bit(mask)
            if not _ALONE_SILENT[t[p[k]]]:
                return k
            mask &= mask - 1
        i += 16
    while i < n:
        if p[i] >= 0x80 and not _ALONE_SILENT[t[p[i]]]:
            return i
        i += 1
    return n


cdef bint _may_be_implausible(const unsigned char* p, Py_ssize_t n,
                              const unsigned char* t) noexcept:
    """``classes_may_be_implausible`` over ``n`` bytes at ``p``, classes from ``t``.

    Where the table reads ASCII bytes as " aA0." only (every single-byte table here), no
    rule can score on a word of ASCII bytes: each needs a class only a high byte has (X M S,
    a mark, a non-ASCII capital, a usual mark "P", another script's letter), and a space
    ends a word, leaving the state as it starts (the state at the start of the part gives
    every rule the same answers as after a space). The same holds for a word whose high
    bytes are all of the other classes (``_ALONE_SILENT``: é read as "l", say). So only the
    words that hold a high byte of those classes are read, each from its start (after the
    last space before that byte) through the space that ends it; the words between are
    passed over, their ASCII runs sixteen bytes at a time.
    """
    cdef _State s
    cdef Py_ssize_t i = 0, j, k, high, start
    cdef unsigned char c, run, last
    s.prev_f = s.prev_ctx = s.prev_ctx_nog = s.word_alphabet = s.lm1 = s.lm2 = 0
    s.between = 0
    if not _ascii_plain(t):
        for i in range(n):
            if _scores(&s, t[p[i]]):
                return True
        return False
    high = i
    while True:
        high = _next_scoring(p, high, n, t)
        if high >= n:
            return False
        start = high
        while start > i and t[p[start - 1]] != 32:
            start -= 1
        # (from ``i`` to ``start`` words that cannot score, ASCII or of silent classes, the
        # last ending in a space, or nothing: the state at ``start`` is the state after a
        # space either way)
        j = start
        while j < n:
            c = t[p[j]]
            if _scores(&s, c):
                return True
            j += 1
            if c == 32 and j > high:
                break
            run = _RUN[c]
            if run and j < n and _RUN[t[p[j]]] == run:
                # letters of the same kind after it (``_RUN``): none is a mark, a capital of
                # the script, a usual mark or another alphabet, so none scores; passed over,
                # the state left as the last of them leaves it (its word's alphabet is the
                # run's already, and no letter-mark-letter run grows)
                k = j + 1
                while k < n and _RUN[t[p[k]]] == run:
                    k += 1
                last = t[p[k - 1]]
                s.prev_ctx = s.prev_ctx_nog = _CTX[last]
                s.prev_f = _FLAGS[last]
                s.lm2 = s.lm1 = 76
                j = k
        i = high = j


cdef struct _Tags:
    bint paired                  # "<" and ">" alternate so far, the first a "<"
    unsigned char prev_angle     # the last of them (0: none yet)
    Py_ssize_t last_open         # where the last "<" is (-1: none)
    Py_ssize_t last_newline      # where the last newline is (-1: none)


cdef inline void _tag_byte(_Tags* tags, const unsigned char* b, Py_ssize_t start,
                           Py_ssize_t i) noexcept:
    """The byte at ``start + i`` through the tag walk: a "<" or ">" pairs or not, a newline
    is remembered; any other byte moves nothing."""
    cdef unsigned char c = b[start + i]
    if c == 60 or c == 62:
        if (tags.prev_angle == 0 and c == 62) or tags.prev_angle == c:
            tags.paired = False
        tags.prev_angle = c
        if c == 60:
            tags.last_open = i
    elif c == 10:
        tags.last_newline = i


def sample_facts(bytes body not None, Py_ssize_t head, object table, object words_table,
                 bint raw_doubt, Py_ssize_t tells_head, bytes tells not None):
    """``textsample.text_sample_reference``'s answer in one pass: (doubt, tell bytes present).

    The sample's window starts as ``detect.sample_window``'s (the line of the first non-ASCII
    byte when it is past 1024, else 0). ``doubt``: over the first ``head`` bytes of the window,
    read with ``<`` and ``>`` as spaces when its tags pair up as ``detect.sample_window_words``
    requires (cut at a last open ``<`` as it cuts), the byte test through ``words_table``, else
    over the raw window, ``raw_doubt`` or the byte test through ``table`` (None: every
    non-ASCII window may doubt); an ASCII window never does. ``tells``: a 256-byte flag table;
    the flagged bytes (high bytes only) present in the first ``tells_head`` bytes of the
    window, ascending.
    """
    cdef bint doubt = False
    present = _sample(<const unsigned char*> PyBytes_AS_STRING(body), PyBytes_GET_SIZE(body),
                      head, table, words_table, raw_doubt, tells_head,
                      <const unsigned char*> PyBytes_AS_STRING(tells), &doubt)
    return doubt, present


def single_byte_clear(bytes body not None, Py_ssize_t head, object table, object words_table,
                      bint raw_doubt, Py_ssize_t tells_head, bytes tells not None,
                      bytes controls not None, Py_ssize_t binary_head):
    """What ``checks.clearance.body_clears`` asks of a single-byte reading, in one call: None
    when the body is valid UTF-8 with a multi-byte sequence (``_utf8scan.valid_multibyte``),
    holds an ESC, has more than one byte in a hundred of its first ``binary_head`` flagged
    in ``controls`` (``count_flagged``), or a sample the byte test doubts; else the tell
    bytes present (``sample_facts``, with the same arguments)."""
    cdef const unsigned char* b = <const unsigned char*> PyBytes_AS_STRING(body)
    cdef Py_ssize_t size = PyBytes_GET_SIZE(body)
    cdef Py_ssize_t n = min(binary_head, size)
    cdef Py_ssize_t first, invalid, first_error
    cdef bint doubt = False
    if utf8_count(b, size, 1, &first, &invalid, &first_error) > 0:
        return None
    if size and memchr(b, 0x1B, <size_t> size) != NULL:
        return None
    if count_flagged_in(b, n, <const unsigned char*> PyBytes_AS_STRING(controls)) > n // 100:
        return None
    present = _sample(b, size, head, table, words_table, raw_doubt, tells_head,
                      <const unsigned char*> PyBytes_AS_STRING(tells), &doubt)
    return None if doubt else present


cdef bytes _sample(const unsigned char* b, Py_ssize_t size, Py_ssize_t head, object table,
                   object words_table, bint raw_doubt, Py_ssize_t tells_head,
                   const unsigned char* flags, bint* doubt_out):
    """``sample_facts`` over ``size`` bytes at ``b``: the tell bytes present, the doubt in
    ``doubt_out``."""
    cdef Py_ssize_t first = -1, start = 0, i, n, end, last_open = -1, last_newline = -1
    cdef Py_ssize_t cut
    cdef unsigned char c, prev_angle = 0
    cdef bint paired = True, high = False, doubt, any_seen
    cdef unsigned char seen[256]
    cdef unsigned char found[256]
    cdef _Tags tags
    cdef unsigned int mask
    i = skip_ascii(b, 0, size)
    if i < size:
        first = i
    if first >= 1024:
        start = first - 1
        while start >= 0 and b[start] != 10:   # (rfind: the line's newline, or 0)
            start -= 1
        if start < 0:
            start = 0
    n = min(head, size - start)
    # the tags: they pair up when "<" and ">" alternate and the first is "<" (only "<", ">"
    # and a newline move this state: the bytes between are passed over together)
    tags.paired = True
    tags.prev_angle = 0
    tags.last_open = tags.last_newline = -1
    i = 0
    while i + 16 <= n:   # sixteen bytes at a time, each match in turn
        mask = mask3(b + start + i, 60, 62, 10)
        while mask:
            _tag_byte(&tags, b, start, i + lowest_bit(mask))
            mask &= mask - 1
        i += 16
    while i < n:
        _tag_byte(&tags, b, start, i)
        i += 1
    paired, prev_angle = tags.paired, tags.prev_angle
    last_open, last_newline = tags.last_open, tags.last_newline
    end = n
    if paired and prev_angle == 60:   # cut at the last "<", as the sample is cut
        if last_open == 0 or size - start <= head or last_newline > last_open:
            paired = False
        else:
            end = last_open
    cut = end if paired else n
    high = skip_ascii(b + start, 0, cut) < cut
    if not high:
        doubt = False
    elif paired:
        doubt = words_table is None or _may_be_implausible(
            b + start, end, <const unsigned char*> PyBytes_AS_STRING(words_table))
    else:
        doubt = raw_doubt or table is None or _may_be_implausible(
            b + start, n, <const unsigned char*> PyBytes_AS_STRING(table))
    # the tell bytes present
    memset(seen, 0, 256)
    any_seen = False
    n = min(tells_head, size - start)
    i = 0
    while i + 16 <= n:   # the tells are high bytes: only those are looked up, sixteen at a time
        mask = high16(b + start + i)
        while mask:
            c = b[start + i + lowest_bit(mask)]
            if flags[c]:
                seen[c] = any_seen = 1
            mask &= mask - 1
        i += 16
    while i < n:
        c = b[start + i]
        if flags[c]:
            seen[c] = any_seen = 1
        i += 1
    doubt_out[0] = doubt
    if not any_seen:   # (most pages: none)
        return b""
    n = 0
    for i in range(256):
        if seen[i]:
            found[n] = <unsigned char> i
            n += 1
    return PyBytes_FromStringAndSize(<char*> found, n)


def count_flagged(bytes data not None, Py_ssize_t head, bytes flags not None):
    """How many of the first ``head`` bytes of ``data`` are flagged in the 256-byte ``flags``,
    which flags only bytes below 0x20 (``textsample.control_bytes_in_head``: a count, with no
    copy of the head; the loop is ``_bytes_c.count_flagged_in``)."""
    return count_flagged_in(<const unsigned char*> PyBytes_AS_STRING(data),
                            min(head, PyBytes_GET_SIZE(data)),
                            <const unsigned char*> PyBytes_AS_STRING(flags))


# The bytes that end a word for rule 4 (``_agreement._WORD_BOUNDS``: ``\s`` of a bytes
# pattern, ``<`` and ``>``).
cdef unsigned char _BOUND[256]
for _c in range(256):
    _BOUND[_c] = _c in b" \t\n\r\x0b\x0c<>"


def sibling_words(bytes data not None, bytes flags not None, Py_ssize_t seen, Py_ssize_t limit):
    """``_agreement._words_at(data, ..., seen)`` joined by spaces, the bytes of its pattern
    flagged in the 256-byte ``flags`` (high bytes only): the first ``limit`` words (up to 32
    bytes each side) holding a flagged byte at offset ``seen`` or later, each found from the
    end of the word before, in one pass with no Python step a word."""
    cdef const unsigned char* b = <const unsigned char*> PyBytes_AS_STRING(data)
    cdef const unsigned char* f = <const unsigned char*> PyBytes_AS_STRING(flags)
    cdef Py_ssize_t n = PyBytes_GET_SIZE(data), at, low, start, end
    cdef Py_ssize_t pos = min(max(seen, 0), n)   # (past the end: none; no offset overflows)
    cdef Py_ssize_t found = 0
    cdef list words = []
    if PyBytes_GET_SIZE(flags) != 256:
        raise ValueError("flags: 256 bytes")
    while found < limit:
        at = skip_ascii(b, pos, n)
        while at < n and not f[b[at]]:
            at = skip_ascii(b, at + 1, n)
        if at >= n:
            break
        low = at - 32 if at > 32 else 0
        start = at
        while start > low and not _BOUND[b[start - 1]]:
            start -= 1
        end = at + 1
        while end < n and end <= at + 32 and not _BOUND[b[end]]:
            end += 1
        words.append(PyBytes_FromStringAndSize(<const char*> b + start, end - start))
        found += 1
        pos = end
    return b" ".join(words)
