"""Tests for encoding_core.decision.overridden: deciding under a host's overrides."""

from __future__ import annotations

import codecs

from encoding_core.decision.decode import decode
from encoding_core.decision.models import Evidence, Source
from encoding_core.decision.overridden import NO_OVERRIDES, HostOverrides, decode_overridden

LYING = "<p>José Müller – “quoted” café</p>".encode()
EXPIRED = Evidence(Source.OVERRIDE, "koi8-r", "koi8-r", False, "override ov-2: not applied")


def test_no_overrides_is_decode() -> None:
    """Without overrides the answer is decode's own, trace and all."""
    plain = decode(LYING, "text/html; charset=iso-8859-1")
    assert decode_overridden(LYING, "text/html; charset=iso-8859-1") == plain
    assert decode_overridden(LYING, "text/html; charset=iso-8859-1", NO_OVERRIDES) == plain


def test_the_applied_entry_is_named_and_the_others_follow_it() -> None:
    """The override row names the entry; unapplied rows come right after it."""
    decided = decode_overridden(LYING, "text/html; charset=iso-8859-1",
                                HostOverrides("utf-8", "override ov-1 for a.example", (EXPIRED,)))
    assert (decided.encoding, decided.source) == ("utf-8", "override")
    rows = [e for e in decided.evidence if e.source == Source.OVERRIDE]
    assert rows[0].used and rows[0].reason.endswith("(override ov-1 for a.example)")
    assert rows[1] == EXPIRED
    at = decided.evidence.index(rows[0])
    assert decided.evidence[at + 1] == EXPIRED


def test_unapplied_rows_without_an_applied_entry_follow_the_bom_row() -> None:
    """No entry applies: the rows sit where decode puts an override (after the BOM's row)."""
    body = codecs.BOM_UTF8 + "café".encode()
    decided = decode_overridden(body, None, HostOverrides(unapplied=(EXPIRED,)))
    assert decided.evidence[0].source == Source.BOM and decided.evidence[1] == EXPIRED
    assert decided.encoding == "utf-8" and decided.source.startswith("bom")
