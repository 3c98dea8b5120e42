"""Tests for counts in words (encoding_core.wording)."""

from __future__ import annotations

import pytest

from encoding_core.wording import plural


@pytest.mark.parametrize(("n", "noun", "many", "expected"), [
    (0, "record", None, "0 records"),
    (1, "record", None, "1 record"),
    (2, "URL", None, "2 URLs"),
    (1500, "entry", "entries", "1,500 entries"),
], ids=["zero", "one", "two", "irregular"])
def test_plural(n: int, noun: str, many: str | None, expected: str) -> None:
    """The noun is plural unless the count is exactly one."""
    assert plural(n, noun, many) == expected
