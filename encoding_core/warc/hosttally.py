"""Mergeable per-host tallies: what a host report counts, combined in any grouping and order.

An engine (Spark's ``aggregateByKey``, a pool of processes) decides records where they are and
combines partial results before the shuffle, so a host's numbers must not need all its
records in one place. ``HostTally`` holds only counts; ``merge`` is associative and
commutative (counts add, the worst page is a maximum), and every ranking breaks ties by the
name, never by arrival order, so the same records give the same ``HostSummary`` however they
were split. ``summarise`` builds the single-machine report from the same tallies, so the two
paths cannot drift.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..decision.models import split_decided_by
from .hostmodels import HostSummary, RecordOutcome

__all__ = ["HostTally", "ranked", "tally_hosts"]


def ranked(counts: Counter[str]) -> tuple[tuple[str, int], ...]:
    """``counts`` most first, ties by name (``Counter.most_common`` keeps arrival order).

    >>> ranked(Counter({"meta-tag": 2, "http-header": 2, "bom": 5}))
    (('bom', 5), ('http-header', 2), ('meta-tag', 2))
    """
    return tuple(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


@dataclass(slots=True)
class HostTally:
    """One host's counts over some of its records."""

    host: str
    records: int = 0
    decided: int = 0
    errors: int = 0
    replacements: int = 0
    max_replacements: int = 0
    lossy: int = 0
    conflicts: int = 0
    needs_review: int = 0
    quarantined: int = 0
    sources: Counter[str] = field(default_factory=Counter)
    encodings: Counter[str] = field(default_factory=Counter)
    conflict_kinds: Counter[str] = field(default_factory=Counter)
    suggested: Counter[str] = field(default_factory=Counter)
    not_pages: Counter[int] = field(default_factory=Counter)

    def add(self, record: RecordOutcome) -> HostTally:
        """Count one record of this host (in place); returns the tally."""
        self.records += 1
        if record.error is not None:
            self.errors += 1
            return self
        if record.not_a_page:
            self.not_pages[record.status] += 1
            return self
        self.decided += 1
        self.replacements += record.replacements
        self.max_replacements = max(self.max_replacements, record.replacements)
        decided_by = split_decided_by(record.source)   # "meta-tag-lossy", as JSON keeps it
        self.lossy += decided_by is not None and decided_by[1]
        self.conflicts += bool(record.conflicts)
        self.needs_review += record.needs_review
        self.quarantined += record.quarantined
        self.sources[record.source] += 1
        self.encodings[record.encoding] += 1
        self.conflict_kinds.update(record.conflicts)
        if record.suggested:
            self.suggested[record.suggested] += 1
        return self

    def merge(self, other: HostTally) -> HostTally:
        """A new tally with both's counts (associative, commutative; hosts must match)."""
        if other.host != self.host:
            raise ValueError(f"cannot merge the tallies of {self.host!r} and {other.host!r}")
        return HostTally(
            self.host, self.records + other.records, self.decided + other.decided,
            self.errors + other.errors, self.replacements + other.replacements,
            max(self.max_replacements, other.max_replacements), self.lossy + other.lossy,
            self.conflicts + other.conflicts, self.needs_review + other.needs_review,
            self.quarantined + other.quarantined, self.sources + other.sources,
            self.encodings + other.encodings, self.conflict_kinds + other.conflict_kinds,
            self.suggested + other.suggested, self.not_pages + other.not_pages)

    def summary(self) -> HostSummary:
        """Seed 000's numbers for the host; the override half its pages point at, if any."""
        top = ranked(self.suggested)[:1]
        suggestion = [(e, n) for e, n in top if 2 * n >= self.decided]  # or it is a section
        return HostSummary(
            host=self.host, records=self.records, sources=ranked(self.sources),
            encodings=ranked(self.encodings), replacements=self.replacements,
            max_replacements=self.max_replacements, lossy=self.lossy,
            conflicts=self.conflicts, conflict_kinds=ranked(self.conflict_kinds),
            needs_review=self.needs_review, quarantined_records=self.quarantined,
            errors=self.errors,
            suggested_override=suggestion[0][0] if suggestion else "",
            suggested_pages=suggestion[0][1] if suggestion else 0,
            not_pages=tuple(sorted(self.not_pages.items())))


def tally_hosts(records: Iterable[RecordOutcome]) -> dict[str, HostTally]:
    """One tally per host over ``records``."""
    tallies: dict[str, HostTally] = {}
    for record in records:
        tally = tallies.get(record.host)
        if tally is None:
            tally = tallies[record.host] = HostTally(record.host)
        tally.add(record)
    return tallies
