"""Hex views of bytes, as data: rows of offsets, hex cells and a printable column.

Nothing here prints (unlike ftfy's ``explain_unicode``); the pages render the rows.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["HexRow", "byte_rows", "format_rows"]


@dataclass(frozen=True, slots=True)
class HexRow:
    """One row: its offset, its bytes, and which of them are highlighted."""

    offset: int
    data: bytes
    highlighted: tuple[bool, ...]

    @property
    def hex(self) -> str:
        """The bytes as hex pairs, highlighted ones in brackets."""
        return " ".join(f"[{b:02X}]" if h else f" {b:02X} " for b, h in
                        zip(self.data, self.highlighted, strict=True)).rstrip()

    @property
    def printable(self) -> str:
        """ASCII graphic bytes as themselves, anything else as a dot."""
        return "".join(chr(b) if 0x20 <= b < 0x7F else "." for b in self.data)


def byte_rows(data: bytes, *, width: int = 16, highlight: Iterable[tuple[int, int]] = (),
              start: int = 0, end: int | None = None) -> tuple[HexRow, ...]:
    """Rows of ``width`` bytes covering ``data[start:end]``, aligned to ``width``.

    ``highlight`` holds half-open byte ranges (offsets into ``data``).

    >>> [r.hex for r in byte_rows(b"caf\\xc3\\xa9", highlight=[(3, 5)])]
    [' 63   61   66  [C3] [A9]']
    """
    if width <= 0:
        raise ValueError("width must be positive")
    end = len(data) if end is None else min(end, len(data))
    start = max(0, start) - max(0, start) % width
    marks = [(max(a, start), min(b, end)) for a, b in highlight]
    rows = []
    for offset in range(start, end, width):
        chunk = data[offset : min(offset + width, end)]
        flags = tuple(any(a <= offset + i < b for a, b in marks) for i in range(len(chunk)))
        rows.append(HexRow(offset, chunk, flags))
    return tuple(rows)


def format_rows(rows: Iterable[HexRow], *, width: int = 16) -> str:
    """Rows as the classic three-column text: offset, hex (highlights in brackets), printable.

    >>> format_rows(byte_rows(b"hi\\n"), width=4)
    '00000000   68   69   0A        |hi.|'
    """
    return "\n".join(f"{row.offset:08X}  {row.hex.ljust(width * 5 - 1)}  |{row.printable}|"
                     for row in rows)
