"""Whether a proposed repair is clearly better than the text: the finder's last word.

Design. Two clean characters whose windows-125x bytes happen to form a valid UTF-8 pair (a
capital from C2-DF, then a symbol or letter from 80-BF: ``VÝŠE`` is DD 8A in windows-1250,
``PROVÉ°`` is C9 B0 in windows-1252) "repair" into something no writer meant: a letter of no
alphabet in use (``DĹŽKY`` -> ``DŎKY``, ``PROVÉ°`` -> ``PROVɰ``), a lone combining mark of
another script (``MŮŽEME`` -> ``M\u064eEME``), a lower-case letter inside a capitalised word
(``NASPÄŤ`` -> ``NASPč``), punctuation inside a word (``zvlášť`` -> ``zvl᚝``), a private-use or
unassigned code point. ftfy's ``is_bad`` weighs the *text* (what commonly follows what); this
weighs the *repair*: a repair is offered only when every character it makes is one some CLDR
locale writes (``_cldr_letters``, generated) or a common symbol, every mark it makes sits on a
letter of its own script, and no capitalised word gains a lower-case letter.

``quoted_on_purpose`` is the other way a clean text looks damaged: prose about mojibake
(``"Ã©" instead of "é"``, ``medicină → medicinÄƒ``) shows the damage beside what it should be,
or quotes a bare sequence (`` `Ã©` ``). Its repair makes no word the text does not already have.

Which way it errs: towards leaving text alone. A repair it refuses is one an analyst would have
had to undo; real mojibake that repairs only into rare letters is missed (README, Known
problems).
"""

from __future__ import annotations

import functools
import re
import unicodedata

from ._cldr_letters import CLDR_LETTERS

__all__ = ["capitals_reread", "implausible_repair", "mixes_scripts", "quoted_on_purpose"]

# Symbols real text holds beside any script: Latin-1's, general punctuation, currency,
# letterlike (™ №), number forms, arrows, mathematical operators, box drawing, blocks and
# geometric shapes, dingbats (and anything from U+2E80 on: CJK, kana, Hangul, emoji)
_COMMON_SYMBOLS = re.compile("[\u00a0-\u00bf\u00d7\u00f7\u02c6-\u02dd\u2000-\u2bff]")
# the combining marks of the CLDR letters, decomposed (Vietnamese tones written apart: U+0300)
_CLDR_MARKS = frozenset(mark for letter in CLDR_LETTERS
                        for mark in unicodedata.normalize("NFD", letter)
                        if unicodedata.combining(mark))
_QUOTES = "\"'`«»„“”‘’‚‹›"
_TOKEN = re.compile(r"\S+")
_STRIPPED = _QUOTES + ".,;:!?()[]"
# how prose shows one form beside another: quotes, an arrow (not "José and JosÃ©": a field
# joined from two sources, one of them damaged)
_SHOWN = re.compile("[\"'`«»„“”‘’‚‹›→⇒]|->|=>")


# Japanese writes one word in kanji, kana and the prolonged sound mark
_SAME_SCRIPT = {"HIRAGANA": "CJK", "KATAKANA": "CJK", "KATAKANA-HIRAGANA": "CJK"}
_LETTERS = re.compile(r"[^\W\d_]+")   # a word


def mixes_scripts(word: str) -> bool:
    """True when a word's letters come from more than one script (by Unicode character name)."""
    if max(word) < "\u0250":   # ASCII, Latin-1 Supplement, Latin Extended-A and -B
        return False
    scripts = set()
    for char in word:
        if char < "\u0250":   # ASCII, Latin-1 Supplement, Latin Extended-A and -B
            scripts.add("LATIN")
            continue
        script = unicodedata.name(char, "?").split(" ", 1)[0]
        scripts.add(_SAME_SCRIPT.get(script, script))
    return len(scripts) > 1


def capitals_reread(text: str, repaired: str) -> bool:
    """True when a word of Latin capitals (``DĹŽKA``, ``PÄŤ``: two upper-case letters whose
    windows-1250 bytes are a UTF-8 pair) is not a word of ``repaired``: the re-read asks
    ``is_bad`` first, which knows the pairs real capitals' mojibake makes (``VOCÃŠ``). Cyrillic
    capitals are left to the re-read (``ШЁЩЉШЄ`` is Arabic read as windows-1251), and so is a
    word of two scripts (``LUГЌS``).

    >>> capitals_reread("DĹŽKA", "DŮKA"), capitals_reread("JosÃ©", "José")
    (True, False)
    """
    capitals = [word for token in _TOKEN.findall(text) if token.isupper()
                and not token.isascii() and len(word := token.strip(_STRIPPED)) > 2
                and word.isalpha() and word.isupper() and max(word) < "\u0250"]
    return bool(capitals) and not set(capitals) <= _words(repaired)


def _script(char: str) -> str:
    return unicodedata.name(char, "?").split(" ", 1)[0]


_OK, _BAD, _MARK, _PUNCT = range(4)
# characters known to be fine anywhere (ASCII, and each _OK one once seen; bounded)
_PLAIN = set(map(chr, range(128)))


@functools.lru_cache(maxsize=4096)
def _kind_of(char: str) -> int:
    """What a character the repair made is, alone: fine, bad, a mark or a script's punctuation
    (the last two depend on their neighbours)."""
    category = unicodedata.category(char)
    if category in ("Co", "Cn", "Cs", "Cc"):
        return _BAD
    if char >= "\u2e80":
        return _OK
    if category[0] in "LM" and char >= "\u0800" and not "\u1e00" <= char <= "\u1eff":
        # (beyond two-byte UTF-8, which is what a capital and a symbol make, CLDR's names are
        # not all of an alphabet's letters: Bengali ঢ is in none; scripts are checked by word.
        # Latin Extended Additional is checked: zvlášť in iso-8859-2 would be zvlṻ)
        return _OK
    if category[0] in "LM":
        if char not in CLDR_LETTERS and char not in _CLDR_MARKS:
            return _BAD
        return _MARK if category[0] == "M" else _OK
    if category[0] not in "PS" or _COMMON_SYMBOLS.match(char):
        return _OK
    return _PUNCT


def _bad_new_chars(new: set[str], repaired: str) -> str | None:
    """The first of ``new`` (characters the repair made) that real text hardly holds (see the
    module docstring), or None. Each kind is checked in one pass over ``repaired``, whatever
    the number of new characters: a pass a character made a cell of a few hundred scripts'
    punctuation and 160,000 characters take 7-9 s (``tests/fields/test_plausible.py``)."""
    marks = {char for char in new if _kind_of(char) == _MARK}
    bad_marks = _misplaced_marks(marks, repaired) if marks else set()
    scripts: set[str] | None = None   # the scripts of ``repaired``'s letters, when asked
    for char in new:
        kind = _kind_of(char)
        if kind == _MARK:   # every one of them must sit on a letter of its own script
            if char in bad_marks:
                return char
        elif kind == _PUNCT:   # punctuation of a script (Hebrew ״, Arabic ،) with letters of it
            if scripts is None:
                scripts = {_script(c) for c in set(repaired) if c > "\u024f" and c.isalpha()}
            if _script(char) not in scripts:
                return char
        elif kind == _BAD:
            return char
    return None


def _misplaced_marks(marks: set[str], repaired: str) -> set[str]:
    """The ``marks`` found somewhere in ``repaired`` not on a letter of their own script."""
    found: set[str] = set()
    scripts = {mark: _script(mark) for mark in marks}
    pattern = re.compile("[" + "".join(map(re.escape, sorted(marks))) + "]")
    for match in pattern.finditer(repaired):
        at, char = match.start(), match.group()
        if char in found:
            continue
        script = scripts[char]
        base = repaired[at - 1] if at else " "
        if not base.isalpha() or (script != "COMBINING" and _script(base) != script):
            found.add(char)
    return found


def implausible_repair(text: str, repaired: str, *, words_checked: bool = False) -> bool:
    """True when ``repaired`` is not clearly better than ``text`` (see the module docstring);
    ``words_checked``: the caller has made sure no word of ``repaired`` mixes scripts.

    >>> implausible_repair("JosÃ©", "José"), implausible_repair("PROVÉ° 3", "PROVɰ 3")
    (False, True)
    >>> implausible_repair("NASPÄŤ", "NASPč"), implausible_repair("SÃ£O", "SãO")
    (True, False)
    """
    new = set(repaired).difference(text)
    unknown = new.difference(_PLAIN)
    if _bad_new_chars(unknown, repaired) is not None:
        return True
    for char in unknown:
        if _kind_of(char) == _OK and len(_PLAIN) < 20_000:
            _PLAIN.add(char)
    if not words_checked:   # a letter of another script inside a word (the re-read asks first)
        for word in _LETTERS.findall(repaired):
            if not new.isdisjoint(word) and mixes_scripts(word):
                return True
    # a capitalised word that gains a lower-case letter (ß has no capital)
    lower = {char for char in new if char.islower() and len(char.upper()) == 1}
    if lower and not repaired.islower():
        capitals = 0
        for char in repaired:
            if capitals >= 2 and char in lower:
                return True
            capitals = capitals + 1 if char.isupper() else 0
    return False


def _words(text: str) -> set[str]:
    return {token.strip(_STRIPPED) for token in _TOKEN.findall(text)}


def quoted_on_purpose(text: str, repaired: str, spans: tuple[tuple[int, int], ...]) -> bool:
    """True when ``text`` shows mojibake on purpose: it quotes or points (→) and its repair
    makes no word the text lacks, or every damaged span stands alone between quotes
    (`` `Ã©` ``, ``„Ã©“``, ``« Ã© »``).

    >>> quoted_on_purpose("medicină → medicinÄƒ", "medicină → medicină", ((15, 17),))
    True
    >>> quoted_on_purpose("Look for `Ã©`.", "Look for `é`.", ((10, 12),))
    True
    >>> quoted_on_purpose("JosÃ© said", "José said", ((3, 5),))
    False
    """
    if _SHOWN.search(repaired) and _words(repaired) <= _words(text):
        return True
    for start, end in spans:
        before, after = text[max(0, start - 2):start], text[end:end + 2]
        opened = (before[-1:] != "" and before[-1:] in _QUOTES) or before in ("« ", "‹ ")
        closed = (after[:1] != "" and after[:1] in _QUOTES) or after in (" »", " ›")
        if not (opened and closed):
            return False
    return bool(spans)
