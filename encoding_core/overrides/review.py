"""What a review rests on: the re-test behind a renewal, and what a new proposal overlaps.

Renewing (``renewal_refusal``). The review date is the promise to re-test the override then
(seed 000: "re-test it on that date by attempting the normal resolution path against a
fresh sample"), so a renewal needs the latest re-test of the entry (``retest``):

* of the same entry and encoding;
* whose verdict is ``still-needed``: an ``unneeded`` override (the page decodes right
  without it) or a ``harmful`` one is retired, never renewed;
* run since the entry came due (``DUE_DAYS`` before its review date), or today when renewing
  before then, and not before its last approval or renewal: an old re-test does not count.

``changes.Renew`` enforces it for every caller (page, CLI, library); a page calls it
first to say why Renew is not possible.

Review order (``review_order``): overdue entries first, then those coming due, so every
list of entries to review or re-test starts with the one that needs it most.

Overlapping proposals (``open_entries_for``, ``overlap_warnings``). A proposal for a host
pattern that already has a proposed or approved entry is allowed (it may be the replacement
of a wrong one; approving it still needs the approved one retired), but it is named before
the proposal is written, as is a wildcard entry that covers the host.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, timedelta

from ..errors import OverrideError
from .checks import check_host
from .model import SiteOverride, Status, due_state, host_matches
from .retest import RetestResult, Verdict

__all__ = ["DUE_DAYS", "open_entries_for", "overlap_warnings", "renewal_refusal", "review_order"]

#: An entry comes due this many days before its review date; re-tests from then on count
#: towards renewing it.
DUE_DAYS = 30


def renewal_refusal(entry: SiteOverride, retest: RetestResult | None, today: date
                    ) -> str | None:
    """Why ``entry`` cannot be renewed on ``retest`` today, or None when it can.

    - no re-test, or one of another entry or encoding: re-test this entry first;
    - ``unneeded`` or ``harmful``: retire it instead;
    - run before the entry came due (``DUE_DAYS`` before its review date; today, when
      renewing before then) or before its last approval or renewal: re-test it again.
    """
    came_due = entry.review_by - timedelta(days=DUE_DAYS)
    since, when = (came_due, f"since it came due on {came_due}") if came_due <= today else (
        today, f"today (it is not due until {came_due}, so only today's re-test counts)")
    if entry.approved_on is not None and entry.approved_on > since:
        since, when = entry.approved_on, f"since its last approval on {entry.approved_on}"
    if retest is None:
        return (f"no re-test of {entry.id} has been run {when}: re-test it on a fresh "
                "sample, then renew it on that result")
    if retest.entry_id != entry.id or retest.override_encoding != entry.encoding:
        return (f"the re-test is of {retest.entry_id} ({retest.override_encoding}), not "
                f"{entry.id} ({entry.encoding}): re-test {entry.id} first")
    if retest.verdict is Verdict.UNNEEDED:
        return (f"the latest re-test of {entry.id} says unneeded ({retest.explanation}): "
                "the page decodes right without it, so retire it instead of renewing it")
    if retest.verdict is Verdict.HARMFUL:
        return (f"the latest re-test of {entry.id} says harmful ({retest.explanation}): "
                "the override now damages the text, so retire it instead of renewing it")
    tested = retest.tested_at.astimezone(UTC).date()
    if tested < since:
        return (f"the latest re-test of {entry.id} was run on {tested}, not {when}: "
                "re-test it again on a fresh sample, then renew it on that result")
    return None


def review_order(entries: Sequence[SiteOverride], today: date) -> tuple[SiteOverride, ...]:
    """The proposed and approved entries in the order a reviewer takes them.

    - overdue first (review date passed: an approved one no longer applies);
    - then due (review date within ``DUE_DAYS``);
    - then the rest; file order within each group.
    """
    rank = {"expired": 0, "due": 1, "ok": 2}
    live = [e for e in entries if e.status in (Status.PROPOSED, Status.APPROVED)]
    return tuple(sorted(live, key=lambda e: rank[due_state(e, today, DUE_DAYS)]))


def open_entries_for(entries: Sequence[SiteOverride], host: str) -> tuple[SiteOverride, ...]:
    """The proposed or approved entries a new proposal for ``host`` would overlap.

    Those with the same host pattern, then those whose pattern covers it
    (``*.example.com`` covers ``shop.example.com``); () when ``host`` is not valid.
    """
    try:
        pattern = check_host(host)
    except OverrideError:
        return ()
    live = [e for e in entries if e.status in (Status.PROPOSED, Status.APPROVED)]
    same = [e for e in live if e.host == pattern]
    covering = [e for e in live if e.host != pattern and host_matches(e.host, pattern)]
    return tuple(same + covering)


def overlap_warnings(entries: Sequence[SiteOverride], host: str) -> tuple[str, ...]:
    """What a new proposal for ``host`` overlaps, one sentence per open entry.

    - a proposal for the same pattern: it may be a duplicate;
    - an approved entry for the same pattern: this one is approved only once that is retired;
    - a wildcard that covers ``host``: this more specific one would take its place there.
    """
    pattern = host.strip().lower().rstrip(".")
    notes = []
    for other in open_entries_for(entries, host):
        same = other.host == pattern
        what = (f"{other.id} ({other.encoding}, {other.status}, review by {other.review_by}) "
                f"{'is already for' if same else 'already covers it as'} {other.host}")
        if other.status is Status.PROPOSED:
            notes.append(f"{what} and still awaits review: this may be a duplicate")
        elif same:
            notes.append(f"{what}: this one can be approved only once {other.id} is retired")
        else:
            notes.append(f"{what}: this more specific one would take its place for "
                         f"{pattern} once approved")
    return tuple(notes)
