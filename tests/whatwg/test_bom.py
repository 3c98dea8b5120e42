"""bom: the Encoding Standard's BOM sniff, and this project's UTF-32 deviation beside it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from encoding_core.whatwg.bom import bom_sniff, browser_bom_sniff

# (id, bytes, bom_sniff, browser_bom_sniff)
CASES = [
    ("utf-8", b"\xef\xbb\xbfcaf\xc3\xa9", ("utf-8", 3), ("utf-8", 3)),
    ("utf-8-bom-only", b"\xef\xbb\xbf", ("utf-8", 3), ("utf-8", 3)),
    ("utf-16be", b"\xfe\xff\x00<", ("utf-16be", 2), ("utf-16be", 2)),
    ("utf-16le", b"\xff\xfe<\x00", ("utf-16le", 2), ("utf-16le", 2)),
    ("utf-16le-bom-only", b"\xff\xfe", ("utf-16le", 2), ("utf-16le", 2)),
    # the deviation: UTF-32 is checked before UTF-16 (seed 000); WHATWG has no UTF-32
    ("utf-32le", b"\xff\xfe\x00\x00<\x00\x00\x00", ("utf-32le", 4), ("utf-16le", 2)),
    ("utf-32le-bom-only", b"\xff\xfe\x00\x00", ("utf-32le", 4), ("utf-16le", 2)),
    ("utf-32be", b"\x00\x00\xfe\xff\x00\x00\x00<", ("utf-32be", 4), None),
    # not a BOM
    ("utf-16le-then-one-nul", b"\xff\xfe\x00", ("utf-16le", 2), ("utf-16le", 2)),
    ("utf-32be-truncated", b"\x00\x00\xfe", None, None),
    ("utf-8-truncated", b"\xef\xbb", None, None),
    ("bom-not-at-start", b" \xef\xbb\xbf", None, None),
    ("reversed-utf-8", b"\xbf\xbb\xef", None, None),
    ("empty", b"", None, None),
    ("nul", b"\x00", None, None),
    ("html", b"<html>", None, None),
    ("utf-7-signature", b"+/v8-", None, None),
    ("gb18030-bom", b"\x84\x31\x95\x33", None, None),
]


@pytest.mark.parametrize(("data", "ours", "browser"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_bom_sniff(data, ours, browser):
    """bom_sniff adds UTF-32 (checked first); browser_bom_sniff is the standard's, unchanged."""
    assert bom_sniff(data) == ours
    assert browser_bom_sniff(data) == browser


@pytest.mark.parametrize(("data", "ours", "browser"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_a_bytearray_is_sniffed(data, ours, browser):
    """A bytearray is sniffed as its bytes (a review found it raising TypeError when the
    first-byte test was a set: its slice cannot be hashed)."""
    assert bom_sniff(bytearray(data)) == ours
    assert browser_bom_sniff(bytearray(data)) == browser


@settings(max_examples=200, deadline=None)
@given(st.one_of(
    st.binary(max_size=8),
    st.sampled_from([b"\xef\xbb\xbf", b"\xfe\xff", b"\xff\xfe", b"\xff\xfe\x00\x00",
                     b"\x00\x00\xfe\xff"]).flatmap(lambda bom: st.binary(max_size=6).map(
                         lambda tail: bom + tail)),
))
def test_sniffers_differ_only_on_utf32(data):
    """Both name a BOM that starts the data; they disagree only where UTF-32 is involved."""
    ours, browser = bom_sniff(data), browser_bom_sniff(data)
    for found in (ours, browser):
        if found is not None:
            _, length = found
            assert length in (2, 3, 4)
            assert data[:length] in (b"\xef\xbb\xbf", b"\xfe\xff", b"\xff\xfe",
                                     b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")
    if ours is not None and ours[0] == "utf-32le":
        assert browser == ("utf-16le", 2)
    elif ours is not None and ours[0] == "utf-32be":
        assert browser is None
    else:
        assert ours == browser
