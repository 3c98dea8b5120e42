"""Cells of a CSV export made safe for a spreadsheet (a shared basic: every export uses it).

A cell that begins with ``=``, ``+``, ``-`` or ``@`` is run as a formula when a spreadsheet
opens the file (``=HYPERLINK(...)`` sends the reader somewhere, ``@SUM`` computes), and one that
begins with a tab or a carriage return is read past them to such a character. The OWASP advice
("CSV Injection", https://owasp.org/www-community/attacks/CSV_Injection) is followed: such a cell
is written with a leading apostrophe, which the spreadsheet shows as text and does not run.
Page data (URLs, hosts, cell text from an upload) reaches every export, so every export writes
its cells through ``spreadsheet_cell``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["FORMULA_STARTS", "spreadsheet_cell"]

#: First characters a spreadsheet reads as the start of a formula (OWASP's list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_cell(value: Any) -> Any:
    """``value`` as a spreadsheet shows it and never runs: text that would start a formula
    gets a leading apostrophe; anything else comes back as it is.

    >>> spreadsheet_cell("=HYPERLINK(1)"), spreadsheet_cell("\\t=1"), spreadsheet_cell(-3)
    ("'=HYPERLINK(1)", "'\\t=1", -3)
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value
