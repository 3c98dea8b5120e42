"""ui/wording.py: values quoted as Markdown code spans."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ui.wording import md_code


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


def test_sample_names_speak_to_users():
    """The bundled samples are described for users: no "(seed 000)" in what the pickers show."""
    samples = json.loads((Path(__file__).resolve().parents[2] / "samples" / "samples.json")
                         .read_text("utf-8"))
    assert samples and not [s for s in samples if "seed" in s["description"].lower()]
