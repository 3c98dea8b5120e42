"""The scan report in words: headings for its tables, and what a flagged cell's repair is.

A report's tables keep their field names (``partly_repairable``: ``scanjson`` and Spark read and
write them); a reader sees ``HEADINGS`` instead, and ``repair_in_words`` says what a cell that
has no repair lost, in place of an empty value.
"""

from __future__ import annotations

from ..wording import plural
from .prefilter import question_marks

__all__ = ["HEADINGS", "repair_in_words"]

#: The report's field names, as a reader's headings (``ScanReport.columns``, ``.hosts``,
#: ``.findings``)
HEADINGS = {
    "column": "Column", "host": "Host", "rows": "Rows", "cells": "Cells scanned",
    "flagged": "Flagged", "repairable": "Repairable", "partly_repairable": "Partly repairable",
    "lossy": "Lost characters", "mojibake": "Mojibake", "c1_controls": "C1 controls",
    "mixed_encoding": "Lines in another encoding", "rate": "Flagged share", "file": "File",
    "row": "Row", "line": "Line", "kind": "Kind", "original": "Original",
    "excerpt": "Original (suspicious part)", "repaired": "Proposed repair",
    "chain": "How it happened",
}


def repair_in_words(kind: str, repaired: object, original: object) -> str:
    """The proposed repair, or why there is none and what was lost (never an empty value).

    >>> repair_in_words("mojibake", "José", "JosÃ©")
    'José'
    >>> repair_in_words("lossy", None, "Jos? Garc?a")
    'no repair: 2 letters lost (written as ?)'
    >>> repair_in_words("lossy", None, "Jos\\ufffd")
    'no repair: 1 character lost (replaced by U+FFFD)'
    >>> repair_in_words("mojibake", None, "a ¢Ð€ b")
    'no repair: no decode chain explains it (look at its bytes)'
    """
    if isinstance(repaired, str):
        return repaired
    text = original if isinstance(original, str) else ""
    if kind != "lossy":
        return "no repair: no decode chain explains it (look at its bytes)"
    parts = []
    if fffd := text.count("\ufffd"):
        parts.append(f"{plural(fffd, 'character')} lost (replaced by U+FFFD)")
    if marks := sum(end - start for start, end in question_marks(text)):
        parts.append(f"{plural(marks, 'letter')} lost (written as ?)")
    return f"no repair: {' and '.join(parts) or 'characters were lost'}"
