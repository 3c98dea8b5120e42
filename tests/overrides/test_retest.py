"""Tests for encoding_core.overrides.retest: the trace for a host, evidence, the re-test."""

from __future__ import annotations

import hashlib
from datetime import UTC, date, datetime, timedelta

import pytest

from encoding_core.decision.models import Source
from encoding_core.overrides.retest import (
    Verdict,
    decode_with_overrides,
    evidence_from_body,
    mojibake_count,
    override_problem,
    retest,
)
from encoding_core.overrides.store import OverrideStore, SiteOverride, Status

NOW = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
REASON = "The header says iso-8859-1 but the body is UTF-8."
UTF8_BODY = "<p>Café crème, naïve ’quotes’ and “more”.</p>".encode()
CP1252_BODY = "<p>Café crème, naïve ’quotes’ and “more”.</p>".encode("windows-1252")


def entry(encoding: str) -> SiteOverride:
    return SiteOverride("ov-0001", "shop.example.com", encoding, REASON, NOW, "ada",
                        date(2030, 6, 30), Status.APPROVED, "bob", date(2030, 1, 2))


@pytest.mark.parametrize(("encoding", "body", "content_type", "verdict", "explains"), [
    ("utf-8", UTF8_BODY, "text/html; charset=iso-8859-1", Verdict.STILL_NEEDED,
     "still shows"),
    ("utf-8", UTF8_BODY, "text/html; charset=utf-8", Verdict.UNNEEDED, "clean and gives the same"),
    ("windows-1252", UTF8_BODY, "text/html; charset=utf-8", Verdict.HARMFUL, "more damaged"),
    ("windows-1252", b"\xef\xbb\xbf" + UTF8_BODY, None, Verdict.UNNEEDED, "byte-order mark"),
    ("utf-8", CP1252_BODY, "text/html; charset=windows-1252", Verdict.UNNEEDED,
     "no longer decodes this body strictly"),
], ids=["header-still-lies", "header-fixed", "override-now-harmful", "bom-decides",
        "override-fails-strict"])
def test_retest_verdicts(encoding, body, content_type, verdict, explains):
    """The normal path against the override: still needed, unneeded or harmful, with numbers."""
    result = retest(entry(encoding), body, content_type)
    assert result.verdict is verdict
    assert explains in result.explanation
    assert result.sha256 == hashlib.sha256(body).hexdigest()
    assert result.body_length == len(body)
    assert result.summary().startswith(f"Re-test on sample {result.sha256[:12]}")


def test_retest_numbers_for_a_lying_header():
    """The numbers say what the override fixes: mojibake without it, none with it."""
    result = retest(entry("utf-8"), UTF8_BODY, "text/html; charset=iso-8859-1")
    assert (result.normal_encoding, result.normal_source) == ("windows-1252", "http-header")
    assert result.normal_mojibake > 0 and result.normal_conflicts >= 1
    assert (result.override_source, result.override_mojibake,
            result.override_replacements) == ("override", 0, 0)
    assert result.override_used and not result.texts_agree


def test_mojibake_count_is_zero_on_clean_text():
    """Clean text scores zero; UTF-8 read as windows-1252 does not."""
    assert mojibake_count("Café ’quotes’") == 0
    assert mojibake_count("Café ’quotes’".encode().decode("windows-1252")) > 0


@pytest.fixture
def store(tmp_path):
    return OverrideStore(tmp_path / "overrides.yaml", clock=lambda: NOW)


def _propose(store, host, encoding, days=90):
    return store.propose(host=host, encoding=encoding, reason=REASON, author="ada",
                         review_by=NOW.date() + timedelta(days=days))


def test_trace_shows_applied_and_unapplied_overrides(store):
    """The applied override is used and named; expired, proposed and rejected ones are listed."""
    applied = store.approve(_propose(store, "shop.example.com", "utf-8").id, reviewer="bob")
    store.approve(_propose(store, "*.example.com", "gbk", days=1).id, reviewer="bob")
    _propose(store, "shop.example.com", "shift_jis")
    store.reject(_propose(store, "shop.example.com", "euc-kr").id, reviewer="bob",
                 reason=REASON)
    later = OverrideStore(store.path, clock=lambda: NOW + timedelta(days=2))
    decoded = decode_with_overrides(UTF8_BODY, "text/html; charset=iso-8859-1",
                                    later.status_for("shop.example.com"))
    assert (decoded.encoding, decoded.source) == ("utf-8", "override")
    rows = [e for e in decoded.evidence if e.source == Source.OVERRIDE]
    assert rows[0].used and f"override {applied.id} for shop.example.com: applied" in rows[0].reason
    assert [r.used for r in rows] == [True, False, False, False]
    reasons = " | ".join(r.reason for r in rows[1:])
    for word in ("expired", "proposed by ada", "rejected by bob"):
        assert word in reasons
    sources = [e.source for e in decoded.evidence]
    assert sources.index(Source.OVERRIDE) < sources.index(Source.HTTP_HEADER)


def test_trace_lists_unapplied_overrides_when_none_applies(store):
    """With only a proposal, decode follows the header and the trace says why not."""
    _propose(store, "shop.example.com", "utf-8")
    decoded = decode_with_overrides(UTF8_BODY, "text/html; charset=iso-8859-1",
                                    store.status_for("shop.example.com"))
    assert decoded.source == "http-header"
    assert [e.source for e in decoded.evidence][:2] == [Source.BOM, Source.OVERRIDE]
    assert not decoded.evidence[1].used
    assert "awaiting approval" in decoded.evidence[1].reason


def test_evidence_from_a_lying_header():
    """Evidence names the body's digest, the header it corrects and what it suggests."""
    evidence, suggested = evidence_from_body(UTF8_BODY, "text/html; charset=iso-8859-1",
                                             url="https://shop.example.com/p",
                                             capture="landing/1.bin", fetched_at=NOW)
    assert suggested == "utf-8"
    assert evidence.corrects == "http-header"
    assert evidence.sha256 == hashlib.sha256(UTF8_BODY).hexdigest()
    assert (evidence.url, evidence.capture, evidence.fetched_at) == (
        "https://shop.example.com/p", "landing/1.bin", NOW)
    assert evidence.conflicts >= 1 and evidence.replacements == 0


@pytest.mark.parametrize(("body", "content_type", "suggested", "corrects"), [
    ("<p>caf\xe9 cr\xe8me \x93quoted\x94</p>".encode("latin-1"), "text/html; charset=utf-8",
     "windows-1252", "http-header"),
    ("<p>日本語のテキストです。東京都の天気は晴れ。</p>".encode("shift_jis"),
     "text/html; charset=iso-8859-1", "shift_jis", "http-header"),
    (b"<p>plain</p>", "text/html; charset=utf-8", "utf-8", "http-header"),
    ("<p>Привет, мир</p>".encode("koi8-r"), "text/html; charset=koi8-r", "koi8-r",
     "http-header"),
], ids=["utf-8-header-over-windows-1252", "shift-jis-under-iso-8859-1", "nothing-to-correct",
        "nothing-to-correct-in-a-legacy-encoding"])
def test_evidence_suggests_what_the_conflicts_say(body: bytes, content_type: str,
                                                  suggested: str, corrects: str) -> None:
    """A failed utf-8 header proposes the encoding the fallback found (an override records
    it); a wrong legacy header, the encoding the text reads as; a clean page, the decision's
    own encoding (never utf-8 by default)."""
    evidence, found = evidence_from_body(body, content_type)
    assert (found, evidence.corrects) == (suggested, corrects)


@pytest.mark.parametrize(("fetched_at", "expected"), [
    ("2030-01-01T12:00:00Z", NOW),
    ("2030-01-01T13:00:00.5+01:00", NOW),
    (datetime(2030, 1, 1, 12, 0), NOW),
    ("", None),
    ("not a time", None),
    (None, None),
], ids=["capture-text", "offset-and-fraction", "naive-is-utc", "empty", "garbage", "absent"])
def test_evidence_records_when_the_sample_was_fetched(fetched_at, expected):
    """fetched_at is kept in UTC to the second, from a datetime or a capture's ISO text."""
    evidence, _ = evidence_from_body(UTF8_BODY, None, fetched_at=fetched_at)
    assert evidence.fetched_at == expected


def test_retest_records_when_it_was_run():
    """A re-test carries its time (given, or now): a renewal needs a recent one."""
    assert retest(entry("utf-8"), UTF8_BODY, None, tested_at=NOW).tested_at == NOW
    before = datetime.now(UTC).replace(microsecond=0)
    assert retest(entry("utf-8"), UTF8_BODY, None).tested_at >= before


def test_summary_counts_read_as_english():
    """One conflict is "1 conflict", not "1 conflicts"."""
    result = retest(entry("utf-8"), b"caf\xe9", "text/html; charset=utf-8")
    assert "0 replacements and 1 conflict;" in result.summary()
    assert "and 1 conflict" in result.explanation


# (body, Content-Type, encoding proposed, what is wrong, or None when it takes effect)
PROBLEMS = [
    (b"<p>caf\xe9 cr\xe8me</p>", "text/html; charset=windows-1252", "windows-1252", None),
    (b"<p>caf\xe9 cr\xe8me</p>", "text/html; charset=windows-1252", "utf-8",
     "utf-8 does not decode this body strictly: byte 0xE9 at offset 6 is not valid utf-8, "
     "so the override would be skipped: windows-1252 (http-header) decides"),
    (UTF8_BODY, "text/html; charset=iso-8859-1", "utf-8", None),
    ("<p>日本語です</p>".encode("shift_jis"), "text/html; charset=shift_jis", "euc-jp",
     "euc-jp does not decode this body strictly: byte 0x93 at offset 3"),
    (b"\xef\xbb\xbf<p>caf\xc3\xa9</p>", None, "windows-1252",
     "the body starts with a utf-8 byte-order mark, which decides before any override: "
     "windows-1252 would never be used for it"),
    (b"\xef\xbb\xbf<p>caf\xc3\xa9</p>", None, "utf-8", None),
    ("<p>café crème</p>".encode()[:12], "text/html; charset=utf-8", "utf-8", None),
]


@pytest.mark.parametrize(("body", "content_type", "encoding", "problem"), PROBLEMS, ids=[
    "decodes", "malformed-byte-named-with-its-offset", "utf-8-under-a-lying-header",
    "cjk-lead-byte", "another-bom-decides", "same-bom", "truncated-utf-8-still-used"])
def test_override_problem(body: bytes, content_type: str | None, encoding: str,
                          problem: str | None) -> None:
    """An encoding that fails a strict decode of the sample is named with the offset."""
    found = override_problem(body, content_type, encoding)
    if problem is None:
        assert found is None
    else:
        assert found is not None and found.startswith(problem), found
