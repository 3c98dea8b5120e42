"""The files a scan offers for download, each with its label, name and type, in one list.

A page renders them as they come (one download button each), so which bytes go under which
label is decided, and tested, here: the flagged cells with proposed repairs as CSV, and the
summary (everything but the findings) as JSON.
"""

from __future__ import annotations

from dataclasses import dataclass

from .scanreport import ScanReport

__all__ = ["Download", "scan_downloads"]


@dataclass(frozen=True, slots=True)
class Download:
    """One file to download: the button's label and key, the file's name, type and bytes."""

    label: str
    key: str
    file_name: str
    mime: str
    data: bytes


def scan_downloads(report: ScanReport, stem: str) -> tuple[Download, ...]:
    """The findings (CSV, for a spreadsheet) and the summary (JSON) of ``report``, named
    after ``stem`` (the scanned file's name without its suffix)."""
    return (
        Download("Flagged cells with proposed repairs (CSV)", "csv_download_findings",
                 f"{stem}_flagged.csv", "text/csv", report.findings_csv()),
        Download("Summary (JSON)", "csv_download_summary", f"{stem}_summary.json",
                 "application/json", report.summary_json().encode("utf-8")),
    )
