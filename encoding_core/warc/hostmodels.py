"""The records of a host report: one page's outcome (``RecordOutcome``) and one host's numbers
(``HostSummary``), shared by the report, the mergeable tallies and the Spark layer."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["QUARANTINE_THRESHOLD", "HostSummary", "RecordOutcome"]

#: Seed 000 quarantines a host's encoding when one page needs more replacements than this.
QUARANTINE_THRESHOLD = 20


@dataclass(frozen=True, slots=True)
class RecordOutcome:
    """The decision for one page, or why there is none."""

    url: str
    host: str
    status: int = 0
    encoding: str = ""
    source: str = ""
    replacements: int = 0
    conflicts: tuple[str, ...] = ()    # conflict kinds
    needs_review: bool = False
    suggested: str = ""                # what the conflicts say an override would set
    body_length: int = 0
    error: str | None = None           # a fetch that failed (URL lists only)
    not_a_page: str = ""               # "redirect" or "empty body": nothing was decided
    capture_id: str | None = None      # the landing-zone capture it was decided from (URLs)
    record_index: int | None = None    # the WARC record it was decided from (WARC files)
    content_type: str = ""             # the response's Content-Type header, as sent
    warc_file: str = ""                # the WARC file's path, when it was read from one

    @property
    def decided(self) -> bool:
        """True for a page whose body was decided (no fetch error, not a redirect or empty)."""
        return self.error is None and not self.not_a_page

    @property
    def quarantined(self) -> bool:
        """True when seed 000 would quarantine this page's host (more than 20 replacements)."""
        return self.replacements > QUARANTINE_THRESHOLD


@dataclass(frozen=True, slots=True)
class HostSummary:
    """Seed 000's numbers for one host."""

    host: str
    records: int
    sources: tuple[tuple[str, int], ...]      # decode_source: (source, pages), most first
    encodings: tuple[tuple[str, int], ...]
    replacements: int                         # decode_replacements: the sum
    max_replacements: int
    lossy: int
    conflicts: int                            # pages with at least one conflict
    conflict_kinds: tuple[tuple[str, int], ...]
    needs_review: int                         # pages whose decision a person should check
    quarantined_records: int
    errors: int
    suggested_override: str = ""              # what half the pages' conflicts point at, or more
    suggested_pages: int = 0                  # how many pages point at it
    not_pages: tuple[tuple[int, int], ...] = ()  # (status, records): redirects, empty bodies

    @property
    def pages(self) -> int:
        """Records whose body was decided: not fetch errors, redirect hops or empty bodies."""
        return self.records - self.errors - sum(n for _, n in self.not_pages)

    @property
    def quarantine(self) -> bool:
        """True when at least one page crossed the quarantine threshold."""
        return self.quarantined_records > 0
