"""ui/wording.py: counts in words, and values quoted as Markdown code spans."""

from __future__ import annotations

import pytest

from ui.wording import counted, md_code


@pytest.mark.parametrize(("n", "noun", "plural", "expected"), [
    (0, "record", None, "0 records"),
    (1, "record", None, "1 record"),
    (2, "URL", None, "2 URLs"),
    (1500, "entry", "entries", "1,500 entries"),
], ids=["zero", "one", "two", "irregular"])
def test_counted(n: int, noun: str, plural: str | None, expected: str) -> None:
    """The noun is plural unless the count is exactly one."""
    assert counted(n, noun, plural) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("http://a.example/x", "`http://a.example/x`"),
    ("bob@example.com", "`bob@example.com`"),
    ("a`b", "`` a`b ``"),
    ("``x``", "``` ``x`` ```"),
    ("two\nlines", "`two lines`"),
], ids=["url", "email", "backtick", "backtick-run", "newline"])
def test_md_code(text: str, expected: str) -> None:
    """A value becomes one code span whose fence is longer than any backtick run inside."""
    assert md_code(text) == expected
