"""Tests for fields.scantotals: the totals and the kinds of flagged cells a scan shows."""

from __future__ import annotations

import pandas as pd

from encoding_core.fields.csvscan import scan_frame
from encoding_core.fields.scantotals import KIND_ORDER, cells_by_kind, scan_totals

MOJIBAKE = "JosÃ©"         # repairable
LOSSY = "Jos\ufffd Garc\ufffda"  # lost characters


def test_totals_add_up_every_column():
    """Cells and flagged cells of two columns are added up."""
    frame = pd.DataFrame({"a": [MOJIBAKE, "ok", LOSSY], "b": ["fine", MOJIBAKE, "x"]})
    report = scan_frame(frame, ["a", "b"])
    totals = scan_totals(report)
    assert (totals.cells, totals.flagged) == (6, 3)
    assert totals.repairable == 2 and totals.lossy == 1
    assert totals.flagged == int(report.columns["flagged"].sum())


def test_cells_by_kind_splits_each_columns_flagged_cells():
    """Each column's flagged cells fall into exactly one kind; the four add up to flagged."""
    frame = pd.DataFrame({"column": ["a", "b"], "flagged": [5, 2], "repairable": [2, 0],
                          "partly_repairable": [1, 0], "lossy": [1, 2]})
    long = cells_by_kind(frame, "column")
    assert list(long["kind"].unique()) == list(KIND_ORDER)
    got = {(r.column, r.kind): r.cells for r in long.itertuples()}
    assert got[("a", "mojibake, no repair")] == 1 and got[("b", "mojibake, no repair")] == 0
    assert long.groupby("column")["cells"].sum().to_dict() == {"a": 5, "b": 2}
