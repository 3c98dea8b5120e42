"""Tests for fields.scanmerge: scans of disjoint rows merge, in any grouping and order, to the
scan of all the rows."""

from __future__ import annotations

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from encoding_core import scan_frame

VALUES = ["JosÃ© Smith", "Ana Lima", "MÃ¼ller", "Oâ€™Brien said â€œhiâ€\ufffd", "Jos? Garc?a",
          "Plain", None, "Ð£Ð»Ð¸Ñ†Ð° 12"]
URLS = ["http://a.example/1", "http://b.example/2", "shop.example", None]


def _sorted(findings: pd.DataFrame) -> pd.DataFrame:
    return findings.sort_values(["row", "column"], kind="stable").reset_index(drop=True)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(VALUES), st.sampled_from(VALUES),
                          st.sampled_from(URLS)), min_size=1, max_size=60),
       st.randoms(use_true_random=False))
def test_any_split_and_order_merges_to_the_whole_scan(rows, rng):
    """Rows dealt into random parts, each scanned, the reports merged in random order."""
    frame = pd.DataFrame(rows, columns=["name", "comment", "url"])
    whole = scan_frame(frame, ["name", "comment"], "url")
    parts = [[] for _ in range(rng.randint(1, 4))]
    for label in frame.index:
        rng.choice(parts).append(label)
    reports = [scan_frame(frame.loc[labels], ["name", "comment"], "url")
               for labels in parts if labels]
    rng.shuffle(reports)
    merged = reports[0]
    for report in reports[1:]:
        merged = merged.merge(report)
    pd.testing.assert_frame_equal(merged.columns, whole.columns)
    pd.testing.assert_frame_equal(merged.hosts, whole.hosts)
    pd.testing.assert_frame_equal(_sorted(merged.findings), _sorted(whole.findings),
                                  check_dtype=False)
    assert (merged.rows, merged.flagged) == (whole.rows, whole.flagged)


def test_findings_stay_a_bounded_sample_that_does_not_depend_on_order():
    """With a cap, the merged findings are the first by (row, column), whichever came first."""
    frame = pd.DataFrame({"name": ["JosÃ© Smith"] * 30})
    first, second = scan_frame(frame.iloc[:15]), scan_frame(frame.iloc[15:])
    one = first.merge(second, max_findings=10)
    other = second.merge(first, max_findings=10)
    assert one.findings["row"].tolist() == other.findings["row"].tolist() == list(range(10))
    assert one.findings_truncated and one.flagged == 30
