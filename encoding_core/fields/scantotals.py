"""The counts a scan's summary shows: the totals over its columns, and flagged cells by kind.

``scan_totals`` adds up the per-column counts of a ``ScanReport``; ``cells_by_kind`` splits
each column's (or host's) flagged cells into the four kinds a reader acts on, in
``KIND_ORDER``: repairable, partly repairable, mojibake with no repair (flagged and none of the
others), lossy. Both work on a report read back from JSON as on a fresh one.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..extras import needs_extra
from .scanreport import ScanReport

with needs_extra("fields", "the field scan"):
    import pandas as pd

__all__ = ["KIND_ORDER", "ScanTotals", "cells_by_kind", "scan_totals"]

#: The kinds of a flagged cell, from the most to the least repairable.
KIND_ORDER = ("repairable", "partly repairable", "mojibake, no repair", "lossy")


@dataclass(frozen=True, slots=True)
class ScanTotals:
    """Cells scanned and flagged over every column, and the flagged ones by kind."""

    cells: int
    flagged: int
    repairable: int
    partly_repairable: int
    lossy: int


def scan_totals(report: ScanReport) -> ScanTotals:
    """The column counts of ``report`` added up.

    >>> from encoding_core.fields.scanreport import empty_frame, COLUMN_FIELDS
    >>> scan_totals(ScanReport(empty_frame(COLUMN_FIELDS), empty_frame(["kind"])))
    ScanTotals(cells=0, flagged=0, repairable=0, partly_repairable=0, lossy=0)
    """
    columns = report.columns
    return ScanTotals(*(int(columns[name].sum()) for name in
                        ("cells", "flagged", "repairable", "partly_repairable", "lossy")))


def cells_by_kind(frame: pd.DataFrame, by: str) -> pd.DataFrame:
    """One row per (``by`` value, kind in ``KIND_ORDER``) with its count of flagged cells
    (``by`` is ``"column"`` for ``report.columns``, ``"host"`` for ``report.hosts``)."""
    unrepaired = (frame["flagged"] - frame["repairable"] - frame["partly_repairable"]
                  - frame["lossy"])
    counts = (frame["repairable"], frame["partly_repairable"], unrepaired, frame["lossy"])
    return pd.DataFrame({
        by: list(frame[by]) * len(KIND_ORDER),
        "kind": [kind for kind in KIND_ORDER for _ in range(len(frame))],
        "cells": [int(n) for count in counts for n in count],
    })
