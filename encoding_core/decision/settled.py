"""A detector's doubt that no other reading supports: the reading is settled, not for review.

``default_detector`` flags its answer for review when the sample is short (a few accented
letters), or a detector dissents. On Western and Central European pages that is most often
noise (issue 21): a German page with seven non-ASCII bytes, two detectors agreeing on
windows-1252, ``Königreich`` and ``würden``. Review is worth asking for only when another
reading could be the right one, so ``settle`` reads the sample in every legacy web encoding
that decodes the body strictly, and lifts the doubt when each reading that differs is worse:

1. the answer's own reading has no implausible character (``_plausibility``), at least
   ``MIN_NON_ASCII`` non-ASCII characters, and only Latin letters (the alphabets are what
   tells Latin readings apart; a short Cyrillic or Greek phrase, whose rivals differ from it
   mostly in case, keeps its doubt: the Bytes view's caution on ``Новости дня`` stays);
2. each other reading either has implausible characters (``implausibility`` above 0:
   ``Kˆnigreich`` in Mac Roman), or its non-ASCII letters are not all letters of one
   language while the answer's are: a language's own alphabet is CLDR's *main* exemplar set
   (``_alphabets``, generated), so ``één``, ``België`` and ``Juárez`` are Dutch but
   ``Belgiė`` and ``Juįrez`` with ``één`` (windows-1257) are no language's. This is the
   question Firefox's chardetng asks of letter pairs per language (a pair that never occurs
   in a language's Wikipedia is heavily penalised), asked of a whole reading's letters: one
   alphabet, no pair statistics, so nothing to train.

Which way it errs: towards review. A reading that is one language's (Italian ``è`` and
``può`` as windows-1250 ``č`` and ``puň``: Czech letters) keeps the doubt; so does a page
whose own letters are of no single language, and an answer in another script than Latin.
Every candidate is read, not only the voted ones: a rival nobody voted for still keeps the
doubt. Measured in
``bench_silent.py`` (bench/README.md, issue 21): no wrong reading is settled.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import replace
from functools import lru_cache
from itertools import compress, filterfalse, islice
from operator import ne
from typing import TYPE_CHECKING

from ..whatwg.decoders import decode_replace, decode_replace_text, encode_strict
from ._alphabets import ALPHABETS
from ._plausibility import MAX_CACHED_WORD, MAX_WORDS, implausibility

if TYPE_CHECKING:  # (detect imports this module)
    from .detect import Detection

__all__ = ["ALPHABETS_AS_WRITTEN", "LEGACY_LETTERS", "MIN_NON_ASCII", "RIVALS", "held_by_one",
           "holders", "letters", "one_language", "one_language_reference", "settle",
           "settled_reason"]

#: Every ASCII-compatible legacy encoding a web page is written in (the WHATWG table's).
RIVALS = ("windows-1252", "windows-1250", "windows-1251", "windows-1253", "windows-1254",
          "windows-1255", "windows-1256", "windows-1257", "windows-1258", "windows-874",
          "iso-8859-2", "iso-8859-3", "iso-8859-4", "iso-8859-5", "iso-8859-6", "iso-8859-7",
          "iso-8859-8", "iso-8859-10", "iso-8859-13", "iso-8859-14", "iso-8859-15",
          "iso-8859-16", "koi8-r", "koi8-u", "ibm866", "macintosh", "x-mac-cyrillic",
          "gbk", "big5", "shift_jis", "euc-jp", "euc-kr")
#: Fewer non-ASCII characters than this in the sample: one observation rules nothing out (a
#: lone ``ü`` may be a byte of an encoding no rival models), so the doubt stays.
MIN_NON_ASCII = 2


def letters(text: str) -> frozenset[str]:
    """The non-ASCII letters of ``text``'s words, lower case, NFC (a mark that composes with
    its letter is that letter; one that does not is kept with it, a letter of no alphabet).

    >>> sorted(letters("Grüße aus Köln"))
    ['ß', 'ö', 'ü']
    """
    return _letters_of(_non_ascii_words(text))


def _non_ascii_words(text: str) -> dict[str, None]:
    """The distinct words of ``text`` with a non-ASCII character, in order (C-level
    iteration: a sample of 80 KB is some 10,000 words, most of them ASCII)."""
    return dict.fromkeys(filterfalse(str.isascii, text.split()))


def _letters_of(words: Iterable[str]) -> frozenset[str]:
    return frozenset().union(*map(_word_letters, words))


def _word_letters(word: str) -> frozenset[str]:
    """A word's letters (``letters``); a short word's remembered, as ``_plausibility``
    remembers its scores (``MAX_CACHED_WORD``: a hostile run of letters is not held)."""
    if len(word) > MAX_CACHED_WORD:
        return _letters_of_word(word)
    return _cached_word_letters(word)


def _letters_of_word(word: str) -> frozenset[str]:
    word = unicodedata.normalize("NFC", word).lower()
    found: set[str] = set()
    for index, char in enumerate(word):
        if char.isascii():
            continue
        category = unicodedata.category(char)
        if category.startswith("L"):
            found.add(char)
        elif category == "Mn":   # a mark left over by NFC: it and its letter, as one
            found.discard(word[index - 1] if index else "")
            found.add(word[max(index - 1, 0):index + 1])
    return frozenset(found)


_cached_word_letters = lru_cache(maxsize=1 << 14)(_letters_of_word)


@lru_cache(maxsize=4096)
def _latin(letter: str) -> bool:
    """Whether a letter (with any mark kept with it) is of the Latin script."""
    return unicodedata.name(letter[0], "").startswith("LATIN ")


#: Letters a language's legacy encodings write where CLDR's main alphabet has others (a
#: deviation from CLDR, here only): windows-1250 and ISO-8859-2 have no ``ș`` or ``ț`` (comma
#: below), so Romanian in them is written with ``ş`` and ``ţ`` (cedilla). Without them every
#: such Romanian page was a reading of no one language (its review never settled, and
#: ``one_alphabet`` would take its ISO-8859-16 reading for the better one).
LEGACY_LETTERS: dict[str, frozenset[str]] = {"ro": frozenset("şţ")}
#: ``ALPHABETS`` with ``LEGACY_LETTERS``: the alphabets a reading's letters are asked about.
ALPHABETS_AS_WRITTEN: tuple[tuple[str, frozenset[str]], ...] = tuple(
    (name, alphabet | LEGACY_LETTERS.get(name, frozenset())) for name, alphabet in ALPHABETS)


def holders(alphabets: Iterable[tuple[str, frozenset[str]]]) -> dict[str, int]:
    """Each letter of some alphabet of ``alphabets``: the alphabets that hold it, as the bits
    of their places there (the alphabets holding every letter of a set: one ``&`` a letter)."""
    found: dict[str, int] = {}
    for place, (_name, alphabet) in enumerate(alphabets):
        for letter in alphabet:
            found[letter] = found.get(letter, 0) | 1 << place
    return found


_HOLDERS = holders(ALPHABETS_AS_WRITTEN)


def one_language(found: Iterable[str]) -> bool:
    """Whether every letter is in one CLDR language's main alphabet, as its legacy encodings
    write it (``ALPHABETS_AS_WRITTEN``; none: trivially).

    The alphabets that hold all of them are those holding each (``_HOLDERS``), so a letter
    at a time rather than an alphabet at a time (``one_language_reference``).

    >>> one_language("éë"), one_language("ėįé")
    (True, False)
    """
    return held_by_one(found, _HOLDERS)


def held_by_one(found: Iterable[str], holding: dict[str, int]) -> bool:
    """Whether one alphabet of a ``holders`` table holds every letter (none: trivially)."""
    common = -1   # (every alphabet, before any letter)
    for letter in found:
        common &= holding.get(letter, 0)
        if not common:
            return False
    return True


def one_language_reference(found: Iterable[str]) -> bool:
    """``one_language`` as its definition reads: some alphabet holds every letter."""
    wanted = frozenset(found)
    return not wanted or any(wanted <= alphabet for _name, alphabet in ALPHABETS_AS_WRITTEN)


def settled_reason(part: bytes, encoding: str, strict: Callable[[str], bool]) -> str | None:
    """Why ``part`` (a sample) read in ``encoding`` needs no review (the module docstring's
    rules), or None when some other reading could be right.

    ``strict(e)`` says whether the whole body decodes strictly in ``e``.
    """
    mine = decode_replace(part, encoding)[0]
    bad, count = implausibility(mine)
    if bad > 0 or count < MIN_NON_ASCII:
        return None
    distinct = _non_ascii_words(mine)
    own = _letters_of(distinct)
    if not all(_latin(letter) for letter in own):
        return None
    coherent = one_language(own)
    # Only the words with a non-ASCII character can read differently (every rival reads
    # ASCII as ASCII), each distinct one once: the cost follows the words, not the page.
    words = list(islice(distinct, MAX_WORDS))
    joined = " ".join(words)
    raw = encode_strict(joined, encoding)
    if raw is None:   # (a replacement character in the sample: not a reading to settle)
        return None
    worse = 0
    judged: dict[str, bool] = {}   # a rival's reading: whether it reads worse (rivals share)
    for rival in RIVALS:
        if rival == encoding:
            continue
        theirs = decode_replace_text(raw, rival)
        if theirs == joined:
            continue
        reads_worse = judged.get(theirs)
        if reads_worse is None:
            # implausible characters are looked for in the words that differ (all of them
            # when the words do not pair up): the others are the answer's own, which read
            # plausibly
            other = theirs.split()
            differ = (" ".join(compress(other, map(ne, other, words)))
                      if len(other) == len(words) else theirs)
            reads_worse = judged[theirs] = (implausibility(differ)[0] > 0 or (
                coherent and not one_language(letters(theirs))))
        if reads_worse:
            worse += 1
        elif strict(rival):   # (asked last: a whole-body decode, needed only for a rival)
            return None
    return (f"each of the {worse} other readings that differ reads worse (implausible "
            "characters, or letters of no one language)" if worse
            else "no other encoding reads it differently")


def settle(found: Detection, part: bytes, strict: Callable[[str], bool]) -> Detection:
    """``found``, no longer for review when its reading of ``part`` is settled."""
    if not found.needs_review:
        return found
    reason = settled_reason(part, found.encoding, strict)
    if reason is None:
        return found
    return replace(found, needs_review=False, reason=f"{found.reason}; settled: {reason}")
