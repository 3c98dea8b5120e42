"""Site overrides: dated, reasoned, reviewed encoding decisions kept in a YAML file.

``OverrideStore(path)`` reads and changes the file. Every change is a small record
(``Propose``, ``Approve``, ``Reject``, ``Retire``, ``Renew``) that can be previewed as a
unified diff (``store.preview(change)``) and then applied (``store.apply(change)``); the
methods ``propose``/``approve``/... build and apply one in a single call.

Integrity:

* a write re-reads the file under a lock (``<file>.lock``, filelock), applies the change to
  the round-trip tree, checks the result parses and validates, and replaces the file
  atomically (temporary file in the same folder, fsync, rename): several tabs or processes
  proposing and approving at once lose nothing;
* a file that does not parse or validate raises ``OverrideFileError`` (file, line, key,
  reason) and is never written;
* every change is appended to the entry's ``history`` (who, when, what changed).

Rules, each refused with an ``OverrideError`` saying what to do instead:

* a proposal names a valid host, a WHATWG encoding (not ``replacement``), a reason of a
  few words and a review date after today and at most ``MAX_REVIEW_DAYS`` ahead;
* only a proposal can be approved or rejected; only an approved entry can be renewed;
  proposed and approved entries can be retired (retiring only stops an override applying);
* the approver, rejecter or renewer is never the author; when the file (or the store)
  lists ``reviewers``, only they may approve, reject or renew;
* a proposal whose review date has passed cannot be approved (propose it again), and one
  host pattern has at most one approved, unexpired entry (retire or renew the other).
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any, Protocol

import filelock
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from .errors import OverrideError
from .overrides_file import (
    NEW_FILE,
    Document,
    OverrideFileError,
    parse_document,
    read_document,
    render,
    set_field,
    write_atomic,
)
from .overrides_model import (
    Applicability,
    HistoryEvent,
    OverrideEvidence,
    OverrideStatus,
    SiteOverride,
    Status,
    check_encoding,
    check_host,
    check_name,
    check_reason,
    choose_active,
    same_person,
    statuses_for,
)

__all__ = [
    "ENV_VAR",
    "MAX_REVIEW_DAYS",
    "Applicability",
    "Approve",
    "Change",
    "ChangeContext",
    "HistoryEvent",
    "OverrideError",
    "OverrideEvidence",
    "OverrideFileError",
    "OverrideStatus",
    "OverrideStore",
    "Propose",
    "Reject",
    "Renew",
    "Retire",
    "SiteOverride",
    "Status",
    "default_path",
]

#: Environment variable naming the overrides file used by the app and the CLI.
ENV_VAR = "ENCODING_TRIAGE_OVERRIDES"
#: A review date further ahead than this is refused: an override is a dated decision.
MAX_REVIEW_DAYS = 730
_ID = re.compile(r"ov-(\d+)\Z")
_DONE = {"approve": "approved", "reject": "rejected", "retire": "retired", "renew": "renewed"}


def default_path() -> Path:
    """``$ENCODING_TRIAGE_OVERRIDES``, else ``data/overrides.yaml`` in the project folder."""
    configured = os.environ.get(ENV_VAR, "").strip()
    if configured:
        return Path(configured).expanduser()
    return Path(__file__).resolve().parent.parent / "data" / "overrides.yaml"


@dataclass(frozen=True, slots=True)
class ChangeContext:
    """What a change may depend on besides the file: the time and who may review."""

    now: datetime
    reviewers: tuple[str, ...]

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
    author: str
    review_by: date
    evidence: OverrideEvidence | None = None

    def apply(self, doc: Document, ctx: ChangeContext) -> str:
        host = check_host(self.host)
        encoding = check_encoding(self.encoding)
        reason = check_reason(self.reason)
        author = check_name(self.author, what="author")
        _check_review_date(self.review_by, ctx.today)
        numbers = [int(m.group(1)) for m in (_ID.match(e.id) for e in doc.entries) if m]
        ident = f"ov-{max(numbers, default=0) + 1:04d}"
        node = CommentedMap()
        for key, value in (("id", ident), ("host", host), ("encoding", encoding),
                           ("reason", reason), ("created", ctx.now), ("created_by", author),
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
    reviewer: str

    def apply(self, doc: Document, ctx: ChangeContext) -> str:
        entry = _entry(doc, self.id, (Status.PROPOSED,), "approve")
        reviewer = _check_reviewer(entry, self.reviewer, ctx, "approve")
        if entry.expired_on(ctx.today):
            raise OverrideError(f"{entry.id}'s review date {entry.review_by} has passed: "
                                "propose it again with a new date")
        for other in doc.entries:
            if (other.host == entry.host and other.status is Status.APPROVED
                    and not other.expired_on(ctx.today)):
                raise OverrideError(f"{other.id} is already approved for {entry.host} until "
                                    f"{other.review_by}: retire it first")
        _update(doc, entry, ctx, reviewer, "approve", None,
                status=Status.APPROVED.value, approved_by=reviewer, approved_on=ctx.today)
        return entry.id


@dataclass(frozen=True, slots=True)
class Reject:
    """Reject a proposal, saying why; ``reviewer`` is not its author."""

    id: str
    reviewer: str
    reason: str

    def apply(self, doc: Document, ctx: ChangeContext) -> str:
        entry = _entry(doc, self.id, (Status.PROPOSED,), "reject")
        reviewer = _check_reviewer(entry, self.reviewer, ctx, "reject")
        reason = check_reason(self.reason)
        _update(doc, entry, ctx, reviewer, "reject", reason, status=Status.REJECTED.value,
                closed_by=reviewer, closed_on=ctx.today, closed_reason=reason)
        return entry.id


@dataclass(frozen=True, slots=True)
class Retire:
    """Stop a proposed or approved entry from ever applying, saying why."""

    id: str
    by: str
    reason: str

    def apply(self, doc: Document, ctx: ChangeContext) -> str:
        entry = _entry(doc, self.id, (Status.PROPOSED, Status.APPROVED), "retire")
        by = check_name(self.by, what="name")
        reason = check_reason(self.reason)
        _update(doc, entry, ctx, by, "retire", reason, status=Status.RETIRED.value,
                closed_by=by, closed_on=ctx.today, closed_reason=reason)
        return entry.id


@dataclass(frozen=True, slots=True)
class Renew:
    """After a re-test, keep an approved entry until a new review date, saying why."""

    id: str
    reviewer: str
    review_by: date
    reason: str

    def apply(self, doc: Document, ctx: ChangeContext) -> str:
        entry = _entry(doc, self.id, (Status.APPROVED,), "renew")
        reviewer = _check_reviewer(entry, self.reviewer, ctx, "renew")
        reason = check_reason(self.reason)
        _check_review_date(self.review_by, ctx.today)
        _update(doc, entry, ctx, reviewer, "renew", reason, review_by=self.review_by,
                approved_by=reviewer, approved_on=ctx.today)
        return entry.id


def _check_review_date(review_by: date, today: date) -> None:
    if not isinstance(review_by, date) or isinstance(review_by, datetime):
        raise OverrideError(f"review_by {review_by!r} is not a date")
    if review_by <= today:
        raise OverrideError(f"review_by {review_by} is not in the future (today is {today}): "
                            "an override needs a date to be re-tested on")
    if review_by > today + timedelta(days=MAX_REVIEW_DAYS):
        raise OverrideError(f"review_by {review_by} is more than {MAX_REVIEW_DAYS} days away: "
                            "an override is a dated decision, pick an earlier review date")


def _entry(doc: Document, ident: str, allowed: tuple[Status, ...], action: str) -> SiteOverride:
    for entry in doc.entries:
        if entry.id == ident:
            if entry.status not in allowed:
                raise OverrideError(f"cannot {action} {ident}: it is {entry.status}, and only "
                                    + " or ".join(s.value for s in allowed)
                                    + f" entries can be {_DONE[action]}")
            return entry
    raise OverrideError(f"no override with id {ident!r} in {doc.path}")


def _check_reviewer(entry: SiteOverride, name: str, ctx: ChangeContext, action: str) -> str:
    reviewer = check_name(name, what="reviewer")
    if same_person(reviewer, entry.created_by):
        raise OverrideError(f"{reviewer} proposed {entry.id} and cannot {action} it: "
                            "the approver is never the author")
    if ctx.reviewers and not any(same_person(reviewer, r) for r in ctx.reviewers):
        raise OverrideError(f"{reviewer} is not a listed reviewer ("
                            + ", ".join(ctx.reviewers) + f") and cannot {action} overrides")
    return reviewer


def _update(doc: Document, entry: SiteOverride, ctx: ChangeContext, by: str, action: str,
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


def _event(ctx: ChangeContext, by: str, action: str, reason: str | None = None,
           changed: CommentedMap | None = None) -> CommentedMap:
    node = CommentedMap()
    node["at"] = ctx.now
    node["by"] = by
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
        if value is not None:
            node[key] = value
    return node


def _now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


class OverrideStore:
    """Site overrides in the YAML file at ``path`` (created on the first change).

    ``reviewers``, when given, replaces the file's ``reviewers`` list; ``clock`` returns
    the current time (UTC) and is there for tests.
    """

    def __init__(self, path: str | os.PathLike[str], *, reviewers: Sequence[str] | None = None,
                 clock: Callable[[], datetime] | None = None, lock_timeout: float = 10.0):
        self.path = Path(path)
        self._reviewers = None if reviewers is None else tuple(reviewers)
        self._clock = clock or _now
        self._lock_timeout = lock_timeout

    def __repr__(self) -> str:
        return f"OverrideStore({str(self.path)!r})"

    def today(self) -> date:
        """Today by the store's clock (UTC)."""
        return self._clock().date()

    def read(self) -> Document:
        """The validated file (``OverrideFileError`` when it is not valid)."""
        return read_document(self.path)

    def text(self) -> str:
        """The file as it is on disk; the new-file template when there is none yet."""
        doc = self.read()
        return doc.text or NEW_FILE

    def entries(self) -> tuple[SiteOverride, ...]:
        """The current entries in file order (their history: ``history(id)``)."""
        return tuple(self.read().entries)

    def get(self, id: str) -> SiteOverride:
        """The entry with ``id``, or OverrideError."""
        for entry in self.entries():
            if entry.id == id:
                return entry
        raise OverrideError(f"no override with id {id!r} in {self.path}")

    def history(self, id: str) -> tuple[HistoryEvent, ...]:
        """Every recorded change to the entry ``id``, oldest first."""
        doc = self.read()
        if id not in doc.history:
            raise OverrideError(f"no override with id {id!r} in {self.path}")
        return doc.history[id]

    def reviewers(self) -> tuple[str, ...]:
        """Who may approve (empty: anyone but the author)."""
        return self._reviewers if self._reviewers is not None else self.read().reviewers

    def active_for(self, host: str, on: date | None = None) -> SiteOverride | None:
        """The approved, unexpired override for ``host`` on ``on`` (today), most specific first."""
        return choose_active(self.entries(), host, on or self.today())

    def status_for(self, host: str, on: date | None = None) -> tuple[OverrideStatus, ...]:
        """Every entry matching ``host`` with whether it applies and why; applied first."""
        return statuses_for(self.entries(), host, on or self.today())

    def preview(self, change: Change) -> str:
        """The unified diff ``apply(change)`` would write now (raises what apply would)."""
        doc = self.read()
        _, after = self._run(doc, change)
        name = self.path.name
        return "".join(difflib.unified_diff(
            doc.text.splitlines(keepends=True), after.splitlines(keepends=True),
            fromfile=f"a/{name}" if doc.text else "/dev/null", tofile=f"b/{name}"))

    def apply(self, change: Change) -> SiteOverride:
        """Apply ``change`` under the lock, write atomically, return the changed entry."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        lock = filelock.FileLock(str(self.path) + ".lock", timeout=self._lock_timeout)
        try:
            with lock:
                doc = self.read()
                entry, text = self._run(doc, change)
                write_atomic(self.path, text)
        except filelock.Timeout as exc:
            raise OverrideError(f"{self.path} is locked by another writer for more than "
                                f"{self._lock_timeout:g} s; try again") from exc
        return entry

    def _run(self, doc: Document, change: Change) -> tuple[SiteOverride, str]:
        ctx = ChangeContext(now=self._clock(),
                       reviewers=self._reviewers if self._reviewers is not None
                       else doc.reviewers)
        ident = change.apply(doc, ctx)
        text = render(doc)
        checked = parse_document(self.path, text)  # never write what would not read back
        entry = next(e for e in checked.entries if e.id == ident)
        return entry, text

    def propose(self, *, host: str, encoding: str, reason: str, author: str, review_by: date,
                evidence: OverrideEvidence | None = None) -> SiteOverride:
        """Propose an override; returns it with its new ``id``."""
        return self.apply(Propose(host, encoding, reason, author, review_by, evidence))

    def approve(self, id: str, *, reviewer: str) -> SiteOverride:
        """Approve the proposal ``id``."""
        return self.apply(Approve(id, reviewer))

    def reject(self, id: str, *, reviewer: str, reason: str) -> SiteOverride:
        """Reject the proposal ``id``."""
        return self.apply(Reject(id, reviewer, reason))

    def retire(self, id: str, *, by: str, reason: str) -> SiteOverride:
        """Retire the entry ``id``."""
        return self.apply(Retire(id, by, reason))

    def renew(self, id: str, *, reviewer: str, review_by: date, reason: str) -> SiteOverride:
        """Renew the approved entry ``id`` until ``review_by``."""
        return self.apply(Renew(id, reviewer, review_by, reason))
