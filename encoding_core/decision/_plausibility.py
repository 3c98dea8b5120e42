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

``_bytetest.may_be_implausible`` is the same question asked of bytes at C speed, for a
single-byte reading. It errs only one way: when it says no, no word of the reading scores 1
or more (so ``implausible_words(..., strong=True)`` is empty); when it says yes, ask
``implausibility``. Correct pages almost always get a no.

``implausibility`` answers from the compiled pass ``_plausibility_c.pyx`` where it is built:
the same float to the bit as ``implausibility_reference``, the definition, which stays here
(``tests/decision/test_plausibility_c.py`` holds the two equal).
"""

from __future__ import annotations

import re
import sys
import unicodedata
from functools import lru_cache

from ..speedups import compiled

__all__ = ["MAX_CACHED_WORD", "MAX_IMPLAUSIBLE_RATE", "MAX_WORDS", "NON_ASCII_SPACES",
           "RARE_CAP", "WORD_INNER", "char_class",
           "implausibility", "implausibility_reference", "implausible_words"]

#: A reading with more implausible characters than this per non-ASCII one is no reading.
MAX_IMPLAUSIBLE_RATE = 0.25
#: Only the first this many words with a non-ASCII character are scored (plenty of evidence).
MAX_WORDS = 1000
#: The most that rare letters add to a text's implausibility, however many there are.
RARE_CAP = 0.6
#: Words up to this long are remembered with their scores (``_word_score``); a longer one,
#: a run with no space that real text does not repeat, is scored afresh: remembered, 65,536
#: hostile runs of 3,000 letters held 170 KB a 9 KB page (``test_plausibility.py``).
MAX_CACHED_WORD = 64

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
WORD_INNER = frozenset("’·\u00ad\u200c\u200d\u200e\u200f。、「」『』（）：；！？，．〜・ー"
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
def char_class(char: str) -> tuple[str, str]:
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
    """How unlike real text the non-ASCII part of ``text`` is, and its non-ASCII count
    (``implausibility_reference``'s answer, from the compiled pass where it is built).

    >>> implausibility("Le c½ur a ses raisons")
    (1.0, 1)
    """
    if _C is not None and type(text) is str and type(max_words) is int \
            and 0 <= max_words <= sys.maxsize:  # (a negative cut slices from the end)
        return _C.implausibility(text, max_words)  # type: ignore[no-any-return]
    return implausibility_reference(text, max_words)


def implausibility_reference(text: str, max_words: int = MAX_WORDS) -> tuple[float, int]:
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

    >>> implausibility_reference("Le cœur a ses raisons")
    (0.0, 1)
    >>> implausibility_reference("Le c½ur a ses raisons")
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


def _word_score(word: str) -> tuple[float, float, int]:
    """(implausible, rare, non-ASCII characters) of one word: words repeat, so a short one's
    is remembered (``MAX_CACHED_WORD``)."""
    if len(word) > MAX_CACHED_WORD:
        return _score_word(word)
    return _cached_word_score(word)


def _score_word(word: str) -> tuple[float, float, int]:
    """``_word_score``, not remembered."""
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
        kind, script = char_class(char)
        if kind == "X":
            bad += 1.0
        elif kind in "SP":
            before = index > 0 and word[index - 1].isalpha()
            after = index + 1 < len(word) and word[index + 1].isalpha()
            if kind == "S":
                bad += 1.0 if before and after else 0.3 if before or after else 0.1
            elif before and after and char not in WORD_INNER:
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


_cached_word_score = lru_cache(maxsize=1 << 16)(_score_word)


# The compiled pass (``_plausibility_c.pyx``): the same answer as ``implausibility_reference``
# to the bit, asking this module for each character's class and for the words of a text with
# a non-ASCII space. None when not built or ``ENCODING_TRIAGE_PURE`` is set.
_C = compiled("encoding_core.decision._plausibility_c")
if _C is not None:
    _C.bind(char_class, WORD_INNER, _RARE_LETTERS, _non_ascii_words, RARE_CAP)
