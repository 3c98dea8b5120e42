"""Untrusted values quoted so that Markdown shows them literally (counts in words are
``encoding_core.wording.plural``).

Streamlit turns ``http://...``, ``www.example.com`` or ``bob@example.com`` into a clickable
link even when its Markdown syntax is escaped (checked in Chromium). A code span is never
autolinked, so URLs, hosts and names from pages or files go through ``md_code``, and
``md_escape`` (ui/components.py) puts link-like words in code spans with it.
"""

from __future__ import annotations

import re

_BACKTICKS = re.compile(r"`+")


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
