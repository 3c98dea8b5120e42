"""Merging field scans of disjoint rows: ``merge_reports(a, b)``, what ``ScanReport.merge`` does.

An engine scans a table batch by batch (Spark's ``mapInArrow``, a pool of processes) and
combines the reports. The merge is associative and commutative, so any grouping and order give
the same report: counts add per column and per host; the findings are the first
``max_findings`` by (file, row, column: in the columns' order), a bounded sample that does
not depend on arrival order; the columns keep their order when both reports have the same
ones (else they are sorted by name); what a CSV read said (encoding, delimiter) stays when
both agree and is joined otherwise.
"""

from __future__ import annotations

from typing import Any

from ..extras import needs_extra
from .scanreport import MAX_FINDINGS, ScanReport

with needs_extra("fields", "the field scan"):
    import pandas as pd

__all__ = ["merge_reports"]


def _rate(frame: pd.DataFrame) -> pd.DataFrame:
    frame["rate"] = (frame["flagged"] / frame["cells"].where(frame["cells"] > 0)
                     ).fillna(0.0).astype(float)
    return frame


def _sum(a: pd.DataFrame, b: pd.DataFrame, key: str) -> pd.DataFrame:
    """Rows of ``a`` and ``b`` added per ``key`` (the rate recomputed)."""
    counts = [c for c in a.columns if c not in (key, "rate")]
    same = list(a[key]) == list(b[key])
    order = list(a[key]) if same else sorted({*a[key], *b[key]})
    total = (pd.concat([a, b]).groupby(key, sort=False)[counts].sum()
             .reindex(order).reset_index())
    return _rate(total.astype({c: "int64" for c in counts}))


def _joined(a: str | None, b: str | None) -> str | None:
    if a == b:
        return a
    return " + ".join(sorted({x for x in (a, b) if x}))


def _first(findings: pd.DataFrame, limit: int, columns: list[str]) -> pd.DataFrame:
    """The first ``limit`` findings by (file, row, column), a column by its place in
    ``columns`` (the order a scan takes a row's cells in, so one scan keeps the same ones)."""
    place = {name: number for number, name in enumerate(columns)}
    keyed = findings.assign(_column=findings["column"].map(place).fillna(len(place)))
    # scans of several files (``spark.scanjob.scan_csv_files``) name each finding's file
    by = ["file", "row", "_column"] if "file" in findings.columns else ["row", "_column"]
    try:
        ordered = keyed.sort_values(by, kind="stable")
    except TypeError:  # row labels of mixed types: order by their text
        ordered = keyed.assign(row=keyed["row"].astype(str)).sort_values(by, kind="stable")
        ordered["row"] = findings["row"].loc[ordered.index]
    # infer_objects: a part whose column held only None comes back object; as one frame, the
    # column is what a single scan gives (text, missing values NaN, not a mix of None and NaN)
    return (ordered.drop(columns="_column").head(limit).reset_index(drop=True)
            .infer_objects())


def merge_reports(a: ScanReport, b: ScanReport, *, max_findings: int = MAX_FINDINGS
                  ) -> ScanReport:
    """One report for the rows of both (see the module docstring for the rules)."""
    columns = _sum(a.columns, b.columns, "column")
    hosts = None
    if a.hosts is not None or b.hosts is not None:
        empty = (a.hosts if a.hosts is not None else b.hosts).iloc[0:0]  # type: ignore[union-attr]
        hosts = _sum(a.hosts if a.hosts is not None else empty,
                     b.hosts if b.hosts is not None else empty, "host")
        hosts = hosts.sort_values(["flagged", "host"], ascending=[False, True],
                                  ignore_index=True)
    both = pd.concat([a.findings, b.findings], ignore_index=True)
    findings = _first(both, max_findings, list(columns["column"]))
    fields: dict[str, Any] = {
        "encoding": _joined(a.encoding, b.encoding),
        "encoding_reason": _joined(a.encoding_reason, b.encoding_reason),
        "delimiter": _joined(a.delimiter, b.delimiter),
        "mixed_encoding": _joined(a.mixed_encoding, b.mixed_encoding),
    }
    malformed = pd.concat([a.malformed, b.malformed], ignore_index=True)
    if len(malformed):
        by = ["file", "line", "problem"] if "file" in malformed.columns else ["line", "problem"]
        malformed = malformed.sort_values(by, kind="stable", ignore_index=True)
    return ScanReport(
        columns, findings, hosts, a.rows + b.rows, a.flagged + b.flagged,
        a.findings_truncated or b.findings_truncated or len(both) > max_findings,
        malformed=malformed, malformed_count=a.malformed_count + b.malformed_count,
        decode_errors=a.decode_errors + b.decode_errors, nul_chars=a.nul_chars + b.nul_chars,
        mixed_lines=a.mixed_lines + b.mixed_lines,
        notes=tuple(sorted({*a.notes, *b.notes})), **fields)
