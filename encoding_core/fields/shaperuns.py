"""The shapes of damaged text (``prefilter.SHAPES``) as one compiled regular expression.

Design. ``prefilter.damage_spans`` finds the shapes leftmost, longest, not overlapping, with a
Python loop per candidate character (about 1 us each: most of a damaged value's spans, 20 us
for 35 characters of misread Cyrillic). The same answer, with the touching spans joined, comes
from one ``finditer`` in C when the text is first translated character for character
(``str.translate``: positions are kept) into a small alphabet: each character a shape holds
becomes the one character that stands for its *roles* (for each position 0-3, the shapes it can
stand in there), every other character a NUL. Over that alphabet each shape is a short sequence
of small classes, and the pattern is

    (?:[firsts of group 1](?:rest|rest|...)|[firsts of group 2](?:...)|...)+

where a group holds the characters that can start the same shapes (the groups, ten at a time,
behind a look-ahead at their first characters: a position tries about 20 classes, not 91),
and a group's rests are tried longest first: at each position Python's ``re`` takes the
first alternative that matches, so the longest shape, as ``damage_spans`` does; the ``+``
goes on from its end, so a run of touching shapes is one match (``merge_spans``), and a
position no shape starts at is skipped as ``damage_spans`` skips it. Before the groups, a
look-ahead asks for a one-character shape or a first and a second character of a longer one.
``tests/fields/test_shaperuns.py`` checks the two agree.

The role characters are ASCII letters, digits and U+00A1-U+00FF (no escapes: the pattern is
built and compiled in about 0.06 s, once, on first use), so every class is a 256-bit map.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Sequence

__all__ = ["ShapeRuns", "char_class"]

# The characters that stand for roles: none is special in a pattern or inside a class
_ROLE_CHARS = ("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
               + "".join(map(chr, range(0xA1, 0x100))))


def char_class(chars: Iterable[str], re2: bool = False) -> str:
    """A character class for ``chars`` with every code point escaped (valid in re and RE2),
    runs of consecutive code points joined as ranges."""
    points = sorted(set(map(ord, chars)))
    parts: list[str] = []

    def esc(cp: int) -> str:
        return f"\\x{{{cp:X}}}" if re2 else f"\\U{cp:08X}"

    start = prev = points[0]
    for cp in [*points[1:], -1]:
        if cp == prev + 1:
            prev = cp
            continue
        parts.append(esc(start) if start == prev else f"{esc(start)}-{esc(prev)}")
        start = prev = cp
    return "[" + "".join(parts) + "]"


def _build(shapes: Sequence[tuple[str, ...]]) -> tuple[dict[int, str], str]:
    """The translation table (every character U+0000-U+00FF in it: one a text holds that is
    not a role character is a NUL) and the pattern over role characters."""
    roles: dict[str, tuple[set[int], ...]] = {}
    for number, shape in enumerate(shapes):
        for position, chars in enumerate(shape):
            for char in chars:
                roles.setdefault(char, (set(), set(), set(), set()))[position].add(number)
    by_roles: dict[tuple[frozenset[int], ...], list[str]] = {}
    for char, sets in roles.items():
        by_roles.setdefault(tuple(map(frozenset, sets)), []).append(char)
    if len(by_roles) > len(_ROLE_CHARS):
        raise ValueError(f"{len(by_roles)} roles, {len(_ROLE_CHARS)} characters to stand for them")
    role_char = {key: _ROLE_CHARS[n] for n, key in enumerate(by_roles)}
    table = dict.fromkeys(range(256), "\x00")
    for key, held in by_roles.items():
        table.update((ord(char), role_char[key]) for char in held)
    # shape, position -> the class of role characters that can stand there
    at: list[list[set[str]]] = [[set() for _ in shape] for shape in shapes]
    for key, char in role_char.items():
        for position, numbers in enumerate(key):
            for number in numbers:
                at[number][position].add(char)
    classes = [[char_class(chars) for chars in shape] for shape in at]
    groups: dict[tuple[str, ...], list[str]] = {}
    for key, char in role_char.items():
        if key[0]:
            rests = sorted({"".join(classes[number][1:]) for number in key[0]},
                           key=lambda rest: (-rest.count("["), rest))   # longest first
            groups.setdefault(tuple(rests), []).append(char)
    branches = [char_class(set(chars)) + ("" if rests == ("",) else f"(?:{'|'.join(rests)})")
                for rests, chars in groups.items()]
    # a necessary condition first, two class tests: a one-character shape, or a first and a
    # second character of a longer one (most characters of clean Cyrillic or Greek start a
    # shape, few go on with one: the branches are not tried there)
    alone = {char for key, char in role_char.items() if any(len(shapes[n]) == 1 for n in key[0])}
    firsts = {char for key, char in role_char.items() if any(len(shapes[n]) > 1 for n in key[0])}
    seconds = set().union(*(at[n][1] for n in range(len(shapes)) if len(shapes[n]) > 1))
    ahead = "|".join([*([char_class(alone)] if alone else []),
                      *([char_class(firsts) + char_class(seconds)] if firsts else [])])
    # the groups' first characters are disjoint: ten groups behind one class test, so a
    # position tries about 20 classes, not one per group (91); the same answer
    items, step = list(groups.values()), _GROUPS_PER_TEST
    tens = [f"(?={char_class({c for chars in items[at:at + step] for c in chars})})"
            f"(?:{'|'.join(branches[at:at + step])})" for at in range(0, len(branches), step)]
    return table, f"(?:(?={ahead})(?:{'|'.join(tens)}))+"


_GROUPS_PER_TEST = 10


class ShapeRuns:
    """The runs of touching shapes in a text: ``merge_spans(damage_spans(text))``, in C.

    Compiled on first use (thread-safe), then shared: it holds nothing of the texts.
    """

    __slots__ = ("_lock", "_pattern", "_shapes", "_table")

    def __init__(self, shapes: Sequence[tuple[str, ...]]) -> None:
        self._shapes = shapes
        self._lock = threading.Lock()
        self._table: dict[int, str] | None = None
        self._pattern: re.Pattern[str] | None = None

    def _compiled(self) -> tuple[dict[int, str], re.Pattern[str]]:
        with self._lock:
            if self._table is None or self._pattern is None:
                table, pattern = _build(self._shapes)
                self._table = table   # (set first: a reader that sees the pattern sees it)
                self._pattern = re.compile(pattern)
            return self._table, self._pattern

    def spans(self, text: str) -> tuple[tuple[int, int], ...]:
        """The shapes of ``text``, leftmost, longest, with the touching ones joined."""
        table, pattern = (self._table, self._pattern) if self._pattern else self._compiled()
        assert table is not None
        return tuple(map(re.Match.span, pattern.finditer(text.translate(table))))

    def any(self, text: str) -> bool:
        """Whether ``text`` holds a shape."""
        table, pattern = (self._table, self._pattern) if self._pattern else self._compiled()
        assert table is not None
        return pattern.search(text.translate(table)) is not None
