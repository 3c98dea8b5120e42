"""Tests for encoding_core.overrides.review: what a renewal rests on, overlapping proposals."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta

import pytest

from encoding_core.overrides.retest import retest
from encoding_core.overrides.review import (
    open_entries_for,
    overlap_warnings,
    renewal_refusal,
    review_order,
)
from encoding_core.overrides.store import OverrideError, OverrideStore, SiteOverride, Status

NOW = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
REASON = "The header says iso-8859-1 but the body is UTF-8."
BODY = "<p>Café crème, naïve ’quotes’ and “more”.</p>".encode()
LYING, HONEST = "text/html; charset=iso-8859-1", "text/html; charset=utf-8"
# approved 2030-01-02, review by 2030-06-30, so it comes due on 2030-05-31
ENTRY = SiteOverride("ov-0001", "shop.example.com", "utf-8", REASON, NOW, "ada",
                     date(2030, 6, 30), Status.APPROVED, "bob", date(2030, 1, 2))


def _on(day: str) -> datetime:
    return datetime.fromisoformat(f"{day}T09:00:00+00:00")


# (today, entry changes, re-test: (encoding, Content-Type, tested on) or None, refusal or None)
RENEWALS = [
    ("2030-07-10", {}, None, "no re-test of ov-0001 has been run since it came due on "
     "2030-05-31"),
    ("2030-07-10", {}, ("utf-8", LYING, "2030-07-10"), None),
    ("2030-07-10", {}, ("utf-8", LYING, "2030-05-31"), None),
    ("2030-07-10", {}, ("utf-8", LYING, "2030-05-30"), "was run on 2030-05-30, not since it "
     "came due on 2030-05-31"),
    ("2030-07-10", {}, ("utf-8", HONEST, "2030-07-10"), "says unneeded (the normal path is "
     "clean and gives the same text): the page decodes right without it, so retire it"),
    ("2030-07-10", {"encoding": "windows-1252"}, ("windows-1252", HONEST, "2030-07-10"),
     "says harmful"),
    ("2030-07-10", {}, ("windows-1252", LYING, "2030-07-10"), "the re-test is of ov-0001 "
     "(windows-1252), not ov-0001 (utf-8): re-test ov-0001 first"),
    ("2030-03-01", {}, ("utf-8", LYING, "2030-03-01"), None),
    ("2030-03-01", {}, ("utf-8", LYING, "2030-02-28"), "not today (it is not due until "
     "2030-05-31, so only today's re-test counts)"),
    ("2030-06-20", {"approved_on": date(2030, 6, 15)}, ("utf-8", LYING, "2030-06-10"),
     "not since its last approval on 2030-06-15"),
]


@pytest.mark.parametrize(("today", "changes", "test", "refusal"), RENEWALS, ids=[
    "overdue-no-retest", "overdue-fresh", "retested-the-day-it-came-due", "retested-before-due",
    "unneeded", "harmful", "another-encoding", "early-retested-today", "early-stale",
    "retested-before-last-renewal"])
def test_renewal_refusal(today, changes, test, refusal):
    """A renewal rests on a still-needed re-test of the same entry, run since it came due."""
    entry = replace(ENTRY, **changes)
    result = None
    if test is not None:
        encoding, content_type, tested_on = test
        result = retest(replace(entry, encoding=encoding), BODY, content_type,
                        tested_at=_on(tested_on))
    said = renewal_refusal(entry, result, date.fromisoformat(today))
    if refusal is None:
        assert said is None
    else:
        assert said is not None and refusal in said


def _approved(store: OverrideStore, host: str = "shop.example.com", days: int = 20):
    entry = store.propose(host=host, encoding="utf-8", reason=REASON, author="ada",
                          review_by=store.today() + timedelta(days=days))
    return store.approve(entry.id, reviewer="bob")


def test_store_refuses_renewal_on_an_unneeded_retest_and_writes_nothing(tmp_path):
    """Renew on an "unneeded" re-test is refused (retire it instead); the file is unchanged."""
    store = OverrideStore(tmp_path / "overrides.yaml", clock=lambda: NOW)
    entry = _approved(store)
    before = store.path.read_bytes()
    unneeded = retest(entry, BODY, HONEST, tested_at=NOW)
    for test in (None, unneeded):
        with pytest.raises(OverrideError, match=r"no re-test|retire it instead"):
            store.renew(entry.id, reviewer="carol", review_by=NOW.date() + timedelta(days=90),
                        reason=REASON, retest=test)
    assert store.path.read_bytes() == before
    renewed = store.renew(entry.id, reviewer="carol", review_by=NOW.date() + timedelta(days=90),
                          reason=REASON, retest=retest(entry, BODY, LYING, tested_at=NOW))
    assert renewed.review_by == NOW.date() + timedelta(days=90)
    assert "says still-needed" in (store.history(entry.id)[-1].reason or "")


@pytest.mark.parametrize(("host", "expected"), [
    ("shop.example.com", ["ov-0001", "ov-0002", "ov-0004"]),
    ("Shop.Example.COM.", ["ov-0001", "ov-0002", "ov-0004"]),
    ("other.example.com", ["ov-0004"]),
    ("*.example.com", ["ov-0004"]),
    ("example.org", []),
    ("https://shop.example.com/", []),
], ids=["same-host", "same-host-unnormalised", "covered-by-wildcard", "same-wildcard",
        "unrelated", "invalid"])
def test_open_entries_for(tmp_path, host, expected):
    """Open entries with the same pattern come first, then wildcards that cover the host."""
    store = _overlapping(tmp_path)
    assert [e.id for e in open_entries_for(store.entries(), host)] == expected


def test_overlap_warnings_say_what_each_entry_means(tmp_path):
    """One sentence per overlapping entry: approved twin, pending duplicate, covering wildcard."""
    store = _overlapping(tmp_path)
    assert overlap_warnings(store.entries(), " Shop.example.com") == (
        "ov-0001 (utf-8, approved, review by 2030-01-21) is already for shop.example.com: "
        "this one can be approved only once ov-0001 is retired",
        "ov-0002 (gbk, proposed, review by 2030-01-10) is already for shop.example.com and "
        "still awaits review: this may be a duplicate",
        "ov-0004 (utf-8, approved, review by 2030-01-21) already covers it as *.example.com: "
        "this more specific one would take its place for shop.example.com once approved")
    assert overlap_warnings(store.entries(), "example.org") == ()


def _overlapping(tmp_path) -> OverrideStore:
    store = OverrideStore(tmp_path / "overrides.yaml", clock=lambda: NOW)
    _approved(store)                                                     # ov-0001
    store.propose(host="shop.example.com", encoding="gbk", reason=REASON, author="eve",
                  review_by=NOW.date() + timedelta(days=9))              # ov-0002
    rejected = store.propose(host="shop.example.com", encoding="gbk", reason=REASON,
                             author="eve", review_by=NOW.date() + timedelta(days=9))
    store.reject(rejected.id, reviewer="bob", reason=REASON)             # ov-0003: closed
    _approved(store, host="*.example.com")                               # ov-0004
    return store


def test_review_order_puts_overdue_then_due_first(tmp_path):
    """Overdue, then due within DUE_DAYS, then the rest, file order within each; closed
    entries are left out."""
    store = OverrideStore(tmp_path / "overrides.yaml", clock=lambda: NOW)
    _approved(store, host="a.example.com", days=200)                     # ov-0001: ok
    _approved(store, host="b.example.com", days=10)                      # ov-0002: due
    _overlapping(tmp_path)  # ov-0003..0006 as above (ov-0005 rejected)
    store.propose(host="c.example.com", encoding="gbk", reason=REASON, author="eve",
                  review_by=NOW.date() + timedelta(days=100))            # ov-0007: ok
    assert [e.id for e in review_order(store.entries(), NOW.date())] == [
        "ov-0002", "ov-0003", "ov-0004", "ov-0006", "ov-0001", "ov-0007"]
    later = NOW.date() + timedelta(days=15)  # ov-0002 and ov-0004 are overdue then
    assert [e.id for e in review_order(store.entries(), later)] == [
        "ov-0002", "ov-0004", "ov-0003", "ov-0006", "ov-0001", "ov-0007"]
