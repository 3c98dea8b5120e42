"""A field scan as JSON and back: what ``scan-csv --json`` prints and a job's ``report.json``.

``scan_to_dict(report, file)`` is the one writer (the CLI's ``--json``, ``spark scan``'s
``report.json``); ``scan_from_json`` reads it back into a ``ScanReport`` for the CSV scan page,
refusing anything else with a message that says what is wrong: the one reader of this untrusted
format, which checks every count's type and never coerces one (``"3"``, ``2.5``, ``true``).
The round trip keeps every count, note and finding; a finding's cells come back as JSON gave
them (``null`` stays None).
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


def _rows(value: Any, what: str) -> list[dict[str, Any]]:
    if not isinstance(value, list) or not all(isinstance(row, dict) for row in value):
        raise ValueError(f"{what} is not a list of objects")
    return value


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


def _count(value: Any, where: str) -> int:
    """A count from JSON as it is: a whole number, 0 or more (no ``"3"``, ``2.5`` or ``true``)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{where} is {value!r:.60}, not a count")
    return value


def _counts(frame: pd.DataFrame, names: tuple[str, ...], what: str) -> pd.DataFrame:
    """The count columns checked cell by cell, never coerced; ``rate`` a number."""
    counts = [n for n in names if n not in (names[0], "rate")]
    for name in counts:
        for i, value in enumerate(frame[name].tolist()):
            _count(value, f"{what}[{i}].{name}")
    for i, value in enumerate(frame["rate"].tolist() if "rate" in frame else []):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"{what}[{i}].rate is {value!r:.60}, not a number")
    return frame.astype({name: "int64" for name in counts} | {"rate": float})


def scan_from_json(text: str | bytes) -> tuple[str, ScanReport]:
    """The file name and the report read back from ``scan_to_json``'s text; ``ValueError``
    saying what is wrong when it is not a field scan written by encoding-triage."""
    try:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("the top level is not an object")
        columns = _counts(_frame(_rows(data["columns"], "columns"), list(COLUMN_FIELDS),
                                 "columns"), COLUMN_FIELDS, "columns")
        hosts = data.get("hosts")
        host_frame = None if hosts is None else _counts(
            _frame(_rows(hosts, "hosts"), list(HOST_FIELDS), "hosts"), HOST_FIELDS, "hosts")
        found = _rows(data.get("findings", []), "findings")
        present = {name for item in found for name in item}
        required = [n for n in FINDING_FIELDS if n not in ("line", "host")]
        order = [n for n in _FINDING_ORDER if n in present or n in required]
        findings = _frame(found, order, "findings")
        malformed = _frame(_rows(data.get("malformed", []), "malformed"), ["line", "problem"],
                           "malformed")
        truncated = data.get("findings_truncated", False)
        if not isinstance(truncated, bool):
            raise ValueError(f"findings_truncated is {truncated!r:.60}, not true or false")
        texts = {key: data.get(key) for key in ("encoding", "encoding_reason", "delimiter",
                                                 "mixed_encoding", "file")}
        for key, value in texts.items():
            if value is not None and not isinstance(value, str):
                raise ValueError(f"{key} is {value!r:.60}, not text")
        notes = data.get("notes", [])
        if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
            raise ValueError("notes is not a list of text")
        report = ScanReport(
            columns, findings, host_frame, _count(data["rows"], "rows"),
            _count(data["flagged"], "flagged"), truncated,
            encoding=texts["encoding"], encoding_reason=texts["encoding_reason"],
            delimiter=texts["delimiter"], malformed=malformed,
            malformed_count=_count(data.get("malformed_count", 0), "malformed_count"),
            decode_errors=_count(data.get("decode_errors", 0), "decode_errors"),
            nul_chars=_count(data.get("nul_chars", 0), "nul_chars"),
            mixed_encoding=texts["mixed_encoding"],
            mixed_lines=_count(data.get("mixed_lines", 0), "mixed_lines"),
            notes=tuple(notes))
        return texts["file"] or "", report
    except RecursionError as exc:
        raise ValueError("not a field scan written by encoding-triage: nested too deeply"
                         ) from exc
    except (ValueError, TypeError, KeyError, AttributeError, IndexError) as exc:
        raise ValueError(f"not a field scan written by encoding-triage: {exc}") from exc
