"""Seed 000's JSON and XML rules (``tests/cases/crawler_media.json``), over the core's walk."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from encoding_core import decode
from encoding_core.crawlers.media import decide_body, media_kind
from encoding_core.overrides.model import SiteOverride, Status, statuses_for
from tests.conformance import case_body, case_params, load_cases

CASES = load_cases("crawler_media.json")


@pytest.mark.parametrize("case", case_params(CASES))
def test_decide_body(case):
    """Encoding, source, conflicts and review flag as the case says; never a lossy JSON text."""
    decided = decide_body(case_body(case), case["content_type"])
    assert (decided.encoding, decided.decided_by) == (case["expect_encoding"],
                                                  case["expect_source"])
    assert sorted({c.kind for c in decided.conflicts}) == case["expect_conflicts"]
    assert decided.needs_review is case["expect_needs_review"]
    assert decided.text == decode(case_body(case), None, override=decided.encoding).text


@pytest.mark.parametrize(("content_type", "kind"), [
    ("application/json", "json"), ("text/json; charset=utf-8", "json"),
    ("application/vnd.api+json", "json"), ("application/x-json", "json"),
    ("text/xml", "xml"), ("application/rss+xml", "xml"), ("application/xhtml+xml", "xml"),
    ("text/html", "other"), ("text/plain", "other"), ("application/javascript", "other"),
    ("nonsense", "other"), (None, "other"),
], ids=lambda v: str(v))
def test_media_kind(content_type, kind):
    """The media type's essence picks the rule."""
    assert media_kind(content_type) == kind


def test_json_trace_keeps_the_walk_unused():
    """The walk's answer stays in the trace, passed over; the rule's row is the one used."""
    decided = decide_body('{"a": "é"}'.encode(), "application/json; charset=iso-8859-1")
    header = next(e for e in decided.evidence if e.source == "http-header")
    assert not header.used and "passed over" in header.reason
    assert [e.source for e in decided.evidence if e.used] == ["fallback"]
    assert decided.to_dict()["encoding"] == "utf-8"


def _entry(host: str, encoding: str) -> SiteOverride:
    return SiteOverride("ov-1", host, encoding, "the pages are windows-1252",
                        datetime(2030, 1, 1, tzinfo=UTC), "alice", date(2099, 1, 1),
                        Status.APPROVED, approved_by="bob", approved_on=date(2030, 1, 2))


def test_json_is_not_read_under_a_pages_override():
    """A host override to windows-1252 (its pages) is not applied to its UTF-8 JSON API."""
    statuses = statuses_for((_entry("shop.example", "windows-1252"),), "shop.example",
                            date(2031, 1, 1))
    assert statuses and statuses[0].applied
    decided = decide_body('{"a": "é"}'.encode(), "application/json", statuses)
    assert (decided.encoding, decided.text) == ("utf-8", '{"a": "é"}')
    kinds = {c.kind: c.severity for c in decided.conflicts}
    assert kinds == {"json-not-utf-8-declared": "warning"}
    html = decide_body("<p>é</p>".encode(), "text/html", statuses)
    assert (html.encoding, html.source) == ("windows-1252", "override")


def test_xml_override_still_comes_first():
    """An approved override is site configuration: it decides XML before the prolog."""
    statuses = statuses_for((_entry("feed.example", "utf-8"),), "feed.example", date(2031, 1, 1))
    body = b'<?xml version="1.0" encoding="windows-1252"?><a>Caf\xc3\xa9</a>'
    decided = decide_body(body, "application/xml; charset=iso-8859-2", statuses)
    assert (decided.encoding, decided.source) == ("utf-8", "override")


def test_never_raises_on_odd_bodies():
    """Empty, binary and truncated JSON or XML bodies are decided, not raised on."""
    for body in (b"", b"\x00\xff\xfe", b'{"a": "\xe2\x82', b"<?xml", b'<?xml encoding="'):
        for content_type in ("application/json", "text/xml; charset=utf-8", None):
            assert isinstance(decide_body(body, content_type).text, str)
