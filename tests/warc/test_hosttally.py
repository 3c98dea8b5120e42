"""Tests for warc.hosttally: per-host tallies merge in any grouping and order to one report."""

from __future__ import annotations

from functools import reduce

from hypothesis import given
from hypothesis import strategies as st

from encoding_core.warc.hostmodels import RecordOutcome
from encoding_core.warc.hostreport import report_of, summarise
from encoding_core.warc.hosttally import HostTally, tally_hosts

RECORDS = st.builds(
    RecordOutcome,
    url=st.just("http://x/"), host=st.sampled_from(["a.example", "b.example", "c.example"]),
    status=st.sampled_from([200, 200, 302, 404]),
    encoding=st.sampled_from(["utf-8", "windows-1252", "shift_jis"]),
    source=st.sampled_from(["http-header", "meta-tag", "detector", "http-header-lossy"]),
    replacements=st.integers(0, 40),
    conflicts=st.lists(st.sampled_from(["lossy", "utf8-under-legacy", "browser-differs"]),
                       max_size=2).map(tuple),
    needs_review=st.booleans(), suggested=st.sampled_from(["", "", "utf-8", "windows-1251"]),
    error=st.sampled_from([None, None, None, "refused"]),
    not_a_page=st.sampled_from(["", "", "", "redirect"]))

@given(st.lists(RECORDS, max_size=40), st.randoms(use_true_random=False))
def test_any_split_and_order_merges_to_the_single_machine_report(records, rng):
    """Records dealt into random partitions, tallied there, merged in random order: the same
    hosts as summarise over all the records in one place."""
    partitions: list[list[RecordOutcome]] = [[] for _ in range(rng.randint(1, 5))]
    for record in records:
        rng.choice(partitions).append(record)
    partial = [tally_hosts(part) for part in partitions]
    rng.shuffle(partial)
    merged: dict[str, HostTally] = {}
    for tallies in partial:
        for host, tally in tallies.items():
            merged[host] = merged[host].merge(tally) if host in merged else tally
    assert report_of(merged.values()).hosts == summarise(records).hosts


@given(st.lists(RECORDS, min_size=1, max_size=30), st.randoms(use_true_random=False))
def test_ties_do_not_follow_arrival_order(records, rng):
    """Shuffled input, the same summaries (sources, kinds, the suggested override)."""
    shuffled = list(records)
    rng.shuffle(shuffled)
    assert summarise(shuffled).hosts == summarise(records).hosts


@given(st.lists(RECORDS, min_size=3, max_size=30))
def test_merge_is_associative_and_commutative(records):
    """(a + b) + c == a + (b + c) == c + b + a, for one host's tallies."""
    one = [r for r in records if r.host == records[0].host]
    thirds = [one[i::3] for i in range(3)]
    a, b, c = (reduce(HostTally.add, part, HostTally(records[0].host)) for part in thirds)
    assert a.merge(b).merge(c).summary() == a.merge(b.merge(c)).summary()
    assert a.merge(b).merge(c).summary() == c.merge(b).merge(a).summary()


def test_lossy_pages_are_counted_from_the_source_string():
    """A record keeps the decision's source as JSON writes it ("http-header-lossy"): those
    count as lossy, a source that only ends alike or names no source does not."""
    tally = HostTally("a.example")
    for source in ("http-header-lossy", "bom-lossy", "meta-tag", "http-header", "nonsense-lossy"):
        tally.add(RecordOutcome("http://a.example/", "a.example", 200, "utf-8", source))
    summary = tally.summary()
    assert (summary.records, summary.lossy) == (5, 2)
