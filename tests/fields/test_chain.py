"""Tests for encoding_core.fields.chain: the chain of a finding, in WHATWG names."""

from __future__ import annotations

import pytest

from encoding_core.fields import chain as mojibake_chain
from encoding_core.fields.mojibake import find_mojibake
from encoding_core.whatwg.labels import get_encoding


@pytest.mark.parametrize(("text", "chain"), [
    ("Ã\x81lvaro", "utf-8 read as windows-1252"),
    ("â\x80\x99", "utf-8 read as iso-8859-1"),
    ("Ã¢â‚¬â„¢s", "utf-8 read as windows-1252, twice"),
    ("Ã¢Â€Â™", "utf-8 read as iso-8859-1; then utf-8 read as windows-1252"),
    ("\x93quoted\x94", "windows-1252 read as iso-8859-1"),
], ids=["c1-that-windows-1252-makes", "c1-only-latin-1-makes", "twice", "two-decoders",
        "c1-controls"])
def test_chain_uses_whatwg_names_in_damage_order(text: str, chain: str) -> None:
    """ftfy's latin-1 is windows-1252 unless only ISO-8859-1 makes those C1 controls."""
    found = find_mojibake(text)
    assert found is not None and found.chain == chain


def test_every_chain_name_is_whatwg_except_the_documented_ones() -> None:
    """Names in chains are WHATWG canonical names; iso-8859-1 and ibm437 are deviations."""
    for name in set(mojibake_chain._WHATWG_NAME.values()) - {"iso-8859-1", "ibm437"}:
        assert get_encoding(name) == name
