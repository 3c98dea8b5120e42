"""A field scan as JSON and back: what ``scan-csv --json`` prints and a job's ``report.json``.

``scan_to_dict(report, file)`` is the one writer (the CLI's ``--json``, ``spark scan``'s
``report.json``); ``scan_from_json`` reads it back into a ``ScanReport`` for the CSV scan page,
refusing anything else with a message that says what is wrong. The round trip keeps every
count, note and finding; a finding's cells come back as JSON gave them (``null`` stays None).
"""

from __future__ import annotations

import json
from typing import Any

from ..extras import needs_extra
from .scanreport import COLUMN_FIELDS, FINDING_FIELDS, HOST_FIELDS, ScanReport, empty_frame

with needs_extra("fields", "the field scan"):
    import pandas as pd

__all__ = ["scan_from_json", "scan_to_dict", "scan_to_json"]

_FINDING_ORDER = ("file", "row", "line", "column", "host", "kind", "original", "repaired",
                  "chain", "excerpt")


def scan_to_dict(report: ScanReport, file: str) -> dict[str, Any]:
    """``{"file": file, **report.summary(), "findings": [...]}`` in plain JSON types."""
    findings = json.loads(report.findings.to_json(orient="records", force_ascii=False))
    return {"file": file, **report.summary(), "findings": findings}


def scan_to_json(report: ScanReport, file: str) -> str:
    """``scan_to_dict`` as indented JSON text (UTF-8 characters as they are)."""
    return json.dumps(scan_to_dict(report, file), indent=2, ensure_ascii=False, default=str)


def _frame(rows: list[dict[str, Any]], names: list[str], what: str) -> pd.DataFrame:
    """The rows as a frame of ``names`` first (then any other field); each must be there."""
    if not rows:
        return empty_frame(names)
    for row in rows:
        missing = [name for name in names if name not in row]
        if missing:
            raise ValueError(f"a row of {what} lacks {', '.join(missing)}")
    extra = sorted({name for row in rows for name in row} - set(names))
    return pd.DataFrame(rows, columns=[*names, *extra])


def _counts(frame: pd.DataFrame, names: tuple[str, ...]) -> pd.DataFrame:
    counts = [n for n in names if n not in (names[0], "rate")]
    return frame.astype({name: "int64" for name in counts} | {"rate": float})


def scan_from_json(text: str | bytes) -> tuple[str, ScanReport]:
    """The file name and the report read back from ``scan_to_json``'s text; ``ValueError``
    saying what is wrong when it is not a field scan written by encoding-triage."""
    try:
        data = json.loads(text)
        columns = _counts(_frame(list(data["columns"]), list(COLUMN_FIELDS), "columns"),
                          COLUMN_FIELDS)
        hosts = data.get("hosts")
        host_frame = None if hosts is None else _counts(
            _frame(list(hosts), list(HOST_FIELDS), "hosts"), HOST_FIELDS)
        found = list(data.get("findings", []))
        present = {name for item in found for name in item}
        required = [n for n in FINDING_FIELDS if n not in ("line", "host")]
        order = [n for n in _FINDING_ORDER if n in present or n in required]
        findings = _frame(found, order, "findings")
        malformed = _frame(list(data.get("malformed", [])), ["line", "problem"], "malformed")
        report = ScanReport(
            columns, findings, host_frame, int(data["rows"]), int(data["flagged"]),
            bool(data.get("findings_truncated", False)),
            encoding=data.get("encoding"), encoding_reason=data.get("encoding_reason"),
            delimiter=data.get("delimiter"), malformed=malformed,
            malformed_count=int(data.get("malformed_count", 0)),
            decode_errors=int(data.get("decode_errors", 0)),
            nul_chars=int(data.get("nul_chars", 0)),
            mixed_encoding=data.get("mixed_encoding"),
            mixed_lines=int(data.get("mixed_lines", 0)),
            notes=tuple(str(n) for n in data.get("notes", ())))
        return str(data.get("file", "")), report
    except (ValueError, TypeError, KeyError, AttributeError, IndexError) as exc:
        raise ValueError(f"not a field scan written by encoding-triage: {exc}") from exc
