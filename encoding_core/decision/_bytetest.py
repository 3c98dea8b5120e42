"""The C-speed form of ``_plausibility``'s question, for a single-byte reading of bytes.

A 256-entry class table per encoding (``bytes.translate``), then substring tests over the
classes, each a superset of one of ``_word_score``'s rules, so that a no is exact: no word of
the reading scores 1 or more. Tests compare it with the scorer on random and dense bytes in
every single-byte encoding.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..whatwg.decoders import SINGLE_BYTE_ENCODINGS, decode_replace
from ._plausibility import WORD_INNER, char_class
from .utf8scan import BYTETEST_C as _C

__all__ = ["class_tables", "classes_may_be_implausible_reference", "may_be_implausible",
           "non_latin_letters"]

# --- the C-speed test over bytes -------------------------------------------------------------
# One class byte per decoded character (what _word_score looks at):
#   " " ASCII space (what splits words)   "a" "A" ASCII lower, upper   "0" digit   "." other
#   "l" "u" "o" Latin letter lower, upper, other      "c" "C" "k" the same, one non-Latin script
#   "y" "Y" "z" the same, letters of no script (µ)    "P" usual punctuation   "I" usual, also
#   inside words (’ ·)   "S" symbol-like   "X" never in prose   "M" combining mark of another
#   script   "m" combining mark of the table's one non-Latin script   "g" combining mark of no
#   script (U+0300...)
# A word scores 1 or more only through one of these (each test is a superset of its rule):
#   a control or a symbol anywhere (0.1 to 1 each: look closely);
#   a mark of another script anywhere; a mark not after a letter or a mark; a mark of the
#   table's script whose letter (before any marks) is not of that script (1);
#   a case turn, a lower-case letter then a non-ASCII capital (1);
#   two usual marks in one word, each between two letters (0.5 each);
#   two alphabets in one word (1).
# Each is a bytes.translate of the classes and a substring test, so it stays at C speed: with
# the other classes deleted, "two marks in one word" is "PP" and "two alphabets" is "LN"/"NL".
_CLASSES = b" aA0.luockCyYzPISXMmg"


def _reduce(keep: dict[bytes, bytes], *, delete: bool) -> tuple[bytes, bytes]:
    """A translate table mapping each class in ``keep``; every other class but space is
    deleted (``delete``) or becomes ``.`` (then only neighbours stay neighbours)."""
    table = bytearray(range(256))
    kept = {ord(" ")}
    for classes, to in keep.items():
        for c in classes:
            table[c] = ord(to)
            kept.add(c)
    others = bytes(c for c in _CLASSES if c not in kept)
    if delete:
        return bytes(table), others
    for c in others:
        table[c] = ord(".")
    return bytes(table), b""


_TURN = _reduce({b"alcy": b"l", b"uCY": b"U"}, delete=False)
_MARKS = _reduce({b"P": b"P"}, delete=True)
_ALPHABETS = _reduce({b"aAluo": b"L", b"ckC": b"N"}, delete=True)
# a usual mark scores (0.5) only between two letters: two of them in one word score 1, where
# quotes around a word («Галактика», „Žaibas“) score nothing
_LETTERS_MARKS = _reduce({b"aAluockCyYz": b"L", b"P": b"P"}, delete=False)
_TWO_MARKS_BETWEEN_LETTERS = re.compile(rb"LP(?=L)[^ ]*?LP(?=L)")
_MARK_CONTEXT = _reduce({b"aAluoyYz": b"L", b"ckC": b"N", b"m": b"m", b"g": b"g"}, delete=False)


def _class_of(char: str, scripts: set[str]) -> str:
    if char < "\x80":  # only ASCII space splits words: a non-ASCII one joins them (above)
        return (" " if char.isspace() else "a" if char.islower() else "A" if char.isupper()
                else "0" if char.isdigit() else ".")
    kind, script = char_class(char)
    if kind == "M":
        return "g" if not script else f"M{script}"  # m or M: once the table's script is known
    if kind in "XS":
        return kind
    if kind == "P":
        return "I" if char in WORD_INNER else "P"
    if not script:
        return {"L": "y", "U": "Y"}.get(kind, "z")
    if script == "LATIN":
        return {"L": "l", "U": "u"}.get(kind, "o")
    scripts.add(script)
    return {"L": "c", "U": "C"}.get(kind, "k")


@lru_cache(maxsize=64)
def _class_table(encoding: str) -> bytes | None:
    """The class of each byte read in single-byte ``encoding``; None when its letters come
    from two non-Latin scripts (or East Asian ones), which one class cannot tell apart."""
    scripts: set[str] = set()
    classes = [_class_of(decode_replace(bytes([b]), encoding)[0], scripts) for b in range(256)]
    if len(scripts) > 1 or "CJK" in scripts:
        return None
    own = f"M{next(iter(scripts), '')}"  # a mark of the letters' script is "m", else "M"
    return "".join("m" if c == own else c[:1] for c in classes).encode("ascii")


@lru_cache(maxsize=64)
def class_tables(encoding: str) -> tuple[bytes, bytes] | None:
    """The class table of single-byte ``encoding`` (``may_be_implausible`` reads bytes
    through it), and the same with ``<`` and ``>`` read as ASCII spaces (what
    ``detect.sample_window_words`` makes of them); None where there is no class table.

    >>> tables = class_tables("windows-1252")
    >>> tables is not None and [i for i in range(256) if tables[0][i] != tables[1][i]]
    [60, 62]
    """
    table = _class_table(encoding)
    if table is None:
        return None
    words = bytearray(table)
    words[ord("<")] = words[ord(">")] = ord(" ")
    return table, bytes(words)


@lru_cache(maxsize=64)
def non_latin_letters(encoding: str) -> bool:
    """Whether single-byte ``encoding`` has letters of a script other than Latin (Cyrillic,
    Greek, Hebrew, Arabic, Thai): then markup letters next to its text (``<title>Москва``)
    are two alphabets to the byte test until the markup is stripped."""
    table = _class_table(encoding)
    return table is None or any(c in table for c in (b"c", b"C", b"k"))


def may_be_implausible(part: bytes, encoding: str) -> bool:
    """False only when no word of ``part`` read in single-byte ``encoding`` can score 1 or
    more in ``implausibility`` (then ``implausible_words(text, strong=True)`` is empty).

    >>> may_be_implausible("Москва — столица".encode("cp1251"), "windows-1251")
    False
    >>> may_be_implausible("Москва".encode("koi8-r"), "windows-1251")  # оПЧПУФ: case turns
    True
    """
    if encoding not in SINGLE_BYTE_ENCODINGS:
        return True
    table = _class_table(encoding)
    if table is None:
        return True
    if _C is not None and type(part) is bytes:  # the compiled pass (``_bytetest_c.pyx``)
        found: bool = _C.classes_may_be_implausible(part, table)
        return found
    return classes_may_be_implausible_reference(part, table)


def classes_may_be_implausible_reference(part: bytes, table: bytes) -> bool:
    """``may_be_implausible`` once the class ``table`` is known: the pure-Python reference
    of the compiled pass (``_bytetest_c.pyx``), by C-speed reductions of the classes.

    >>> table = _class_table("windows-1251")
    >>> table is not None and classes_may_be_implausible_reference("Москва".encode("cp1251"), table)
    False
    """
    classes = part.translate(table)
    if b"X" in classes or b"M" in classes or b"S" in classes:
        return True
    if (b"m" in classes or b"g" in classes) and _misplaced_mark(classes):
        return True
    # each reduction is made only when the classes it needs are there at all (a byte search
    # is ten times as fast as a translate): a case turn needs a non-ASCII capital, two marks
    # a mark, two alphabets a non-Latin letter
    if (b"u" in classes or b"C" in classes or b"Y" in classes) \
            and b"lU" in classes.translate(*_TURN):
        return True
    if (b"P" in classes and b"PP" in classes.translate(*_MARKS)
            and _TWO_MARKS_BETWEEN_LETTERS.search(classes.translate(*_LETTERS_MARKS))):
        return True
    if not (b"c" in classes or b"k" in classes or b"C" in classes):
        return False
    alphabets = classes.translate(*_ALPHABETS)
    return b"LN" in alphabets or b"NL" in alphabets


def _misplaced_mark(classes: bytes) -> bool:
    """Whether a combining mark of ``classes`` may score in ``_word_score``: one not after a
    letter or a mark, or one of the script ("m") whose letter, before the marks between
    them, is of another script or none."""
    context = classes.translate(*_MARK_CONTEXT)
    if context.startswith((b"m", b"g")) or b".g" in context or b" g" in context:
        return True
    context = context.replace(b"g", b"")  # a mark of no script leaves the letter as it was
    return b"Lm" in context or b".m" in context or b" m" in context
