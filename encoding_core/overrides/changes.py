"""Changes to the overrides file: each a small record that edits the round-trip tree.

``Propose``, ``Approve``, ``Reject``, ``Retire`` and ``Renew`` check their rules against the
current entries, edit the tree in place (updating keys where they are, inserting new ones in
``ENTRY_KEYS`` order, so comments and order survive) and append a history event with who,
when and what changed. ``OverrideStore`` previews or applies them under its lock.

Rules, each refused with an ``OverrideError`` saying what to do instead:

* a proposal names a valid host, a WHATWG encoding (not ``replacement``), a reason of a
  few words and a review date after today and at most ``MAX_REVIEW_DAYS`` ahead;
* only a proposal can be approved or rejected; only an approved entry can be renewed;
  proposed and approved entries can be retired (retiring only stops an override applying);
  ``actions_for`` lists the actions left to an entry in a status;
* who acts is an ``identity.Identity`` (a plain name is an unverified one); every history
  event records it under ``verified`` (how: ``oidc`` with issuer and subject, ``proxy`` with
  header and proxy address, or ``unverified``), and an approval or renewal also sets the
  entry's ``approved_via``;
* the approver, rejecter or renewer is never the author: not the same name as people read it
  (``names.same_person``), nor the same signed-in account (issuer and subject); when the file
  (or the store) lists ``reviewers``, only a verified member may approve, reject or renew;
* an unverified approval or renewal is refused where the store says so
  (``ChangeContext.unverified_refusal``: the app served beyond loopback);
* a proposal whose review date has passed cannot be approved (propose it again), and one
  host pattern has at most one approved, unexpired entry (retire or renew the other);
* a renewal rests on a re-test (``Renew.retest``) that still supports the override, run
  since the entry came due (``review.renewal_refusal`` has the rule), and sets a new review
  date: the one given, else ``RENEW_DAYS`` after the re-test; the previous approver stays
  in the history (the renewal event records ``approved_by`` and ``review_by`` old and new).

A proposal for a host pattern that already has an open entry is allowed (it may be the
replacement of a wrong one); ``review.overlap_warnings`` says what it overlaps.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, Protocol

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from ..errors import OverrideError
from .checks import (
    check_encoding,
    check_host,
    check_name,
    check_reason,
    same_person,
)
from .file import set_field
from .identity import SIGN_IN_HELP, Identity
from .model import (
    OverrideEvidence,
    SiteOverride,
    Status,
)
from .retest import RetestResult
from .review import renewal_refusal
from .schema import Document

__all__ = [
    "MAX_REVIEW_DAYS",
    "RENEW_DAYS",
    "Approve",
    "Change",
    "ChangeContext",
    "Propose",
    "Reject",
    "Renew",
    "Retire",
    "actions_for",
    "renewal_date",
]

#: A review date further ahead than this is refused: an override is a dated decision.
MAX_REVIEW_DAYS = 730
#: A renewal without a date is reviewed again this many days after the re-test it rests on.
RENEW_DAYS = 90
_ID = re.compile(r"ov-(\d+)\Z")
_DONE = {"approve": "approved", "reject": "rejected", "retire": "retired", "renew": "renewed"}
# The statuses each action applies to (``_entry`` refuses the others), in the order a page
# offers the actions.
_FROM = {"approve": (Status.PROPOSED,), "reject": (Status.PROPOSED,),
         "retire": (Status.PROPOSED, Status.APPROVED), "renew": (Status.APPROVED,)}


def actions_for(status: Status) -> tuple[str, ...]:
    """The review actions an entry in ``status`` can take: those its change would not refuse.

    >>> actions_for(Status.PROPOSED), actions_for(Status.APPROVED), actions_for(Status.RETIRED)
    (('approve', 'reject', 'retire'), ('retire', 'renew'), ())
    """
    return tuple(action for action, allowed in _FROM.items() if status in allowed)


@dataclass(frozen=True, slots=True)
class ChangeContext:
    """What a change may depend on besides the file: the time and who may review."""

    now: datetime
    reviewers: tuple[str, ...]
    unverified_refusal: str | None = None  # why a typed name may not approve or renew here

    @property
    def today(self) -> date:
        return self.now.date()


class Change(Protocol):
    """A change to the file: ``apply`` edits the tree in place and returns the entry id."""

    def apply(self, doc: Document, ctx: ChangeContext) -> str: ...


@dataclass(frozen=True, slots=True)
class Propose:
    """Propose forcing ``encoding`` for ``host`` until ``review_by``."""

    host: str
    encoding: str
    reason: str
    author: str | Identity
    review_by: date
    evidence: OverrideEvidence | None = None

    def apply(self, doc: Document, ctx: ChangeContext) -> str:
        host = check_host(self.host)
        encoding = check_encoding(self.encoding)
        reason = check_reason(self.reason)
        author = _person(self.author, "author")
        _check_review_date(self.review_by, ctx.today)
        numbers = [int(m.group(1)) for m in (_ID.match(e.id) for e in doc.entries) if m]
        ident = f"ov-{max(numbers, default=0) + 1:04d}"
        node = CommentedMap()
        for key, value in (("id", ident), ("host", host), ("encoding", encoding),
                           ("reason", reason), ("created", ctx.now), ("created_by", author.name),
                           ("review_by", self.review_by), ("status", Status.PROPOSED.value)):
            node[key] = value
        if self.evidence is not None:
            node["evidence"] = _evidence_node(self.evidence)
        history = CommentedSeq()
        history.append(_event(ctx, author, "propose"))
        node["history"] = history
        items = doc.root["overrides"]
        if not items:
            items.fa.set_block_style()
        items.append(node)
        return ident


@dataclass(frozen=True, slots=True)
class Approve:
    """Approve a proposal; ``reviewer`` is not its author."""

    id: str
    reviewer: str | Identity

    def apply(self, doc: Document, ctx: ChangeContext) -> str:
        entry = _entry(doc, self.id, "approve")
        reviewer = _check_reviewer(doc, entry, self.reviewer, ctx, "approve")
        if entry.expired_on(ctx.today):
            raise OverrideError(f"{entry.id}'s review date {entry.review_by} has passed: "
                                "propose it again with a new date")
        for other in doc.entries:
            if (other.host == entry.host and other.status is Status.APPROVED
                    and not other.expired_on(ctx.today)):
                raise OverrideError(f"{other.id} is already approved for {entry.host} until "
                                    f"{other.review_by}: retire it first")
        _update(doc, entry, ctx, reviewer, "approve", None,
                status=Status.APPROVED.value, approved_by=reviewer.name, approved_on=ctx.today,
                approved_via=reviewer.via.value)
        return entry.id


@dataclass(frozen=True, slots=True)
class Reject:
    """Reject a proposal, saying why; ``reviewer`` is not its author."""

    id: str
    reviewer: str | Identity
    reason: str

    def apply(self, doc: Document, ctx: ChangeContext) -> str:
        entry = _entry(doc, self.id, "reject")
        reviewer = _check_reviewer(doc, entry, self.reviewer, ctx, "reject")
        reason = check_reason(self.reason)
        _update(doc, entry, ctx, reviewer, "reject", reason, status=Status.REJECTED.value,
                closed_by=reviewer.name, closed_on=ctx.today, closed_reason=reason)
        return entry.id


@dataclass(frozen=True, slots=True)
class Retire:
    """Stop a proposed or approved entry from ever applying, saying why."""

    id: str
    by: str | Identity
    reason: str

    def apply(self, doc: Document, ctx: ChangeContext) -> str:
        entry = _entry(doc, self.id, "retire")
        by = _person(self.by, "name")
        reason = check_reason(self.reason)
        _update(doc, entry, ctx, by, "retire", reason, status=Status.RETIRED.value,
                closed_by=by.name, closed_on=ctx.today, closed_reason=reason)
        return entry.id


@dataclass(frozen=True, slots=True)
class Renew:
    """Keep an approved entry until a new review date, on a re-test that still supports it.

    ``retest`` is the latest re-test of the entry; see ``renewal_refusal`` for when it
    counts. Its summary is kept with the reason in the entry's history. ``review_by`` None
    means ``RENEW_DAYS`` after the re-test (``renewal_date``).
    """

    id: str
    reviewer: str | Identity
    review_by: date | None
    reason: str
    retest: RetestResult | None = None

    def apply(self, doc: Document, ctx: ChangeContext) -> str:
        entry = _entry(doc, self.id, "renew")
        reviewer = _check_reviewer(doc, entry, self.reviewer, ctx, "renew")
        reason = check_reason(self.reason)
        refusal = renewal_refusal(entry, self.retest, ctx.today)
        if refusal is not None:
            raise OverrideError(refusal)
        assert self.retest is not None  # renewal_refusal refuses a missing re-test
        review_by = self.review_by or renewal_date(self.retest)
        _check_review_date(review_by, ctx.today)
        summary = self.retest.summary()
        if summary not in reason:
            reason = f"{reason} ({summary})"
        _update(doc, entry, ctx, reviewer, "renew", reason, review_by=review_by,
                approved_by=reviewer.name, approved_on=ctx.today,
                approved_via=reviewer.via.value)
        return entry.id


def renewal_date(retest: RetestResult) -> date:
    """The review date a renewal on ``retest`` gets by default: ``RENEW_DAYS`` after it."""
    return retest.tested_at.date() + timedelta(days=RENEW_DAYS)


def _person(who: str | Identity, what: str) -> Identity:
    """``who`` as an Identity (a plain name: unverified), its name checked."""
    identity = who if isinstance(who, Identity) else Identity.typed(who)
    name = check_name(identity.name, what=what)
    return identity if name == identity.name else Identity(
        name, identity.via, identity.issuer, identity.subject, identity.header, identity.proxy)


def _check_review_date(review_by: date, today: date) -> None:
    if not isinstance(review_by, date) or isinstance(review_by, datetime):
        raise OverrideError(f"review_by {review_by!r} is not a date")
    if review_by <= today:
        raise OverrideError(f"review_by {review_by} is not in the future (today is {today}): "
                            "an override needs a date to be re-tested on")
    if review_by > today + timedelta(days=MAX_REVIEW_DAYS):
        raise OverrideError(f"review_by {review_by} is more than {MAX_REVIEW_DAYS} days away: "
                            "an override is a dated decision, pick an earlier review date")


def _entry(doc: Document, ident: str, action: str) -> SiteOverride:
    allowed = _FROM[action]
    for entry in doc.entries:
        if entry.id == ident:
            if entry.status not in allowed:
                raise OverrideError(f"cannot {action} {ident}: it is {entry.status}, and only "
                                    + " or ".join(s.value for s in allowed)
                                    + f" entries can be {_DONE[action]}")
            return entry
    raise OverrideError(f"no override with id {ident!r} in {doc.path}")


def _check_reviewer(doc: Document, entry: SiteOverride, who: str | Identity,
                    ctx: ChangeContext, action: str) -> Identity:
    reviewer = _person(who, "reviewer")
    proposed = next((h.identity for h in doc.history.get(entry.id, ())
                     if h.action == "propose"), None)
    if same_person(reviewer.name, entry.created_by) or reviewer.same_account(proposed):
        raise OverrideError(f"{reviewer.name} proposed {entry.id} and cannot {action} it: "
                            "the approver is never the author")
    if ctx.reviewers and not reviewer.verified:
        raise OverrideError(f"{reviewer.name} is a typed name, not a verified one, and the "
                            f"file lists reviewers: only a signed-in reviewer can {action} "
                            f"overrides ({SIGN_IN_HELP})")
    if ctx.reviewers and not any(same_person(reviewer.name, r) for r in ctx.reviewers):
        raise OverrideError(f"{reviewer.name} is not a listed reviewer ("
                            + ", ".join(ctx.reviewers) + f") and cannot {action} overrides")
    if action in ("approve", "renew") and not reviewer.verified and ctx.unverified_refusal:
        raise OverrideError(f"{reviewer.name} is a typed name, not a verified one, and "
                            f"{ctx.unverified_refusal}")
    return reviewer


def _update(doc: Document, entry: SiteOverride, ctx: ChangeContext, by: Identity, action: str,
            reason: str | None, **fields: Any) -> None:
    node = doc.nodes[entry.id]
    changed = CommentedMap()
    for key, value in fields.items():
        old = node.get(key)
        set_field(node, key, value)
        if old != value:
            pair = CommentedSeq([old, value])
            pair.fa.set_flow_style()
            changed[key] = pair
    history = node.get("history")
    if not isinstance(history, list):
        history = CommentedSeq()
        set_field(node, "history", history)
    history.append(_event(ctx, by, action, reason, changed))


def _event(ctx: ChangeContext, by: Identity, action: str, reason: str | None = None,
           changed: CommentedMap | None = None) -> CommentedMap:
    node = CommentedMap()
    node["at"] = ctx.now
    node["by"] = by.name
    verified = CommentedMap([("via", by.via.value)] + [
        (key, getattr(by, key)) for key in ("issuer", "subject", "header", "proxy")
        if getattr(by, key) is not None])
    verified.fa.set_flow_style()
    node["verified"] = verified
    node["action"] = action
    if reason:
        node["reason"] = reason
    if changed:
        node["changed"] = changed
    return node


def _evidence_node(evidence: OverrideEvidence) -> CommentedMap:
    node = CommentedMap()
    for key in ("url", "fetched_at", "sha256", "corrects", "replacements", "conflicts",
                "capture"):
        value = getattr(evidence, key)
        if isinstance(value, str):
            value = str(value)  # a plain str: a StrEnum (Source) has no YAML representation
        if value is not None:
            node[key] = value
    return node
