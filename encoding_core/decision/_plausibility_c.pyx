# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The compiled form of ``_plausibility.implausibility_reference``: one pass over the text.

The reference splits the text into its non-ASCII words (``_non_ascii_words``) and scores each
(``_word_score``, per character through ``char_class``). This walks the text once, splitting
where ``str.split`` does (``Py_UNICODE_ISSPACE``) and scoring each non-ASCII word as it ends,
with the same arithmetic in the same order (a word's sum, then the text's), so that the
answer is the reference's to the bit. What it does not re-implement it asks the reference:

- a character's class is ``char_class``'s answer, asked once per code point and kept in a
  table of 256-entry pages made on demand (at most 4 MiB, for a text of every code point);
- a text with a non-ASCII space (where the reference's words come from a regular
  expression, ``_NON_ASCII_WORD``) takes its words from ``_non_ascii_words`` and scores them
  here.

``tests/decision/test_plausibility_c.py`` holds the two equal (Hypothesis, and every
real-world page under every single-byte encoding). Built by ``setup.py`` where a C compiler
is found (``speedups.SPEEDUPS``).
"""

from libc.stdint cimport uint32_t
from libc.stdlib cimport calloc


cdef extern from "Python.h":
    int PyUnicode_KIND(object)
    void* PyUnicode_DATA(object)
    Py_ssize_t PyUnicode_GET_LENGTH(object)
    Py_UCS4 PyUnicode_READ(int kind, void* data, Py_ssize_t index) noexcept
    Py_UCS4 PyUnicode_MAX_CHAR_VALUE(object)
    bint Py_UNICODE_ISSPACE(Py_UCS4) noexcept
    bint Py_UNICODE_ISALPHA(Py_UCS4) noexcept


# A character's class, packed: kind in the low bits (0 = not asked yet), then the flags, then
# the script's number (``_script_ids``). ASCII ``previous`` values share the kind numbers:
# lower-case "L", upper-case "U", anything else 0 ("").
cdef enum:
    K_NONE = 0
    K_X = 1
    K_S = 2
    K_P = 3
    K_M = 4
    K_L = 5
    K_U = 6
    K_OTHER_LETTER = 7    # "l"
    KIND_MASK = 7
    F_INNER = 8           # in WORD_INNER
    F_RARE = 16           # in _RARE_LETTERS
    SCRIPT_SHIFT = 8
    S_NONE = 0            # ""
    S_LATIN = 1
    S_CJK = 2

cdef dict _KINDS = {"X": K_X, "S": K_S, "P": K_P, "M": K_M, "L": K_L, "U": K_U,
                    "l": K_OTHER_LETTER}
cdef dict _script_ids = {"": S_NONE, "LATIN": S_LATIN, "CJK": S_CJK}
cdef uint32_t* _pages[0x1100]     # one per 256 code points, made on demand

# What ``bind`` was given: the reference's classifier, sets and word splitter.
cdef object _char_class = None
cdef object _inner = None
cdef object _rare_letters = None
cdef object _words_of = None
cdef double _rare_cap = 0.0


def bind(char_class, word_inner, rare_letters, non_ascii_words, double rare_cap):
    """Take the reference's ``char_class``, ``WORD_INNER``, ``_RARE_LETTERS``,
    ``_non_ascii_words`` and ``RARE_CAP`` (``_plausibility`` calls this once, on import)."""
    global _char_class, _inner, _rare_letters, _words_of, _rare_cap
    _char_class, _inner, _rare_letters = char_class, word_inner, rare_letters
    _words_of, _rare_cap = non_ascii_words, rare_cap


cdef uint32_t _ask(uint32_t code) except 0:
    """The packed class of a non-ASCII code point, from ``char_class``."""
    char = chr(code)
    kind, script = _char_class(char)
    cdef object number = _script_ids.get(script)
    if number is None:
        number = len(_script_ids)
        _script_ids[script] = number
    cdef uint32_t packed = <uint32_t> _KINDS[kind] | (<uint32_t> number << SCRIPT_SHIFT)
    if char in _inner:
        packed |= F_INNER
    if char in _rare_letters:
        packed |= F_RARE
    return packed


cdef inline uint32_t _class_of(uint32_t code) except 0:
    cdef uint32_t* page = _pages[code >> 8]
    if page == NULL:
        page = <uint32_t*> calloc(256, sizeof(uint32_t))
        if page == NULL:
            raise MemoryError()
        _pages[code >> 8] = page
    cdef uint32_t packed = page[code & 255]
    if packed == 0:
        packed = _ask(code)
        page[code & 255] = packed
    return packed


cdef inline bint _ascii_alpha(Py_UCS4 c) noexcept:
    return 65 <= c <= 90 or 97 <= c <= 122


cdef struct Score:
    double bad
    double rare
    Py_ssize_t count


cdef int _score_word(int kind, void* data, Py_ssize_t start, Py_ssize_t end,
                     Score* score) except -1:
    """``_word_score`` of ``text[start:end]``, its three sums added to ``score``'s, in that
    order (the reference adds each word's sums to the text's)."""
    cdef double bad = 0.0, rare = 0.0
    cdef Py_ssize_t count = 0, index
    cdef Py_UCS4 char, neighbour
    cdef uint32_t packed
    cdef int char_kind, previous = K_NONE
    cdef uint32_t script, letter = S_NONE, first_script = S_NONE
    cdef bint several = False, has_ascii = False, has_cjk = False, before, after
    for index in range(start, end):
        char = PyUnicode_READ(kind, data, index)
        if char < 0x80:
            if 97 <= char <= 122:
                previous = K_L
            elif 65 <= char <= 90:
                previous = K_U
            else:
                previous = K_NONE
            letter = S_LATIN if previous != K_NONE else S_NONE
            if previous != K_NONE:    # (an ASCII letter is lower or upper case)
                has_ascii = True
            continue
        count += 1
        packed = _class_of(<uint32_t> char)
        char_kind = packed & KIND_MASK
        script = packed >> SCRIPT_SHIFT
        if char_kind == K_X:
            bad += 1.0
        elif char_kind == K_S or char_kind == K_P:
            before = index > start and Py_UNICODE_ISALPHA(PyUnicode_READ(kind, data, index - 1))
            after = index + 1 < end and Py_UNICODE_ISALPHA(PyUnicode_READ(kind, data, index + 1))
            if char_kind == K_S:
                bad += 1.0 if before and after else 0.3 if before or after else 0.1
            elif before and after and not (packed & F_INNER):
                bad += 0.5
        elif char_kind == K_M:
            if not (previous == K_L or previous == K_U or previous == K_OTHER_LETTER
                    or previous == K_M) or (script != S_NONE and script != letter):
                bad += 1.0
        else:    # L U l
            letter = script
            if script != S_NONE:
                if first_script == S_NONE:
                    first_script = script
                elif script != first_script:
                    several = True
                if script == S_CJK:
                    has_cjk = True
            if script == S_CJK and start < index < end - 1:
                neighbour = PyUnicode_READ(kind, data, index - 1)
                if _ascii_alpha(neighbour):
                    neighbour = PyUnicode_READ(kind, data, index + 1)
                    if _ascii_alpha(neighbour):
                        bad += 1.0    # caf閠e: Latin bytes read as a double-byte encoding
            if packed & F_RARE:
                rare += 0.2
            if char_kind == K_U and previous == K_L:
                bad += 1.0
        previous = char_kind
    # The reference's set of scripts: ASCII letters count as LATIN unless the word is East
    # Asian; more than one script scores 1.
    if several or (has_ascii and not has_cjk
                   and first_script != S_NONE and first_script != S_LATIN):
        bad += 1.0
    score.bad += bad
    score.rare += rare
    score.count += count
    return 0


cdef bint _has_non_ascii_space(int kind, void* data, Py_ssize_t start,
                               Py_ssize_t length) noexcept:
    cdef Py_ssize_t index
    cdef Py_UCS4 char
    for index in range(start, length):
        char = PyUnicode_READ(kind, data, index)
        if char >= 0x80 and Py_UNICODE_ISSPACE(char):
            return True
    return False


def implausibility(str text not None, Py_ssize_t max_words):
    """``_plausibility.implausibility_reference(text, max_words)``, for ``max_words >= 0``."""
    cdef Score score
    score.bad = score.rare = 0.0
    score.count = 0
    cdef Py_ssize_t length = PyUnicode_GET_LENGTH(text), index = 0, start, words = 0
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef Py_UCS4 char
    cdef bint non_ascii, joined = False
    if PyUnicode_MAX_CHAR_VALUE(text) >= 0x80:
        while index < length and words < max_words:
            # a word as ``str.split`` finds it, scored when it has a non-ASCII character
            while index < length and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, index)):
                char = PyUnicode_READ(kind, data, index)
                if char >= 0x80:
                    joined = True
                    break
                index += 1
            if joined or index == length:
                break
            start = index
            non_ascii = False
            while index < length:
                char = PyUnicode_READ(kind, data, index)
                if char >= 0x80:
                    if Py_UNICODE_ISSPACE(char):
                        joined = True
                        break
                    non_ascii = True
                elif Py_UNICODE_ISSPACE(char):
                    break
                index += 1
            if joined:
                break
            if non_ascii:
                _score_word(kind, data, start, index, &score)
                words += 1
        if not joined and index < length:    # cut at max_words: the rest's spaces still count
            joined = _has_non_ascii_space(kind, data, index, length)
        if joined:
            # A non-ASCII space joins the words around it: the reference's regular
            # expression finds the words, scored here.
            score.bad = score.rare = 0.0
            score.count = 0
            for word in _words_of(text)[:max_words]:
                _score_word(PyUnicode_KIND(word), PyUnicode_DATA(word), 0,
                            PyUnicode_GET_LENGTH(word), &score)
    return score.bad + (_rare_cap if _rare_cap < score.rare else score.rare), score.count
