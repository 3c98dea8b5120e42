"""Tests for encoding_core.fields.scanwords: the scan report's headings and repairs in words."""

from __future__ import annotations

import pytest

from encoding_core.fields.scanreport import COLUMN_FIELDS, FINDING_FIELDS, HOST_FIELDS
from encoding_core.fields.scanwords import HEADINGS, repair_in_words


def test_every_field_has_a_heading_in_words() -> None:
    """Each column of the report's tables has a heading, and none is a field name."""
    fields = {*COLUMN_FIELDS, *HOST_FIELDS, *FINDING_FIELDS, "file", "excerpt"}
    assert fields <= set(HEADINGS)
    assert all("_" not in heading and heading[0].isupper() for heading in HEADINGS.values())


@pytest.mark.parametrize(("kind", "original", "expected"), [
    ("lossy", "Jos? Garc?a", "no repair: 2 letters lost (written as ?)"),
    ("lossy", "Fran\ufffdois Lef\ufffdvre", "no repair: 2 characters lost (replaced by U+FFFD)"),
    ("lossy", "Jos\ufffd ?lvaro P?rez",
     "no repair: 1 character lost (replaced by U+FFFD) and 2 letters lost (written as ?)"),
    ("mojibake", "a ¢Ð€ b", "no repair: no decode chain explains it (look at its bytes)"),
], ids=["question-marks", "fffd", "both", "unexplained"])
def test_a_cell_without_repair_says_what_is_lost(kind: str, original: str, expected: str) -> None:
    """A lossy or unexplained cell's repair is a sentence, never None."""
    assert repair_in_words(kind, None, original) == expected


def test_a_repair_is_shown_as_it_is() -> None:
    """A proposed repair stands."""
    assert repair_in_words("partly-repairable", "O’Brien \ufffd", "x") == "O’Brien \ufffd"
