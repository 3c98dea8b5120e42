"""``Offsets``: where a replacement-mode decode met each malformed sequence, compact and read-only.

The decoders collect the offsets in an ``array.array`` of 4-byte unsigned ints (a tuple of
Python ints costs 36 bytes an offset, and a page switching between UTF-8 and windows-1252
every few bytes has one per 5 bytes: issue 28). ``Offsets`` hands that array out as an
immutable sequence: it compares equal to the tuple of the same ints (and hashes alike), and
cannot be changed, so the same answer can be handed out again (the decoders remember their
last call) without one caller's change reaching the next. ``tuple(offsets)`` gives a tuple
(e.g. for JSON).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from typing import overload

__all__ = ["Offsets"]


class Offsets(Sequence[int]):
    """A read-only sequence of ints over an array the decoder filled (and no one else holds).

    >>> found = Offsets(array("I", [0, 4]))
    >>> found == (0, 4), found[1], found[:1], list(found), hash(found) == hash((0, 4))
    (True, 4, (0,), [0, 4], True)
    """

    __slots__ = ("_items",)
    _items: array[int]

    def __init__(self, items: array[int]) -> None:
        object.__setattr__(self, "_items", items)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only")

    @property
    def itemsize(self) -> int:
        """The bytes an offset takes: 4 (8 for data of 4 GiB or more)."""
        return self._items.itemsize

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, index: int) -> int: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[int, ...]: ...

    def __getitem__(self, index: int | slice) -> int | tuple[int, ...]:
        if isinstance(index, slice):
            return tuple(self._items[index])
        return self._items[index]

    def __iter__(self) -> Iterator[int]:
        return iter(self._items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Offsets):
            return self._items == other._items
        if isinstance(other, tuple):
            return len(other) == len(self._items) and all(
                a == b for a, b in zip(self._items, other, strict=True))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self._items))

    def __repr__(self) -> str:
        return f"Offsets({list(self._items)!r})"

    def __reduce__(self) -> tuple[type[Offsets], tuple[array[int]]]:
        return Offsets, (self._items,)
