"""The quick path of ``detect.default_detector``: two independent detectors that agree.

Firefox's detector (chardetng, through chardetng-py) and uchardet (through resiliparse) are
different designs trained on different text. Asked about a short sample of an undeclared
legacy page, when both readings agree, they have been right on every page of the
development corpus; the ensemble (three voters and the plausibility of every sibling
reading, ~2 ms a page) is kept for the pages where they do not, or where a sibling encoding
reads the page differently. Measured on ``bench/corpus.py`` (both splits; bench/README.md):
the quick path answers about nine legacy pages in ten, wrong on none, in a tenth of the
ensemble's time.

Rules; every doubt goes to the ensemble, never to a guess:

1. an answer must decode the whole body strictly (as every answer of ``default_detector``);
2. both answers give the sample the same text: that reading; else an answer whose reading
   has no implausible character (``_plausibility``), when the other answer fails rule 1 or
   reads implausibly, or has no answer: that one (for review when the other's reading is
   nearly as plausible and not a sibling's: a dissent that is itself text; and when the
   other has no answer that decodes the body and the reading has fewer than ``SHORT_TEXT``
   non-ASCII *characters*: a double-byte reading of a few dozen bytes is a dozen
   ideographs, which one detector alone makes of any bytes). With
   chardetng-py or resiliparse not installed there is no quick path (one detector alone
   confirms nothing);
3. the reading itself may have implausible characters, but at most
   ``MAX_IMPLAUSIBLE_RATE / 2`` per non-ASCII character (as the ensemble's first round);
4. a sibling encoding (``SIBLINGS``: windows-1252 and iso-8859-15 ...) that decodes the
   body strictly and reads some of its bytes after the sample differently (both detectors
   saw the sample and chose) is compared on the words holding those bytes: the answer
   stands only when its words read with no implausible character and the sibling's with
   some (``c½ur`` against ``cœur``).

Rule 0 (``one_detector_when_sure``, on by default and in ``decode``'s walk): chardetng is
asked first, and uchardet is not asked when chardetng's answer is *sure*: an encoding of a
non-Latin script (``ONE_DETECTOR_ENCODINGS``), decoding the body strictly, reading the sample
with no implausible character, from at least ``SURE_TEXT`` non-ASCII bytes, more of its
letters small than capital (``_mostly_capitals``), and no sibling reading the body's words
differently and as plausibly: rule 4 on the words after the sample, as when both detectors
agree, and on the body's first words too (no second detector chose over the sample's; from
the start alone it passed ``dev/ru/windows-1251/sparse0``, whose review the ensemble asks
for). Tried in the walk first with ``SHORT_TEXT`` (24) bytes as its floor, it changed no
decision on this project's corpora and 699 of 380,963 pages a newcomer review wrote apart
from them: a Russian table read as Hebrew, Greek and Arabic read as Chinese (a CJK reading
scores as plausible text), all-capital Cyrillic whose Greek reading is nearly as plausible
no longer flagged (``tests/cases/one_detector_confusables.json``). Every wrong reading had
fewer than 100 non-ASCII bytes in its sample (76 at most, on 73,194 of those pages kept);
``SURE_TEXT`` is 128, and the one all-capital page above it that lost its review
(``koi8_u-caps-review``, 147) is what ``_mostly_capitals`` keeps on two detectors. A second
review, 100,443 pages of its own, then found chardetng alone sure and wrong on nine Korean
pages above the floor (euc-jp, gb18030: a double-byte reading of another's bytes is
ideographs either way), so the double-byte encodings always ask both. So built, rule 0
answers 9,341 of the first review's 73,194 pages and changes none of their decisions
(encoding, review, right or wrong), nor any of the corpora's 28,683 (bench/README.md, "Rule
0 in the walk, with a floor").

Latin answers always ask the second detector: chardetng alone reads some windows-1250 pages
as windows-1252, and other Latin pages as windows-1254 or iso-8859-2, with every letter
plausible (on the quick ``bench/corpus.py`` all 62 of its wrong answers were Latin, 33 of
them such readings), and only uchardet's dissent sends them to the ensemble.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib.util import find_spec

from ..whatwg.decoders import SINGLE_BYTE_TABLES, decode_replace, decode_replace_text
from ._ensemble import SHORT_TEXT, non_ascii_count
from ._plausibility import MAX_IMPLAUSIBLE_RATE, implausibility
from ._voters import SIBLING_OF, Vote, chardetng_answer, resiliparse_answer
from .utf8scan import BYTETEST_C as _C

__all__ = ["ONE_DETECTOR_ENCODINGS", "QUICK_DETECTORS_INSTALLED", "QUICK_SAMPLE", "Agreement",
           "agreement"]

#: Both detectors of the quick path can be imported (else the ensemble decides alone).
QUICK_DETECTORS_INSTALLED = all(find_spec(name) is not None
                                for name in ("chardetng_py", "resiliparse"))
#: The quick path's sample: this much from the first non-ASCII line (markup stripped).
QUICK_SAMPLE = 2048
#: Words with a non-ASCII character scored for plausibility in the quick sample.
QUICK_WORDS = 100
#: Words holding a byte two siblings read differently, compared for plausibility (rule 4).
SIBLING_WORDS = 16
#: Rule 0: fewer non-ASCII bytes than this in the sample, and chardetng alone is never sure;
#: nor with fewer distinct ones than ``SURE_LETTERS`` (5,000 bytes of 0xFF read as one Urdu
#: letter, sure, where both detectors ask for review: no alphabet's text is so few letters).
SURE_TEXT = 128
SURE_LETTERS = 10
_ASCII = bytes(range(0x80))
#: Rule 0: chardetng's answers that need no second detector when sure (non-Latin scripts,
#: where a plausible reading in another script's encoding does not happen by chance).
#: Not the double-byte encodings: any of them reads another's bytes as ideographs, which
#: score as plausible text, and chardetng alone read a second review's Korean pages (176-258
#: non-ASCII bytes: products, titles, navigation) as euc-jp and gb18030, sure and wrong,
#: where uchardet's dissent kept euc-kr.
ONE_DETECTOR_ENCODINGS = frozenset({
    "windows-1251", "koi8-r", "koi8-u", "ibm866", "iso-8859-5", "x-mac-cyrillic",
    "windows-1253", "iso-8859-7", "windows-1255", "iso-8859-8", "windows-1256", "iso-8859-6",
    "windows-874"})



@dataclass(frozen=True, slots=True)
class Agreement:
    """The quick path's reading of a sample, and who read it so."""

    encoding: str
    how: str                  # "chardetng and uchardet agree", or who alone read plausibly
    unanimous: bool           # both detectors gave the sample this text
    rate: float               # implausible characters per non-ASCII one in the sample
    votes: tuple[Vote, ...]
    # the other detector's answer decodes the body and reads the sample nearly as plausibly
    # (rule 2's lone reading over a dissent that is itself text), or a lone reading of fewer
    # than ``SHORT_TEXT`` non-ASCII characters (rule 2's short reading): a doubt, for review
    doubt: bool = False


def agreement(data: bytes, part: bytes, strict: Callable[[str], bool], seen: int = 0, *,
              one_detector_when_sure: bool = False) -> Agreement | None:
    """The reading chardetng and uchardet agree on for ``part`` (a sample of ``data``), or None.

    ``strict(encoding)`` says whether ``data`` decodes strictly in ``encoding`` (the caller
    knows whether a character cut short at the very end is allowed, and caches). ``part``
    was taken from ``data[:seen]``; rule 4 looks at the bytes after it.
    ``one_detector_when_sure``: rule 0 (the module docstring), chardetng alone when sure.
    """
    if not QUICK_DETECTORS_INSTALLED:
        return None
    first = chardetng_answer(part, data)
    if one_detector_when_sure and first is not None and _sure(data, part, first, strict, seen):
        return Agreement(first, "chardetng alone, sure (a non-Latin script read plausibly; "
                         "uchardet not asked)", False, 0.0, (("chardetng", first, 0.6),))
    answers = (("chardetng", first), ("uchardet", resiliparse_answer(part, data)))
    votes = tuple((name, answer, 0.6) for name, answer in answers)
    valid = [(name, e) for name, e in answers if e is not None and strict(e)]
    readings = {e: decode_replace(part, e)[0] for _n, e in valid}
    unanimous = len(valid) == 2 and len(set(readings.values())) == 1
    if unanimous:
        encoding, how = valid[0][1], "chardetng and uchardet agree"
        bad, count = implausibility(readings[encoding], QUICK_WORDS)
    else:
        scored = {e: implausibility(text, QUICK_WORDS) for e, text in readings.items()}
        plausible = [(n, e) for n, e in valid if scored[e][0] == 0]
        if len(plausible) != 1:
            return None
        name, encoding = plausible[0]
        bad, count = scored[encoding]
        how = f"{name} alone reads plausibly"
    rate = bad / max(count, 1)
    if rate > MAX_IMPLAUSIBLE_RATE / 2 or not _siblings_agree(data, encoding, strict, seen):
        return None
    if rate and not _siblings_agree(data, encoding, strict, 0):
        return None   # an implausible word in the sample itself that a sibling reads (c½ur)
    siblings = SIBLING_OF.get(encoding, ())   # (a sibling's dissent is rule 4's question)
    dissent = not unanimous and any(
        e != encoding and e not in siblings
        and scored[e][0] / max(scored[e][1], 1) <= MAX_IMPLAUSIBLE_RATE / 2 for _n, e in valid)
    # A double-byte reading holds half as many characters as the sample has non-ASCII bytes:
    # 29 bytes of koi8-r (a Russian word list on an English page) read by chardetng alone as
    # 15 gb18030 ideographs, uchardet with no answer. ``SHORT_TEXT`` counts bytes, so one
    # detector alone on so few characters, the other with no answer that decodes the body,
    # is flagged by their count where its bytes are enough (a single-byte reading's
    # characters are its bytes: nothing changes there). Where the other's answer decodes the
    # body and reads implausibly, the reading beat a rival: counted there too, it flagged
    # 18 of 480 short Shift_JIS pages of real words, right (uchardet's shift_jis against
    # chardetng's windows-1251; ``bench/README.md``, "Never silent on short pages").
    short = (len(valid) == 1 and count < SHORT_TEXT
             and non_ascii_count(part) >= SHORT_TEXT)
    if dissent:
        how += " (the other's reading is nearly as plausible)"
    elif short:
        how += f" (only {count} non-ASCII characters)"
    return Agreement(encoding, how, unanimous, rate, votes, dissent or short)


def _sure(data: bytes, part: bytes, encoding: str, strict: Callable[[str], bool],
          seen: int = 0) -> bool:
    """Rule 0: whether chardetng's ``encoding`` needs no second detector.

    Its siblings are compared on the words after the sample (``seen``), as rule 4 compares
    them when both detectors agree, and on the first words of the body too (no second
    detector chose over the sample's)."""
    if (encoding not in ONE_DETECTOR_ENCODINGS or not strict(encoding)
            or non_ascii_count(part) < SURE_TEXT or _mostly_capitals(part, encoding)
            or len(set(part.translate(None, _ASCII))) < SURE_LETTERS):
        return False
    bad, count = implausibility(decode_replace(part, encoding)[0], QUICK_WORDS)
    return (bad == 0 and count > 0 and _siblings_agree(data, encoding, strict, seen)
            and (not seen or _siblings_agree(data, encoding, strict, 0)))


def _mostly_capitals(part: bytes, encoding: str) -> bool:
    """Whether more of ``part``'s non-ASCII letters are capitals than small letters, in a
    single-byte ``encoding`` (a double-byte one has no case here: False).

    KOI8's capitals are windows-1251's and windows-1253's small letters, and the reverse: an
    all-capital page reads as plausible small letters in another script, the second
    detector's dissent says so, and a review is asked for (``koi8_u-caps-review`` in
    ``tests/cases/one_detector_confusables.json``, 147 non-ASCII bytes).
    """
    cases = _case_bytes(encoding)
    if cases is None:
        return False
    not_capital, not_small = cases
    return len(part.translate(None, not_capital)) > len(part.translate(None, not_small))


@cache
def _case_bytes(encoding: str) -> tuple[bytes, bytes] | None:
    """The bytes that are not a non-ASCII capital letter, and those not a non-ASCII small
    letter, of a single-byte ``encoding`` (for ``bytes.translate``'s delete); None for
    others. (ASCII letters are not counted: an all-capital Cyrillic page under an English
    ``<title>`` has as many small ASCII letters as capital Cyrillic ones.)"""
    table = SINGLE_BYTE_TABLES.get(encoding)
    if table is None:
        return None
    return (bytes(b for b in range(256) if b < 0x80 or not table[b].isupper()),
            bytes(b for b in range(256) if b < 0x80 or not table[b].islower()))


def _siblings_agree(data: bytes, encoding: str, strict: Callable[[str], bool],
                    seen: int = 0) -> bool:
    """Rule 4: no sibling reads the body's words differently and as plausibly.

    Only words from offset ``seen`` on count: both detectors read the bytes before it (the
    sample) and chose ``encoding`` over its siblings.
    """
    for sibling in SIBLING_OF.get(encoding, ()):
        if sibling == encoding:
            continue
        words = _sibling_words(data, encoding, sibling, seen)
        if not words:
            continue
        # the words first (16 of them), the sibling's whole-body decode only when they say
        # it could win (most siblings read them implausibly): the same answer, fewer decodes
        if ((implausibility(decode_replace_text(words, encoding))[0] > 0
                or implausibility(decode_replace_text(words, sibling))[0] == 0)
                and strict(sibling)):
            return False
    return True


_WORD_END = re.compile(rb"[^\s<>]{0,32}")
# A word's start, found backwards: its bytes become "a", the bytes that end a word (``\s`` of
# a bytes pattern, ``<`` and ``>``) a space, and the last space before it is where it starts
# (``rfind``: the regex ``[^\s<>]{0,32}\Z`` it replaces tried each of 32 starts in turn).
_WORD_BOUNDS = bytes(0x20 if b in b" \t\n\r\x0b\x0c<>" else 0x61 for b in range(256))


def _words_at(data: bytes, byte_class: re.Pattern[bytes], seen: int = 0) -> list[bytes]:
    """The first ``SIBLING_WORDS`` words (up to 32 bytes each side) holding a matched byte
    at offset ``seen`` or later.

    Each word's first matched byte is searched for from the end of the word before (a match
    inside a word taken is no new word): a step in Python a word, where going through every
    match (``finditer``) was a step a byte, and two Cyrillic encodings differ in nearly every
    letter (10 us a real-world page for each of windows-1251's five siblings).
    """
    words: list[bytes] = []
    pos = seen
    while len(words) < SIBLING_WORDS:
        match = byte_class.search(data, pos)
        if match is None:
            break
        at = match.start()
        low = max(at - 32, 0)
        start = low + data[low:at].translate(_WORD_BOUNDS).rfind(b" ") + 1
        right = _WORD_END.match(data, at + 1)
        pos = right.end() if right else at + 1   # (never before at + 1: the word's end)
        words.append(data[start:pos])
    return words


def _sibling_words(data: bytes, encoding: str, sibling: str, seen: int) -> bytes:
    """Rule 4's words (``_words_at``) where ``encoding`` and ``sibling`` differ, joined by
    spaces: from the compiled pass where it is built (``_bytetest_c.sibling_words``, held
    equal to ``_words_at`` by ``tests/decision/test_agreement.py``), which finds each word
    with no Python step (rule 4 was a third of an undeclared real-world page's own time)."""
    if _SIBLING_WORDS is not None and type(data) is bytes:
        found: bytes = _SIBLING_WORDS(data, _differing_flags(encoding, sibling), seen,
                                      SIBLING_WORDS)
        return found
    return b" ".join(_words_at(data, _differing(encoding, sibling), seen))


# (None from an extension built before it: the reference answers, as with none built)
_SIBLING_WORDS = getattr(_C, "sibling_words", None)


@cache
def _differing(encoding: str, sibling: str) -> re.Pattern[bytes]:
    """The bytes the two encodings read as different characters (high bytes only: every
    encoding here reads ASCII as ASCII)."""
    apart = [b for b in range(0x80, 0x100)
             if decode_replace(bytes([b]), encoding)[0] != decode_replace(bytes([b]), sibling)[0]]
    if not apart:
        return re.compile(rb"(?!)")   # (none: a pattern that matches nothing)
    return re.compile(b"[" + b"".join(re.escape(bytes([b])) for b in apart) + b"]")


@cache
def _differing_flags(encoding: str, sibling: str) -> bytes:
    """``_differing`` as the compiled pass reads it: 256 bytes, 1 for each byte it matches."""
    pattern = _differing(encoding, sibling)
    return bytes(pattern.fullmatch(bytes([b])) is not None for b in range(256))
