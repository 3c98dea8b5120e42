"""How unlike real text a decoded string looks: the tie-breaker of ``detect.default_detector``.

A wrong single-byte decode of real text rarely produces new words; it produces characters
that do not belong: C1 controls and box drawing (koi8-r read as windows-1252), symbols in
the middle of words (``c½ur``: iso-8859-15 read as windows-1252), words that turn from lower
to upper case (``пЕУЛБ``: koi8-r read as windows-1251), words mixing two alphabets (Cyrillic
letters in a Latin word). ``implausibility`` counts those, per non-ASCII character.

It errs towards calling text plausible: only what real prose almost never contains counts,
so a wrong reading that is all ordinary letters of one alphabet (Italian ``à`` as
iso-8859-13 ``ą``) passes, and the votes of the statistical detectors decide. Letters rare
in any large language (``þ``, ``ŕ``) weigh a little, capped, so that a long Icelandic or
Slovak text is not pushed to another reading.

``may_be_implausible`` is the same question asked of bytes at C speed, for a single-byte
reading: a 256-entry class table (``bytes.translate``) and one regular expression over the
classes. It errs only one way: when it says no, no word of the reading scores 1 or more (so
``implausible_words(..., strong=True)`` is empty); when it says yes, ask ``implausibility``.
Correct pages almost always get a no, so a right declaration costs a translate and a search.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from ..whatwg.decoders import SINGLE_BYTE_ENCODINGS, decode_replace

__all__ = ["MAX_IMPLAUSIBLE_RATE", "MAX_WORDS", "RARE_CAP", "implausibility", "implausible_words",
           "may_be_implausible", "non_latin_letters"]

#: A reading with more implausible characters than this per non-ASCII one is no reading.
MAX_IMPLAUSIBLE_RATE = 0.25
#: Only the first this many words with a non-ASCII character are scored (plenty of evidence).
MAX_WORDS = 1000
#: The most that rare letters add to a text's implausibility, however many there are.
RARE_CAP = 0.6

# A word with a non-ASCII character: the matches of \S*[^\x00-\x7f]\S* (a non-ASCII space
# joins the words around it), anchored so that a word with none fails once, not once per
# character: a match starts after a space or at a non-ASCII character (same matches, 3x as fast).
_NON_ASCII_WORD = re.compile(r"(?:(?<!\S)|(?=[^\x00-\x7f]))\S*[^\x00-\x7f]\S*")
#: Every non-ASCII character that ``str.isspace`` (and ``\s``) counts as space (a test checks).
NON_ASCII_SPACES = ("\x85", "\xa0", "\u1680", *map(chr, range(0x2000, 0x200B)), "\u2028", "\u2029",
                    "\u202f", "\u205f", "\u3000")


def _non_ascii_words(text: str) -> list[str]:
    """The words of ``text`` with a non-ASCII character (``_NON_ASCII_WORD``'s matches).

    With no non-ASCII space to join words, they are the whitespace-split words that are not
    ASCII (``str.split`` and ``\\s`` agree on what is space): the same list, twice as fast.
    """
    if not any(c in text for c in NON_ASCII_SPACES):  # 19 C scans: 6x a regex over the text
        return [word for word in text.split() if not word.isascii()]
    return _NON_ASCII_WORD.findall(text)
# Non-ASCII punctuation and symbols that real text uses, also next to words (it’s, 1°C, 5€).
_USUAL = frozenset("’‘“”„«»‹›—–…·•€£¥°©®™№§¿¡\u00a0\u00ad\u200c\u200d\u200e\u200f"
                   "،؛؟٪۔।。、「」『』（）：；！？，．〜・ー\u05be\u05f3\u05f4")
# Of those, the ones that also sit between two letters of a word (it’s, l·l, soft hyphen,
# East Asian punctuation, since East Asian text has no spaces, and Hebrew's maqaf, geresh and
# gershayim: בית־ספר, ש״ח "shekels", צה״ל, in every Hebrew price and abbreviation).
_WORD_INNER = frozenset("’·\u00ad\u200c\u200d\u200e\u200f。、「」『』（）：；！？，．〜・ー"
                        "\u05be\u05f3\u05f4")
# The first word of a letter's Unicode name is its script, but for these: East Asian writing
# mixes ideographs, kana and full-width forms in one word; the rest belong to no script.
_SCRIPT_ALIASES = {"HIRAGANA": "CJK", "KATAKANA": "CJK", "IDEOGRAPHIC": "CJK",
                   "HALFWIDTH": "CJK", "FULLWIDTH": "CJK", "BOPOMOFO": "CJK", "HANGUL": "CJK",
                   "MODIFIER": "", "MICRO": "", "?": ""}
# Ordinal indicators are letters to Unicode but follow digits (1º, 2ª), never sit in words:
# ş read as windows-1252 is º.
_ORDINALS = "ªº"
# Rare in running text but in a small language, and what a wrong single-byte decode makes of
# common letters: à (windows-1252) read as windows-1250 is ŕ; ţ (windows-1250) as 1252 is þ.
_RARE_LETTERS = frozenset("ðÐþÞŕŔĺĹŀĿŉĸſŧŦŋŊħĦ")


@lru_cache(maxsize=8192)
def _char_class(char: str) -> tuple[str, str]:
    """(kind, script) of a non-ASCII character.

    Kinds: ``L`` lower-case, ``U`` upper-case, ``l`` other letter, ``M`` mark, ``P`` usual
    in text, ``S`` symbol-like (symbols, odd punctuation, fractions, ordinals), ``X`` never
    in prose (controls, unassigned, private use, box drawing).
    """
    category = unicodedata.category(char)
    if char in _USUAL or category in ("Zs", "Nd"):
        return ("P", "")
    if char in _ORDINALS:
        return ("S", "")
    if category.startswith("L"):
        script = unicodedata.name(char, "? ").split(" ")[0]
        kind = {"Ll": "L", "Lu": "U"}.get(category, "l")
        return (kind, _SCRIPT_ALIASES.get(script, script))
    if category.startswith("M"):
        script = unicodedata.name(char, "COMBINING ").split(" ")[0]
        return ("M", "" if script == "COMBINING" else _SCRIPT_ALIASES.get(script, script))
    if category.startswith("C") or "\u2500" <= char <= "\u259f":
        return ("X", "")
    return ("S", "")


def implausibility(text: str, max_words: int = MAX_WORDS) -> tuple[float, int]:
    """How unlike real text the non-ASCII part of ``text`` is, and its non-ASCII count.

    Counts, in the first ``max_words`` words with a non-ASCII character:

    - a character never seen in prose (control, unassigned, private use, box drawing): 1;
    - a symbol-like character: 1 between two letters, 0.3 next to one, else 0.1;
    - a quote, dash or ellipsis between two letters: 0.5 (ť read as iso-8859-2 is »);
    - a word turning from lower to upper case at a non-ASCII letter: 1;
    - a combining mark not on a letter, or on a letter of another script: 1;
    - a word mixing alphabets (ASCII letters inside East Asian text are normal): 1, and
      an East Asian character between two ASCII letters: 1;
    - a letter rare in any large language: 0.2, at most ``RARE_CAP`` in all.

    >>> implausibility("Le cœur a ses raisons")
    (0.0, 1)
    >>> implausibility("Le c½ur a ses raisons")
    (1.0, 1)
    """
    bad = rare = 0.0
    count = 0
    for word in _non_ascii_words(text)[:max_words]:
        word_bad, word_rare, word_count = _word_score(word)
        bad += word_bad
        rare += word_rare
        count += word_count
    return bad + min(rare, RARE_CAP), count


def implausible_words(text: str, limit: int = 3, *, strong: bool = False) -> list[str]:
    """The first ``limit`` distinct words of ``text`` with an implausible character; with
    ``strong``, only words scoring 1 or more (a character never seen in prose, a symbol
    between two letters, a case turn...), not a symbol beside one letter (``x²``, ``1º``).

    >>> implausible_words("Le c½ur, le c½ur, l’œuvre")
    ['c½ur,']
    >>> implausible_words("x² + y² = z²"), implausible_words("x² + y² = z²", strong=True)
    (['x²', 'y²', 'z²'], [])
    """
    least = 1.0 if strong else 1e-9
    found: list[str] = []
    for word in _non_ascii_words(text):
        if word not in found and _word_score(word)[0] >= least:
            found.append(word)
            if len(found) == limit:
                break
    return found


@lru_cache(maxsize=1 << 16)
def _word_score(word: str) -> tuple[float, float, int]:
    """(implausible, rare, non-ASCII characters) of one word (words repeat: cached)."""
    bad = rare = 0.0
    count = 0
    scripts: set[str] = set()
    previous = letter = ""
    for index, char in enumerate(word):
        if char < "\x80":
            previous = "L" if char.islower() else "U" if char.isupper() else ""
            letter = "LATIN" if previous else ""
            if char.isalpha():
                scripts.add("ASCII")
            continue
        count += 1
        kind, script = _char_class(char)
        if kind == "X":
            bad += 1.0
        elif kind in "SP":
            before = index > 0 and word[index - 1].isalpha()
            after = index + 1 < len(word) and word[index + 1].isalpha()
            if kind == "S":
                bad += 1.0 if before and after else 0.3 if before or after else 0.1
            elif before and after and char not in _WORD_INNER:
                bad += 0.5
        elif kind == "M":
            # A combining mark sits on a letter (or another mark) of its own script.
            if previous not in ("L", "U", "l", "M") or (script and script != letter):
                bad += 1.0
        elif kind in "LUl":
            letter = script
            if script:
                scripts.add(script)
            if script == "CJK" and 0 < index < len(word) - 1 \
                    and word[index - 1].isascii() and word[index - 1].isalpha() \
                    and word[index + 1].isascii() and word[index + 1].isalpha():
                bad += 1.0  # caf閠e: Latin bytes read as a double-byte encoding
            if char in _RARE_LETTERS:
                rare += 0.2
            if kind == "U" and previous == "L":
                bad += 1.0
        previous = kind
    if "ASCII" in scripts:  # East Asian words run on without spaces: ASCII inside is normal
        scripts.discard("ASCII")
        if "CJK" not in scripts:
            scripts.add("LATIN")
    if len(scripts) > 1:
        bad += 1.0
    return bad, rare, count


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
    kind, script = _char_class(char)
    if kind == "M":
        return "g" if not script else f"M{script}"  # m or M: once the table's script is known
    if kind in "XS":
        return kind
    if kind == "P":
        return "I" if char in _WORD_INNER else "P"
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
