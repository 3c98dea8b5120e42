"""fields.shaperuns: the shapes as one compiled pattern find what damage_spans finds, joined."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from encoding_core.fields.prefilter import SHAPES, damage_spans, merge_spans
from encoding_core.fields.shaperuns import ShapeRuns

_RUNS = ShapeRuns(SHAPES)
# every character a shape holds, some it does not, and characters that stand for roles inside
# the pattern (a text holding them must not be mistaken for translated text)
_ALPHABET = st.sampled_from(sorted(set("".join("".join(s) for s in SHAPES))
                                   | set("abZ 09#.,-_\t?\ufffd\x85é中Пё’É\x00Aa0\xa1\xff[]|")))
_CASES = Path(__file__).resolve().parents[1] / "cases"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(_ALPHABET, max_size=16), min_size=1, max_size=40))
def test_runs_are_damage_spans_joined(texts: list[str]) -> None:
    """Leftmost, longest, not overlapping, touching ones joined: the loop's answer."""
    for text in texts:
        spans = damage_spans(text)
        assert _RUNS.spans(text) == merge_spans(spans), text
        assert _RUNS.any(text) == bool(spans)


def test_runs_on_the_mojibake_cases() -> None:
    """The damaged and clean cases (and each shape written out) agree with the loop."""
    texts = [case["text"] for name in ("mojibake_damaged.json", "mojibake_clean.json")
             for case in json.loads((_CASES / name).read_text("utf-8"))["cases"]]
    texts += ["".join(chars[-1] for chars in shape) * 3 + "x" for shape in SHAPES]
    assert sum(bool(damage_spans(text)) for text in texts) > len(SHAPES)   # (it finds some)
    for text in texts:
        assert _RUNS.spans(text) == merge_spans(damage_spans(text)), text


def test_a_shape_is_found_longest_first() -> None:
    """"Ã¢â‚¬â„¢" (UTF-8 read as windows-1252, twice) is one run; "Ã©" one shape of two."""
    assert _RUNS.spans("xÃ¢â‚¬â„¢y") == ((1, 9),) == merge_spans(damage_spans("xÃ¢â‚¬â„¢y"))
    assert _RUNS.spans("JosÃ© GarcÃ­a") == ((3, 5), (10, 12))
