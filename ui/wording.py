"""Words for labels and messages: counts ("1 record", "3 records"), and untrusted values
quoted so that Markdown shows them literally.

``md_escape`` (ui/components.py) stops Markdown and HTML syntax but not GitHub-flavoured
Markdown's autolinks: Streamlit still turns an escaped ``http://...``, ``www.example.com`` or
``bob@example.com`` into a clickable link (checked in Chromium). A code span is never
autolinked, so URLs, hosts and names from pages or files go through ``md_code`` instead.
"""

from __future__ import annotations

import re

_BACKTICKS = re.compile(r"`+")


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun``, in the plural unless ``n`` is 1; thousands separated.

    >>> counted(1, "record"), counted(1200, "record"), counted(2, "entry", "entries")
    ('1 record', '1,200 records', '2 entries')
    """
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def md_code(text: str) -> str:
    """``text`` as a Markdown code span: literal, never a link, whatever backticks it holds.

    >>> md_code("http://a.example/"), md_code("a`b")
    ('`http://a.example/`', '`` a`b ``')
    """
    text = " ".join(text.split())  # a code span is one line
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    if not longest:
        return f"`{text}`"
    fence = "`" * (longest + 1)
    return f"{fence} {text} {fence}"
