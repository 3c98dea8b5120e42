"""The finder's second rule: the whole text, encoded as one of ftfy's encodings, is UTF-8.

Design. ``is_bad`` misses some common mojibake (UTF-8 read as windows-1251: ``РњРѕСЃРєРІР°``;
as macintosh: ``–ú–æ—Å–∫–≤–∞``). Encoding the whole text back with each of ftfy's single-byte
encodings (``ftfy.chardata.CHARMAP_ENCODINGS``, in ftfy's order) and decoding the bytes as
UTF-8 finds it: ftfy would take exactly this step when ``is_bad`` agrees, so the finder tries
it first, as the cheap path. Only the encodings where the text's first non-ASCII character is a
UTF-8 lead byte are tried.

Which way it errs: towards **not** flagging. Legitimate text is practically never valid UTF-8
by accident once every non-ASCII character must fall in a sequence; the exceptions are short
(French ``l’Église`` in macintosh is ``lՃglise``), so the reading must also take two sequences,
or one in a text that also has ASCII letters (``JosГ©``), and must not leave a word that mixes
scripts.

Nor may it give characters real text hardly holds, the shape of the hard negatives
(``tests/cases/mojibake_hard_negatives.json``): an accented capital or a Latin-1 symbol whose
bytes happen to be a UTF-8 sequence with the next character reads as IPA or a rare letter
(``CAFÉ®`` as ``CAFɮ``, ``LOUÉ’s`` as ``LOUɒs``, ``ACHETÉ…`` as ``ACHETɅ``: lead bytes C6 to
CD), or as one lone letter of another script in Latin text (``4×£10`` as ``4ף10``). Such text
goes to ftfy's ``is_bad`` instead, which weighs what commonly follows what.
"""

from __future__ import annotations

import re
import unicodedata

from ftfy.badness import is_bad
from ftfy.chardata import CHARMAP_ENCODINGS

from ..decision.utf8profile import ascii_byte_count
from .chain import UTF8_READ_AS, Layer, read_as_name
from .plausible import capitals_reread, implausible_repair, mixes_scripts

__all__ = ["Rereader"]

_ASCII_LETTER = re.compile("[A-Za-z]")
_NON_ASCII = re.compile("[^\x00-\x7f]")
# character -> the encodings (in ftfy's order) where it is a UTF-8 lead byte: the first
# non-ASCII character of a text that re-reads as UTF-8 must be one
_LEAD_IN: dict[str, tuple[str, ...]] = {}
for _encoding in CHARMAP_ENCODINGS:
    for _char in bytes(range(0xC2, 0xF5)).decode(_encoding):
        _LEAD_IN[_char] = (*_LEAD_IN.get(_char, ()), _encoding)
_LETTERS = re.compile(r"[^\W\d_]+")   # a word
# What UTF-8 text hardly holds but a misread accented capital + symbol gives: Latin
# Extended-B (but Romanian comma-below and Vietnamese horned letters), IPA, spacing modifiers
# and combining marks standing alone.
_ALPHABET = re.compile("[\u0370-\u07ff]")   # Greek, Cyrillic, Armenian, Hebrew, Arabic ... NKo
_RARE = re.compile("[\u0180-\u019f\u01a2-\u01ae\u01b1-\u0217\u021c-\u036f]")
# Clean text re-reads as UTF-8 by accident in a pair or three (a capital and a symbol, twice);
# a re-read with more sequences is not weighed again (plausible)
_FEW = 3
_LONGEST_CACHED = 1_000   # characters; a longer word is not cached (it rarely repeats)


def _unlike_text(decoded: str) -> bool:
    """True when a re-read gives what real text hardly holds: a rare letter or IPA, or one
    lone letter of an alphabet (Greek to NKo: U+0370 to U+07FF) in a text with ASCII letters.
    A lone ideograph or syllable is a name (``Ahmet 李``); so is a Vietnamese ``Trần``.

    >>> _unlike_text("CAFɮ brand"), _unlike_text("Price: 4ף10"), _unlike_text("José, Ștefan")
    (True, True, False)
    """
    if _RARE.search(decoded):
        return True
    if not _ASCII_LETTER.search(decoded):
        return False
    scripts: dict[str, int] = {}
    for char in _ALPHABET.findall(decoded):
        if char.isalpha():
            script = unicodedata.name(char, "?").split(" ", 1)[0]
            scripts[script] = scripts.get(script, 0) + 1
    return 1 in scripts.values()


class Rereader:
    """The second rule for many texts: each word's scripts looked up once (a bounded cache).

    Not thread-safe: it belongs to one ``MojibakeFinder``.

    >>> reread = Rereader()
    >>> decoded, layer, encoding = reread.reread_whole("Ð£Ð»Ð¸Ñ†Ð°")
    >>> decoded, layer.text, encoding
    ('Улица', 'utf-8 read as windows-1252', 'sloppy-windows-1252')
    >>> reread.reread_whole("l’Église")   # macintosh would give "lՃglise": two scripts
    ('l’Église', None, '')
    """

    __slots__ = ("_mixed", "_size")

    def __init__(self, size: int = 100_000) -> None:
        self._size = size
        self._mixed: dict[str, bool] = {}

    def reread_whole(self, text: str) -> tuple[str, Layer | None, str]:
        """The text re-read, the misreading undone and ftfy's encoding; ``(text, None, "")``.

        All of ``text``, encoded as one of ftfy's encodings, must be valid UTF-8 with at least
        two multi-byte sequences (one, in a text that also has ASCII letters), and the result
        must have no word that mixes scripts.
        """
        first = _NON_ASCII.search(text)
        leads = _LEAD_IN.get(first.group(), ()) if first else ()
        for encoding in leads:
            try:
                raw = text.encode(encoding)
                decoded = raw.decode("utf-8")
            except UnicodeError:
                continue
            sequences = len(decoded) - ascii_byte_count(raw)
            if (sequences >= 2 or (sequences == 1 and _ASCII_LETTER.search(text))) and \
                    not self.mixes_scripts(decoded) and not _unlike_text(decoded) and \
                    (sequences > _FEW or self._plausible(text, decoded)):
                return decoded, UTF8_READ_AS[read_as_name(encoding, text)], encoding
        return text, None, ""

    @staticmethod
    def _plausible(text: str, decoded: str) -> bool:
        """A re-read of a few sequences is weighed (``plausible``): it must be clearly better,
        and a word of Latin capitals it changes must also look damaged to ``is_bad``."""
        return not implausible_repair(text, decoded, words_checked=True) and \
            not (capitals_reread(text, decoded) and not is_bad(text))

    def cached(self) -> int:
        """How many words the cache holds."""
        return len(self._mixed)

    def mixes_scripts(self, text: str) -> bool:
        """Whether a word of ``text`` mixes scripts (``_mixes_scripts``, once per word)."""
        mixed = self._mixed
        for word in _LETTERS.findall(text):
            if word.isascii():
                continue
            found = mixed.get(word)
            if found is None:
                if len(mixed) >= self._size:
                    mixed.clear()
                found = mixes_scripts(word)
                if len(word) <= _LONGEST_CACHED:
                    mixed[word] = found
            if found:
                return True
        return False
