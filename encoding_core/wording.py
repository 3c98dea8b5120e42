"""Words for messages: counts ("1 line", "3 lines") and quoted text as a user reads it.

The core's messages are English, and written for the user: text is shown as text, never as a
Python ``repr`` with backslash escapes.
"""

from __future__ import annotations

import unicodedata

__all__ = ["plural", "quoted"]

# Characters a reader cannot see or that would break a line: controls (C0, C1), format
# characters, surrogates, private use, unassigned, line and paragraph separators.
_UNSEEN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` and ``noun``, in the plural (``many``, or an ``s`` added) unless the count is
    one; thousands separated.

    >>> plural(1, "record"), plural(1_200, "line"), plural(2, "entry", "entries")
    ('1 record', '1,200 lines', '2 entries')
    """
    return f"{count:,} {noun if count == 1 else many or noun + 's'}"


def quoted(text: str | None) -> str:
    """``text`` in single quotes as a user reads it: what prints as itself stays, what does not
    (controls, format characters, unassigned code points) becomes ``<U+XXXX>``.

    For printable text this is what ``repr`` gives; unlike ``repr`` it never shows ``\\x81``.

    >>> quoted("iso-8859-1")
    "'iso-8859-1'"
    >>> quoted("\\x81[ƒW")
    "'<U+0081>[ƒW'"
    """
    if text is None:
        return "(none)"
    shown = "".join(f"<U+{ord(ch):04X}>" if unicodedata.category(ch) in _UNSEEN else ch
                    for ch in text)
    return f"'{shown}'"
