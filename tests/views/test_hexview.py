"""Tests for hex views as data (encoding_core.views.hexview): byte_rows, HexRow, format_rows."""

from __future__ import annotations

import pytest

from encoding_core.views.hexview import HexRow, byte_rows, format_rows

DATA = bytes(range(0x30, 0x30 + 40))  # 40 printable bytes: '0'..'W'


@pytest.mark.parametrize(("width", "start", "end", "offsets", "lengths"), [
    (16, 0, None, [0, 16, 32], [16, 16, 8]),
    (16, 5, 20, [0, 16], [16, 4]),
    (16, 17, None, [16, 32], [16, 8]),
    (8, 9, 10, [8], [2]),
    (4, 38, None, [36], [4]),
    (16, -7, 3, [0], [3]),
    (40, 39, None, [0], [40]),
    (64, 0, None, [0], [40]),
], ids=["whole", "start-mid-row", "start-after-row", "narrow", "last-row", "negative-start",
        "one-row-exact", "wider-than-data"])
def test_rows_align_to_width(width: int, start: int, end: int | None, offsets: list[int],
                             lengths: list[int]) -> None:
    """Rows start at multiples of width, from start rounded down, and stop at end."""
    rows = byte_rows(DATA, width=width, start=start, end=end)
    assert [r.offset for r in rows] == offsets
    assert [len(r.data) for r in rows] == lengths
    assert all(r.data == DATA[r.offset : r.offset + len(r.data)] for r in rows)
    assert all(len(r.highlighted) == len(r.data) for r in rows)


@pytest.mark.parametrize(("highlight", "start", "end", "marked"), [
    ([(3, 5)], 0, None, [3, 4]),
    ([(0, 40)], 16, 32, list(range(16, 32))),
    ([(10, 20)], 16, None, [16, 17, 18, 19]),
    ([(30, 100)], 0, 34, [30, 31, 32, 33]),
    ([(1, 2), (38, 40)], 0, None, [1, 38, 39]),
    ([(50, 60)], 0, None, []),
    ([(5, 5)], 0, None, []),
    ([(20, 10)], 0, None, []),
], ids=["inside", "covers-window", "starts-before-window", "ends-after-window", "two-ranges",
        "past-the-end", "empty-range", "reversed-range"])
def test_highlight_is_clipped_to_the_window(highlight: list[tuple[int, int]], start: int,
                                            end: int | None, marked: list[int]) -> None:
    """Half-open highlight ranges mark exactly the bytes of the window they cover."""
    rows = byte_rows(DATA, highlight=highlight, start=start, end=end)
    got = [r.offset + i for r in rows for i, h in enumerate(r.highlighted) if h]
    assert got == marked


@pytest.mark.parametrize(("data", "start", "end"), [
    (b"", 0, None),
    (b"", 5, 10),
    (DATA, 48, None),
    (DATA, 0, 0),
    (DATA, 20, 10),
], ids=["empty", "empty-with-window", "start-past-end", "end-zero", "end-before-start"])
def test_no_rows(data: bytes, start: int, end: int | None) -> None:
    """Empty input or an empty window gives no rows (and formats as the empty string)."""
    rows = byte_rows(data, start=start, end=end)
    assert rows == ()
    assert format_rows(rows) == ""


def test_end_past_the_data_is_clipped() -> None:
    """An end beyond the data stops at the last byte."""
    rows = byte_rows(b"abc", end=1000)
    assert rows == (HexRow(0, b"abc", (False, False, False)),)


@pytest.mark.parametrize("width", [0, -1, -16], ids=["zero", "minus-one", "minus-sixteen"])
def test_non_positive_width_raises(width: int) -> None:
    """A width of zero or less is a ValueError, even for empty data."""
    with pytest.raises(ValueError, match="width"):
        byte_rows(b"", width=width)


@pytest.mark.parametrize(("data", "printable"), [
    (b"Az09 ~", "Az09 ~"),
    (b"\x00\x1f\x7f\x80\xff", "....."),
    (b"a\nb\tc\r", "a.b.c."),
    (b"caf\xc3\xa9", "caf.."),
], ids=["graphic-and-space", "controls-and-high", "whitespace", "utf8"])
def test_printable_column(data: bytes, printable: str) -> None:
    """ASCII 0x20-0x7E show as themselves, every other byte as a dot."""
    (row,) = byte_rows(data)
    assert row.printable == printable


def test_hex_cells_bracket_highlighted_bytes() -> None:
    """Each byte is a four-character cell, brackets for highlighted ones; no trailing space."""
    row = HexRow(0, b"\x00\xab\xff", (False, True, False))
    assert row.hex == " 00  [AB]  FF"
    assert HexRow(0, b"\xff", (True,)).hex == "[FF]"
    assert HexRow(0, b"", ()).hex == ""


def test_format_full_and_partial_rows() -> None:
    """Offset in 8 hex digits, hex padded to the width, printable column between bars."""
    rows = byte_rows(bytes(range(0x41, 0x41 + 20)), highlight=[(17, 18)])
    lines = format_rows(rows).split("\n")
    assert lines == [
        "00000000  " + " ".join(f" {b:02X} " for b in range(0x41, 0x51)).rstrip()
        + "   |ABCDEFGHIJKLMNOP|",
        "00000010   51  [52]  53   54 " + " " * 60 + "  |QRST|",
    ]
    # the printable column starts at the same place on full and partial rows
    assert lines[0].index("|") == lines[1].index("|") == 8 + 2 + 16 * 5 - 1 + 2


@pytest.mark.parametrize("width", [1, 4, 8, 16, 32], ids=lambda w: f"width-{w}")
def test_format_layout_for_any_width(width: int) -> None:
    """Every line has the same length up to the bar, whatever the width and highlights."""
    rows = byte_rows(DATA, width=width, highlight=[(0, 1), (len(DATA) - 1, len(DATA))])
    lines = format_rows(rows, width=width).split("\n")
    assert len(lines) == len(rows)
    assert {line.index("|") for line in lines} == {8 + 2 + width * 5 - 1 + 2}
    assert all(line.endswith("|") for line in lines)
    assert [line[:8] for line in lines] == [f"{r.offset:08X}" for r in rows]


def test_offsets_past_0xffffffff_widen() -> None:
    """Offsets are zero-padded to eight digits, and grow past them rather than wrap."""
    line = format_rows([HexRow(0x1_0000_0000, b"a", (False,))], width=1)
    assert line == "100000000   61   |a|"
