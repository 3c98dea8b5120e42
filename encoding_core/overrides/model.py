"""Site override records and the rules that decide which one applies.

A site override is a dated decision, not a permanent fact (seed 000: "a site-specific
encoding override is configuration with a recorded reason, never a code change"). This
module holds the immutable records read from the overrides file and the pure rules over
them; ``overrides.py`` reads and writes the file. The checks of user input (host pattern,
encoding, reason, names) live in ``checks.py`` and are re-exported here.

Which override applies to a host on a date (``choose_active``):

* only ``approved`` entries apply; ``proposed``, ``rejected`` and ``retired`` never do;
* an entry applies up to and including its ``review_by`` date and is expired after it,
  until a reviewer re-tests it and renews or retires it;
* the most specific host wins: ``shop.example.com`` beats ``*.shop.example.com`` beats
  ``*.example.com``; a wildcard matches subdomains at any depth, never the bare domain;
* between two applicable entries for the same host pattern (only possible in a hand-edited
  file: ``approve`` refuses it), the later approval wins and the other is reported shadowed.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from enum import StrEnum

from ..decision.models import Evidence, Source
from ..decision.overridden import HostOverrides
from .checks import (
    MIN_REASON_WORDS,
    check_encoding,
    check_host,
    check_name,
    check_reason,
    same_person,
)
from .identity import Identity, Verified

__all__ = [
    "MIN_REASON_WORDS",
    "Applicability",
    "HistoryEvent",
    "OverrideEvidence",
    "OverrideStatus",
    "SiteOverride",
    "Status",
    "check_encoding",
    "check_host",
    "check_name",
    "check_reason",
    "choose_active",
    "due_state",
    "host_matches",
    "host_overrides",
    "host_specificity",
    "same_person",
    "statuses_for",
]


class Status(StrEnum):
    """Where an entry is in its review life."""

    PROPOSED = "proposed"
    APPROVED = "approved"
    REJECTED = "rejected"
    RETIRED = "retired"


class Applicability(StrEnum):
    """Whether an entry that matches a host applies to it, and if not, why not."""

    APPLIED = "applied"
    EXPIRED = "expired"
    SHADOWED = "shadowed"
    PROPOSED = "proposed"
    REJECTED = "rejected"
    RETIRED = "retired"


@dataclass(frozen=True, slots=True)
class OverrideEvidence:
    """What the proposal rests on: the page it was seen on and what the normal path did.

    ``corrects`` is the ``Source`` whose answer the override replaces (``http-header``...);
    ``replacements`` and ``conflicts`` are counts from the normal decode of that body;
    ``capture`` is a landing-zone reference so the bytes can be looked at again.
    """

    url: str | None = None
    fetched_at: datetime | None = None
    sha256: str | None = None
    corrects: str | None = None
    replacements: int | None = None
    conflicts: int | None = None
    capture: str | None = None


@dataclass(frozen=True, slots=True)
class HistoryEvent:
    """One change to an entry: who, when, what (``changes`` as field, old, new).

    ``identity`` is who acted and how that was verified (None in events written before
    identities were recorded: nothing verified them).
    """

    at: datetime
    by: str
    action: str
    reason: str | None = None
    changes: tuple[tuple[str, str | None, str | None], ...] = ()
    identity: Identity | None = None

    @property
    def verified_how(self) -> str:
        """How ``by`` was verified, in a few words ("unverified" when nothing did)."""
        return self.identity.how() if self.identity is not None else "unverified: not recorded"


@dataclass(frozen=True, slots=True)
class SiteOverride:
    """One entry of the overrides file, validated; ``encoding`` is a WHATWG name.

    ``approved_by``/``approved_on`` name the last approval or renewal, ``approved_via`` how
    the approver was verified (None in a file written before it was recorded: unverified);
    ``closed_by``/``closed_on``/``closed_reason`` the rejection or retirement.
    """

    id: str
    host: str
    encoding: str
    reason: str
    created: datetime
    created_by: str
    review_by: date
    status: Status
    approved_by: str | None = None
    approved_on: date | None = None
    approved_via: Verified | None = None
    closed_by: str | None = None
    closed_on: date | None = None
    closed_reason: str | None = None
    evidence: OverrideEvidence | None = None

    @property
    def approval_verified(self) -> bool:
        """True when the last approval or renewal was by a verified identity."""
        return self.approved_via not in (None, Verified.UNVERIFIED)

    @property
    def approver(self) -> str:
        """Who approved, marked ``(unverified)`` unless a sign-in or proxy verified them."""
        if self.approved_by is None:
            return ""
        return self.approved_by if self.approval_verified else f"{self.approved_by} (unverified)"

    def expired_on(self, on: date) -> bool:
        """True once ``on`` is after the review date."""
        return on > self.review_by

    def days_left(self, on: date) -> int:
        """Days from ``on`` to the review date (negative once past)."""
        return (self.review_by - on).days


def due_state(entry: SiteOverride, on: date, within_days: int = 0) -> str:
    """``closed`` (rejected, retired), ``expired`` (review date passed: an approved entry no
    longer applies, a proposal can no longer be approved), ``due`` (review date within
    ``within_days`` days of ``on``) or ``ok``."""
    if entry.status in (Status.REJECTED, Status.RETIRED):
        return "closed"
    if entry.expired_on(on):
        return "expired"
    if entry.days_left(on) <= within_days:
        return "due"
    return "ok"


@dataclass(frozen=True, slots=True)
class OverrideStatus:
    """An entry that matches a host, whether it applies there, and why (for the trace)."""

    entry: SiteOverride
    applicability: Applicability
    why: str

    @property
    def applied(self) -> bool:
        """True for the one entry that decode uses for this host."""
        return self.applicability is Applicability.APPLIED

    def to_evidence(self) -> Evidence:
        """The status as a trace row (``Source.OVERRIDE``, used only when applied)."""
        return Evidence(
            source=Source.OVERRIDE,
            raw_label=self.entry.encoding,
            encoding=self.entry.encoding,
            used=self.applied,
            reason=f"override {self.entry.id} for {self.entry.host}: {self.why}",
        )


def host_overrides(statuses: Sequence[OverrideStatus]) -> HostOverrides:
    """What ``statuses`` (``statuses_for`` a host) say for deciding one of its bodies
    (``decision.overridden.decode_overridden``): the applied entry's encoding, named in its
    trace row, and a trace row for every other matching entry."""
    applied = next((s for s in statuses if s.applied), None)
    return HostOverrides(
        encoding=applied.entry.encoding if applied is not None else None,
        applied_note=(f"override {applied.entry.id} for {applied.entry.host}: {applied.why}"
                      if applied is not None else ""),
        unapplied=tuple(s.to_evidence() for s in statuses if not s.applied))


def host_matches(pattern: str, host: str) -> bool:
    """True when ``pattern`` (exact or ``*.domain``) covers ``host``.

    >>> host_matches("*.example.com", "a.b.example.com")
    True
    >>> host_matches("*.example.com", "example.com")
    False
    """
    host = _lookup_host(host)
    if pattern.startswith("*."):
        return host.endswith(pattern[1:])
    return host == pattern


def _lookup_host(host: str) -> str:
    """A host as patterns are stored: lower case, no trailing dot, IDNA (``xn--``) labels."""
    host = host.strip().lower().rstrip(".")
    if not host.isascii():
        with contextlib.suppress(UnicodeError):  # not a valid name: it matches no pattern
            host = host.encode("idna").decode("ascii")
    return host


def host_specificity(pattern: str) -> tuple[int, int]:
    """Sort key: exact hosts first, then wildcards over longer domains."""
    if pattern.startswith("*."):
        return (0, pattern.count(".") - 1)
    return (1, pattern.count(".") + 1)


def _approval_key(entry: SiteOverride) -> tuple[tuple[int, int], date, str]:
    return (host_specificity(entry.host), entry.approved_on or date.min, entry.id)


def statuses_for(entries: tuple[SiteOverride, ...], host: str, on: date
                 ) -> tuple[OverrideStatus, ...]:
    """Every entry matching ``host``, the applied one first, each with why it (does not) apply."""
    matching = sorted((e for e in entries if host_matches(e.host, host)),
                      key=_approval_key, reverse=True)
    winner = choose_active(tuple(matching), host, on)
    result = []
    for entry in matching:
        result.append(_status(entry, winner, on))
    result.sort(key=lambda s: not s.applied)
    return tuple(result)


def _status(entry: SiteOverride, winner: SiteOverride | None, on: date) -> OverrideStatus:
    due = entry.review_by.isoformat()
    if entry.status is Status.PROPOSED:
        return OverrideStatus(entry, Applicability.PROPOSED,
                              f"not applied: proposed by {entry.created_by}, awaiting approval")
    if entry.status is Status.REJECTED:
        return OverrideStatus(entry, Applicability.REJECTED,
                              f"not applied: rejected by {entry.closed_by}: {entry.closed_reason}")
    if entry.status is Status.RETIRED:
        return OverrideStatus(entry, Applicability.RETIRED,
                              f"not applied: retired by {entry.closed_by}: {entry.closed_reason}")
    if entry.expired_on(on):
        return OverrideStatus(entry, Applicability.EXPIRED,
                              f"not applied: expired, review was due {due}; re-test, then "
                              "renew or retire it")
    if winner is not None and winner.id != entry.id:
        return OverrideStatus(entry, Applicability.SHADOWED,
                              f"not applied: {winner.id} for {winner.host} is more specific "
                              "or more recently approved")
    return OverrideStatus(entry, Applicability.APPLIED,
                          f"applied: approved by {entry.approver}, review by {due}")


def choose_active(entries: tuple[SiteOverride, ...], host: str, on: date) -> SiteOverride | None:
    """The approved, unexpired entry for ``host`` on ``on``, most specific host first."""
    live = [e for e in entries if e.status is Status.APPROVED and not e.expired_on(on)
            and host_matches(e.host, host)]
    return max(live, key=_approval_key, default=None)
