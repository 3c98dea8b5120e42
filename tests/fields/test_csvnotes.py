"""csvnotes: the notes and record problems agree in number with their counts."""

from __future__ import annotations

import pytest

from encoding_core.fields.csvformat import CsvFormat
from encoding_core.fields.csvnotes import csv_fields, ragged
from encoding_core.fields.csvread import ReadStats

FMT = CsvFormat(encoding="utf-8", encoding_reason="test", bom_length=0, delimiter=",",
                quotechar='"', newline="\n")


def _notes(**stats: int) -> list[str]:
    fields = csv_fields(FMT, ReadStats(**stats), [], 0, rows=5, joined=None)
    return list(fields["notes"])


@pytest.mark.parametrize(("stats", "note"), [
    ({"nul_chars": 1, "first_nul_line": 102},
     "1 NUL byte (00) on line 102, kept in its cell: a text export does not write NUL bytes"),
    ({"nul_chars": 3, "first_nul_line": 102},
     "3 NUL bytes (00), the first on line 102, kept in their cells: a text export does not"),
    ({"decode_errors": 1, "first_error_offset": 1_234},
     "1 byte sequence not valid utf-8 (at byte offset 1,234); its cell holds U+FFFD and "
     "counts as lossy"),
    ({"decode_errors": 2, "first_error_offset": 1_234},
     "2 byte sequences not valid utf-8 (the first at byte offset 1,234); the cells that hold "
     "them show U+FFFD and count as lossy"),
], ids=["one-nul", "three-nuls", "one-bad-sequence", "two-bad-sequences"])
def test_notes_agree_with_their_count(stats: dict[str, int], note: str) -> None:
    """One NUL or bad sequence is "its cell"; more are "the first" and "their cells"."""
    assert note in _notes(**stats)[0]


@pytest.mark.parametrize(("fields", "expected", "start"), [
    (["x"], 2, "1 field, expected 2; the missing fields count as empty"),
    (["x", "y", "z"], 2, "3 fields, expected 2; the extra fields are not scanned"),
], ids=["one-field", "three-fields"])
def test_ragged_counts_fields_in_words(fields: list[str], expected: int, start: str) -> None:
    """A one-field record says "1 field", not "1 fields"."""
    assert ragged(2, 2, fields, expected, "\n") == start
