"""What a CSV scan says about how the file was read: its notes, and what is wrong with a record.

The notes are the report's warnings, in plain words, each with the count and where to look: a
file with no data rows, a quote that never closes, bytes that do not decode, lines read in a
second encoding (``csvmixed``), NUL bytes, malformed rows (counted in rows: a line that other
line breaks split counts each of its rows).
"""

from __future__ import annotations

from typing import Any

from ..extras import needs_extra
from ..wording import plural
from .csvformat import CsvFormat
from .csvread import ReadStats, field_lines
from .scanreport import empty_frame

with needs_extra("fields", "the field scan"):
    import pandas as pd

__all__ = ["csv_fields", "ragged"]


def ragged(line: int, last: int, fields: list[str], expected: int, newline: str) -> str:
    """What is wrong with a record of the wrong width; a quote that joined lines, if one did.

    >>> print(ragged(4, 11, ["3", "a\\nb\\nc", "x"], 2, "\\n"))  # doctest: +NORMALIZE_WHITESPACE
    3 fields, expected 2; the extra fields are not scanned; the record spans lines 4-11,
    5 characters in one cell: a quote opened on line 4 may have joined them
    """
    problem = (f"{plural(len(fields), 'field')}, expected {expected:,}; " +
               ("the extra fields are not scanned" if len(fields) > expected
                else "the missing fields count as empty"))
    if last > line:   # the field with the most newlines is where the quote opened
        starts = field_lines(line, fields, newline)
        opened = max(range(len(fields)), key=lambda i: (fields[i].count(newline[-1]), -i))
        problem += (f"; the record spans lines {line:,}-{last:,}, "
                    f"{plural(len(fields[opened]), 'character')} in one cell: a quote opened on "
                    f"line {starts[opened]:,} may have joined them")
    return problem


def csv_fields(fmt: CsvFormat, stats: ReadStats, malformed: list[dict[str, Any]],
               malformed_count: int, rows: int, joined: str | None,
               mixed_cells: int = 0) -> dict[str, Any]:
    """The report's fields on how the file was read, its notes first among them.

    ``mixed_cells``: the cells counted as mixed encoding (lines read in ``fmt.legacy``).
    """
    notes: list[str] = []
    if stats.legacy_lines:
        are = "is" if stats.legacy_lines == 1 else "are"
        notes.append(f"the file mixes encodings: {plural(stats.legacy_lines, 'line')} {are} "
                     f"{fmt.legacy}, read so; the rest is UTF-8. "
                     f"{plural(mixed_cells, 'cell')} with non-ASCII text in those lines "
                     f"{'counts' if mixed_cells == 1 else 'count'} as mixed encoding, "
                     f"repairable: their bytes are right in the file. {fmt.legacy_reason}")
    if rows == 0:
        notes.append("the file has a header row but no data rows")
    if stats.unclosed_quote:
        notes.append(f"{stats.unclosed_quote}; close or remove that quote and scan again (the "
                     "rows after it are not counted)")
    if stats.decode_errors:
        offset = f"{stats.first_error_offset:,}"
        notes.append(f"{plural(stats.decode_errors, 'byte sequence')} not valid {fmt.encoding} "
                     + (f"(at byte offset {offset}); its cell holds U+FFFD and counts as lossy"
                        if stats.decode_errors == 1 else
                        f"(the first at byte offset {offset}); the cells that hold them show "
                        "U+FFFD and count as lossy")
                     + (f": {fmt.legacy_reason}" if fmt.legacy_reason and not fmt.legacy else ""))
    if stats.nul_chars:
        line = f"{stats.first_nul_line:,}"
        notes.append(f"{plural(stats.nul_chars, 'NUL byte')} (00)"
                     + (f" on line {line}, kept in its cell" if stats.nul_chars == 1 else
                        f", the first on line {line}, kept in their cells")
                     + ": a text export does not write NUL bytes, so the export or a copy step "
                     "went wrong there")
    if malformed_count:
        notes.append(f"{plural(malformed_count, 'malformed row')} (see the list of lines)"
                     + (f"; {joined}" if joined else ""))
    return {
        "encoding": fmt.encoding, "encoding_reason": fmt.encoding_reason,
        "delimiter": fmt.delimiter, "decode_errors": stats.decode_errors,
        "malformed": pd.DataFrame(malformed, columns=["line", "problem"]) if malformed
        else empty_frame(["line", "problem"]),
        "malformed_count": malformed_count, "nul_chars": stats.nul_chars, "notes": notes,
        "mixed_encoding": fmt.legacy if stats.legacy_lines else None,
        "mixed_lines": stats.legacy_lines,
    }
