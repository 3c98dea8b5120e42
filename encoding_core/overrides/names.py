"""People's names compared as people mean them: one fold for the store and the file validator.

A reviewer is "someone other than the author", so two spellings that a person reads as the
same name must compare equal: ``alice@example.com`` typed with fullwidth letters, a zero-width
space, a Cyrillic ``а``, a trailing dot, a NUL or a right-to-left override is still Alice.
``person_keys`` folds a name to two keys; ``same_person`` is true when two names share one.
The steps:

1. Unicode NFKC (https://www.unicode.org/reports/tr15/): fullwidth and mathematical letters,
   ``＠`` and ligatures become their plain forms;
2. controls (``Cc``: NUL...), format characters (``Cf``: zero-width space, the bidi controls
   LRE/RLE/PDF/LRO/RLO, LRI/RLI/FSI/PDI, LRM/RLM/ALM, the BOM) and every
   ``Default_Ignorable_Code_Point`` (variation selectors, Hangul fillers...) are removed;
3. the UTS #39 skeleton (https://www.unicode.org/reports/tr39/#def-skeleton): NFD, each
   character replaced by its prototype from Unicode's ``confusables.txt``, NFD again
   (Cyrillic ``а`` is ``a``, ``0`` is ``O``, a capital ``I`` is ``l``), and case folding
   (``str.casefold``), in two orders, one key each: case folded first (``ALICE`` is
   ``alice``), and skeleton first (``aIice`` with a capital I is ``alice``: folding the case
   first would have made it ``aiice``);
4. white space collapsed, and white space and dots trimmed at both ends (``alice@example.com.``
   is a DNS-style absolute name of the same address).

It errs towards "the same person": the skeleton also equates ``rn`` with ``m`` and ``l`` with
``1``, so two different people whose names differ only so cannot review each other's
entries (they can still both review anyone else's). The other way, two spellings people read
as one name and that still differ here, is a bypass; the tests list the spellings checked.

Differences from UTS #39:

- step 1: UTS #39 starts the skeleton from the string as given; here NFKC comes first, so
  compatibility forms (fullwidth letters, ``＠``) fold even where ``confusables.txt`` has no
  row for them;
- step 3: the skeleton is case-sensitive (``A`` and ``a`` differ); here it is case-folded,
  since e-mail addresses and names compare without case, and two keys are kept because no
  single order of folding and skeleton catches both ``ALICE`` and ``aIice``;
- step 4: UTS #39 trims nothing; here dots and white space at either end are dropped.

The data is ``confusables.txt`` version 13.0.0, copied into ``conformance/unicode-confusables``
with its licence and generated into ``_confusables.py`` (``scripts/gen_confusables.py``).
"""

from __future__ import annotations

import unicodedata
from functools import cache

__all__ = ["person_keys", "same_person"]

# DerivedCoreProperties.txt, Default_Ignorable_Code_Point (stable since Unicode 6.0; Python's
# unicodedata has no such property, so the ranges are written out here).
_DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


def _ignorable(ch: str) -> bool:
    if unicodedata.category(ch) in ("Cc", "Cf"):
        return not ch.isspace()  # tab and newline are white space, collapsed in step 5
    point = ord(ch)
    return any(low <= point <= high for low, high in _DEFAULT_IGNORABLE)


@cache
def _prototypes() -> dict[str, str]:
    """confusables.txt as a map from one character to its prototype (loaded on first use)."""
    from ._confusables import PAIRS  # 6,311 rows: only a comparison of names needs them

    table = {}
    for line in PAIRS.splitlines():
        source, *target = line.split()
        table[chr(int(source, 16))] = "".join(chr(int(t, 16)) for t in target)
    return table


def _skeleton(text: str) -> str:
    """UTS #39 skeleton (https://www.unicode.org/reports/tr39/#def-skeleton) of ``text``."""
    table = _prototypes()
    mapped = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def person_keys(name: str) -> tuple[str, str]:
    """The two keys of one person's name (see the module docstring); "" when nothing is left.

    Keys are for comparing, not for showing (the skeleton writes ``m`` as ``rn``):

    >>> person_keys(" Ａlice＠Example.com. ") == person_keys("alice@example.com")
    True
    >>> person_keys("\u0430lice@example.com")[0] == person_keys("alice@example.com")[0]
    True
    >>> person_keys("aIice@example.com")[1] == person_keys("alice@example.com")[1]
    True
    """
    text = unicodedata.normalize("NFKC", name)
    text = "".join(ch for ch in text if not _ignorable(ch))
    case_first = _skeleton(text.casefold()).casefold()
    skeleton_first = _skeleton(text).casefold()
    return (" ".join(case_first.split()).strip(" ."),
            " ".join(skeleton_first.split()).strip(" ."))


def same_person(a: str | None, b: str | None) -> bool:
    """True when both names are given and share a key (``person_keys``).

    >>> same_person("alice@example.com", "ALICE@example.com.")
    True
    >>> same_person("alice@example.com", "alicia@example.com")
    False
    """
    if a is None or b is None:
        return False
    keys_a, keys_b = person_keys(a), person_keys(b)
    return bool(keys_a[0]) and (keys_a[0] == keys_b[0] or keys_a[1] == keys_b[1])
