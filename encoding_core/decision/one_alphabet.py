"""A Latin reading whose letters no one language writes, where another reading's are one
language's: a doubt for review (``detect.default_detector``'s last step).

Two detectors can agree on the wrong Latin encoding when the bytes that tell the two apart
are few. An Estonian page in windows-1257 whose only ``ž`` is in ``Žürii`` reads in
windows-1252 as ``Þürii``, every other letter (``õ ä ö ü``) the same; chardetng and uchardet
both say windows-1252, and each letter is plausible alone. What is not plausible is the set:
``þ`` is Icelandic, ``õ`` is not. So the reading's letters (the distinct cased non-ASCII
letters of the sample the answer was made from, lower case; symbols Unicode calls letters,
``µ`` or ``ƒ``, are not) are asked whether one language of the web's Latin
encodings writes them all (``WEB_LANGUAGES``: CLDR main alphabets as ``settled`` keeps them,
Romanian with its cedilla letters). When none does, each common Latin encoding
(``ALTERNATIVES``) that reads the sample differently, with no implausible character and
decoding the whole body strictly, is asked whether the page's own language writes every
letter of its reading (the language holding most of the page's letter occurrences, or each
of those tied for it), and the first that is so is named in the review's reason.
(``settled`` asks the converse question, and only to lift a review: whether each other
reading is worse.) Under a Western label ``disputes`` asks a looser question of a window's
bytes (``one_language_bytes``, ``one_language_elsewhere``: any one language, or only the
letters that differ; no main language, the whole reading being wrong there), and the
detector's answer decides.

Which way it errs: towards saying nothing. A page quoting names from other languages (an
Italian page with a Spanish ``ñ``) is no one language's in any reading, and stays as decided;
a reading of one language is never doubted here, whatever an alternative reads. Only the
languages written in these encodings count (a CLDR alphabet of 60 letters, of a language not
written in them, held ``àáèòùń``), and only the common encodings are alternatives (ISO-8859-14
read a Dutch page's Icelandic ``ð`` as the Welsh ``ŵ``). Measured on real translated text
(gettext catalogs of 41 languages in their legacy encodings, 4,900 pages) and this
project's corpora: bench/README.md, "One alphabet".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import cache, reduce
from operator import and_

from ..whatwg.decoders import SINGLE_BYTE_TABLES, decode_replace_text
from ._plausibility import implausibility
from .settled import ALPHABETS_AS_WRITTEN, held_by_one, holders

__all__ = ["ALTERNATIVES", "ANSWERS", "WEB_LANGUAGES", "foreign_letters", "letters_of",
           "one_language_bytes", "one_language_elsewhere", "one_language_instead"]

#: The languages written in the web's Latin legacy encodings (CLDR codes).
WEB_LANGUAGES = frozenset({
    "af", "bs", "ca", "cs", "da", "de", "es", "et", "eu", "fi", "fo", "fr", "ga", "gl", "hr",
    "hu", "is", "it", "lb", "lt", "lv", "nb", "nl", "nn", "no", "pl", "pt", "ro", "sk", "sl",
    "sq", "sv", "tr"})
#: The common Latin encodings asked whether their reading is one language's.
ALTERNATIVES = ("windows-1252", "windows-1250", "windows-1254", "windows-1257", "iso-8859-2",
                "iso-8859-13", "iso-8859-15")
#: The answers whose letters are asked about: the single-byte Latin encodings (not
#: windows-1258, whose Vietnamese is written with combining tone marks).
ANSWERS = frozenset({*ALTERNATIVES, "iso-8859-3", "iso-8859-4", "iso-8859-10", "iso-8859-14",
                     "iso-8859-16", "macintosh"})
_WEB_ALPHABETS = tuple(alphabet for name, alphabet in ALPHABETS_AS_WRITTEN
                       if name in WEB_LANGUAGES)
# (``ƒ``, windows-1252's florin sign, is a letter of Ewe in CLDR; in these encodings it is
# the florin: Dutch prices, ``ƒ 10``)
_ANY_ALPHABET = frozenset().union(*(alphabet for _name, alphabet in ALPHABETS_AS_WRITTEN)) - {"ƒ"}
_HOLDING = holders(a for a in ALPHABETS_AS_WRITTEN if a[0] in WEB_LANGUAGES)
_ASCII = bytes(range(0x80))


@cache
def _cased_letters(encoding: str) -> tuple[str, ...]:
    """Per byte of a single-byte ``encoding``: its character lower case when that is a
    letter of some CLDR alphabet (``settled.ALPHABETS_AS_WRITTEN``), else an empty string.
    Symbols that Unicode calls letters are not letters here: ``µ`` (its upper case is Greek
    Mu), the florin ``ƒ``, ``ª`` and ``º``; ``İ`` is ``i`` lower case, ASCII, as Turkish
    writes it."""
    table = SINGLE_BYTE_TABLES[encoding]
    return tuple(c.lower() if c.lower() in _ANY_ALPHABET else "" for c in table)


def one_language_bytes(present: bytes, encoding: str) -> bool:
    """Whether the letters of the high bytes ``present``, read in single-byte ``encoding``,
    are one language's of ``WEB_LANGUAGES`` (no letters: trivially; a declared page's
    clearance asks it of its window's distinct high bytes: one ``&`` a byte, at C speed)."""
    return reduce(and_, map(_byte_holders(encoding).__getitem__, present), -1) != 0


@cache
def _byte_holders(encoding: str) -> tuple[int, ...]:
    """Per byte of single-byte ``encoding``: the alphabets of ``WEB_LANGUAGES`` that hold its
    letter (``_HOLDING``'s bits), or every alphabet (-1) when it is no cased letter."""
    return tuple(_HOLDING.get(letter, 0) if letter else -1 for letter in _cased_letters(encoding))


def one_language_elsewhere(present: bytes, encoding: str) -> str | None:
    """The first of ``ALTERNATIVES`` that reads the high bytes ``present`` as one language's
    letters (``one_language_instead``); None when none does (an English page's names,
    ``ã é ë ú ü``, are no one language's in any of them: no detector need be asked)."""
    return next((other for other in ALTERNATIVES
                 if other != encoding and one_language_instead(present, encoding, other)), None)


def one_language_instead(present: bytes, encoding: str, other: str) -> bool:
    """Whether ``other`` reads the high bytes ``present`` as other letters that are one
    language's of ``WEB_LANGUAGES``: all of them, or those it reads differently where
    ``encoding``'s are no one language's (a Croatian page quoting ``Rhône``: ``ć č đ ô š ž``
    is no one language's, but in place of windows-1252's ``æ è ð`` windows-1250 reads
    ``ć č đ``, Croatian's; ``ô š ž`` are the same in both)."""
    high = set(present)
    own, theirs = _letters(high, encoding), _letters(high, other)
    if not theirs or theirs == own:
        return False
    if held_by_one(theirs, _HOLDING):
        return True
    instead = theirs - own
    return bool(instead) and held_by_one(instead, _HOLDING) and not held_by_one(own - theirs,
                                                                                 _HOLDING)


def letters_of(part: bytes, encoding: str) -> frozenset[str]:
    """The distinct cased non-ASCII letters of ``part`` read in a single-byte ``encoding``,
    lower case (a byte is one character there: no word or normalisation to consider)."""
    return _letters(set(part.translate(None, _ASCII)), encoding)


def _letters(high: set[int], encoding: str) -> frozenset[str]:
    cased = _cased_letters(encoding)
    return frozenset(cased[b] for b in high) - {""}


def foreign_letters(part: bytes, encoding: str, strict: Callable[[str], bool]) -> str | None:
    """Why ``part`` (a sample) read in ``encoding`` should be reviewed: its letters are no
    one language's and another encoding's are; None when that is not so.

    ``strict(e)`` says whether the whole body decodes strictly in ``e``.
    """
    if encoding not in ANSWERS:
        return None
    high = set(part.translate(None, _ASCII))   # (the distinct bytes, read in each encoding)
    own = _letters(high, encoding)
    if not own or held_by_one(own, _HOLDING):
        return None
    main = _main_alphabets(part, encoding)
    for other in ALTERNATIVES:
        if other == encoding:
            continue
        theirs = _letters(high, other)
        if not theirs or theirs == own or not all(theirs <= alphabet for alphabet in main):
            continue
        if implausibility(decode_replace_text(part, other))[0] == 0 and strict(other):
            return (f"its letters ({''.join(sorted(own))}) are no one language's; "
                    f"{other} reads them as the page's language writes them "
                    f"({''.join(sorted(theirs))})")
    return None


def _main_alphabets(part: bytes, encoding: str) -> list[frozenset[str]]:
    """The alphabets of ``WEB_LANGUAGES`` that hold the most occurrences of ``part``'s letters
    read in ``encoding`` (the page's language: ``õ ä ö ü`` many times and one ``þ`` is
    Estonian; ``è`` many times and one ``š`` French, whose pages windows-1250 does not read
    as Czech). Several when they tie (Spanish with no ``ñ`` is Czech's and Slovak's letters
    too): an alternative must then be written by each of them (``è`` as ``č`` in a Spanish
    page quoting Molière is not Spanish's)."""
    cased = _cased_letters(encoding)
    counts: Counter[str] = Counter()
    for byte, count in Counter(part.translate(None, _ASCII)).items():
        if cased[byte]:
            counts[cased[byte]] += count
    held = [(sum(n for letter, n in counts.items() if letter in alphabet), alphabet)
            for alphabet in _WEB_ALPHABETS]
    most = max(n for n, _alphabet in held)
    return [alphabet for n, alphabet in held if n == most and n]
