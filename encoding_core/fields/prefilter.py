"""The prefilter in front of ``find_mojibake``: what damaged text can look like, cheaply.

Design. UTF-8 read as a single-byte encoding leaves a *shape*: a lead byte followed by the right
number of continuation bytes, each shown as the character that encoding gives that byte (``Ã©``
is C3 A9 in windows-1252). The shapes are generated from ftfy's own list of encodings
(``ftfy.chardata.CHARMAP_ENCODINGS``), with the variants ftfy repairs (a no-break space turned
into a space: its ``ALTERED_UTF8_RE``; a continuation byte lost to ``?``: its
``LOSSY_UTF8_RE``), and any C1 control or U+FFFD alone. Lost letters leave a ``?`` inside a
word of a token that is not a URL or code.

Three forms of the same test, which must agree (``tests/fields/test_prefilter.py`` checks it):

* ``damage_spans`` (Python): a one-class regular expression finds where a shape may start
  (Python's ``re`` only skips ahead fast on a leading character class), then bit masks per
  position check the whole shape;
* ``PREFILTER_RE2`` (RE2, for ``pyarrow.compute.match_substring_regex``): every shape as an
  alternative, so a whole column is filtered in one vectorised call; it matches a superset of
  ``might_be_damaged`` (``\\pL`` and ``\\pN`` around a ``?``; more characters count as space);
* ``might_be_damaged``: the predicate; False means ``find_mojibake`` returns None.

``SpanCache`` gives ``damage_spans`` with the touching spans joined, for the finder, from one
compiled pattern over the text translated into the shapes' roles (``shaperuns``: 2-3x the
loop's speed on misread Cyrillic or Greek, where nearly every character starts a shape);
``damage_spans`` stays the reference it is tested against.

Which way it errs: towards passing text on. A shape in clean text costs a closer look
(``find_mojibake`` then decides), never a finding by itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ftfy.chardata import CHARMAP_ENCODINGS

from .shaperuns import ShapeRuns, char_class

__all__ = ["PREFILTER_RE2", "SHAPES", "SpanCache", "damage_spans", "has_candidates",
           "merge_spans", "might_be_damaged", "question_marks", "re2_shapes_pattern"]


def _shapes(encoding: str) -> list[tuple[str, ...]]:
    """The character-class sequences UTF-8 takes when read as ``encoding`` (ftfy's codec)."""
    def chars(*ranges: tuple[int, int]) -> str:
        return b"".join(bytes(range(lo, hi + 1)) for lo, hi in ranges).decode(encoding)

    lead2, lead3, lead4 = chars((0xC2, 0xDF)), chars((0xE0, 0xEF)), chars((0xF0, 0xF4))
    cont = chars((0x80, 0xBF))
    return [
        (lead2, cont), (lead3, cont, cont), (lead4, cont, cont, cont),   # intact sequences
        # A0 turned into a space: ftfy's ALTERED_UTF8_RE, which restore_byte_a0 repairs
        (chars((0xC2, 0xC3), (0xC5, 0xC5), (0xCE, 0xCE), (0xD0, 0xD0), (0xD9, 0xD9)), " "),
        (chars((0xE2, 0xE3)), " ", cont), (chars((0xE0, 0xE3)), cont, " "),
        (chars((0xF0, 0xF0)), " ", cont, cont), (chars((0xF0, 0xF0)), cont, " ", cont),
        (chars((0xF0, 0xF0)), cont, cont, " "),
        # a continuation byte lost to "?": ftfy's LOSSY_UTF8_RE, which replace_lossy_sequences uses
        (chars((0xC2, 0xC3)), "?"), (lead3, "?", cont), (lead3, cont, "?"),
        (lead4, "?", cont, cont), (lead4, cont, "?", cont), (lead4, cont, cont, "?"),
    ]


# C1 controls (windows-1252 read as iso-8859-1, or UTF-8 read as iso-8859-1) and U+FFFD
_LONE = "".join(map(chr, range(0x80, 0xA0))) + "\ufffd"
SHAPES = sorted({shape for encoding in CHARMAP_ENCODINGS for shape in _shapes(encoding)}
                 | {(_LONE,)})


def _shape_masks() -> tuple[list[dict[str, int]], list[int]]:
    """For each position in a shape, which shapes (bits) each character can stand in."""
    masks: list[dict[str, int]] = [{}, {}, {}, {}]
    by_length = [0, 0, 0, 0]   # index: length - 1
    for bit, shape in enumerate(SHAPES):
        by_length[len(shape) - 1] |= 1 << bit
        for position, chars in enumerate(shape):
            for char in chars:
                masks[position][char] = masks[position].get(char, 0) | 1 << bit
    return masks, by_length


_MASKS, _LENGTH_BITS = _shape_masks()


def _candidates_pattern() -> str:
    """Where a shape may start: a first character followed by a second of the same shape."""
    firsts_by_second: dict[str, set[str]] = {}
    for shape in SHAPES:
        if len(shape) > 1:
            firsts_by_second.setdefault(shape[1], set()).update(shape[0])
    firsts = "".join("".join(chars) for chars in firsts_by_second.values())
    pairs = [f"(?<={char_class(''.join(chars), False)})(?={char_class(second, False)})"
             for second, chars in sorted(firsts_by_second.items())]
    # Python's re skips ahead fast only when a pattern starts with one character class: take
    # any first character, then look back at it and ahead at the next one.
    return (f"{char_class(firsts + _LONE, False)}"
            f"(?:(?<={char_class(_LONE, False)})|{'|'.join(pairs)})")


_CANDIDATES = re.compile(_candidates_pattern())


def has_candidates(text: str) -> bool:
    """A cheap necessary condition for a shape: a first character with a plausible second."""
    return _CANDIDATES.search(text) is not None


def damage_spans(text: str) -> list[tuple[int, int]]:
    """The shapes in ``text`` (leftmost, longest, not overlapping), as character spans."""
    spans: list[tuple[int, int]] = []
    masks, lengths, end, size = _MASKS, _LENGTH_BITS, 0, len(text)
    for match in _CANDIDATES.finditer(text):
        start = match.start()
        if start < end:
            continue
        bits = masks[0].get(text[start], 0)
        length = 1 if bits & lengths[0] else 0
        position, stop = 1, min(4, size - start)
        while position < stop:
            bits &= masks[position].get(text[start + position], 0)
            if not bits:
                break
            position += 1
            if bits & lengths[position - 1]:
                length = position
        if length:
            end = start + length
            spans.append((start, end))
    return spans


def merge_spans(spans: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Spans sorted, with the overlapping and touching ones joined.

    >>> merge_spans([(5, 7), (0, 2), (2, 3), (6, 9)])
    ((0, 3), (5, 9))
    """
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return tuple(merged)


_RUNS = ShapeRuns(SHAPES)


class SpanCache:
    """``damage_spans`` of many texts with the touching spans joined, as a scan asks for them.

    It once cached the spans of each piece of text (runs of characters a shape holds); one
    compiled pattern (``shaperuns``) now finds them faster than a cache is looked up, so it
    holds nothing: ``size`` is kept for its callers.

    >>> cache = SpanCache()
    >>> cache.spans("JosÃ© GarcÃ­a"), cache.spans("Ana Ã© Ã©Ã©"), cache.spans("Ana")
    (((3, 5), (10, 12)), ((4, 6), (7, 11)), ())
    """

    __slots__ = ("_size",)

    def __init__(self, size: int = 100_000) -> None:
        self._size = size

    def spans(self, text: str) -> tuple[tuple[int, int], ...]:
        """``damage_spans(text)`` with the touching spans joined."""
        return _RUNS.spans(text)

    def any(self, text: str) -> bool:
        """``bool(damage_spans(text))``."""
        # (the candidates' pattern skips ahead faster, and text with none is the common case)
        return _CANDIDATES.search(text) is not None and _RUNS.any(text)


def re2_shapes_pattern() -> str:
    return "|".join(sorted({"".join(char_class(s, True) for s in shape) for shape in SHAPES}))


# RE2's \s is ASCII only: add every character Python's str.isspace() accepts
_RE2_SPACE = r"\s\p{Z}\x{0b}\x{1c}-\x{1f}\x{85}"
_RE2_TOKEN = rf"[^{_RE2_SPACE}=&/:#%@\\]*"

#: The prefilter for RE2 (``pyarrow.compute.match_substring_regex``): every shape, and a token
#: without URL characters that has a ``?`` between letters or digits. It matches a superset of
#: what ``might_be_damaged`` accepts.
PREFILTER_RE2 = (f"{re2_shapes_pattern()}|(?:^|[{_RE2_SPACE}]){_RE2_TOKEN}[\\pL\\pN]\\?+[\\pL\\pN]"
                 f"{_RE2_TOKEN}(?:$|[{_RE2_SPACE}])")


def might_be_damaged(text: str) -> bool:
    """The prefilter: False means ``find_mojibake(text)`` is certainly ``None``.

    >>> might_be_damaged("NÃO"), might_be_damaged("JosÃ©"), might_be_damaged("Why?")
    (False, True, False)
    """
    if not text.isascii() and damage_spans(text):
        return True
    return "?" in text and bool(question_marks(text))


# --- "?" where a letter was ------------------------------------------------------------------

_TOKEN = re.compile(r"\S+")
_URLISH = frozenset("=&/:#%@\\")                               # URLs, e-mail, paths, code
# A letter beside a "?" that may stand for a lost one; not CJK, kana, Hangul or their
# full- and half-width forms, which write "?" straight after a word (ドコ?o, ｱﾚ?ｱﾚ)
_LETTER = "[^\\W\\d_\u2e80-\ua4cf\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\U00020000-\U0003ffff]"
_QMARK_INNER = re.compile(rf"(?<={_LETTER})\?+(?={_LETTER})")      # Garc?a
_QMARK_START = re.compile(r"^\?+(?=[^\W\d_]{2})")               # ?lvaro
_QMARK_END = re.compile(r"(?<=[^\W\d_])\?+$")                   # Jos? ...
_NEXT_WORD = re.compile(r"\s+[^\W\d_]")                          # ... before another word


def question_marks(text: str) -> list[tuple[int, int]]:
    """``?`` where a letter was: inside a word, then (once seen) at word starts and ends."""
    tokens = [t for t in _TOKEN.finditer(text)
              if "?" in t.group() and _URLISH.isdisjoint(t.group())]
    inner = [(t.start() + m.start(), t.start() + m.end())
             for t in tokens for m in _QMARK_INNER.finditer(t.group())]
    if not inner:
        return []
    edges = [(t.start() + m.start(), t.start() + m.end()) for t in tokens
             for m in (_QMARK_START.search(t.group()), _QMARK_END.search(t.group())) if m and (
                 m.start() == 0 or _NEXT_WORD.match(text, t.end()))]
    return inner + edges
