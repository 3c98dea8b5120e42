"""fields.prefilter: the cheap test in front of ftfy agrees with RE2, find_mojibake and itself."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc
from hypothesis import given, settings
from hypothesis import strategies as st

from encoding_core.fields import prefilter as mojibake_prefilter
from encoding_core.fields.mojibake import PREFILTER_RE2, find_mojibake, might_be_damaged

_ALPHABET = st.sampled_from(sorted(set("".join("".join(s) for s in mojibake_prefilter.SHAPES))
                                   | set("ab Z?é.=/\ufffd\x85\xa0\u2003\x1c")))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(_ALPHABET, max_size=12), min_size=1, max_size=30))
def test_prefilter_agrees_with_re2_and_with_find(texts: list[str]) -> None:
    """The Python prefilter, the RE2 prefilter and find_mojibake agree on what may be damaged."""
    re2 = pc.match_substring_regex(pa.array(texts), PREFILTER_RE2).to_pylist()
    shapes = pc.match_substring_regex(pa.array(texts),
                                      mojibake_prefilter.re2_shapes_pattern()).to_pylist()
    for text, re2_hit, shape_hit in zip(texts, re2, shapes, strict=True):
        python = might_be_damaged(text)
        assert re2_hit or not python
        assert shape_hit == bool(mojibake_prefilter.damage_spans(text))
        if not python:
            assert find_mojibake(text) is None


_MIXED = st.sampled_from(sorted(set("".join("".join(s) for s in mojibake_prefilter.SHAPES))
                                | set("abZ 09#.,-_\t?\ufffd\x85é中Пё’É")))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(_MIXED, max_size=14), min_size=1, max_size=40))
def test_span_cache_agrees_with_damage_spans(texts: list[str]) -> None:
    """SpanCache gives damage_spans with touching spans joined, piece by piece."""
    cache = mojibake_prefilter.SpanCache(size=8)
    for text in texts:
        spans = mojibake_prefilter.damage_spans(text)
        assert cache.spans(text) == mojibake_prefilter.merge_spans(spans)
        assert cache.any(text) == bool(spans)
